package gc

import (
	"testing"

	"github.com/kakure/kakure/protocol/mpc/aeshash"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// TestGateHashIsAESHash checks the allocation-free hash of the gate loops
// against package aeshash, and the label/blk conversions.
func TestGateHashIsAESHash(t *testing.T) {
	h := newGateHash()
	ref := aeshash.NewHasher()
	r := prg.New(prg.Seed{6})
	for range 50 {
		var x [4]Label
		for k := range x {
			x[k] = r.Block()
		}
		if toBlk(x[0]).label() != x[0] {
			t.Fatal("blk round trip")
		}
		inst, j := r.Uint64(), r.Uint64()
		ta, tb := blk{j, inst}, blk{j + 1, inst}
		h0, h1, h2, h3 := h.hash4(toBlk(x[0]), toBlk(x[1]), toBlk(x[2]), toBlk(x[3]), ta, tb)
		want := [4]Label{
			ref.Hash(x[0], aeshash.Tweak(inst, j)), ref.Hash(x[1], aeshash.Tweak(inst, j)),
			ref.Hash(x[2], aeshash.Tweak(inst, j+1)), ref.Hash(x[3], aeshash.Tweak(inst, j+1)),
		}
		for k, got := range []blk{h0, h1, h2, h3} {
			if got.label() != want[k] {
				t.Fatalf("hash4[%d] differs from aeshash", k)
			}
		}
		e0, e1 := h.hash2(toBlk(x[0]), toBlk(x[2]), ta, tb)
		if e0.label() != want[0] || e1.label() != want[2] {
			t.Fatal("hash2 differs from aeshash")
		}
		if toBlk(x[0]).colourMask() != -uint64(x[0][0]&1) {
			t.Fatal("colourMask")
		}
	}
}
