package protocol

import (
	"encoding/json"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
)

// One clock rule (docs/clocks.md, CLK-D30). Every message of a timed kind
// goes through clockRule: the checks of its clock stamp (think_ms, the
// sender's own think time; charge_ms, its settlement of the other's
// claim, bounded by CLK-D34), the loss on time by the sender's own word, the charge of the
// time used (main time, increment, byo-yomi, CLK-D5) and the change made
// once the rules take the message. What differs between the variants is
// only what the message is to the clock, a clockPart, which one of three
// functions reads from the game:
//
//   - movePart: one clock runs (Go, Bridge Go, Hidden Move Go, gomoku,
//     Phantom Go in the open): the message that ends its sender's timed
//     turn carries the sender's think time and the settlement of the
//     other's last move (CLK-D8);
//   - choicePart: both clocks run (F-Go, CLK-D14): the commitment of a
//     player's choice carries its think time, the opening that follows
//     the settlement of the other's choice of the turn;
//   - tryPart: Phantom Go's play (CLK-D16): the try carries its think
//     time, added to what the move's earlier (illegal) tries used, the
//     opponent's next message of the try the settlement, and the move is
//     charged as one when it ends.

// clockStamp is the clock's part of a message that ends a timed turn
// (CLK-D8), read from any body kind that carries it.
type clockStamp struct {
	ThinkMS  int64 `json:"think_ms"`
	ChargeMS int64 `json:"charge_ms"`
}

// clockWords name, in a violation, what a clock stamp is about: they
// differ by how the variant's clocks run, the rule does not.
type clockWords struct {
	// turn is the turn the sender claims think time for ("move").
	turn string
	// other is the other's claim a settlement is of ("last move"),
	// noClaim what a settlement of no such claim is of ("no move of the
	// other's"), notA what a settlement past the clock is not ("a
	// move").
	other, noClaim, notA string
	// noTurn says what a message that may carry no stamp does not do
	// ("ends no timed turn of its").
	noTurn string
}

// clockPart is what one message is to the clock (CLK-D30): what the one
// rule, clockRule, takes from how the variant's clocks run.
type clockPart struct {
	words clockWords
	// own is true when the message ends its sender's timed turn: it may
	// claim think time, charged to the sender's clock as it stood at
	// before when the turn began, on top of prior.
	own    bool
	before clock.State
	prior  time.Duration
	// tries is true in Phantom Go's play (CLK-D16): prior is what the
	// move's earlier tries used, and a settlement is charged on top of
	// what the settled try's earlier tries used.
	tries bool
	// settles is true when the message may settle the other's claim;
	// claim is the claim it may settle, nil when there is none (CLK-D8).
	settles bool
	claim   *ClaimedCharge
	// keepOwn and keepSettled make the change once the rules take the
	// message: the sender's clock after its claim, and the claim to keep
	// for the other to settle; the other's clock after the settlement.
	keepOwn     func(next clock.State, claim *ClaimedCharge)
	keepSettled func(settled clock.State, charge time.Duration)
	// after, when set, runs last in every message's change and gives its
	// events (Phantom Go charges the move that ended, CLK-D16); without
	// it a message that claims and settles nothing changes nothing.
	after func() []Event
}

// clockMove is the clock's part of a message of a timed kind (CLK-D8):
// it checks the clock stamp the message carries and returns the change to
// make once the rules take the message, or an outcome when the sender's
// own claim makes its flag fall.
func (m *Machine) clockMove(msg *Message) (commit func() []Event, lost *Outcome, err error) {
	var b clockStamp
	if err := json.Unmarshal(msg.Body, &b); err != nil {
		return nil, nil, nil // the rules refuse it
	}
	if m.Clocks == nil {
		if b.ThinkMS != 0 || b.ChargeMS != 0 {
			return nil, nil, NewViolation(msg.From, msg.Seq, "T-10", "a %s with clock times (think %d ms, charge %d ms) in a game without a time control", msg.Kind, b.ThinkMS, b.ChargeMS)
		}
		return nil, nil, nil
	}
	var part clockPart
	if sv, ok := m.Rules.(simultaneousClocks); ok {
		part = m.choicePart(msg, sv)
	} else if tc, ok := m.Rules.(TryClocks); ok && msg.Kind != KindMove {
		part = m.tryPart(msg, tc)
	} else {
		part = m.movePart(msg)
		if !part.own {
			// One clock runs, and this message does not end its sender's
			// turn: it may carry no stamp, whether in range or not.
			if b.ThinkMS != 0 || b.ChargeMS != 0 {
				return nil, nil, NewViolation(msg.From, msg.Seq, "T-10", "a %s with clock times (think %d ms, charge %d ms) that %s", msg.Kind, b.ThinkMS, b.ChargeMS, part.words.noTurn)
			}
			return nil, nil, nil
		}
	}
	return m.clockRule(msg, b, part)
}

// clockRule is the one clock rule (CLK-D30): it checks the stamp b of
// msg against what the message is to the clock, p, and returns the change
// to make once the rules take msg, or the sender's loss on time by its
// own word (CLK-D9).
func (m *Machine) clockRule(msg *Message, b clockStamp, p clockPart) (commit func() []Event, lost *Outcome, err error) {
	c := m.Clocks
	think, ok1 := ms(b.ThinkMS)
	charge, ok2 := ms(b.ChargeMS)
	if !ok1 || !ok2 {
		return nil, nil, NewViolation(msg.From, msg.Seq, "T-10", "clock times out of range (think %d ms, charge %d ms)", b.ThinkMS, b.ChargeMS)
	}
	if think != 0 && !p.own || charge != 0 && !p.settles {
		return nil, nil, NewViolation(msg.From, msg.Seq, "T-10", "a %s with clock times (think %d ms, charge %d ms) that %s", msg.Kind, b.ThinkMS, b.ChargeMS, p.words.noTurn)
	}
	if p.own && c.Adjourned && think != 0 {
		return nil, nil, NewViolation(msg.From, msg.Seq, "CLK-D13", "claims %v of think time for the %s that ends an adjournment, which is not charged", think, p.words.turn)
	}
	var settled *clock.State
	var excess time.Duration
	if charge != 0 {
		l := p.claim
		if l == nil || l.Free || charge <= l.Claimed {
			return nil, nil, NewViolation(msg.From, msg.Seq, "CLK-D8", "settles the other's %s at %v, which is %s claimed at less", p.words.other, charge, p.words.noClaim)
		}
		var prior time.Duration
		if p.tries {
			prior = l.Prior
		}
		s, err := c.Control.Charge(l.Before, prior+charge)
		if err != nil {
			return nil, nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
		}
		if s.Flagged {
			return nil, nil, NewViolation(msg.From, msg.Seq, "CLK-D9", "settles the other's %s at %v, past its clock: that is a time-out claim, not %s", p.words.other, charge, p.words.notA)
		}
		// CLK-D34: a settlement exceeds the claim by at most the lag
		// allowance, and the excesses of one side's settlements add up
		// to at most its budget over the game.
		excess = charge - l.Claimed
		if excess > c.Lag {
			return nil, nil, NewViolation(msg.From, msg.Seq, "CLK-D34", "settles the other's %s at %v, %v above its claim of %v: more than the lag allowance %v", p.words.other, charge, excess, l.Claimed, c.Lag)
		}
		if left := c.SettleLeft(msg.From); excess > left {
			return nil, nil, NewViolation(msg.From, msg.Seq, "CLK-D34", "settles the other's %s at %v, %v above its claim of %v: more than the %v left of its budget of %v", p.words.other, charge, excess, l.Claimed, left, SettleBudget(c.Lag))
		}
		settled = &s
	}
	var next clock.State
	if p.own {
		var lost *Outcome
		next, lost, err = m.chargeOwn(msg, p, think)
		if err != nil || lost != nil {
			return nil, lost, err
		}
	}
	if !p.own && settled == nil && p.after == nil {
		return nil, nil, nil
	}
	return func() []Event {
		if p.own {
			// A message that ends its sender's turn ends an adjournment,
			// and lets a request to adjourn lapse (CLK-D13); the turn
			// that ended one is free (read before it is cleared: the
			// other's measurement of it must not be charged).
			free := c.Adjourned
			c.Adjourned, c.adjournBy = false, nil
			p.keepOwn(next, &ClaimedCharge{Role: msg.From, Seq: msg.Seq, Before: p.before, Claimed: think, Prior: p.prior, Free: free})
		}
		if settled != nil {
			c.excess[msg.From] += excess
			p.keepSettled(*settled, charge)
		}
		if p.after != nil {
			return p.after()
		}
		return []Event{EventClock{Clocks: c.state}}
	}, nil, nil
}

// settleBudgetLags is the budget of one side's settlements over a game,
// in lag allowances (CLK-D34).
const settleBudgetLags = 10

// SettleBudget is what one side's settlements may exceed the other's
// claims by, added up over a game whose lag allowance is lag (CLK-D34):
// 10 allowances.
func SettleBudget(lag time.Duration) time.Duration { return settleBudgetLags * lag }

// SettleLeft returns what is left of role r's budget of settlements
// (CLK-D34): how much more its settlements may exceed the other's claims
// in all. It is clock state, derived by replaying the record.
func (c *gameClocks) SettleLeft(r Role) time.Duration {
	return max(0, SettleBudget(c.Lag)-c.excess[r])
}

// chargeOwn charges the think time a message's sender claims for itself
// (on top of what the move's earlier tries used) to its clock as it stood
// when its turn began: the clock after, or the loss on time by its own
// signed word when the claim is past it (CLK-D9), or a T-10 violation for
// a claim the control cannot take.
func (m *Machine) chargeOwn(msg *Message, p clockPart, think time.Duration) (clock.State, *Outcome, error) {
	next, err := m.Clocks.Control.Charge(p.before, p.prior+think)
	if err != nil {
		return next, nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	if !next.Flagged {
		return next, nil, nil
	}
	v := NewViolation(msg.From, msg.Seq, "CLK-D9", "its own think time %v is more than the %v it had", think, m.Clocks.Control.Left(p.before))
	if p.tries {
		v = NewViolation(msg.From, msg.Seq, "CLK-D9", "its own think time %v (its move's tries %v in all) is more than the %v it had", think, p.prior+think, m.Clocks.Control.Left(p.before))
	}
	return next, &Outcome{Result: engine.Result{Winner: m.colorOrRole(msg.From.Other()), By: engine.ByTime}, Violation: v, Proven: true}, nil
}

// movePart is what msg is to the clock when one clock runs (CLK-D8,
// CLK-D10): the message that ends its sender's timed turn claims the
// sender's think time and may settle the other's last move; no other
// message carries either.
func (m *Machine) movePart(msg *Message) clockPart {
	c := m.Clocks
	p := clockPart{words: clockWords{turn: "move", other: "last move", noClaim: "no move of the other's", notA: "a move", noTurn: "ends no timed turn of its"}}
	running, ok := m.ClockTurn()
	if !ok || running != msg.From || !m.EndsTimedTurn(msg.Kind, msg.Body) {
		return p
	}
	other := msg.From.Other()
	p.own, p.before = true, c.state[msg.From]
	p.settles = true
	if l := c.Last; l != nil && l.Role == other {
		p.claim = l
	}
	p.keepOwn = func(next clock.State, claim *ClaimedCharge) {
		c.state[msg.From] = next
		c.Last = claim
	}
	p.keepSettled = func(s clock.State, _ time.Duration) { c.state[other] = s }
	return p
}

// choicePart is what msg is to the clock when both clocks run (F-Go,
// CLK-D14): the message that commits a player's choice while its clock
// runs claims its think time (no settlement); the message that settles
// the other's choice of the turn carries the settlement (no think time);
// no other message carries either.
func (m *Machine) choicePart(msg *Message, sv simultaneousClocks) clockPart {
	c := m.Clocks
	p := clockPart{words: clockWords{turn: "choice", other: "choice", noClaim: "no choice of the other's this turn", notA: "a settlement", noTurn: "ends no timed turn of its"}}
	runs := m.ClockTurns()
	other := msg.From.Other()
	turnID := sv.ClockTurnID()
	switch msg.Kind {
	case sv.ChoiceKind():
		if !runs[msg.From] {
			return p
		}
		p.own, p.before = true, c.state[msg.From]
		p.keepOwn = func(next clock.State, claim *ClaimedCharge) {
			claim.turnID = turnID
			c.state[msg.From] = next
			c.Turn[msg.From] = claim
		}
	case sv.SettleKind():
		p.settles = true
		if l := c.Turn[other]; l != nil && l.turnID == turnID && !runs[other] {
			p.claim = l
		}
		p.keepSettled = func(s clock.State, _ time.Duration) { c.state[other] = s }
	}
	return p
}

// tryPart is what msg is to the clock in Phantom Go's play (CLK-D16): the
// message that carries a player's try claims the try's think time, added
// to what the move's earlier (illegal) tries used; the opponent's next
// message of the try may settle it (CLK-D7); no other message carries
// either. Every message's change ends with the move's: when the rules took
// the try's outputs and the move ended (a legal try or a pass), the move
// is charged to its player's clock as one move.
func (m *Machine) tryPart(msg *Message, tc TryClocks) clockPart {
	c := m.Clocks
	p := clockPart{words: clockWords{turn: "try", other: "try", noClaim: "no try of the other's", notA: "a settlement", noTurn: "ends no try of its and settles none"}, tries: true}
	other := msg.From.Other()
	p.after = func() []Event {
		t := c.tries
		if t == nil {
			return nil
		}
		if r, ok := tc.TryMover(); ok && r == t.role {
			return []Event{EventClock{Clocks: c.state}}
		}
		// The move ended: its tries are charged as one move.
		s, err := c.Control.Charge(t.before, t.used)
		if err == nil {
			c.state[t.role] = s
		}
		c.tries = nil
		return []Event{EventClock{Clocks: c.state}}
	}
	if running, ok := m.ClockTurn(); ok && running == msg.From && m.EndsTimedTurn(msg.Kind, msg.Body) {
		p.own, p.before = true, c.state[msg.From]
		if t := c.tries; t != nil && t.role == msg.From {
			p.before, p.prior = t.before, t.used
		}
		p.keepOwn = func(_ clock.State, claim *ClaimedCharge) {
			c.tries = &pendingMove{role: msg.From, before: claim.Before, used: claim.Prior + claim.Claimed}
			c.Last = claim
		}
		return p
	}
	if tc.SettlesTry(msg.From, msg.Kind) {
		p.settles = true
		if l, t := c.Last, c.tries; l != nil && l.Role == other && t != nil && t.role == other {
			p.claim = l
			p.keepSettled = func(_ clock.State, charge time.Duration) { t.used = l.Prior + charge }
		}
	}
	return p
}
