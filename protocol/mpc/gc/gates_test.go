package gc

import (
	"testing"

	"github.com/kakure/kakure/protocol/mpc/aeshash"
	"github.com/kakure/kakure/protocol/mpc/circuit"
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

// TestFusedGatesMatchPureGo (issue 16, T-8(c)): the fused assembly
// routines of the gate loops (garble2AESNI, garble4VAES where the
// processor has VAES, evaluate4AESNI, evaluate2AESNI) give the same
// output labels and tables as the pure-Go path gate by gate, on random
// labels of both colours, gates reading one wire twice, a gate paired
// with itself and batches of one to four gates.
func TestFusedGatesMatchPureGo(t *testing.T) {
	if !useFused() {
		t.Skip("no fused gate routines on this machine")
	}
	defer func(on bool) { useVAES = on }(useVAES)
	const nw = 64
	r := prg.New(prg.Seed{7})
	h := newGateHash()
	for trial := range 300 {
		var w [nw + 8]blk
		for k := range nw {
			w[k] = toBlk(r.Block())
		}
		delta := toBlk(r.Block())
		delta.lo |= 1
		instance := r.Uint64()
		pick := func() circuit.Wire { return circuit.Wire(r.Intn(nw)) }
		var gs [4]circuit.Gate
		for k := range gs {
			gs[k] = circuit.Gate{Op: circuit.OpAND, A: pick(), B: pick(), Out: circuit.Wire(nw + k)}
			if trial%7 == 0 {
				gs[k].B = gs[k].A
			}
		}
		js := [4]uint64{r.Uint64() >> 8, r.Uint64() >> 8, r.Uint64() >> 8, r.Uint64() >> 8}

		// Garbling: gates 0 and 1 as a pair, gate 2 paired with itself,
		// with large indices j (tweaks).
		want, got := w, w
		var wantT, gotT [3][TableSize]byte
		for k := range 3 {
			a0, b0 := want[gs[k].A], want[gs[k].B]
			ha0, ha1, hb0, hb1 := h.hash4(a0, a0.xor(delta), b0, b0.xor(delta), blk{2 * js[k], instance}, blk{2*js[k] + 1, instance})
			want[gs[k].Out] = garbleAND(a0, b0, delta, ha0, ha1, hb0, hb1, wantT[k][:])
		}
		garble2AESNI(&roundKeys, &delta, &got[gs[0].A], &got[gs[0].B], &got[gs[1].A], &got[gs[1].B], js[0], js[1], instance,
			&got[gs[0].Out], &got[gs[1].Out], &gotT[0], &gotT[1])
		garble2AESNI(&roundKeys, &delta, &got[gs[2].A], &got[gs[2].B], &got[gs[2].A], &got[gs[2].B], js[2], js[2], instance,
			&got[gs[2].Out], &got[gs[2].Out], &gotT[2], &gotT[2])
		if want != got || wantT != gotT {
			t.Fatalf("trial %d: garble2AESNI differs from the pure-Go gates", trial)
		}

		// garbleHeld with VAES on n = 1..4 of the gates (garble4VAES for
		// three or four, the first repeated).
		if haveVAES {
			n := 1 + trial%4
			want, got = w, w
			var wantT, gotT [4][TableSize]byte
			var held [4]gateArg
			for k := range n {
				a0, b0 := want[gs[k].A], want[gs[k].B]
				ha0, ha1, hb0, hb1 := h.hash4(a0, a0.xor(delta), b0, b0.xor(delta), blk{2 * js[k], instance}, blk{2*js[k] + 1, instance})
				want[gs[k].Out] = garbleAND(a0, b0, delta, ha0, ha1, hb0, hb1, wantT[k][:])
				held[k] = gateArg{a: &got[gs[k].A], b: &got[gs[k].B], out: &got[gs[k].Out], t: &gotT[k], j: js[k]}
			}
			useVAES = true
			garbleHeld(&roundKeys, &held, n, &delta, instance)
			if want != got || wantT != gotT {
				t.Fatalf("trial %d: the VAES garbling of %d gates differs from the pure-Go gates", trial, n)
			}
		}

		// Evaluation of n = 1..4 gates on random labels and tables with
		// large indices j.
		n := 1 + trial%4
		tables := make([]byte, 4*TableSize)
		for k := range tables {
			tables[k] = byte(r.Uint64())
		}
		want, got = w, w
		var held [4]gateArg
		for k := range n {
			gt := tables[k*TableSize : (k+1)*TableSize]
			wa, wb := want[gs[k].A], want[gs[k].B]
			ha, hb := h.hash2(wa, wb, blk{2 * js[k], instance}, blk{2*js[k] + 1, instance})
			want[gs[k].Out] = evaluateAND(wa, wb, ha, hb, gt)
			held[k] = gateArg{a: &got[gs[k].A], b: &got[gs[k].B], out: &got[gs[k].Out], t: (*[TableSize]byte)(gt), j: js[k]}
		}
		evaluateHeld(&roundKeys, &held, n, instance)
		if want != got {
			t.Fatalf("trial %d: the evaluation routine of %d gates differs from the pure-Go gates", trial, n)
		}
	}
}
