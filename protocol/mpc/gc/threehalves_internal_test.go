package gc

import (
	"slices"
	"testing"
	"unsafe"

	"github.com/kakure/kakure/protocol/mpc/aeshash"
)

// TestThreeHalvesTweaksUnique (T-8(c)): the three hash calls of every
// three-halves AND gate have tweaks of their own: distinct between the
// calls of a gate, between gates, between instances, and apart from
// every half-gates tweak (2j, 2j+1) of the same instance.
func TestThreeHalvesTweaksUnique(t *testing.T) {
	seen := map[blk]string{}
	for _, instance := range []uint64{0, 1, 1 << 40} {
		for j := range uint64(5000) {
			t0, t1, t2 := thTweaks(j, instance)
			for m, tw := range []blk{t0, t1, t2} {
				if prev, ok := seen[tw]; ok {
					t.Fatalf("instance %d gate %d call %d: tweak %v already used by %s", instance, j, m, tw, prev)
				}
				seen[tw] = "three-halves"
			}
			for _, hg := range []blk{{2 * j, instance}, {2*j + 1, instance}} {
				if prev, ok := seen[hg]; ok {
					t.Fatalf("half-gates tweak %v of gate %d collides with %s", hg, j, prev)
				}
				seen[hg] = "half-gates"
			}
		}
	}
}

// TestThreeHalvesControlBitPacking: setControlBits and controlBits agree
// and every gate's five bits sit at 5j..5j+4 of the control bytes.
func TestThreeHalvesControlBitPacking(t *testing.T) {
	for n := 1; n <= 17; n++ { // the last gate's bits in one byte or two
		tables := make([]byte, ThreeHalves.TablesSize(n))
		for j := range n {
			setControlBits(tables, n, j, uint8(j*7+n)&0x1f)
		}
		for j := range n {
			if got, want := controlBits(tables, n, j), uint8(j*7+n)&0x1f; got != want {
				t.Fatalf("%d gates, gate %d: control bits %05b, want %05b", n, j, got, want)
			}
		}
	}
	const nAND = 13
	one := make([]byte, ThreeHalves.TablesSize(nAND))
	setControlBits(one, nAND, 3, 0b10000) // z4 of gate 3: bit 19
	if one[nAND*ThreeHalvesTableSize+2] != 1<<3 {
		t.Fatalf("z4 of gate 3 is not bit 19 of the control bits: % x", one[nAND*ThreeHalvesTableSize:])
	}
}

// TestThreeHalvesHashPaths: the AES-NI hashing of three-halves gives the
// hashes of package aeshash's Hasher, as the crypto/aes path does.
func TestThreeHalvesHashPaths(t *testing.T) {
	ref := aeshash.NewHasher()
	for _, asm := range []bool{false, true} {
		h := newThreeHalvesHash()
		if asm && !h.asm {
			t.Log("no AES-NI path on this machine")
			continue
		}
		h.asm = asm
		for k := range 50 {
			var x, tw, out [6]blk
			for m := range x {
				x[m] = blk{uint64(k*977+m) * 0x9e3779b97f4a7c15, uint64(m+k) * 0xbf58476d1ce4e5b9}
				tw[m] = blk{uint64(3*k + m), uint64(k)}
			}
			h.hash(&x, &tw, &out)
			var x3, t3, out3 [3]blk
			copy(x3[:], x[:3])
			copy(t3[:], tw[:3])
			h.hash3(&x3, &t3, &out3)
			for m := range x {
				want := toBlk(ref.Hash(x[m].label(), tw[m].label()))
				if out[m] != want || (m < 3 && out3[m] != want) {
					t.Fatalf("asm=%v block %d: hash differs from aeshash", asm, m)
				}
			}
		}
	}
}

// TestTH3RunLayout (MPC-D63): th3GarbleRun4VAES reads th3Run's fields
// and a step's wires and index at the offsets gen_threehalves_amd64.go
// writes into it (runW … runCtl, stepA … stepSize).
func TestTH3RunLayout(t *testing.T) {
	var r th3Run
	var s step
	got := []uintptr{
		unsafe.Offsetof(r.w), unsafe.Offsetof(r.steps), unsafe.Offsetof(r.n),
		unsafe.Offsetof(r.tables), unsafe.Offsetof(r.coins), unsafe.Offsetof(r.ctl),
		unsafe.Offsetof(s.a), unsafe.Offsetof(s.b), unsafe.Offsetof(s.out), unsafe.Offsetof(s.j), unsafe.Sizeof(s),
	}
	want := []uintptr{0, 8, 16, 24, 32, 40, 4, 8, 12, 16, 20}
	if !slices.Equal(got, want) {
		t.Errorf("th3Run and step offsets %v, the assembly reads %v", got, want)
	}
}
