package session_test

import (
	"context"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// reportRecordGames are the games of testdata/records in which the
// inviter's program cheats (its tamper hook, made by cheat for each game)
// and the honest invitee reports it with the signed proof (T-13): the
// record written is the invitee's, which ends with its report. The
// package's Example of the judge (protocol/example_test.go) reads it.
var reportRecordGames = []struct {
	name    string
	o       engine.Options
	cheater func() bot.Player
	// honest waits, once the cheater has made its cheating move, for the
	// game to end (by its report) before it moves again, so that the
	// report follows that move in every run.
	honest func() *waitsForCheat
	cheat  func(t *testing.T) func(*protocol.Message, crypto.PrivKey) [][]byte
}{
	// Equivocation (T-3): the inviter's third move is sent twice, the
	// second time as another move signed with the same sequence number.
	// The inviter takes Black (HC-D2), so that no coin toss changes the
	// colours, the moves or the result from one writing to the next.
	{"go-equivocation", engine.Options{Variant: engine.VariantGo, Size: 5, InviterColor: engine.Black}, randomBot(19),
		func() *waitsForCheat { return &waitsForCheat{p: bot.NewRandom(20), after: 3} }, equivocateOnMove(3)},
}

// equivocateOnMove returns a maker of the tamper hook that sends the nth
// move message and then a twin of it: another move (a pass, or A1 if the
// move was a pass) with the same sequence number, signed with the same
// key.
func equivocateOnMove(n int) func(t *testing.T) func(*protocol.Message, crypto.PrivKey) [][]byte {
	return func(t *testing.T) func(*protocol.Message, crypto.PrivKey) [][]byte {
		return cheatOn(protocol.KindMove, n, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
			twin := *m
			twin.Body = session.MustEncodeBody(protocol.MoveBody{Point: "pass"})
			if string(twin.Body) == string(m.Body) {
				twin.Body = session.MustEncodeBody(protocol.MoveBody{Point: "A1"})
			}
			resign(t, &twin, key)
			return [][]byte{session.FrameOf(m), session.FrameOf(&twin)}
		})
	}
}

// playRecordReport plays o on p's services between the cheater's player
// (the inviter) and the honest one (the invitee), and returns the honest
// invitee's game once it is over; the cheater's game is closed if it
// still runs a moment later.
func playRecordReport(t *testing.T, p *pair, o engine.Options, cheater bot.Player, honest *waitsForCheat) *session.Game {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()
	h, g0 := playCheatOn(t, ctx, p, o, cheater, honest)
	out := h.Outcome()
	if out == nil || out.Report == nil || out.Report.Verdict != protocol.VerdictProven || out.Violation == nil || out.Violation.Accused != protocol.Inviter {
		t.Fatalf("the honest outcome %+v, want the cheating inviter convicted on the invitee's report", out)
	}
	wait, stop := context.WithTimeout(ctx, 5*time.Second)
	defer stop()
	if g0.Wait(wait) != nil {
		g0.Close()
	}
	return h
}
