package protocol

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
)

// Kinds of the game clock (docs/clocks.md, CLK-D9).
const (
	// KindTimeout is the waiting side's claim that the other's flag fell.
	KindTimeout Kind = "timeout"
	// KindTimeoutRefuse is the flagged side's refusal of a time-out
	// claim: by its own clock the flag had not fallen.
	KindTimeoutRefuse Kind = "timeout-refuse"
)

// TimeoutBody claims a loss on time: ChargeMS is the think time the
// claimer charges the other's move under way, in milliseconds (its
// measurement minus the lag allowance, CLK-D7); it must be more than the
// other had left.
type TimeoutBody struct {
	ChargeMS int64 `json:"charge_ms"`
}

// TimeoutRefuseBody refuses a time-out claim: ThinkMS is the refuser's
// own measurement of its think time when the claim came.
type TimeoutRefuseBody struct {
	ThinkMS int64 `json:"think_ms"`
}

// EventClock: the clocks changed (a move charged or settled).
type EventClock struct {
	Clocks [2]clock.State
}

// EventTimeoutClaimed: the waiting side By claimed that the other's flag
// fell; the game is over on time once the flagged side confirms, and
// goes on if it refuses (CLK-D17).
type EventTimeoutClaimed struct{ By Role }

// EventTimeoutRefused: the flagged side By refused a time-out claim,
// having measured Think of think time: play goes on (CLK-D17).
type EventTimeoutRefused struct {
	By    Role
	Think time.Duration
}

// EventTimeoutClaimVoid: the time-out claim of By changes nothing: a
// message of the other's that it crossed stopped the clock it was about
// (CLK-D35).
type EventTimeoutClaimVoid struct{ By Role }

func (EventClock) IsEvent()            {}
func (EventTimeoutClaimed) IsEvent()   {}
func (EventTimeoutRefused) IsEvent()   {}
func (EventTimeoutClaimVoid) IsEvent() {}

// gameClocks are both players' clocks as the record has them (CLK-D8).
type gameClocks struct {
	Control clock.Control
	Lag     time.Duration
	state   [2]clock.State
	// Last is the last move charged as its mover claimed it: the other's
	// next move may settle it higher (CLK-D8).
	Last *ClaimedCharge
	// Claim is the time-out claim that waits for the flagged side's
	// answer (CLK-D17); claims counts each role's claims, refused the
	// claims refused.
	Claim   *timeoutClaim
	claims  [2]int
	refused []refusal
	// adjournBy is the role whose request to adjourn waits for the other's
	// answer; adjourned is true once both agreed, until the next move
	// (CLK-D13).
	adjournBy  *Role
	requestSeq uint64
	Adjourned  bool
	// acceptRole and acceptSeq name the acceptance that adjourned the
	// game: a time-out claim sent before its claimer saw it crossed it.
	acceptRole Role
	acceptSeq  uint64
	// lapsed, lapsedRole and lapsedSeq name the requester's move that let
	// a request to adjourn lapse: an acceptance sent before its sender saw
	// that move crossed it and changes nothing (CLK-D13).
	lapsed     bool
	lapsedRole Role
	lapsedSeq  uint64
	// Turn holds, in a variant of simultaneous clocks (F-Go), each role's
	// choice of the turn under way as charged when it came: the other's
	// opening may settle it higher (CLK-D14).
	Turn [2]*ClaimedCharge
	// tries is, in Phantom Go, the move whose tries were illegal so far
	// (CLK-D16).
	tries *pendingMove
	// excess is, by role, what its settlements exceeded the other's
	// claims by so far (CLK-D34): at most SettleBudget over the game.
	excess [2]time.Duration
}

// ClaimedCharge is a move charged to its mover's clock as claimed.
type ClaimedCharge struct {
	Role Role
	Seq  uint64
	// Free marks the move that ended an adjournment: not charged, not
	// settled (CLK-D13).
	Free bool
	// turnID is, in a variant of simultaneous clocks, the turn the
	// choice was made in (CLK-D14).
	turnID int
	// Prior is, in Phantom Go, what the move's earlier tries used: the
	// claim is charged on top of it (CLK-D16).
	Prior   time.Duration
	Before  clock.State
	Claimed time.Duration
}

// timeoutClaim is a time-out claim waiting for the flagged side's answer:
// left is what the flagged side had for the move the claim is about.
type timeoutClaim struct {
	By   Role
	seq  uint64
	Left time.Duration
	// AboutLast is true when the claim is about the flagged side's last
	// move, not the move under way.
	AboutLast bool
	// charge is what the claimer charged, about what it charged it for.
	charge time.Duration
	about  string
	// Unfounded is the claim's verdict when no clock of the flagged side
	// ran as the claim reached this machine: the claimer loses by it
	// unless a message of the flagged side that crossed the claim starts
	// that clock, so it waits for the flagged side's first message that
	// saw it (CLK-D35). Nil for a claim that stands.
	Unfounded *Violation
	// msg is the claim, judged again when it was unfounded.
	msg *Message
}

// refusal is a time-out claim the flagged side refused (CLK-D17).
type refusal struct {
	claim timeoutClaim
	by    Role
	seq   uint64
	think time.Duration
}

// ClockView is what a user interface or a bot reads of the clocks.
type ClockView struct {
	// Control is the time control; Lag the lag allowance a move.
	Control clock.Control
	Lag     time.Duration
	// Clocks are the clocks by role, as of the last move charged.
	Clocks [2]clock.State
	// Running is the role whose clock runs (the first of the two when
	// both do); Stopped is true when none does (before play, during the
	// count, after the end). Runs tells by role whether its clock runs:
	// in F-Go both may at once (CLK-D14).
	Running Role
	Stopped bool
	Runs    [2]bool
	// Used is, by role, what the illegal tries of its move under way used
	// of the clock (Phantom Go, CLK-D16): its time left is Clocks less
	// Used.
	Used [2]time.Duration
	// Adjourned is true while the game is adjourned by agreement (the
	// clocks stopped, CLK-D13); AdjournAsked while a request to adjourn
	// waits, AdjournBy the role that asked.
	Adjourned    bool
	AdjournAsked bool
	AdjournBy    Role
	// Since is when the running clock started in this peer's reckoning
	// (zero in a replay): its player has Left less the time since then.
	Since time.Time
	// Claimed is true while a time-out claim by ClaimBy waits for the
	// other's answer (CLK-D17); Refused counts the claims refused so far.
	Claimed bool
	ClaimBy Role
	Refused int
	// ClaimOfNoClock is true while the claim waiting is about no clock of
	// the other's: it loses by the other's refusal unless a message that
	// crossed it starts that clock (CLK-D35).
	ClaimOfNoClock bool
}

// Clock returns the game's clocks; ok is false for a game without a time
// control.
func (m *Machine) Clock() (v ClockView, ok bool) {
	if m.Clocks == nil {
		return ClockView{}, false
	}
	r, running := m.clockRunning()
	v = ClockView{Control: m.Clocks.Control, Lag: m.Clocks.Lag, Clocks: m.Clocks.state, Running: r, Stopped: !running, Adjourned: m.Clocks.Adjourned,
		Runs: m.ClockRuns(), Used: m.Clocks.usedOf()}
	if b := m.Clocks.adjournBy; b != nil {
		v.AdjournAsked, v.AdjournBy = true, *b
	}
	if c := m.pendingClaim(); c != nil {
		v.Claimed, v.ClaimBy, v.ClaimOfNoClock = true, c.By, c.Unfounded != nil
	}
	v.Refused = len(m.Clocks.refused)
	return v, true
}

// Remaining returns the time the player of role r has left now, by this
// view's clocks: the running player's time counts down from Since.
func (v ClockView) Remaining(r Role, now time.Time) time.Duration {
	left := max(0, v.Control.Left(v.Clocks[r])-v.Used[r])
	if v.Stopped || !v.Runs[r] || v.Since.IsZero() || v.Clocks[r].Flagged {
		return left
	}
	return max(0, left-now.Sub(v.Since))
}

// ClockKey names the clock that runs in a game (Machine.ClockKey): whose,
// after how many moves, whether the game is adjourned by agreement and,
// in Phantom Go, which try of the move. A peer measures the running
// player's think time from when the key last changed (CLK-D8); the zero
// ClockKey is no clock running. Keys are compared with ==.
type ClockKey struct {
	running   bool
	role      Role
	moves     int
	adjourned bool
	try       uint64
}

// Running reports whether a clock runs.
func (k ClockKey) Running() bool { return k.running }

// ClockKey returns the clock that runs now: the timed turn, adjourned or
// not (CLK-D13: the mover's next move is measured from the adjournment's
// agreement or the game's resumption).
func (m *Machine) ClockKey() ClockKey {
	if sv, ok := m.Rules.(simultaneousClocks); ok && m.Clocks != nil {
		// Both clocks start with the turn (CLK-D14).
		if runs := m.ClockTurns(); runs[0] || runs[1] {
			return ClockKey{running: true, moves: sv.ClockTurnID(), adjourned: m.Clocks.Adjourned}
		}
		return ClockKey{}
	}
	r, ok := m.ClockTurn()
	if !ok {
		return ClockKey{}
	}
	k := ClockKey{running: true, role: r, moves: m.Clocks.state[0].Moves + m.Clocks.state[1].Moves, adjourned: m.Clocks.Adjourned}
	if tc, ok := m.Rules.(TryClocks); ok {
		if _, moving := tc.TryMover(); moving {
			// Each try of a move is timed from the last one's outcome
			// (CLK-D16).
			k.try = tc.TryID()
		}
	}
	return k
}

// startClocks sets the clocks of a game whose invitation has a time
// control.
func (m *Machine) startClocks() {
	if m.Options.Time.IsNone() {
		m.Clocks = nil
		return
	}
	s := m.Options.Time.Start()
	m.Clocks = &gameClocks{Control: m.Options.Time, Lag: m.Options.Lag, state: [2]clock.State{s, s}}
}

// clockRunning returns the role whose clock runs: the player to move
// while play goes on (CLK-D10). No clock runs during the count, which the
// program drives, nor once the game is decided, nor while the game is
// adjourned by agreement (CLK-D13). When both clocks run (F-Go,
// CLK-D14) it returns the inviter's.
func (m *Machine) clockRunning() (Role, bool) {
	r, ok := m.ClockTurn()
	if !ok || m.Clocks.Adjourned {
		return Inviter, false
	}
	return r, true
}

// ClockRuns tells by role whether its clock runs (clockRunning, with
// both clocks of a simultaneous turn).
func (m *Machine) ClockRuns() [2]bool {
	if _, ok := m.ClockTurn(); !ok || m.Clocks.Adjourned {
		return [2]bool{}
	}
	return m.ClockTurns()
}

// ClockTurns is clockRuns without the adjournment: by role, whether its
// next message that ends a timed turn is timed.
func (m *Machine) ClockTurns() [2]bool {
	var runs [2]bool
	if m.Clocks == nil || m.Phase != PhasePlay || m.Resigned != nil || m.Outcome != nil {
		return runs
	}
	if sv, ok := m.Rules.(simultaneousClocks); ok {
		return sv.ClockRoles()
	}
	if r, ok := m.ClockTurn(); ok {
		runs[r] = true
	}
	return runs
}

// ClockTurn is clockRunning without the adjournment: the role whose
// next move is timed.
func (m *Machine) ClockTurn() (Role, bool) {
	if m.Clocks == nil || m.Phase != PhasePlay || m.Resigned != nil || m.Outcome != nil {
		return Inviter, false
	}
	if sv, ok := m.Rules.(simultaneousClocks); ok {
		runs := sv.ClockRoles()
		switch {
		case runs[Inviter]:
			return Inviter, true
		case runs[Invitee]:
			return Invitee, true
		}
		return Inviter, false
	}
	if tv, ok := m.Rules.(timedVariant); ok {
		return tv.TimedTurn()
	}
	r, kinds, done := m.Rules.Expected()
	if done || !slices.Equal(kinds, []Kind{KindMove}) {
		return Inviter, false
	}
	return r, true
}

// timedVariant is a variant whose timed turns are not only single moves
// (CLK-D10): in Hidden Move Go the card choice is a timed turn and a turn
// may hold reveals before its move.
type timedVariant interface {
	// TimedTurn returns the role whose turn the clock times, if any.
	TimedTurn() (Role, bool)
	// EndsTimedTurn reports whether the message of kind and body, sent
	// by the player whose turn is timed, ends that turn: it then carries
	// the clock times (CLK-D8), and no other message may.
	EndsTimedTurn(kind Kind, body json.RawMessage) bool
}

// simultaneousClocks is a variant whose two clocks run at once (F-Go,
// CLK-D14): each player's clock runs from the turn's start until its own
// choice is committed, and the openings that follow settle the other's
// think time.
// Timed reports whether the game has a time control, so that its clocks
// run (the invitation's Time option).
func (m *Machine) Timed() bool { return m.Clocks != nil }

// ClocksTogether reports whether the game's variant runs both players'
// clocks at once in a turn (F-Go's simultaneous choices, CLK-D14).
func (m *Machine) ClocksTogether() bool {
	_, ok := m.Rules.(simultaneousClocks)
	return ok
}

type simultaneousClocks interface {
	// ClockRoles tells by role whether its clock runs (adjournment
	// aside).
	ClockRoles() [2]bool
	// ClockTurnID names the turn under way.
	ClockTurnID() int
	// ChoiceKind is the kind of message that commits a player's choice
	// and stops its clock; SettleKind the kind that may settle the
	// other's choice of the turn (CLK-D14).
	ChoiceKind() Kind
	SettleKind() Kind
	// Settled reports whether role r sent its settling message this
	// turn already.
	Settled(r Role) bool
}

// EndsTimedTurn reports whether msg, sent in the timed turn of its
// sender, ends it; in a variant of single moves, a move does.
func (m *Machine) EndsTimedTurn(kind Kind, body json.RawMessage) bool {
	if tv, ok := m.Rules.(timedVariant); ok {
		return tv.EndsTimedTurn(kind, body)
	}
	return kind == KindMove
}

// ms turns a wire count of milliseconds into a duration, refusing what
// could not be one.
func ms(n int64) (time.Duration, bool) {
	if n < 0 || n > int64(1000*clock.MaxMain/time.Millisecond) {
		return 0, false
	}
	return time.Duration(n) * time.Millisecond, true
}

// applyTimeout judges a time-out claim (CLK-D9). The claim must come from
// the waiting side while the other's clock runs and charge the other more
// than it had left; the record proves a claim that does not false (the
// claimer loses). Otherwise the game ends on time; the flagged side
// confirms the result or refuses the claim.
func (m *Machine) applyTimeout(msg *Message) ([]Event, error) {
	var b TimeoutBody
	if err := DecodeBody(msg.Body, &b); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	if m.Clocks == nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "a time-out claim in a game without a time control")
	}
	if m.Phase == PhaseConfirm {
		// The game ended while the claim was under way: it changes
		// nothing.
		return nil, nil
	}
	charge, okMS := ms(b.ChargeMS)
	if !okMS {
		return m.endByFalseClaim(msg.From, msg.Seq, NewViolation(msg.From, msg.Seq, "CLK-D9", "claims the %s's flag fell with a charge of %d ms, out of range", msg.From.Other(), b.ChargeMS))
	}
	claim := *msg
	return m.judgeClaim(&timeoutClaim{By: msg.From, seq: msg.Seq, charge: charge, msg: &claim}, msg.Ack < m.lastSeq(msg.From.Other()))
}

// judgeClaim judges the time-out claim c against the game as it stands,
// where crossed tells that messages of the flagged side it had not seen
// came before it (CLK-D9, CLK-D17, CLK-D35): one the record shows false
// ends the game, the claimer's loss; one about no clock of the flagged
// side, when a message of its that crossed it stopped that clock, changes
// nothing, and otherwise waits, unfounded, for the flagged side's answer
// or for a message of its that crossed it; any other waits for the
// flagged side's answer.
func (m *Machine) judgeClaim(c *timeoutClaim, crossed bool) ([]Event, error) {
	flagged := c.By.Other()
	if ck := m.Clocks; ck.Adjourned && ck.acceptRole == flagged && c.msg.Ack < int64(ck.acceptSeq) {
		// The claim crossed the flagged side's acceptance of an
		// adjournment: it is judged as the game stood before, as the
		// claimer's program did (CLK-D13).
		ck.Adjourned = false
		defer func() {
			if m.Clocks.Claim == nil && m.Outcome == nil {
				m.Clocks.Adjourned = true
			}
		}()
	}
	left, about, aboutLast, ok := m.claimScope(c.By)
	switch {
	case ok && c.charge <= left:
		// The record shows the claim false: the claimer's own signed
		// message against the clocks both hold (T-14).
		return m.endByFalseClaim(c.By, c.seq, NewViolation(c.By, c.seq, "CLK-D9", "claims the %s's flag fell (charge %d ms) when the record gives it %v for %s", flagged, c.charge.Milliseconds(), left, about))
	case !ok && crossed:
		// A message of the flagged side that the claimer had not seen
		// stopped the clock the claim was about (an undo accepted, a
		// resignation under audit): the claim changes nothing, as
		// where it came first (CLK-D35, REC-D15).
		return []Event{EventTimeoutClaimVoid{By: c.By}}, nil
	case !ok && m.Clocks.Claim != nil:
		return m.endByFalseClaim(c.By, c.seq, unfoundedClaim(c.By, c.seq))
	case !ok:
		// No clock of the flagged side runs here, but a message of its
		// that the claimer had not seen may start one (the setup's last
		// message): the claim waits for the flagged side's first message
		// that saw it, and those that crossed it are taken first, as
		// where they came first (CLK-D35, REC-D15).
		c.Left, c.AboutLast, c.about, c.Unfounded = 0, false, "", unfoundedClaim(c.By, c.seq)
		m.Clocks.Claim = c
		return []Event{EventTimeoutClaimed{By: c.By}}, nil
	}
	if m.Clocks.Claim != nil {
		// A claim waits for its answer: two claims crossed (F-Go's two
		// clocks), or the claimer claimed again; the first one taken
		// stands and this one changes nothing.
		return nil, nil
	}
	if n := len(m.Clocks.refused); n > 0 {
		if r := m.Clocks.refused[n-1]; r.claim.By == c.By && c.msg.Ack < int64(r.seq) {
			// The claimer claimed again before it saw the refusal of its
			// claim: the claim crossed the refusal, and changes nothing
			// as it would have had it come first, while the other waited
			// (REC-D15), so that both machines agree whichever order.
			return nil, nil
		}
	}
	if m.Clocks.claims[c.By] >= MaxTimeoutClaims {
		return nil, NewViolation(c.By, c.seq, "T-10", "more than %d time-out claims in one game", MaxTimeoutClaims)
	}
	m.Clocks.claims[c.By]++
	c.Left, c.AboutLast, c.about, c.Unfounded = left, aboutLast, about, nil
	m.Clocks.Claim = c
	return []Event{EventTimeoutClaimed{By: c.By}}, nil
}

// claimScope is what a time-out claim by claimer is about as the game
// stands, and what the flagged side had left for it (CLK-D9): its move
// under way, or its last move when that reached the claimer's machine
// first (a move that crossed the claim, or one the claimer's measurement
// settles past the clock), the claimer not having moved since. ok is
// false when no clock of the flagged side runs.
func (m *Machine) claimScope(claimer Role) (left time.Duration, about string, aboutLast, ok bool) {
	flagged := claimer.Other()
	running, ok := m.clockRunning()
	sv, simultaneous := m.Rules.(simultaneousClocks)
	switch {
	case simultaneous:
		return m.Clocks.simultaneousClaim(m.ClockRuns(), sv, claimer)
	case ok && running == flagged:
		return m.Clocks.leftFor(flagged), "the move under way", false, true
	case (ok && running == claimer || !ok && !m.Clocks.Adjourned && !isTryVariant(m)) && m.Clocks.Last != nil && m.Clocks.Last.Role == flagged && !m.Clocks.Last.Free:
		// It may have ended play (CLK-D9, CLK-D17).
		return m.Clocks.Control.Left(m.Clocks.Last.Before), fmt.Sprintf("its message %d", m.Clocks.Last.Seq), true, true
	}
	if tc, isTry := m.Rules.(TryClocks); isTry && !m.Clocks.Adjourned && !ok {
		left, about, ok = m.Clocks.tryClaim(tc, claimer)
		return left, about, ok, ok
	}
	return 0, "", false, false
}

// unfoundedClaim is the violation of a time-out claim (message seq of
// claimer) made when no clock of the flagged side runs.
func unfoundedClaim(claimer Role, seq uint64) *Violation {
	return NewViolation(claimer, seq, "CLK-D9", "claims the %s's flag fell when no clock of its runs", claimer.Other())
}

// endByFalseClaim ends the game with the claimer's loss: the record shows
// its time-out claim (its message seq) false (T-14).
func (m *Machine) endByFalseClaim(claimer Role, seq uint64, v *Violation) ([]Event, error) {
	o := Outcome{Result: Forfeit(m.colorOrRole(claimer.Other())), Violation: v, Proven: true}
	m.end(o)
	m.Phase = PhaseConfirm
	m.endRole, m.endSeq = claimer, seq
	return []Event{EventViolation{Violation: v}, EventEnded{Outcome: *m.Outcome}}, nil
}

// MaxTimeoutClaims caps the time-out claims of one role in a game: a
// refused claim lets play go on (CLK-D17), so without a cap a program
// could make the other answer claims without end.
const MaxTimeoutClaims = 8

// isTryVariant reports whether m's variant times tries (Phantom Go,
// CLK-D16), whose claims about a try are judged by tryClaim.
func isTryVariant(m *Machine) bool {
	_, ok := m.Rules.(TryClocks)
	return ok
}

// pendingClaim returns the time-out claim that waits for the flagged
// side's answer, or nil (CLK-D17).
func (m *Machine) pendingClaim() *timeoutClaim {
	if m.Clocks == nil || m.Outcome != nil {
		return nil
	}
	return m.Clocks.Claim
}

// claimResult is the result a pending time-out claim gives when the
// flagged side confirms it: a win on time for the claimer.
func (m *Machine) claimResult(c *timeoutClaim) engine.Result {
	return engine.Result{Winner: m.colorOrRole(c.By), By: engine.ByTime}
}

// ClaimResult returns the result that the time-out claim waiting for the
// flagged side's answer gives when the flagged side confirms it (CLK-D17);
// ok is false when no claim waits.
func (m *Machine) ClaimResult() (res engine.Result, ok bool) {
	c := m.pendingClaim()
	if c == nil {
		return engine.Result{}, false
	}
	return m.claimResult(c), true
}

// applyUnderClaim takes a message while a time-out claim waits for the
// flagged side's answer (CLK-D17). A message of the flagged side sent
// before it saw the claim crossed it and is taken as if it came first
// (the claim is then about the move it ended, whose clock the claim
// charged), so that both programs' machines agree whichever came first.
// Otherwise the flagged side answers: its result confirms the loss on
// time, a refusal lets play go on. Neither side moves meanwhile. done is
// false for the messages taken as usual (chat, resignation, reports).
func (m *Machine) applyUnderClaim(msg *Message, c *timeoutClaim) (events []Event, err error, done bool) {
	flagged := c.By.Other()
	if msg.From == flagged && msg.Ack < int64(c.seq) {
		m.Clocks.Claim = nil
		counted := c.Unfounded == nil
		if counted {
			m.Clocks.claims[c.By]-- // counted again if it stands
		}
		events, err = m.applyMessage(msg)
		if err != nil {
			m.Clocks.Claim = c
			if counted {
				m.Clocks.claims[c.By]++
			}
			return nil, err, true
		}
		if m.Outcome != nil {
			// The crossing message decided the game (a loss on time by
			// its own word, a resignation, the rules): it came first, and
			// the claim changes nothing.
			return events, nil, true
		}
		// The claim is judged again after the message it crossed, as
		// where the message came first (CLK-D35): about the move that
		// message ended, against the clock before it, or about the
		// clock it started.
		more, err := m.judgeClaim(c, true)
		return append(events, more...), err, true
	}
	if c.Unfounded != nil && msg.From == flagged && msg.Kind == KindTimeoutRefuse {
		// The flagged side's refusal, having seen the claim: no message
		// of its crossed it to start its clock, so the claim was about
		// no clock, and the claimer loses by it (CLK-D35). (A result
		// instead confirms it: the flagged side's word against itself.)
		events, err := m.endByFalseClaim(c.By, c.seq, c.Unfounded)
		return events, err, true
	}
	if anytime(msg.Kind) {
		return nil, nil, false
	}
	if msg.From == flagged && msg.Kind == KindResult {
		var b ResultBody
		if err := DecodeBody(msg.Body, &b); err != nil {
			return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err), true
		}
		want := m.claimResult(c)
		if b.Result != want.String() {
			return nil, NewViolation(msg.From, msg.Seq, "T-12", "claims the result %s, the time-out claim gives %s", b.Result, want), true
		}
		m.Clocks.state[flagged] = clock.State{Flagged: true, Moves: m.Clocks.state[flagged].Moves}
		v := NewViolation(flagged, 0, "CLK-D9", "its clock ran out: the %s charged %v for %s against the %v it had; it confirmed", c.By, c.charge, c.about, c.Left)
		v.Seq = -1
		m.end(Outcome{Result: want, Violation: v})
		m.Phase = PhaseConfirm
		m.endRole, m.endSeq = msg.From, msg.Seq
		m.confirmed[flagged] = true
		return []Event{EventClock{Clocks: m.Clocks.state}, EventEnded{Outcome: *m.Outcome}}, nil, true
	}
	if msg.Kind == KindTimeoutRefuse && msg.From == flagged {
		return nil, nil, false
	}
	if msg.From == flagged {
		return nil, NewViolation(msg.From, msg.Seq, "CLK-D9", "answers the %s's time-out claim with a %s message, not its result or a refusal", c.By, msg.Kind), true
	}
	return nil, NewViolation(msg.From, msg.Seq, "CLK-D9", "%s message while its time-out claim waits for the answer", msg.Kind), true
}

// applyTimeoutRefuse takes the flagged side's refusal of a time-out claim
// (CLK-D9, CLK-D17): by its own clock the flag had not fallen. Neither
// measurement can be proven, so the claim changes nothing: play goes on
// from where it stood. The refusal names the refuser's think time.
func (m *Machine) applyTimeoutRefuse(msg *Message) ([]Event, error) {
	var b TimeoutRefuseBody
	if err := DecodeBody(msg.Body, &b); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	c := m.pendingClaim()
	if c == nil || c.By != msg.From.Other() || msg.Ack < int64(c.seq) {
		return nil, NewViolation(msg.From, msg.Seq, "T-3", "refuses a time-out claim there is none of to refuse")
	}
	think, ok := ms(b.ThinkMS)
	if !ok {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "think time %d ms out of range", b.ThinkMS)
	}
	m.Clocks.Claim = nil
	m.Clocks.refused = append(m.Clocks.refused, refusal{claim: *c, by: msg.From, seq: msg.Seq, think: think})
	return []Event{EventTimeoutRefused{By: msg.From, Think: think}}, nil
}

// simultaneousClaim is what a time-out claim by claimer is about in a
// variant of simultaneous clocks (CLK-D14): the other's turn under way,
// when its clock runs and the claimer's stopped, or the other's choice of
// this turn, once both chose and before the claimer's settling message
// (a choice that crossed the claim, or one the claimer's measurement
// settles past the clock). ok is false when there is nothing to claim.
func (c *gameClocks) simultaneousClaim(runs [2]bool, sv simultaneousClocks, claimer Role) (left time.Duration, about string, aboutLast, ok bool) {
	flagged := claimer.Other()
	if runs[flagged] && !runs[claimer] {
		return c.Control.Left(c.state[flagged]), "the turn under way", false, true
	}
	l := c.Turn[flagged]
	if !runs[flagged] && !runs[claimer] && !c.Adjourned && l != nil && !l.Free && l.turnID == sv.ClockTurnID() && !sv.Settled(claimer) {
		return c.Control.Left(l.Before), fmt.Sprintf("its message %d", l.Seq), true, true
	}
	return 0, "", false, false
}

// EarlyChooser is a variant in which a player other than the one
// Expected names may send a message of kind now: under a clock, F-Go's
// second player commits without waiting for the first (CLK-D14).
type EarlyChooser interface {
	ChoosesEarly(r Role, kind Kind) bool
}
