package protocol

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kakure/kakure/engine"
)

// Report is what Verify found in a record.
type Report struct {
	// Outcome is the game's outcome as the record establishes it (nil if
	// the record stops before the end).
	Outcome *Outcome
	// Finished tells whether the game is over in the record: both players
	// stated the result, or a report or a decline ended it. A record
	// whose result statements are missing is not finished (T-14).
	Finished bool
	// Messages is how many messages were checked.
	Messages int
	// Violation is the rule broken or reported that decided the game, if
	// any (see Outcome), or one the replay found in a message of the
	// record. Proven tells whether the record holds signed proof of it; an
	// unproven one is a peer's report of something that cannot be shown
	// after the fact (a bad signature, an oversized frame, a withheld
	// message).
	Violation *Violation
	Proven    bool
	// Reporter is the role that reported the violation, when it was
	// reported in the record rather than found by the replay itself.
	Reporter *Role
	// Judgement is the judge's decision on the report that ended the
	// game, if one did.
	Judgement *Judgement
	// Standing are the reports that ended nothing (they proved nothing
	// once the result was fixed, or during an end audit, T-15).
	Standing []Judgement
	// Ignored counts the messages after the end of the game: nothing is
	// accepted after both results (T-14).
	Ignored int
	// Voided are the roles whose abandonments changed nothing (REC-D13).
	Voided []Role
	// Waiting says what the game waits for at the end of a record that
	// is not finished: a time-out claim or a challenge unanswered.
	Waiting []string
	// Challenges says, for each challenge of the record (a T-11 report
	// that stood, REC-D12), what was owed and whether it was answered.
	Challenges []string
	// Late are the messages, after the event that decided the game and
	// before its end, that the rules refuse (a move or a marking sent
	// while the result is being confirmed, a result statement that names
	// another result): each with the rule it breaks. They are not part
	// of the game: the decided outcome stands and the replay goes on
	// past them (REC-D7), so that the record names the event that
	// decided the game, not a message that came after it.
	Late []Violation
}

// Verify checks a transcript end to end: every message is replayed
// through the game machine (the transcript was already checked for
// signatures, sequence numbers and the hash chains when it was parsed),
// and every violation report is judged by the same judge the receiving
// peer ran (T-13, T-14).
func Verify(t *Transcript) *Report {
	rep := &Report{}
	m := NewMachine(t.Game)
	for i := range t.Messages {
		if m.Phase == PhaseDone && m.abandoned == nil {
			rep.Ignored += len(t.Messages) - i
			break
		}
		msg := t.Messages[i]
		_, err := m.Apply(&msg)
		if errors.Is(err, ErrAfterEnd) {
			// After an abandonment, a message that did not cross it
			// (REC-D13): not part of the game.
			rep.Ignored++
			continue
		}
		if err != nil {
			// A message the record holds and the rules refuse: its
			// signature makes it proof against its sender, unless the
			// game was decided before it (REC-D7).
			var v *Violation
			if !errors.As(err, &v) {
				v = &Violation{Accused: msg.From, Rule: "T-10", Seq: int64(msg.Seq), Detail: err.Error()}
			}
			if m.Outcome != nil {
				rep.Late = append(rep.Late, *v)
				continue
			}
			rep.Violation, rep.Proven = v, true
			break
		}
		if i == 0 && m.Peers != t.Peers {
			rep.Violation = NewViolation(Inviter, 0, "T-3", "the invitation names other peers than the record")
			rep.Proven = true
			break
		}
		rep.Messages++
	}
	rep.Standing = m.Reports
	rep.Voided = m.Voided
	rep.Waiting = m.waiting()
	rep.Challenges = m.challengesSaid()
	rep.Finished = m.Phase == PhaseDone
	if m.Outcome != nil {
		o := *m.Outcome
		rep.Outcome = &o
		if rep.Violation == nil && o.Violation != nil {
			rep.Violation, rep.Proven = o.Violation, o.Proven
			if o.Report != nil {
				r := o.Report.Reporter
				rep.Reporter, rep.Judgement = &r, o.Report
			}
		}
	}
	return rep
}

// Describe writes the report as `kakure verify` prints it, one statement
// a line, and tells whether the record is a finished game with no
// violation, report or forfeit that decided it ("ok"). A loss on time is
// ok once both players stated the result, whichever message showed the
// flag (CLK-D9): the waiting side's claim, or the flagged side's own move
// whose think time is past its clock.
func (r *Report) Describe(peers [2]PeerID) (text string, ok bool) {
	var b strings.Builder
	who := func(role Role) string { return fmt.Sprintf("the %s (peer %s)", role, peers[role]) }
	for _, j := range r.Standing {
		fmt.Fprintf(&b, "unproven report by the %s of %s against %s: %s; it proves nothing (%s) and changes nothing\n",
			j.Reporter, j.Reported.Rule, who(j.Reported.Accused), j.Reported.Detail, j.Why)
	}
	// The messages that are not part of the game come after what
	// decided it (before the "ok" line of a game that verifies).
	var later strings.Builder
	for _, l := range r.Late {
		fmt.Fprintf(&later, "message %d of the %s is not part of the game: it came after the game was decided, and the rules refuse it (%s: %s)\n",
			l.Seq, l.Accused, l.Rule, l.Detail)
	}
	if r.Ignored > 0 {
		fmt.Fprintf(&later, "%d message(s) after both results are not part of the game (T-14)\n", r.Ignored)
	}
	fail := func() (string, bool) { return b.String() + later.String(), false }
	result := func() {
		if r.Outcome != nil {
			fmt.Fprintf(&b, "result: %s\n", r.Outcome.Result)
		}
	}
	for _, c := range r.Challenges {
		fmt.Fprintf(&b, "%s\n", c)
	}
	for _, by := range r.Voided {
		fmt.Fprintf(&b, "abandonment by the %s changes nothing: the %s had answered its challenge in a message the abandonment crossed (REC-D13)\n", by, by.Other())
	}
	unfinished := func(giving bool) {
		b.WriteString("the record ends before both players stated the result: not a finished game")
		if r.Outcome != nil && giving {
			fmt.Fprintf(&b, " (the rules give %s)", r.Outcome.Result)
		}
		b.WriteString("\n")
		for _, w := range r.Waiting {
			fmt.Fprintf(&b, "it waits for %s\n", w)
		}
	}
	v := r.Violation
	byTime := r.Outcome != nil && r.Outcome.Result.By == engine.ByTime
	switch {
	case v != nil && r.Outcome != nil && r.Outcome.Abandoned && byTime:
		fmt.Fprintf(&b, "LOSS ON TIME as reported: %s did not answer the %s's time-out claim (CLK-D9, T-11): %s; an absence cannot be proven\n",
			who(v.Accused), v.Accused.Other(), v.Detail)
		result()
		return fail()
	case v != nil && r.Outcome != nil && r.Outcome.Abandoned:
		fmt.Fprintf(&b, "ABANDONED: %s %s; named as reported by the %s, since an absence cannot be proven (T-11)\n",
			who(v.Accused), v.Detail, v.Accused.Other())
		result()
		return fail()
	case v != nil && r.Judgement != nil && r.Judgement.Verdict == VerdictUnproven:
		j := r.Judgement
		fmt.Fprintf(&b, "DISPUTED: the %s reported %s by %s: %s; the record does not prove it (%s); no winner\n",
			j.Reporter, j.Reported.Rule, who(j.Reported.Accused), j.Reported.Detail, j.Why)
		result()
		return fail()
	case v != nil && r.Judgement == nil && byTime:
		// A loss on time (CLK-D9), whichever message showed the flag:
		// the waiting side's claim, which the flagged side confirms
		// with its result or has not answered, or the flagged side's
		// own move whose think time is past its clock, proven by its
		// own signature.
		switch {
		case !r.Finished && !r.Proven:
			fmt.Fprintf(&b, "LOSS ON TIME as reported: %s: %s; it has not confirmed the claim\n", who(v.Accused), v.Detail)
			result()
			return fail()
		case !r.Finished:
			fmt.Fprintf(&b, "loss on time: %s: %s (proven by its own signed message %d)\n", who(v.Accused), v.Detail, v.Seq)
			unfinished(true)
			return fail()
		}
		fmt.Fprintf(&b, "loss on time: %s: %s; confirmed by both players' results\n", who(v.Accused), v.Detail)
	case v != nil:
		proof := "proven by signed messages in the record"
		switch {
		case !r.Proven && r.Reporter != nil:
			proof = fmt.Sprintf("reported by the %s; the record cannot prove it", *r.Reporter)
		case r.Reporter != nil:
			proof += fmt.Sprintf("; reported by the %s", *r.Reporter)
		}
		fmt.Fprintf(&b, "VIOLATION of %s by %s: %s (%s)\n", v.Rule, who(v.Accused), v.Detail, proof)
		if r.Outcome != nil && r.Outcome.Violation == v {
			// The violation decided the game: its result stands
			// whether or not the record holds both statements of it.
			result()
			if !r.Finished {
				unfinished(false)
			}
		}
		return fail()
	case !r.Finished:
		unfinished(true)
		return fail()
	}
	b.WriteString(later.String())
	fmt.Fprintf(&b, "ok: result %s (%s)\n", r.Outcome.Result, r.Outcome.Result.By)
	return b.String(), true
}
