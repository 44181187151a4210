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
	// kept holds, by member, the encoding of the last value encKept
	// encoded and the identity of what it was made of (PN-D26).
	kept map[string]keptEncoding
	// logVals are the log entries logEnc encodes, as "[" and each entry
	// followed by a comma (PN-D26).
	logVals []phantomLogged
	logEnc  []byte
	// sums keeps the digests behind the keys, and those the player looks
	// up by digest (PN-D28): a string is hashed once for both.
	sums sumCache
}

// keptEncoding is a member's encoding and the key of the value it
// encodes.
type keptEncoding struct {
	key any
	enc []byte
}

// sliceID is a byte string's identity: its first byte and length, and
// whether it is nil (which encodes as null, an empty one as "").
type sliceID struct {
	first *byte
	n     int
	null  bool
}

func idOf(b []byte) sliceID {
	if len(b) == 0 {
		return sliceID{null: b == nil}
	}
	return sliceID{first: &b[0], n: len(b)}
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
		if idOf(e.b) == idOf(b) {
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
		e.key = keyOfDigest(m.sums.sum(b)) // digestKey(b), its digest from the cache
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

// encKept is the JSON encoding of v, a value made of fixed fields and
// byte strings that key identifies (their identities, sliceID): the
// encoding of the save before if it encoded the same key as member,
// else json.Marshal's (PN-D26). The byte strings are kept messages
// that nobody changes in place, as the memo's.
func (m *secretsMemo) encKept(member string, key, v any) ([]byte, error) {
	if k, ok := m.kept[member]; ok && k.key == key {
		return k.enc, nil
	}
	enc, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if m.kept == nil {
		m.kept = map[string]keptEncoding{}
	}
	m.kept[member] = keptEncoding{key: key, enc: enc}
	return enc, nil
}

// encLog is the JSON encoding of log, a non-empty log that grows at its
// end: the entries encoded by the saves before are not encoded again
// while the log starts with them (PN-D26). The result is a new slice.
func (m *secretsMemo) encLog(log []phantomLogged) ([]byte, error) {
	n := len(m.logVals)
	if n > len(log) || !slices.Equal(m.logVals, log[:n]) || len(m.logEnc) == 0 {
		m.logVals, m.logEnc, n = m.logVals[:0], append(m.logEnc[:0], '['), 0
	}
	for _, e := range log[n:] {
		b, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		m.logEnc = append(append(m.logEnc, b...), ',')
		m.logVals = append(m.logVals, e)
	}
	enc := slices.Clone(m.logEnc)
	enc[len(enc)-1] = ']'
	return enc, nil
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
	// The kept commitment, the outputs, the choices and the log are
	// most of the small fields' bytes and change once a try (PN-D26).
	log, commitment, outputs := s.Log, s.Commitment, s.Outputs
	choice, prevChoice, olderChoice := s.Choice, s.PrevChoice, s.OlderChoice
	s.Log, s.Commitment, s.Outputs, s.Choice, s.PrevChoice, s.OlderChoice = nil, nil, nil, nil, nil, nil
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
	bytesField("choice", choice)
	bytesField("prev_choice", prevChoice)
	bytesField("older_choice", olderChoice)
	if c := commitment; c != nil {
		key := [4]sliceID{idOf(c.Commitments), idOf(c.Labels), idOf(c.Seeds), idOf(c.Reply)}
		enc, err := m.encKept("commitment", key, c)
		if err != nil {
			return nil, err
		}
		d.addRaw("commitment", enc)
	}
	if o := outputs; o != nil {
		key := struct {
			pass, legal bool
			labels      sliceID
		}{o.Pass, o.Legal, idOf(o.Labels)}
		enc, err := m.encKept("outputs", key, o)
		if err != nil {
			return nil, err
		}
		d.addRaw("outputs", enc)
	}
	if len(log) > 0 {
		enc, err := m.encLog(log)
		if err != nil {
			return nil, err
		}
		d.addRaw("log", enc)
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
