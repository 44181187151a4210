package session_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/phantomrules"
	"github.com/kakure/kakure/protocol/session"
)

// TestT11SilentPeer: a peer that takes the stream and never answers.
// Invited by the victim, it makes Invite fail after the idle timeout;
// inviting the victim and then saying nothing but keep-alives, it
// forfeits its game after AutoGrace (T-11) and the victim's record says
// so.
func TestT11SilentPeer(t *testing.T) {
	parallelUnlessRace(t)
	trackGoroutines(t)
	a := newArena(t, true, nil)
	a.honestGame(t, 7)
	baseline := goroutines(t)
	evil := newRawPeer(t, a.vhost)
	evil.h.SetStreamHandler(protocol.GameProtocol, func(st network.Stream) {
		go func() { // read everything, answer nothing
			buf := make([]byte, 4096)
			for {
				if _, err := st.Read(buf); err != nil {
					return
				}
			}
		}()
	})
	start := time.Now()
	ctx, cancel := context.WithTimeout(a.ctx, testenv.Duration(30*time.Second))
	defer cancel()
	g, err := a.victim.Invite(ctx, evil.h.ID(), engine.Options{Variant: engine.VariantGo, Size: 5})
	t.Logf("invitation to a silent peer: %v after %v", err, time.Since(start))
	if err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("Invite of a silent peer returned %v after %v, want an error after the 2s idle timeout", err, time.Since(start))
	}
	if g != nil {
		g.Close()
	}

	st, kind, _, err := evil.invite(t, a.ctx, a.vhost.ID())
	if err != nil || kind != protocol.KindAccept {
		t.Fatalf("invitation: %s %v", kind, err)
	}
	defer st.Reset()
	go keepAlive(st)
	a.honestGame(t, 8)
	var silent *session.Game
	deadline := testenv.Deadline(5 * time.Second)
	for silent == nil && time.Now().Before(deadline) {
		for _, id := range recordIDs(t, a) {
			if g := a.victim.Game(id); g != nil && g.Peer() == evil.h.ID() && g.Role() == protocol.Invitee {
				silent = g
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if silent == nil {
		t.Fatal("the victim has no game with the silent inviter")
	}
	if err := silent.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	out := silent.Outcome()
	if out == nil || out.Violation == nil || out.Violation.Rule != "T-11" || out.Violation.Accused != protocol.Inviter {
		t.Errorf("outcome %+v, want a T-11 forfeit of the silent inviter", out)
	}
	tr, err := session.LoadTranscript(silent.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	if rep := protocol.Verify(tr); rep.Violation == nil || rep.Violation.Rule != "T-11" {
		t.Errorf("Verify on the record: %+v", rep.Violation)
	}
	st.Reset()
	evil.h.Close()
	waitGoroutines(t, baseline, 0)
}

// TestT11DisconnectMidGame: a peer vanishes (its host closes) in the
// middle of a game: of plain Go between two moves, of Phantom Go in the
// middle of the secure computation of a try. The victim's game is
// adjourned with a valid record that Unfinished lists, an honest game
// completes meanwhile, and once the adjourned game is closed nothing of
// it remains running.
func TestT11DisconnectMidGame(t *testing.T) {
	parallelUnlessRace(t)
	tests := []struct {
		name string
		o    engine.Options
		// vanish makes the peer on h vanish at some point of the game
		// and close gone: through its player p, or its config c.
		vanish func(h host.Host, gone chan struct{}, c *session.Config) bot.Player
	}{
		{"T-11 plain Go between moves", engine.Options{Variant: engine.VariantGo, Size: 5},
			func(h host.Host, gone chan struct{}, _ *session.Config) bot.Player {
				return &vanisher{p: bot.NewRandom(12), after: 3, h: h, gone: gone}
			}},
		{"T-11 Phantom Go in a secure computation", engine.Options{Variant: engine.VariantPhantom, Size: 5},
			func(h host.Host, gone chan struct{}, c *session.Config) bot.Player {
				var once sync.Once
				n := 0
				session.SetTamper(c, func(m *protocol.Message, _ crypto.PrivKey) [][]byte {
					if strings.HasPrefix(string(m.Kind), "phantom-") && m.Kind != phantomrules.KindCommit && m.Kind != phantomrules.KindSetup {
						if n++; n == 5 {
							once.Do(func() { go func() { h.Close(); close(gone) }() })
						}
					}
					return nil
				})
				return bot.NewRandom(12)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			trackGoroutines(t)
			a := newArena(t, true, nil)
			a.honestGame(t, 11)
			baseline := goroutines(t)
			evilHost := newHost(t)
			connect(t, evilHost, a.vhost)
			ec := session.Config{Host: evilHost, Dir: t.TempDir()}
			hostileTimeouts(&ec)
			gone := make(chan struct{})
			player := tt.vanish(evilHost, gone, &ec)
			evil, err := session.NewService(ec)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(a.ctx, testenv.Duration(30*time.Second))
			defer cancel()
			g, err := evil.Invite(ctx, a.vhost.ID(), tt.o)
			if err != nil {
				t.Fatal(err)
			}
			go bot.Run(ctx, g, player)
			select {
			case <-gone:
			case <-ctx.Done():
				t.Fatal("the vanishing peer never vanished")
			}
			evil.Close()
			a.honestGame(t, 13)
			vg := a.victim.Game(g.ID())
			if vg == nil {
				t.Fatal("the victim has no game with the vanished peer")
			}
			if out := vg.Outcome(); out != nil {
				t.Errorf("the game with the vanished peer ended: %+v, want it adjourned", out)
			}
			tr, err := session.LoadTranscript(vg.RecordPath())
			if err != nil {
				t.Fatal(err)
			}
			if rep := protocol.Verify(tr); rep.Violation != nil || rep.Messages != len(tr.Messages) {
				t.Errorf("Verify on the adjourned record: %+v", rep)
			}
			t.Logf("adjourned after %d messages", len(tr.Messages))
			ids, err := a.victim.Unfinished()
			if err != nil || len(ids) != 1 || ids[0] != g.ID() {
				t.Errorf("Unfinished = %v, %v; want the adjourned game", ids, err)
			}
			vg.Close()
			waitGoroutines(t, baseline, 0)
		})
	}
}

// vanisher plays with p, and after a number of moves closes its host in
// the middle of the game.
type vanisher struct {
	p     bot.Player
	after int
	h     host.Host
	moves int
	gone  chan struct{}
	once  sync.Once
}

func (v *vanisher) Choose(view protocol.View) protocol.Action {
	if v.moves >= v.after {
		v.once.Do(func() { v.h.Close(); close(v.gone) })
		return nil
	}
	v.moves++
	return v.p.Choose(view)
}

// TestT11PeerAcceptsThenFallsSilent: a peer accepts the victim's
// invitation and then says nothing but keep-alives. The victim's Invite
// returns, its coin toss commitment goes, and the silent peer forfeits
// after AutoGrace (T-11); the victim's record proves it.
func TestT11PeerAcceptsThenFallsSilent(t *testing.T) {
	parallelUnlessRace(t)
	a := newArena(t, true, nil)
	evil := newRawPeer(t, a.vhost)
	evil.h.SetStreamHandler(protocol.GameProtocol, func(st network.Stream) {
		r := bufio.NewReader(st)
		invite, err := readMessage(r, st, 5*time.Second)
		if err != nil || invite.Kind != protocol.KindInvite {
			st.Reset()
			return
		}
		accept := protocol.Message{Game: invite.Game, From: protocol.Invitee, Ack: 0, AckHash: invite.Hash(),
			Kind: protocol.KindAccept, Body: session.MustEncodeBody(struct{}{})}
		if err := accept.Sign(evil.key); err != nil {
			t.Error(err)
		}
		hello, _ := json.Marshal(map[string]any{"hello": map[string]any{"game": invite.Game, "have": []int{1, 0}}})
		protocol.WriteFrame(st, hello)
		protocol.WriteFrame(st, session.FrameOf(&accept))
		go io.Copy(io.Discard, st)
		keepAlive(st)
	})
	ctx, cancel := context.WithTimeout(a.ctx, testenv.Duration(20*time.Second))
	defer cancel()
	g, err := a.victim.Invite(ctx, evil.h.ID(), engine.Options{Variant: engine.VariantGo, Size: 5})
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	a.honestGame(t, 16)
	if err := g.Wait(ctx); err != nil {
		t.Fatalf("the game with the silent peer did not end: %v", err)
	}
	out := g.Outcome()
	if out == nil || out.Violation == nil || out.Violation.Rule != "T-11" || out.Violation.Accused != protocol.Invitee {
		t.Fatalf("outcome %+v, want a T-11 forfeit of the silent invitee", out)
	}
	tr, err := session.LoadTranscript(g.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	if rep := protocol.Verify(tr); rep.Violation == nil || rep.Violation.Rule != "T-11" || rep.Violation.Accused != protocol.Invitee {
		t.Errorf("Verify on the record: %+v", rep.Violation)
	}
}
