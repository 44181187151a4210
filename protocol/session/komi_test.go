package session_test

import (
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestGO5KomiReachesEveryScoredVariant plays a game of every variant that
// is scored by area (GO-5: Go, Phantom Go PG-9, Hidden Move Go, F-Go
// FG-6) with a komi of -100.5 on a 5×5 board between random bots: Black
// must win by more than 50 points, which no count with the default komi
// (7.5, F-Go 0) can give on 25 points. The result the peers state, the
// one Verify computes from each record, and the count the record's own
// invitation names all agree. Phantom Go used to count with 7.5 whatever
// the invitation said: its secure referee's configuration carried no
// komi, and its audit built its referee without one.
func TestGO5KomiReachesEveryScoredVariant(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	for _, o := range []engine.Options{
		{Variant: engine.VariantGo, Size: 5},
		{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesHamburg},
		{Variant: engine.VariantHMG, Size: 5, Cards: 1},
		{Variant: engine.VariantFGo, Size: 5},
	} {
		o.Komi, o.KomiSet = -100.5, true
		t.Run(string(o.Variant), func(t *testing.T) {
			p := newPair(t)
			ga, gb := playPlayers(t, p, o, quickBot(11, 12), quickBot(12, 12))
			for _, g := range []*session.Game{ga, gb} {
				out := g.Outcome()
				if out == nil || out.Violation != nil {
					t.Fatalf("the %s's outcome: %+v", g.Role(), out)
				}
				r := out.Result
				if r.By != engine.ByScore || r.Winner != engine.Black || r.Margin <= 50 {
					t.Errorf("the %s states %s: with komi -100.5 Black wins by more than 50", g.Role(), r)
				}
			}
			kinds := checkRecords(t, ga, gb)
			if kinds[protocol.KindResult] != 2 {
				t.Errorf("the record holds %d result statements", kinds[protocol.KindResult])
			}
		})
	}
}
