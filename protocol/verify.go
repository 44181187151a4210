package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
)

// Report is what Verify found in a record.
type Report struct {
	// Outcome is the game's outcome as the record establishes it (nil if
	// the record stops before the end).
	Outcome *Outcome
	// Messages is how many messages were checked.
	Messages int
	// Violation is the first rule broken, if any. Proven tells whether the
	// record holds signed proof of it (for example two signed messages
	// with one sequence number); an unproven one is a peer's report of
	// something that cannot be shown after the fact (a bad signature, an
	// oversized frame).
	Violation *Violation
	Proven    bool
	// Reporter is the role that reported the violation, when it was
	// reported in the record rather than found by the replay itself.
	Reporter *Role
}

// Verify checks a transcript end to end: every message is replayed
// through the game machine (the transcript was already checked for
// signatures, sequence numbers and the hash chains when it was parsed),
// and every violation report is checked against its evidence.
func Verify(t *Transcript) *Report {
	rep := &Report{}
	m := NewMachine(t.Game)
	check := NewTranscript(t.Game, t.Peers[0], t.Peers[1])
	for i := range t.Messages {
		msg := t.Messages[i]
		if msg.Kind == KindViolation {
			rep.Violation, rep.Proven = judgeReport(check, m, &msg)
			r := msg.From
			rep.Reporter = &r
		}
		events, err := m.Apply(&msg)
		_ = events
		if err != nil {
			var v *Violation
			if !errors.As(err, &v) {
				v = &Violation{Accused: msg.From, Rule: "T-10", Seq: int64(msg.Seq), Detail: err.Error()}
			}
			if rep.Violation == nil {
				rep.Violation, rep.Proven = v, true
			}
			break
		}
		check.Append(msg)
		rep.Messages++
	}
	if m.Outcome != nil {
		o := *m.Outcome
		rep.Outcome = &o
		if rep.Violation == nil && o.Violation != nil {
			// A violation found by the machine itself (an audit at the
			// end, GM-8): the signed messages prove it.
			rep.Violation, rep.Proven = o.Violation, true
		}
	}
	return rep
}

// judgeReport checks the evidence of a violation report against the state
// before it. A report whose evidence is a valid message of the accused is
// a false accusation: then the reporter is the one at fault.
func judgeReport(tr *Transcript, m *Machine, msg *Message) (*Violation, bool) {
	var body ViolationBody
	if err := decodeBody(msg.Body, &body); err != nil {
		return &Violation{Accused: msg.From, Rule: "T-10", Seq: int64(msg.Seq), Detail: "unreadable violation report"}, true
	}
	reported := &Violation{Accused: body.Accused, Rule: body.Rule, Seq: -1, Detail: body.Detail}
	for _, raw := range body.Evidence {
		f, _, err := readFrameJSON(bufio.NewReader(bytes.NewReader(frameBytes(raw))))
		if err != nil || f.Msg == nil {
			continue
		}
		ev := f.Msg
		if ev.From != body.Accused || ev.VerifySignature(tr.Peers[body.Accused]) != nil {
			continue // not attributable to the accused
		}
		if err := tr.Check(ev); err != nil {
			return &Violation{Accused: body.Accused, Rule: reported.Rule, Seq: int64(ev.Seq), Detail: err.Error(), Err: err}, true
		}
		// A message that fits the chain: replay it on a copy of the
		// machine state, rebuilt from the transcript.
		probe := NewMachine(tr.Game)
		for i := range tr.Messages {
			probe.Apply(&tr.Messages[i])
		}
		if _, err := probe.Apply(ev); err != nil {
			var v *Violation
			if errors.As(err, &v) {
				return v, true
			}
			return &Violation{Accused: body.Accused, Rule: "T-10", Seq: int64(ev.Seq), Detail: err.Error()}, true
		}
		return &Violation{Accused: msg.From, Rule: "T-12", Seq: int64(msg.Seq),
			Detail: fmt.Sprintf("false accusation: the evidence (%s message %d) breaks no rule", ev.Kind, ev.Seq)}, true
	}
	return reported, false
}

// frameBytes wraps evidence (a frame body as received) with its length
// prefix so that readFrameJSON can read it.
func frameBytes(body []byte) []byte {
	var b bytes.Buffer
	writeFrame(&b, body)
	return b.Bytes()
}
