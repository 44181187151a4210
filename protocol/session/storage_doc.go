package session

// A secrets document kept as the members of its objects (PN-D24). A save
// diffed the encodings of the last document and the new one
// (rawSecretsPatch), splitting both again at every level of nesting, and
// made the new one by copying every large member into one buffer
// (encodePhantomSecrets, and the secrets file around them): some 0.4 ms a save for a
// Phantom Go document of 300 KiB, three of them on the chain of a try. A
// docObject holds the members as they were encoded, the large byte
// strings as the slices the player's memo keeps (PN-D19): a member that
// did not change is the same slice as in the last document, which
// bytes.Equal compares at once, and nothing is split or copied until
// the whole document must be written (the file's first line, a
// rewrite).

import (
	"encoding/json"
)

// docObject is a JSON object as its keys, in order, and their values.
// Its encoding (appendJSON) is the object json.Marshal would write of
// the same members in that order.
type docObject struct {
	keys []string
	vals []docValue
}

// docValue is a member of a docObject: an object kept as its members,
// or the encoding of any JSON value.
type docValue struct {
	obj *docObject
	raw []byte
}

// add appends the member k: v.
func (o *docObject) add(k string, v docValue) {
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
}

// addRaw appends the member k whose value is encoded as raw.
func (o *docObject) addRaw(k string, raw []byte) { o.add(k, docValue{raw: raw}) }

// docOf returns the object encoded as b, its members as they are
// encoded there; ok is false when b is no object the splitter takes
// apart (splitJSONObject).
func docOf(b []byte) (*docObject, bool) {
	keys, vals, ok := splitJSONObject(b)
	if !ok {
		return nil, false
	}
	o := &docObject{keys: keys, vals: make([]docValue, len(vals))}
	for i, v := range vals {
		o.vals[i].raw = v
	}
	return o, true
}

// jsonKey is the encoding of k as json.Marshal writes a string.
func jsonKey(k string) []byte {
	if plainKey(k) {
		b := make([]byte, 0, len(k)+2)
		return append(append(append(b, '"'), k...), '"')
	}
	b, _ := json.Marshal(k) // a string always encodes
	return b
}

// plainKey reports whether json.Marshal writes k as it is between
// quotes: printable ASCII without a quote, a backslash, or the bytes it
// escapes for HTML.
func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// size returns the length of o's encoding.
func (o *docObject) size() int {
	n := 2 + max(len(o.keys)-1, 0) // the braces and the commas
	for i, k := range o.keys {
		if plainKey(k) {
			n += len(k) + 2
		} else {
			n += len(jsonKey(k))
		}
		n += 1 + o.vals[i].size() // the colon and the value
	}
	return n
}

func (v docValue) size() int {
	if v.obj != nil {
		return v.obj.size()
	}
	return len(v.raw)
}

// appendJSON appends o's encoding to b.
func (o *docObject) appendJSON(b []byte) []byte {
	b = append(b, '{')
	for i, k := range o.keys {
		if i > 0 {
			b = append(b, ',')
		}
		if plainKey(k) {
			b = append(append(append(b, '"'), k...), '"')
		} else {
			b = append(b, jsonKey(k)...)
		}
		b = append(b, ':')
		b = o.vals[i].appendJSON(b)
	}
	return append(b, '}')
}

func (v docValue) appendJSON(b []byte) []byte {
	if v.obj != nil {
		return v.obj.appendJSON(b)
	}
	return append(b, v.raw...)
}

// json returns o's encoding in a buffer of its size.
func (o *docObject) json() []byte { return o.appendJSON(make([]byte, 0, o.size())) }

func (v docValue) json() []byte {
	if v.obj != nil {
		return v.obj.json()
	}
	return v.raw
}

// docPatch is rawSecretsPatch(old.json(), new.json()), without encoding
// or splitting what both keep as members: the same patch, changed
// likewise (TestPND24DocPatchIsRawPatch, and every save of the
// package's tests with secretsMemoCheck). rawSecretsPatch patches two
// encoded objects with it, their members split (docOf).
func docPatch(old, new *docObject) (patch any, changed bool, err error) {
	newAt := make(map[string]int, len(new.keys))
	for i, k := range new.keys {
		newAt[k] = i
	}
	p := map[string]any{}
	seen := make(map[string]bool, len(old.keys))
	for i, k := range old.keys {
		seen[k] = true
		j, ok := newAt[k]
		if !ok {
			p[k] = nil
			continue
		}
		var vp any
		var ch bool
		ov, nv := old.vals[i], new.vals[j]
		if ov.obj != nil && nv.obj != nil {
			vp, ch, err = docPatch(ov.obj, nv.obj)
		} else {
			vp, ch, err = rawSecretsPatch(ov.json(), nv.json())
		}
		if err != nil {
			return nil, false, err
		}
		if ch {
			p[k] = vp
		}
	}
	for j, k := range new.keys {
		if seen[k] {
			continue
		}
		nv := new.vals[j]
		if nv.obj == nil && plainJSONString(nv.raw) {
			// A new byte string (a request, 73 KiB): as it is encoded,
			// not decoded to be encoded again (PN-D19).
			p[k] = json.RawMessage(nv.raw)
			continue
		}
		v, err := decodeJSONValue(nv.json())
		if err != nil {
			return nil, false, err
		}
		p[k] = v
	}
	return p, len(p) > 0, nil
}
