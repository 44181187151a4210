package session_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestMPCD31HostileReportFrames (MPC-D31, LIM-D8, LIM-D10, T-10): a
// hostile peer's report frames, each in a game of its own with the
// victim. A report frame in a game of plain Go (no certificates) and one
// announced above MaxReportSize are refused from the frame's header: the
// peer sends the header and a few bytes only, the victim drops the frame
// with the stream without waiting for the rest, charges nothing to its
// attachment budget and reports nothing (nobody signed it). A report
// frame that holds a signed message other than a violation report (a
// chat line padded beyond a message frame) is read within the budget and
// dropped (T-10): the chat line is not in the victim's record, and the
// budget is given back while the game goes on.
func TestMPCD31HostileReportFrames(t *testing.T) {
	parallelUnlessRace(t)
	log := &lockedBuffer{}
	a := newArena(t, true, func(c *session.Config) {
		c.AutoGrace = time.Minute // the attacker never plays
		c.Logger = slog.New(slog.NewTextHandler(io.MultiWriter(log, testWriter{t, 1}), &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	phantom := engine.Options{Variant: engine.VariantPhantom, Size: 5}
	header := func(n int) []byte { return append(binary.AppendUvarint(nil, uint64(n)), 'R') }
	cases := []struct {
		name    string
		options engine.Options
		// frame returns the bytes the attacker writes.
		frame func(invite, accept *protocol.Message, evil *rawPeer) []byte
		// dropped is in the victim's log when it drops the frame.
		dropped string
		// whole: the frame is sent whole and read (charged, given back).
		whole bool
	}{
		{"in a game of plain Go", engine.Options{Variant: engine.VariantGo, Size: 5},
			func(_, _ *protocol.Message, _ *rawPeer) []byte {
				return append(header(1<<20), bytes.Repeat([]byte{'{'}, 1<<10)...)
			}, "a report frame in a game of go, which has no certificates", false},
		{"above the cap", phantom,
			func(_, _ *protocol.Message, _ *rawPeer) []byte {
				return append(header(protocol.MaxReportSize+2), bytes.Repeat([]byte{'{'}, 1<<10)...)
			}, "a frame over the size cap", false},
		{"a chat line", phantom,
			func(invite, accept *protocol.Message, evil *rawPeer) []byte {
				chat := protocol.Message{Game: invite.Game, From: protocol.Inviter, Seq: 1, Prev: invite.Hash(), Ack: 0, AckHash: accept.Hash(),
					Kind: protocol.KindChat, Body: session.MustEncodeBody(protocol.ChatBody{Text: "a chat line in a report frame"})}
				if err := chat.Sign(evil.key); err != nil {
					t.Fatal(err)
				}
				body := append([]byte{'R'}, session.FrameOf(&chat)...)
				body = append(body, bytes.Repeat([]byte{' '}, protocol.MaxFrameSize)...)
				return append(binary.AppendUvarint(nil, uint64(len(body))), body...)
			}, "a report frame that holds no violation report", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evil := newRawPeer(t, a.vhost)
			id, _ := protocol.NewGameID()
			st, err := evil.open(a.ctx, a.vhost.ID())
			if err != nil {
				t.Fatal(err)
			}
			defer st.Reset()
			invite := evil.invitationOf(t, a.vhost.ID(), id, c.options)
			r, accept := invitedOn(t, st, id, invite)
			go io.Copy(io.Discard, r)
			_, peakBefore := a.victim.BulkHeld()
			st.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := st.Write(c.frame(invite, accept, evil)); err != nil {
				t.Logf("writing the frame: %v", err) // it may meet the reset
			}
			if !c.whole {
				// The rest of the frame never comes: a victim that waited
				// for it would hold the stream until its idle timeout.
				go keepAlive(st)
			}
			g := a.victim.Game(id)
			deadline := testenv.Deadline(10 * time.Second)
			for !strings.Contains(log.String(), c.dropped) {
				if time.Now().After(deadline) {
					t.Fatalf("the victim never dropped the frame (%q)", c.dropped)
				}
				time.Sleep(10 * time.Millisecond)
			}
			if !c.whole {
				for !g.View().Adjourned {
					if time.Now().After(deadline) {
						t.Fatalf("the victim never dropped the stream of the frame: %+v", g.View())
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			now, peak := a.victim.BulkHeld()
			switch {
			case !c.whole && peak > peakBefore:
				t.Errorf("the victim charged %d bytes for a frame refused from its header", peak-peakBefore)
			case c.whole && peak < protocol.MaxFrameSize:
				t.Errorf("the victim held at most %d bytes: the frame was not charged", peak)
			}
			for now != 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
				now, _ = a.victim.BulkHeld()
			}
			if now != 0 {
				t.Errorf("the victim still holds %d bytes after the frame was dropped", now)
			}
			if out := g.Outcome(); out != nil {
				t.Errorf("outcome %+v, want the game unchanged", out)
			}
			for _, m := range g.Transcript().Messages {
				if m.Kind == protocol.KindViolation || m.Kind == protocol.KindChat {
					t.Errorf("the victim's record holds %s %s", m.Kind, m.Body)
				}
			}
		})
	}
	a.checkVictimRecords(t)
}
