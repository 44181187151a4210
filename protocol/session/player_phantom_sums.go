package session

// The digests of the byte strings a Phantom Go player looks up by digest,
// kept by identity (PN-D28).

import (
	"sync"

	"github.com/kakure/kakure/protocol/mpc/referee"
)

// sumCache keeps referee.Sum of the byte strings a player looks up by
// digest on a try's path (its evidence, its reverse requests) or keys
// in its secrets (secretsMemo.key), by identity, as secretsMemo keeps
// their encodings: the same first byte and length is the same string,
// since a kept message is never changed in place (PN-D28). It holds the
// last sumCacheSize strings it was asked about, and so keeps them
// alive.
type sumCache struct {
	mu      sync.Mutex // the evaluator's next request is made aside (MPC-D56)
	entries [sumCacheSize]sumEntry
	next    int
}

type sumEntry struct {
	b []byte
	d referee.Digest
}

// sumCacheSize covers the strings a player keeps at once: the evidence
// kept and a new message, two requests or two reverse requests.
const sumCacheSize = 16

// sum returns referee.Sum(b).
func (c *sumCache) sum(b []byte) referee.Digest {
	if len(b) == 0 {
		return referee.Sum(b)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.entries {
		if e := &c.entries[i]; idOf(e.b) == idOf(b) {
			if secretsMemoCheck && referee.Sum(b) != e.d {
				panic("a byte string looked up by digest was changed in place")
			}
			return e.d
		}
	}
	d := referee.Sum(b)
	c.entries[c.next] = sumEntry{b: b, d: d}
	c.next = (c.next + 1) % sumCacheSize
	return d
}

// with is withDigest with the digests from the cache.
func (c *sumCache) with(d referee.Digest, bs ...[]byte) []byte {
	for _, b := range bs {
		if b != nil && c.sum(b) == d {
			return b
		}
	}
	return nil
}
