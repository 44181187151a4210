package main

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/watch"
)

// holdingPublisher passes publications on to a hub, but holds the game
// (Publish runs with the game's lock held) before the one numbered at
// until release is closed.
type holdingPublisher struct {
	hub     *watch.Hub
	at      int
	mu      sync.Mutex
	n       int
	reached chan struct{}
	release chan struct{}
	free    sync.Once
}

// unhold lets the game go on (again: nothing).
func (p *holdingPublisher) unhold() { p.free.Do(func() { close(p.release) }) }

func (p *holdingPublisher) Publish(pub session.Publication) {
	p.mu.Lock()
	p.n++
	hold := p.n == p.at
	p.mu.Unlock()
	if hold {
		close(p.reached)
		<-p.release
	}
	p.hub.Publish(pub)
}

// TestSPECD13WatchCode: a player's program hosts a watch code on its
// kakure relay (as invite codes are hosted); `kakure watch CODE`, with
// that relay, finds the player through it, asks which game it plays now
// (SPEC-D14) and watches that game from its start (its backlog, SPEC-D8)
// to verify's verdict, and exits 0. The watch starts in the middle of
// the game: without the listing it would wait for the player's next
// game.
func TestSPECD13WatchCode(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(90*time.Second))
	defer cancel()
	relay, err := node.New(ctx, node.Config{Home: t.TempDir(), ListenAddrs: loopbackListen, Relay: &node.RelayConfig{}})
	if err != nil {
		t.Fatal(err)
	}
	defer relay.Close()
	relayAddr := relay.Addrs()[0].String()
	hold := &holdingPublisher{at: 10, reached: make(chan struct{}), release: make(chan struct{})}
	a, err := startPeerConfig(ctx, node.Config{Home: t.TempDir(), ListenAddrs: loopbackListen, Relays: []string{relayAddr}}, nil, true,
		func(c *session.Config) { c.Publisher = hold })
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	hold.hub = a.hub
	b, err := startPeerConfig(ctx, node.Config{Home: t.TempDir(), ListenAddrs: loopbackListen}, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	// A failing test lets the held game go, or closing the player would
	// wait for it (deferred calls run last first).
	defer hold.unhold()
	inv, err := a.node.HostInvite(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer inv.Close()
	if err := a.node.Host().Connect(ctx, peer.AddrInfo{ID: b.node.ID(), Addrs: b.node.Host().Addrs()}); err != nil {
		t.Fatal(err)
	}
	bots := testnet.StartBotGame(ctx, a.service, b.service, b.node.ID(), engine.Options{Variant: engine.VariantGo, Size: 5},
		[2]bot.Player{bot.New(bot.Level{Playouts: 60}, 1), bot.New(bot.Level{Playouts: 60}, 2)})
	var game protocol.GameID
	select {
	case <-hold.reached:
	case <-ctx.Done():
		t.Fatal("the game never reached its 10th publication")
	}
	for {
		if live := a.hub.LiveGames(); len(live) == 1 {
			game = live[0].Game
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the player's hub never listed its game")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Spoken as a player reads it: spaces, capitals.
	typed := strings.ToUpper(strings.ReplaceAll(inv.Code, "-", " "))
	out := &lockedWriter{}
	status := make(chan int, 1)
	go func() {
		env := &environment{stdin: strings.NewReader(""), stdout: out, stderr: out}
		status <- run(env, []string{"watch", "--relay", relayAddr, "--listen", loopbackListen[0], "--home", t.TempDir(), "--text", typed})
	}()
	// The watch subscribes once it chose the game.
	for len(a.hub.Subscribers(a.node.ID())) == 0 {
		select {
		case code := <-status:
			t.Fatalf("kakure watch exited with %d:\n%s", code, out.String())
		case <-ctx.Done():
			t.Fatalf("the spectator never subscribed:\n%s", out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	hold.unhold()
	bots.Wait(t)
	select {
	case code := <-status:
		text := out.String()
		if code != 0 {
			t.Fatalf("kakure watch exited with %d:\n%s", code, text)
		}
		for _, want := range []string{"watching game " + game.String() + " of " + a.node.ID().String(), "[verified] inviter 0 invite",
			"[verified] invitee 0 accept", "[verdict] ok: result"} {
			if !strings.Contains(text, want) {
				t.Errorf("kakure watch did not print %q:\n%s", want, text)
			}
		}
		if strings.Contains(text, "REFUSED") {
			t.Errorf("kakure watch refused a publication of an honest game:\n%s", text)
		}
	case <-ctx.Done():
		t.Fatalf("kakure watch did not end with the game:\n%s", out.String())
	}
}

// TestSPECD13WatchTarget: kakure watch takes a peer ID, PEERID/GAME or a
// watch code (any spelling ParseCode takes); with several live games
// and no code naming one, it lists them; the code picks its game.
func TestSPECD13WatchTarget(t *testing.T) {
	const id = "12D3KooWEUP6CJwqg5KsA2WfGfCiVhXRUPSPvAMVTmYAWR2Uj6eF"
	game := protocol.GameID{7}
	for _, c := range []struct {
		arg, code string
		game      protocol.GameID
		bad       bool
	}{
		{arg: id}, {arg: id + "/" + game.String(), game: game}, {arg: "Maple Otter Quail", code: "maple-otter-quail"},
		{arg: "maple-otter", bad: true}, {arg: id + "/xyz", bad: true}, {arg: "not-a-peer!/" + game.String(), bad: true},
	} {
		p, g, code, err := parseWatchTarget(c.arg)
		if (err != nil) != c.bad || code != c.code || g != c.game || (!c.bad && c.code == "" && p.String() != id) {
			t.Errorf("%q: peer %s, game %s, code %q, error %v", c.arg, p, g, code, err)
		}
	}
	pid, _ := peer.Decode(id)
	games := []watch.LiveGame{{Game: protocol.GameID{1}, Variant: "go", Size: 9}, {Game: protocol.GameID{2}, Variant: "phantom", Size: 9, Code: "acorn-acorn-acorn"}}
	if g, err := chooseLiveGame(pid, games, "acorn-acorn-acorn"); err != nil || g != games[1].Game {
		t.Errorf("the code's game: %s, %v", g, err)
	}
	if g, err := chooseLiveGame(pid, games[:1], "acorn-acorn-acorn"); err != nil || g != games[0].Game {
		t.Errorf("the only game: %s, %v", g, err)
	}
	if g, err := chooseLiveGame(pid, nil, ""); err != nil || g != (protocol.GameID{}) {
		t.Errorf("no live game: %s, %v (want the next game)", g, err)
	}
	_, err := chooseLiveGame(pid, games, "")
	if err == nil || !strings.Contains(err.Error(), id+"/"+games[1].Game.String()) || !strings.Contains(err.Error(), "Phantom") {
		t.Errorf("two live games, no code: %v", err)
	}
}

// TestSPECD14SpectatorsOffSaysNothing: kakure play with --spectators off
// (no hub) tells no watch command, hosts no watch code, asks no listing
// and watches nothing: the lobby then lists no game (SPEC-6, SPEC-D14).
func TestSPECD14SpectatorsOffSaysNothing(t *testing.T) {
	n := &playNetwork{me: &peerHandle{}}
	ctx := context.Background()
	const id = "12D3KooWEUP6CJwqg5KsA2WfGfCiVhXRUPSPvAMVTmYAWR2Uj6eF"
	if cmd := n.WatchCommand(protocol.GameID{1}); cmd != "" {
		t.Errorf("watch command %q", cmd)
	}
	if code, _, err := n.HostWatchCode(ctx, protocol.GameID{1}, id); err == nil {
		t.Errorf("watch code %q hosted", code)
	}
	if games, err := n.LiveGames(ctx, id); err == nil {
		t.Errorf("live games asked: %+v", games)
	}
	if _, err := n.Watch(ctx, id, protocol.GameID{1}); err == nil {
		t.Error("a watch started")
	}
}
