package session_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	pprotocol "github.com/libp2p/go-libp2p/core/protocol"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestT2OtherProtocolVersion: a peer that only speaks another version of
// the game protocol is reported clearly and at once, not by a hang: a
// later version, and 1.0.0, the version before report frames (MPC-D31),
// whose program would drop a large certificate and wait.
func TestT2OtherProtocolVersion(t *testing.T) {
	for _, other := range []string{"/kakure/game/2.0.0", "/kakure/game/1.0.0"} {
		t.Run(other, func(t *testing.T) { otherProtocolVersion(t, other) })
	}
}

func otherProtocolVersion(t *testing.T, other string) {
	a, b := newHost(t), newHost(t)
	b.SetStreamHandler(pprotocol.ID(other), func(s network.Stream) { s.Reset() })
	connect(t, a, b)
	// Wait for identify to tell a that b speaks other. Any protocol list is
	// not enough: b's identify answers from a snapshot of its protocols that
	// is updated in the background, so the first answer may predate the
	// handler just set, and only a later identify push carries it.
	deadline := testenv.Deadline(5 * time.Second)
	for told := false; !told; time.Sleep(10 * time.Millisecond) {
		ps, _ := a.Peerstore().GetProtocols(b.ID())
		for _, p := range ps {
			told = told || string(p) == other
		}
		if !told && time.Now().After(deadline) {
			t.Fatalf("identify never told a that b speaks %s (it lists %v)", other, ps)
		}
	}
	svc, err := session.NewService(session.Config{Host: a, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(10*time.Second))
	defer cancel()
	_, err = svc.Invite(ctx, b.ID(), engine.Options{Variant: engine.VariantGo})
	if !errors.Is(err, session.ErrOtherVersion) || !strings.Contains(err.Error(), other) {
		t.Fatalf("Invite error %v, want ErrOtherVersion naming %s", err, other)
	}
}

// TestT2InvitationOfAnotherVersion: an invitation that names another
// protocol version is declined at once with the reason, not left hanging.
func TestT2InvitationOfAnotherVersion(t *testing.T) {
	p := newPair(t)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(10*time.Second))
	defer cancel()
	st, err := p.hosts[0].NewStream(ctx, p.hosts[1].ID(), protocol.GameProtocol)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id, _ := protocol.NewGameID()
	body := protocol.InviteBody{Version: "9.9.9", Inviter: p.hosts[0].ID().String(), Invitee: p.hosts[1].ID().String(),
		Options: protocol.OptionsBody{Variant: "go", Size: 9, Komi: 7.5}}
	m := protocol.Message{Game: id, From: protocol.Inviter, Ack: -1, Kind: protocol.KindInvite, Body: session.MustEncodeBody(body)}
	if err := m.Sign(p.hosts[0].Peerstore().PrivKey(p.hosts[0].ID())); err != nil {
		t.Fatal(err)
	}
	for _, f := range [][]byte{session.HelloFrame(id), session.FrameOf(&m)} {
		if err := protocol.WriteFrame(st, f); err != nil {
			t.Fatal(err)
		}
	}
	st.SetReadDeadline(testenv.Deadline(5 * time.Second))
	r := bufio.NewReader(st)
	var decline *protocol.Message
	for decline == nil {
		raw, err := protocol.ReadFrame(r, protocol.MaxFrameSize)
		if err != nil {
			t.Fatalf("no decline: %v", err)
		}
		decline = session.DecodeFrameMessage(raw)
	}
	var db protocol.DeclineBody
	if err := json.Unmarshal(decline.Body, &db); err != nil || decline.Kind != protocol.KindDecline {
		t.Fatalf("answer %s %s, want a decline", decline.Kind, decline.Body)
	}
	if !strings.Contains(db.Reason, "9.9.9") || !strings.Contains(db.Reason, protocol.Version) {
		t.Errorf("decline reason %q does not name both versions", db.Reason)
	}
}

// TestT10GarbageFrame: a frame that is not a message, sent in place of
// the cheater's second move, is dropped (T-10): no report (nobody signed
// it, T-13), the honest state unchanged by it, and the stream started
// again, on which the cheater's program sends its move; the game ends by
// the rules and the honest record verifies with no violation.
func TestT10GarbageFrame(t *testing.T) {
	t.Parallel()
	h := playWithCheater(t, goOpts, cheatOn(protocol.KindMove, 2, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		return [][]byte{[]byte("{not json at all")}
	}))
	checkDropped(t, h)
}
