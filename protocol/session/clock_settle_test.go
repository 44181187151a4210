package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/fgorules"
	"github.com/kakure/kakure/protocol/phantomrules"
	"github.com/kakure/kakure/protocol/session"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// lastClaimOf returns the think time the last move of role r in g's
// record claims, and false when r has not moved.
func lastClaimOf(g *session.Game, r protocol.Role) (int64, bool) {
	msgs := g.Transcript().Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.From != r || m.Kind != protocol.KindMove {
			continue
		}
		var b protocol.MoveBody
		if json.Unmarshal(m.Body, &b) != nil {
			return 0, false
		}
		return b.ThinkMS, true
	}
	return 0, false
}

// settleCheat makes role cheater's program settle each of the other's
// moves in its own next move at excess(claim, left) above the other's
// claim, where left is what the other's clock shows after the claim: a
// program that writes into its signed settlements whatever it likes
// (CLK-D34). The message is sent even when the cheater's own machine
// refuses it.
func settleCheat(cheater int, excess func(claimMS int64, left time.Duration) int64) func(i int, c *session.Config) {
	return func(i int, c *session.Config) {
		if i != cheater {
			return
		}
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			mb, ok := body.(protocol.MoveBody)
			if !ok {
				return kind, body, false
			}
			v := g.View()
			other := g.Role().Other()
			claim, moved := lastClaimOf(g, other)
			if !moved || v.Clock == nil {
				return kind, body, false
			}
			if x := excess(claim, v.Clock.Control.Left(v.Clock.Clocks[other])); x > 0 {
				mb.ChargeMS = claim + x
				return kind, mb, true
			}
			mb.ChargeMS = 0
			return kind, mb, true
		})
	}
}

// TestCLKD34SettlementCheaterLoses (CLK-D34, T-14): the lever CLK-D33
// left. A cheating program settles the honest player's first move at its
// claim plus all that the honest clock has left (5 min absolute): within
// the clock, so CLK-D8 and CLK-D9 take it; the honest clock is at 0 in
// both programs' records, the cheater's program claims the time-out, and
// the honest program, comparing its own think time with the record's
// clock, confirmed it: the honest player lost on time (W+T or B+T for the
// cheater; so it went on main 8fe1e9d). Now the settlement exceeds the
// claim by more than the lag allowance: a violation of CLK-D34 by the
// cheater, who loses, in the honest program and in `kakure verify` of
// both records.
func TestCLKD34SettlementCheaterLoses(t *testing.T) {
	t.Parallel()
	const cheaterRole = 1
	p := newPair(t, settleCheat(cheaterRole, func(claim int64, left time.Duration) int64 {
		return left.Milliseconds() // all the honest player has left
	}))
	games := startGame(t, p, timed(t, "5m"))
	honest, cheater := games[1-cheaterRole], games[cheaterRole]
	if honest.View().Color != engine.Black {
		if err := cheater.Do(protocol.Play{Point: vertexOn(t, 7, "D4")}); err != nil {
			t.Fatal(err)
		}
	}
	waitClockView(t, honest, "its turn", func(v protocol.View) bool { return v.MyTurn })
	if err := honest.Do(protocol.Play{Point: vertexOn(t, 7, "C3")}); err != nil {
		t.Fatal(err)
	}
	waitClockView(t, cheater, "its turn", func(v protocol.View) bool { return v.MyTurn })
	// The cheater's move settles the honest move.
	if err := cheater.Do(protocol.Play{Point: vertexOn(t, 7, "E5")}); err != nil {
		t.Logf("the cheater's move: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(30*time.Second))
	defer cancel()
	if err := honest.Wait(ctx); err != nil {
		t.Fatalf("the honest game did not end: %v (view %+v)", err, honest.View())
	}
	o := honest.Outcome()
	t.Logf("the honest program's outcome: %v (%s), violation %+v, proven %v", o.Result, o.Result.By, o.Violation, o.Proven)
	if o.Result.Winner != honest.View().Color || o.Violation == nil || o.Violation.Rule != "CLK-D34" || o.Violation.Accused != cheater.Role() {
		t.Fatalf("the honest program's outcome %v (%s), violation %+v; want the cheater's CLK-D34 violation and the honest win", o.Result, o.Result.By, o.Violation)
	}
	for _, g := range games {
		rep := protocol.Verify(g.Transcript())
		if rep.Violation == nil || rep.Violation.Rule != "CLK-D34" || rep.Violation.Accused != cheater.Role() || !rep.Proven {
			t.Errorf("verify of the %s's record: %+v (proven %v), want CLK-D34 by the cheater, proven", g.Role(), rep.Violation, rep.Proven)
		}
	}
}

// TestCLKD34CheaterWithinTheBoundsTakesAtMostTheBudget (CLK-D34): a
// cheating program settles every honest move at the most CLK-D34 lets
// it: the claim plus the lag allowance (200 ms), until its settlements'
// excesses add up to the budget (10 × 200 ms; its first is 150 ms, so
// that its eleventh takes the 50 ms left of the budget), then nothing. The honest clock loses its
// claims and exactly the budget, no more; the cheater's time-out claim
// is refused and play goes on, and both records verify with nobody
// blamed.
func TestCLKD34CheaterWithinTheBoundsTakesAtMostTheBudget(t *testing.T) {
	t.Parallel()
	const cheaterRole = 1
	const lag = 200 * time.Millisecond
	budget := protocol.SettleBudget(lag).Milliseconds()
	var spent atomic.Int64
	claimAsked := atomic.Bool{}
	p := newPair(t, settleCheat(cheaterRole, func(claim int64, left time.Duration) int64 {
		x := min(lag.Milliseconds(), budget-spent.Load())
		if spent.Load() == 0 {
			x -= 50 // so that the last settlement takes what is left of the budget
		}
		spent.Add(x)
		return x
	}), func(i int, c *session.Config) {
		if i != cheaterRole {
			return
		}
		// The cheater's chat line is its time-out claim (cheatClaim),
		// with the settlements' rewrite kept.
		prev := session.RewriteOf(c)
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if kind == protocol.KindChat && claimAsked.Load() {
				v := g.View()
				left := v.Clock.Control.Left(v.Clock.Clocks[g.Role().Other()])
				return protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: left.Milliseconds() + 1}, true
			}
			return prev(g, kind, body)
		})
	})
	games := startGame(t, p, withLag(timed(t, "1m"), lag))
	honest, cheater := games[1-cheaterRole], games[cheaterRole]
	// Black fills columns A and C, White G and E: no capture.
	var moves []string
	for _, cols := range [][2]string{{"A", "G"}, {"C", "E"}} {
		for row := 1; row <= 7; row++ {
			moves = append(moves, fmt.Sprint(cols[0], row), fmt.Sprint(cols[1], row))
		}
	}
	// 14 honest moves, 13 or 14 settled: more than the 10 the budget
	// takes at the cap.
	playMoves(t, games, 0, moves...)
	clocksAfter(t, honest, len(moves))
	if got := spent.Load(); got != budget {
		t.Fatalf("the cheater settled %d ms above the claims, want the budget %d ms", got, budget)
	}
	claims, charged := int64(0), int64(0)
	for _, b := range moveBodies(t, honest, honest.Role()) {
		claims += b.ThinkMS
	}
	for _, b := range moveBodies(t, cheater, cheater.Role()) {
		if b.ChargeMS != 0 {
			charged++
		}
	}
	if charged != 11 {
		t.Fatalf("the cheater settled %d honest moves, want 11: 150 ms, 9 × 200 ms, 50 ms", charged)
	}
	// The honest player's last move may be unsettled yet: the budget was
	// spent before it.
	v := clocksAfter(t, honest, len(moves))
	used := time.Minute - v[honest.Role()].Main
	if want := time.Duration(claims+budget) * time.Millisecond; used != want {
		t.Errorf("the honest clock shows %v used, want its claims and the budget: %v", used, want)
	}
	// The cheater claims the honest flag fell: the honest program
	// refuses, play goes on (CLK-D17).
	if honest.View().Color == engine.White {
		// The cheater (Black) moves, so that the honest clock runs; its
		// budget is spent, it settles nothing.
		waitClockView(t, cheater, "its turn", func(v protocol.View) bool { return v.MyTurn })
		if err := cheater.Do(protocol.Play{Point: vertexOn(t, 7, "D1")}); err != nil {
			t.Fatal(err)
		}
	}
	waitClockView(t, honest, "its turn", func(v protocol.View) bool { return v.MyTurn })
	claimAsked.Store(true)
	if err := cheater.Do(protocol.Chat{Text: "your flag fell"}); err != nil {
		t.Fatal(err)
	}
	checkClaimRefused(t, honest, cheater)
	for _, g := range games {
		if rep := protocol.Verify(g.Transcript()); rep.Violation != nil || rep.Outcome != nil {
			t.Errorf("verify of the %s's record: violation %+v, outcome %+v; want a game under way, nobody blamed", g.Role(), rep.Violation, rep.Outcome)
		}
	}
}

// delayMoves makes each program hold each of its moves delay before it
// writes it to the stream, after its clock stopped: a network whose lag
// is delay each way.
func delayMoves(delay time.Duration) func(i int, c *session.Config) {
	return func(i int, c *session.Config) {
		session.SetTamper(c, func(m *protocol.Message, _ crypto.PrivKey) [][]byte {
			if m.Kind == protocol.KindMove {
				time.Sleep(delay)
			}
			return nil
		})
	}
}

// TestCLKD34HonestLagAboveTheAllowance (CLK-D34, CLK-D7): two honest
// programs over a network whose round trip (2 × 100 ms) is far above the
// lag allowance (20 ms): each measures every move of the other's at the
// claim and the round trip, and settles it higher, at the claim and the
// allowance (CLK-D34's cap, below its measurement less the allowance),
// until its settlements spend its budget (10 × 20 ms), then not at all.
// Neither program breaks CLK-D34, both hold the same clocks, and both
// records verify with nobody blamed.
func TestCLKD34HonestLagAboveTheAllowance(t *testing.T) {
	t.Parallel()
	const lag = 20 * time.Millisecond
	p := newPair(t, delayMoves(100*time.Millisecond))
	games := startGame(t, p, withLag(timed(t, "10m"), lag))
	var moves []string
	for _, cols := range [][2]string{{"A", "G"}, {"C", "E"}} {
		for row := 1; row <= 7; row++ {
			moves = append(moves, fmt.Sprint(cols[0], row), fmt.Sprint(cols[1], row))
		}
	}
	playMoves(t, games, 0, moves...)
	clocks := clocksAfter(t, games[0], len(moves))
	if other := clocksAfter(t, games[1], len(moves)); other != clocks {
		t.Errorf("the programs hold different clocks: %+v and %+v", clocks, other)
	}
	budget := protocol.SettleBudget(lag).Milliseconds()
	for _, g := range games {
		r := g.Role()
		claims := map[int]int64{} // the other's claims, by its move's number
		var excess, settled int64
		for i, b := range moveBodies(t, g, r.Other()) {
			claims[i] = b.ThinkMS
		}
		other := games[1-r]
		first := g.View().Color == engine.White // the other moved first: r's move i settles the other's move i
		for i, b := range moveBodies(t, other, r) {
			if b.ChargeMS == 0 {
				continue
			}
			n := i
			if !first {
				n = i - 1
			}
			x := b.ChargeMS - claims[n]
			if x <= 0 || x > lag.Milliseconds() {
				t.Errorf("the %s's move %d settles the other's claim of %d ms at %d ms: want above it by at most the allowance", r, i, claims[n], b.ChargeMS)
			}
			excess += x
			settled++
		}
		if excess != budget {
			t.Errorf("the %s's %d settlements exceed the claims by %d ms in all, want the budget, %d ms: the round trip is above the allowance at every move", r, settled, excess, budget)
		}
		if rep := protocol.Verify(g.Transcript()); rep.Violation != nil || rep.Outcome != nil {
			t.Errorf("verify of the %s's record: violation %+v, outcome %+v; want a game under way, nobody blamed", r, rep.Violation, rep.Outcome)
		}
		t.Logf("the %s settled %d moves, %d ms above their claims in all", r, settled, excess)
	}
}

// checkSettlementCheaterLost waits for the honest game's end and checks
// that the honest program, and `kakure verify` of both records, name the
// cheater's CLK-D34 violation.
func checkSettlementCheaterLost(t *testing.T, games [2]*session.Game, cheater protocol.Role) {
	t.Helper()
	honest := games[cheater.Other()]
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(30*time.Second))
	defer cancel()
	if err := honest.Wait(ctx); err != nil {
		t.Fatalf("the honest game did not end: %v", err)
	}
	o := honest.Outcome()
	if o.Result.Winner != honest.View().Color || o.Violation == nil || o.Violation.Rule != "CLK-D34" || o.Violation.Accused != cheater {
		t.Fatalf("the honest program's outcome %v (%s), violation %+v; want the cheater's CLK-D34 violation and the honest win", o.Result, o.Result.By, o.Violation)
	}
	for _, g := range games {
		rep := protocol.Verify(g.Transcript())
		if rep.Violation == nil || rep.Violation.Rule != "CLK-D34" || rep.Violation.Accused != cheater || !rep.Proven {
			t.Errorf("verify of the %s's record: %+v (proven %v), want CLK-D34 by the cheater, proven", g.Role(), rep.Violation, rep.Proven)
		}
	}
}

// TestCLKD34PhantomTrySettlementCheaterLoses (CLK-D34, CLK-D16, CLK-D32):
// a cheating garbler settles the honest evaluator's try, on its garbling,
// at 9 minutes (within the 10-minute clock, far above the claim): a
// violation of CLK-D34 by the cheater, in the honest program and in both
// records; also with checked tries and tries by flips.
func TestCLKD34PhantomTrySettlementCheaterLoses(t *testing.T) {
	t.Parallel()
	forLambdas(t, func(t *testing.T, form phantomForm) {
		const cheater = protocol.Inviter // the garbler (PN-D1)
		p := newPair(t, func(i int, c *session.Config) {
			if protocol.Role(i) != cheater {
				return
			}
			session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
				if b, ok := body.(phantomrules.GarblingBody); ok && kind == phantomrules.KindGarbling {
					b.ChargeMS = (9 * time.Minute).Milliseconds()
					return kind, b, true
				}
				return kind, body, false
			})
		})
		games := startGame(t, p, timedPhantomChecked("10m", form))
		honest := games[cheater.Other()]
		if games[cheater].View().Color == engine.Black {
			phantomTry(t, games[cheater], 0, "C3")
		}
		waitClockView(t, honest, "its try", func(v protocol.View) bool { return phantomOf(v).MyTry })
		if err := honest.Do(protocol.Play{Point: vertexOn(t, 5, "B2")}); err != nil {
			t.Fatal(err)
		}
		checkSettlementCheaterLost(t, games, cheater)
	})
}

// TestCLKD34FGoOpeningSettlementCheaterLoses (CLK-D34, CLK-D14): a
// cheating F-Go program settles the honest commitment, on its opening,
// at 9 minutes: a violation of CLK-D34 by the cheater, in the honest
// program and in both records.
func TestCLKD34FGoOpeningSettlementCheaterLoses(t *testing.T) {
	t.Parallel()
	const cheater = protocol.Invitee
	p := newPair(t, func(i int, c *session.Config) {
		if protocol.Role(i) != cheater {
			return
		}
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if b, ok := body.(fgorules.OpenBody); ok {
				b.ChargeMS = (9 * time.Minute).Milliseconds()
				return kind, b, true
			}
			return kind, body, false
		})
	})
	games := startGame(t, p, timedFGo("10m"))
	for i, point := range []string{"C3", "E5"} {
		if err := games[i].Do(protocol.Play{Point: vertexOn(t, 7, point)}); err != nil {
			t.Fatal(err)
		}
	}
	checkSettlementCheaterLost(t, games, cheater)
}
