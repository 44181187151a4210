package circuit

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kakure/kakure/engine"
)

// TestMPCD52TryFlipsComputeTheTry: in the form with the evaluator's try
// flipped (MPC-D52), the circuit of an evaluator's try reads the try as
// the evaluator's random bits r XOR the garbler's flips d, and gives the
// outputs of the plain circuit for the try r XOR d: for random states,
// tries, r and masks, on 5×5 and 9×9, under every rule set, with the
// masks as inputs and in the decoding bits. The flips are garbler
// inputs after its share; nothing else of the layout moves.
func TestMPCD52TryFlipsComputeTheTry(t *testing.T) {
	for _, size := range []int{5, 9} {
		for _, rules := range allRules {
			for _, inDecoding := range []bool{false, true} {
				l, c, err := RefereeCircuitOf(size, rules, Evaluator, RefereeForm{MasksInDecoding: inDecoding})
				if err != nil {
					t.Fatal(err)
				}
				lf, cf, err := RefereeCircuitOf(size, rules, Evaluator, RefereeForm{MasksInDecoding: inDecoding, TryFlips: true})
				if err != nil {
					t.Fatal(err)
				}
				checkFlipsLayout(t, l, lf)
				rng := rand.New(rand.NewPCG(uint64(size), 52))
				g := newRefereeGame(t, newPhantom(t, size, rules), rng)
				for k := range 30 {
					if g.ref.PlayEnded() {
						break
					}
					mv := g.ref.ToMove()
					try := g.randomTry()
					mask := randomBits(rng, l.MaskBits())
					x, err := l.TryBits(try)
					if err != nil {
						t.Fatal(err)
					}
					r := randomBits(rng, len(x))
					d := make([]bool, len(x))
					for i := range x {
						d[i] = x[i] != r[i]
					}
					want := evalTry(t, l, c, mv, g.shares, try, mask, x, nil)
					got := evalTry(t, lf, cf, mv, g.shares, try, mask, r, d)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%dx%d %s try %d at %v: the flipped circuit gives other outputs", size, size, rules, k, try)
					}
					// Other flips are another try: r XOR d' is read as the try.
					d[rng.IntN(len(d))] = !d[0]
					other := make([]bool, len(x))
					for i := range x {
						other[i] = r[i] != d[i]
					}
					want = evalTry(t, l, c, mv, g.shares, try, mask, other, nil)
					got = evalTry(t, lf, cf, mv, g.shares, try, mask, r, d)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%dx%d %s try %d: the flipped circuit does not read r XOR d as the try", size, size, rules, k)
					}
					g.try(t, Evaluator, try)
				}
			}
		}
	}
}

// evalTry evaluates c for a try by the player of colour mover from the
// shares: with TryFlips, the evaluator gives bits (its random bits r) at
// its try inputs and the garbler the flips; otherwise bits, the try's
// bits as the circuit reads them (any, a point of the board or not),
// replace the try's.
func evalTry(t *testing.T, l *RefereeLayout, c *Circuit, mover engine.Color, shares [2]RefereeState, try engine.Point, mask, bits, flips []bool) []bool {
	t.Helper()
	in0, err := l.Inputs(Garbler, mover, shares[Garbler], try, mask)
	if err != nil {
		t.Fatal(err)
	}
	in1, err := l.Inputs(Evaluator, mover, shares[Evaluator], try, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.PlaceTry(in1, bits); err != nil {
		t.Fatal(err)
	}
	if l.TryFlips {
		if err := l.PlaceFlips(in0, flips); err != nil {
			t.Fatal(err)
		}
	}
	out, err := c.Eval(in0, in1)
	if err != nil {
		t.Fatal(err)
	}
	out, err = l.MaskOutputs(out, mask)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkFlipsLayout checks that the flipped layout lf is l with the
// garbler's 2·CoordBits flip inputs after its share, and nothing else
// moved.
func checkFlipsLayout(t *testing.T, l, lf *RefereeLayout) {
	t.Helper()
	n := 2 * l.CoordBits
	if !lf.TryFlips || l.TryFlips || len(lf.FlipX)+len(lf.FlipY) != n || lf.NumInputs[Garbler] != l.NumInputs[Garbler]+n || lf.NumInputs[Evaluator] != l.NumInputs[Evaluator] {
		t.Fatalf("flips layout: %d flip inputs, garbler inputs %d (plain %d), evaluator %d (plain %d)",
			len(lf.FlipX)+len(lf.FlipY), lf.NumInputs[Garbler], l.NumInputs[Garbler], lf.NumInputs[Evaluator], l.NumInputs[Evaluator])
	}
	if !reflect.DeepEqual(lf.TryX, l.TryX) || !reflect.DeepEqual(lf.TryY, l.TryY) || !reflect.DeepEqual(lf.ShareIn, l.ShareIn) ||
		!reflect.DeepEqual(lf.Recipient, l.Recipient) || !reflect.DeepEqual(lf.OutputMask, l.OutputMask) {
		t.Fatal("flips layout: the evaluator's inputs or the outputs moved")
	}
	for i, at := range append(append([]int(nil), lf.FlipX...), lf.FlipY...) {
		if at != l.StateBits+i {
			t.Fatalf("flip input %d at garbler input %d, want %d (after its share)", i, at, l.StateBits+i)
		}
	}
}
