package gc_test

import (
	"fmt"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/gc"
)

// TestMPCD62KeysOfTheGarbler (MPC-D62): the garbler's keys, written in
// place, are its input labels as the label stream gives them, the
// garbler's first and 16 bytes each, with their xor Δ, and the output
// labels of the garbling with their xor Δ and the decoding bit of the
// label of 0; a party without inputs reads nothing. Evaluated on labels
// the keys encode, the garbling gives what the circuit computes.
func TestMPCD62KeysOfTheGarbler(t *testing.T) {
	delta, err := gc.NewDelta(seedOf(71).Stream("delta"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range schemes {
		for _, n := range [][2]int{{24, 24}, {0, 9}, {9, 0}} {
			t.Run(fmt.Sprintf("%v/%d+%d", s, n[0], n[1]), func(t *testing.T) {
				c := randomCircuit(seedOf(72).Stream("circuit"), n[0], n[1], 500, [3]int{4, 4, 1}, 20)
				g, keys, err := s.Garble(c, delta, seedOf(73).Stream("labels"), 3)
				if err != nil {
					t.Fatal(err)
				}
				labels := seedOf(73).Stream("labels")
				var in [2][]gc.Label
				for p := range 2 {
					if len(keys.Inputs[p]) != n[p] {
						t.Fatalf("party %d: %d keys, %d inputs", p, len(keys.Inputs[p]), n[p])
					}
					for i, k := range keys.Inputs[p] {
						if want := gc.Label(labels.Block()); k != [2]gc.Label{want, want.Xor(delta)} {
							t.Fatalf("party %d input %d: keys are not the stream's label and its xor Δ", p, i)
						}
					}
					bits := seedOf(74).Stream("bits", uint64(p)).Bools(n[p])
					if in[p], err = keys.Encode(p, bits); err != nil {
						t.Fatal(err)
					}
				}
				for i, k := range keys.Outputs {
					if k[1] != k[0].Xor(delta) || g.Decoding[i] != k[0].LSB() {
						t.Fatalf("output %d: keys %x, %x and decoding bit %v do not agree", i, k[0], k[1], g.Decoding[i])
					}
				}
				out, err := gc.Evaluate(c, g, in)
				if err != nil {
					t.Fatal(err)
				}
				got, err := keys.Decode(out)
				if err != nil {
					t.Fatal(err)
				}
				want, err := c.Eval(seedOf(74).Stream("bits", 0).Bools(n[0]), seedOf(74).Stream("bits", 1).Bools(n[1]))
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("decoded %v, the circuit gives %v", got, want)
				}
			})
		}
	}
}
