package protocol

// Challenges and abandonment (T-11, REC-D12, REC-D13): what the machine
// does with a report that the other program withholds a message, and with
// the claim that it abandoned the game.
//
// An absence cannot be proven, so a report of one convicts nobody. It is
// a challenge: the accused answers it by sending what it owes (its
// program does so at once, and sends again what the reporter lacks), and
// play goes on. Only a challenge left unanswered for a grace period, with
// the connection up, lets the reporter end the game with an abandonment:
// a win for the reporter that the record names as reported, never as
// proven. Every rule below reads only signed messages, and each is the
// same whichever order a record holds crossing messages in.

import (
	"errors"
	"fmt"
	"slices"
)

// KindAbandon ends the game as abandoned by the other program: the
// sender's challenge (a T-11 report) went unanswered (REC-D13).
const KindAbandon Kind = "abandon"

// AbandonBody names the sender's challenge that the other program left
// unanswered: the sequence number of the sender's T-11 report.
type AbandonBody struct {
	Challenge uint64 `json:"challenge"`
}

// EventChallenged: the reporter challenged the accused to send what it
// owes (T-11). Answered is true when the record already holds the answer
// (the reporter had not seen it).
type EventChallenged struct {
	Reporter Role
	Kinds    []Kind
	Answered bool
	// Ack is the accused's last message the reporter had.
	Ack int64
}

// EventChallengeAnswered: the accused sent what a challenge asked for;
// play goes on.
type EventChallengeAnswered struct{ Reporter Role }

// EventAbandonVoid: an abandonment changed nothing: the accused had
// answered the challenge in a message the abandoner had not seen when it
// abandoned (the two crossed). Play goes on.
type EventAbandonVoid struct{ By Role }

func (EventChallenged) IsEvent()        {}
func (EventChallengeAnswered) IsEvent() {}
func (EventAbandonVoid) IsEvent()       {}

// ErrAfterEnd is the machine's refusal of a message that is not part of
// the game: it came after the game ended and did not cross its end. It is
// nobody's violation (REC-D7).
var ErrAfterEnd = errors.New("protocol: the message comes after the end of the game")

// Challenge is a T-11 report that stands (REC-D12): in the reporter's
// game the accused owed one of kinds after its message ack.
type Challenge struct {
	reporter Role
	Seq      uint64
	ack      int64
	kinds    []Kind
	// answered is set once the record holds a message of the accused
	// numbered after ack of one of kinds; answeredSeq is its number.
	answered    bool
	answeredSeq uint64
}

// answers reports whether msg, of the accused, answers c.
func (c *Challenge) answers(msg *Message) bool {
	return msg.From == c.reporter.Other() && int64(msg.Seq) > c.ack && slices.Contains(c.kinds, msg.Kind)
}

// abandonment is the state of a game ended by an abandonment (REC-D13),
// kept so that a message of the accused that crossed it can still be
// taken, and void it when it answers the challenge.
type abandonment struct {
	by        Role
	seq       uint64
	challenge *Challenge
	outcome   Outcome
	// The game as it stood before the abandonment.
	prevPhase   Phase
	prevOutcome *Outcome
}

// GraceOwed returns the role that owes the next message and the kinds it
// may send, when that message is one the other program may wait for only
// a grace period (T-11): a message the protocol makes automatic, or a
// step of a phase the programs drive without a clock, the count of dead
// stones (REC-D14). ok is false when nobody owes such a message (a
// player's move is the player's time: its clock, if the game has one).
// count tells that the phase is the count, whose grace is longer.
func (m *Machine) GraceOwed() (from Role, kinds []Kind, count, ok bool) {
	if m.Phase == PhaseDone || m.Phase == PhaseInvite {
		return 0, nil, false, false
	}
	from, kinds = m.Expected()
	for _, k := range kinds {
		if k.attrs().Automatic {
			return from, kinds, false, true
		}
	}
	if m.Phase == PhasePlay && slices.Contains(kinds, KindMark) {
		return from, kinds, true, true
	}
	return 0, nil, false, false
}

// AbandonedBy returns the role that abandoned the game on the other's
// unanswered challenge (REC-D13); ok is false when the game is not over
// by an abandonment.
func (m *Machine) AbandonedBy() (r Role, ok bool) {
	if m.abandoned == nil {
		return 0, false
	}
	return m.abandoned.by, true
}

// OpenChallenge returns the kinds role r's challenge asks for and
// whether r has one open (unanswered).
func (m *Machine) OpenChallenge(r Role) ([]Kind, bool) {
	c := m.challenges[r]
	if c == nil || c.answered {
		return nil, false
	}
	return c.kinds, true
}

// UnansweredChallenge returns role r's open challenge, or nil.
func (m *Machine) UnansweredChallenge(r Role) *Challenge {
	if c := m.challenges[r]; c != nil && !c.answered {
		return c
	}
	return nil
}

// applyChallenge takes a T-11 report (REC-D12). The judge reads it in the
// reporter's game (its own messages, the accused's up to its ack): if the
// accused owed no message on a grace there, the report is false and the
// reporter loses (proven by its own signed ack). Otherwise it is a
// challenge and changes nothing else; it is answered by the accused's
// next message of a kind it owed, which the record may already hold
// (the reporter had not seen it).
func (m *Machine) applyChallenge(msg *Message, b *ViolationBody) ([]Event, error) {
	reporter := msg.From
	if c := m.UnansweredChallenge(reporter); c != nil {
		return nil, NewViolation(reporter, msg.Seq, "T-10", "a challenge while its challenge (its message %d) is open", c.Seq)
	}
	if prev := m.challenges[reporter]; prev != nil && msg.Ack <= prev.ack {
		// One challenge for each message of the accused's: a challenge
		// that saw nothing new since the last asks again for what was
		// answered (or spams the record).
		return nil, NewViolation(reporter, msg.Seq, "T-10", "a second challenge with no message of the %s's since its last (acknowledges %d)", b.Accused, msg.Ack)
	}
	j := judgeReport(m.Game, m.Peers, m.history, msg, b, m)
	switch j.Verdict {
	case VerdictFalse:
		o := Outcome{Report: &j, Violation: j.Violation, Proven: true, Result: Forfeit(m.colorOrRole(j.Violation.Accused.Other()))}
		m.end(o)
		m.Phase = PhaseDone
		return []Event{EventReport{Judgement: j}, EventEnded{Outcome: *m.Outcome}}, nil
	case VerdictWithheld:
	default:
		// The reporter's game does not replay: nothing can be judged.
		return m.standUnproven(msg, j)
	}
	c := &Challenge{reporter: reporter, Seq: msg.Seq, ack: msg.Ack, kinds: j.owed}
	for i := range m.history {
		if h := &m.history[i]; c.answers(h) {
			c.answered, c.answeredSeq = true, h.Seq
			break
		}
	}
	m.challenges[reporter] = c
	m.challengeLog = append(m.challengeLog, c)
	return []Event{EventReport{Judgement: j}, EventChallenged{Reporter: reporter, Kinds: c.kinds, Answered: c.answered, Ack: c.ack}}, nil
}

// noteAnswer marks the challenge that msg, just taken, answers.
func (m *Machine) noteAnswer(msg *Message) []Event {
	c := m.challenges[msg.From.Other()]
	if c == nil || c.answered || !c.answers(msg) {
		return nil
	}
	c.answered, c.answeredSeq = true, msg.Seq
	return []Event{EventChallengeAnswered{Reporter: c.reporter}}
}

// applyAbandon takes an abandonment (REC-D13). It must name the sender's
// own challenge. If the accused answered that challenge in a message the
// sender had acknowledged, the abandonment is false (the sender loses,
// proven by its own ack); if in one the sender had not seen (the two
// crossed), it changes nothing. Otherwise the game ends: a forfeit win
// for the sender, as reported.
func (m *Machine) applyAbandon(msg *Message) ([]Event, error) {
	var b AbandonBody
	if err := DecodeBody(msg.Body, &b); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	c := m.challenges[msg.From]
	if c == nil || c.Seq != b.Challenge {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "abandons the game on no challenge of its own (message %d)", b.Challenge)
	}
	accused := msg.From.Other()
	if c.answered {
		if int64(c.answeredSeq) <= msg.Ack {
			v := NewViolation(msg.From, msg.Seq, RuleFalseAccusation,
				"false abandonment: the %s answered its challenge (message %d) with its message %d, which the abandonment acknowledges", accused, c.Seq, c.answeredSeq)
			m.end(Outcome{Result: Forfeit(m.colorOrRole(accused)), Violation: v, Proven: true})
			m.Phase = PhaseDone
			return []Event{EventViolation{Violation: v}, EventEnded{Outcome: *m.Outcome}}, nil
		}
		m.Voided = append(m.Voided, msg.From)
		return []Event{EventAbandonVoid{By: msg.From}}, nil
	}
	a := &abandonment{by: msg.From, seq: msg.Seq, challenge: c, prevPhase: m.Phase, prevOutcome: m.Outcome}
	result := Forfeit(m.colorOrRole(msg.From))
	if cl := m.pendingClaim(); cl != nil && cl.By == msg.From {
		// What went unanswered is the sender's time-out claim: the loss
		// on time stands, as reported (CLK-D9, CLK-D17).
		result = m.claimResult(cl)
	}
	a.outcome = Outcome{
		Result: result,
		Violation: &Violation{Accused: accused, Rule: "T-11", Seq: -1,
			Detail: fmt.Sprintf("abandoned the game: it did not answer the %s's challenge (its message %d, owing %v) within the grace period, as reported by the %s", msg.From, c.Seq, c.kinds, msg.From)},
		Abandoned: true,
	}
	if m.Clocks != nil {
		m.Clocks.Claim = nil
	}
	m.abandoned = a
	o := a.outcome
	m.Outcome = &o
	m.Phase = PhaseDone
	return []Event{EventEnded{Outcome: o}}, nil
}

// applyAfterAbandon takes a message that comes once the game ended by an
// abandonment: one of the accused's sent before it saw the abandonment
// crossed it, and is taken as if it came first; if it answers the
// challenge, the abandonment changes nothing and play goes on (the same
// as when it came first, REC-D13). Anything else is not part of the game.
func (m *Machine) applyAfterAbandon(msg *Message) ([]Event, error) {
	a := m.abandoned
	if msg.From == a.by || msg.Ack >= int64(a.seq) {
		return nil, ErrAfterEnd
	}
	m.abandoned, m.Phase, m.Outcome = nil, a.prevPhase, a.prevOutcome
	restore := func() {
		a.prevPhase, a.prevOutcome = m.Phase, m.Outcome
		m.abandoned, m.Phase = a, PhaseDone
		o := a.outcome
		m.Outcome = &o
	}
	events, err := m.applyMessage(msg)
	if err != nil {
		restore()
		return nil, err
	}
	if ev := m.noteAnswer(msg); ev != nil {
		m.Voided = append(m.Voided, a.by)
		return append(append(events, ev...), EventAbandonVoid{By: a.by}), nil
	}
	if m.Phase == PhaseDone || m.Outcome != a.prevOutcome {
		// The crossing message decided the game itself (a resignation,
		// the rules, a proven report): that end stands, as it does when
		// the message came first and the abandonment crossed it.
		return events, nil
	}
	restore()
	return events, nil
}

// challengesSaid writes each challenge of the record and what became of
// it, for `kakure verify` (REC-D12).
func (m *Machine) challengesSaid() []string {
	var out []string
	for _, c := range m.challengeLog {
		s := fmt.Sprintf("challenge by the %s (its message %d): the %s owed %v", c.reporter, c.Seq, c.reporter.Other(), c.kinds)
		if c.answered {
			s += fmt.Sprintf("; answered by its message %d", c.answeredSeq)
		} else {
			s += "; not answered"
		}
		out = append(out, s)
	}
	return out
}

// waiting says what the game waits for that a program owes by the rules
// of T-11 and CLK-D17: an answer to a time-out claim, to a challenge.
func (m *Machine) waiting() []string {
	var w []string
	if c := m.pendingClaim(); c != nil {
		w = append(w, fmt.Sprintf("the %s's answer to the %s's time-out claim (its message %d, charging %v for %s against %v)",
			c.By.Other(), c.By, c.seq, c.charge, c.about, c.Left))
	}
	for _, r := range []Role{Inviter, Invitee} {
		if c := m.UnansweredChallenge(r); c != nil && m.Phase != PhaseDone {
			w = append(w, fmt.Sprintf("the %s's answer to the %s's challenge (its message %d, owing %v)", r.Other(), r, c.Seq, c.kinds))
		}
	}
	return w
}
