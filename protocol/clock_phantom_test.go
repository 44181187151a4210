package protocol_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/protocol"
	"github.com/libp2p/go-libp2p/core/peer"
)

// timedPhantom returns Phantom Go on 5×5 with the time control text.
func timedPhantom(text string) engine.Options {
	return engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon, Time: clock.MustParse(text), Lag: testLag}
}

// phantomOf returns the Phantom Go part of a view.
func phantomOf(v protocol.View) protocol.PhantomNetView { return v.Variant.(protocol.PhantomNetView) }

// phantomTry waits until g's player may try, thinks, then tries the
// vertex; it waits until the try went through the secure referee.
func phantomTry(t *testing.T, g *protocol.Game, think time.Duration, vertex string) {
	t.Helper()
	v := waitClockView(t, g, "its try", func(v protocol.View) bool { return phantomOf(v).MyTry })
	tries := phantomOf(v).Tries
	time.Sleep(think)
	if err := g.Do(protocol.Play{Point: vertexOn(t, 5, vertex)}); err != nil {
		t.Fatalf("%s tries %s: %v", g.Role(), vertex, err)
	}
	waitClockView(t, g, "the try's outcome", func(v protocol.View) bool { return phantomOf(v).Tries > tries })
}

// tryClaims returns the think times, in ms, of role r's tries in g's
// record.
func tryClaims(t *testing.T, g *protocol.Game, r protocol.Role) []int64 {
	t.Helper()
	var out []int64
	for _, k := range []protocol.Kind{protocol.KindPhantomTry, protocol.KindPhantomTryGarbling} {
		for _, b := range clockParts(t, g, r, k) {
			out = append(out, thinkOf(t, b, "think_ms"))
		}
	}
	return out
}

// TestCLKD16PhantomTriesAreTheMoversTime (CLK-D16, PG-2): each try
// carries its player's think time; White's illegal try (onto Black's
// stone) costs White's time, and its two tries are charged as one move
// (one Fischer increment); both programs hold the same clocks.
func TestCLKD16PhantomTriesAreTheMoversTime(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, timedPhantom("10m+5s"))
	black, white := byColor(games)
	const think = 300 * time.Millisecond
	phantomTry(t, black, think, "C3")
	phantomTry(t, white, think, "C3") // illegal: Black's stone
	phantomTry(t, white, think, "B2")
	var views [2]protocol.View
	for i, g := range games {
		views[i] = waitClockView(t, g, "White's move charged", func(v protocol.View) bool {
			return v.Clock != nil && v.Clock.Clocks[white.Role()].Moves == 1 && v.Clock.Used[white.Role()] == 0
		})
	}
	if views[0].Clock.Clocks != views[1].Clock.Clocks {
		t.Errorf("the programs hold different clocks: %+v and %+v", views[0].Clock.Clocks, views[1].Clock.Clocks)
	}
	claims := tryClaims(t, white, white.Role())
	if len(claims) != 2 {
		t.Fatalf("White's tries carry %v, want two think times", claims)
	}
	sum := time.Duration(0)
	for _, c := range claims {
		if c < think.Milliseconds() {
			t.Errorf("a try of White's claims %d ms, want at least %v", c, think)
		}
		sum += time.Duration(c) * time.Millisecond
	}
	if got, want := views[0].Clock.Clocks[white.Role()].Main, 10*time.Minute+5*time.Second-sum; got != want {
		t.Errorf("White's clock %v, want 10m less its two tries' %v plus one increment: %v", got, sum, want)
	}
	if rep := protocol.Verify(black.Transcript()); rep.Violation != nil {
		t.Errorf("verify: %v", rep.Violation)
	}
}

// TestCLKD16PhantomStalledPeerLosesOnTime (CLK-D16, CLK-D9): with 1 s
// absolute, Black never tries; White's program claims the loss on time,
// Black's confirms, and the record verifies as a loss on time.
func TestCLKD16PhantomStalledPeerLosesOnTime(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, timedPhantom("1s"))
	black, white := byColor(games)
	for _, g := range games {
		o := gameOver(t, g)
		if o.Result.By != engine.ByTime || o.Result.Winner != engine.White || o.Violation == nil || o.Violation.Accused != black.Role() {
			t.Errorf("%s: %v (%s), violation %+v; want White on time", g.Role(), o.Result, o.Result.By, o.Violation)
		}
	}
	rep := protocol.Verify(white.Transcript())
	text, ok := rep.Describe([2]peer.ID{p.hosts[0].ID(), p.hosts[1].ID()})
	if !rep.Finished || !ok || !strings.Contains(text, "loss on time") {
		t.Errorf("verify: finished %v, ok %v:\n%s", rep.Finished, ok, text)
	}
}

// TestCLKD16PhantomUnderClaimedTryCharged (CLK-D16, CLK-D7): a cheating
// program thinks 1.2 s over a try and claims 1 ms. The honest program's
// next message of the try settles it at its measurement less the lag
// allowance; both programs charge that.
func TestCLKD16PhantomUnderClaimedTryCharged(t *testing.T) {
	const cheaterRole = 1
	p := newPair(t, func(i int, c *protocol.Config) {
		if i != cheaterRole {
			return
		}
		protocol.SetRewrite(c, func(g *protocol.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			switch b := body.(type) {
			case protocol.PhantomRequestBody:
				if b.ThinkMS != 0 {
					b.ThinkMS = 1
				}
				return kind, b, false
			case protocol.PhantomGarblingBody:
				if b.ThinkMS != 0 {
					b.ThinkMS = 1
				}
				return kind, b, false
			}
			return kind, body, false
		})
	})
	games := startGame(t, p, timedPhantom("10m"))
	honest, cheater := games[0], games[1]
	const think = 1200 * time.Millisecond
	moves := []string{"C3", "B2"}
	if cheater.View().Color == engine.White {
		phantomTry(t, honest, 0, moves[0])
		phantomTry(t, cheater, think, moves[1])
	} else {
		phantomTry(t, cheater, think, moves[0])
		phantomTry(t, honest, 0, moves[1])
	}
	var views [2]protocol.View
	for i, g := range games {
		views[i] = waitClockView(t, g, "both moves charged", func(v protocol.View) bool {
			return v.Clock != nil && v.Clock.Clocks[0].Moves+v.Clock.Clocks[1].Moves == 2
		})
	}
	if views[0].Clock.Clocks != views[1].Clock.Clocks {
		t.Errorf("the programs hold different clocks: %+v and %+v", views[0].Clock.Clocks, views[1].Clock.Clocks)
	}
	var charged int64
	for _, k := range []protocol.Kind{protocol.KindPhantomGarbling, protocol.KindPhantomOutputs} {
		for _, b := range clockParts(t, honest, honest.Role(), k) {
			charged += thinkOf(t, b, "charge_ms")
		}
	}
	if charged < (think - testLag).Milliseconds() {
		t.Errorf("the honest program settled the cheater's try at %d ms, want at least %v", charged, think-testLag)
	}
	if used := 10*time.Minute - views[0].Clock.Clocks[cheater.Role()].Main; used < think-testLag {
		t.Errorf("the cheater's clock shows %v used, want at least %v", used, think-testLag)
	}
	for _, g := range games {
		if rep := protocol.Verify(g.Transcript()); rep.Violation != nil {
			t.Errorf("verify of the %s's record: %v", g.Role(), rep.Violation)
		}
	}
}

// TestT14PhantomEarlyTimeoutClaimRefused (T-14, CLK-D16, CLK-D9): while
// the honest player's clock runs for its try, the cheater claims its flag
// fell. The honest program refuses: no winner, the claimer named.
func TestT14PhantomEarlyTimeoutClaimRefused(t *testing.T) {
	t.Parallel()
	p := newPair(t, cheatClaim(1, (11*time.Minute).Milliseconds()))
	games := startGame(t, p, timedPhantom("10m"))
	honest, cheater := games[0], games[1]
	if honest.View().Color != engine.Black {
		phantomTry(t, cheater, 0, "C3")
	}
	waitClockView(t, honest, "its try", func(v protocol.View) bool { return phantomOf(v).MyTry })
	if err := cheater.Do(protocol.Chat{Text: "your flag fell"}); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		o := gameOver(t, g)
		if o.Result.By != engine.ByDispute || o.Violation == nil || o.Violation.Accused != cheater.Role() {
			t.Errorf("%s: %v (%s), violation %+v; want no winner, the claimer named", g.Role(), o.Result, o.Result.By, o.Violation)
		}
	}
}
