package session_test

import (
	"testing"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/session"
)

// TestMPCD51PhantomRequestsPrepared: in a game between two honest
// programs, the evaluator's program prepares the request of each of its
// player's tries while the player is to move (MPC-D51), and every one
// of those requests is made with its preparation; the game ends clean
// (the requests are the same bytes: TestMPCD51PreparedRequestSame in
// the referee). The default form (checked, authenticated, MACs of 64
// bits) and λ = 1. In the pass without the race detector.
func TestMPCD51PhantomRequestsPrepared(t *testing.T) {
	if phantomRace {
		t.Skip("whole games: in the pass without the race detector")
	}
	lambda1 := authMAC64Options(engine.RulesCommon)
	lambda1.Lambda, lambda1.InputOT, lambda1.Garbling = 1, "", ""
	for _, tt := range []struct {
		name string
		o    engine.Options
	}{{"authenticated-mac64", authMAC64Options(engine.RulesCommon)}, {"lambda-1", lambda1}} {
		t.Run(tt.name, func(t *testing.T) {
			games := playPhantomGames(t, tt.o, 0, [2]func(*session.Config){}, [2]bot.Player{shortBot(21), shortBot(22)}, true)
			for _, g := range games {
				if out := g.Outcome(); out == nil || out.Violation != nil {
					t.Fatalf("outcome %+v, want an honest end", out)
				}
			}
			prepared, tries, err := session.PhantomRequestsPrepared(games[1])
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d of the evaluator's player's %d tries prepared", prepared, tries)
			if tries == 0 || prepared != tries {
				t.Errorf("%d requests made with their preparation, for %d tries of the evaluator's player", prepared, tries)
			}
		})
	}
}
