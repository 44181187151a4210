package referee

import (
	"math/rand/v2"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
)

// TestMPCD59SentTablesOutliveTheTry: the garbler gives the buffers of the
// garblings it does not send back for the next try's garblings once it
// sends ĵ's (MPC-D59), but the tables it sent stay as they were sent
// while the next tries garble into the buffers given back: every try's
// tables, as the evaluator received them and kept them, still hash to
// the digest the garbler committed to and the record keeps, after the
// whole game.
func TestMPCD59SentTablesOutliveTheTry(t *testing.T) {
	for _, tc := range []struct {
		name string
		gm   func(t *testing.T) *testGame
	}{
		{"half-gates", func(t *testing.T) *testGame {
			return newCheckedGame(t, 5, engine.RulesCommon, engine.Black, testSeed("d59 g", 4), testSeed("d59 e", 4), 4)
		}},
		{"three-halves authenticated", func(t *testing.T) *testGame {
			return newAuthGame(t, 5, engine.RulesCommon, engine.White, testSeed("d59 g", 5), testSeed("d59 e", 5), 4, ot.KappaMAC)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gm := tc.gm(t)
			played := gm.playRandom(rand.New(rand.NewPCG(59, 1)), 12, nil)
			if played < 6 {
				t.Fatalf("only %d tries played", played)
			}
			// Tables overwritten in place no longer hash to their digest.
			sums := map[Digest]bool{}
			for _, b := range gm.received[circuit.Evaluator] {
				sums[Sum(b)] = true
			}
			for i, tr := range gm.rec.Tries {
				if !sums[tr.Tables] {
					t.Errorf("try %d: the tables the evaluator received no longer hash to the committed %v", i, tr.Tables)
				}
			}
			// What the evaluator kept holds the tables (the digests above
			// are theirs, not those of some other message).
			var seen bool
			for _, b := range gm.received[circuit.Evaluator] {
				if _, err := gc.ParseGarbled(b); err == nil {
					seen = true
					break
				}
			}
			if !seen {
				t.Fatal("no garbled tables among what the evaluator received")
			}
		})
	}
}
