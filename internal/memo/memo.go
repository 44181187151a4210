// Package memo remembers the results of pure, costly computations within
// one process, by a hash of everything they depend on: protocol's
// signature checks and protocol/mpc/ot's base OTs, which audits, record
// checks and the other program of an in-process game compute again with
// the same inputs. A memo is bounded and forgets its oldest entries
// first.
package memo

import (
	"crypto/sha256"
	"encoding/binary"
	"sync"
)

// Key is the SHA-256 of tag and parts, each after its length (8 bytes,
// big-endian), so that no two different lists of parts share a key.
func Key(tag string, parts ...[]byte) [sha256.Size]byte {
	h := sha256.New()
	var n [8]byte
	write := func(p []byte) {
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	write([]byte(tag))
	for _, p := range parts {
		write(p)
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// Cache holds values of type V by key, at most Max units of size in all
// (Size of each value, 1 when Size is nil), and forgets the oldest first.
// A value of more than a quarter of Max is not kept. Its zero value with
// Max set is ready; it is safe for concurrent use.
type Cache[V any] struct {
	Max  int
	Size func(V) int

	mu      sync.Mutex
	entries map[[sha256.Size]byte]V
	order   [][sha256.Size]byte
	used    int
}

func (c *Cache[V]) sizeOf(v V) int {
	if c.Size == nil {
		return 1
	}
	return c.Size(v)
}

// Get returns the value kept under k.
func (c *Cache[V]) Get(k [sha256.Size]byte) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.entries[k]
	return v, ok
}

// Put keeps v under k, unless a value is kept there already.
func (c *Cache[V]) Put(k [sha256.Size]byte, v V) {
	size := c.sizeOf(v)
	if size > c.Max/4 && c.Max >= 4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[k]; ok {
		return
	}
	if c.entries == nil {
		c.entries = map[[sha256.Size]byte]V{}
	}
	for c.used+size > c.Max && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.used -= c.sizeOf(c.entries[old])
		delete(c.entries, old)
	}
	c.entries[k] = v
	c.order = append(c.order, k)
	c.used += size
}

// Clear forgets every value.
func (c *Cache[V]) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries, c.order, c.used = nil, nil, 0
}
