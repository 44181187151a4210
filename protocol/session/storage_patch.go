package session

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"reflect"
	"sort"
)

// rawSecretsPatch is secretsPatch(decode(old), decode(new)) computed on
// the encodings: objects and arrays are split into their members without
// decoding them, members whose bytes are equal are equal, and only what
// changed is decoded. A secrets document is encoded before every message
// a peer sends and mostly unchanged (a Phantom Go garbler's holds the OT
// request of the try under way, 73 KiB of base64 on 9×9 at λ = 4), so
// decoding all of it to diff it was most of the cost of saving it. Bytes
// that differ may still encode equal values (an object's keys in another
// order, after a resume folded the file): those are decoded and compared,
// as secretsPatch does. changed is false when the values are equal.
func rawSecretsPatch(old, new []byte) (patch any, changed bool, err error) {
	if bytes.Equal(old, new) {
		return nil, false, nil
	}
	if od, ok := docOf(old); ok {
		if nd, ok := docOf(new); ok {
			return docPatch(od, nd)
		}
	}
	if oa, ok := splitJSONArray(old); ok {
		if na, ok := splitJSONArray(new); ok && len(na) > len(oa) {
			extends := true
			for i := range oa {
				if _, ch, err := rawSecretsPatch(oa[i], na[i]); err != nil {
					return nil, false, err
				} else if ch {
					extends = false
					break
				}
			}
			if extends {
				more := make([]any, len(na)-len(oa))
				for i, v := range na[len(oa):] {
					if more[i], err = decodeJSONValue(v); err != nil {
						return nil, false, err
					}
				}
				return map[string]any{appendKey: more}, true, nil
			}
		}
	}
	if plainJSONString(old) && plainJSONString(new) {
		// Strings without escapes are equal only when their bytes are
		// (the request of a Phantom Go try, 73 KiB, changes with every
		// try): the patch holds the new one as it is encoded, which
		// json.Marshal checks when it encodes the patch.
		return json.RawMessage(new), true, nil
	}
	ov, err := decodeJSONValue(old)
	if err != nil {
		return nil, false, err
	}
	nv, err := decodeJSONValue(new)
	if err != nil {
		return nil, false, err
	}
	if reflect.DeepEqual(ov, nv) {
		return nil, false, nil
	}
	return secretsPatch(ov, nv), true, nil
}

// errJSONSplit reports bytes the splitter does not take apart; the
// caller then decodes them.
var errJSONSplit = errors.New("not split")

// splitJSONObject splits the encoding of a JSON object into its keys
// (decoded) and the encodings of its values; ok is false when b is not
// one object, or one the splitter does not take apart (duplicate keys).
func splitJSONObject(b []byte) (keys []string, vals [][]byte, ok bool) {
	i := skipJSONSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, nil, false
	}
	i = skipJSONSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return nil, nil, skipJSONSpace(b, i+1) == len(b)
	}
	dup := map[string]bool{}
	for {
		end, err := skipJSONValue(b, i)
		if err != nil || b[i] != '"' {
			return nil, nil, false
		}
		var k string
		if err := json.Unmarshal(b[i:end], &k); err != nil || dup[k] {
			return nil, nil, false
		}
		dup[k] = true
		i = skipJSONSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, nil, false
		}
		i = skipJSONSpace(b, i+1)
		end, err = skipJSONValue(b, i)
		if err != nil {
			return nil, nil, false
		}
		keys, vals = append(keys, k), append(vals, b[i:end])
		i = skipJSONSpace(b, end)
		if i >= len(b) {
			return nil, nil, false
		}
		switch b[i] {
		case ',':
			i = skipJSONSpace(b, i+1)
		case '}':
			return keys, vals, skipJSONSpace(b, i+1) == len(b)
		default:
			return nil, nil, false
		}
	}
}

// splitJSONArray splits the encoding of a JSON array into the encodings
// of its elements; ok is false when b is not one array.
func splitJSONArray(b []byte) (elems [][]byte, ok bool) {
	i := skipJSONSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	i = skipJSONSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return nil, skipJSONSpace(b, i+1) == len(b)
	}
	for {
		end, err := skipJSONValue(b, i)
		if err != nil {
			return nil, false
		}
		elems = append(elems, b[i:end])
		i = skipJSONSpace(b, end)
		if i >= len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = skipJSONSpace(b, i+1)
		case ']':
			return elems, skipJSONSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
}

func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipJSONValue returns the end of the JSON value that starts at b[i]. It
// checks the nesting and the strings' quotes, not the whole grammar: the
// members it delimits are decoded (and so checked) when they are used.
func skipJSONValue(b []byte, i int) (int, error) {
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			i++
			for {
				k := bytes.IndexByte(b[i:], '"')
				if k < 0 {
					return 0, errJSONSplit
				}
				i += k + 1
				// The quote ends the string unless an odd number of
				// backslashes escapes it.
				n := 0
				for n < i-1 && b[i-2-n] == '\\' {
					n++
				}
				if n%2 == 0 {
					break
				}
			}
		case '{', '[':
			depth++
			i++
		case '}', ']':
			if depth == 0 {
				return 0, errJSONSplit
			}
			depth--
			i++
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return 0, errJSONSplit
			}
			i++
		default:
			// A number or a literal.
			i++
			for i < len(b) && !jsonDelimiter(b[i]) {
				i++
			}
		}
		if depth == 0 {
			return i, nil
		}
	}
	return 0, errJSONSplit
}

func jsonDelimiter(c byte) bool {
	switch c {
	case ',', ':', ']', '}', '[', '{', '"', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// plainJSONString reports whether b is a JSON string without escapes
// (and without spaces around it).
func plainJSONString(b []byte) bool {
	return len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' && bytes.IndexByte(b[1:len(b)-1], '"') < 0 && bytes.IndexByte(b, '\\') < 0
}

// encodeSecretsPatch is json.Marshal(patch) for a patch of
// rawSecretsPatch, without scanning again its strings kept as they were
// encoded (json.RawMessage of a plainJSONString, most of a patch's
// bytes): json.Marshal compacts every RawMessage, a scan of the whole
// string (PN-D19). Those are checked here to hold only printable ASCII
// other than quotes and backslashes, which a JSON string may hold as
// they are; anything else goes through json.Marshal.
func encodeSecretsPatch(buf *bytes.Buffer, patch any) error {
	switch v := patch.(type) {
	case json.RawMessage:
		if !plainJSONString(v) || !printableASCII(v) {
			break
		}
		buf.Write(v)
		return nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			kb, err := json.Marshal(k)
			if err != nil {
				return err
			}
			buf.Write(kb)
			buf.WriteByte(':')
			if err := encodeSecretsPatch(buf, v[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
		return nil
	}
	b, err := json.Marshal(patch)
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
}

// printableASCII reports whether b holds only bytes 0x20 to 0x7e. It
// reads eight bytes at a time (a patch's kept strings are tens of KiB of
// base64, PN-D24): with no byte's top bit set, w − 0x20… borrows into a
// top bit exactly when some byte is below 0x20, and w + 0x01… carries
// into one exactly when some byte is 0x7f.
func printableASCII(b []byte) bool {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		if (w|(w-0x20*ones)|(w+ones))&tops != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}
