package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
)

// Version is the game protocol version carried in invitations.
const Version = "1.0.0"

// Kinds of message every variant shares.
const (
	KindInvite     Kind = "invite"
	KindAccept     Kind = "accept"
	KindDecline    Kind = "decline"
	KindTossCommit Kind = "toss-commit"
	KindTossReveal Kind = "toss-reveal"
	KindResign     Kind = "resign"
	KindChat       Kind = "chat"
	KindViolation  Kind = "violation"
	KindResult     Kind = "result"
)

// Phase is where a game stands.
type Phase string

// The phases every game goes through.
const (
	PhaseInvite  Phase = "invite"
	PhaseAnswer  Phase = "answer"
	PhaseToss    Phase = "toss"
	PhasePlay    Phase = "play" // the variant's own phases run inside it
	PhaseConfirm Phase = "confirm"
	PhaseDone    Phase = "done"
)

// Violation is a rule broken by a peer: Accused broke Rule (an id of
// rules.md or trust.md) in the message numbered Seq.
type Violation struct {
	Accused Role
	Rule    string
	Seq     int64
	Detail  string
	Err     error
}

func (v *Violation) Error() string {
	s := fmt.Sprintf("violation of %s by the %s", v.Rule, v.Accused)
	if v.Seq >= 0 {
		s += fmt.Sprintf(" (its message %d)", v.Seq)
	}
	return s + ": " + v.Detail
}

// Unwrap returns the underlying error, if any.
func (v *Violation) Unwrap() error { return v.Err }

// NewViolation builds a Violation of rule by role from.
func NewViolation(from Role, seq uint64, rule string, format string, args ...any) *Violation {
	return &Violation{Accused: from, Rule: rule, Seq: int64(seq), Detail: fmt.Sprintf(format, args...)}
}

// Outcome is how a game ended (T-14): by the rules (a count, a win on the
// board, an audit at the end), by resignation, by a proven violation (the
// violator loses), by forfeit for withholding a message the protocol
// makes automatic (T-11, named as reported), or disputed: a report that
// proved nothing, with no winner (Result.By is engine.ByDispute).
type Outcome struct {
	Result engine.Result
	// Violation is set when the game ended because of a rule broken or
	// reported: the loser's (proven, or withheld as reported), the false
	// accuser's, or for a disputed game the unproven report's.
	Violation *Violation
	// Proven tells whether the record proves Violation by signed
	// messages (a report's evidence, an audit). A T-11 forfeit and a
	// disputed game are not proven.
	Proven bool
	// Report is the judgement of the report that ended the game, nil when
	// the rules, a resignation or an audit ended it.
	Report *Judgement
	// Abandoned tells that the game ended by an abandonment (REC-D13):
	// Violation.Accused stopped answering a challenge of the other, who
	// wins as reported (not proven).
	Abandoned bool
}

// Disputed reports whether the game ended with a report that proved
// nothing: no winner (T-14).
func (o *Outcome) Disputed() bool { return o.Result.By == engine.ByDispute }

// VariantRules is the part of the state machine that belongs to one
// variant. It sees only what is in messages, so that both peers and
// `kakure verify` run it alike.
type VariantRules interface {
	// Expected returns the role that must send the next variant message
	// and the kinds it may send; done is true once the variant has a
	// result.
	Expected() (from Role, kinds []Kind, done bool)
	// Apply checks and applies a message of one of the expected kinds.
	// An error is a violation by the sender.
	Apply(from Role, seq uint64, kind Kind, body json.RawMessage) ([]Event, error)
	// Result returns the outcome once done.
	Result() engine.Result
	// View returns what role r may see of the variant's state: a value of
	// the variant's View type (gorules.View, ...).
	View(r Role) VariantView
}

// turnRuler is a variantRules whose own rules fix the turn order (Bridge
// Go, BG-1): a variant message out of turn during play breaks the rule id
// turnRule returns instead of T-3.
type turnRuler interface{ TurnRule() string }

// pieRule is a variantRules whose colours come from a choice made in play
// (gomoku's pie rule, GM-2), not from the coin toss: the toss still runs
// but leaves Colors empty.
type pieRule interface{ ColorsByPie() }

// auditor is a variantRules that audits the whole game at its end (GM-8):
// auditViolation returns the violation found, which the outcome names.
type auditor interface{ AuditViolation() *Violation }

// resignAuditor is a variantRules that still runs its end audit after a
// resignation (PN-D13: the Phantom Go reveal), so that both players see
// the whole game and a cheat found there still decides the game.
// auditAfterResign is called when role by resigns: it returns the events
// of the audit starting and true, or false when the game ends at once
// (nothing is hidden any more, or nothing can be audited).
// suspendResign(true) has the rules judge a message as the game stood
// before the resignation (a message that crossed it), suspendResign(false)
// undoes that.
type resignAuditor interface {
	AuditAfterResign(by Role) ([]Event, bool)
	SuspendResign(on bool)
}

// newVariantRules holds each variant's rules constructor, filled by
// Register from the variants' entries (ARCH-D3).
var newVariantRules = map[engine.Variant]func(m *Machine) (VariantRules, error){}

// NewRules returns new rules of m's variant (m.Options.Variant) over m,
// as the machine makes them when it takes the invitation: the session's
// tests drive a variant's rules and players on a machine of their own.
func NewRules(m *Machine) (VariantRules, error) {
	factory, ok := newVariantRules[m.Options.Variant]
	if !ok {
		return nil, fmt.Errorf("protocol: no rules for variant %q", m.Options.Variant)
	}
	return factory(m)
}

// Machine is the state of one game as both peers and the verifier see it:
// it is fed every message of the transcript in order and checks each one.
// It holds no secrets.
type Machine struct {
	Game    GameID
	Options engine.Options
	Phase   Phase
	// Colors maps each role to its colour, once the coin toss is done.
	Colors [2]engine.Color
	// Outcome is set when the game is decided.
	Outcome *Outcome
	// Chat holds the chat lines, by role.
	Chat []ChatLine
	// Names are the display names the invitation and the acceptance
	// carry, by role ("" when none was given). Untrusted text.
	Names [2]string
	// Tournament is the tournament game the invitation names, nil for a
	// game of no tournament (TRN-D6).
	Tournament *TournamentRef
	// Series is the series part of the invitation (SER-D2), nil for a
	// game outside a series.
	Series *SeriesBody
	// Broadcast is the broadcast delay the invitation sets for
	// spectators (docs/spectators.md SPEC-D10), zero for none.
	Broadcast BroadcastDelay

	Rules      VariantRules
	tossCommit [2]*commit.Commitment
	tossValue  [2][]byte
	confirmed  [2]bool
	// endRole and endSeq name the message that ended the game early (a
	// resignation): messages of the other role sent before it saw that one
	// were concurrent with it and are kept without effect.
	endRole Role
	endSeq  uint64
	// Resigned is the outcome of a resignation whose end audit is under
	// way (resignAuditor): it stands unless the audit finds a violation.
	Resigned *Outcome
	// resignToMove is the role that was to send when the first
	// resignation came: of two resignations that cross, its stands
	// (REC-D15).
	resignToMove Role
	// Undo is the undo request waiting for its answer (UNDO-D1).
	Undo *pendingUndo
	// Peers are the two identities the invitation names; the judge checks
	// evidence signatures against them.
	Peers [2]PeerID
	// history holds every message the machine took, in order: the judge
	// rebuilds from it the game as a reporter saw it.
	history []Message
	// Clocks holds the clocks of a game with a time control (CLK-D8).
	Clocks *gameClocks
	// Reports holds the judgements of the reports that ended nothing:
	// reports that proved nothing (T-14, REC-D11).
	Reports []Judgement
	// challenges are each reporter's last challenge (a T-11 report that
	// stands, REC-D12); abandoned is set while the game is over by an
	// abandonment (REC-D13).
	challenges   [2]*Challenge
	challengeLog []*Challenge
	abandoned    *abandonment
	// Voided lists the abandonments that changed nothing (the accused's
	// answer crossed them, REC-D13), by the role that sent them.
	Voided []Role
}

// ChatLine is one chat message.
type ChatLine struct {
	From Role
	Text string
}

// NewMachine returns the machine of a game before its invitation.
func NewMachine(game GameID) *Machine { return &Machine{Game: game, Phase: PhaseInvite} }

// RoleOf returns the role that plays colour c.
func (m *Machine) RoleOf(c engine.Color) Role {
	if m.Colors[Invitee] == c {
		return Invitee
	}
	return Inviter
}

// Expected returns the role that must send the next message in turn and
// the kinds it may send. Resign, chat and violation reports may come from
// either role at any time before the result is confirmed.
func (m *Machine) Expected() (Role, []Kind) {
	if c := m.pendingClaim(); c != nil && (m.Phase == PhasePlay || c.Unfounded != nil) {
		// The flagged side answers a time-out claim (CLK-D17), also one
		// made before play (CLK-D35).
		return c.By.Other(), []Kind{KindResult, KindTimeoutRefuse}
	}
	switch m.Phase {
	case PhaseInvite:
		return Inviter, []Kind{KindInvite}
	case PhaseAnswer:
		return Invitee, []Kind{KindAccept, KindDecline}
	case PhaseToss:
		switch {
		case m.tossCommit[Inviter] == nil:
			return Inviter, []Kind{KindTossCommit}
		case m.tossCommit[Invitee] == nil:
			return Invitee, []Kind{KindTossCommit}
		case m.tossValue[Inviter] == nil:
			return Inviter, []Kind{KindTossReveal}
		default:
			return Invitee, []Kind{KindTossReveal}
		}
	case PhasePlay:
		r, kinds, _ := m.Rules.Expected()
		return r, kinds
	case PhaseConfirm:
		if !m.confirmed[Inviter] {
			return Inviter, []Kind{KindResult}
		}
		return Invitee, []Kind{KindResult}
	}
	return Inviter, nil
}

// PublicView returns what the messages applied so far let role r see of
// the variant: its view value (gorules.View, hmgrules.View ...) without anything only
// a peer's own secrets hold, or nil before the invitation. A user
// interface replays a transcript through a Machine and reads it after each
// message to show the game move by move.
func (m *Machine) PublicView(r Role) VariantView {
	if m.Rules == nil {
		return nil
	}
	return m.Rules.View(r)
}

// Apply checks one message and applies it (see apply); the machine keeps
// every message it takes, for the judge of later reports.
func (m *Machine) Apply(msg *Message) ([]Event, error) {
	events, err := m.apply(msg)
	if err == nil {
		m.history = append(m.history, *msg)
		events = append(events, m.noteAnswer(msg)...)
	}
	return events, err
}

// Keep records a message the machine refused that a cheating test program
// sent anyway, so that its machine's history matches its record.
func (m *Machine) Keep(msg *Message) { m.history = append(m.history, *msg) }

// anytime reports the kinds either role may send whatever the turn.
func anytime(k Kind) bool { return k.attrs().Anytime }

// apply checks one message (already checked by the transcript: signature,
// sequence, chain) against the game and applies it. A returned
// *Violation names the rule the sender broke; the machine is then left as
// it was.
//
// While the end audit after a resignation runs, a message of the other
// role sent before it saw the resignation crossed it: the game judges it
// as it stood before the resignation, whichever order the two messages
// reached this peer in, so that both peers' games agree; one the game no
// longer takes is kept without effect, as in the confirm phase.
func (m *Machine) apply(msg *Message) ([]Event, error) {
	if m.Resigned == nil || m.Phase != PhasePlay || msg.From == m.endRole || msg.Ack >= int64(m.endSeq) ||
		msg.Kind == KindChat || msg.Kind == KindViolation {
		return m.applyMessage(msg)
	}
	ra := m.Rules.(resignAuditor)
	ra.SuspendResign(true)
	events, err := m.applyMessage(msg)
	ra.SuspendResign(false)
	if err != nil {
		return nil, nil
	}
	return events, nil
}

// applyMessage is apply without the rule for messages that crossed a
// resignation.
func (m *Machine) applyMessage(msg *Message) ([]Event, error) {
	if m.Phase == PhaseDone && m.abandoned != nil {
		return m.applyAfterAbandon(msg)
	}
	if m.Phase == PhaseDone {
		return nil, NewViolation(msg.From, msg.Seq, "T-14", "%s message after the game ended", msg.Kind)
	}
	if c := m.pendingClaim(); c != nil && msg.Kind != KindTimeout {
		if events, err, done := m.applyUnderClaim(msg, c); done {
			return events, err
		}
	}
	if m.crossesResignation(msg) {
		return m.applyAcrossResignation(msg)
	}
	if msg.Kind == KindViolation {
		return m.applyReport(msg)
	}
	if msg.Kind == KindAbandon {
		if m.Phase == PhaseConfirm && msg.From != m.endRole && msg.Ack < int64(m.endSeq) {
			return nil, nil // it crossed the end of the game
		}
		return m.applyAbandon(msg)
	}
	switch msg.Kind {
	case KindTimeout:
		return m.applyTimeout(msg)
	case KindTimeoutRefuse:
		return m.applyTimeoutRefuse(msg)
	case KindAdjournRequest, KindAdjournAccept:
		if m.Phase == PhaseConfirm && msg.From != m.endRole && msg.Ack < int64(m.endSeq) {
			return nil, nil // it crossed the end of the game
		}
		return m.applyAdjourn(msg)
	}
	from, kinds := m.Expected()
	if m.Phase == PhaseConfirm && msg.Kind != KindResult && msg.Kind != KindChat &&
		msg.From != m.endRole && msg.Ack < int64(m.endSeq) {
		return nil, nil
	}
	if m.Phase == PhaseConfirm && msg.Kind != KindResult && msg.Kind != KindChat {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%s message while confirming the result", msg.Kind)
	}
	if isUndoKind(msg.Kind) {
		return m.applyUndo(msg)
	}
	if ec, ok := m.Rules.(EarlyChooser); ok && m.Phase == PhasePlay && msg.From != from && ec.ChoosesEarly(msg.From, msg.Kind) {
		// A simultaneous turn under a clock: the other player's choice
		// may come first (CLK-D14).
	} else if !anytime(msg.Kind) {
		if !containsKind(kinds, msg.Kind) {
			return nil, NewViolation(msg.From, msg.Seq, "T-3", "unexpected %s message in phase %s (expected %v from the %s)", msg.Kind, m.Phase, kinds, from)
		}
		if msg.From != from {
			rule := "T-3"
			if tr, ok := m.Rules.(turnRuler); ok && m.Phase == PhasePlay {
				rule = tr.TurnRule()
			}
			return nil, NewViolation(msg.From, msg.Seq, rule, "%s message out of turn: the %s is to send", msg.Kind, from)
		}
	} else if m.Phase == PhaseInvite || m.Phase == PhaseAnswer {
		if msg.Kind != KindChat {
			return nil, NewViolation(msg.From, msg.Seq, "T-3", "%s before the game started", msg.Kind)
		}
	}
	switch msg.Kind {
	case KindInvite:
		return m.applyInvite(msg)
	case KindAccept:
		return m.applyAccept(msg)
	case KindDecline:
		return m.applyDecline(msg)
	case KindTossCommit:
		return m.applyTossCommit(msg)
	case KindTossReveal:
		return m.applyTossReveal(msg)
	case KindResign:
		return m.applyResign(msg)
	case KindChat:
		return m.applyChat(msg)
	case KindResult:
		return m.applyResult(msg)
	}
	return m.applyMove(msg)
}

// applyMove takes a message of the variant's own (a move, a try, a
// reveal, a marking): the clock's check of its time, the variant's rules,
// the lapse of an undo request it answers by moving, and the end of the
// game when the variant's rules say the game is decided.
func (m *Machine) applyMove(msg *Message) ([]Event, error) {
	var tick func() []Event
	crossed := false
	if msg.Kind.attrs().Timed {
		c := m.Clocks
		crossed = m.acceptanceCrossed(msg)
		if crossed {
			// The requester moved before it saw the acceptance of its
			// request to adjourn: on its own machine the move let the
			// request lapse and the acceptance came too late, so here the
			// acceptance changes nothing either (CLK-D13).
			c.Adjourned = false
		}
		standing := c != nil && c.adjournBy != nil
		t, lost, err := m.clockMove(msg)
		if err != nil {
			if crossed {
				c.Adjourned = true
			}
			return nil, err
		}
		if t != nil && standing {
			t0 := t
			t = func() []Event {
				ev := t0()
				if c.adjournBy == nil {
					c.lapsedRole, c.lapsedSeq, c.lapsed = msg.From, msg.Seq, true
				}
				return ev
			}
		}
		if lost != nil {
			m.end(*lost)
			m.Phase = PhaseConfirm
			m.endRole, m.endSeq = msg.From, msg.Seq
			return []Event{EventViolation{Violation: lost.Violation}, EventEnded{Outcome: *m.Outcome}}, nil
		}
		tick = t
	}
	events, err := m.Rules.Apply(msg.From, msg.Seq, msg.Kind, msg.Body)
	if err != nil {
		if crossed {
			m.Clocks.Adjourned = true
		}
		var v *Violation
		if !errors.As(err, &v) {
			v = &Violation{Accused: msg.From, Rule: "T-10", Seq: int64(msg.Seq), Detail: err.Error(), Err: err}
		}
		return nil, v
	}
	if tick != nil {
		events = append(events, tick()...)
	}
	if m.Undo != nil {
		// The other moved (or began the count) instead of answering: the
		// request lapses (UNDO-D1).
		events = append(events, EventUndoDeclined{By: m.Undo.By})
		m.Undo = nil
	}
	if _, _, done := m.Rules.Expected(); done && m.Outcome == nil {
		o := Outcome{Result: m.Rules.Result()}
		if a, ok := m.Rules.(auditor); ok {
			o.Violation = a.AuditViolation()
			o.Proven = o.Violation != nil
		}
		if m.Resigned != nil && o.Violation == nil {
			// The audit after the resignation passed: it stands.
			o = *m.Resigned
		}
		m.end(o)
		m.Phase = PhaseConfirm
		if m.Resigned == nil {
			// A message of the other sent before it saw this one crossed
			// the end (REC-D15).
			m.endRole, m.endSeq = msg.From, msg.Seq
		}
		events = append(events, EventEnded{Outcome: *m.Outcome})
	}
	return events, nil
}

// crossesResignation reports whether msg is the other's message, sent
// before it saw the resignation that ended the game (REC-D15): a
// resignation in every variant but those that audit after it (their own
// rule, resignAuditor).
func (m *Machine) crossesResignation(msg *Message) bool {
	return m.Phase == PhaseConfirm && m.Outcome != nil && m.Outcome.Result.By == engine.ByResignation && m.Resigned == nil &&
		!m.confirmed[Inviter] && !m.confirmed[Invitee] &&
		msg.From != m.endRole && msg.Ack < int64(m.endSeq) && msg.Kind != KindChat && msg.Kind != KindResult
}

// applyAcrossResignation takes a message that crossed the resignation
// that ended the game as if it came first, whichever order a record holds
// the two in (REC-D15): if it decides the game itself (a move that ends
// it by the rules, a loss on time by its own word, a proven report) that
// end stands; otherwise it is taken and the resignation stands after it.
// Of two resignations that cross, the one of the player who was to move
// stands. A message the game as it stood does not take is kept without
// effect, as before.
func (m *Machine) applyAcrossResignation(msg *Message) ([]Event, error) {
	if msg.Kind == KindResign {
		if msg.From != m.resignToMove {
			return nil, nil
		}
		m.endRole, m.endSeq = msg.From, msg.Seq
		m.end(Outcome{Result: engine.Result{Winner: m.colorOrRole(msg.From.Other()), By: engine.ByResignation}})
		return []Event{EventResigned{Role: msg.From}, EventEnded{Outcome: *m.Outcome}}, nil
	}
	phase, outcome, endRole, endSeq := m.Phase, m.Outcome, m.endRole, m.endSeq
	m.Phase, m.Outcome = PhasePlay, nil
	events, err := m.applyMessage(msg)
	if err != nil {
		m.Phase, m.Outcome, m.endRole, m.endSeq = phase, outcome, endRole, endSeq
		return nil, nil
	}
	if m.Outcome != nil {
		return events, nil
	}
	m.Phase, m.endRole, m.endSeq = phase, endRole, endSeq
	m.end(*outcome)
	return events, nil
}

// acceptanceCrossed reports whether msg, a timed message, is one of the
// requester's that ends its timed turn, sent before it saw the other's
// acceptance of its request to adjourn (CLK-D13).
func (m *Machine) acceptanceCrossed(msg *Message) bool {
	c := m.Clocks
	if c == nil || !c.Adjourned || !m.acceptanceCrossedRole(msg) {
		return false
	}
	c.Adjourned = false
	defer func() { c.Adjourned = true }()
	if sv, ok := m.Rules.(simultaneousClocks); ok {
		return msg.Kind == sv.ChoiceKind()
	}
	r, ok := m.ClockTurn()
	return ok && r == msg.From && m.EndsTimedTurn(msg.Kind, msg.Body)
}

// acceptanceCrossedRole reports whether msg is the requester's, sent
// before it saw the acceptance that adjourned the game.
func (m *Machine) acceptanceCrossedRole(msg *Message) bool {
	c := m.Clocks
	return c.acceptSeq > 0 && msg.From == c.acceptRole.Other() && msg.Ack < int64(c.acceptSeq)
}

// end records the outcome. A time-out claim that waited for its answer
// changes nothing once the game is decided otherwise (CLK-D17).
func (m *Machine) end(o Outcome) {
	m.Outcome = &o
	if m.Clocks != nil {
		m.Clocks.Claim = nil
	}
}

// colorOrRole returns the colour of role r, or for a game decided before
// the toss, Black for the inviter and White for the invitee.
func (m *Machine) colorOrRole(r Role) engine.Color {
	if m.Colors[r] != engine.Empty {
		return m.Colors[r]
	}
	if r == Inviter {
		return engine.Black
	}
	return engine.White
}

// Forfeit is a win by forfeit for c.
func Forfeit(c engine.Color) engine.Result { return engine.Result{Winner: c, By: engine.ByForfeit} }

func containsKind(ks []Kind, k Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// History returns the messages the machine took, in order.
func (m *Machine) History() []Message { return slices.Clone(m.history) }
