package gc

import (
	"testing"

	"github.com/kakure/kakure/protocol/mpc/prg"
)

// TestThreeHalvesFusedMatchPureGo (issue 38, T-8(c)): the fused
// three-halves routines (th3Garble4VAES and th3Evaluate4VAES where the
// processor has VAES, th3Garble2AESNI, th3Evaluate4AESNI,
// th3Evaluate2AESNI) give the output
// labels, tables and control bits of garbleAND3 and evaluateAND3 on the
// pure-Go hash, gate by gate: random labels of both colours, every coin
// value, gates reading one wire twice, large indices j, batches of one
// to four gates (the first repeated), and evaluation on random tables
// and control bits (what a cheating garbler may send).
func TestThreeHalvesFusedMatchPureGo(t *testing.T) {
	if !useTH3Fused(true) {
		t.Skip("no fused three-halves routines on this machine")
	}
	const nw = 64
	r := prg.New(prg.Seed{38})
	h := &thHash{rk: &roundKeys} // crypto/aes
	for trial := range 400 {
		var w [nw + 8]blk
		for k := range nw {
			w[k] = toBlk(r.Block())
		}
		delta := toBlk(r.Block())
		delta.lo |= 1
		instance := r.Uint64()
		var dt [16]th3DeltaRow
		th3DeltaRows(delta, &dt)
		n := 1 + trial%4
		var as, bs [4]int
		var js, rhos [4]uint64
		for k := range 4 {
			as[k], bs[k] = r.Intn(nw), r.Intn(nw)
			if trial%7 == 0 {
				bs[k] = as[k]
			}
			js[k] = r.Uint64() >> 3
			rhos[k] = uint64(r.Intn(4))
		}

		// Garbling, with each routine the processor has.
		for _, vaes := range []bool{false, true} {
			if vaes && (!haveVAES || n < 3) || !vaes && n > 2 {
				continue
			}
			want, got := w, w
			var wantT, gotT [4][ThreeHalvesTableSize]byte
			var wantZ [4]uint8
			var held [4]th3Arg
			for k := range n {
				want[nw+k], wantZ[k] = garbleAND3(h, want[as[k]], want[bs[k]], delta, js[k], instance, uint8(rhos[k]), wantT[k][:])
				held[k] = th3Arg{a: &got[as[k]], b: &got[bs[k]], out: &got[nw+k], t: &gotT[k], j: js[k], ctl: rhos[k]}
			}
			for k := n; k < 4; k++ {
				held[k] = held[0]
			}
			if vaes {
				th3Garble4VAES(&roundKeys, &th3Lin, &dt, &delta, &held, instance)
			} else {
				th3Garble2AESNI(&roundKeys, &th3Lin, &dt, &delta, (*[2]th3Arg)(held[:2]), instance)
			}
			for k := range n {
				if uint8(held[k].ctl) != wantZ[k] {
					t.Fatalf("trial %d, VAES %v: gate %d has control bits %05b, want %05b", trial, vaes, k, held[k].ctl, wantZ[k])
				}
			}
			if want != got || wantT != gotT {
				t.Fatalf("trial %d, VAES %v: the fused garbling of %d gates differs from garbleAND3", trial, vaes, n)
			}
		}

		// Evaluation of n gates on random tables and control bits, with
		// each routine the processor has.
		want := w
		var tables [4][ThreeHalvesTableSize]byte
		var held [4]th3Arg
		for k := range n {
			for b := range tables[k] {
				tables[k][b] = byte(r.Uint64())
			}
			z := uint8(r.Intn(32))
			want[nw+k] = evaluateAND3(h, want[as[k]], want[bs[k]], js[k], instance, tables[k][:], z)
			held[k] = th3Arg{t: &tables[k], j: js[k], ctl: uint64(z)}
		}
		for k := n; k < 4; k++ {
			held[k] = held[0]
		}
		for _, vaes := range []bool{false, true} {
			if vaes && (!haveVAES || n < 3) {
				continue
			}
			got := w
			for k := range 4 {
				g := k // the places after the n gates repeat the first
				if k >= n {
					g = 0
				}
				held[k].a, held[k].b, held[k].out = &got[as[g]], &got[bs[g]], &got[nw+g]
			}
			switch {
			case vaes:
				th3Evaluate4VAES(&roundKeys, &th3EvalRows, &th3EvalZ, &held, instance)
			case n > 2:
				th3Evaluate4AESNI(&roundKeys, &th3EvalRows, &th3EvalZ, &held, instance)
			default:
				th3Evaluate2AESNI(&roundKeys, &th3EvalRows, &th3EvalZ, (*[2]th3Arg)(held[:2]), instance)
			}
			if want != got {
				t.Fatalf("trial %d, VAES %v: the fused evaluation of %d gates differs from evaluateAND3", trial, vaes, n)
			}
		}
	}
}
