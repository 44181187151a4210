package referee

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
)

// TestT8DeltaPerTry (T-8(a)): the garbler draws a fresh Δ for every try,
// so a Δ that a cheating evaluator learned in one try (by probing the OT
// extension, say) opens nothing in the next one. In every try the test
// checks that the evaluator's forwarded output labels XOR the Δ of the
// try are the labels of the other values (the attack would work inside
// the try), and that XOR the Δ of the try before they are no label at
// all; then a cheating evaluator sends one output label flipped with the
// old Δ, and the garbler refuses it at once, blaming the evaluator.
func TestT8DeltaPerTry(t *testing.T) {
	for _, garbler := range []engine.Color{engine.Black, engine.White} {
		gm := newTestGame(t, 9, engine.RulesCommon, garbler, testSeed("delta G", int(garbler)), testSeed("delta E", int(garbler)))
		rng := rand.New(rand.NewPCG(uint64(garbler), 16))
		seen := map[gc.Label]uint64{}
		var prev gc.Label
		var cheatAt uint64 = 12
		gm.tamper = func(try uint64, what string, b []byte) []byte {
			if what != "outputs" {
				return b
			}
			keys := gm.g.cur.keys
			if at, ok := seen[keys.Delta]; ok {
				t.Fatalf("try %d has the Δ of try %d", try, at)
			}
			seen[keys.Delta] = try
			vis := gm.g.rc.layout[gm.g.cur.mover].VisibleOutputs(circuit.Garbler)
			labels, err := gc.ParseLabels(b, len(vis))
			if err != nil {
				t.Fatal(err)
			}
			for i, at := range vis {
				pair := keys.Outputs[at]
				if flipped := labels[i].Xor(keys.Delta); flipped != pair[0] && flipped != pair[1] {
					t.Fatalf("try %d: output %d XOR the try's Δ is no label: the test's attack is wrong", try, at)
				}
				if try > 0 {
					if flipped := labels[i].Xor(prev); flipped == pair[0] || flipped == pair[1] {
						t.Fatalf("try %d: output %d XOR the Δ of try %d is a label of the output", try, at, try-1)
					}
				}
			}
			if try == cheatAt {
				labels[0] = labels[0].Xor(prev)
				b = gc.MarshalLabels(labels)
			}
			prev = keys.Delta
			return b
		}
		err := playUntil(t, gm, rng, 40, nil)
		if err == nil {
			t.Fatalf("garbler %v: the label flipped with the last try's Δ was accepted", garbler)
		}
		if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the evaluator") {
			t.Fatalf("garbler %v: %v, want a deviation of the evaluator", garbler, err)
		}
		if gm.g.Err() == nil || gm.e.Err() != nil {
			t.Fatalf("garbler %v: the garbler's error %v, the evaluator's %v: the garbler must have failed, the evaluator not", garbler, gm.g.Err(), gm.e.Err())
		}
		if got := gm.g.Public().Try; got != cheatAt {
			t.Fatalf("garbler %v: refused at try %d, the cheat was at try %d", garbler, got, cheatAt)
		}
	}
}
