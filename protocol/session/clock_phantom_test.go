package session_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// timedPhantom returns Phantom Go on 5×5 with the time control text.
func timedPhantom(text string) engine.Options {
	return engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon, Time: clock.MustParse(text), Lag: testLag}
}

// timedPhantomChecked is timedPhantom with λ garblings a try (T-8(b); 0:
// tries not checked).
func timedPhantomChecked(text string, form phantomForm) engine.Options {
	o := timedPhantom(text)
	o.Lambda, o.InputOT = form.lambda, form.inputOT
	if form.flips {
		o.Own = engine.OptionTryFlips + "=true"
	}
	return o
}

// phantomForm is how a clock test's tries go through the secure referee:
// λ and the input OTs.
type phantomForm struct {
	lambda  int
	inputOT string
	// flips: the evaluator's tries by flips (MPC-D52, CLK-D32).
	flips bool
}

// forLambdas runs a Phantom Go clock test on unchecked tries, on tries
// checked with λ = 4 (T-8(b)), whose commitment and choice come between
// the request and the garbling (CLK-D16), and on those with the
// correlated input OTs (MPC-D28), whose reverse requests ride on the
// base and the garblings: no message is added, and no clock changes;
// and on those whose evaluator's tries come by flips (MPC-D52), whose
// request, commitment and choice go within its player's time and whose
// try is the flips (CLK-D32).
func forLambdas(t *testing.T, test func(t *testing.T, form phantomForm)) {
	for _, form := range []phantomForm{{0, "", false}, {4, "", false}, {4, engine.InputOTCorrelated, false}, {4, engine.InputOTCorrelated, true}} {
		name := fmt.Sprintf("lambda=%d", form.lambda)
		if form.inputOT != "" {
			name += "-" + form.inputOT
		}
		if form.flips {
			name += "-flips"
		}
		t.Run(name, func(t *testing.T) { test(t, form) })
	}
}

// phantomOf returns the Phantom Go part of a view.
func phantomOf(v protocol.View) phantomrules.View { return v.Variant.(phantomrules.View) }

// phantomTry waits until g's player may try, thinks, then tries the
// vertex; it waits until the try went through the secure referee.
func phantomTry(t *testing.T, g *session.Game, think time.Duration, vertex string) (played time.Time) {
	t.Helper()
	v := waitClockView(t, g, "its try", func(v protocol.View) bool { return phantomOf(v).MyTry })
	tries := phantomOf(v).Tries
	time.Sleep(think)
	played = time.Now()
	if err := g.Do(protocol.Play{Point: vertexOn(t, 5, vertex)}); err != nil {
		t.Fatalf("%s tries %s: %v", g.Role(), vertex, err)
	}
	waitClockView(t, g, "the try's outcome", func(v protocol.View) bool { return phantomOf(v).Tries > tries })
	return played
}

// tryClaims returns the think times, in ms, of role r's tries in g's
// record.
func tryClaims(t *testing.T, g *session.Game, r protocol.Role) []int64 {
	t.Helper()
	var out []int64
	for _, k := range []protocol.Kind{phantomrules.KindTry, phantomrules.KindTryGarbling, phantomrules.KindFlips} {
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
	forLambdas(t, testCLKD16PhantomTriesAreTheMoversTime)
}

func testCLKD16PhantomTriesAreTheMoversTime(t *testing.T, form phantomForm) {
	t.Parallel()
	p := newPair(t)
	o := timedPhantomChecked("10m+5s", form)
	// Honest claims stand: a lag allowance that a machine starved of CPU
	// does not exceed (at a load of 8, a try measured 1.3 s against its
	// claim of 0.57 s, and testLag's 500 ms charged the difference).
	o.Lag = 5 * time.Second
	games := startGame(t, p, o)
	black, white := byColor(games)
	const think = 300 * time.Millisecond
	// White thinks longer over its illegal try: its second try, timed
	// from the first one's outcome, claims less than that (a second try
	// timed from the start of the move would claim both).
	firstThink := testenv.Duration(2 * time.Second)
	phantomTry(t, black, think, "C3")
	phantomTry(t, white, firstThink, "C3") // illegal: Black's stone
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
	if claims[1] >= firstThink.Milliseconds() {
		t.Errorf("White's second try claims %d ms, as long as its first try's %v thinking: not timed from the first try's outcome", claims[1], firstThink)
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
	forLambdas(t, testCLKD16PhantomStalledPeerLosesOnTime)
}

func testCLKD16PhantomStalledPeerLosesOnTime(t *testing.T, form phantomForm) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, withLag(timedPhantomChecked("1s", form), 100*time.Millisecond))
	black, white := byColor(games)
	for _, g := range games {
		o := gameOver(t, g)
		if o.Result.By != engine.ByTime || o.Result.Winner != engine.White || o.Violation == nil || o.Violation.Accused != black.Role() {
			t.Errorf("%s: %v (%s), violation %+v; want White on time", g.Role(), o.Result, o.Result.By, o.Violation)
		}
	}
	checkVerifiedLossOnTime(t, p, white)
}

// TestCLKD16PhantomUnderClaimedTryCharged (CLK-D16, CLK-D7): a cheating
// program thinks 0.7 s over a try and claims 1 ms. The honest program's
// next message of the try settles it at its measurement less the lag
// allowance, at most the claim and the allowance (CLK-D34: 201 ms at the
// 200 ms allowance); both programs charge that.
func TestCLKD16PhantomUnderClaimedTryCharged(t *testing.T) {
	t.Parallel()
	forLambdas(t, testCLKD16PhantomUnderClaimedTryCharged)
}

func testCLKD16PhantomUnderClaimedTryCharged(t *testing.T, form phantomForm) {
	const cheaterRole = 1
	p := newPair(t, func(i int, c *session.Config) {
		if i != cheaterRole {
			return
		}
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			switch b := body.(type) {
			case phantomrules.RequestBody:
				if b.ThinkMS != 0 {
					b.ThinkMS = 1
				}
				return kind, b, false
			case phantomrules.GarblingBody:
				if b.ThinkMS != 0 {
					b.ThinkMS = 1
				}
				return kind, b, false
			case phantomrules.FlipsBody:
				if b.ThinkMS != 0 {
					b.ThinkMS = 1
				}
				return kind, b, false
			}
			return kind, body, false
		})
	})
	const lag = 200 * time.Millisecond
	games := startGame(t, p, withLag(timedPhantomChecked("10m", form), lag))
	honest, cheater := games[0], games[1]
	const think = 700 * time.Millisecond
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
	for _, k := range []protocol.Kind{phantomrules.KindGarbling, phantomrules.KindOutputs} {
		for _, b := range clockParts(t, honest, honest.Role(), k) {
			charged += thinkOf(t, b, "charge_ms")
		}
	}
	// The try claimed 1 ms: settled at the claim and the allowance
	// (CLK-D34), less than the measurement less the allowance.
	if want := (lag + time.Millisecond).Milliseconds(); charged != want {
		t.Errorf("the honest program settled the cheater's try at %d ms, want the claim and the allowance, %d ms (CLK-D34)", charged, want)
	}
	if used := 10*time.Minute - views[0].Clock.Clocks[cheater.Role()].Main; used < lag {
		t.Errorf("the cheater's clock shows %v used, want at least %v", used, lag)
	}
	for _, g := range games {
		if rep := protocol.Verify(g.Transcript()); rep.Violation != nil {
			t.Errorf("verify of the %s's record: %v", g.Role(), rep.Violation)
		}
	}
}

// TestT14PhantomEarlyTimeoutClaimRefused (T-14, CLK-D16, CLK-D9): while
// the honest player's clock runs for its try, the cheater claims its flag
// fell. The honest program refuses, and play goes on (CLK-D17).
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
	checkClaimRefused(t, honest, cheater)
	if !phantomOf(honest.View()).MyTry {
		t.Errorf("after the refusal the honest player is not to try")
	}
}

// TestT10PhantomClockTimesOnARequest (CLK-D16, T-10): the evaluator's
// request for a try of the garbler's player is its program's, not a
// try: a cheating evaluator writes a think time into it to have it
// charged. The honest garbler refuses it as a violation of T-10 by the
// cheater and wins; the record proves it.
func TestT10PhantomClockTimesOnARequest(t *testing.T) {
	t.Parallel()
	const cheater = 1 // the invitee, the evaluator (PN-D1)
	p := newPair(t, func(i int, c *session.Config) {
		if i != cheater {
			return
		}
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if b, ok := body.(phantomrules.RequestBody); ok && kind == phantomrules.KindRequest {
				b.ThinkMS = 5
				return kind, b, true
			}
			return kind, body, false
		})
	})
	games := startGame(t, p, timedPhantom("10m"))
	honest := games[1-cheater]
	if games[cheater].View().Color == engine.Black {
		// The evaluator's player tries first; the request comes with the
		// garbler's try after it.
		phantomTry(t, games[cheater], 0, "C3")
	}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(20*time.Second))
	defer cancel()
	if err := honest.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	o := honest.Outcome()
	if o == nil || o.Violation == nil || o.Violation.Rule != "T-10" || o.Violation.Accused != games[cheater].Role() || o.Result.Winner != honest.View().Color {
		t.Fatalf("outcome %+v, want the cheater's T-10 violation and the honest win", o)
	}
	if rep := protocol.Verify(honest.Transcript()); rep.Violation == nil || rep.Violation.Accused != games[cheater].Role() {
		t.Errorf("verify: %+v, want the cheater named", rep.Violation)
	}
}

// resumeFirst closes the first program's game and resumes it from its
// record; the resumed game has the clocks it had.
func resumeFirst(t *testing.T, p *pair, games *[2]*session.Game) {
	t.Helper()
	before := games[0].View().Clock
	id := games[0].ID()
	games[0].Close()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(30*time.Second))
	defer cancel()
	resumed, err := p.services[0].Resume(ctx, id)
	if err != nil {
		t.Fatalf("Resume: %v", err)
	}
	if v := resumed.View(); v.Clock == nil || v.Clock.Clocks != before.Clocks || v.Clock.Used != before.Used {
		t.Fatalf("the resumed clocks %+v, want %+v", v.Clock, before)
	}
	games[0] = resumed
	for _, g := range games {
		waitClockView(t, g, "the connection back", func(v protocol.View) bool { return !v.Adjourned })
	}
}

// TestCLKD16PhantomResumeKeepsClocks (CLK-D16, CLK-D8): a program closed
// after an illegal try, in the middle of a move, and resumed from its
// record has the clocks and the tries' time as the record left them; the
// move goes on and both programs charge it alike.
func TestCLKD16PhantomResumeKeepsClocks(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, timedPhantom("10m+5s"))
	black, white := byColor(games)
	phantomTry(t, black, 100*time.Millisecond, "C3")
	phantomTry(t, white, 100*time.Millisecond, "C3") // illegal
	for _, g := range games {
		waitClockView(t, g, "White's illegal try", func(v protocol.View) bool { return v.Clock.Used[white.Role()] > 0 })
	}
	resumeFirst(t, p, &games)
	_, white = byColor(games)
	phantomTry(t, white, 100*time.Millisecond, "B2")
	var clocks [2][2]clock.State
	for i, g := range games {
		clocks[i] = waitClockView(t, g, "White's move charged", func(v protocol.View) bool {
			return v.Clock.Clocks[white.Role()].Moves == 1 && v.Clock.Used[white.Role()] == 0
		}).Clock.Clocks
	}
	if clocks[0] != clocks[1] {
		t.Errorf("after the resumption the programs hold different clocks: %+v and %+v", clocks[0], clocks[1])
	}
	if used := 10*time.Minute + 5*time.Second - clocks[0][white.Role()].Main; used < 200*time.Millisecond {
		t.Errorf("White's move was charged %v, want both its tries (at least 200 ms)", used)
	}
}

// TestCLKD32PhantomFlipsAreTheTry (CLK-D32, CLK-D16): in a game whose
// evaluator's tries come by flips (MPC-D52), the evaluator's program
// sends the request, and takes the commitment and sends the choice, of
// its player's try before the player plays: those are not the try, and
// carry no think time; the flips are, and carry it. A cheating evaluator
// that writes a think time into its request ahead is refused as a
// violation of T-10 by the honest garbler, which wins; the record
// proves it.
func TestCLKD32PhantomFlipsAreTheTry(t *testing.T) {
	t.Parallel()
	t.Run("honest", func(t *testing.T) {
		t.Parallel()
		p := newPair(t)
		games := startGame(t, p, withLag(timedPhantomChecked("10m", phantomForm{4, engine.InputOTCorrelated, true}), 5*time.Second))
		evaluator := games[1] // the invitee evaluates (PN-D1)
		const think = 300 * time.Millisecond
		moves := []string{"C3", "B2"}
		if evaluator.View().Color == engine.White {
			phantomTry(t, games[0], 0, moves[0])
			phantomTry(t, evaluator, think, moves[1])
		} else {
			phantomTry(t, evaluator, think, moves[0])
			phantomTry(t, games[0], 0, moves[1])
		}
		flips := clockParts(t, evaluator, evaluator.Role(), phantomrules.KindFlips)
		if len(flips) != 1 || thinkOf(t, flips[0], "think_ms") < think.Milliseconds() {
			t.Fatalf("the evaluator's flips carry %v, want one try of at least %v", flips, think)
		}
		for _, b := range clockParts(t, evaluator, evaluator.Role(), phantomrules.KindRequest) {
			if thinkOf(t, b, "think_ms") != 0 {
				t.Errorf("a request carries a think time: %v", b)
			}
		}
		// The request, the commitment and the choice of the evaluator's
		// player's try are in the record before its flips.
		var kinds []protocol.Kind
		for _, m := range evaluator.Transcript().Messages {
			switch m.Kind {
			case phantomrules.KindRequest, phantomrules.KindCommitment, phantomrules.KindChoice, phantomrules.KindFlips:
				kinds = append(kinds, m.Kind)
			}
		}
		if i := slices.Index(kinds, phantomrules.KindFlips); i < 3 || kinds[i-3] != phantomrules.KindRequest ||
			kinds[i-2] != phantomrules.KindCommitment || kinds[i-1] != phantomrules.KindChoice {
			t.Errorf("the try's messages %v, want the request, commitment and choice before the flips", kinds)
		}
		for _, g := range games {
			if rep := protocol.Verify(g.Transcript()); rep.Violation != nil {
				t.Errorf("verify of the %s's record: %v", g.Role(), rep.Violation)
			}
		}
	})
	t.Run("think-on-the-request", func(t *testing.T) {
		t.Parallel()
		const cheater = 1 // the invitee, the evaluator (PN-D1)
		p := newPair(t, func(i int, c *session.Config) {
			if i != cheater {
				return
			}
			session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
				if b, ok := body.(phantomrules.RequestBody); ok && kind == phantomrules.KindRequest && g.View().Color == engine.Black {
					// Only the requests of its own player's tries
					// (Black's, the first).
					if pv := phantomOf(g.View()); pv.Tries%2 == 0 {
						b.ThinkMS = 5
						return kind, b, true
					}
				}
				return kind, body, false
			})
		})
		o := timedPhantomChecked("10m", phantomForm{4, engine.InputOTCorrelated, true})
		o.InviterColor = engine.White // the evaluator's player, Black, tries first
		games := startGame(t, p, o)
		honest := games[1-cheater]
		ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(20*time.Second))
		defer cancel()
		if err := honest.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		out := honest.Outcome()
		if out == nil || out.Violation == nil || out.Violation.Rule != "T-10" || out.Violation.Accused != games[cheater].Role() {
			t.Fatalf("outcome %+v, want the cheater's T-10 violation", out)
		}
		if rep := protocol.Verify(honest.Transcript()); rep.Violation == nil || rep.Violation.Accused != games[cheater].Role() {
			t.Errorf("verify: %+v, want the cheater named", rep.Violation)
		}
	})
}
