package session_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// Boundary tests of the clock's checks and of one transcript check (issue
// 30, case 10): each takes the exact case where a bound's `<=` and `<`
// part, or where a check is all that stands between a record and a wrong
// verdict, so that flipping the bound or deleting the check fails it.
// internal/mutants/mutants.sh makes those changes and runs these tests.
// The records are timedGoRecord's (verify_outcome_test.go): under 10 s
// absolute, the invitee (Black) moves first.

// clocksOf replays tr and returns the clocks its last message left.
func clocksOf(t *testing.T, tr *protocol.Transcript) protocol.ClockView {
	t.Helper()
	m := protocol.NewMachine(tr.Game)
	for i := range tr.Messages {
		if _, err := m.Apply(&tr.Messages[i]); err != nil {
			t.Fatalf("message %d (%s's %s): %v", i, tr.Messages[i].From, tr.Messages[i].Kind, err)
		}
	}
	v, ok := m.Clock()
	if !ok {
		t.Fatal("the record has no clock")
	}
	return v
}

// wantViolation checks that Verify names rule, broken by accused, proven
// by the record.
func wantViolation(t *testing.T, tr *protocol.Transcript, accused protocol.Role, rule string) {
	t.Helper()
	rep := protocol.Verify(tr)
	if v := rep.Violation; v == nil || v.Accused != accused || v.Rule != rule || !rep.Proven {
		t.Errorf("Verify: %+v (proven %v), want %s by the %s, proven", rep.Violation, rep.Proven, rule, accused)
	}
}

// TestCLKD8SettlementEqualToTheClaimIsRefused (CLK-D8): a settlement
// equal to the think time the other claimed settles nothing: it is a
// violation of its signer. One millisecond more is a settlement, charged
// from the clock before the move.
func TestCLKD8SettlementEqualToTheClaimIsRefused(t *testing.T) {
	tr := timedGoRecord(t, "10s")
	move(t, tr, protocol.Invitee, "D4", 2000, 0)
	move(t, tr, protocol.Inviter, "C4", 500, 2000)
	wantViolation(t, tr, protocol.Inviter, "CLK-D8")

	tr = timedGoRecord(t, "10s")
	move(t, tr, protocol.Invitee, "D4", 2000, 0)
	move(t, tr, protocol.Inviter, "C4", 500, 2001)
	if got, want := clocksOf(t, tr).Clocks[protocol.Invitee].Main, 10*time.Second-2001*time.Millisecond; got != want {
		t.Errorf("a settlement of 2001 ms leaves the invitee %v, want %v", got, want)
	}
}

// TestCLKD8SettlementPastTheClockIsRefused (CLK-D8, CLK-D9): a settlement
// past the other's clock is a violation of its signer (it had to be a
// time-out claim); one of exactly what the other had is a move made at
// the last moment, in time, and leaves it no time. (The claims are 1 s
// below: a settlement exceeds its claim by at most the allowance,
// CLK-D34.)
func TestCLKD8SettlementPastTheClockIsRefused(t *testing.T) {
	tr := timedGoRecord(t, "10s")
	move(t, tr, protocol.Invitee, "D4", 9000, 0)
	move(t, tr, protocol.Inviter, "C4", 1000, 10001)
	wantViolation(t, tr, protocol.Inviter, "CLK-D9")

	tr = timedGoRecord(t, "10s")
	move(t, tr, protocol.Invitee, "D4", 9000, 0)
	move(t, tr, protocol.Inviter, "C4", 1000, 10000)
	if c := clocksOf(t, tr).Clocks[protocol.Invitee]; c.Flagged || c.Main != 0 {
		t.Errorf("a settlement of all the invitee had leaves its clock %+v, want in time with nothing left", c)
	}
}

// TestCLKD34SettlementCapAndBudget (CLK-D34): in a record replayed by
// `kakure verify`, a settlement may exceed the claim it settles by the lag
// allowance (1 s) and not 1 ms more; and one side's settlements may
// exceed the other's claims by 10 allowances in all over the game: the
// tenth settlement at the cap spends the budget and passes, one more
// millisecond above any claim after it is a violation of its signer. The
// other side's budget is its own: the invitee's settlement after the
// inviter spent all of the inviter's passes.
func TestCLKD34SettlementCapAndBudget(t *testing.T) {
	tr := timedGoRecord(t, "10m")
	move(t, tr, protocol.Invitee, "D4", 1000, 0)
	move(t, tr, protocol.Inviter, "C4", 100, 2000)
	if got, want := clocksOf(t, tr).Clocks[protocol.Invitee].Main, 10*time.Minute-2*time.Second; got != want {
		t.Errorf("a settlement at the allowance above the claim leaves the invitee %v, want %v", got, want)
	}
	tr = timedGoRecord(t, "10m")
	move(t, tr, protocol.Invitee, "D4", 1000, 0)
	move(t, tr, protocol.Inviter, "C4", 100, 2001)
	wantViolation(t, tr, protocol.Inviter, "CLK-D34")

	// Ten settlements at the cap, by the inviter, then one of 1 ms above
	// the claim; the invitee settles the inviter's moves at the cap too.
	// The invitee (Black) fills columns A and B of the 5×5 board, the
	// inviter passes.
	points := []string{"A1", "A2", "A3", "A4", "A5", "B1", "B2", "B3", "B4", "B5", "C1", "C2"}
	budgetGame := func(last int64) *protocol.Transcript {
		tr := timedGoRecord(t, "10m")
		for n := range 11 {
			invitee := int64(0)
			if n > 0 && n < 10 {
				invitee = 100 + 1000 // the inviter's 100 ms claim, at the cap: nine
			}
			move(t, tr, protocol.Invitee, points[n], 500, invitee)
			charge := int64(1500) // the invitee's 500 ms claim, at the cap
			if n == 10 {
				charge = last
			}
			move(t, tr, protocol.Inviter, "pass", 100, charge)
		}
		return tr
	}
	tr = budgetGame(0)
	v := clocksOf(t, tr)
	if got, want := v.Clocks[protocol.Invitee].Main, 10*time.Minute-11*500*time.Millisecond-protocol.SettleBudget(time.Second); got != want {
		t.Errorf("after ten settlements at the cap the invitee has %v, want %v", got, want)
	}
	if rep := protocol.Verify(tr); rep.Violation != nil {
		t.Errorf("ten settlements at the cap: %v, want none", rep.Violation)
	}
	tr = budgetGame(501)
	wantViolation(t, tr, protocol.Inviter, "CLK-D34")
	// The invitee's own settlements are within its own budget: its
	// tenth, after the inviter spent all of the inviter's, passes.
	tr = budgetGame(0)
	move(t, tr, protocol.Invitee, points[11], 500, 100+1000)
	if rep := protocol.Verify(tr); rep.Violation != nil {
		t.Errorf("the invitee's tenth settlement at the cap: %v, want none", rep.Violation)
	}
}

// TestCLKD9ClaimOfWhatIsLeftIsNoTimeout (CLK-D9): a time-out claim that
// charges the flagged side exactly what it had left is no loss on time
// (a move made at the last moment is in time): the record shows the claim
// false, and the flagged side is never the one that loses. One
// millisecond more is a loss on time.
func TestCLKD9ClaimOfWhatIsLeftIsNoTimeout(t *testing.T) {
	claim := func(chargeMS int64) *protocol.Report {
		tr := timedGoRecord(t, "10s")
		move(t, tr, protocol.Invitee, "D4", 2000, 0)
		move(t, tr, protocol.Inviter, "C4", 1000, 0)
		// The invitee's clock runs with 8 s left.
		add(t, tr, protocol.Inviter, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: chargeMS})
		return protocol.Verify(tr)
	}
	rep := claim(8000)
	if o := rep.Outcome; o != nil && (o.Result.By == engine.ByTime || o.Result.Winner == engine.White) {
		t.Errorf("a claim of exactly the 8 s left gives %v (%s), want no loss of the invitee's", o.Result, o.Result.By)
	}
	if v := rep.Violation; v != nil && v.Accused != protocol.Inviter {
		t.Errorf("a claim of exactly the 8 s left names %+v, want the claimer or nobody", v)
	}
	if rep.Violation == nil || rep.Violation.Rule != "CLK-D9" {
		t.Errorf("a claim of exactly the 8 s left: violation %+v, want the claimer's CLK-D9", rep.Violation)
	}
	// One millisecond more: the claim stands and waits for the flagged
	// side's answer (CLK-D17); its confirmation is a loss on time.
	rep = claim(8001)
	if rep.Violation != nil || rep.Outcome != nil || len(rep.Waiting) != 1 || !strings.Contains(rep.Waiting[0], "time-out claim") {
		t.Errorf("a claim of 8001 ms: outcome %+v, violation %+v, waiting %v; want the claim waiting for its answer", rep.Outcome, rep.Violation, rep.Waiting)
	}
	tr := timedGoRecord(t, "10s")
	move(t, tr, protocol.Invitee, "D4", 2000, 0)
	move(t, tr, protocol.Inviter, "C4", 1000, 0)
	add(t, tr, protocol.Inviter, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 8001})
	add(t, tr, protocol.Invitee, protocol.KindResult, protocol.ResultBody{Result: "W+T"})
	if o := protocol.Verify(tr).Outcome; o == nil || o.Result.By != engine.ByTime || o.Result.Winner != engine.White {
		t.Errorf("a claim of 8001 ms, confirmed: outcome %+v, want W+T", o)
	}
}

// TestCLKD13ThinkTimeOnTheMoveThatEndsAnAdjournment (CLK-D13): the move
// that ends an adjournment is not charged: one that claims any think time
// (1 ms) is a violation of its mover; one that claims none leaves both
// clocks as the adjournment stopped them.
func TestCLKD13ThinkTimeOnTheMoveThatEndsAnAdjournment(t *testing.T) {
	adjourned := func() *protocol.Transcript {
		tr := timedGoRecord(t, "10s")
		move(t, tr, protocol.Invitee, "D4", 2000, 0)
		move(t, tr, protocol.Inviter, "C4", 1000, 0)
		add(t, tr, protocol.Inviter, protocol.KindAdjournRequest, struct{}{})
		add(t, tr, protocol.Invitee, protocol.KindAdjournAccept, struct{}{})
		if v := clocksOf(t, tr); !v.Adjourned {
			t.Fatalf("the game is not adjourned: %+v", v)
		}
		return tr
	}
	tr := adjourned()
	move(t, tr, protocol.Invitee, "C5", 1, 0)
	wantViolation(t, tr, protocol.Invitee, "CLK-D13")

	tr = adjourned()
	move(t, tr, protocol.Invitee, "C5", 0, 0)
	v := clocksOf(t, tr)
	if v.Adjourned || v.Clocks[protocol.Invitee].Main != 8*time.Second || v.Clocks[protocol.Inviter].Main != 9*time.Second {
		t.Errorf("after the free move: %+v, want the game going on with 8 s and 9 s left", v)
	}
}

// TestT3AckHashWithoutAck (T-3): a message that acknowledges nothing
// (ack -1) must carry the zero hash; one that names a hash with it is
// refused, both when it arrives and when a record holding it is read.
func TestT3AckHashWithoutAck(t *testing.T) {
	full := goRecord(t)
	invite := full.Messages[0]
	if invite.Ack != -1 || !invite.AckHash.IsZero() {
		t.Fatalf("the invitation acknowledges %d (%v), want nothing", invite.Ack, invite.AckHash)
	}
	invite.AckHash[0] = 1
	resign(t, &invite, session.RecordTestKey(protocol.Inviter))
	tr := protocol.NewTranscript(full.Game, full.Peers[0], full.Peers[1])
	if err := tr.Append(invite); !errors.Is(err, protocol.ErrBadAck) {
		t.Errorf("Append: %v, want %v", err, protocol.ErrBadAck)
	}
	if _, err := protocol.ParseTranscript(recordJSON(t, full, []protocol.Message{invite})); !errors.Is(err, protocol.ErrBadAck) {
		t.Errorf("ParseTranscript: %v, want %v", err, protocol.ErrBadAck)
	}
	if err := tr.Append(full.Messages[0]); err != nil {
		t.Errorf("the invitation as signed: %v", err)
	}
}
