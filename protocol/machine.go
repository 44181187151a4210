package protocol

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/libp2p/go-libp2p/core/peer"
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

// OptionsBody is the wire form of engine.Options.
type OptionsBody struct {
	Variant       string  `json:"variant"`
	Size          int     `json:"size"`
	Komi          float64 `json:"komi"`
	Rules         string  `json:"rules,omitempty"`
	Cards         int     `json:"cards,omitempty"`
	Suicide       string  `json:"suicide,omitempty"`
	Perpendicular bool    `json:"perpendicular,omitempty"`
	// InviterColor is the inviter's colour, "black" or "white", or absent
	// for nigiri (HC-D2); Handicap is plain Go's handicap (HC-D1).
	InviterColor string `json:"inviter_color,omitempty"`
	Handicap     int    `json:"handicap,omitempty"`
	// Time is the time control in the canonical --time syntax (CLK-D2),
	// absent for none; LagMS the lag allowance a move in milliseconds
	// (CLK-D7), present exactly when Time is.
	Time  string `json:"time,omitempty"`
	LagMS int64  `json:"lag_ms,omitempty"`
	// Lambda is Phantom Go's garblings per try (T-8(b)), absent for one
	// (older invitations: tries not checked).
	Lambda int `json:"lambda,omitempty"`
}

// OptionsToBody writes normalized options in wire form.
func OptionsToBody(o engine.Options) OptionsBody {
	b := OptionsBody{Variant: string(o.Variant), Size: o.Size, Komi: o.Komi, Rules: string(o.Rules),
		Cards: o.Cards, Suicide: string(o.Suicide), Perpendicular: o.Perpendicular}
	b.Handicap, b.Lambda = o.Handicap, o.Lambda
	if o.InviterColor != engine.Empty {
		b.InviterColor = o.InviterColor.String()
	}
	if !o.Time.IsNone() {
		b.Time, b.LagMS = o.Time.String(), o.Lag.Milliseconds()
	}
	return b
}

// Options reads the wire form back and checks it.
func (b OptionsBody) Options() (engine.Options, error) {
	o := engine.Options{Variant: engine.Variant(b.Variant), Size: b.Size, Komi: b.Komi, KomiSet: true,
		Rules: engine.PhantomRules(b.Rules), Cards: b.Cards, CardsSet: true, Suicide: engine.SuicideRule(b.Suicide),
		Perpendicular: b.Perpendicular}
	o.Handicap, o.Lambda = b.Handicap, b.Lambda
	if b.Lambda == 1 {
		// One signed invitation has one meaning: one garbling is absent.
		return o, fmt.Errorf("%w: λ = 1 is written by leaving it out", engine.ErrBadOptions)
	}
	switch b.InviterColor {
	case "":
	case "black":
		o.InviterColor = engine.Black
	case "white":
		o.InviterColor = engine.White
	default:
		return o, fmt.Errorf("%w: inviter colour %q (black, white or absent for nigiri)", engine.ErrBadOptions, b.InviterColor)
	}
	if b.Time != "" || b.LagMS != 0 {
		// One signed invitation has one meaning: the control in its
		// canonical form, with its lag allowance (CLK-D8).
		c, err := clock.Parse(b.Time)
		if err != nil {
			return o, fmt.Errorf("%w: %v", engine.ErrBadOptions, err)
		}
		if c.IsNone() || c.String() != b.Time || b.LagMS <= 0 {
			return o, fmt.Errorf("%w: time control %q with lag %d ms is not in canonical form", engine.ErrBadOptions, b.Time, b.LagMS)
		}
		o.Time, o.Lag = c, time.Duration(b.LagMS)*time.Millisecond
	}
	return o.Normalize()
}

// InviteBody opens a game: the inviter proposes a variant to the invitee.
type InviteBody struct {
	Version string      `json:"version"`
	Inviter string      `json:"inviter"`
	Invitee string      `json:"invitee"`
	Options OptionsBody `json:"options"`
	// InviterName is the inviter's display name (UI-D30): untrusted text
	// of at most MaxNameLength bytes of UTF-8, shown only beside the
	// inviter's peer ID.
	InviterName string `json:"inviter_name,omitempty"`
}

// AcceptBody accepts an invitation. Name is the invitee's display name,
// as InviteBody.InviterName.
type AcceptBody struct {
	Name string `json:"name,omitempty"`
}

// MaxNameLength caps a display name, in bytes.
const MaxNameLength = 64

// checkName checks a display name from the wire: valid UTF-8 of at most
// MaxNameLength bytes (what a user interface shows of it is its own
// concern: it strips control characters and markup).
func checkName(name string) error {
	if len(name) > MaxNameLength {
		return fmt.Errorf("display name of %d bytes (cap %d)", len(name), MaxNameLength)
	}
	if !utf8.ValidString(name) {
		return errors.New("display name is not UTF-8")
	}
	return nil
}

// DeclineBody says why an invitation was declined.
type DeclineBody struct {
	Reason string `json:"reason"`
}

// CommitBody carries one commitment.
type CommitBody struct {
	Commitment commit.Commitment `json:"commitment"`
}

// OpenBody opens one commitment.
type OpenBody struct {
	Opening commit.Opening `json:"opening"`
}

// ChatBody is a chat line.
type ChatBody struct {
	Text string `json:"text"`
}

// MaxChatLength caps a chat line, in bytes.
const MaxChatLength = 2000

// MaxChatLines caps the chat lines of one player in one game: chat is the
// one message a peer may send at any time, and each line is kept in the
// record, so without a cap a peer could grow the other's record (and the
// work of saving it) without end.
const MaxChatLines = 200

// ResultBody states the result the sender computed; both peers must agree.
type ResultBody struct {
	Result string `json:"result"`
}

// ViolationBody is a peer's signed report that the other peer broke a rule.
// Evidence holds the offending frames as received (base64 in JSON).
type ViolationBody struct {
	Accused  Role     `json:"accused"`
	Rule     string   `json:"rule"`
	Detail   string   `json:"detail"`
	Evidence [][]byte `json:"evidence,omitempty"`
}

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

// violation builds a Violation of rule by role from.
func violation(from Role, seq uint64, rule string, format string, args ...any) *Violation {
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
}

// Disputed reports whether the game ended with a report that proved
// nothing: no winner (T-14).
func (o *Outcome) Disputed() bool { return o.Result.By == engine.ByDispute }

// variantRules is the part of the state machine that belongs to one
// variant. It sees only what is in messages, so that both peers and
// `kakure verify` run it alike.
type variantRules interface {
	// expected returns the role that must send the next variant message
	// and the kinds it may send; done is true once the variant has a
	// result.
	expected() (from Role, kinds []Kind, done bool)
	// apply checks and applies a message of one of the expected kinds.
	// An error is a violation by the sender.
	apply(from Role, seq uint64, kind Kind, body json.RawMessage) ([]Event, error)
	// result returns the outcome once done.
	result() engine.Result
	// view returns what role r may see of the variant's state: a value of
	// the variant's view type (GoView, ...).
	view(r Role) any
}

// turnRuler is a variantRules whose own rules fix the turn order (Bridge
// Go, BG-1): a variant message out of turn during play breaks the rule id
// turnRule returns instead of T-3.
type turnRuler interface{ turnRule() string }

// pieRule is a variantRules whose colours come from a choice made in play
// (gomoku's pie rule, GM-2), not from the coin toss: the toss still runs
// but leaves Colors empty.
type pieRule interface{ colorsByPie() }

// auditor is a variantRules that audits the whole game at its end (GM-8):
// auditViolation returns the violation found, which the outcome names.
type auditor interface{ auditViolation() *Violation }

// endAuditor is a variantRules whose end opens the players' remaining
// secrets for an audit (the Phantom Go reveal, HMG-7, GM-8):
// endAudit reports whether that stage is under way. A report that proves
// nothing then ends nothing: the reporter still owes its openings, and
// the audit decides (T-15).
type endAuditor interface{ endAudit() bool }

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
	auditAfterResign(by Role) ([]Event, bool)
	suspendResign(on bool)
}

// newVariantRules is filled by the variant files.
var newVariantRules = map[engine.Variant]func(m *Machine) (variantRules, error){}

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

	variant    variantRules
	tossCommit [2]*commit.Commitment
	tossValue  [2][]byte
	confirmed  [2]bool
	// endRole and endSeq name the message that ended the game early (a
	// resignation): messages of the other role sent before it saw that one
	// were concurrent with it and are kept without effect.
	endRole Role
	endSeq  uint64
	// resigned is the outcome of a resignation whose end audit is under
	// way (resignAuditor): it stands unless the audit finds a violation.
	resigned *Outcome
	// undo is the undo request waiting for its answer (UNDO-D1).
	undo *pendingUndo
	// peers are the two identities the invitation names; the judge checks
	// evidence signatures against them.
	peers [2]peer.ID
	// history holds every message the machine took, in order: the judge
	// rebuilds from it the game as a reporter saw it.
	history []Message
	// clk holds the clocks of a game with a time control (CLK-D8).
	clk *gameClocks
	// Reports holds the judgements of the reports that ended nothing: a
	// report that proved nothing once the result was fixed by the rules
	// or during an end audit (T-15).
	Reports []Judgement
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
		r, kinds, _ := m.variant.expected()
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
// the variant: its view value (GoView, HMGView ...) without anything only
// a peer's own secrets hold, or nil before the invitation. A user
// interface replays a transcript through a Machine and reads it after each
// message to show the game move by move.
func (m *Machine) PublicView(r Role) any {
	if m.variant == nil {
		return nil
	}
	return m.variant.view(r)
}

// Apply checks one message and applies it (see apply); the machine keeps
// every message it takes, for the judge of later reports.
func (m *Machine) Apply(msg *Message) ([]Event, error) {
	events, err := m.apply(msg)
	if err == nil {
		m.history = append(m.history, *msg)
	}
	return events, err
}

// keep records a message the machine refused that a cheating test program
// sent anyway, so that its machine's history matches its record.
func (m *Machine) keep(msg *Message) { m.history = append(m.history, *msg) }

// anytime reports the kinds either role may send whatever the turn.
func anytime(k Kind) bool { return k == KindResign || k == KindChat || k == KindViolation }

// tossDomain separates the colour toss commitments.
const tossDomain = "kakure/toss/colours"

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
	if m.resigned == nil || m.Phase != PhasePlay || msg.From == m.endRole || msg.Ack >= int64(m.endSeq) ||
		msg.Kind == KindChat || msg.Kind == KindViolation {
		return m.applyMessage(msg)
	}
	ra := m.variant.(resignAuditor)
	ra.suspendResign(true)
	events, err := m.applyMessage(msg)
	ra.suspendResign(false)
	if err != nil {
		return nil, nil
	}
	return events, nil
}

// applyMessage is apply without the rule for messages that crossed a
// resignation.
func (m *Machine) applyMessage(msg *Message) ([]Event, error) {
	if m.Phase == PhaseDone {
		return nil, violation(msg.From, msg.Seq, "T-14", "%s message after the game ended", msg.Kind)
	}
	if msg.Kind == KindViolation {
		return m.applyReport(msg)
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
		return nil, violation(msg.From, msg.Seq, "T-10", "%s message while confirming the result", msg.Kind)
	}
	if isUndoKind(msg.Kind) {
		return m.applyUndo(msg)
	}
	if !anytime(msg.Kind) {
		if !containsKind(kinds, msg.Kind) {
			return nil, violation(msg.From, msg.Seq, "T-3", "unexpected %s message in phase %s (expected %v from the %s)", msg.Kind, m.Phase, kinds, from)
		}
		if msg.From != from {
			rule := "T-3"
			if tr, ok := m.variant.(turnRuler); ok && m.Phase == PhasePlay {
				rule = tr.turnRule()
			}
			return nil, violation(msg.From, msg.Seq, rule, "%s message out of turn: the %s is to send", msg.Kind, from)
		}
	} else if m.Phase == PhaseInvite || m.Phase == PhaseAnswer {
		if msg.Kind != KindChat {
			return nil, violation(msg.From, msg.Seq, "T-3", "%s before the game started", msg.Kind)
		}
	}
	switch msg.Kind {
	case KindInvite:
		var b InviteBody
		if err := decodeBody(msg.Body, &b); err != nil {
			return nil, violation(msg.From, msg.Seq, "T-10", "%v", err)
		}
		if b.Version != Version {
			return nil, violation(msg.From, msg.Seq, "T-2", "protocol version %q, this program speaks %q", b.Version, Version)
		}
		o, err := b.Options.Options()
		if err != nil {
			return nil, violation(msg.From, msg.Seq, "T-10", "invitation with bad options: %v", err)
		}
		if err := checkName(b.InviterName); err != nil {
			return nil, violation(msg.From, msg.Seq, "T-10", "invitation with a bad name: %v", err)
		}
		// The judge checks evidence against these identities; an
		// invitation without valid ones (no invitee accepts it) leaves no
		// evidence provable.
		var peers [2]peer.ID
		for i, s := range [2]string{b.Inviter, b.Invitee} {
			if id, err := peer.Decode(s); err == nil {
				peers[i] = id
			}
		}
		factory, ok := newVariantRules[o.Variant]
		if !ok {
			return nil, violation(msg.From, msg.Seq, "T-10", "variant %s cannot be played over the network yet", o.Variant)
		}
		m.Options = o
		m.startClocks()
		m.peers = peers
		m.Names[Inviter] = b.InviterName
		m.Phase = PhaseAnswer
		v, err := factory(m)
		if err != nil {
			return nil, violation(msg.From, msg.Seq, "T-10", "%v", err)
		}
		m.variant = v
		return []Event{EventInvited{Options: o}}, nil
	case KindAccept:
		var b AcceptBody
		if err := decodeBody(msg.Body, &b); err != nil {
			return nil, violation(msg.From, msg.Seq, "T-10", "%v", err)
		}
		if err := checkName(b.Name); err != nil {
			return nil, violation(msg.From, msg.Seq, "T-10", "acceptance with a bad name: %v", err)
		}
		m.Names[Invitee] = b.Name
		m.Phase = PhaseToss
		return []Event{EventPhase{Phase: PhaseToss}}, nil
	case KindDecline:
		var b DeclineBody
		if err := decodeBody(msg.Body, &b); err != nil {
			return nil, violation(msg.From, msg.Seq, "T-10", "%v", err)
		}
		m.Phase = PhaseDone
		m.Outcome = &Outcome{Result: engine.Result{By: "declined"}}
		return []Event{EventDeclined{Reason: b.Reason}}, nil
	case KindTossCommit:
		var b CommitBody
		if err := decodeBody(msg.Body, &b); err != nil {
			return nil, violation(msg.From, msg.Seq, "T-10", "%v", err)
		}
		c := b.Commitment
		m.tossCommit[msg.From] = &c
		return nil, nil
	case KindTossReveal:
		var b OpenBody
		if err := decodeBody(msg.Body, &b); err != nil {
			return nil, violation(msg.From, msg.Seq, "T-10", "%v", err)
		}
		if err := commit.Verify(*m.tossCommit[msg.From], tossDomain, m.Game[:], uint8(msg.From), 0, b.Opening); err != nil {
			return nil, &Violation{Accused: msg.From, Rule: "T-4", Seq: int64(msg.Seq), Detail: "coin toss reveal does not open its commitment", Err: err}
		}
		if len(b.Opening.Value) != 32 {
			return nil, violation(msg.From, msg.Seq, "T-4", "coin toss contribution of %d bytes, want 32", len(b.Opening.Value))
		}
		m.tossValue[msg.From] = b.Opening.Value
		if m.tossValue[Inviter] == nil || m.tossValue[Invitee] == nil {
			return nil, nil
		}
		if _, ok := m.variant.(pieRule); ok {
			m.Phase = PhasePlay
			return []Event{EventPhase{Phase: PhasePlay}}, nil
		}
		rnd := tossResult(m.Game, m.tossValue[Inviter], m.tossValue[Invitee])
		inviter := engine.Black
		if rnd[0]&1 == 1 {
			inviter = engine.White
		}
		if c := m.Options.InviterColor; c != engine.Empty {
			// HC-D2: the invitation chose the colours; the toss still
			// runs (the same messages in every game) but decides nothing.
			inviter = c
		}
		m.Colors = [2]engine.Color{inviter, inviter.Opponent()}
		m.Phase = PhasePlay
		return []Event{EventColors{Colors: m.Colors}}, nil
	case KindResign:
		if err := decodeBody(msg.Body, &struct{}{}); err != nil {
			return nil, violation(msg.From, msg.Seq, "T-10", "%v", err)
		}
		if m.Phase != PhasePlay {
			return nil, violation(msg.From, msg.Seq, "GO-6", "resignation outside play")
		}
		if m.resigned != nil {
			// The game is already resigned (a resignation of the other
			// that crossed it, or a repeat): the first one stands.
			return nil, nil
		}
		winner := m.colorOrRole(msg.From.Other())
		m.endRole, m.endSeq = msg.From, msg.Seq
		if ra, ok := m.variant.(resignAuditor); ok {
			if events, audit := ra.auditAfterResign(msg.From); audit {
				m.resigned = &Outcome{Result: engine.Result{Winner: winner, By: engine.ByResignation}}
				return append([]Event{EventResigned{Role: msg.From}}, events...), nil
			}
		}
		m.end(Outcome{Result: engine.Result{Winner: winner, By: engine.ByResignation}})
		m.Phase = PhaseConfirm
		return []Event{EventResigned{Role: msg.From}, EventEnded{Outcome: *m.Outcome}}, nil
	case KindChat:
		var b ChatBody
		if err := decodeBody(msg.Body, &b); err != nil {
			return nil, violation(msg.From, msg.Seq, "T-10", "%v", err)
		}
		if len(b.Text) > MaxChatLength {
			return nil, violation(msg.From, msg.Seq, "T-10", "chat line of %d bytes (cap %d)", len(b.Text), MaxChatLength)
		}
		lines := 0
		for _, c := range m.Chat {
			if c.From == msg.From {
				lines++
			}
		}
		if lines >= MaxChatLines {
			return nil, violation(msg.From, msg.Seq, "T-10", "more than %d chat lines", MaxChatLines)
		}
		m.Chat = append(m.Chat, ChatLine{From: msg.From, Text: b.Text})
		return []Event{EventChat{From: msg.From, Text: b.Text}}, nil
	case KindResult:
		var b ResultBody
		if err := decodeBody(msg.Body, &b); err != nil {
			return nil, violation(msg.From, msg.Seq, "T-10", "%v", err)
		}
		if want := m.Outcome.Result.String(); b.Result != want {
			return nil, violation(msg.From, msg.Seq, "T-12", "claims the result %s, the game gives %s", b.Result, want)
		}
		m.confirmed[msg.From] = true
		if m.confirmed[Inviter] && m.confirmed[Invitee] {
			m.Phase = PhaseDone
			return []Event{EventPhase{Phase: PhaseDone}}, nil
		}
		return nil, nil
	}
	var tick func() []Event
	if timedKinds[msg.Kind] {
		t, lost, err := m.clockMove(msg)
		if err != nil {
			return nil, err
		}
		if lost != nil {
			m.end(*lost)
			m.Phase = PhaseConfirm
			m.endRole, m.endSeq = msg.From, msg.Seq
			return []Event{EventViolation{Violation: lost.Violation}, EventEnded{Outcome: *m.Outcome}}, nil
		}
		tick = t
	}
	events, err := m.variant.apply(msg.From, msg.Seq, msg.Kind, msg.Body)
	if err != nil {
		var v *Violation
		if !errors.As(err, &v) {
			v = &Violation{Accused: msg.From, Rule: "T-10", Seq: int64(msg.Seq), Detail: err.Error(), Err: err}
		}
		return nil, v
	}
	if tick != nil {
		events = append(events, tick()...)
	}
	if m.undo != nil {
		// The other moved (or began the count) instead of answering: the
		// request lapses (UNDO-D1).
		events = append(events, EventUndoDeclined{By: m.undo.by})
		m.undo = nil
	}
	if _, _, done := m.variant.expected(); done && m.Outcome == nil {
		o := Outcome{Result: m.variant.result()}
		if a, ok := m.variant.(auditor); ok {
			o.Violation = a.auditViolation()
			o.Proven = o.Violation != nil
		}
		if m.resigned != nil && o.Violation == nil {
			// The audit after the resignation passed: it stands.
			o = *m.resigned
		}
		m.end(o)
		m.Phase = PhaseConfirm
		events = append(events, EventEnded{Outcome: *m.Outcome})
	}
	return events, nil
}

// end records the outcome.
func (m *Machine) end(o Outcome) { m.Outcome = &o }

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

// forfeit is a win by forfeit for c.
func forfeit(c engine.Color) engine.Result { return engine.Result{Winner: c, By: engine.ByForfeit} }

func containsKind(ks []Kind, k Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// tossResult derives the joint randomness of the colour toss from both
// contributions, in role order, bound to the game.
func tossResult(game GameID, inviter, invitee []byte) [32]byte {
	h := sha256.New()
	for _, f := range [][]byte{[]byte("kakure/toss/result/v1"), game[:], inviter, invitee} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write(f)
	}
	var r [32]byte
	h.Sum(r[:0])
	return r
}

// MaxStandingReports caps the reports of one role that end nothing (see
// Machine.Reports): each is kept in both records, so without a cap a
// peer could grow the other's record without end during an audit.
const MaxStandingReports = 1

// applyReport judges a violation report (T-13) and applies the outcome
// (T-14): a proven violation ends the game with the accused losing, a
// proven false accusation with the reporter losing, a T-11 report of a
// message the accused owed with the accused losing by forfeit. A report
// that proves nothing ends the game with no winner, unless the result is
// already fixed (the confirm phase) or an end audit is under way (T-15):
// then it changes nothing, and the reporter still owes what it owed.
func (m *Machine) applyReport(msg *Message) ([]Event, error) {
	var b ViolationBody
	if err := decodeBody(msg.Body, &b); err != nil {
		return nil, violation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	if b.Accused != msg.From.Other() {
		return nil, violation(msg.From, msg.Seq, "T-10", "violation report accuses role %d", b.Accused)
	}
	j := judgeReport(m.Game, m.peers, m.history, msg, &b, m)
	if j.Verdict == VerdictUnproven && j.Standing {
		n := 0
		for _, r := range m.Reports {
			if r.Reporter == msg.From {
				n++
			}
		}
		if n >= MaxStandingReports {
			return nil, violation(msg.From, msg.Seq, "T-10", "a report while an earlier report of its own stands unproven (cap %d)", MaxStandingReports)
		}
		m.Reports = append(m.Reports, j)
		return []Event{EventReport{Judgement: j}}, nil
	}
	o := Outcome{Report: &j, Violation: j.Violation}
	switch j.Verdict {
	case VerdictProven, VerdictFalse:
		o.Proven = true
		o.Result = forfeit(m.colorOrRole(j.Violation.Accused.Other()))
	case VerdictWithheld:
		o.Result = forfeit(m.colorOrRole(j.Violation.Accused.Other()))
		if c := m.clk; c != nil && c.claim != nil && c.claim.by == j.Violation.Accused.Other() && m.Outcome != nil {
			// The flagged side did not answer the time-out claim: the
			// loss on time stands, as reported (CLK-D9, T-11).
			o.Result = m.Outcome.Result
		}
	default:
		o.Result = engine.Result{By: engine.ByDispute}
	}
	m.end(o)
	m.Phase = PhaseDone
	return []Event{EventReport{Judgement: j}, EventEnded{Outcome: *m.Outcome}}, nil
}

// History returns the messages the machine took, in order.
func (m *Machine) History() []Message { return slices.Clone(m.history) }
