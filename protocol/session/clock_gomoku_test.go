package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// timedGomoku returns Hidden Move Double Gomoku on 7×7 with the time
// control text.
func timedGomoku(text string) engine.Options {
	return engine.Options{Variant: engine.VariantGomoku, Size: 7, Time: clock.MustParse(text), Lag: testLag}
}

// gomokuOf returns the gomoku part of a view.
func gomokuOf(v protocol.View) gomokurules.View { return v.Variant.(gomokurules.View) }

// startGomoku starts a timed gomoku game with the lag allowance lag: the
// inviter's game first.
func startGomoku(t *testing.T, p *pair, text string, lag time.Duration) (inviter, invitee *session.Game) {
	t.Helper()
	games := startGame2(t, p, withLag(timedGomoku(text), lag))
	return games[0], games[1]
}

// startGame2 starts a game and waits for play, without waiting for the
// colours (gomoku's pie rule sets them during play, GM-2).
func startGame2(t *testing.T, p *pair, o engine.Options) [2]*session.Game {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(20*time.Second))
	defer cancel()
	games := testnet.InviteAccepted(t, ctx, p.services[0], p.services[1], p.hosts[1].ID(), o)
	for _, g := range games {
		waitView(t, g, "play", func(v protocol.View) bool { return v.Phase == protocol.PhasePlay })
	}
	return games
}

// gomokuDo waits until g may act in the given gomoku phase, thinks, then
// acts.
func gomokuDo(t *testing.T, g *session.Game, phase gomoku.Phase, think time.Duration, a protocol.Action) {
	t.Helper()
	waitClockView(t, g, "its step", func(v protocol.View) bool {
		return v.MyTurn && gomokuOf(v).Phase == phase
	})
	time.Sleep(think)
	if err := g.Do(a); err != nil {
		t.Fatalf("%s: %T: %v", g.Role(), a, err)
	}
}

// TestCLKD15GomokuTimedTurns (CLK-D15, GM-2, GM-3): in gomoku the opening
// piece, the side choice, a turn (its commitment within, its announcement
// ending it) and the opponent's answer carry their player's think time;
// the commitment carries none; both programs hold the same clocks.
func TestCLKD15GomokuTimedTurns(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	inviter, invitee := startGomoku(t, p, "10m", testLag)
	const think = 250 * time.Millisecond
	gomokuDo(t, inviter, gomoku.PhaseOpening, think, gomokurules.Opening{Point: vertexOn(t, 7, "D4")})
	gomokuDo(t, invitee, gomoku.PhaseChooseSide, think, gomokurules.ChooseSide{Side: gomoku.X})
	// O (the inviter) makes the first move (GM-2).
	gomokuDo(t, inviter, gomoku.PhaseCommit, think, gomokurules.Place{Point: vertexOn(t, 7, "C3")})
	gomokuDo(t, inviter, gomoku.PhaseAnnounce, think, gomokurules.Announce{Column: true})
	gomokuDo(t, invitee, gomoku.PhaseRespond, think, gomokurules.Respond{})
	const charges = 4 // opening, side, the turn, the answer
	var views [2]protocol.View
	for i, g := range []*session.Game{inviter, invitee} {
		views[i] = waitClockView(t, g, "the answer charged", func(v protocol.View) bool {
			return v.Clock != nil && v.Clock.Clocks[0].Moves+v.Clock.Clocks[1].Moves == charges
		})
	}
	if views[0].Clock.Clocks != views[1].Clock.Clocks {
		t.Errorf("the programs hold different clocks: %+v and %+v", views[0].Clock.Clocks, views[1].Clock.Clocks)
	}
	for _, c := range []struct {
		what string
		g    *session.Game
		kind protocol.Kind
		want int64 // least think time, -1 for none
	}{
		{"the opening piece", inviter, gomokurules.KindOpening, think.Milliseconds()},
		{"the side choice", invitee, gomokurules.KindSide, think.Milliseconds()},
		{"the commitment", inviter, gomokurules.KindCommit, -1},
		{"the announcement", inviter, gomokurules.KindAnnounce, 2 * think.Milliseconds()},
		{"the answer", invitee, gomokurules.KindResponse, think.Milliseconds()},
	} {
		parts := clockParts(t, c.g, c.g.Role(), c.kind)
		if len(parts) != 1 {
			t.Fatalf("%s: %d messages, want 1", c.what, len(parts))
		}
		_, has := parts[0]["think_ms"]
		switch {
		case c.want < 0 && has:
			t.Errorf("%s carries a think time", c.what)
		case c.want >= 0 && thinkOf(t, parts[0], "think_ms") < c.want:
			t.Errorf("%s: think time %d ms, want at least %d", c.what, thinkOf(t, parts[0], "think_ms"), c.want)
		}
	}
	used := func(g *session.Game) time.Duration { return 10*time.Minute - views[0].Clock.Clocks[g.Role()].Main }
	if u := used(inviter); u < 3*think {
		t.Errorf("the inviter used %v, want at least its opening and its turn's %v", u, 3*think)
	}
	if u := used(invitee); u < 2*think {
		t.Errorf("the invitee used %v, want at least its side choice and its answer's %v", u, 2*think)
	}
}

// TestCLKD15GomokuStalledPeerLosesOnTime (CLK-D15, CLK-D9): with 1 s
// absolute the inviter never places the opening piece; the invitee's
// program claims the loss on time, the inviter's confirms it, and the
// record verifies as a loss on time.
func TestCLKD15GomokuStalledPeerLosesOnTime(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	inviter, invitee := startGomoku(t, p, "1s", 100*time.Millisecond)
	start := time.Now()
	for _, g := range []*session.Game{inviter, invitee} {
		o := gameOver(t, g)
		if o.Result.By != engine.ByTime || o.Violation == nil || o.Violation.Accused != inviter.Role() {
			t.Errorf("%s: result %v (%s), violation %+v; want the inviter's loss on time", g.Role(), o.Result, o.Result.By, o.Violation)
		}
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("the game ended on time after %v, before the 1 s ran out", d)
	}
	checkVerifiedLossOnTime(t, p, invitee)
}

// TestCLKD15GomokuUnderClaimCharged (CLK-D15, CLK-D7): a cheating
// inviter thinks 0.7 s over its opening piece and claims 1 ms; the honest
// side choice settles it at the measurement less the allowance, at most
// the claim and the allowance (CLK-D34: 201 ms), and both programs
// charge that.
func TestCLKD15GomokuUnderClaimCharged(t *testing.T) {
	t.Parallel()
	p := newPair(t, func(i int, c *session.Config) {
		if i != 0 {
			return
		}
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if b, ok := body.(gomokurules.PointBody); ok && kind == gomokurules.KindOpening {
				b.ThinkMS = 1
				return kind, b, false
			}
			return kind, body, false
		})
	})
	const lag = 200 * time.Millisecond
	inviter, invitee := startGomoku(t, p, "10m", lag)
	const think = 700 * time.Millisecond
	gomokuDo(t, inviter, gomoku.PhaseOpening, think, gomokurules.Opening{Point: vertexOn(t, 7, "D4")})
	gomokuDo(t, invitee, gomoku.PhaseChooseSide, 0, gomokurules.ChooseSide{Side: gomoku.X})
	var views [2]protocol.View
	for i, g := range []*session.Game{inviter, invitee} {
		views[i] = waitClockView(t, g, "the side choice charged", func(v protocol.View) bool {
			return v.Clock != nil && v.Clock.Clocks[0].Moves+v.Clock.Clocks[1].Moves == 2
		})
	}
	if views[0].Clock.Clocks != views[1].Clock.Clocks {
		t.Errorf("the programs hold different clocks: %+v and %+v", views[0].Clock.Clocks, views[1].Clock.Clocks)
	}
	side := clockParts(t, invitee, invitee.Role(), gomokurules.KindSide)
	// At the claim and the allowance (CLK-D34), less than the
	// measurement less the allowance.
	want := (lag + time.Millisecond).Milliseconds()
	if len(side) != 1 || thinkOf(t, side[0], "charge_ms") != want {
		t.Fatalf("the side choice settles the opening at %d ms, want the claim and the allowance, %d ms", thinkOf(t, side[0], "charge_ms"), want)
	}
	if used := 10*time.Minute - views[0].Clock.Clocks[inviter.Role()].Main; used != time.Duration(want)*time.Millisecond {
		t.Errorf("the cheater's clock shows %v used, want %d ms", used, want)
	}
}

// TestT14GomokuEarlyTimeoutClaimRefused (T-14, CLK-D15, CLK-D9): while
// the honest inviter's clock runs for the opening piece, the cheating
// invitee claims its flag fell. The honest program refuses, and play goes
// on (CLK-D17).
func TestT14GomokuEarlyTimeoutClaimRefused(t *testing.T) {
	t.Parallel()
	p := newPair(t, cheatClaim(1, (11*time.Minute).Milliseconds()))
	inviter, invitee := startGomoku(t, p, "10m", testLag)
	if err := invitee.Do(protocol.Chat{Text: "your flag fell"}); err != nil {
		t.Fatal(err)
	}
	checkClaimRefused(t, inviter, invitee)
}

// TestCLKD15GomokuBotGameVerifies (CLK-D15, GM-8): a whole timed game
// between random bots ends as the rules say (not on time), and both
// records verify, the clocks re-derived from the signed numbers.
func TestCLKD15GomokuBotGameVerifies(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	a, b := playPlayers(t, p, timedGomoku("5m"), quickBot(21, 30), quickBot(22, 30))
	if o := a.Outcome(); o.Result.By == engine.ByTime || o.Violation != nil {
		t.Fatalf("outcome %+v, want one by the rules", o)
	}
	checkRecords(t, a, b)
	if v := a.View(); v.Clock == nil || v.Clock.Clocks[0].Moves == 0 || v.Clock.Clocks[1].Moves == 0 {
		t.Errorf("the clocks charged nothing: %+v", v.Clock)
	}
}

// TestCLKD15GomokuSettlementOnce (CLK-D15, CLK-D8): an answer to an
// announcement that settles the announcement higher than claimed (here
// every message: the lag allowance is 1 ms) settles it once. The same
// player's next announcement, the other's declaration between, settles
// nothing. Its program used to stamp the settlement again, its own
// machine refused the announcement, and its player could not move until
// its clock ran out: an honest loss on time that any lag, or an
// opponent's under-claimed think time, could bring about. Three whole
// games between random bots end by the rules, and both records verify.
func TestCLKD15GomokuSettlementOnce(t *testing.T) {
	t.Parallel()
	for i := range uint64(3) {
		t.Run(fmt.Sprint("game-", i), func(t *testing.T) {
			// The games are independent, and their clocks of 5 minutes
			// are far from running out: side by side (issue 32).
			parallelUnlessRace(t)
			gomokuSettlesOnce(t, i)
		})
	}
}

// gomokuSettlesOnce plays TestCLKD15GomokuSettlementOnce's game i.
func gomokuSettlesOnce(t *testing.T, i uint64) {
	p := newPair(t)
	a, b := playPlayers(t, p, withLag(timedGomoku("5m"), time.Millisecond), quickBot(200+i, 30), quickBot(100+i, 30))
	if o := a.Outcome(); o.Result.By == engine.ByTime || o.Violation != nil {
		t.Fatalf("game %d: outcome %+v, want one by the rules", i, o)
	}
	checkRecords(t, a, b)
	// The case happened: an answer with a settlement, then the same
	// player's announcement.
	answered := [2]bool{}
	happened := false
	for _, m := range a.Transcript().Messages {
		var body map[string]json.RawMessage
		if json.Unmarshal(m.Body, &body) != nil {
			continue
		}
		switch m.Kind {
		case gomokurules.KindResponse:
			answered[m.From] = thinkOf(t, body, "charge_ms") > 0
		case gomokurules.KindAnnounce:
			if answered[m.From] {
				happened = true
			}
			if thinkOf(t, body, "charge_ms") > 0 && answered[m.From] {
				t.Errorf("game %d: the %s's announcement %d settles again after its answer", i, m.From, m.Seq)
			}
			answered[m.From] = false
		}
	}
	if !happened {
		t.Errorf("game %d: no announcement followed a settling answer: the case did not run", i)
	}
}

// TestCLKD15GomokuResumeKeepsClocks (CLK-D15, CLK-D8): a program closed
// in the middle of a turn (after the commitment, before the
// announcement) and resumed from its record has the clocks the record
// left; the turn goes on and both programs charge it alike.
func TestCLKD15GomokuResumeKeepsClocks(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame2(t, p, timedGomoku("10m+5s"))
	gomokuDo(t, games[0], gomoku.PhaseOpening, 100*time.Millisecond, gomokurules.Opening{Point: vertexOn(t, 7, "D4")})
	gomokuDo(t, games[1], gomoku.PhaseChooseSide, 100*time.Millisecond, gomokurules.ChooseSide{Side: gomoku.X})
	gomokuDo(t, games[0], gomoku.PhaseCommit, 100*time.Millisecond, gomokurules.Place{Point: vertexOn(t, 7, "C3")})
	for _, g := range games {
		waitClockView(t, g, "the side choice charged", func(v protocol.View) bool {
			return v.Clock.Clocks[0].Moves+v.Clock.Clocks[1].Moves == 2 && gomokuOf(v).Phase == gomoku.PhaseAnnounce
		})
	}
	resumeFirst(t, p, &games)
	gomokuDo(t, games[0], gomoku.PhaseAnnounce, 100*time.Millisecond, gomokurules.Announce{})
	var clocks [2][2]clock.State
	for i, g := range games {
		clocks[i] = waitClockView(t, g, "the turn charged", func(v protocol.View) bool {
			return v.Clock.Clocks[0].Moves+v.Clock.Clocks[1].Moves == 3
		}).Clock.Clocks
	}
	if clocks[0] != clocks[1] {
		t.Errorf("after the resumption the programs hold different clocks: %+v and %+v", clocks[0], clocks[1])
	}
}
