package ot

import (
	"crypto/sha256"
	"encoding/binary"
	"sync"
)

// baseMemo remembers the results of this process's latest base OT
// computations (BaseReceiver.Respond, BaseSender.Finish), by the SHA-256
// of everything they depend on: the session, the count and choices, the
// secret scalars and the other side's message. They are pure functions of
// those, and each is computed again with the same inputs when a game's
// record is audited (T-8(c): the audit replays both programs' setup from
// their opened seeds, the program's own side with the very scalars it
// used in play), when a record is verified again, and when the other
// program of a game runs in the same process (a game against the built-in
// bot, tests); a computation costs two or three scalar multiplications
// per OT, the look-up one hash. Only successes are kept. The memo holds
// OT keys, secrets of the game while it is played, as the sender and
// receiver themselves do; it keeps at most baseMemoBytes of them and
// forgets the oldest first.
type baseMemo struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]baseMemoEntry
	order   [][sha256.Size]byte
	bytes   int
}

// baseMemoEntry is one remembered result: the receiver's message and
// keys, or the sender's key pairs.
type baseMemoEntry struct {
	msg   []byte
	keys  []Key
	pairs [][2]Key
}

func (e baseMemoEntry) size() int {
	return len(e.msg) + len(e.keys)*len(Key{}) + len(e.pairs)*2*len(Key{})
}

// baseMemoBytes bounds the memo's size: the setups of some hundred
// games (128 base OTs take some 10 kB of results on each side).
const baseMemoBytes = 2 << 20

// baseOTs is the process's memo of base OT results.
var baseOTs baseMemo

// ForgetBaseOTs empties the memo of base OT results, so that the next base
// OTs are computed whatever came before: for benchmarks, which would
// otherwise time a look-up from their second round on.
func ForgetBaseOTs() {
	baseOTs.mu.Lock()
	defer baseOTs.mu.Unlock()
	baseOTs.entries, baseOTs.order, baseOTs.bytes = nil, nil, 0
}

// baseMemoKey hashes a domain tag and the length-prefixed parts.
func baseMemoKey(tag string, parts ...[]byte) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	for _, p := range append([][]byte{[]byte(tag)}, parts...) {
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// get returns a copy of the entry under k.
func (m *baseMemo) get(k [sha256.Size]byte) (baseMemoEntry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[k]
	if !ok {
		return e, false
	}
	return baseMemoEntry{msg: append([]byte(nil), e.msg...), keys: append([]Key(nil), e.keys...),
		pairs: append([][2]Key(nil), e.pairs...)}, true
}

// put keeps a copy of e under k, forgetting the oldest entries beyond
// baseMemoBytes.
func (m *baseMemo) put(k [sha256.Size]byte, e baseMemoEntry) {
	if e.size() > baseMemoBytes/4 {
		return
	}
	e = baseMemoEntry{msg: append([]byte(nil), e.msg...), keys: append([]Key(nil), e.keys...),
		pairs: append([][2]Key(nil), e.pairs...)}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.entries[k]; ok {
		return
	}
	if m.entries == nil {
		m.entries = map[[sha256.Size]byte]baseMemoEntry{}
	}
	for m.bytes+e.size() > baseMemoBytes && len(m.order) > 0 {
		old := m.order[0]
		m.order = m.order[1:]
		m.bytes -= m.entries[old].size()
		delete(m.entries, old)
	}
	m.entries[k] = e
	m.order = append(m.order, k)
	m.bytes += e.size()
}
