package ot

import "github.com/kakure/kakure/internal/memo"

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
	cache memo.Cache[baseMemoEntry]
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

// copied returns a copy of e that shares no memory with it.
func (e baseMemoEntry) copied() baseMemoEntry {
	return baseMemoEntry{msg: append([]byte(nil), e.msg...), keys: append([]Key(nil), e.keys...),
		pairs: append([][2]Key(nil), e.pairs...)}
}

// baseMemoBytes bounds the memo's size: the setups of some hundred
// games (128 base OTs take some 10 kB of results on each side).
const baseMemoBytes = 2 << 20

// baseOTs is the process's memo of base OT results.
var baseOTs = baseMemo{cache: memo.Cache[baseMemoEntry]{Max: baseMemoBytes, Size: baseMemoEntry.size}}

// ForgetBaseOTs empties the memo of base OT results, so that the next base
// OTs are computed whatever came before: for benchmarks, which would
// otherwise time a look-up from their second round on.
func ForgetBaseOTs() { baseOTs.cache.Clear() }

// baseMemoKey is the memo's key of a computation: a domain tag and the
// parts it depends on.
func baseMemoKey(tag string, parts ...[]byte) [32]byte {
	return memo.Key("kakure/base-ot/"+tag, parts...)
}

// get returns a copy of the entry under k.
func (m *baseMemo) get(k [32]byte) (baseMemoEntry, bool) {
	e, ok := m.cache.Get(k)
	if !ok {
		return e, false
	}
	return e.copied(), true
}

// put keeps a copy of e under k (memo.Cache forgets the oldest entries
// beyond baseMemoBytes).
func (m *baseMemo) put(k [32]byte, e baseMemoEntry) { m.cache.Put(k, e.copied()) }
