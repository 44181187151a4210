package session_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// challengeRecord returns go.record.json cut where the inviter owes its
// toss opening, with the invitee's challenge of it, and the inviter's
// opening (not appended).
func challengeRecord(t *testing.T) (*protocol.Transcript, protocol.Message) {
	t.Helper()
	full := goRecord(t)
	tr := cut(t, full, 4)
	add(t, tr, protocol.Invitee, protocol.KindViolation, protocol.ViolationBody{Accused: protocol.Inviter, Rule: "T-11", Detail: "withheld"})
	answer := next(t, tr, protocol.Inviter, full.Messages[4].Kind, json.RawMessage(full.Messages[4].Body))
	return tr, answer
}

// TestRECD13AbandonmentJudged (REC-D12, REC-D13): before the toss the
// inviter counts as Black (the invitee, White, abandons it). An
// abandonment is
// judged on the record alone. On an open challenge it ends the game, a
// forfeit win for its sender, as reported, never proven. After the
// answer, an abandonment that acknowledges the answer is false: its
// sender loses, proven by its own ack. One that does not (the two
// crossed) changes nothing. One that names no challenge of its sender's
// is refused. A second challenge that acknowledges nothing new is
// refused (one challenge for each message of the accused's).
func TestRECD13AbandonmentJudged(t *testing.T) {
	abandon := func(tr *protocol.Transcript) protocol.Message {
		seq := tr.Count(protocol.Invitee) - 1
		for i := len(tr.Messages) - 1; i >= 0; i-- {
			if m := tr.Messages[i]; m.From == protocol.Invitee && m.Kind == protocol.KindViolation {
				seq = m.Seq
				break
			}
		}
		return next(t, tr, protocol.Invitee, protocol.KindAbandon, protocol.AbandonBody{Challenge: seq})
	}
	t.Run("open challenge", func(t *testing.T) {
		tr, _ := challengeRecord(t)
		if err := tr.Append(abandon(tr)); err != nil {
			t.Fatal(err)
		}
		rep := protocol.Verify(tr)
		says, ok := rep.Describe(tr.Peers)
		if o := rep.Outcome; ok || o == nil || !o.Abandoned || o.Result.Winner != engine.White || o.Result.By != engine.ByForfeit ||
			rep.Proven || !rep.Finished || !strings.Contains(says, "ABANDONED: the inviter") ||
			!strings.Contains(says, "challenge by the invitee (its message 2): the inviter owed [toss-reveal]; not answered") {
			t.Errorf("an abandonment of an open challenge: %+v (proven %v):\n%s", rep.Outcome, rep.Proven, says)
		}
	})
	t.Run("after the answer it acknowledged", func(t *testing.T) {
		tr, answer := challengeRecord(t)
		if err := tr.Append(answer); err != nil {
			t.Fatal(err)
		}
		if err := tr.Append(abandon(tr)); err != nil {
			t.Fatal(err)
		}
		rep := protocol.Verify(tr)
		says, _ := rep.Describe(tr.Peers)
		if v := rep.Violation; v == nil || v.Accused != protocol.Invitee || v.Rule != "T-14" || !rep.Proven || rep.Outcome.Result.Winner != engine.Black {
			t.Errorf("a false abandonment: %+v (proven %v):\n%s", rep.Violation, rep.Proven, says)
		}
	})
	t.Run("crossing its answer", func(t *testing.T) {
		tr, answer := challengeRecord(t)
		a := abandon(tr)
		if err := tr.Append(answer); err != nil {
			t.Fatal(err)
		}
		if err := tr.Append(a); err != nil {
			t.Fatal(err)
		}
		rep := protocol.Verify(tr)
		says, _ := rep.Describe(tr.Peers)
		if rep.Outcome != nil || rep.Violation != nil || len(rep.Voided) != 1 || !strings.Contains(says, "changes nothing") ||
			!strings.Contains(says, "answered by its message 2") {
			t.Errorf("an abandonment crossing the answer: %+v, %+v:\n%s", rep.Outcome, rep.Violation, says)
		}
	})
	t.Run("no challenge of its own", func(t *testing.T) {
		full := goRecord(t)
		tr := cut(t, full, 4)
		add(t, tr, protocol.Invitee, protocol.KindAbandon, protocol.AbandonBody{Challenge: 0})
		rep := protocol.Verify(tr)
		if v := rep.Violation; v == nil || v.Accused != protocol.Invitee || v.Rule != "T-10" || !rep.Proven {
			t.Errorf("an abandonment of no challenge: %+v (proven %v)", rep.Violation, rep.Proven)
		}
	})
	t.Run("a second challenge of nothing new", func(t *testing.T) {
		tr, answer := challengeRecord(t)
		// The answer came, but the reporter challenges again with its
		// old acknowledgement: refused.
		if err := tr.Append(answer); err != nil {
			t.Fatal(err)
		}
		m := next(t, tr, protocol.Invitee, protocol.KindViolation, protocol.ViolationBody{Accused: protocol.Inviter, Rule: "T-11", Detail: "again"})
		m.Ack, m.AckHash = int64(answer.Seq)-1, tr.Find(protocol.Inviter, answer.Seq-1).Hash()
		resign(t, &m, session.RecordTestKey(protocol.Invitee))
		if err := tr.Append(m); err != nil {
			t.Fatal(err)
		}
		rep := protocol.Verify(tr)
		if v := rep.Violation; v == nil || v.Accused != protocol.Invitee || v.Rule != "T-10" || !rep.Proven {
			t.Errorf("a second challenge of nothing new: %+v (proven %v)", rep.Violation, rep.Proven)
		}
	})
}

// TestCLKD17NeitherMovesWhileAClaimWaits (CLK-D17): while a time-out claim
// waits for its answer, the claimer's move is refused (it waits for the
// answer), and so is the flagged side's move once it has seen the claim
// (it must answer first); the flagged side's refusal lets play go on, and
// its confirmation is a loss on time.
func TestCLKD17NeitherMovesWhileAClaimWaits(t *testing.T) {
	claimed := func(t *testing.T) *protocol.Transcript {
		tr := afterMoves(t, "10s", "invitee:D4:2000", "inviter:C4:1000")
		add(t, tr, protocol.Inviter, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 8500})
		return tr
	}
	refused := func(tr *protocol.Transcript, who protocol.Role) {
		t.Helper()
		rep := protocol.Verify(tr)
		if v := rep.Violation; v == nil || v.Accused != who || v.Rule != "CLK-D9" || !rep.Proven {
			t.Errorf("violation %+v (proven %v), want the %s's CLK-D9", rep.Violation, rep.Proven, who)
		}
	}
	tr := claimed(t)
	move(t, tr, protocol.Inviter, "C5", 1000, 0)
	refused(tr, protocol.Inviter)
	tr = claimed(t)
	move(t, tr, protocol.Invitee, "C5", 1000, 0)
	refused(tr, protocol.Invitee)
	tr = claimed(t)
	add(t, tr, protocol.Invitee, protocol.KindTimeoutRefuse, protocol.TimeoutRefuseBody{ThinkMS: 7000})
	move(t, tr, protocol.Invitee, "C5", 7000, 0)
	if rep := protocol.Verify(tr); rep.Violation != nil || rep.Outcome != nil {
		t.Errorf("after a refusal: %+v, %+v; want play to go on", rep.Violation, rep.Outcome)
	}
}
