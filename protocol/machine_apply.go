package protocol

// The machine's handling of each shared message kind: invitation, answer,
// coin toss, resignation, chat, result and reports; applyMessage in
// machine.go dispatches to them. Moved from machine.go unchanged (issue 19).

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
)

// TossDomain separates the colour toss commitments.
const TossDomain = "kakure/toss/colours"

// PlayableOverNetwork reports whether variant v has rules over messages
// here, so that two peers can play it (an invitation to another variant
// is refused, T-10).
func PlayableOverNetwork(v engine.Variant) bool {
	_, ok := newVariantRules[v]
	return ok
}

// applyInvite takes the invitation: the options, the peers, the inviter's
// name, and the variant's rules (T-2, T-3).
func (m *Machine) applyInvite(msg *Message) ([]Event, error) {
	var b InviteBody
	if err := DecodeBody(msg.Body, &b); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	if b.Version != Version {
		return nil, NewViolation(msg.From, msg.Seq, "T-2", "protocol version %q, this program speaks %q", b.Version, Version)
	}
	o, err := b.Options.Options()
	if err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "invitation with bad options: %v", err)
	}
	if err := CheckName(b.InviterName); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "invitation with a bad name: %v", err)
	}
	if b.Tournament != nil {
		if err := b.Tournament.Check(); err != nil {
			return nil, NewViolation(msg.From, msg.Seq, "T-10", "invitation with a bad tournament reference: %v", err)
		}
		ref := *b.Tournament
		m.Tournament = &ref
	}
	if b.Series != nil {
		// The options and colours the series agreement gives this game
		// (SER-D2): what verify checks too.
		if err := b.Series.CheckInvite(b); err != nil {
			return nil, NewViolation(msg.From, msg.Seq, "T-10", "invitation of a series game: %v", err)
		}
		s := *b.Series
		m.Series = &s
	}
	if b.Broadcast != nil {
		// One signed invitation has one meaning: no delay is written by
		// leaving it out (SPEC-D10).
		if b.Broadcast.IsZero() {
			return nil, NewViolation(msg.From, msg.Seq, "T-10", "invitation with a broadcast delay of zero: none is written by leaving it out")
		}
		if err := b.Broadcast.Check(); err != nil {
			return nil, NewViolation(msg.From, msg.Seq, "T-10", "invitation with a bad broadcast delay: %v", err)
		}
		m.Broadcast = *b.Broadcast
	}
	// The judge checks evidence against these identities; an
	// invitation without valid ones (no invitee accepts it) leaves no
	// evidence provable.
	var peers [2]PeerID
	for i, s := range [2]string{b.Inviter, b.Invitee} {
		if id, err := ParsePeerID(s); err == nil {
			peers[i] = id
		}
	}
	factory, ok := newVariantRules[o.Variant]
	if !ok {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "variant %s cannot be played over the network yet", o.Variant)
	}
	m.Options = o
	m.startClocks()
	m.Peers = peers
	m.Names[Inviter] = b.InviterName
	m.Phase = PhaseAnswer
	v, err := factory(m)
	if err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	m.Rules = v
	return []Event{EventInvited{Options: o}}, nil
}

// applyAccept takes the acceptance and starts the coin toss (T-4).
func (m *Machine) applyAccept(msg *Message) ([]Event, error) {
	var b AcceptBody
	if err := DecodeBody(msg.Body, &b); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	if err := CheckName(b.Name); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "acceptance with a bad name: %v", err)
	}
	m.Names[Invitee] = b.Name
	m.Phase = PhaseToss
	return []Event{EventPhase{Phase: PhaseToss}}, nil
}

// applyDecline ends the game as declined.
func (m *Machine) applyDecline(msg *Message) ([]Event, error) {
	var b DeclineBody
	if err := DecodeBody(msg.Body, &b); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	m.Phase = PhaseDone
	m.Outcome = &Outcome{Result: engine.Result{By: "declined"}}
	return []Event{EventDeclined{Reason: b.Reason}}, nil
}

// applyTossCommit keeps a coin toss commitment (T-4).
func (m *Machine) applyTossCommit(msg *Message) ([]Event, error) {
	var b CommitBody
	if err := DecodeBody(msg.Body, &b); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	c := b.Commitment
	m.tossCommit[msg.From] = &c
	return nil, nil
}

// applyTossReveal opens a coin toss commitment and, with both open, gives
// the colours (T-4, HC-D2) or, with a pie rule, starts play.
func (m *Machine) applyTossReveal(msg *Message) ([]Event, error) {
	var b OpenBody
	if err := DecodeBody(msg.Body, &b); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	if err := commit.Verify(*m.tossCommit[msg.From], TossDomain, m.Game[:], uint8(msg.From), 0, b.Opening); err != nil {
		return nil, &Violation{Accused: msg.From, Rule: "T-4", Seq: int64(msg.Seq), Detail: "coin toss reveal does not open its commitment", Err: err}
	}
	if len(b.Opening.Value) != 32 {
		return nil, NewViolation(msg.From, msg.Seq, "T-4", "coin toss contribution of %d bytes, want 32", len(b.Opening.Value))
	}
	m.tossValue[msg.From] = b.Opening.Value
	if m.tossValue[Inviter] == nil || m.tossValue[Invitee] == nil {
		return nil, nil
	}
	if _, ok := m.Rules.(pieRule); ok {
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
}

// applyResign takes a resignation (GO-6), or starts the audit that must
// pass before it stands.
func (m *Machine) applyResign(msg *Message) ([]Event, error) {
	if err := DecodeBody(msg.Body, &struct{}{}); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	if m.Phase != PhasePlay {
		return nil, NewViolation(msg.From, msg.Seq, "GO-6", "resignation outside play")
	}
	if m.Resigned != nil {
		// The game is already resigned (a resignation of the other
		// that crossed it, or a repeat): the first one stands.
		return nil, nil
	}
	winner := m.colorOrRole(msg.From.Other())
	m.resignToMove, _ = m.Expected()
	m.endRole, m.endSeq = msg.From, msg.Seq
	if ra, ok := m.Rules.(resignAuditor); ok {
		if events, audit := ra.AuditAfterResign(msg.From); audit {
			m.Resigned = &Outcome{Result: engine.Result{Winner: winner, By: engine.ByResignation}}
			return append([]Event{EventResigned{Role: msg.From}}, events...), nil
		}
	}
	m.end(Outcome{Result: engine.Result{Winner: winner, By: engine.ByResignation}})
	m.Phase = PhaseConfirm
	return []Event{EventResigned{Role: msg.From}, EventEnded{Outcome: *m.Outcome}}, nil
}

// applyChat takes a chat line, within the caps of T-10.
func (m *Machine) applyChat(msg *Message) ([]Event, error) {
	var b ChatBody
	if err := DecodeBody(msg.Body, &b); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	if len(b.Text) > MaxChatLength {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "chat line of %d bytes (cap %d)", len(b.Text), MaxChatLength)
	}
	lines := 0
	for _, c := range m.Chat {
		if c.From == msg.From {
			lines++
		}
	}
	if lines >= MaxChatLines {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "more than %d chat lines", MaxChatLines)
	}
	m.Chat = append(m.Chat, ChatLine{From: msg.From, Text: b.Text})
	return []Event{EventChat{From: msg.From, Text: b.Text}}, nil
}

// applyResult takes a player's confirmation of the result (T-12); both end
// the game.
func (m *Machine) applyResult(msg *Message) ([]Event, error) {
	var b ResultBody
	if err := DecodeBody(msg.Body, &b); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	if want := m.Outcome.Result.String(); b.Result != want {
		return nil, NewViolation(msg.From, msg.Seq, "T-12", "claims the result %s, the game gives %s", b.Result, want)
	}
	m.confirmed[msg.From] = true
	if m.confirmed[Inviter] && m.confirmed[Invitee] {
		m.Phase = PhaseDone
		return []Event{EventPhase{Phase: PhaseDone}}, nil
	}
	return nil, nil
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

// MaxStandingReports caps the reports of one role that prove nothing
// (see Machine.Reports): each is kept in both records and changes
// nothing, so without a cap a peer could grow the other's record without
// end. An honest program reports only what its evidence proves.
const MaxStandingReports = 1

// applyReport judges a violation report (T-13) and applies the outcome
// (T-14): a proven violation ends the game with the accused losing, a
// proven false accusation with the reporter losing. A report that proves
// nothing changes nothing, in every phase: play goes on (REC-D11). A
// report of a withheld message (T-11) is a challenge (REC-D12).
func (m *Machine) applyReport(msg *Message) ([]Event, error) {
	var b ViolationBody
	if err := DecodeBody(msg.Body, &b); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	if b.Accused != msg.From.Other() {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "violation report accuses role %d", b.Accused)
	}
	if b.Rule == "T-11" {
		return m.applyChallenge(msg, &b)
	}
	j := judgeReport(m.Game, m.Peers, m.history, msg, &b, m)
	if j.Verdict == VerdictUnproven {
		return m.standUnproven(msg, j)
	}
	o := Outcome{Report: &j, Violation: j.Violation, Proven: true}
	o.Result = Forfeit(m.colorOrRole(j.Violation.Accused.Other()))
	m.end(o)
	m.Phase = PhaseDone
	return []Event{EventReport{Judgement: j}, EventEnded{Outcome: *m.Outcome}}, nil
}

// standUnproven keeps a report that proves nothing: it changes nothing
// (REC-D11), within the cap of MaxStandingReports a role (REC-D5).
func (m *Machine) standUnproven(msg *Message, j Judgement) ([]Event, error) {
	n := 0
	for _, r := range m.Reports {
		if r.Reporter == msg.From {
			n++
		}
	}
	if n >= MaxStandingReports {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "a report while an earlier report of its own stands unproven (cap %d)", MaxStandingReports)
	}
	m.Reports = append(m.Reports, j)
	return []Event{EventReport{Judgement: j}}, nil
}
