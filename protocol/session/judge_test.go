package session_test

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// The judge's table test works on testdata/records/go.record.json, a 5×5
// game whose messages are signed with session.RecordTestKey: the invitee
// plays Black and moves first, the two chains alternate. Records are cut,
// and messages and reports added and signed with the peers' own keys, as a
// peer (honest or not) could sign them.

// goRecord loads the plain Go test record.
func goRecord(t *testing.T) *protocol.Transcript {
	t.Helper()
	tr, err := session.LoadTranscript(filepath.Join("..", "testdata", "records", "go.record.json"))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// cut returns a transcript of the first n messages of tr.
func cut(t *testing.T, tr *protocol.Transcript, n int) *protocol.Transcript {
	t.Helper()
	c := protocol.NewTranscript(tr.Game, tr.Peers[0], tr.Peers[1])
	for _, m := range tr.Messages[:n] {
		if err := c.Append(m); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// next returns role r's next message on tr, of kind with body, signed
// with r's key (not appended).
func next(t *testing.T, tr *protocol.Transcript, r protocol.Role, kind protocol.Kind, body any) protocol.Message {
	t.Helper()
	seq, prev := tr.Next(r)
	ack, ackHash := tr.AckFor(r)
	m := protocol.Message{Game: tr.Game, From: r, Seq: seq, Prev: prev, Ack: ack, AckHash: ackHash, Kind: kind,
		Body: session.MustEncodeBody(body)}
	resign(t, &m, session.RecordTestKey(r))
	return m
}

// add appends role r's next message to tr.
func add(t *testing.T, tr *protocol.Transcript, r protocol.Role, kind protocol.Kind, body any) {
	t.Helper()
	if err := tr.Append(next(t, tr, r, kind, body)); err != nil {
		t.Fatal(err)
	}
}

// verdict is what the judge must find, and kakure verify print.
type verdict struct {
	verdict protocol.Verdict
	// loser is the role that loses (for Unproven: none, the game is
	// disputed).
	loser protocol.Role
	rule  string
	// text is a part of kakure verify's text.
	text string
	// winner is the colour that wins, when the loser does not tell it
	// (before the coin toss the inviter counts as Black).
	winner engine.Color
}

// checkVerdict verifies tr, whose last message is a report, and checks
// the judgement, the outcome and kakure verify's text.
func checkVerdict(t *testing.T, tr *protocol.Transcript, want verdict) {
	t.Helper()
	rep := protocol.Verify(tr)
	text, ok := rep.Describe(tr.Peers)
	if ok {
		t.Errorf("kakure verify says ok: %q", text)
	}
	if !strings.Contains(text, want.text) {
		t.Errorf("kakure verify says %q, want it to mention %q", text, want.text)
	}
	o := rep.Outcome
	if want.verdict == protocol.VerdictUnproven || want.verdict == protocol.VerdictWithheld {
		// A report that proves nothing changes nothing (REC-D11); a
		// challenge asks for what is owed and changes nothing else
		// (REC-D12): the game goes on.
		if o != nil || rep.Finished {
			t.Fatalf("outcome %+v (finished %v), want the game to go on", o, rep.Finished)
		}
		if want.verdict == protocol.VerdictUnproven && (len(rep.Standing) != 1 || rep.Standing[0].Verdict != protocol.VerdictUnproven) {
			t.Errorf("standing reports %+v, want the report, unproven", rep.Standing)
		}
		return
	}
	if o == nil || o.Report == nil || !rep.Finished {
		t.Fatalf("outcome %+v (finished %v), want one decided by the report", o, rep.Finished)
	}
	if o.Report.Verdict != want.verdict {
		t.Fatalf("verdict %v (%s; %v), want %v", o.Report.Verdict, o.Report.Why, o.Report.Violation, want.verdict)
	}
	v := o.Violation
	if v == nil || v.Accused != want.loser || (want.rule != "" && v.Rule != want.rule) {
		t.Errorf("violation %v, want %s by the %s", v, want.rule, want.loser)
	}
	// The invitee plays Black in this record.
	winner := engine.Black
	if want.loser == protocol.Invitee {
		winner = engine.White
	}
	if want.winner != engine.Empty {
		winner = want.winner
	}
	if o.Result.Winner != winner || o.Result.By != engine.ByForfeit {
		t.Errorf("result %v, want a forfeit win for %v", o.Result, winner)
	}
}

// reportOn appends to tr a report by the invitee against the inviter with
// the given evidence frames.
func reportOn(t *testing.T, tr *protocol.Transcript, rule string, evidence ...[]byte) {
	t.Helper()
	add(t, tr, protocol.Invitee, protocol.KindViolation,
		protocol.ViolationBody{Accused: protocol.Inviter, Rule: rule, Detail: "reported in a test", Evidence: evidence})
}

// TestT13JudgeTable: each clause of T-13 both ways, on hand-made records
// re-signed with the peers' keys: what proves a violation (and against
// whom) and what proves nothing. The records end with the invitee's
// report against the inviter, made when the inviter is to move (its next
// message is number 6).
func TestT13JudgeTable(t *testing.T) {
	full := goRecord(t)
	const at = 13 // the invitee's move B3 (its message 6); the inviter is to move
	base := func() *protocol.Transcript { return cut(t, full, at) }
	inviterKey := session.RecordTestKey(protocol.Inviter)
	otherKey, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	// inviterNext is the inviter's next message as the record at `at`
	// calls for it, with a point, changed by f, signed by key.
	inviterNext := func(point string, key crypto.PrivKey, f func(m *protocol.Message)) []byte {
		tr := base()
		m := next(t, tr, protocol.Inviter, protocol.KindMove, protocol.MoveBody{Point: point})
		if f != nil {
			f(&m)
		}
		resign(t, &m, key)
		return session.FrameOf(&m)
	}
	held := full.Find(protocol.Inviter, 3) // its move C4
	heldCopy := *held
	changed := *held
	changed.Body = session.MustEncodeBody(protocol.MoveBody{Point: "A1"})
	resign(t, &changed, inviterKey)
	otherGame := func() []byte {
		m := changed
		m.Game[0] ^= 1
		resign(t, &m, inviterKey)
		return session.FrameOf(&m)
	}()
	tests := []struct {
		name     string
		rule     string
		evidence [][]byte
		want     verdict
	}{
		// Equivocation.
		{"equivocation: another message with a used number proves T-3", "T-3",
			[][]byte{session.FrameOf(&changed)}, verdict{protocol.VerdictProven, protocol.Inviter, "T-3", "same sequence number", engine.Empty}},
		{"a copy of a message the record holds proves nothing", "T-3",
			[][]byte{session.FrameOf(&heldCopy)}, verdict{verdict: protocol.VerdictUnproven, text: "changes nothing"}},
		{"a message of another game proves nothing", "T-3",
			[][]byte{otherGame}, verdict{verdict: protocol.VerdictUnproven, text: "another game"}},
		// The chain.
		{"a next message whose prev does not chain proves T-3", "T-3",
			[][]byte{inviterNext("A3", inviterKey, func(m *protocol.Message) { m.Prev[0] ^= 1 })},
			verdict{protocol.VerdictProven, protocol.Inviter, "T-3", "does not chain", engine.Empty}},
		{"a later message (a gap) proves nothing", "T-3",
			[][]byte{inviterNext("A3", inviterKey, func(m *protocol.Message) { m.Seq += 2 })},
			verdict{verdict: protocol.VerdictUnproven, text: "gap"}},
		// Acknowledgements.
		{"an ack of another version of the reporter's message proves nothing", "T-3",
			[][]byte{inviterNext("A3", inviterKey, func(m *protocol.Message) { m.AckHash[0] ^= 1 })},
			verdict{verdict: protocol.VerdictUnproven, text: "version of the reporter's message"}},
		{"an ack of a message the reporter's record lacks proves nothing", "T-3",
			[][]byte{inviterNext("A3", inviterKey, func(m *protocol.Message) { m.Ack += 3 })},
			verdict{verdict: protocol.VerdictUnproven, text: "version of the reporter's message"}},
		{"an ack that goes back proves T-3", "T-3",
			[][]byte{inviterNext("A3", inviterKey, func(m *protocol.Message) {
				m.Ack = 2
				m.AckHash = full.Find(protocol.Invitee, 2).Hash()
			})},
			verdict{protocol.VerdictProven, protocol.Inviter, "T-3", "went back", engine.Empty}},
		// The rules.
		{"a move the rules refuse proves its rule", "GO-1",
			[][]byte{inviterNext("D4", inviterKey, nil)}, verdict{protocol.VerdictProven, protocol.Inviter, "GO-1", "proven by signed messages", engine.Empty}},
		{"a valid next move proves the report false (T-14)", "GO-1",
			[][]byte{inviterNext("A3", inviterKey, nil)}, verdict{protocol.VerdictFalse, protocol.Invitee, "T-14", "false accusation", engine.Empty}},
		// Signatures.
		{"a refused move signed by another key (forged) proves nothing", "GO-1",
			[][]byte{inviterNext("D4", otherKey, nil)}, verdict{verdict: protocol.VerdictUnproven, text: "not signed by the accused"}},
		{"a refused move signed by the reporter's key proves nothing", "GO-1",
			[][]byte{inviterNext("D4", session.RecordTestKey(protocol.Invitee), nil)}, verdict{verdict: protocol.VerdictUnproven, text: "not signed by the accused"}},
		{"a message in the reporter's name signed by the accused proves T-3", "T-3",
			[][]byte{inviterNext("A3", inviterKey, func(m *protocol.Message) { m.From = protocol.Invitee })},
			verdict{protocol.VerdictProven, protocol.Inviter, "T-3", "in the name of", engine.Empty}},
		// Frames that hold no signed message.
		{"an oversized frame proves nothing", "T-10",
			[][]byte{make([]byte, protocol.MaxFrameSize+1)}, verdict{verdict: protocol.VerdictUnproven, text: "unreadable"}},
		{"a garbage frame proves nothing", "T-10",
			[][]byte{[]byte("{not json")}, verdict{verdict: protocol.VerdictUnproven, text: "unreadable"}},
		{"no evidence proves nothing", "T-3", nil, verdict{verdict: protocol.VerdictUnproven, text: "no evidence"}},
		{"proof among frames that prove nothing still proves", "GO-1",
			[][]byte{session.FrameOf(&heldCopy), inviterNext("D4", inviterKey, nil)},
			verdict{protocol.VerdictProven, protocol.Inviter, "GO-1", "VIOLATION", engine.Empty}},
		// T-11.
		{"T-11 while the accused is to move (not automatic) is false", "T-11", nil,
			verdict{protocol.VerdictFalse, protocol.Invitee, "T-14", "owed nothing the programs send by themselves", engine.Empty}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := base()
			reportOn(t, tr, tt.rule, tt.evidence...)
			checkVerdict(t, tr, tt.want)
		})
	}
}

// TestT11JudgeWithheldMessage (REC-D12): a T-11 report is a challenge
// when the accused owed an automatic message (its coin-toss opening): it
// changes nothing, and the game waits for the answer; the accused's
// opening answers it. It is a false accusation when the reporter was the
// one to send.
func TestT11JudgeWithheldMessage(t *testing.T) {
	full := goRecord(t)
	// After both toss commitments the inviter owes its opening.
	tr := cut(t, full, 4)
	reportOn(t, tr, "T-11")
	checkVerdict(t, tr, verdict{protocol.VerdictWithheld, protocol.Inviter, "T-11", "the inviter's answer to the invitee's challenge", engine.White})
	// The inviter's opening answers it: the game goes on, nobody blamed.
	if err := tr.Append(next(t, tr, protocol.Inviter, full.Messages[4].Kind, json.RawMessage(full.Messages[4].Body))); err != nil {
		t.Fatal(err)
	}
	rep := protocol.Verify(tr)
	if text, _ := rep.Describe(tr.Peers); rep.Violation != nil || rep.Outcome != nil || len(rep.Waiting) != 0 {
		t.Errorf("after the answer: violation %+v, outcome %+v, waiting %v:\n%s", rep.Violation, rep.Outcome, rep.Waiting, text)
	}
	// After the inviter's opening the invitee owes its own.
	tr = cut(t, full, 5)
	reportOn(t, tr, "T-11")
	checkVerdict(t, tr, verdict{protocol.VerdictFalse, protocol.Invitee, "T-14", "owed nothing the programs send by themselves", engine.Black})
}

// TestT13JudgeSameOnBothRecords: the accused's record holds a message it
// sent after the last one the report acknowledges (the two crossed). The
// judge rebuilds the game as the reporter had it, so the verdict is the
// same on the accused's record as on the reporter's (REC-D1).
func TestT13JudgeSameOnBothRecords(t *testing.T) {
	full := goRecord(t)
	const at = 13
	for _, tc := range []struct {
		name     string
		evidence func(crossed protocol.Message) protocol.Message
		want     verdict
	}{
		{"an illegal version of the crossed message", func(crossed protocol.Message) protocol.Message {
			m := crossed
			m.Body = session.MustEncodeBody(protocol.MoveBody{Point: "D4"})
			resign(t, &m, session.RecordTestKey(protocol.Inviter))
			return m
		}, verdict{protocol.VerdictProven, protocol.Inviter, "GO-1", "VIOLATION", engine.Empty}},
		{"the crossed message itself", func(crossed protocol.Message) protocol.Message { return crossed },
			verdict{protocol.VerdictFalse, protocol.Invitee, "T-14", "false accusation", engine.Empty}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reporter := cut(t, full, at)
			crossed := next(t, reporter, protocol.Inviter, protocol.KindMove, protocol.MoveBody{Point: "A3"})
			ev := tc.evidence(crossed)
			report := next(t, reporter, protocol.Invitee, protocol.KindViolation,
				protocol.ViolationBody{Accused: protocol.Inviter, Rule: "GO-1", Detail: "test", Evidence: [][]byte{session.FrameOf(&ev)}})
			accused := cut(t, full, at)
			for _, m := range []protocol.Message{crossed, report} {
				if err := accused.Append(m); err != nil {
					t.Fatal(err)
				}
			}
			if err := reporter.Append(report); err != nil {
				t.Fatal(err)
			}
			t.Run("reporter's record", func(t *testing.T) { checkVerdict(t, reporter, tc.want) })
			t.Run("accused's record", func(t *testing.T) { checkVerdict(t, accused, tc.want) })
		})
	}
}

// TestT14ReportAfterTheResultChangesNothing: once the rules fixed the
// result (the confirm phase), a report that proves nothing changes
// nothing and the reporter still states the result; a report after both
// results is not part of the game.
func TestT14ReportAfterTheResultChangesNothing(t *testing.T) {
	full := goRecord(t)
	n := len(full.Messages)
	wantResult := full.Messages[n-1]
	var rb protocol.ResultBody
	if err := json.Unmarshal(wantResult.Body, &rb); err != nil {
		t.Fatal(err)
	}
	t.Run("confirm phase", func(t *testing.T) {
		tr := cut(t, full, n-1) // the inviter stated the result, the invitee not yet
		reportOn(t, tr, "T-3", session.FrameOf(&full.Messages[n-2]))
		rep := protocol.Verify(tr)
		if rep.Finished || len(rep.Standing) != 1 || rep.Outcome == nil || rep.Outcome.Result.String() != rb.Result {
			t.Fatalf("report %+v, want the result %s standing, one unproven report, not finished", rep, rb.Result)
		}
		add(t, tr, protocol.Invitee, protocol.KindResult, rb)
		rep = protocol.Verify(tr)
		text, ok := rep.Describe(tr.Peers)
		if !ok || !rep.Finished || !strings.Contains(text, "ok: result "+rb.Result) || !strings.Contains(text, "unproven report") {
			t.Errorf("kakure verify: ok %v %q, want ok with the result %s and the unproven report listed", ok, text, rb.Result)
		}
	})
	t.Run("after both results", func(t *testing.T) {
		tr := cut(t, full, n)
		reportOn(t, tr, "GO-1", session.FrameOf(&full.Messages[n-2]))
		rep := protocol.Verify(tr)
		text, ok := rep.Describe(tr.Peers)
		if !ok || rep.Ignored != 1 || rep.Violation != nil || !strings.Contains(text, "ok: result "+rb.Result) {
			t.Errorf("kakure verify: ok %v %q (ignored %d, violation %v), want ok with the result %s", ok, text, rep.Ignored, rep.Violation, rb.Result)
		}
	})
	t.Run("a second standing report is refused", func(t *testing.T) {
		tr := cut(t, full, n-1)
		reportOn(t, tr, "T-3", session.FrameOf(&full.Messages[n-2]))
		reportOn(t, tr, "T-3", session.FrameOf(&full.Messages[n-2]))
		rep := protocol.Verify(tr)
		// The result was fixed before it: the refused report is not
		// part of the game (REC-D7), and the result stands.
		if len(rep.Late) != 1 || rep.Late[0].Accused != protocol.Invitee || rep.Late[0].Rule != "T-10" ||
			rep.Violation != nil || rep.Outcome == nil || rep.Outcome.Result.String() != rb.Result {
			t.Errorf("Verify: late %+v, violation %v, outcome %+v; want the invitee's second standing report refused (T-10, REC-D5) and the result %s standing",
				rep.Late, rep.Violation, rep.Outcome, rb.Result)
		}
	})
}

// TestT14CutOffRecordIsNotFinished: a record whose result statements were
// cut off does not verify as finished, whatever the rules give.
func TestT14CutOffRecordIsNotFinished(t *testing.T) {
	full := goRecord(t)
	for _, drop := range []int{1, 2} {
		tr := cut(t, full, len(full.Messages)-drop)
		rep := protocol.Verify(tr)
		text, ok := rep.Describe(tr.Peers)
		if ok || rep.Finished || !strings.Contains(text, "not a finished game") || strings.Contains(text, "ok:") {
			t.Errorf("%d result(s) cut off: ok %v, %q; want not finished", drop, ok, text)
		}
	}
	rep := protocol.Verify(full)
	if text, ok := rep.Describe(full.Peers); !ok || !rep.Finished {
		t.Errorf("the whole record: ok %v %q, want ok", ok, text)
	}
}

// recordJSON writes messages as a record file of tr's game and peers.
func recordJSON(t *testing.T, tr *protocol.Transcript, msgs []protocol.Message) []byte {
	t.Helper()
	data, err := json.Marshal(map[string]any{"format": protocol.RecordFormat, "game": tr.Game,
		"peers": []string{tr.Peers[0].String(), tr.Peers[1].String()}, "messages": msgs})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestT3RecordChainAndAckChecks: a record whose messages are each signed
// by their sender but do not chain, or acknowledge a message that is not
// the other's, is refused when it is read (T-3), and the error names the
// message and what is wrong with it.
func TestT3RecordChainAndAckChecks(t *testing.T) {
	full := goRecord(t)
	const i = 20 // a move of the middle of the game
	tests := []struct {
		name   string
		change func(m *protocol.Message)
		want   error
	}{
		{"prev does not chain", func(m *protocol.Message) { m.Prev[3] ^= 1 }, protocol.ErrBrokenChain},
		{"ack hash of another version", func(m *protocol.Message) { m.AckHash[3] ^= 1 }, protocol.ErrBadAck},
		{"ack of a message not sent yet", func(m *protocol.Message) { m.Ack += 5 }, protocol.ErrBadAck},
		{"ack goes back", func(m *protocol.Message) {
			m.Ack -= 2
			m.AckHash = full.Find(m.From.Other(), uint64(m.Ack)).Hash()
		}, protocol.ErrBadAck},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs := append([]protocol.Message(nil), full.Messages[:i+1]...)
			m := &msgs[i]
			tt.change(m)
			resign(t, m, session.RecordTestKey(m.From))
			_, err := protocol.ParseTranscript(recordJSON(t, full, msgs))
			if !errors.Is(err, tt.want) {
				t.Errorf("ParseTranscript: %v, want %v", err, tt.want)
			}
		})
	}
	// The same messages unchanged are a sound record.
	if _, err := protocol.ParseTranscript(recordJSON(t, full, full.Messages[:i+1])); err != nil {
		t.Errorf("the unchanged record: %v", err)
	}
}

// TestT14CutOffRecordsOfEveryVariant: the test record of every variant,
// cut before one or both result statements, is not a finished game; a
// record that a report ended (reportRecordGames) is finished, and not
// without its report.
func TestT14CutOffRecordsOfEveryVariant(t *testing.T) {
	t.Parallel() // computes and shares nothing: runs beside the tests that wait
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "records", "*.record.json"))
	if err != nil || len(paths) < 6 {
		t.Fatalf("test records %v: %v", paths, err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			full, err := session.LoadTranscript(path)
			if err != nil {
				t.Fatal(err)
			}
			n := len(full.Messages)
			whole := protocol.Verify(full)
			last, drops := protocol.KindResult, []int{1, 2}
			if text, ok := whole.Describe(full.Peers); full.Messages[n-1].Kind == protocol.KindViolation {
				if !whole.Finished || whole.Judgement == nil || whole.Judgement.Verdict != protocol.VerdictProven {
					t.Fatalf("the whole record, ended by a report: finished %v, %q", whole.Finished, text)
				}
				last, drops = protocol.KindViolation, []int{1}
			} else if !ok {
				t.Fatalf("the whole record: %q", text)
			}
			for _, drop := range drops {
				if full.Messages[n-drop].Kind != last {
					t.Fatalf("message %d is %s, not a %s", n-drop, full.Messages[n-drop].Kind, last)
				}
				tr := cut(t, full, n-drop)
				rep := protocol.Verify(tr)
				if text, ok := rep.Describe(tr.Peers); ok || rep.Finished || !strings.Contains(text, "not a finished game") {
					t.Errorf("without its last %d message(s): ok %v %q", drop, ok, text)
				}
			}
		})
	}
}

// TestT13CertificateJudge: a report of rule T-8 is handed to the judge of
// the certificates of T-8(b) (REC-D10): what a certificate proves
// convicts the accused, a certificate that proves nothing convicts the
// reporter (T-14), and evidence that is no certificate is judged on the
// accused's signed messages like any other. The judge is Phantom Go's and
// nothing can change it; a judge of the test's own (through
// JudgeLastReport) drives each of those ways on a plain Go record, and
// Verify, with Phantom Go's, the last two.
func TestT13CertificateJudge(t *testing.T) {
	full := goRecord(t)
	cert := []byte("a certificate")
	asked := 0
	judge := func(game protocol.GameID, peers [2]protocol.PeerID, accused protocol.Role, history []protocol.Message, evidence [][]byte) *protocol.Violation {
		asked++
		if game != full.Game || peers != full.Peers || len(evidence) != 1 {
			return nil
		}
		switch string(evidence[0]) {
		case string(cert):
			return &protocol.Violation{Accused: accused, Rule: "T-8", Seq: -1, Detail: "certificate of a deviating garbler"}
		case "a made-up certificate":
			return &protocol.Violation{Accused: accused.Other(), Rule: "T-14", Seq: -1, Detail: "false accusation (a certificate of nothing)"}
		}
		return nil
	}
	for _, tc := range []struct {
		name     string
		rule     string
		evidence string
		asked    int
		verdict  protocol.Verdict
		accused  protocol.Role
		rule2    string
	}{
		{"a certificate that proves the cheat", protocol.RuleCertificate, string(cert), 1, protocol.VerdictProven, protocol.Inviter, "T-8"},
		{"a certificate that proves nothing", protocol.RuleCertificate, "a made-up certificate", 1, protocol.VerdictFalse, protocol.Invitee, "T-14"},
		{"no certificate", protocol.RuleCertificate, "no certificate", 1, protocol.VerdictUnproven, protocol.Inviter, ""},
		{"a certificate under another rule", "T-3", string(cert), 0, protocol.VerdictUnproven, protocol.Inviter, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked = 0
			tr := cut(t, full, 13)
			reportOn(t, tr, tc.rule, []byte(tc.evidence))
			j, err := session.JudgeLastReport(tr, judge)
			if err != nil {
				t.Fatal(err)
			}
			if asked != tc.asked {
				t.Errorf("the certificate judge was asked %d times, want %d", asked, tc.asked)
			}
			if j.Verdict != tc.verdict || j.Violation == nil || j.Violation.Accused != tc.accused || (tc.rule2 != "" && j.Violation.Rule != tc.rule2) {
				t.Fatalf("judgement %v (%s; %+v), want %v against the %s (%s)", j.Verdict, j.Why, j.Violation, tc.verdict, tc.accused, tc.rule2)
			}
			if tc.verdict == protocol.VerdictFalse && j.Violation.Seq != int64(tr.Messages[len(tr.Messages)-1].Seq) {
				t.Errorf("the false accusation is dated %d, want the report's %d", j.Violation.Seq, tr.Messages[len(tr.Messages)-1].Seq)
			}
		})
	}
	// Phantom Go's judge, as every peer and kakure verify run it.
	tr := cut(t, full, 13)
	reportOn(t, tr, protocol.RuleCertificate, cert)
	checkVerdict(t, tr, verdict{protocol.VerdictUnproven, protocol.Inviter, "", "changes nothing", engine.Empty})
	frame := []byte(`{"certificate":"kakure/phantom/certificate/1","try":0,"opened":-1,"tables":"` + strings.Repeat("00", 32) + `","what":"x"}`)
	tr = cut(t, full, 13)
	reportOn(t, tr, protocol.RuleCertificate, frame, []byte("a commitment"))
	checkVerdict(t, tr, verdict{protocol.VerdictFalse, protocol.Invitee, "T-14", "false accusation (T-8 certificate)", engine.Empty})
}

// TestT3InvitationNamesTheRecordsPeers: the judge checks evidence against
// the peers the invitation names, so an invitation that names another
// peer than the record's is the inviter's proven T-3 (REC-D8).
func TestT3InvitationNamesTheRecordsPeers(t *testing.T) {
	full := goRecord(t)
	other, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	stranger, err := peer.IDFromPrivateKey(other)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		invitee string
		want    bool
	}{{"the record's invitee", full.Peers[1].String(), false}, {"another peer", stranger.String(), true}} {
		t.Run(tc.name, func(t *testing.T) {
			var body protocol.InviteBody
			if err := json.Unmarshal(full.Messages[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			body.Invitee = tc.invitee
			tr := protocol.NewTranscript(full.Game, full.Peers[0], full.Peers[1])
			add(t, tr, protocol.Inviter, protocol.KindInvite, body)
			rep := protocol.Verify(tr)
			found := rep.Violation != nil && rep.Violation.Accused == protocol.Inviter && rep.Violation.Rule == "T-3" && rep.Proven
			if found != tc.want {
				t.Errorf("Verify: %v (proven %v), want a T-3 of the inviter: %v", rep.Violation, rep.Proven, tc.want)
			}
		})
	}
}
