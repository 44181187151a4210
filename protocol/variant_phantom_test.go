package protocol_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// TestPG9PhantomGameOverLoopback plays whole games of Phantom Go between
// two random bots on real hosts, the referee computed by the two programs
// (T-7): both end with the same result, counted on the revealed board
// after the audit (PG-9, T-8), and Verify accepts both records. The 5×5
// games save everything to disk as a real program does (a try then costs
// a few fsyncs); the 9×9 games keep their records in memory.
func TestPG9PhantomGameOverLoopback(t *testing.T) {
	for _, tc := range []struct {
		size  int
		rules engine.PhantomRules
	}{
		{5, engine.RulesCommon}, {5, engine.RulesHamburg}, {5, engine.RulesKriegspiel},
		{9, engine.RulesCommon}, {9, engine.RulesHamburg}, {9, engine.RulesKriegspiel},
	} {
		t.Run(fmt.Sprintf("%dx%d %s", tc.size, tc.size, tc.rules), func(t *testing.T) {
			if tc.size > 5 && testing.Short() {
				t.Skip("9×9 games with -short")
			}
			p := newPair(t, func(i int, c *protocol.Config) {
				if tc.size > 5 {
					c.Dir = ""
				}
			})
			start := time.Now()
			// The bots pass after 2 tries per point, so that the games
			// stay short.
			bots := [2]*bot.Random{bot.NewRandom(7), bot.NewRandom(8)}
			for _, b := range bots {
				b.MaxMoves = 2 * tc.size * tc.size
			}
			a, b := playPlayers(t, p, engine.Options{Variant: engine.VariantPhantom, Size: tc.size, Rules: tc.rules}, bots[0], bots[1])
			if a.Outcome().Result.By != engine.ByScore || a.Outcome().Violation != nil {
				t.Fatalf("outcome %+v, want a count", a.Outcome())
			}
			for _, g := range []*protocol.Game{a, b} {
				tr := g.Transcript()
				if g.RecordPath() != "" {
					var err error
					if tr, err = protocol.LoadTranscript(g.RecordPath()); err != nil {
						t.Fatal(err)
					}
				}
				rep := protocol.Verify(tr)
				if rep.Violation != nil || rep.Outcome == nil || rep.Outcome.Result != a.Outcome().Result {
					t.Fatalf("verify %s: %+v", g.Role(), rep)
				}
				v := g.View().Variant.(protocol.PhantomNetView)
				t.Logf("%s: %d messages, %d tries, %d announcements", g.Role(), len(tr.Messages), v.Tries, len(v.Announcements))
			}
			t.Logf("result %v in %v", a.Outcome().Result, time.Since(start).Round(time.Millisecond))
		})
	}
}
