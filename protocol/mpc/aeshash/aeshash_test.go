package aeshash_test

import (
	"crypto/aes"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/aeshash"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// TestHashDefinition recomputes H(x, i) = π(π(x) ⊕ i) ⊕ π(x) with
// crypto/aes directly and compares it with every Hasher method.
func TestHashDefinition(t *testing.T) {
	k := aeshash.FixedKey()
	pi, _ := aes.NewCipher(k[:])
	perm := func(x aeshash.Block) aeshash.Block {
		var y aeshash.Block
		pi.Encrypt(y[:], x[:])
		return y
	}
	want := func(x, i aeshash.Block) aeshash.Block {
		p := perm(x)
		var out aeshash.Block
		q := perm(xorBytes(p, i))
		out = xorBytes(q, p)
		return out
	}
	h := aeshash.NewHasher()
	r := prg.New(prg.Seed{5})
	for range 50 {
		var x, tw [4]aeshash.Block
		for k := range 4 {
			x[k], tw[k] = r.Block(), aeshash.Tweak(r.Uint64(), r.Uint64())
		}
		if got := h.Permute(x[0]); got != perm(x[0]) {
			t.Fatal("Permute is not fixed-key AES")
		}
		if got := h.Hash(x[0], tw[0]); got != want(x[0], tw[0]) {
			t.Fatal("Hash differs from its definition")
		}
		a, b := h.Hash2(x[0], tw[0], x[1], tw[1])
		if a != want(x[0], tw[0]) || b != want(x[1], tw[1]) {
			t.Fatal("Hash2 differs from Hash")
		}
		all := h.Hash4(&x, &tw)
		for k := range 4 {
			if all[k] != want(x[k], tw[k]) {
				t.Fatalf("Hash4[%d] differs from Hash", k)
			}
		}
		if h.Hash(x[0], tw[0]) == h.Hash(x[0], tw[1]) {
			t.Fatal("tweak ignored")
		}
	}
}

func xorBytes(a, b aeshash.Block) aeshash.Block {
	var c aeshash.Block
	for i := range c {
		c[i] = a[i] ^ b[i]
	}
	return c
}

func TestBlockOps(t *testing.T) {
	a := aeshash.Block{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	b := aeshash.Block{0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0x80}
	if a.Xor(b) != xorBytes(a, b) {
		t.Error("Xor wrong")
	}
	if !a.LSB() || b.Xor(aeshash.Block{0xff}).LSB() {
		t.Error("LSB wrong")
	}
	tw := aeshash.Tweak(0x0102030405060708, 0x1112131415161718)
	if tw[0] != 0x18 || tw[7] != 0x11 || tw[8] != 0x08 || tw[15] != 0x01 {
		t.Errorf("Tweak layout %x", tw)
	}
}
