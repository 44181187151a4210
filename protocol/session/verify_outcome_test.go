package session_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// Records of timed games, made from go.record.json's opening
// (invitation, acceptance, coin toss: the invitee plays Black and moves
// first) with a time control in the invitation and every message signed
// again with the peers' keys, as a peer could sign them. They build on no
// live game, so they test what `kakure verify` makes of a record, whatever
// the programs that would write it do.

// timedGoRecord returns go.record.json's opening as a game under the time
// control text (lag allowance 1 s): play is about to start, the invitee
// (Black) to move.
func timedGoRecord(t *testing.T, control string) *protocol.Transcript {
	t.Helper()
	full := goRecord(t)
	tr := protocol.NewTranscript(full.Game, full.Peers[0], full.Peers[1])
	var inv protocol.InviteBody
	if err := json.Unmarshal(full.Messages[0].Body, &inv); err != nil {
		t.Fatal(err)
	}
	inv.Options.Time = clock.MustParse(control).String()
	inv.Options.LagMS = 1000
	add(t, tr, protocol.Inviter, protocol.KindInvite, inv)
	for _, m := range full.Messages[1:6] {
		add(t, tr, m.From, m.Kind, json.RawMessage(m.Body))
	}
	if k := full.Messages[6]; k.Kind != protocol.KindMove || k.From != protocol.Invitee {
		t.Fatalf("go.record.json's message 6 is the %s's %s, want the invitee's first move", k.From, k.Kind)
	}
	return tr
}

// move appends role r's move at point, claiming thinkMS of its own think
// time and settling the other's last move at chargeMS (0: no
// settlement).
func move(t *testing.T, tr *protocol.Transcript, r protocol.Role, point string, thinkMS, chargeMS int64) {
	t.Helper()
	add(t, tr, r, protocol.KindMove, protocol.MoveBody{Point: point, ThinkMS: thinkMS, ChargeMS: chargeMS})
}

// results appends both players' statements of result, the inviter's
// first.
func results(t *testing.T, tr *protocol.Transcript, result string) {
	t.Helper()
	add(t, tr, protocol.Inviter, protocol.KindResult, protocol.ResultBody{Result: result})
	add(t, tr, protocol.Invitee, protocol.KindResult, protocol.ResultBody{Result: result})
}

// lastLine returns the last line of text.
func lastLine(text string) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	return lines[len(lines)-1]
}

// timeLossShapes are the records of a game the invitee (Black) lost on
// time, one for each message that can show the flag, ending where the
// flag showed (the result statements not yet made). Each is an honest
// game: both programs sign W+T.
var timeLossShapes = []struct {
	name    string
	control string
	play    func(t *testing.T, tr *protocol.Transcript)
}{
	// The flagged side's own move claims more think time than its clock
	// had: a slow engine under byo-yomi (issue 30, case 8: 1.641 s
	// against the 1 s period), and under an absolute clock of 10 s and
	// of 3 s.
	{"own move past its byo-yomi period", "0+1x1s", func(t *testing.T, tr *protocol.Transcript) {
		move(t, tr, protocol.Invitee, "D4", 400, 0)
		move(t, tr, protocol.Inviter, "C4", 300, 0)
		move(t, tr, protocol.Invitee, "C5", 1641, 0)
	}},
	{"own move past its 10 s", "10s", func(t *testing.T, tr *protocol.Transcript) {
		move(t, tr, protocol.Invitee, "D4", 6000, 0)
		move(t, tr, protocol.Inviter, "C4", 1000, 0)
		move(t, tr, protocol.Invitee, "C5", 4001, 0)
	}},
	{"own move past its 3 s", "3s", func(t *testing.T, tr *protocol.Transcript) {
		move(t, tr, protocol.Invitee, "D4", 3001, 0)
	}},
	// The waiting side's claim on the move under way, confirmed by the
	// flagged side's result.
	{"time-out claim on the move under way", "10s", func(t *testing.T, tr *protocol.Transcript) {
		move(t, tr, protocol.Invitee, "D4", 2000, 0)
		move(t, tr, protocol.Inviter, "C4", 1000, 0)
		add(t, tr, protocol.Inviter, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 8001})
	}},
	// The waiting side's claim about the flagged side's last move, which
	// its measurement puts past the clock (it claims instead of
	// settling, CLK-D9).
	{"time-out claim about the last move", "10s", func(t *testing.T, tr *protocol.Transcript) {
		move(t, tr, protocol.Invitee, "D4", 2000, 0)
		move(t, tr, protocol.Inviter, "C4", 1000, 0)
		move(t, tr, protocol.Invitee, "C5", 7000, 0)
		add(t, tr, protocol.Inviter, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 8001})
	}},
}

// TestCLKD9HonestLossOnTimeVerifies (CLK-D9, issue 30 case 8): a loss on
// time that both players confirmed verifies as `ok: result W+T (time)`,
// the same line whichever message showed the flag: the flagged side's own
// move past its clock, or the waiting side's time-out claim. Before both
// results it is not a finished game, and exits non-zero.
func TestCLKD9HonestLossOnTimeVerifies(t *testing.T) {
	for _, shape := range timeLossShapes {
		t.Run(shape.name, func(t *testing.T) {
			tr := timedGoRecord(t, shape.control)
			shape.play(t, tr)
			rep := protocol.Verify(tr)
			claim := len(rep.Waiting) > 0
			if o := rep.Outcome; !claim && (o == nil || o.Result.String() != "W+T" || o.Result.By != engine.ByTime) || rep.Finished {
				t.Fatalf("before the results: outcome %+v (finished %v, waiting %v), want W+T by time or a claim waiting, not finished", o, rep.Finished, rep.Waiting)
			}
			if text, ok := rep.Describe(tr.Peers); ok || strings.Contains(text, "ok:") || strings.Contains(text, "VIOLATION") {
				t.Errorf("before the results, kakure verify says (ok %v):\n%s", ok, text)
			}
			if claim {
				// The flagged side confirms the claim first (CLK-D17).
				add(t, tr, protocol.Invitee, protocol.KindResult, protocol.ResultBody{Result: "W+T"})
				add(t, tr, protocol.Inviter, protocol.KindResult, protocol.ResultBody{Result: "W+T"})
			} else {
				results(t, tr, "W+T")
			}
			rep = protocol.Verify(tr)
			text, ok := rep.Describe(tr.Peers)
			if !ok || lastLine(text) != "ok: result W+T (time)" || !strings.Contains(text, "loss on time: the invitee") ||
				strings.Contains(text, "VIOLATION") {
				t.Errorf("kakure verify says (ok %v):\n%s", ok, text)
			}
			if !rep.Finished || rep.Violation == nil || rep.Violation.Accused != protocol.Invitee || rep.Violation.Rule != "CLK-D9" {
				t.Errorf("report: finished %v, violation %+v; want a finished game, CLK-D9 naming the flagged invitee", rep.Finished, rep.Violation)
			}
		})
	}
}

// TestCLKD9TimeViolationsStillFail (CLK-D8, CLK-D9): what is not an
// honest loss on time still prints as a violation and exits non-zero: a
// time-out claim that the record shows false, and a settlement past the
// other's clock (which had to be a claim).
func TestCLKD9TimeViolationsStillFail(t *testing.T) {
	tests := []struct {
		name   string
		play   func(t *testing.T, tr *protocol.Transcript)
		result string // the result both state, "" for none
		want   string
	}{
		{"a claim within the other's clock", func(t *testing.T, tr *protocol.Transcript) {
			move(t, tr, protocol.Invitee, "D4", 2000, 0)
			move(t, tr, protocol.Inviter, "C4", 1000, 0)
			add(t, tr, protocol.Inviter, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 5000})
		}, "B+F", "VIOLATION of CLK-D9 by the inviter"},
		{"a settlement past the other's clock", func(t *testing.T, tr *protocol.Transcript) {
			move(t, tr, protocol.Invitee, "D4", 2000, 0)
			move(t, tr, protocol.Inviter, "C4", 1000, 10001)
		}, "", "VIOLATION of CLK-D9 by the inviter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := timedGoRecord(t, "10s")
			tt.play(t, tr)
			if tt.result != "" {
				results(t, tr, tt.result)
			}
			text, ok := protocol.Verify(tr).Describe(tr.Peers)
			if ok || !strings.Contains(text, tt.want) || strings.Contains(text, "ok:") {
				t.Errorf("kakure verify says (ok %v):\n%s\nwant it to mention %q and fail", ok, text, tt.want)
			}
			if tt.result != "" && !strings.Contains(text, "result: "+tt.result) {
				t.Errorf("kakure verify says:\n%s\nwant the result %s", text, tt.result)
			}
		})
	}
}

// TestRECD7VerifyNamesTheDecidingEvent (REC-D7, issue 30 case 9): when
// messages follow the event that decided the game, `kakure verify` names
// that event and prints its result; the later messages the rules refuse
// are listed as not part of the game, never named as what decided it.
func TestRECD7VerifyNamesTheDecidingEvent(t *testing.T) {
	full := goRecord(t)
	n := len(full.Messages)
	const counted = 47 // the count is agreed (B+17.5): the results follow
	if full.Messages[counted-1].Kind != protocol.KindAgree || full.Messages[counted].Kind != protocol.KindResult {
		t.Fatalf("go.record.json: message %d is %s, %d is %s; want the agreement, then the results",
			counted-1, full.Messages[counted-1].Kind, counted, full.Messages[counted].Kind)
	}
	var rb protocol.ResultBody
	if err := json.Unmarshal(full.Messages[n-1].Body, &rb); err != nil {
		t.Fatal(err)
	}
	// An equivocation of the inviter's: its move 3 (C4) signed again with
	// another point.
	equivocation := *full.Find(protocol.Inviter, 3)
	equivocation.Body = session.MustEncodeBody(protocol.MoveBody{Point: "A1"})
	resign(t, &equivocation, session.RecordTestKey(protocol.Inviter))

	tests := []struct {
		name string
		make func(t *testing.T) *protocol.Transcript
		ok   bool
		// decided is the line that names the deciding event; late the
		// role whose later message is listed; result the result line
		// or the ok line.
		decided  string
		late     protocol.Role
		result   string
		finished bool
	}{
		{"a move while confirming a proven violation", func(t *testing.T) *protocol.Transcript {
			tr := timedGoRecord(t, "10s")
			move(t, tr, protocol.Invitee, "D4", 2000, 0)
			move(t, tr, protocol.Inviter, "C4", 1000, 0)
			// A claim the record shows false: the claimer loses.
			add(t, tr, protocol.Inviter, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 5000})
			// The invitee moves on after it saw the claim.
			move(t, tr, protocol.Invitee, "C5", 3000, 0)
			results(t, tr, "B+F")
			return tr
		}, false, "VIOLATION of CLK-D9 by the inviter", protocol.Invitee, "result: B+F", true},
		{"the record ends after the late message", func(t *testing.T) *protocol.Transcript {
			tr := timedGoRecord(t, "10s")
			move(t, tr, protocol.Invitee, "D4", 2000, 0)
			move(t, tr, protocol.Inviter, "C4", 1000, 0)
			add(t, tr, protocol.Inviter, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 5000})
			move(t, tr, protocol.Invitee, "C5", 3000, 0)
			return tr
		}, false, "VIOLATION of CLK-D9 by the inviter", protocol.Invitee, "result: B+F", false},
		{"a move after a loss on time by the mover's own clock", func(t *testing.T) *protocol.Transcript {
			tr := timedGoRecord(t, "3s")
			move(t, tr, protocol.Invitee, "D4", 3001, 0)
			move(t, tr, protocol.Inviter, "C4", 1000, 0)
			results(t, tr, "W+T")
			return tr
		}, true, "loss on time: the invitee", protocol.Inviter, "ok: result W+T (time)", true},
		{"a marking while confirming the count", func(t *testing.T) *protocol.Transcript {
			tr := cut(t, full, counted)
			add(t, tr, protocol.Invitee, protocol.KindMark, protocol.MarkBody{Dead: []string{}})
			results(t, tr, rb.Result)
			return tr
		}, true, "", protocol.Invitee, "ok: result " + rb.Result + " (score)", true},
		{"a result statement that names another result", func(t *testing.T) *protocol.Transcript {
			tr := cut(t, full, counted)
			add(t, tr, protocol.Inviter, protocol.KindResult, protocol.ResultBody{Result: "W+R"})
			results(t, tr, rb.Result)
			return tr
		}, true, "", protocol.Inviter, "ok: result " + rb.Result + " (score)", true},
		{"a message after a proven report", func(t *testing.T) *protocol.Transcript {
			tr := cut(t, full, 13) // the inviter is to move
			reportOn(t, tr, "T-3", session.FrameOf(&equivocation))
			move(t, tr, protocol.Inviter, "A3", 0, 0)
			return tr
		}, false, "VIOLATION of T-3 by the inviter", protocol.Inviter, "result: B+F", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := tt.make(t)
			rep := protocol.Verify(tr)
			text, ok := rep.Describe(tr.Peers)
			if ok != tt.ok || rep.Finished != tt.finished {
				t.Errorf("ok %v, finished %v; want ok %v, finished %v:\n%s", ok, rep.Finished, tt.ok, tt.finished, text)
			}
			for _, want := range []string{tt.decided, tt.result, "not part of the game"} {
				if !strings.Contains(text, want) {
					t.Errorf("kakure verify says:\n%s\nwant it to mention %q", text, want)
				}
			}
			if tt.ok && lastLine(text) != tt.result {
				t.Errorf("kakure verify's last line is %q, want %q", lastLine(text), tt.result)
			}
			if strings.Contains(text, "while confirming the result (") || strings.Contains(text, "VIOLATION of T-10") ||
				strings.Contains(text, "VIOLATION of T-12") || strings.Contains(text, "VIOLATION of T-14") {
				t.Errorf("kakure verify names the later message as the violation:\n%s", text)
			}
			if !tt.finished && !strings.Contains(text, "not a finished game") {
				t.Errorf("kakure verify says:\n%s\nwant it to say the game is not finished", text)
			}
			later := len(rep.Late) + rep.Ignored
			if later != 1 {
				t.Errorf("%d message(s) not part of the game (late %+v, ignored %d), want 1", later, rep.Late, rep.Ignored)
			}
			for _, l := range rep.Late {
				if l.Accused != tt.late || !strings.Contains(text, "of the "+tt.late.String()+" is not part of the game") {
					t.Errorf("late message %+v, want the %s's listed:\n%s", l, tt.late, text)
				}
			}
		})
	}
}
