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

// docTree is v as a docObject when v is an object (its keys sorted, as
// json.Marshal writes them), its other members encoded; a member whose
// encoding is that of the same member of like (the document of the save
// before) is like's slice, as the player's memo gives it (PN-D24).
func docTree(v any, like *docObject) docValue {
	m, ok := v.(map[string]any)
	if !ok {
		b, _ := json.Marshal(v)
		return docValue{raw: b}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	o := &docObject{}
	for _, k := range keys {
		var sub *docObject
		var same []byte
		if like != nil {
			if i := slices.Index(like.keys, k); i >= 0 {
				sub, same = like.vals[i].obj, like.vals[i].raw
			}
		}
		dv := docTree(m[k], sub)
		if dv.obj == nil && same != nil && bytes.Equal(dv.raw, same) {
			dv.raw = same
		}
		o.add(k, dv)
	}
	return docValue{obj: o}
}

// TestPND24DocPatchIsRawPatch: the patch of two documents kept as
// members (docPatch) is, byte for byte once encoded, the patch of their
// encodings (rawSecretsPatch), and says changed alike; a document's
// encoding is json.Marshal's and its size that encoding's length. 3000
// random pairs: keys added, removed and changed at every depth, lists
// grown, cut and changed, keys and strings json.Marshal escapes, the
// unchanged members shared with the document before or not.
func TestPND24DocPatchIsRawPatch(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 1))
	value, mutate := randomJSON(r)
	changes := 0
	for step := range 3000 {
		// The keys mutate changes (k0" to k4"), at every depth.
		old := map[string]any{"request": strings.Repeat("QUJD", r.IntN(40))}
		for i := range 5 {
			m := map[string]any{}
			for j := range 5 {
				m[fmt.Sprintf("k%d\"", j)] = value(1)
			}
			old[fmt.Sprintf("k%d\"", i)] = m
		}
		new := old
		for range 1 + r.IntN(3) {
			new = mutate(new).(map[string]any)
		}
		if r.IntN(4) == 0 {
			new = old
		}
		od := docTree(old, nil).obj
		var like *docObject
		if step%2 == 0 {
			like = od
		}
		nd := docTree(new, like).obj
		for _, c := range []struct {
			v any
			d *docObject
		}{{old, od}, {new, nd}} {
			d := c.d
			want, _ := json.Marshal(c.v)
			if got := d.json(); !bytes.Equal(got, want) {
				t.Fatalf("step %d: document encodes as\n%s\nnot\n%s", step, got, want)
			}
			if d.size() != len(d.json()) {
				t.Fatalf("step %d: size %d, encoding %d bytes", step, d.size(), len(d.json()))
			}
		}
		got, gotChanged, err := docPatch(od, nd)
		if err != nil {
			t.Fatalf("step %d: docPatch: %v", step, err)
		}
		want, wantChanged, err := rawSecretsPatch(od.json(), nd.json())
		if err != nil {
			t.Fatalf("step %d: rawSecretsPatch: %v", step, err)
		}
		if gotChanged != wantChanged {
			t.Fatalf("step %d: changed %v, by encodings %v", step, gotChanged, wantChanged)
		}
		if !gotChanged {
			continue
		}
		changes++
		var gb, wb bytes.Buffer
		if err := encodeSecretsPatch(&gb, got); err != nil {
			t.Fatal(err)
		}
		if err := encodeSecretsPatch(&wb, want); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gb.Bytes(), wb.Bytes()) {
			t.Fatalf("step %d: patch by members\n%s\nby encodings\n%s", step, gb.Bytes(), wb.Bytes())
		}
		// Held to the decoded documents too: rawSecretsPatch patches
		// objects with docPatch, so the comparison above cannot see a
		// fault they share.
		ov, _ := decodeJSONValue(od.json())
		nv, _ := decodeJSONValue(nd.json())
		pv, err := decodeJSONValue(gb.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		folded, err := applySecretsPatch(ov, pv.(map[string]any))
		if err != nil || !reflect.DeepEqual(withoutNulls(folded), withoutNulls(nv)) {
			t.Fatalf("step %d: the patch %s applied to the old document does not give the new one (%v)", step, gb.Bytes(), err)
		}
	}
	if changes < 1000 {
		t.Fatalf("only %d of 3000 pairs changed", changes)
	}
}

// withoutNulls is v without its objects' null members, which a merge
// patch cannot tell from absent ones (both fold to none; the secrets'
// maps decode them alike).
func withoutNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			if x != nil {
				out[k] = withoutNulls(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = withoutNulls(x)
		}
		return out
	}
	return v
}

// TestPND24LogByMembersWritesTheSameFile: a secretsLog saved by
// saveDoc writes the file, line for line, that one saved by the
// documents' encodings writes (the first line, the patches, the
// rewrites of REC-D16 at a small threshold), and one that takes
// encodings after documents (a resume, another variant's save) goes on
// from the right document.
func TestPND24LogByMembersWritesTheSameFile(t *testing.T) {
	defer func(m int64) { secretsCompactMin = m }(secretsCompactMin)
	secretsCompactMin = 2 << 10
	r := rand.New(rand.NewPCG(24, 2))
	value, mutate := randomJSON(r)
	dir := t.TempDir()
	byBytes := &secretsLog{file: appendFile{path: dir + "/bytes.secrets.json"}}
	byDoc := &secretsLog{file: appendFile{path: dir + "/doc.secrets.json"}}
	defer byBytes.file.close()
	defer byDoc.file.close()
	doc := map[string]any{"role": 1, "variant": map[string]any{"log": []any{}, "x": value(0)}}
	var prev *docObject
	rewrites := 0
	for step := range 400 {
		if r.IntN(5) > 0 {
			doc = mutate(doc).(map[string]any)
		}
		data, _ := json.Marshal(doc)
		d := docTree(doc, prev).obj
		if err := byBytes.save(data); err != nil {
			t.Fatal(err)
		}
		if step%7 == 3 {
			// The document as bytes: the log forgets its members.
			if err := byDoc.save(data); err != nil {
				t.Fatal(err)
			}
		} else if err := byDoc.saveDoc(d); err != nil {
			t.Fatal(err)
		}
		prev = d
		a, _ := os.ReadFile(byBytes.file.path)
		b, _ := os.ReadFile(byDoc.file.path)
		if !bytes.Equal(a, b) {
			t.Fatalf("step %d: the files differ:\n%s\n%s", step, a, b)
		}
		if bytes.Count(a, []byte("\n")) == 1 && step > 0 {
			rewrites++
		}
		if !bytes.Equal(byDoc.held(), data) {
			t.Fatalf("step %d: the log holds\n%s\nnot\n%s", step, byDoc.held(), data)
		}
	}
	if rewrites == 0 {
		t.Fatal("no rewrite happened")
	}
}

// TestPND24PrintableASCII holds printableASCII, which reads eight bytes
// at a time, to the byte-by-byte test: every byte value at every place
// of strings of 0 to 24 printable bytes, and random strings.
func TestPND24PrintableASCII(t *testing.T) {
	slow := func(b []byte) bool {
		for _, c := range b {
			if c < 0x20 || c > 0x7e {
				return false
			}
		}
		return true
	}
	r := rand.New(rand.NewPCG(24, 3))
	for n := range 25 {
		base := make([]byte, n)
		for i := range base {
			base[i] = byte(0x20 + r.IntN(0x5f))
		}
		if !printableASCII(base) {
			t.Fatalf("%q: not printable", base)
		}
		for at := range n {
			for c := range 256 {
				b := bytes.Clone(base)
				b[at] = byte(c)
				if got, want := printableASCII(b), slow(b); got != want {
					t.Fatalf("%q: printableASCII %v, want %v", b, got, want)
				}
			}
		}
	}
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(0x1e + r.IntN(0x63))
		}
		if got, want := printableASCII(b), slow(b); got != want {
			t.Fatalf("%q: printableASCII %v, want %v", b, got, want)
		}
	}
}
