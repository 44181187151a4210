package session_test

import (
	"crypto/rand"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// cheatOn returns a tamper hook that lets every message through except the
// nth message of the given kind, which f replaces.
func cheatOn(kind protocol.Kind, n int, f func(m *protocol.Message, key crypto.PrivKey) [][]byte) func(*protocol.Message, crypto.PrivKey) [][]byte {
	seen := 0
	return func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		if m.Kind != kind {
			return nil
		}
		seen++
		if seen != n {
			return nil
		}
		return f(m, key)
	}
}

// resign re-signs m with key after a change.
func resign(t *testing.T, m *protocol.Message, key crypto.PrivKey) {
	if err := m.Sign(key); err != nil {
		t.Fatal(err)
	}
}

// playWithCheater plays random bots where the inviter (peer 0) cheats with
// the tamper hook, and returns the honest invitee's game.
func playWithCheater(t *testing.T, o engine.Options, hook func(*protocol.Message, crypto.PrivKey) [][]byte) *session.Game {
	t.Helper()
	return playCheatingGame(t, o, func(c *session.Config) { session.SetTamper(c, hook) }, bot.NewRandom(2))
}

// checkCaught asserts that the honest peer (invitee) reported the cheating
// inviter for the rule, won by forfeit, and that Verify on its saved record
// names the same violation.
func checkCaught(t *testing.T, h *session.Game, rule, detail string) {
	t.Helper()
	out := h.Outcome()
	if out == nil || out.Violation == nil {
		t.Fatalf("honest peer's outcome %+v has no violation", out)
	}
	v := out.Violation
	if v.Accused != protocol.Inviter || v.Rule != rule || !strings.Contains(v.Detail, detail) {
		t.Errorf("violation %v, want %s by the inviter mentioning %q", v, rule, detail)
	}
	if out.Result.By != engine.ByForfeit || out.Result.Winner != h.View().Color {
		t.Errorf("result %v, want a forfeit win for the honest %s", out.Result, h.View().Color)
	}
	tr, err := session.LoadTranscript(h.RecordPath())
	if err != nil {
		t.Fatalf("honest record: %v", err)
	}
	rep := protocol.Verify(tr)
	if rep.Violation == nil || rep.Violation.Accused != protocol.Inviter || rep.Violation.Rule != rule {
		t.Errorf("Verify found %+v, want %s by the inviter", rep.Violation, rule)
	}
}

// checkDropped asserts that the honest peer (invitee) dropped the
// cheating inviter's input that proves nothing (T-10): it filed no report,
// the game went on to its end by the rules (the other program sent the
// message again on a new stream), and Verify on the honest record finds
// a finished game with no violation and no report.
func checkDropped(t *testing.T, h *session.Game) {
	t.Helper()
	out := h.Outcome()
	if out == nil || out.Report != nil || out.Disputed() || out.Result.By == engine.ByForfeit {
		t.Fatalf("honest peer's outcome %+v, want the game's end by the rules", out)
	}
	tr, err := session.LoadTranscript(h.RecordPath())
	if err != nil {
		t.Fatalf("honest record: %v", err)
	}
	for _, m := range tr.Messages {
		if m.Kind == protocol.KindViolation {
			t.Errorf("the %s filed a report (%s): dropped input proves nothing", m.From, m.Body)
		}
	}
	rep := protocol.Verify(tr)
	text, ok := rep.Describe(tr.Peers)
	if !ok || !rep.Finished || rep.Violation != nil || len(rep.Standing) != 0 {
		t.Errorf("Verify on the honest record: ok %v, %q; want a finished game with no violation", ok, text)
	}
}

var goOpts = engine.Options{Variant: engine.VariantGo, Size: 5}

func TestCheatMoveOutOfTurn(t *testing.T) {
	hook := cheatOn(protocol.KindMove, 2, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		extra := *m
		extra.Seq++
		extra.Prev = m.Hash()
		extra.Body = session.MustEncodeBody(protocol.MoveBody{Point: "pass"})
		extra.Sign(key)
		return [][]byte{session.FrameOf(m), session.FrameOf(&extra)}
	})
	// The honest player waits for its game to end after the cheater's
	// second move, so the extra move reaches it while it is still its own
	// turn.
	h := playCheatingGame(t, goOpts, func(c *session.Config) { session.SetTamper(c, hook) },
		&waitsForCheat{p: bot.NewRandom(2), after: 2})
	checkCaught(t, h, "T-3", "out of turn")
}

func TestCheatReplayOldMessage(t *testing.T) {
	h := playWithCheater(t, goOpts, cheatOn(protocol.KindMove, 2, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		return [][]byte{session.FrameOf(m), session.FrameOf(m)}
	}))
	// A copy proves nothing against its signer: anyone holding the
	// message can send it again (T-13). It is dropped (T-10).
	checkDropped(t, h)
}

func TestCheatSignsWithAnotherKey(t *testing.T) {
	t.Parallel()
	other, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	h := playWithCheater(t, goOpts, cheatOn(protocol.KindMove, 2, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		m.Sign(other)
		return [][]byte{session.FrameOf(m)}
	}))
	// A bad signature is nobody's signed word (T-13): dropped, and the
	// stream started again, on which the move comes signed (T-10).
	checkDropped(t, h)
}

func TestCheatTwoMessagesSameSequence(t *testing.T) {
	h := playWithCheater(t, goOpts, cheatOn(protocol.KindMove, 3, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		twin := *m
		twin.Body = session.MustEncodeBody(protocol.MoveBody{Point: "pass"})
		if string(twin.Body) == string(m.Body) {
			twin.Body = session.MustEncodeBody(protocol.MoveBody{Point: "A1"})
		}
		twin.Sign(key)
		return [][]byte{session.FrameOf(m), session.FrameOf(&twin)}
	}))
	checkCaught(t, h, "T-3", "same sequence number")
}

func TestCheatMessageAboveSizeCap(t *testing.T) {
	t.Parallel()
	h := playWithCheater(t, goOpts, cheatOn(protocol.KindMove, 2, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		return [][]byte{make([]byte, protocol.MaxFrameSize+1)}
	}))
	// An oversized frame carries no signed evidence (T-13): dropped with
	// its stream; the move comes again on the next one (T-10).
	checkDropped(t, h)
}

func TestCheatIllegalMove(t *testing.T) {
	var first string
	h := playWithCheater(t, goOpts, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		if m.Kind != protocol.KindMove {
			return nil
		}
		var mb protocol.MoveBody
		if first == "" {
			mb = protocol.MoveBody{}
			// remember the first point played, replay it later onto the stone
			first = string(m.Body)
			return nil
		}
		m.Body = []byte(first)
		m.Sign(key)
		_ = mb
		return [][]byte{session.FrameOf(m)}
	})
	checkCaught(t, h, "GO-1", "illegal move")
}
