package session_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestT10FloodOfInvitations: a peer sends a hundred invitations, twenty
// at a time, and never plays the games it gets (it only keeps them
// alive). The victim never runs
// more games with it than MaxGamesPerPeer, declines the rest, forfeits
// the silent games after AutoGrace, plays an honest game meanwhile, and
// holds no goroutine for the flood once it is over.
func TestT10FloodOfInvitations(t *testing.T) {
	parallelUnlessRace(t)
	trackGoroutines(t)
	const perPeer = 4
	a := newArena(t, true, func(c *session.Config) { c.MaxGamesPerPeer = perPeer })
	a.honestGame(t, 1) // warm up libp2p's per-peer machinery
	baseline := goroutines(t)
	evil := newRawPeer(t, a.vhost)

	var accepted, declined, refused atomic.Int32
	var maxRunning atomic.Int32
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if n := int32(a.victim.RunningGames()); n > maxRunning.Load() {
				maxRunning.Store(n)
			}
			select {
			case <-stopSampling:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	var streams sync.Map
	var wg sync.WaitGroup
	sem := make(chan struct{}, 20)
	invitations := 100 * hostileScale(t)
	for range invitations {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			st, kind, reason, err := evil.invite(t, a.ctx, a.vhost.ID())
			if st != nil {
				streams.Store(st, true) // held open, silent but for keep-alives
				if err == nil && kind == protocol.KindAccept {
					go keepAlive(st)
				}
			}
			switch {
			case err != nil:
				refused.Add(1)
			case kind == protocol.KindAccept:
				accepted.Add(1)
			case kind == protocol.KindDecline:
				declined.Add(1)
				if !strings.Contains(reason, "too many") && !strings.Contains(reason, "busy") {
					t.Errorf("decline reason %q", reason)
				}
			default:
				t.Errorf("answer %s to an invitation", kind)
			}
		}()
	}
	a.honestGame(t, 2)
	wg.Wait()
	close(stopSampling)
	<-sampled
	t.Logf("%d invitations: %d accepted, %d declined, %d refused; at most %d games running at once",
		invitations, accepted.Load(), declined.Load(), refused.Load(), maxRunning.Load())
	if accepted.Load() == 0 || declined.Load() == 0 {
		t.Errorf("want some invitations accepted and some declined")
	}
	// The honest game ran beside at most perPeer games of the flood.
	if maxRunning.Load() > perPeer+1 {
		t.Errorf("%d games ran at once, the cap is %d per peer (+1 honest)", maxRunning.Load(), perPeer)
	}
	// The silent games end by forfeit (T-11) after AutoGrace, while the
	// flooder still holds their streams open.
	deadline := testenv.Deadline(10 * time.Second)
	for a.victim.RunningGames() > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := a.victim.RunningGames(); n > 0 {
		t.Errorf("%d games still run after the flood", n)
	}
	streams.Range(func(k, _ any) bool { k.(network.Stream).Reset(); return true })
	evil.h.Close()
	if n := a.checkVictimRecords(t); n < int(accepted.Load()) {
		t.Errorf("%d records for %d accepted games", n, accepted.Load())
	}
	waitGoroutines(t, baseline, 0)
}

// TestT10LIMD21AcceptedNobodyReads: a service whose Accepted channel nobody
// reads accepts sixteen invitations and declines the next at once as
// busy, instead of blocking its stream handlers forever; the accepted
// games are there for a reader that comes late. None of the first
// sixteen is declined as busy while the channel has room (LIM-D21: a game
// entering the channel was counted twice for a moment).
func TestT10LIMD21AcceptedNobodyReads(t *testing.T) {
	parallelUnlessRace(t)
	trackGoroutines(t)
	a := newArena(t, false, func(c *session.Config) { c.AutoGrace = time.Minute })
	baseline := goroutines(t)
	evil := newRawPeer(t, a.vhost)
	var streams []network.Stream
	kinds := map[protocol.Kind]int{}
	for i := range 20 {
		st, kind, reason, err := evil.invite(t, a.ctx, a.vhost.ID())
		if err != nil {
			t.Fatalf("invitation %d: %v", i, err)
		}
		streams = append(streams, st)
		kinds[kind]++
		if i >= 16 && (kind != protocol.KindDecline || !strings.Contains(reason, "busy")) {
			t.Errorf("invitation %d: %s %q, want a decline as busy", i, kind, reason)
		}
		if i < 16 && kind != protocol.KindAccept {
			t.Errorf("invitation %d: %s %q, want an acceptance (the Accepted queue has room)", i, kind, reason)
		}
	}
	if kinds[protocol.KindAccept] != 16 {
		t.Errorf("%d invitations accepted, want 16 (the Accepted queue)", kinds[protocol.KindAccept])
	}
	for _, st := range streams {
		st.Reset()
	}
	evil.h.Close()
	// A reader comes late: it gets the sixteen games, closes them and
	// reads their events to the end.
	for range 16 {
		select {
		case g := <-a.victim.Accepted():
			g.Close()
			for range g.Events() {
			}
		case <-time.After(testenv.Duration(5 * time.Second)):
			t.Fatal("fewer than 16 games in Accepted")
		}
	}
	waitGoroutines(t, baseline, 0)
}

// TestT10HundredsOfStreams: a peer opens 300 game streams at once and
// sends one byte on each. The victim resets all but a few at once (the
// resource manager or the limit of handshakes per peer), the rest when
// the handshake timeout expires, and plays an honest game meanwhile.
func TestT10HundredsOfStreams(t *testing.T) {
	parallelUnlessRace(t)
	trackGoroutines(t)
	const handshake = 3 * time.Second
	a := newArena(t, true, func(c *session.Config) { c.HandshakeTimeout = handshake })
	a.honestGame(t, 3)
	baseline := goroutines(t)
	evil := newRawPeer(t, a.vhost)
	n := int32(300 * hostileScale(t))
	var opened, reset, slow atomic.Int32
	var wg sync.WaitGroup
	start := time.Now()
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := evil.open(a.ctx, a.vhost.ID())
			if err != nil {
				reset.Add(1) // refused by the resource manager
				return
			}
			defer st.Reset()
			if _, err := st.Write([]byte{0x40}); err != nil {
				reset.Add(1)
				return
			}
			opened.Add(1)
			wrote := time.Now()
			st.SetReadDeadline(testenv.Deadline(10 * time.Second))
			if _, err := st.Read(make([]byte, 1)); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
				reset.Add(1)
			}
			if time.Since(wrote) > handshake*2/3 {
				slow.Add(1) // held until the handshake timeout
			}
		}()
	}
	a.honestGame(t, 4)
	wg.Wait()
	took := time.Since(start)
	t.Logf("%d streams: %d opened, %d reset by the victim, %d of them after the handshake timeout, in %v",
		n, opened.Load(), reset.Load(), slow.Load(), took)
	// Only the few streams within the per-peer limit of handshakes wait
	// for the timeout; the others are reset at once.
	if slow.Load() > 8 {
		t.Errorf("%d streams were held until the handshake timeout, the limit is 8 at once", slow.Load())
	}
	if reset.Load() != n {
		t.Errorf("%d of %d streams were not reset by the victim", n-reset.Load(), n)
	}
	if took > handshake+5*time.Second {
		t.Errorf("the streams were cut after %v, the handshake timeout is %v", took, handshake)
	}
	evil.h.Close()
	waitGoroutines(t, baseline, 0)
}

// TestT10HelloFlood: a peer in a game sends hello after hello, each
// claiming it has none of the victim's messages. The victim resends what
// is missing once per stream, not once per hello: a few bytes must not
// buy a copy of the whole game.
func TestT10HelloFlood(t *testing.T) {
	parallelUnlessRace(t)
	a := newArena(t, true, func(c *session.Config) { c.AutoGrace = time.Minute })
	evil := newRawPeer(t, a.vhost)
	st, kind, _, err := evil.invite(t, a.ctx, a.vhost.ID())
	if err != nil || kind != protocol.KindAccept {
		t.Fatalf("invitation: %s %v", kind, err)
	}
	defer st.Reset()
	var gameID protocol.GameID
	for _, id := range recordIDs(t, a) {
		gameID = id
	}
	hello, _ := json.Marshal(map[string]any{"hello": map[string]any{"game": gameID, "have": []int{1, 0}}})
	const hellos = 200
	var flood bytes.Buffer
	for range hellos {
		protocol.WriteFrame(&flood, hello)
	}
	if _, err := st.Write(flood.Bytes()); err != nil {
		t.Fatal(err)
	}
	st.SetReadDeadline(time.Now().Add(1500 * time.Millisecond))
	r := bufio.NewReader(st)
	copies := 0
	for {
		raw, err := protocol.ReadFrame(r, protocol.MaxFrameSize)
		if err != nil {
			break
		}
		if m := session.DecodeFrameMessage(raw); m != nil && m.Kind == protocol.KindAccept {
			copies++
		}
	}
	t.Logf("%d hellos on one stream: the acceptance was sent again %d times", hellos, copies)
	if copies > 1 {
		t.Errorf("%d copies of the acceptance for %d hellos, want at most 1", copies, hellos)
	}
	a.honestGame(t, 14)
}

// TestT10ChatFlood: a peer in a game sends chat line after chat line (the
// one message allowed at any time). The victim keeps MaxChatLines of them
// and takes the next as a violation (T-10) that ends the game: a peer
// cannot grow another's record without end.
func TestT10ChatFlood(t *testing.T) {
	a := newArena(t, true, func(c *session.Config) { c.AutoGrace = time.Minute })
	evil := newRawPeer(t, a.vhost)
	id, _ := protocol.NewGameID()
	st, err := evil.open(a.ctx, a.vhost.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Reset()
	invite := evil.invitation(t, a.vhost.ID(), id)
	_, accept := invitedOn(t, st, id, invite)
	lines := protocol.MaxChatLines + 50
	var flood bytes.Buffer
	prev := invite.Hash()
	for i := range lines {
		m := protocol.Message{Game: id, From: protocol.Inviter, Seq: uint64(i + 1), Prev: prev, Ack: 0, AckHash: accept.Hash(),
			Kind: protocol.KindChat, Body: session.MustEncodeBody(protocol.ChatBody{Text: strings.Repeat("spam ", 100)})}
		if err := m.Sign(evil.key); err != nil {
			t.Fatal(err)
		}
		prev = m.Hash()
		protocol.WriteFrame(&flood, session.FrameOf(&m))
	}
	go st.Write(flood.Bytes())
	a.honestGame(t, 15)
	g := a.victim.Game(id)
	if g == nil {
		t.Fatal("the victim has no game with the flooder")
	}
	if err := g.Wait(a.ctx); err != nil {
		t.Fatal(err)
	}
	out := g.Outcome()
	if out == nil || out.Violation == nil || out.Violation.Rule != "T-10" || out.Violation.Accused != protocol.Inviter {
		t.Fatalf("outcome %+v, want a T-10 violation of the flooder", out)
	}
	tr, err := session.LoadTranscript(g.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	chats := 0
	for _, m := range tr.Messages {
		if m.Kind == protocol.KindChat {
			chats++
		}
	}
	if chats != protocol.MaxChatLines {
		t.Errorf("the record keeps %d chat lines, want %d", chats, protocol.MaxChatLines)
	}
	if rep := protocol.Verify(tr); rep.Violation == nil || rep.Violation.Rule != "T-10" {
		t.Errorf("Verify: %+v", rep.Violation)
	}
}

// TestT10MaxGames: invitations from many peers (each within its own
// share) stop being accepted once MaxGames games run on the node.
func TestT10MaxGames(t *testing.T) {
	a := newArena(t, true, func(c *session.Config) { c.MaxGames, c.AutoGrace = 3, time.Minute })
	accepted, declined := 0, 0
	for range 3 {
		evil := newRawPeer(t, a.vhost)
		for range 2 {
			st, kind, reason, err := evil.invite(t, a.ctx, a.vhost.ID())
			if err != nil {
				t.Fatal(err)
			}
			defer st.Reset()
			switch kind {
			case protocol.KindAccept:
				accepted++
				go keepAlive(st)
			case protocol.KindDecline:
				declined++
				if !strings.Contains(reason, "too many games") {
					t.Errorf("decline reason %q", reason)
				}
			}
		}
	}
	if accepted != 3 || declined != 3 || a.victim.RunningGames() != 3 {
		t.Errorf("%d accepted, %d declined, %d running; want 3, 3, 3 (MaxGames)", accepted, declined, a.victim.RunningGames())
	}
}
