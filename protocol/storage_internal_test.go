package protocol

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestT3SecretsLogFoldsToTheLastDocument saves a sequence of random
// secrets documents (keys added, changed and removed, nested objects,
// lists that grow, shrink or change) through a secretsLog and checks
// that the file folds back to each last document, that a growing list
// is written as its new elements only, and that a torn last line folds
// to the document before it.
func TestT3SecretsLogFoldsToTheLastDocument(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	path := t.TempDir() + "/x.secrets.json"
	s := &secretsLog{file: appendFile{path: path}}
	doc := map[string]any{"role": 1, "variant": map[string]any{"log": []any{}}}
	var prev []byte
	for step := range 200 {
		v := doc["variant"].(map[string]any)
		switch r.IntN(6) {
		case 0:
			v["log"] = append(v["log"].([]any), fmt.Sprintf("try %d", step))
		case 1:
			v[fmt.Sprintf("k%d", r.IntN(5))] = r.IntN(1000)
		case 2:
			delete(v, fmt.Sprintf("k%d", r.IntN(5)))
		case 3:
			v["shares"] = map[string]any{fmt.Sprint(step): strings.Repeat("x", r.IntN(8))}
		case 4:
			if l := v["log"].([]any); len(l) > 0 {
				v["log"] = l[:len(l)-1]
			}
		case 5:
			doc["toss"] = fmt.Sprint(step)
		}
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		before := s.file.size
		if err := s.save(data); err != nil {
			t.Fatal(err)
		}
		raw, _, err := loadSecrets(path)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if !sameJSON(t, raw, data) {
			t.Fatalf("step %d: folds to %s, want %s", step, raw, data)
		}
		// A torn last line folds to the document before it.
		if prev != nil && s.file.size > before {
			file, _ := os.ReadFile(path)
			torn := file[:before+(s.file.size-before)/2]
			got, valid, err := parseSecretsLog(torn)
			if err != nil || int64(valid) != before || !sameJSON(t, got, prev) {
				t.Fatalf("step %d: the torn file folds to %s (valid %d of %d, %v), want %s", step, got, valid, before, err, prev)
			}
		}
		prev = data
	}
	// The log's list grew by its new elements, not written out whole.
	file, _ := os.ReadFile(path)
	if !strings.Contains(string(file), `"log":{"+":[`) {
		t.Errorf("no list was extended by its new elements:\n%s", file)
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
