package session_test

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// trickle writes p one byte every interval until done or an error.
func trickle(st network.Stream, p []byte, interval time.Duration) (int, error) {
	for i := range p {
		if _, err := st.Write(p[i : i+1]); err != nil {
			return i, err
		}
		time.Sleep(interval)
	}
	return len(p), nil
}

// TestT10Trickle: a peer that sends its hello a byte at a time is cut off
// when the handshake timeout expires; one that trickles a message in the
// middle of a game is cut off by the idle timeout or forfeits (T-11).
// An honest game on the victim completes meanwhile.
func TestT10Trickle(t *testing.T) {
	parallelUnlessRace(t)
	trackGoroutines(t)
	a := newArena(t, true, nil)
	a.honestGame(t, 5)
	baseline := goroutines(t)
	evil := newRawPeer(t, a.vhost)
	done := make(chan struct{})
	go func() {
		defer close(done)
		id, _ := protocol.NewGameID()
		st, err := evil.open(a.ctx, a.vhost.ID())
		if err != nil {
			t.Error(err)
			return
		}
		defer st.Reset()
		start := time.Now()
		hello := framed(session.HelloFrame(id))
		n, err := trickle(st, hello, 100*time.Millisecond)
		if err == nil {
			// Writes may land in buffers: the reset shows on a read.
			st.SetReadDeadline(testenv.Deadline(5 * time.Second))
			_, err = st.Read(make([]byte, 1))
		}
		t.Logf("handshake trickle: %d of %d bytes in %v, then %v", n, len(hello), time.Since(start), err)
		if err == nil || time.Since(start) > testenv.Duration(5*time.Second) {
			t.Errorf("a hello trickled for %v was not cut (err %v)", time.Since(start), err)
		}
	}()
	// In a game: a proper invitation, then the coin toss a byte at a time.
	st, kind, _, err := evil.invite(t, a.ctx, a.vhost.ID())
	if err != nil || kind != protocol.KindAccept {
		t.Fatalf("invitation: %s %v", kind, err)
	}
	start := time.Now()
	_, err = trickle(st, bytes.Repeat([]byte{0x7f}, 200), 200*time.Millisecond)
	t.Logf("in-game trickle cut after %v: %v", time.Since(start), err)
	if err == nil {
		t.Error("an in-game trickle of 40s was never cut")
	}
	st.Reset()
	a.honestGame(t, 6)
	<-done
	evil.h.Close()
	a.checkVictimRecords(t)
	waitGoroutines(t, baseline, 3) // the trickler's game may stay adjourned
}

// TestT10GarbageHandshakes: streams that start with garbage, an
// oversized frame, a hello and then garbage, or invitations that are not
// valid are reset (or declined) without a game, a record or a goroutine
// left behind, and an honest game completes meanwhile.
func TestT10GarbageHandshakes(t *testing.T) {
	parallelUnlessRace(t)
	trackGoroutines(t)
	a := newArena(t, true, nil)
	a.honestGame(t, 9)
	baseline := goroutines(t)
	evil := newRawPeer(t, a.vhost)
	victim := a.vhost.ID()
	_, otherPub, _ := crypto.GenerateEd25519Key(rand.Reader)
	other, _ := peer.IDFromPublicKey(otherPub)
	inviteFrame := func(change func(m *protocol.Message), id protocol.GameID) []byte {
		m := evil.invitation(t, victim, id)
		change(m)
		return framed(session.FrameOf(m))
	}
	tests := []struct {
		name  string
		bytes func(id protocol.GameID) []byte
	}{
		{"T-10 not a frame", func(protocol.GameID) []byte { return []byte("GET / HTTP/1.1\r\n\r\n") }},
		{"T-10 oversized frame", func(protocol.GameID) []byte { return []byte{0xff, 0xff, 0xff, 0x7f} }},
		{"T-10 frame of garbage", func(protocol.GameID) []byte { return framed([]byte("{not json")) }},
		{"T-10 unknown field", func(protocol.GameID) []byte { return framed([]byte(`{"hello":{"game":"00"},"evil":1}`)) }},
		{"T-10 hello then garbage", func(id protocol.GameID) []byte {
			return append(framed(session.HelloFrame(id)), framed([]byte("]]]"))...)
		}},
		{"T-10 hello then a ping", func(id protocol.GameID) []byte {
			return append(framed(session.HelloFrame(id)), framed([]byte(`{"ping":true}`))...)
		}},
		{"T-3 hello then a move", func(id protocol.GameID) []byte {
			return append(framed(session.HelloFrame(id)), inviteFrame(func(m *protocol.Message) {
				m.Kind, m.Body = protocol.KindMove, session.MustEncodeBody(protocol.MoveBody{Point: "C3"})
				m.Sign(evil.key)
			}, id)...)
		}},
		{"T-3 invitation with a bad signature", func(id protocol.GameID) []byte {
			return append(framed(session.HelloFrame(id)), inviteFrame(func(m *protocol.Message) { m.Sig[0] ^= 1 }, id)...)
		}},
		{"T-3 invitation of another game", func(id protocol.GameID) []byte {
			other, _ := protocol.NewGameID()
			return append(framed(session.HelloFrame(id)), inviteFrame(func(*protocol.Message) {}, other)...)
		}},
		{"T-3 invitation naming other peers", func(id protocol.GameID) []byte {
			return append(framed(session.HelloFrame(id)), inviteFrame(func(m *protocol.Message) {
				var b protocol.InviteBody
				json.Unmarshal(m.Body, &b)
				b.Invitee = other.String()
				m.Body = session.MustEncodeBody(b)
				m.Sign(evil.key)
			}, id)...)
		}},
		{"T-10 invitation with bad options", func(id protocol.GameID) []byte {
			return append(framed(session.HelloFrame(id)), inviteFrame(func(m *protocol.Message) {
				var b protocol.InviteBody
				json.Unmarshal(m.Body, &b)
				b.Options.Size = 99
				m.Body = session.MustEncodeBody(b)
				m.Sign(evil.key)
			}, id)...)
		}},
		{"T-3 resume of a game that does not exist", func(id protocol.GameID) []byte {
			raw, _ := json.Marshal(map[string]any{"hello": map[string]any{"game": id, "have": []int{3, 2}}})
			return framed(raw)
		}},
	}
	for round := range 8 * hostileScale(t) { // several rounds, so that a leak shows
		for i, tt := range tests {
			if i == 0 && round > 0 {
				continue // it waits for the handshake timeout
			}
			id, _ := protocol.NewGameID()
			st, err := evil.open(a.ctx, victim)
			if err != nil {
				t.Fatalf("round %d, %s: %v", round, tt.name, err)
			}
			st.Write(tt.bytes(id))
			kind, _, err := readAnswer(st, 5*time.Second)
			if err == nil && kind != protocol.KindDecline {
				t.Errorf("%s: the victim answered %s", tt.name, kind)
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				t.Errorf("%s: the victim neither reset the stream nor answered", tt.name)
			}
			st.Reset()
			if g := a.victim.Game(id); g != nil && round == 0 {
				t.Errorf("%s: the victim registered a game", tt.name)
			}
		}
	}
	a.honestGame(t, 10)
	if n := a.checkVictimRecords(t); n != 2 {
		t.Errorf("%d records in the victim's directory, want the 2 honest games", n)
	}
	evil.h.Close()
	waitGoroutines(t, baseline, 0)
}

// TestT10InvitationReusesGameID: an invitation that reuses the ID of a
// game the victim has on disk (an adjourned game, not loaded) is
// declined, and the record of that game is left as it was.
func TestT10InvitationReusesGameID(t *testing.T) {
	a := newArena(t, true, nil)
	evil := newRawPeer(t, a.vhost)
	st, kind, _, err := evil.invite(t, a.ctx, a.vhost.ID())
	if err != nil || kind != protocol.KindAccept {
		t.Fatalf("first invitation: %s %v", kind, err)
	}
	st.Reset()
	ids := recordIDs(t, a)
	if len(ids) != 1 {
		t.Fatalf("%d records, want 1", len(ids))
	}
	id := ids[0]
	// The victim restarts: its game is on disk, not in memory.
	g := a.victim.Game(id)
	a.victim.Close()
	if g != nil {
		g.Wait(a.ctx)
	}
	path := filepath.Join(a.vdir, id.String()+".record.json")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	vc := session.Config{Host: a.vhost, Dir: a.vdir, Logger: testLogger(t, 1)}
	hostileTimeouts(&vc)
	restarted, err := session.NewService(vc)
	if err != nil {
		t.Fatal(err)
	}
	defer restarted.Close()
	st, err = evil.open(a.ctx, a.vhost.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Reset()
	protocol.WriteFrame(st, session.HelloFrame(id))
	// Another invitation (other options) under the same ID.
	protocol.WriteFrame(st, session.FrameOf(evil.invitationOf(t, a.vhost.ID(), id, engine.Options{Variant: engine.VariantGo, Size: 7})))
	kind, reason, err := readAnswer(st, 5*time.Second)
	if err == nil && (kind != protocol.KindDecline || !strings.Contains(reason, "ID")) {
		t.Errorf("answer %s %q, want a decline naming the game ID", kind, reason)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("the invitation overwrote the record of game %s", id)
	}
}

// TestT10AttachmentInAGameWithout: a peer sends an attachment (a bulk
// frame, as the Phantom Go computation does) in a game of plain Go. The
// victim takes it as a violation (T-10) at once, from the frame's header,
// instead of reading and holding it.
func TestT10AttachmentInAGameWithout(t *testing.T) {
	a := newArena(t, true, func(c *session.Config) { c.AutoGrace = time.Minute })
	evil := newRawPeer(t, a.vhost)
	st, kind, _, err := evil.invite(t, a.ctx, a.vhost.ID())
	if err != nil || kind != protocol.KindAccept {
		t.Fatalf("invitation: %s %v", kind, err)
	}
	defer st.Reset()
	ids := recordIDs(t, a)
	if len(ids) != 1 {
		t.Fatalf("%d records", len(ids))
	}
	// The victim refuses the attachment from its header (LIM-D8), before
	// its body is read: the write may meet the reset.
	if err := protocol.WriteFrame(st, append([]byte{'B'}, bytes.Repeat([]byte{0xa5}, 200<<10)...)); err != nil {
		t.Logf("writing the attachment: %v", err)
	}
	// It is dropped with the stream (T-10): no report (nobody signed it),
	// the game unchanged and adjourned until the other program comes
	// back on a new stream.
	g := a.victim.Game(ids[0])
	deadline := testenv.Deadline(10 * time.Second)
	for !g.View().Adjourned {
		if time.Now().After(deadline) {
			t.Fatalf("the victim's game never dropped the stream of the attachment: %+v", g.View())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if out := g.Outcome(); out != nil {
		t.Errorf("outcome %+v after an attachment, want the game unchanged", out)
	}
	for _, m := range g.Transcript().Messages {
		if m.Kind == protocol.KindViolation {
			t.Errorf("the victim reported %s: an attachment proves nothing", m.Body)
		}
	}
}
