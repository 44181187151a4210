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
	"encoding/json"
	"errors"
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
	d, err := phantomSecretsDoc(s, m)
	if err != nil {
		return nil, err
	}
	return d.json(), nil
}

// phantomSecretsDoc is encodePhantomSecrets's document as its members
// (PN-D24): the small fields as json.Marshal encodes them, the large
// byte strings (and the maps of them, as objects) the memo's slices.
func phantomSecretsDoc(s phantomSecrets, m *secretsMemo) (*docObject, error) {
	full := s
	base, reverseBase, requests, reverses, evidence, auths := s.Base, s.ReverseBase, s.Requests, s.Reverses, s.Evidence, s.Auths
	s.Base, s.ReverseBase, s.Requests, s.Reverses, s.Evidence, s.Auths = nil, nil, nil, nil, nil, nil
	light, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	d, ok := docOf(light)
	if !ok {
		return nil, errors.New("protocol: phantom secrets: the small fields do not split")
	}
	bytesField := func(name string, b []byte) {
		if len(b) > 0 {
			d.addRaw(name, m.enc(b))
		}
	}
	mapField := func(name string, keys []string, vals map[string][]byte) {
		if len(keys) == 0 {
			return
		}
		slices.Sort(keys)
		o := &docObject{keys: keys, vals: make([]docValue, len(keys))}
		for i, k := range keys {
			if b := vals[k]; b == nil {
				o.vals[i].raw = []byte("null")
			} else {
				o.vals[i].raw = m.enc(b)
			}
		}
		d.add(name, docValue{obj: o})
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
	m.done()
	if secretsMemoCheck {
		checkSecretsEncoding(full, d.json())
	}
	return d, nil
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
