package protocol_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
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

// playPhantomCheat plays Phantom Go on 5×5 between random bots where peer
// cheater (0 the inviter and garbler, 1 the invitee and evaluator) runs a
// cheating program (setup on its configuration, its bot player), and
// returns the honest peer's game once it is over.
func playPhantomCheat(t *testing.T, rules engine.PhantomRules, cheater int, setup func(c *protocol.Config), cheaterBot bot.Player) *protocol.Game {
	t.Helper()
	p := newPair(t, func(i int, c *protocol.Config) {
		if i == cheater && setup != nil {
			setup(c)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	players := [2]bot.Player{bot.NewRandom(11), bot.NewRandom(12)}
	if cheaterBot != nil {
		players[cheater] = cheaterBot
	}
	games := make(chan *protocol.Game, 1)
	go func() {
		select {
		case g := <-p.services[1].Accepted():
			games <- g
			bot.Run(ctx, g, players[1])
		case <-ctx.Done():
			games <- nil
		}
	}()
	g0, err := p.services[0].Invite(ctx, p.hosts[1].ID(), engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: rules})
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	go bot.Run(ctx, g0, players[0])
	g1 := <-games
	if g1 == nil {
		t.Fatal("the invitee never got the game")
	}
	h := [2]*protocol.Game{g0, g1}[1-cheater]
	if err := h.Wait(ctx); err != nil {
		t.Fatalf("the honest game did not end: %v", err)
	}
	return h
}

// checkPhantomCaught checks that the honest peer's game ended with the
// cheater losing for rule, the violation's detail naming what, and that
// Verify on the honest peer's saved record finds the same, proven.
func checkPhantomCaught(t *testing.T, h *protocol.Game, rule, what string) {
	t.Helper()
	cheater := h.Role().Other()
	out := h.Outcome()
	if out == nil || out.Violation == nil {
		t.Fatalf("the honest peer's outcome %+v has no violation", out)
	}
	v := out.Violation
	t.Logf("caught: %v", v)
	if v.Accused != cheater || v.Rule != rule || !strings.Contains(v.Detail, what) {
		t.Errorf("violation %v, want %s by the %s mentioning %q", v, rule, cheater, what)
	}
	if out.Result.By != engine.ByForfeit || out.Result.Winner != h.View().Color {
		t.Errorf("result %v, want a forfeit win for the honest %s", out.Result, h.View().Color)
	}
	tr, err := protocol.LoadTranscript(h.RecordPath())
	if err != nil {
		t.Fatalf("honest record: %v", err)
	}
	rep := protocol.Verify(tr)
	if rep.Violation == nil || rep.Violation.Accused != cheater || rep.Violation.Rule != rule || !rep.Proven ||
		!strings.Contains(rep.Violation.Detail, what) {
		t.Errorf("Verify found %+v (proven %v), want %s by the %s", rep.Violation, rep.Proven, rule, cheater)
	}
}

// phantomRewrite returns a rewrite hook that lets the program's messages
// through except the nth one of the given kinds, which f changes.
func phantomRewrite(n int, f func(body any) any, kinds ...protocol.Kind) func(*protocol.Config) {
	seen := 0
	return func(c *protocol.Config) {
		protocol.SetRewrite(c, func(g *protocol.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if !slices.Contains(kinds, kind) {
				return kind, body, false
			}
			seen++
			if seen != n {
				return kind, body, false
			}
			return kind, f(body), false
		})
	}
}

func flipByte(at int) func([]byte) []byte {
	return func(b []byte) []byte {
		b[at%len(b)] ^= 0x20
		return b
	}
}

// TestT8PhantomGarblerFlipsATable: a garbler's program flips a byte of one
// AND gate's garbled table. The evaluator decodes garbage; whether its
// program notices at once (and accuses) or not, the audit names the
// garbler, and Verify proves it from the record.
func TestT8PhantomGarblerFlipsATable(t *testing.T) {
	h := playPhantomCheat(t, engine.RulesCommon, 0, phantomRewrite(4, func(body any) any {
		return protocol.PhantomTamper(body, 0, flipByte(18+32*40+5))
	}, protocol.KindPhantomGarbling, protocol.KindPhantomTryGarbling), nil)
	checkPhantomCaught(t, h, "T-8", "garbled tables")
}

// TestT8PhantomEvaluatorForwardsAWrongLabel: an evaluator's program
// forwards an output label that is not the one it decoded. The garbler's
// program refuses it at once (it is neither of the output's two labels)
// and accuses at its next turn; the audit names the evaluator.
func TestT8PhantomEvaluatorForwardsAWrongLabel(t *testing.T) {
	h := playPhantomCheat(t, engine.RulesHamburg, 1, phantomRewrite(4, func(body any) any {
		return protocol.PhantomTamper(body, 0, flipByte(6+16+3))
	}, protocol.KindPhantomOutputs), nil)
	checkPhantomCaught(t, h, "T-8", "output labels")
}

// cheatingBot is a random bot whose program does cheat once, at its
// player's third try.
type cheatingBot struct {
	bot.Player
	cheat protocol.Action
	tries int
}

func (c *cheatingBot) Choose(v protocol.View) protocol.Action {
	pv, ok := v.Variant.(protocol.PhantomNetView)
	if ok && pv.MyTry {
		c.tries++
		if c.tries == 3 {
			return c.cheat
		}
	}
	return c.Player.Choose(v)
}

// TestT8PhantomEvaluatorAltersItsShare: an evaluator's program alters its
// share of the state between two tries; its next OT request is not the one
// its seed and share give, which the audit shows.
func TestT8PhantomEvaluatorAltersItsShare(t *testing.T) {
	h := playPhantomCheat(t, engine.RulesKriegspiel, 1, nil, &cheatingBot{Player: bot.NewRandom(12), cheat: protocol.PhantomAlterShare{}})
	checkPhantomCaught(t, h, "T-8", "OT request")
}

// TestT8PhantomSeedDoesNotOpenItsCommitment: a program reveals at the end
// a seed that is not the one it committed to.
func TestT8PhantomSeedDoesNotOpenItsCommitment(t *testing.T) {
	h := playPhantomCheat(t, engine.RulesCommon, 0, phantomRewrite(1, func(body any) any {
		b := body.(protocol.PhantomRevealBody)
		b.Seed.Value = append([]byte(nil), b.Seed.Value...)
		b.Seed.Value[7] ^= 1
		return b
	}, protocol.KindPhantomReveal), nil)
	checkPhantomCaught(t, h, "T-8", "seed")
}

// TestT12PhantomFalseAccusation: a program accuses the other of deviating
// when it did not; the audit finds every message honest, and the accuser
// loses for a false accusation.
func TestT12PhantomFalseAccusation(t *testing.T) {
	h := playPhantomCheat(t, engine.RulesHamburg, 0, nil, &cheatingBot{Player: bot.NewRandom(11), cheat: protocol.PhantomFalseAccusation{}})
	checkPhantomCaught(t, h, "T-12", "false accusation")
}
