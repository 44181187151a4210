package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
)

// Verdict is what a violation report establishes (T-13, T-14).
type Verdict int

// The verdicts of a report.
const (
	// VerdictUnproven: the evidence proves nothing against the accused
	// (none at all, a copy of a message already held, a message of
	// another game, a later message, a bad signature ...). The report
	// changes nothing: the game goes on (T-14, REC-D11).
	VerdictUnproven Verdict = iota
	// VerdictProven: the accused's own signed messages break a rule by
	// themselves; the accused loses.
	VerdictProven
	// VerdictFalse: the report is proven false (its evidence is a valid
	// message of the accused, or it says the accused withheld a message
	// the accused did not owe); the reporter loses.
	VerdictFalse
	// VerdictWithheld: a T-11 report that the accused withheld a message
	// it owed within a grace period, and in the reporter's game the
	// accused did owe one. Absence cannot be proven: the report is a
	// challenge, which the accused answers by sending what it owes, and
	// play goes on (REC-D12).
	VerdictWithheld
)

// String names the verdict.
func (v Verdict) String() string {
	switch v {
	case VerdictProven:
		return "proven"
	case VerdictFalse:
		return "false accusation"
	case VerdictWithheld:
		return "challenge (a withheld message, as reported)"
	}
	return "unproven"
}

// Judgement is the judge's decision on one report.
type Judgement struct {
	Verdict Verdict
	// Reporter is the role that sent the report.
	Reporter Role
	// Reported is what the report says: the accused, the rule, the
	// detail.
	Reported *Violation
	// Violation is the violation the judgement establishes: the accused's
	// (VerdictProven), the reporter's (VerdictFalse, rule T-14), or the
	// reported one (VerdictWithheld, VerdictUnproven: established for
	// nobody).
	Violation *Violation
	// Why says, for a report that proves nothing, why its evidence does
	// not.
	Why string
	// owed is, for a challenge (VerdictWithheld), the kinds the accused
	// was to send in the reporter's game.
	owed []Kind
}

// RuleFalseAccusation is the rule a proven false accusation breaks.
const RuleFalseAccusation = "T-14"

// RuleCertificate is the rule of a report whose evidence is a signed
// certificate of a deviating garbler (T-8(b)). The judge hands such
// evidence to the judge of certificates that a variant registered
// (VariantEntry.JudgeCertificate: Phantom Go's).
const RuleCertificate = "T-8"

// CertificateJudge checks the evidence of a T-8(b) report: a certificate
// that convicts the garbler on its own signatures without the
// evaluator's secrets. It returns the violation the certificate proves
// (the accused's), the reporter's false accusation when the evidence is
// a certificate that proves nothing, or nil when the evidence is no
// certificate: such a report is judged like any other, on the accused's
// signed messages. The judge of every game is the registered one
// (judgeCertificate, Phantom Go's); judgeReportWith takes it as an argument so
// that a test judges with one of its own (export_test.go), and nothing
// else can change it.
type CertificateJudge func(game GameID, peers [2]PeerID, accused Role, history []Message, evidence [][]byte) *Violation

// judgeCertificate judges certificate evidence with the judge a variant
// registered (Register); with none registered no evidence is a
// certificate.
func judgeCertificate(game GameID, peers [2]PeerID, accused Role, history []Message, evidence [][]byte) *Violation {
	if certificates == nil {
		return nil
	}
	return certificates(game, peers, accused, history, evidence)
}

// judgeReport is the one judge of violation reports (T-13, T-14): the
// receiving peer runs it at once when a report arrives (Machine.Apply),
// and `kakure verify` runs it again on the record, with the same
// messages and so the same outcome. history holds the messages of the
// record before the report, in order; peers are the two identities.
//
// Only what the accused signed can convict it. The judge rebuilds the
// game as the reporter saw it when it reported (its own messages, and the
// accused's up to the one the report acknowledges) and takes an evidence
// frame as proof only if it is a message signed by the accused that
// breaks a rule by itself there: a second message with the same game,
// role and sequence number (equivocation), a next message whose prev
// does not chain to the accused's previous one or whose acknowledgement
// goes back, a message the rules refuse. A next message that breaks no
// rule proves the report false.
//
// current, when not nil, is the machine that took exactly history: when
// the reporter's game is the whole history (no message crossed the
// report), it is read instead of replaying the game, which in Phantom Go
// would run the audit again. It is never changed.
func judgeReport(game GameID, peers [2]PeerID, history []Message, report *Message, body *ViolationBody, current *Machine) Judgement {
	return JudgeReportWith(judgeCertificate, game, peers, history, report, body, current)
}

// JudgeReportWith is judgeReport with certificates judged by certificates.
func JudgeReportWith(certificates CertificateJudge, game GameID, peers [2]PeerID, history []Message, report *Message, body *ViolationBody, current *Machine) Judgement {
	reporter, accused := report.From, body.Accused
	j := Judgement{Verdict: VerdictUnproven, Reporter: reporter,
		Reported: &Violation{Accused: accused, Rule: body.Rule, Seq: -1, Detail: body.Detail}}
	j.Violation = j.Reported
	// The game as the reporter saw it: its own messages, and the
	// accused's up to the one the report acknowledges.
	var view []Message
	for i := range history {
		if m := &history[i]; m.From == reporter || int64(m.Seq) <= report.Ack {
			view = append(view, *m)
		}
	}
	var accusedChain []*Message
	for i := range view {
		if view[i].From == accused {
			accusedChain = append(accusedChain, &view[i])
		}
	}
	// probe rebuilds the game of view (afresh each time: applying
	// evidence to it changes it).
	probe := func() (*Machine, error) {
		m := NewMachine(game)
		for i := range view {
			if _, err := m.Apply(&view[i]); err != nil {
				return nil, fmt.Errorf("the reporter's view of the game does not replay (message %d: %v)", i, err)
			}
		}
		return m, nil
	}
	// state is the reporter's game to read, not to change.
	state := probe
	if current != nil && len(view) == len(history) {
		state = func() (*Machine, error) { return current, nil }
	}
	return judgeWith(j, certificates, game, peers, view, accusedChain, probe, state, body, report)
}

// judgeWith judges the report's evidence (see judgeReport).
func judgeWith(j Judgement, certificates CertificateJudge, game GameID, peers [2]PeerID, view []Message, accusedChain []*Message,
	probe, state func() (*Machine, error), body *ViolationBody, report *Message) Judgement {
	reporter, accused := report.From, body.Accused
	if body.Rule == "T-11" {
		return judgeWithheld(j, state)
	}
	if body.Rule == RuleCertificate {
		// Only the accused can be convicted by its certificate.
		switch v := certificates(game, peers, accused, view, body.Evidence); {
		case v != nil && v.Accused == accused:
			j.Verdict, j.Violation = VerdictProven, v
			return j
		case v != nil && v.Accused == reporter:
			// A certificate that proves nothing was made up: an honest
			// evaluator's always proves its cheat (T-8(b), T-14).
			v.Seq = int64(report.Seq)
			j.Verdict, j.Violation = VerdictFalse, v
			return j
		}
	}
	if len(body.Evidence) == 0 {
		j.Why = "the report has no evidence"
		return j
	}
	var whys []string
	var valid *Message
	for _, raw := range body.Evidence {
		v, ok, why := JudgeEvidence(game, peers[accused], accused, view, accusedChain, probe, raw)
		switch {
		case v != nil:
			j.Verdict, j.Violation, j.Why = VerdictProven, v, ""
			return j
		case ok != nil:
			if valid == nil {
				valid = ok
			}
		default:
			whys = append(whys, why)
		}
	}
	if valid != nil {
		j.Verdict = VerdictFalse
		j.Violation = &Violation{Accused: reporter, Rule: RuleFalseAccusation, Seq: int64(report.Seq),
			Detail: fmt.Sprintf("false accusation of %s: the evidence (%s message %d of the %s) breaks no rule",
				body.Rule, valid.Kind, valid.Seq, accused)}
		return j
	}
	j.Why = joinWhys(whys)
	return j
}

// judgeWithheld judges a T-11 report: the accused withheld a message it
// owed within a grace period (REC-D12). The record cannot show an
// absence: in the reporter's game (its ack says what it had) the accused
// must have owed a message the protocol makes automatic or a step of the
// count; the report is then a challenge, and false otherwise.
func judgeWithheld(j Judgement, state func() (*Machine, error)) Judgement {
	m, err := state()
	if err != nil {
		j.Why = err.Error()
		return j
	}
	from, kinds, _, owed := m.GraceOwed()
	if owed && from == j.Reported.Accused {
		j.Verdict, j.owed = VerdictWithheld, kinds
		j.Violation = &Violation{Accused: j.Reported.Accused, Rule: "T-11", Seq: -1,
			Detail: fmt.Sprintf("challenged to send %v (as reported by the %s: %s)", kinds, j.Reporter, j.Reported.Detail)}
		return j
	}
	from, kinds = m.Expected()
	j.Verdict = VerdictFalse
	j.Violation = &Violation{Accused: j.Reporter, Rule: RuleFalseAccusation, Seq: -1,
		Detail: fmt.Sprintf("false accusation of T-11: the %s owed nothing the programs send by themselves (the %s was to send %v)",
			j.Reported.Accused, from, kinds)}
	return j
}

// JudgeEvidence judges one evidence frame. It returns the violation the
// frame proves against the accused; or the frame's message when it is the
// accused's valid next message (a false accusation); or why it proves
// nothing.
func JudgeEvidence(game GameID, accusedID PeerID, accused Role, view []Message, chain []*Message,
	probe func() (*Machine, error), raw []byte) (*Violation, *Message, string) {
	f, _, err := ReadFrameJSON(bufio.NewReader(bytes.NewReader(frameBytes(raw))))
	if err != nil {
		return nil, nil, fmt.Sprintf("unreadable frame (%v)", err)
	}
	ev := f.Msg
	if ev == nil {
		return nil, nil, "the frame holds no message"
	}
	if ev.Game != game {
		return nil, nil, fmt.Sprintf("a message of another game (%s)", ev.Game)
	}
	// Signed by the accused's key, whatever role it names.
	if err := ev.VerifySignature(accusedID); err != nil {
		return nil, nil, "not signed by the accused (" + err.Error() + ")"
	}
	seq := int64(ev.Seq)
	if ev.From != accused {
		return NewViolation(accused, ev.Seq, "T-3", "signed a %s message %d in the name of the %s", ev.Kind, ev.Seq, ev.From), nil, ""
	}
	if !canonical(ev.Body) {
		return NewViolation(accused, ev.Seq, "T-10", "signed %s message %d whose body is not in canonical JSON form", ev.Kind, ev.Seq), nil, ""
	}
	next := int64(len(chain))
	switch {
	case seq < next:
		if held := chain[seq]; held.Hash() == ev.Hash() {
			return nil, nil, fmt.Sprintf("a copy of %s message %d, which the record holds", ev.Kind, ev.Seq)
		}
		return &Violation{Accused: accused, Rule: "T-3", Seq: seq, Err: ErrEquivocation,
			Detail: fmt.Sprintf("equivocation: two different messages with the same sequence number %d (%s in the record, %s in the evidence)",
				ev.Seq, chain[seq].Kind, ev.Kind)}, nil, ""
	case seq > next:
		return nil, nil, fmt.Sprintf("a later message (%d; the report acknowledges up to %d): a gap proves nothing", ev.Seq, next-1)
	}
	var prev Hash
	prevAck := int64(-1)
	if next > 0 {
		prev, prevAck = chain[next-1].Hash(), chain[next-1].Ack
	}
	if ev.Prev != prev {
		return &Violation{Accused: accused, Rule: "T-3", Seq: seq, Err: ErrBrokenChain,
			Detail: fmt.Sprintf("message %d does not chain to its message %d", ev.Seq, next-1)}, nil, ""
	}
	if ev.Ack < prevAck {
		return &Violation{Accused: accused, Rule: "T-3", Seq: seq, Err: ErrBadAck,
			Detail: fmt.Sprintf("acknowledgement went back from %d to %d", prevAck, ev.Ack)}, nil, ""
	}
	// The acknowledgement names a message of the reporter. One the
	// reporter's record lacks, or another version of it, proves nothing
	// against the accused: if anything, that the reporter equivocated.
	if ev.Ack >= 0 {
		var acked *Message
		for i := range view {
			if view[i].From != accused && int64(view[i].Seq) == ev.Ack {
				acked = &view[i]
			}
		}
		if acked == nil || acked.Hash() != ev.AckHash {
			return nil, nil, fmt.Sprintf("its acknowledgement names a version of the reporter's message %d that the reporter's record does not hold", ev.Ack)
		}
	} else if !ev.AckHash.IsZero() {
		return &Violation{Accused: accused, Rule: "T-3", Seq: seq, Err: ErrBadAck,
			Detail: "acknowledgement hash without an acknowledgement"}, nil, ""
	}
	m, err := probe()
	if err != nil {
		return nil, nil, err.Error()
	}
	if _, err := m.Apply(ev); err != nil {
		if errors.Is(err, ErrAfterEnd) {
			return nil, nil, "a message after the end of the game"
		}
		var v *Violation
		if !errors.As(err, &v) {
			v = &Violation{Accused: accused, Rule: "T-10", Seq: seq, Detail: err.Error(), Err: err}
		}
		v.Accused = accused
		return v, nil, ""
	}
	return nil, ev, ""
}

// joinWhys says why no evidence frame proves anything.
func joinWhys(whys []string) string {
	var b bytes.Buffer
	for i, w := range whys {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(w)
	}
	return b.String()
}

// frameBytes wraps evidence (a frame body as received) with its length
// prefix so that readFrameJSON can read it.
func frameBytes(body []byte) []byte {
	var b bytes.Buffer
	WriteFrame(&b, body)
	return b.Bytes()
}

// CertificateEvidence carries the evidence frames of a certificate (a
// Phantom Go certificate, T-8(b)) from the player to the report
// (Game.accuse), as the Err of the Violation the player found.
type CertificateEvidence struct{ Frames [][]byte }

// Error says what the evidence is.
func (c *CertificateEvidence) Error() string { return "a T-8(b) certificate" }

// Evidence returns the evidence frames that a violation found by a
// player carries (a Phantom Go certificate, T-8(b)), or nil; v may be nil.
func (v *Violation) Evidence() [][]byte {
	var c *CertificateEvidence
	if v != nil && errors.As(v.Err, &c) {
		return c.Frames
	}
	return nil
}
