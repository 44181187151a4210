package session

// The encoding of Phantom Go's secrets without encoding again what did
// not change (PN-D19). A secrets document is made before every message
// this program sends, and most of its bytes are the other party's last
// messages (the garbler's requests, 73 KiB of base64 each on 9×9 at
// λ = 4 with the authenticated state; the evaluator's reverse requests;
// the evidence of MPC-D33; the authentication states), which change once
// a try: json.Marshal encoded them in base64 and SHA-256 gave each its
// key at every save.

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
)

// secretsMemo keeps, for the byte strings of the last secrets made, the
// key by digest (keyedByDigest) and the JSON encoding (a base64 string),
// by identity: the byte strings the secrets keep are messages, received
// or made, that nobody changes in place once kept (a new message is a
// new slice), so the same first byte and length is the same string.
// Entries not used by a save are dropped at its end.
type secretsMemo struct {
	cur, next []*memoEntry
}

type memoEntry struct {
	b   []byte
	key string // "" until asked for
	enc []byte // nil until asked for
}

// secretsMemoCheck makes every save also encode its document with
// json.Marshal and panic if the two do not decode alike (tests; a byte
// string changed in place would show there).
var secretsMemoCheck bool

func (m *secretsMemo) entry(b []byte) *memoEntry {
	for _, e := range m.cur {
		if len(e.b) == len(b) && &e.b[0] == &b[0] {
			if !slices.Contains(m.next, e) {
				m.next = append(m.next, e)
			}
			return e
		}
	}
	e := &memoEntry{b: b}
	m.cur = append(m.cur, e)
	m.next = append(m.next, e)
	return e
}

// key is digestKey(b), kept in the memo for a non-empty b.
func (m *secretsMemo) key(b []byte) string {
	if len(b) == 0 {
		return digestKey(b)
	}
	e := m.entry(b)
	if e.key == "" {
		e.key = digestKey(b)
	}
	return e.key
}

// enc is the JSON encoding of b.
func (m *secretsMemo) enc(b []byte) []byte {
	if len(b) == 0 {
		return []byte(`""`)
	}
	e := m.entry(b)
	if e.enc == nil {
		e.enc, _ = json.Marshal(b) // a []byte always encodes
	}
	return e.enc
}

// done ends a save: the entries it did not use are dropped.
func (m *secretsMemo) done() {
	m.cur, m.next = m.next, m.cur[:0]
	clear(m.next[:cap(m.next)])
}

// keyed is keyedByDigest with the keys from the memo.
func (m *secretsMemo) keyed(bs ...[]byte) map[string][]byte { return keyedBy(m.key, bs...) }

// encodePhantomSecrets is json.Marshal(s) but for the order of its keys
// (the large byte strings come last) and the cost: the large byte
// strings' encodings come from the memo.
func encodePhantomSecrets(s phantomSecrets, m *secretsMemo) ([]byte, error) {
	full := s
	base, reverseBase, requests, reverses, evidence, auths := s.Base, s.ReverseBase, s.Requests, s.Reverses, s.Evidence, s.Auths
	s.Base, s.ReverseBase, s.Requests, s.Reverses, s.Evidence, s.Auths = nil, nil, nil, nil, nil, nil
	light, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	// The document's length, bounded from above, so that it is written
	// into one buffer without growing it (a copy of all of it at each
	// doubling: a third of the encoding's CPU before).
	need := len(light) + 128
	for _, b := range [][]byte{base, reverseBase} {
		need += len(m.enc(b)) + 32
	}
	for _, mm := range []map[string][]byte{requests, reverses, evidence} {
		for _, b := range mm {
			need += len(m.enc(b)) + 64
		}
	}
	for _, b := range auths {
		need += len(m.enc(b)) + 64
	}
	out := bytes.NewBuffer(make([]byte, 0, need))
	out.Write(light[:len(light)-1])
	field := func(name string) {
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		out.WriteByte('"')
		out.WriteString(name)
		out.WriteString(`":`)
	}
	value := func(b []byte) {
		if len(b) == 0 {
			out.WriteString(`""`)
			return
		}
		out.Write(m.enc(b))
	}
	bytesField := func(name string, b []byte) {
		if len(b) > 0 {
			field(name)
			value(b)
		}
	}
	mapField := func(name string, keys []string, vals map[string][]byte) {
		if len(keys) == 0 {
			return
		}
		slices.Sort(keys)
		field(name)
		out.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				out.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			out.Write(kb)
			out.WriteByte(':')
			if b := vals[k]; b == nil {
				out.WriteString("null")
			} else {
				value(b)
			}
		}
		out.WriteByte('}')
	}
	strMap := func(name string, mm map[string][]byte) {
		keys := make([]string, 0, len(mm))
		for k := range mm {
			keys = append(keys, k)
		}
		mapField(name, keys, mm)
	}
	bytesField("base", base)
	bytesField("reverse_base", reverseBase)
	strMap("requests", requests)
	strMap("reverses", reverses)
	strMap("evidence", evidence)
	if len(auths) > 0 {
		byKey := make(map[string][]byte, len(auths))
		keys := make([]string, 0, len(auths))
		for k, v := range auths {
			ks := strconv.FormatUint(k, 10)
			byKey[ks], keys = v, append(keys, ks)
		}
		mapField("auths", keys, byKey)
	}
	out.WriteByte('}')
	m.done()
	if secretsMemoCheck {
		checkSecretsEncoding(full, out.Bytes())
	}
	return out.Bytes(), nil
}

// checkSecretsEncoding panics if enc does not decode as json.Marshal(s)
// does.
func checkSecretsEncoding(s phantomSecrets, enc []byte) {
	want, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	var a, b any
	if err := json.Unmarshal(want, &a); err != nil {
		panic(err)
	}
	if err := json.Unmarshal(enc, &b); err != nil {
		panic("secrets encoding: " + err.Error())
	}
	if !reflect.DeepEqual(a, b) {
		panic("secrets encoding differs from json.Marshal's")
	}
}
