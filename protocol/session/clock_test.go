package session_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/sgfexport"
)

// waitClockView polls g's view until ok holds, within a deadline that
// scales with the machine's load.
func waitClockView(t *testing.T, g *session.Game, what string, ok func(protocol.View) bool) protocol.View {
	t.Helper()
	deadline := testenv.Deadline(30 * time.Second)
	for {
		v := g.View()
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("the %s's game never reached: %s (view %+v, clock %+v, outcome %+v)", g.Role(), what, v, v.Clock, v.Outcome)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// timed returns plain Go on 7×7 with the time control text.
func timed(t *testing.T, text string) engine.Options {
	t.Helper()
	c, err := clock.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Options{Variant: engine.VariantGo, Size: 7, Time: c}
}

// cheatClaim makes role cheater's program turn its next chat line into a
// time-out claim charging chargeMS: a program that claims the other's
// flag fell whatever its clock says.
func cheatClaim(cheater int, chargeMS int64) func(i int, c *session.Config) {
	return func(i int, c *session.Config) {
		if i != cheater {
			return
		}
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if kind == protocol.KindChat {
				return protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: chargeMS}, true
			}
			return kind, body, false
		})
	}
}

// claimWhileHonestRuns has the cheater (set up with cheatClaim) claim
// the honest player's flag fell while the honest clock runs: the cheater
// moves first when it is Black, then sends the chat line cheatClaim turns
// into the claim.
func claimWhileHonestRuns(t *testing.T, honest, cheater *session.Game) {
	t.Helper()
	if honest.View().Color != engine.Black {
		// The cheater moves first, so that the honest clock runs.
		if err := cheater.Do(protocol.Play{Point: vertexOn(t, 7, "D4")}); err != nil {
			t.Fatal(err)
		}
		waitClockView(t, honest, "the cheater's move", func(v protocol.View) bool { return v.MyTurn })
	}
	if err := cheater.Do(protocol.Chat{Text: "your flag fell"}); err != nil {
		t.Fatal(err)
	}
}

// gameOver waits until g's game is done and returns its outcome.
func gameOver(t *testing.T, g *session.Game) protocol.Outcome {
	t.Helper()
	v := waitClockView(t, g, "the end of the game", func(v protocol.View) bool { return v.Phase == protocol.PhaseDone && v.Outcome != nil })
	return *v.Outcome
}

// checkClaimRefused waits until the honest program has refused the
// cheater's time-out claim in both programs, and checks that play goes on
// (CLK-D17): no outcome in either program, neither side named, the
// honest clock still its own, and the honest record verifies as a game
// under way with no violation (T-14: an unprovable claim wins nothing and
// voids nothing).
func checkClaimRefused(t *testing.T, honest, cheater *session.Game) {
	t.Helper()
	for _, g := range []*session.Game{honest, cheater} {
		v := waitClockView(t, g, "the refusal of the claim", func(v protocol.View) bool { return v.Clock != nil && v.Clock.Refused == 1 })
		if v.Outcome != nil || v.Phase != protocol.PhasePlay || v.Clock.Claimed {
			t.Errorf("%s: after the refusal: phase %s, outcome %+v, claim pending %v; want play to go on", g.Role(), v.Phase, v.Outcome, v.Clock.Claimed)
		}
	}
	rep := protocol.Verify(honest.Transcript())
	text, _ := rep.Describe(honest.Transcript().Peers)
	if rep.Outcome != nil || rep.Finished || rep.Violation != nil {
		t.Errorf("verify on the honest record: outcome %+v, violation %+v:\n%s; want a game under way, nobody blamed", rep.Outcome, rep.Violation, text)
	}
	refusals := 0
	for _, m := range honest.Transcript().Messages {
		if m.Kind == protocol.KindTimeoutRefuse {
			refusals++
			if m.From != honest.Role() {
				t.Errorf("the refusal comes from the %s", m.From)
			}
		}
	}
	if refusals != 1 {
		t.Errorf("the honest record holds %d refusals, want 1", refusals)
	}
}

// TestT14EarlyTimeoutClaimRefused (T-14, CLK-D9, CLK-D17): a cheating
// program claims the honest player's flag fell one move into a 10-minute
// game, charging it more than its clock holds. The honest program's own
// clock says otherwise: it refuses the claim, and play goes on in both
// programs and in the record — never a win for the claimer, never a void
// game (before CLK-D17 a refused claim voided the game: a loser's exit).
// The honest player then moves, as before the claim.
func TestT14EarlyTimeoutClaimRefused(t *testing.T) {
	p := newPair(t, cheatClaim(1, (11*time.Minute).Milliseconds()))
	games := startGame(t, p, timed(t, "10m"))
	honest, cheater := games[0], games[1]
	claimWhileHonestRuns(t, honest, cheater)
	checkClaimRefused(t, honest, cheater)
	if !honest.View().MyTurn {
		t.Fatalf("after the refusal it is not the honest player's turn")
	}
	if err := honest.Do(protocol.Play{Point: vertexOn(t, 7, "E5")}); err != nil {
		t.Fatalf("the honest move after the refusal: %v", err)
	}
	waitClockView(t, cheater, "the honest move", func(v protocol.View) bool { return v.MyTurn })
}

// TestT14FalseTimeoutClaimLoses (T-14, CLK-D9): a claim whose own charge
// is within what the record's clocks give the other player is proven
// false by the claimer's signed message: the claimer loses, in both
// programs and in `kakure verify`.
func TestT14FalseTimeoutClaimLoses(t *testing.T) {
	p := newPair(t, cheatClaim(1, 1000))
	games := startGame(t, p, timed(t, "10m"))
	honest, cheater := games[0], games[1]
	claimWhileHonestRuns(t, honest, cheater)
	for _, g := range games {
		o := gameOver(t, g)
		if o.Result.Winner != honest.View().Color || !o.Proven || o.Violation == nil || o.Violation.Accused != cheater.Role() {
			t.Errorf("%s: a false claim gives %v, violation %+v (proven %v); want the claimer to lose, proven", g.Role(), o.Result, o.Violation, o.Proven)
		}
	}
	rep := protocol.Verify(honest.Transcript())
	if rep.Violation == nil || rep.Violation.Rule != "CLK-D9" || rep.Violation.Accused != cheater.Role() || !rep.Proven {
		t.Errorf("verify: %+v (proven %v), want CLK-D9 by the claimer, proven", rep.Violation, rep.Proven)
	}
}

// TestCLKD9StalledPeerLosesOnTime (CLK-D9, T-11): with 2 s absolute, the
// player to move never moves. The waiting program claims the loss on
// time once the clock and the lag allowance ran out; the stalled but
// honest program confirms it: the game ends on time in both programs,
// the record is finished and verifies, and it names the flagged side.
func TestCLKD9StalledPeerLosesOnTime(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, timed(t, "2s"))
	black, white := byColor(games)
	start := time.Now()
	for _, g := range games {
		o := gameOver(t, g)
		if o.Result.By != engine.ByTime || o.Result.Winner != engine.White {
			t.Errorf("%s: result %v (%s), want White on time", g.Role(), o.Result, o.Result.By)
		}
		if o.Violation == nil || o.Violation.Accused != black.Role() {
			t.Errorf("%s: violation %+v, want Black's flag named", g.Role(), o.Violation)
		}
	}
	if d := time.Since(start); d < 2*time.Second {
		t.Errorf("the game ended on time after %v, before Black's 2 s ran out", d)
	}
	checkVerifiedLossOnTime(t, p, white)
	sgf, err := sgfexport.Export(white.Transcript())
	if err != nil || !strings.Contains(string(sgf), "RE[W+T]") || !strings.Contains(string(sgf), "TM[2]") {
		t.Errorf("SGF export (SGF-D11): %v\n%s", err, sgf)
	}
}

// TestSGFD11ClockProperties (SGF-D11): the SGF export of a game with
// byo-yomi has the main time (TM) and the overtime (OT) in its root, and
// each move the time its player has left (BL, WL) as the clocks have it,
// with the periods left (OB, OW) once in byo-yomi.
func TestSGFD11ClockProperties(t *testing.T) {
	p := newPair(t)
	games := startGame(t, p, timed(t, "0+3x30s"))
	playMoves(t, games, 0, "C3", "E5", "C5")
	clocksAfter(t, games[0], 3)
	sgf, err := sgfexport.Export(games[0].Transcript())
	if err != nil {
		t.Fatal(err)
	}
	text := string(sgf)
	for _, want := range []string{"TM[0]", "OT[3x30 byo-yomi]", "BL[30.0]OB[3]", "WL[30.0]OW[3]"} {
		if !strings.Contains(text, want) {
			t.Errorf("the SGF lacks %s:\n%s", want, text)
		}
	}
}

// moveBodies returns the move bodies role r signed in g's record.
func moveBodies(t *testing.T, g *session.Game, r protocol.Role) []protocol.MoveBody {
	t.Helper()
	var out []protocol.MoveBody
	for _, m := range g.Transcript().Messages {
		if m.From != r || m.Kind != protocol.KindMove {
			continue
		}
		var b protocol.MoveBody
		if err := json.Unmarshal(m.Body, &b); err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// TestCLKD7UnderClaimedThinkTimeCharged (CLK-D7, CLK-D8, CLK-D34): a
// program that thinks 2.5 s a move but claims 0 ms is charged by the
// other's measurement less the 1 s allowance (at least 1.5 s a move), at
// most its claim and the allowance (CLK-D34): 1 s a move, written into
// the other's next move; the honest program's own claims, a loopback
// round trip short of the other's measurement, are charged as claimed.
// Both programs hold the same clocks.
func TestCLKD7UnderClaimedThinkTimeCharged(t *testing.T) {
	t.Parallel()
	const cheaterRole = 1
	var cheating atomic.Bool
	cheating.Store(true)
	p := newPair(t, func(i int, c *session.Config) {
		if i != cheaterRole {
			return
		}
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if mb, ok := body.(protocol.MoveBody); ok && cheating.Load() {
				mb.ThinkMS = 0
				return kind, mb, false
			}
			return kind, body, false
		})
	})
	games := startGame(t, p, timed(t, "10m"))
	honest, cheater := games[0], games[1]
	moves := []string{"C3", "E5", "C5", "E3", "D2", "D6"}
	think := 2500 * time.Millisecond
	for i, mv := range moves {
		g := honest
		if (i%2 == 0) != (honest.View().Color == engine.Black) {
			g = cheater
		}
		waitClockView(t, g, "its turn", func(v protocol.View) bool { return v.MyTurn })
		if g == cheater {
			time.Sleep(think) // the cheater's think time, which it will not admit to
		}
		if err := g.Do(protocol.Play{Point: vertexOn(t, 7, mv)}); err != nil {
			t.Fatal(err)
		}
	}
	last := waitClockView(t, games[0], "the last move", func(v protocol.View) bool {
		return v.Clock != nil && v.Clock.Clocks[0].Moves+v.Clock.Clocks[1].Moves == len(moves)
	})
	other := waitClockView(t, games[1], "the last move", func(v protocol.View) bool {
		return v.Clock != nil && v.Clock.Clocks[0].Moves+v.Clock.Clocks[1].Moves == len(moves)
	})
	if last.Clock.Clocks != other.Clock.Clocks {
		t.Errorf("the programs hold different clocks: %+v and %+v", last.Clock.Clocks, other.Clock.Clocks)
	}
	// Every cheater move but the last (which no honest move settled yet)
	// is charged at least its think time less the allowance.
	cheats := moveBodies(t, cheater, cheater.Role())
	settled := moveBodies(t, honest, honest.Role())
	charged := time.Duration(0)
	for _, b := range settled {
		if b.ChargeMS != 0 && b.ChargeMS != time.Second.Milliseconds() {
			t.Errorf("the honest program settles a cheater move at %d ms, want the claim of 0 and the 1 s allowance (CLK-D34; its measurement less the allowance is at least %v)", b.ChargeMS, think-time.Second)
		}
		charged += time.Duration(b.ChargeMS) * time.Millisecond
	}
	nSettled := len(cheats)
	if honest.View().Color == engine.Black {
		nSettled-- // the cheater moved last
	}
	if charged != time.Duration(nSettled)*time.Second {
		t.Errorf("the cheater's %d settled moves were charged %v in all, want %v", nSettled, charged, time.Duration(nSettled)*time.Second)
	}
	used := 10*time.Minute - last.Clock.Clocks[cheater.Role()].Main
	if used < charged {
		t.Errorf("the cheater's clock shows %v used, less than the %v charged", used, charged)
	}
	// The honest claims stood: none of its moves was settled higher.
	honestUsed := time.Duration(0)
	for _, b := range settled {
		honestUsed += time.Duration(b.ThinkMS) * time.Millisecond
	}
	for _, b := range cheats {
		if b.ChargeMS != 0 {
			t.Errorf("the honest claim was charged higher (%d ms): lag within the allowance must cost nothing", b.ChargeMS)
		}
	}
	if got := 10*time.Minute - last.Clock.Clocks[honest.Role()].Main; got != honestUsed {
		t.Errorf("the honest clock shows %v used, want its claims' %v", got, honestUsed)
	}
}

// playMoves plays the moves in turn on the pair's games, each mover
// waiting think first.
func playMoves(t *testing.T, games [2]*session.Game, think time.Duration, moves ...string) {
	t.Helper()
	black, white := byColor(games)
	for i, mv := range moves {
		g := black
		if i%2 == 1 {
			g = white
		}
		waitClockView(t, g, "its turn to play "+mv, func(v protocol.View) bool { return v.MyTurn })
		time.Sleep(think)
		if err := g.Do(protocol.Play{Point: vertexOn(t, 7, mv)}); err != nil {
			t.Fatal(err)
		}
	}
}

// clocksAfter waits until g's clocks have charged n moves and returns
// them.
func clocksAfter(t *testing.T, g *session.Game, n int) [2]clock.State {
	t.Helper()
	v := waitClockView(t, g, "the clocks of the moves played", func(v protocol.View) bool {
		return v.Clock != nil && v.Clock.Clocks[0].Moves+v.Clock.Clocks[1].Moves == n
	})
	return v.Clock.Clocks
}

// TestCLKD8ResumeRestoresClocks (CLK-D8): a program closed in the middle
// of a Fischer game and resumed from its record has both clocks as the
// signed moves left them, the same as the other program's; play goes on
// and both still agree.
func TestCLKD8ResumeRestoresClocks(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, timed(t, "10m+5s"))
	playMoves(t, games, 150*time.Millisecond, "C3", "E5", "C5")
	before := clocksAfter(t, games[0], 3)
	if other := clocksAfter(t, games[1], 3); other != before {
		t.Fatalf("the programs hold different clocks: %+v and %+v", before, other)
	}
	start := clock.MustParse("10m+5s").Start()
	if before[0] == start || before[1] == start {
		t.Fatalf("the clocks did not move: %+v", before)
	}
	id := games[0].ID()
	games[0].Close()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(30*time.Second))
	defer cancel()
	resumed, err := p.services[0].Resume(ctx, id)
	if err != nil {
		t.Fatalf("Resume: %v", err)
	}
	v := resumed.View()
	if v.Clock == nil || v.Clock.Clocks != before || v.Options.Time != clock.MustParse("10m+5s") {
		t.Fatalf("the resumed clocks %+v, want %+v", v.Clock, before)
	}
	games[0] = resumed
	black, white := byColor(games)
	for i, mv := range []string{"E3", "D2"} {
		g := white
		if i == 1 {
			g = black
		}
		waitClockView(t, g, "its turn to play "+mv, func(v protocol.View) bool { return v.MyTurn && !v.Adjourned })
		if err := g.Do(protocol.Play{Point: vertexOn(t, 7, mv)}); err != nil {
			t.Fatal(err)
		}
	}
	after := clocksAfter(t, games[0], 5)
	if other := clocksAfter(t, games[1], 5); other != after {
		t.Errorf("after the resumption the programs hold different clocks: %+v and %+v", after, other)
	}
}

// TestCLKD17ClaimAgainstAGoneProgramWaits (CLK-D9, CLK-D17, T-11): the
// flagged program stops (its service closed, the connection gone) while
// its clock runs. A disconnection does not stop the clock: the waiting
// program claims the loss on time all the same. The claim waits for the
// flagged program's answer, and a lost connection adjourns (T-11), so the
// game is not over: the claimer's record holds the claim unanswered, as a
// game under way that names the pending claim, with nobody blamed.
func TestCLKD17ClaimAgainstAGoneProgramWaits(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, timed(t, "2s"))
	black, white := byColor(games)
	// The flagged program stops: its service, not only the game, which
	// the service would take back when the other redials.
	for i, g := range games {
		if g == black {
			p.services[i].Close()
		}
	}
	v := waitClockView(t, white, "the time-out claim", func(v protocol.View) bool { return v.Clock != nil && v.Clock.Claimed })
	if v.Outcome != nil || v.Clock.ClaimBy != white.Role() {
		t.Errorf("the claimer's game: outcome %+v, claim by %s; want White's claim waiting", v.Outcome, v.Clock.ClaimBy)
	}
	rep := protocol.Verify(white.Transcript())
	text, ok := rep.Describe([2]protocol.PeerID{protocol.PeerID(p.hosts[0].ID()), protocol.PeerID(p.hosts[1].ID())})
	if ok || rep.Finished || rep.Outcome != nil || rep.Violation != nil || !strings.Contains(text, "time-out claim") {
		t.Errorf("verify of the claimer's record: ok %v, outcome %+v, violation %+v:\n%s", ok, rep.Outcome, rep.Violation, text)
	}
	t.Logf("kakure verify says:\n%s", text)
}

// TestCLKD9SilentFlaggedProgramLosesOnTimeAsReported (CLK-D9, T-11): the
// flagged program stays connected but never answers the time-out claim
// (it chats instead of stating the result). After the grace period the
// claimer reports the missing answer: the loss on time stands, as
// reported, in both programs and in `kakure verify`.
func TestCLKD9SilentFlaggedProgramLosesOnTimeAsReported(t *testing.T) {
	t.Parallel() // waits on a grace, a clock or a stalled peer: wall time, not CPU
	p := newPair(t, func(i int, c *session.Config) {
		c.AutoGrace = testenv.Duration(2 * time.Second)
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if v := g.View(); (kind == protocol.KindResult || kind == protocol.KindTimeoutRefuse) && v.Color == engine.Black {
				return protocol.KindChat, protocol.ChatBody{Text: "…"}, false
			}
			return kind, body, false
		})
	})
	games := startGame(t, p, timed(t, "2s"))
	black, white := byColor(games)
	o := gameOver(t, white)
	if o.Result.By != engine.ByTime || o.Result.Winner != engine.White || o.Violation == nil || o.Violation.Accused != black.Role() || o.Violation.Rule != "T-11" {
		t.Errorf("the claimer's game: %v (%s), violation %+v; want White on time, Black's silence named (T-11)", o.Result, o.Result.By, o.Violation)
	}
	rep := protocol.Verify(white.Transcript())
	text, ok := rep.Describe([2]protocol.PeerID{protocol.PeerID(p.hosts[0].ID()), protocol.PeerID(p.hosts[1].ID())})
	if ok || !rep.Finished || !strings.Contains(text, "LOSS ON TIME as reported") || !strings.Contains(text, "result: W+T") {
		t.Errorf("verify (ok %v, finished %v):\n%s", ok, rep.Finished, text)
	}
}

// TestCLKD13AdjournByAgreementStopsTheClocks (CLK-D13): White asks to
// adjourn while Black's 6 s (scaled with the load) run, Black agrees: both clocks stop, and no
// time-out is claimed however long the game waits. Black's program is
// closed and resumed later; its move after the resumption is charged
// from the resumption, well within its clock, and both programs hold the
// same clocks. An acceptance nobody asked for is refused locally.
// (Black's program stays up: the other redials and its game comes back
// at once, without its player; its move that ends the adjournment is not
// charged.)
func TestCLKD13AdjournByAgreementStopsTheClocks(t *testing.T) {
	t.Parallel() // waits on a grace, a clock or a stalled peer: wall time, not CPU
	p := newPair(t)
	// The clock is long enough for the adjournment to be agreed under
	// the machine's load; the wait after it longer than the clock.
	main := testenv.Duration(6 * time.Second).Round(time.Second)
	games := startGame(t, p, timed(t, clock.Control{Kind: clock.Absolute, Main: main}.String()))
	black, white := byColor(games)
	if err := black.Do(protocol.AcceptAdjourn{}); err == nil {
		t.Error("Black accepts an adjournment nobody asked for: no error")
	}
	if err := white.Do(protocol.RequestAdjourn{}); err != nil {
		t.Fatalf("White asks to adjourn: %v", err)
	}
	waitClockView(t, black, "White's request", func(v protocol.View) bool { return v.Clock != nil && v.Clock.AdjournAsked })
	if err := black.Do(protocol.AcceptAdjourn{}); err != nil {
		t.Fatalf("Black agrees: %v", err)
	}
	for _, g := range games {
		waitClockView(t, g, "the adjournment", func(v protocol.View) bool { return v.Clock != nil && v.Clock.Adjourned && v.Clock.Stopped })
	}
	id, blackSvc := black.ID(), p.services[black.Role()]
	black.Close()
	// Longer than Black's 6 s and the lag allowance: a running clock
	// would have been claimed by now.
	time.Sleep(main + 2*time.Second)
	if o := white.View().Outcome; o != nil {
		t.Fatalf("the adjourned game ended: %+v", o)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(30*time.Second))
	defer cancel()
	resumed, err := blackSvc.Resume(ctx, id)
	if err != nil {
		t.Fatalf("Resume: %v", err)
	}
	waitClockView(t, resumed, "the connection", func(v protocol.View) bool { return v.MyTurn && !v.Adjourned })
	if err := resumed.Do(protocol.Play{Point: vertexOn(t, 7, "D4")}); err != nil {
		t.Fatalf("Black's move after the resumption: %v", err)
	}
	games[black.Role()] = resumed
	after := clocksAfter(t, white, 1)
	if other := clocksAfter(t, resumed, 1); other != after {
		t.Errorf("the programs hold different clocks: %+v and %+v", after, other)
	}
	if b := after[resumed.Role()]; b.Flagged || b.Main != main {
		t.Errorf("Black's clock after its move: %+v; the move that ends the adjournment must not be charged", b)
	}
	if v := white.View(); v.Outcome != nil || v.Clock.Adjourned {
		t.Errorf("after Black's move: outcome %+v, adjourned %v; want play going on", v.Outcome, v.Clock.Adjourned)
	}
}

// TestT14TimeoutClaimDuringAdjournmentLoses (T-14, CLK-D13): a program
// that claims the other's flag fell while the game is adjourned by
// agreement is proven wrong by the record (no clock runs): it loses.
func TestT14TimeoutClaimDuringAdjournmentLoses(t *testing.T) {
	p := newPair(t, cheatClaim(1, (time.Hour).Milliseconds()))
	games := startGame(t, p, timed(t, "10m"))
	honest, cheater := games[0], games[1]
	asker, agreer := cheater, honest
	if err := asker.Do(protocol.RequestAdjourn{}); err != nil {
		t.Fatal(err)
	}
	waitClockView(t, agreer, "the request", func(v protocol.View) bool { return v.Clock != nil && v.Clock.AdjournAsked })
	if err := agreer.Do(protocol.AcceptAdjourn{}); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		waitClockView(t, g, "the adjournment", func(v protocol.View) bool { return v.Clock != nil && v.Clock.Adjourned })
	}
	if err := cheater.Do(protocol.Chat{Text: "your flag fell"}); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		o := gameOver(t, g)
		if o.Result.Winner != honest.View().Color || !o.Proven || o.Violation == nil || o.Violation.Accused != cheater.Role() {
			t.Errorf("%s: a claim during the adjournment gives %v, violation %+v (proven %v); want the claimer to lose", g.Role(), o.Result, o.Violation, o.Proven)
		}
	}
}

// TestCLKD8SettlementNotCarriedOver (CLK-D7, CLK-D8): a program
// under-claims one move (2.5 s thought, 0 ms claimed) and claims its
// later moves honestly. The other program settles that one move in its
// next move (at the claim and the 1 s allowance, CLK-D34), and only there: its later moves carry no settlement, so the
// honest claims after it are charged as claimed, not at the old figure.
func TestCLKD8SettlementNotCarriedOver(t *testing.T) {
	t.Parallel()
	const cheaterRole = 1
	var cheating atomic.Bool
	cheating.Store(true)
	p := newPair(t, func(i int, c *session.Config) {
		if i != cheaterRole {
			return
		}
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if mb, ok := body.(protocol.MoveBody); ok && cheating.Swap(false) {
				mb.ThinkMS = 0
				return kind, mb, false
			}
			return kind, body, false
		})
	})
	games := startGame(t, p, timed(t, "10m"))
	honest, cheater := games[0], games[1]
	moves := []string{"C3", "E5", "C5", "E3", "D2", "D6", "B4", "F4"}
	for i, mv := range moves {
		g := honest
		if (i%2 == 0) != (honest.View().Color == engine.Black) {
			g = cheater
		}
		waitClockView(t, g, "its turn", func(v protocol.View) bool { return v.MyTurn })
		if g == cheater && cheating.Load() {
			time.Sleep(2500 * time.Millisecond)
		}
		if err := g.Do(protocol.Play{Point: vertexOn(t, 7, mv)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range games {
		waitClockView(t, g, "the last move", func(v protocol.View) bool {
			return v.Clock != nil && v.Clock.Clocks[0].Moves+v.Clock.Clocks[1].Moves == len(moves)
		})
	}
	var settlements []int64
	for _, b := range moveBodies(t, honest, honest.Role()) {
		if b.ChargeMS != 0 {
			settlements = append(settlements, b.ChargeMS)
		}
	}
	if len(settlements) != 1 || settlements[0] != 1000 {
		t.Fatalf("the honest program's settlements: %v ms, want one of 1000 ms (the claim and the allowance, CLK-D34)", settlements)
	}
	claimed := time.Duration(0)
	for i, b := range moveBodies(t, cheater, cheater.Role()) {
		if i > 0 {
			claimed += time.Duration(b.ThinkMS) * time.Millisecond
		}
	}
	used := 10*time.Minute - honest.View().Clock.Clocks[cheater.Role()].Main
	if want := claimed + time.Duration(settlements[0])*time.Millisecond; used != want {
		t.Errorf("the cheater's clock shows %v used, want its one settled move and its later claims: %v", used, want)
	}
}

// checkVerifiedLossOnTime checks that g's record verifies as a finished
// game lost on time (CLK-D9), as kakure verify describes it.
func checkVerifiedLossOnTime(t *testing.T, p *pair, g *session.Game) {
	t.Helper()
	rep := protocol.Verify(g.Transcript())
	text, ok := rep.Describe([2]protocol.PeerID{protocol.PeerID(p.hosts[0].ID()), protocol.PeerID(p.hosts[1].ID())})
	if !rep.Finished || !ok || !strings.Contains(text, "loss on time") {
		t.Errorf("verify: finished %v, ok %v:\n%s", rep.Finished, ok, text)
	}
}

// TestCLKD35ClaimOfNoClockLoses (CLK-D35, T-14, CLK-D9): the cheater
// sends a time-out claim in place of its toss commitment, when no clock
// runs. The claim waits for the honest program's first message that saw
// it, since a message the cheater had not seen might have started a
// clock; the honest program refuses it, and the refusal shows that
// nothing crossed: the cheater loses, in both programs and in the
// record, and the honest side is named nowhere.
func TestCLKD35ClaimOfNoClockLoses(t *testing.T) {
	t.Parallel()
	const cheater = 1 // the invitee
	p := newPair(t, func(i int, c *session.Config) {
		if i != cheater {
			return
		}
		var once atomic.Bool
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if kind == protocol.KindTossCommit && once.CompareAndSwap(false, true) {
				return protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: (11 * time.Minute).Milliseconds()}, true
			}
			return kind, body, false
		})
	})
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(20*time.Second))
	defer cancel()
	games := testnet.InviteAccepted(t, ctx, p.services[0], p.services[1], p.hosts[1].ID(), timed(t, "10m"))
	for _, g := range games {
		o := gameOver(t, g)
		// Before the toss the inviter counts as Black.
		if o.Result.Winner != engine.Black || !o.Proven || o.Violation == nil || o.Violation.Accused != protocol.Invitee || o.Violation.Rule != "CLK-D9" {
			t.Errorf("%s: the claim of no clock gives %v, violation %+v (proven %v); want the claimer to lose by CLK-D9, proven", g.Role(), o.Result, o.Violation, o.Proven)
		}
	}
	tr := games[0].Transcript()
	if rep := protocol.Verify(tr); rep.Violation == nil || rep.Violation.Accused != protocol.Invitee {
		t.Errorf("verify of the honest record: %+v, want the claimer named", rep.Violation)
	}
	refused := false
	for _, m := range tr.Messages {
		refused = refused || m.Kind == protocol.KindTimeoutRefuse && m.From == protocol.Inviter
	}
	if !refused {
		for _, m := range tr.Messages {
			t.Logf("%s #%d ack %d %s %s", m.From, m.Seq, m.Ack, m.Kind, m.Body)
		}
		t.Errorf("the honest record holds no refusal of the claim")
	}
}

// TestCLKD35ClaimAgainAfterAVoidClaim (CLK-D35, CLK-D9, T-11): the
// cheater, to move, leaves the honest player's undo request unanswered
// until the honest program claims its flag fell, then accepts the undo
// in place of its answer to the claim, signed as if it had not seen the
// claim (a stale acknowledgement: the two crossed). The acceptance
// stopped the clock the claim was about, so the claim changes nothing
// (EventTimeoutClaimVoid) and the honest program may claim again: the
// honest player moves again, the cheater stalls, and the honest program's
// second claim wins on time. Were its first claim still counted as
// pending (the session's claimed flag), it would never claim again and
// the cheater would stall the game forever.
func TestCLKD35ClaimAgainAfterAVoidClaim(t *testing.T) {
	t.Parallel()           // waits on clocks: wall time, not CPU
	const cheaterIndex = 1 // the invitee
	var accepted atomic.Bool
	p := newPair(t, func(i int, c *session.Config) {
		if i != cheaterIndex {
			return
		}
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			v := g.View()
			if v.Clock != nil && v.Clock.Claimed && v.UndoMove > 0 && accepted.CompareAndSwap(false, true) {
				b := protocol.UndoBody{Move: v.UndoMove}
				if v.UndoMoves == 2 {
					b.Moves = 2
				}
				return protocol.KindUndoAccept, b, true
			}
			return kind, body, false
		})
		session.SetAck(c, func(g *session.Game, kind protocol.Kind, ack int64) int64 {
			if kind == protocol.KindUndoAccept {
				return ack - 1 // as if the claim had not come yet
			}
			return ack
		})
	})
	games := startGame(t, p, timed(t, "2s"))
	honest, cheater := games[0], games[1]
	if honest.View().Color != engine.Black {
		if err := cheater.Do(protocol.Play{Point: vertexOn(t, 7, "D4")}); err != nil {
			t.Fatal(err)
		}
		waitClockView(t, honest, "the cheater's move", func(v protocol.View) bool { return v.MyTurn })
	}
	if err := honest.Do(protocol.Play{Point: vertexOn(t, 7, "C4")}); err != nil {
		t.Fatal(err)
	}
	if err := honest.Do(protocol.RequestUndo{}); err != nil {
		t.Fatal(err)
	}
	waitClockView(t, honest, "the undo accepted across the claim", func(v protocol.View) bool { return v.MyTurn && v.UndoMove == 0 && accepted.Load() })
	if err := honest.Do(protocol.Play{Point: vertexOn(t, 7, "C3")}); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		o := gameOver(t, g)
		if o.Result.By != engine.ByTime || o.Result.Winner != honest.View().Color {
			t.Errorf("%s: result %v (%s), violation %+v; want the honest player to win on time", g.Role(), o.Result, o.Result.By, o.Violation)
		}
	}
	claims := 0
	tr := honest.Transcript()
	for _, m := range tr.Messages {
		if m.Kind == protocol.KindTimeout && m.From == honest.Role() {
			claims++
		}
	}
	if claims != 2 {
		for _, m := range tr.Messages {
			t.Logf("%s #%d ack %d %s %s", m.From, m.Seq, m.Ack, m.Kind, m.Body)
		}
		t.Errorf("the honest record holds %d claims of the honest program, want 2 (the void one, then the one that won)", claims)
	}
	for _, g := range games {
		if rep := protocol.Verify(g.Transcript()); rep.Violation == nil || rep.Violation.Accused != cheater.Role() || !rep.Finished {
			t.Errorf("verify of the %s's record: finished %v, violation %+v; want the cheater's flag named", g.Role(), rep.Finished, rep.Violation)
		}
	}
}
