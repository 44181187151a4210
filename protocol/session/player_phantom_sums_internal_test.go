package session

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/referee"
)

// TestPND28SumCache checks the digests a player keeps by identity
// (PN-D28): each is referee.Sum of the bytes asked about, for a string
// seen before, a shorter slice of the same bytes, a copy, and a string
// asked about again after more than the cache holds; with finds the
// string of a digest as withDigest does; and a string changed in place
// after its digest was kept makes the check (secretsMemoCheck) panic.
func TestPND28SumCache(t *testing.T) {
	blob := blobsOf(rand.New(rand.NewPCG(28, 38)))
	var c sumCache
	first := blob(1000)
	for _, b := range [][]byte{first, first, first[:999], bytes.Clone(first), first[:1], {}, nil} {
		if got, want := c.sum(b), referee.Sum(b); got != want {
			t.Fatalf("sum of %d bytes at %p: %v, want %v", len(b), b, got, want)
		}
	}
	others := make([][]byte, 2*sumCacheSize)
	for i := range others {
		others[i] = blob(100 + i)
		if got, want := c.sum(others[i]), referee.Sum(others[i]); got != want {
			t.Fatalf("sum of string %d: %v, want %v", i, got, want)
		}
	}
	for i, b := range append(others, first) {
		if got, want := c.sum(b), referee.Sum(b); got != want {
			t.Fatalf("sum of string %d asked again: %v, want %v", i, got, want)
		}
	}
	for _, b := range [][]byte{first, others[3], others[len(others)-1]} {
		if got, want := c.with(referee.Sum(b), others[0], nil, b, first[:10]), withDigest(referee.Sum(b), others[0], nil, b, first[:10]); idOf(got) != idOf(want) || idOf(got) != idOf(b) {
			t.Fatalf("with: %d bytes, want the string of %d", len(got), len(b))
		}
	}
	if got := c.with(referee.Sum(blob(5)), first, others[1]); got != nil {
		t.Fatalf("with found %d bytes for a digest of none", len(got))
	}

	check := secretsMemoCheck
	secretsMemoCheck = true
	defer func() {
		secretsMemoCheck = check
		if recover() == nil {
			t.Error("a string changed in place after its digest was kept was not caught")
		}
	}()
	c.sum(first)
	first[0] ^= 1
	c.sum(first)
}

// blobsOf returns a maker of byte strings of r's bytes, n long.
func blobsOf(r *rand.Rand) func(n int) []byte {
	return func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
}
