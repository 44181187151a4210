package session_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// testLag is the lag allowance of the timed games of the F-Go, gomoku and
// Phantom Go clock tests: shorter than the default 1 s, so that a stall
// or an under-claim shows sooner.
const testLag = 500 * time.Millisecond

// withLag returns o with the lag allowance d.
func withLag(o engine.Options, d time.Duration) engine.Options {
	o.Lag = d
	return o
}

// timedFGo returns F-Go on 7×7 with the time control text.
func timedFGo(text string) engine.Options {
	return engine.Options{Variant: engine.VariantFGo, Size: 7, Time: clock.MustParse(text), Lag: testLag}
}

// fgoOf returns the F-Go part of a view.
func fgoOf(v protocol.View) fgorules.View { return v.Variant.(fgorules.View) }

// fgoFirst returns the game of the player who commits first this turn
// (FG-N1) and the other's.
func fgoFirst(games [2]*session.Game) (first, second *session.Game) {
	if fgoOf(games[0].View()).First == games[0].Role() {
		return games[0], games[1]
	}
	return games[1], games[0]
}

// fgoTurn plays one F-Go turn: each player commits its choice after its
// own think time from the turn's start, the one with the shorter time
// first (the second player may commit before the first, CLK-D14); it
// waits until both programs took the turn.
func fgoTurn(t *testing.T, games [2]*session.Game, firstChoice, secondChoice string, firstThink, secondThink time.Duration) {
	t.Helper()
	turn := fgoOf(games[0].View()).Game.TurnNumber()
	first, second := fgoFirst(games)
	type step struct {
		g     *session.Game
		point string
		think time.Duration
	}
	steps := []step{{first, firstChoice, firstThink}, {second, secondChoice, secondThink}}
	if secondThink < firstThink {
		steps[0], steps[1] = steps[1], steps[0]
	}
	start := time.Now()
	for _, s := range steps {
		time.Sleep(time.Until(start.Add(s.think)))
		if err := s.g.Do(protocol.Play{Point: vertexOn(t, 7, s.point)}); err != nil {
			t.Fatalf("%s commits %s: %v", s.g.Role(), s.point, err)
		}
	}
	for _, g := range games {
		waitClockView(t, g, "the next turn", func(v protocol.View) bool { return fgoOf(v).Game.TurnNumber() > turn })
	}
}

// fgoClocks waits until g's clocks charged n commitments and its turn
// is over, and returns them.
func fgoClocks(t *testing.T, g *session.Game, n int) [2]clock.State {
	t.Helper()
	v := waitClockView(t, g, "the commitments charged", func(v protocol.View) bool {
		return v.Clock != nil && v.Clock.Clocks[0].Moves+v.Clock.Clocks[1].Moves == n && !fgoOf(v).Committed
	})
	return v.Clock.Clocks
}

// thinkOf reads a message body's think_ms (0 when absent).
func thinkOf(t *testing.T, b map[string]json.RawMessage, field string) int64 {
	t.Helper()
	var n int64
	if raw, ok := b[field]; ok {
		if err := json.Unmarshal(raw, &n); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

// TestCLKD14FGoBothClocksRun (CLK-D14, FG-N1): in F-Go both clocks run
// during a turn, each until its player's commitment goes. The second
// player commits before the first (it does not wait for the first's
// commitment) and is charged only its own think time; the first's clock
// runs on alone, shown running in both programs; each commitment carries
// its player's think time, and both programs hold the same clocks.
func TestCLKD14FGoBothClocksRun(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, timedFGo("10m"))
	for _, g := range games {
		if c := g.View().Clock; c == nil || c.Runs != [2]bool{true, true} || c.Stopped {
			t.Fatalf("%s: at the start of a turn the clocks are %+v, want both running", g.Role(), c)
		}
	}
	first, second := fgoFirst(games)
	// The waits stretch with the machine, so that the margin that tells
	// the second player's own time from the first's (long − short) stays
	// above the delays of a loaded machine: at a load of 20–30 the fixed
	// 300 and 900 ms once gave the second player 1.377 s (issue 32).
	short, long := testenv.Duration(300*time.Millisecond), testenv.Duration(900*time.Millisecond)
	turn := fgoOf(first.View()).Game.TurnNumber()
	time.Sleep(short)
	if err := second.Do(protocol.Play{Point: vertexOn(t, 7, "C3")}); err != nil {
		t.Fatalf("the second player commits first: %v", err)
	}
	for _, g := range games {
		v := waitClockView(t, g, "the second player's commitment", func(v protocol.View) bool { return fgoOf(v).Committed || fgoOf(v).OpponentCommitted })
		if want := [2]bool{first.Role() == protocol.Inviter, first.Role() == protocol.Invitee}; v.Clock.Runs != want {
			t.Errorf("%s: after the second player's commitment the clocks run %v, want only the first's %v", g.Role(), v.Clock.Runs, want)
		}
	}
	time.Sleep(long - short)
	if err := first.Do(protocol.Play{Point: vertexOn(t, 7, "E5")}); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		waitClockView(t, g, "the next turn", func(v protocol.View) bool { return fgoOf(v).Game.TurnNumber() > turn })
	}
	fgoTurn(t, games, "C5", "E3", short, 2*short)
	clocks := fgoClocks(t, games[0], 4)
	if other := fgoClocks(t, games[1], 4); other != clocks {
		t.Errorf("the programs hold different clocks: %+v and %+v", clocks, other)
	}
	used := func(g *session.Game) time.Duration { return 10*time.Minute - clocks[g.Role()].Main }
	// Turn 1's first player is turn 0's second (FG-N1).
	if u := used(first); u < long+2*short {
		t.Errorf("the turn-0 first player used %v, want at least %v", u, long+2*short)
	}
	if u := used(second); u < 2*short || u >= long+short {
		t.Errorf("the turn-0 second player used %v, want its own %v and not the other's %v", u, 2*short, long)
	}
	for _, g := range games {
		parts := clockParts(t, g, g.Role(), fgorules.KindCommit)
		if len(parts) != 2 {
			t.Fatalf("%s: %d commitments, want 2", g.Role(), len(parts))
		}
		for i, b := range parts {
			if thinkOf(t, b, "think_ms") < short.Milliseconds() {
				t.Errorf("%s: commitment %d claims %d ms, want at least %v", g.Role(), i, thinkOf(t, b, "think_ms"), short)
			}
		}
	}
	for _, g := range games {
		rep := protocol.Verify(g.Transcript())
		if rep.Violation != nil {
			t.Errorf("verify of the %s's record: %v", g.Role(), rep.Violation)
		}
	}
}

// TestCLKD14FGoStalledPeerLosesOnTime (CLK-D14, CLK-D9): with 1 s
// absolute, one player commits at once and the other never does. Its
// clock runs out; the committed player's program claims the loss on time,
// the stalled but honest program confirms it, and the record verifies as
// a loss on time naming the staller.
func TestCLKD14FGoStalledPeerLosesOnTime(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, withLag(timedFGo("1s"), 100*time.Millisecond))
	start := time.Now()
	staller, mover := games[0], games[1]
	if err := mover.Do(protocol.Play{Point: vertexOn(t, 7, "D4")}); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		o := gameOver(t, g)
		if o.Result.By != engine.ByTime || o.Result.Winner != mover.View().Color {
			t.Errorf("%s: result %v (%s), want %s on time", g.Role(), o.Result, o.Result.By, mover.View().Color)
		}
		if o.Violation == nil || o.Violation.Accused != staller.Role() {
			t.Errorf("%s: violation %+v, want the staller's flag named", g.Role(), o.Violation)
		}
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("the game ended on time after %v, before the staller's 1 s ran out", d)
	}
	checkVerifiedLossOnTime(t, p, mover)
}

// TestCLKD14FGoUnderClaimedThinkTimeCharged (CLK-D14, CLK-D7): a
// cheating program thinks 1.2 s over each commitment (700 ms beyond the
// allowance, stretched with the machine's load) and claims 1 ms. The
// honest program's opening settles each at its measurement less the lag
// allowance, at most the claim and the allowance (CLK-D34), both
// programs charge that, and the honest claims stand.
func TestCLKD14FGoUnderClaimedThinkTimeCharged(t *testing.T) {
	t.Parallel()
	const cheaterRole = 1
	p := newPair(t, func(i int, c *session.Config) {
		if i != cheaterRole {
			return
		}
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if b, ok := body.(fgorules.CommitBody); ok {
				b.ThinkMS = 1
				return kind, b, false
			}
			return kind, body, false
		})
	})
	// The allowance stretched with the machine (an honest turn of 100 ms
	// can arrive half a second late under load), and the cheater's think
	// 700 ms beyond it.
	lag := min(testenv.Duration(testLag), engine.MaxLag).Truncate(time.Millisecond)
	games := startGame(t, p, withLag(timedFGo("10m"), lag))
	honest, cheater := games[0], games[1]
	think := lag + 700*time.Millisecond
	for turn, choices := range [][2]string{{"C3", "E5"}, {"C5", "E3"}} {
		first, _ := fgoFirst(games)
		ft, st := 100*time.Millisecond, think
		if first == cheater {
			ft, st = think, 100*time.Millisecond
		}
		fgoTurn(t, games, choices[0], choices[1], ft, st)
		_ = turn
	}
	clocks := fgoClocks(t, games[0], 4)
	if other := fgoClocks(t, games[1], 4); other != clocks {
		t.Errorf("the programs hold different clocks: %+v and %+v", clocks, other)
	}
	charged := int64(0)
	for _, b := range clockParts(t, honest, honest.Role(), fgorules.KindOpen) {
		c := thinkOf(t, b, "charge_ms")
		// At most the claim (1 ms) and the allowance (CLK-D34).
		if want := min(think-lag, lag+time.Millisecond).Milliseconds(); c < want || c > (lag+time.Millisecond).Milliseconds() {
			t.Errorf("the honest opening settles the cheater's commitment at %d ms, want at least %d ms and at most the claim and the allowance, %v", c, want, lag+time.Millisecond)
		}
		charged += c
	}
	if used := 10*time.Minute - clocks[cheater.Role()].Main; used < time.Duration(charged)*time.Millisecond || charged == 0 {
		t.Errorf("the cheater's clock shows %v used, want the %d ms charged", used, charged)
	}
	honestClaims := int64(0)
	for _, b := range clockParts(t, honest, honest.Role(), fgorules.KindCommit) {
		honestClaims += thinkOf(t, b, "think_ms")
	}
	for _, b := range clockParts(t, cheater, cheater.Role(), fgorules.KindOpen) {
		if c := thinkOf(t, b, "charge_ms"); c != 0 {
			t.Errorf("the honest claim was charged higher (%d ms): lag within the allowance must cost nothing", c)
		}
	}
	if got := 10*time.Minute - clocks[honest.Role()].Main; got != time.Duration(honestClaims)*time.Millisecond {
		t.Errorf("the honest clock shows %v used, want its claims' %d ms", got, honestClaims)
	}
	for _, g := range games {
		if rep := protocol.Verify(g.Transcript()); rep.Violation != nil {
			t.Errorf("verify of the %s's record: %v", g.Role(), rep.Violation)
		}
	}
}

// TestT14FGoEarlyTimeoutClaimRefused (T-14, CLK-D14, CLK-D9): a cheating
// program commits, then claims the honest player's flag fell, charging
// it more than its 10 minutes. The honest program refuses, and play goes
// on in both programs and in the record (CLK-D17).
func TestT14FGoEarlyTimeoutClaimRefused(t *testing.T) {
	t.Parallel()
	p := newPair(t, cheatClaim(1, (11*time.Minute).Milliseconds()))
	games := startGame(t, p, timedFGo("10m"))
	honest, cheater := games[0], games[1]
	if err := cheater.Do(protocol.Play{Point: vertexOn(t, 7, "D4")}); err != nil {
		t.Fatal(err)
	}
	waitClockView(t, honest, "the cheater's commitment", func(v protocol.View) bool { return fgoOf(v).OpponentCommitted })
	if err := cheater.Do(protocol.Chat{Text: "your flag fell"}); err != nil {
		t.Fatal(err)
	}
	checkClaimRefused(t, honest, cheater)
}

// TestCLKD14FGoResumeKeepsClocks (CLK-D14, CLK-D8): a program closed
// between two F-Go turns and resumed from its record has both clocks as
// the signed commitments and openings left them; the next turn is
// charged on both sides alike.
func TestCLKD14FGoResumeKeepsClocks(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, timedFGo("10m+5s"))
	fgoTurn(t, games, "C3", "E5", 150*time.Millisecond, 250*time.Millisecond)
	before := fgoClocks(t, games[0], 2)
	if other := fgoClocks(t, games[1], 2); other != before {
		t.Fatalf("the programs hold different clocks: %+v and %+v", before, other)
	}
	id := games[0].ID()
	games[0].Close()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(30*time.Second))
	defer cancel()
	resumed, err := p.services[0].Resume(ctx, id)
	if err != nil {
		t.Fatalf("Resume: %v", err)
	}
	if v := resumed.View(); v.Clock == nil || v.Clock.Clocks != before {
		t.Fatalf("the resumed clocks %+v, want %+v", v.Clock, before)
	}
	games[0] = resumed
	for _, g := range games {
		waitClockView(t, g, "the connection back", func(v protocol.View) bool { return !v.Adjourned })
	}
	fgoTurn(t, games, "C5", "E3", 100*time.Millisecond, 200*time.Millisecond)
	after := fgoClocks(t, games[0], 4)
	if other := fgoClocks(t, games[1], 4); other != after {
		t.Errorf("after the resumption the programs hold different clocks: %+v and %+v", after, other)
	}
}

// TestCLKD14FGoAdjournStopsBothClocks (CLK-D13, CLK-D14): in F-Go an
// adjournment by agreement stops both running clocks; the commitment that
// ends it is not charged (it carries no think time), and the other's
// clock runs from that commitment, not from before the adjournment.
func TestCLKD14FGoAdjournStopsBothClocks(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, timedFGo("10m"))
	black, white := byColor(games)
	if err := black.Do(protocol.RequestAdjourn{}); err != nil {
		t.Fatal(err)
	}
	waitClockView(t, white, "Black's request", func(v protocol.View) bool { return v.Clock != nil && v.Clock.AdjournAsked })
	if err := white.Do(protocol.AcceptAdjourn{}); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		waitClockView(t, g, "the adjournment", func(v protocol.View) bool {
			return v.Clock != nil && v.Clock.Adjourned && v.Clock.Stopped && v.Clock.Runs == [2]bool{}
		})
	}
	const pause, think = 1500 * time.Millisecond, 200 * time.Millisecond
	time.Sleep(pause)
	if err := white.Do(protocol.Play{Point: vertexOn(t, 7, "C3")}); err != nil {
		t.Fatal(err)
	}
	waitClockView(t, black, "White's commitment", func(v protocol.View) bool { return fgoOf(v).OpponentCommitted && !v.Clock.Adjourned })
	time.Sleep(think)
	if err := black.Do(protocol.Play{Point: vertexOn(t, 7, "E5")}); err != nil {
		t.Fatal(err)
	}
	clocks := fgoClocks(t, games[0], 2)
	if other := fgoClocks(t, games[1], 2); other != clocks {
		t.Errorf("the programs hold different clocks: %+v and %+v", clocks, other)
	}
	if w := clocks[white.Role()]; w.Main != 10*time.Minute {
		t.Errorf("White's clock %+v: the commitment that ends the adjournment must not be charged", w)
	}
	if used := 10*time.Minute - clocks[black.Role()].Main; used < think || used >= pause {
		t.Errorf("Black used %v, want its %v from White's commitment, not the %v of the adjournment", used, think, pause)
	}
	if parts := clockParts(t, white, white.Role(), fgorules.KindCommit); len(parts) != 1 || parts[0]["think_ms"] != nil {
		t.Errorf("White's commitment after the adjournment: %v, want one without a think time", parts)
	}
}

// TestCLKD8FGoFalseSettlementCaught (CLK-D8, CLK-D14, T-13): a cheating
// program's opening settles the honest commitment at 1 ms, below what the
// honest program claimed, to make the record say something else than
// both measured. The honest program refuses it as a violation of CLK-D8
// by the cheater and wins; the record proves it, and the honest side is
// never the one blamed.
func TestCLKD8FGoFalseSettlementCaught(t *testing.T) {
	t.Parallel()
	const cheaterRole = 1
	p := newPair(t, func(i int, c *session.Config) {
		if i != cheaterRole {
			return
		}
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if b, ok := body.(fgorules.OpenBody); ok && kind == fgorules.KindOpen {
				return kind, fgorules.OpenBody{Opening: b.Opening, ChargeMS: 1}, true
			}
			return kind, body, false
		})
	})
	games := startGame(t, p, timedFGo("10m"))
	honest, cheater := games[0], games[1]
	time.Sleep(100 * time.Millisecond)
	for _, g := range games {
		if err := g.Do(protocol.Play{Point: vertexOn(t, 7, map[*session.Game]string{honest: "C3", cheater: "E5"}[g])}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(20*time.Second))
	defer cancel()
	if err := honest.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	o := honest.Outcome()
	if o == nil || o.Violation == nil || o.Violation.Rule != "CLK-D8" || o.Violation.Accused != cheater.Role() || o.Result.Winner != honest.View().Color {
		t.Fatalf("outcome %+v, want the cheater's CLK-D8 violation and the honest win", o)
	}
	rep := protocol.Verify(honest.Transcript())
	if rep.Violation == nil || rep.Violation.Accused != cheater.Role() {
		t.Errorf("verify: %+v, want the cheater named", rep.Violation)
	}
}
