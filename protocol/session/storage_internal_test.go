package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// randomJSON returns a maker of random JSON values (strings with quotes,
// backslashes and bytes json.Marshal escapes, numbers, literals, nested
// objects and lists) and a maker of a changed copy of such a value.
func randomJSON(r *rand.Rand) (value func(depth int) any, mutate func(v any) any) {
	value = func(depth int) any {
		switch k := r.IntN(7); {
		case k == 0 || depth > 2 && k > 3:
			return []string{`a"b`, `c\d`, `\"`, "é<&>", "", "x"}[r.IntN(6)]
		case k == 1:
			return json.Number(fmt.Sprint(r.IntN(2000) - 1000))
		case k == 2:
			return []any{true, false, nil}[r.IntN(3)]
		case k == 3 || k == 4:
			m := map[string]any{}
			for range r.IntN(4) {
				m[fmt.Sprintf("k%d\"", r.IntN(5))] = value(depth + 1)
			}
			return m
		default:
			l := []any{}
			for range r.IntN(4) {
				l = append(l, value(depth+1))
			}
			return l
		}
	}
	mutate = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			c := map[string]any{}
			for k, x := range v {
				c[k] = x
			}
			k := fmt.Sprintf("k%d\"", r.IntN(5))
			switch r.IntN(3) {
			case 0:
				delete(c, k)
			case 1:
				c[k] = value(1)
			default:
				if x, ok := c[k]; ok {
					c[k] = mutate(x)
				}
			}
			return c
		case []any:
			c := append([]any(nil), v...)
			switch r.IntN(3) {
			case 0:
				return append(c, value(2), value(2))
			case 1:
				if len(c) > 0 {
					c[r.IntN(len(c))] = mutate(c[r.IntN(len(c))])
				}
				return c
			default:
				if len(c) > 0 {
					return c[:len(c)-1]
				}
				return c
			}
		default:
			if r.IntN(2) == 0 {
				return v
			}
			return value(2)
		}
	}
	return value, mutate
}

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

// TestT3SecretsRawPatchMatchesDecoded checks that the patch computed on
// the encodings of two secrets documents (rawSecretsPatch) is the one
// computed on their decoded values (secretsPatch), byte for byte once
// encoded, and that equal values give no patch: on random documents and
// mutations (nested objects, growing and changed lists, strings with
// escaped quotes and backslashes, numbers), on documents re-encoded with
// their keys in another order and with spaces, and that a malformed new
// document is an error.
func TestT3SecretsRawPatchMatchesDecoded(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	value, mutate := randomJSON(r)
	// spaced re-encodes v with its keys in reverse order and spaces.
	var spaced func(v any) string
	spaced = func(v any) string {
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			slices.Reverse(keys)
			parts := []string{}
			for _, k := range keys {
				kb, _ := json.Marshal(k)
				parts = append(parts, string(kb)+" : "+spaced(v[k]))
			}
			return "{ " + strings.Join(parts, " ,\n") + " }"
		case []any:
			parts := []string{}
			for _, x := range v {
				parts = append(parts, spaced(x))
			}
			return "[ " + strings.Join(parts, " , ") + " ]"
		default:
			b, _ := json.Marshal(v)
			return string(b)
		}
	}
	for step := range 3000 {
		old := map[string]any{"variant": value(0), "log": []any{value(1)}}
		new := mutate(mutate(old)).(map[string]any)
		if r.IntN(3) == 0 {
			new["log"] = append(append([]any(nil), old["log"].([]any)...), value(1))
		}
		ob, _ := json.Marshal(old)
		nb, _ := json.Marshal(new)
		if step%4 == 0 {
			ob = []byte(spaced(old))
		}
		ov, _ := decodeJSONValue(ob)
		nv, _ := decodeJSONValue(nb)
		got, changed, err := rawSecretsPatch(ob, nb)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if changed == reflect.DeepEqual(ov, nv) {
			t.Fatalf("step %d: changed %v for %s -> %s", step, changed, ob, nb)
		}
		if !changed {
			continue
		}
		want, _ := json.Marshal(secretsPatch(ov, nv))
		gotb, err := json.Marshal(got)
		if err != nil || string(gotb) != string(want) {
			t.Fatalf("step %d: patch %s, want %s (%v)\nold %s\nnew %s", step, gotb, want, err, ob, nb)
		}
		// The line secretsLog writes (PN-D19) is the same bytes.
		var line bytes.Buffer
		if err := encodeSecretsPatch(&line, got); err != nil || line.String() != string(want) {
			t.Fatalf("step %d: line %s, want %s (%v)", step, line.Bytes(), want, err)
		}
	}
	for _, bad := range []string{`{"a":1,"b":}`, `{"a":"x}`, `{"a":[1,2}`, `{"a":1`, `{"a":01}`} {
		if _, _, err := rawSecretsPatch([]byte(`{"a":1,"b":2}`), []byte(bad)); err == nil {
			t.Errorf("no error for %s", bad)
		}
	}
}

// TestT3SecretsLogRefusesMalformedDocuments checks that a secrets
// document that is not JSON, or whose changed string holds a control
// character, is refused and leaves the file as it was.
func TestT3SecretsLogRefusesMalformedDocuments(t *testing.T) {
	path := t.TempDir() + "/x.secrets.json"
	s := &secretsLog{file: appendFile{path: path}}
	if err := s.save([]byte(`{"a":`)); err == nil {
		t.Fatal("a torn first document was saved")
	}
	if err := s.save([]byte(`{"a":"x","b":[1]}`)); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{`{"a":"x` + "\x01" + `","b":[1]}`, `{"a":"x","b":[1,}`, `{"a":"x","b":[1]`} {
		if err := s.save([]byte(bad)); err == nil {
			t.Errorf("%q was saved", bad)
		}
	}
	raw, _, err := loadSecrets(path)
	if err != nil || string(raw) != `{"a":"x","b":[1]}` {
		t.Errorf("the file folds to %s (%v)", raw, err)
	}
}

// TestRECD16SecretsLogRewritten saves a game-like sequence of secrets
// documents (a large entry replaced at each step, a list that grows)
// through a secretsLog whose rewrite threshold is lowered, and checks
// that the file is rewritten as its document alone whenever a change
// would make it longer than secretsCompactRatio documents, never longer,
// and always folds to the last document; that the log goes on after a
// rewrite, also when reopened as loadGame reopens it; that a crash
// between writing the new file and renaming it leaves the log folding to
// the document before; and that compact leaves a log of several lines
// as one and writes nothing for a file of one line.
func TestRECD16SecretsLogRewritten(t *testing.T) {
	defer func(ratio, low int64) { secretsCompactRatio, secretsCompactMin = ratio, low }(secretsCompactRatio, secretsCompactMin)
	secretsCompactRatio, secretsCompactMin = 3, 0
	path := t.TempDir() + "/x.secrets.json"
	s := &secretsLog{file: appendFile{path: path}}
	defer s.file.close()
	docAt := func(step int) []byte {
		log := make([]string, step)
		for i := range log {
			log[i] = fmt.Sprintf("try %d", i)
		}
		big := map[string]string{fmt.Sprintf("k%d", step): strings.Repeat(fmt.Sprint(step%10), 2000)}
		if step > 0 {
			big[fmt.Sprintf("k%d", step-1)] = strings.Repeat(fmt.Sprint((step-1)%10), 2000)
		}
		data, err := json.Marshal(map[string]any{"role": 1, "variant": map[string]any{"log": log, "reverses": big}})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	lines := func() int {
		file, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(file), "\n")
	}
	rewrites, appends := 0, 0
	var prev []byte
	for step := 0; step < 60; step++ {
		data := docAt(step)
		if step == 30 {
			// A crash after the new file is written and synced, before
			// the rename: the log is as it was.
			for s.file.size+int64(len(data)) <= secretsCompactAt(len(data)) {
				// Step on until the next change would rewrite.
				if err := s.save(data); err != nil {
					t.Fatal(err)
				}
				prev, step = data, step+1
				data = docAt(step)
			}
			s.hook = func(where string) {
				if where == "secrets-rewritten" {
					panic("crash")
				}
			}
			func() {
				defer func() { recover() }()
				s.save(data)
				t.Fatal("no rewrite")
			}()
			s.file.close()
			if _, err := os.Stat(s.newPath()); err != nil {
				t.Fatalf("no new file when the rewrite crashed: %v", err)
			}
			raw, valid, err := loadSecrets(path)
			if err != nil || !sameJSON(t, raw, prev) {
				t.Fatalf("after a crash before the rename the file folds to %.80s (%v), want the document before", raw, err)
			}
			// Resumed as loadGame resumes it.
			s = &secretsLog{file: appendFile{path: path, size: int64(valid)}, raw: raw}
		}
		if err := s.save(data); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if n := lines(); n == 1 && step > 0 {
			rewrites++
		} else if n > 1 {
			appends++
		}
		if limit := secretsCompactAt(len(data)); s.file.size > limit {
			t.Fatalf("step %d: the file holds %d bytes, over %d", step, s.file.size, limit)
		}
		if info, err := os.Stat(path); err != nil || info.Size() != s.file.size {
			t.Fatalf("step %d: the file's size is not the log's (%v)", step, err)
		}
		raw, _, err := loadSecrets(path)
		if err != nil || !sameJSON(t, raw, data) {
			t.Fatalf("step %d: folds to %.80s (%v), want the last document", step, raw, err)
		}
		prev = data
	}
	if _, err := os.Stat(s.newPath()); err == nil {
		t.Error("the new file of a rewrite is left after the rewrites that followed it")
	}
	if rewrites < 3 || appends < 3 {
		t.Fatalf("%d rewrites and %d appended lines: want several of both", rewrites, appends)
	}
	// compact: one line that folds to the last document, then nothing.
	secretsCompactRatio, secretsCompactMin = 1000, 1<<30
	if err := s.save(docAt(60)); err != nil {
		t.Fatal(err)
	}
	if lines() < 2 {
		t.Fatal("no line appended before compact")
	}
	if err := s.compact(); err != nil {
		t.Fatal(err)
	}
	raw, _, err := loadSecrets(path)
	if n := lines(); n != 1 || err != nil || !sameJSON(t, raw, docAt(60)) {
		t.Fatalf("after compact: %d lines, folding to %.80s (%v)", n, raw, err)
	}
	before := bytesWritten.Load()
	if err := s.compact(); err != nil || bytesWritten.Load() != before {
		t.Fatalf("compact of one line wrote %d bytes (%v)", bytesWritten.Load()-before, err)
	}
}

// TestRECD19SecretsRewriteRatio checks the default rewrite threshold of
// the secrets log (REC-D19): over a game-like run of documents (each
// change a new 40 KB entry replacing the oldest of two, the document
// 80 KB), the bytes written after the first document exceed the
// changes' by less than a fifth, and the file never holds more than five
// documents.
func TestRECD19SecretsRewriteRatio(t *testing.T) {
	path := t.TempDir() + "/x.secrets.json"
	s := &secretsLog{file: appendFile{path: path}}
	defer s.file.close()
	var changes, written int64
	var prev []byte
	for step := range 200 {
		data, err := json.Marshal(map[string]any{"variant": map[string]string{
			fmt.Sprint(step):     strings.Repeat(string(rune('a'+step%26)), 40000),
			fmt.Sprint(step + 1): strings.Repeat(string(rune('a'+(step+1)%26)), 40000)}})
		if err != nil {
			t.Fatal(err)
		}
		if prev != nil {
			patch, _, err := rawSecretsPatch(prev, data)
			if err != nil {
				t.Fatal(err)
			}
			line, _ := json.Marshal(patch)
			changes += int64(len(line)) + 1
		}
		size := s.file.size
		if err := s.save(data); err != nil {
			t.Fatal(err)
		}
		if prev != nil && s.file.size == int64(len(data)+1) {
			written += s.file.size // rewritten
		} else if prev != nil {
			written += s.file.size - size
		}
		if s.file.size > 5*int64(len(data)+1) {
			t.Fatalf("step %d: the file holds %d bytes, more than five documents of %d", step, s.file.size, len(data)+1)
		}
		prev = data
	}
	// A change is half a document here: a rewrite comes after 2(r − 1)
	// changes appended and replaces the one that triggered it, two
	// changes' worth, so written/changes is about 2r/(2r − 1): 1.11 at
	// r = 5 (measured 1.120), 1.2 at r = 3 (measured 1.246).
	if float64(written) >= 1.2*float64(changes) {
		t.Errorf("%d bytes written for %d bytes of changes: %.3f×, not below 1.2×", written, changes, float64(written)/float64(changes))
	}
	t.Logf("%d bytes written for %d bytes of changes: %.3f×", written, changes, float64(written)/float64(changes))
}
