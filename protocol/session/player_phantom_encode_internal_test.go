package session

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kakure/kakure/commit"
)

// TestPND19SecretsEncoding checks the memoised encoding of Phantom Go's
// secrets (PN-D19) over a game-like run of saves: each document decodes
// as json.Marshal's; the secrets log of the current version (its first
// document written by json.Marshal, as before PN-D19), continued with
// the new encoding and rewritten now and then, folds to the last
// document; the memo keeps only what the last save used; and a byte
// string changed in place after it was encoded makes the check
// (secretsMemoCheck) panic. The saves' small fields include a log that
// grows and is replaced by a longer and a shorter one, a kept commitment and outputs that
// change once a try (PN-D26's encodings kept from save to save).
func TestPND19SecretsEncoding(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 38))
	blob := blobsOf(r)
	oldRatio, oldMin := secretsCompactRatio, secretsCompactMin
	secretsCompactRatio, secretsCompactMin = 3, 1
	defer func() { secretsCompactRatio, secretsCompactMin = oldRatio, oldMin }()

	var memo secretsMemo
	path := t.TempDir() + "/g.secrets.json"
	log := &secretsLog{file: appendFile{path: path}}
	defer log.file.close()
	base, revBase := blob(300), blob(500)
	var request, prevRequest, reverse, prevReverse []byte
	var evidence [][]byte
	auths := map[uint64][]byte{}
	var last phantomSecrets
	var plog []phantomLogged
	var kept *PhantomCommitment
	var outputs *PhantomOutputs
	for step := range 40 {
		// The log grows at its end, and once is replaced by another
		// (PN-D26); the kept commitment and the outputs change once a
		// try.
		plog = append(plog, phantomLogged{Try: uint64(step), Announcement: []string{"a=1", "b=<2>&"}[step%2]})
		switch step {
		case 20: // another log, longer, that does not start with this one
			plog = append([]phantomLogged{{Try: 99, Announcement: "z"}}, plog...)
		case 30: // a shorter one
			plog = plog[:3:3]
		}
		if step%3 == 1 {
			kept = &PhantomCommitment{Commitments: blob(64), Labels: blob(300), Seeds: [][]byte{nil, {}}[step%2]}
			outputs = &PhantomOutputs{Pass: step%2 == 0, Legal: true, Labels: blob(32)}
		}
		switch step {
		case 13:
			kept, outputs = nil, &PhantomOutputs{Legal: true}
		case 14: // labels empty, not null
			outputs = &PhantomOutputs{Legal: true, Labels: []byte{}}
		}
		choice := blob(step % 4)
		if step%3 == 0 {
			prevRequest, request = request, blob(2000+r.IntN(50))
			prevReverse, reverse = reverse, blob(1500)
			evidence = append(evidence, blob(400), blob(300))
			if len(evidence) > evidenceKept {
				evidence = append([][]byte(nil), evidence[len(evidence)-evidenceKept:]...)
			}
			next := map[uint64][]byte{uint64(step + 3): blob(700)}
			if a := auths[uint64(step)]; a != nil {
				next[uint64(step)] = a
			}
			auths = next
		}
		if step%3 == 2 {
			request = nil
		}
		s := phantomSecrets{Seed: &commit.Opening{Value: blob(32), Salt: commit.Salt(blob(commit.SaltSize))}, Base: base, ReverseBase: revBase,
			Tries: []string{"D4", "pass"}[:step%3], Requests: memo.keyed(request, prevRequest),
			Reverses: memo.keyed(reverse, prevReverse), Evidence: memo.keyed(evidence...), Auths: auths,
			Choice: choice, PrevChoice: last.Choice, Caught: []string{"", "x"}[step%2],
			Log: plog, Commitment: kept, Outputs: outputs}
		if step == 7 {
			s.Base = []byte{}
		}
		enc, err := encodePhantomSecrets(s, &memo)
		if err != nil {
			t.Fatal(err)
		}
		checkSecretsEncoding(s, enc)
		if want := keyedByDigest(request, prevRequest); !reflect.DeepEqual(s.Requests, want) {
			t.Fatalf("step %d: keys %v, want %v", step, s.Requests, want)
		}
		for _, e := range memo.cur {
			used := false
			for _, b := range append([][]byte{base, revBase, request, prevRequest, reverse, prevReverse, choice, last.Choice}, evidence...) {
				used = used || len(b) > 0 && &b[0] == &e.b[0]
			}
			for _, b := range auths {
				used = used || len(b) > 0 && &b[0] == &e.b[0]
			}
			if !used {
				t.Fatalf("step %d: the memo keeps a byte string the save did not use", step)
			}
		}
		doc := enc
		if step == 0 {
			// The first line as the version before PN-D19 wrote it.
			doc, _ = json.Marshal(s)
		}
		if err := log.save(doc); err != nil {
			t.Fatal(err)
		}
		last = s
	}
	folded, _, err := loadSecrets(path)
	if err != nil {
		t.Fatal(err)
	}
	var got phantomSecrets
	if err := json.Unmarshal(folded, &got); err != nil {
		t.Fatal(err)
	}
	wantDoc, _ := json.Marshal(last)
	gotDoc, _ := json.Marshal(got)
	if string(gotDoc) != string(wantDoc) {
		t.Fatalf("the log folds to\n%.300s\nwant\n%.300s", gotDoc, wantDoc)
	}

	// A byte string changed in place after its encoding was memoised,
	// alone or inside the kept commitment (PN-D26), is caught.
	check := secretsMemoCheck
	secretsMemoCheck = true
	defer func() { secretsMemoCheck = check }()
	kept = &PhantomCommitment{Commitments: blob(64), Labels: blob(300)}
	for _, c := range []struct {
		name   string
		s      phantomSecrets
		change []byte
	}{
		{"the base", phantomSecrets{Base: base}, base},
		{"the kept commitment's labels", phantomSecrets{Commitment: kept}, kept.Labels},
	} {
		if _, err := encodePhantomSecrets(c.s, &memo); err != nil {
			t.Fatal(err)
		}
		c.change[0] ^= 1
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s changed in place was not caught", c.name)
				}
			}()
			encodePhantomSecrets(c.s, &memo)
		}()
	}
}

// TestPND26SmallFieldsKeptFromSaveToSave checks the encodings PN-D26
// keeps from save to save. The log's is json.Marshal's as the log grows,
// is replaced by a longer one with another start and by a shorter one,
// and has an entry changed in place. The kept commitment's and the
// outputs' members are json.Marshal's: the same slice at the next save
// while they are made of the same byte strings (docPatch then finds
// them unchanged at once), a new encoding when a string is another one
// (even with the same bytes) or a field changes, labels that are nil
// encoded as null and empty ones as "".
func TestPND26SmallFieldsKeptFromSaveToSave(t *testing.T) {
	blob := blobsOf(rand.New(rand.NewPCG(26, 38)))
	marshal := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var m secretsMemo
	member := func(s phantomSecrets, name string) []byte {
		d, err := phantomSecretsDoc(s, &m)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range d.keys {
			if k == name {
				return d.vals[i].json()
			}
		}
		t.Fatalf("no member %q", name)
		return nil
	}

	var log []phantomLogged
	for step := range 30 {
		log = append(log, phantomLogged{Try: uint64(step), Announcement: []string{"a=1", `b=<2>&"x"`}[step%2]})
		switch step {
		case 10: // another log, longer, that does not start with this one
			log = append([]phantomLogged{{Try: 99, Announcement: "z"}}, log...)
		case 20: // a shorter one
			log = log[:3:3]
		case 25: // an entry changed in place
			log[1].Announcement = "changed"
		}
		if got, want := member(phantomSecrets{Log: log}, "log"), marshal(log); !bytes.Equal(got, want) {
			t.Fatalf("step %d: the log encodes as\n%s\nwant\n%s", step, got, want)
		}
	}

	c := &PhantomCommitment{Commitments: blob(64), Labels: blob(300)}
	o := &PhantomOutputs{Pass: true, Legal: true, Labels: blob(32)}
	for i, tc := range []struct {
		what   string
		c      *PhantomCommitment
		o      *PhantomOutputs
		reused bool // the members of the save before, as they were
	}{
		{"the first save", c, o, false},
		{"the same strings", c, o, true},
		{"the same values anew", &PhantomCommitment{Commitments: c.Commitments, Labels: c.Labels}, &PhantomOutputs{Pass: true, Legal: true, Labels: o.Labels}, true},
		{"copies of the strings", &PhantomCommitment{Commitments: bytes.Clone(c.Commitments), Labels: bytes.Clone(c.Labels)}, &PhantomOutputs{Pass: true, Legal: true, Labels: bytes.Clone(o.Labels)}, false},
		{"other strings", &PhantomCommitment{Commitments: blob(64), Labels: blob(300), Seeds: blob(16)}, &PhantomOutputs{Pass: true, Legal: true, Labels: blob(32)}, false},
		{"another field", &PhantomCommitment{Commitments: c.Commitments}, &PhantomOutputs{Legal: true, Labels: o.Labels}, false},
		{"null labels", &PhantomCommitment{Commitments: nil}, &PhantomOutputs{Legal: true}, false},
		{"empty labels", &PhantomCommitment{Commitments: []byte{}}, &PhantomOutputs{Legal: true, Labels: []byte{}}, false},
	} {
		before := [2][]byte{m.kept["commitment"].enc, m.kept["outputs"].enc}
		s := phantomSecrets{Commitment: tc.c, Outputs: tc.o}
		got := [2][]byte{member(s, "commitment"), member(s, "outputs")}
		for k, want := range [2][]byte{marshal(tc.c), marshal(tc.o)} {
			if !bytes.Equal(got[k], want) {
				t.Fatalf("%s: member %d encodes as\n%s\nwant\n%s", tc.what, k, got[k], want)
			}
			if reused := i > 0 && idOf(got[k]) == idOf(before[k]); reused != tc.reused {
				t.Errorf("%s: member %d the save before's encoding %v, want %v", tc.what, k, reused, tc.reused)
			}
		}
	}
}
