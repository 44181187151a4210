package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/watch"
)

// spectatingNetwork is a fakeNetwork with peers on the LAN and the
// spectators' side (Spectating): its listings are given, its watches
// real, on a hub of its own watching a publisher's hub on loopback.
type spectatingNetwork struct {
	*fakeNetwork
	lan     chan LANPeer
	live    map[string][]watch.LiveGame
	hub     *watch.Hub
	pub     host.Host
	me      host.Host
	watched chan protocol.GameID
}

func (n *spectatingNetwork) LANPeers() <-chan LANPeer { return n.lan }
func (n *spectatingNetwork) WatchCommand(id protocol.GameID) string {
	return "kakure watch " + n.ID() + "/" + id.String()
}
func (n *spectatingNetwork) HostWatchCode(context.Context, protocol.GameID, string) (string, func(), error) {
	return "maple-otter-quail", func() {}, nil
}
func (n *spectatingNetwork) LiveGames(_ context.Context, p string) ([]watch.LiveGame, error) {
	return n.live[p], nil
}
func (n *spectatingNetwork) Watch(ctx context.Context, p string, game protocol.GameID) (*watch.Watch, error) {
	n.watched <- game
	if err := n.me.Connect(ctx, peer.AddrInfo{ID: n.pub.ID(), Addrs: n.pub.Addrs()}); err != nil {
		return nil, err
	}
	return n.hub.Watch(ctx, n.pub.ID(), game)
}

// TestSPECD14LobbyWatchesLANGames: the lobby lists under a peer found on
// the LAN the games it plays now, as it listed them (the variant and
// size, the players, the moves: SPEC-D14); Enter on one opens the
// spectator screen of that game inside the lobby program (UI-D48), and q
// goes back to the lobby. The play screen of the player's own game
// tells how to watch it: the command, then the watch code (SPEC-D13).
func TestSPECD14LobbyWatchesLANGames(t *testing.T) {
	pub, me := testnet.Host(t), testnet.Host(t)
	pubHub, err := watch.New(pub, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pubHub.Close()
	hub, err := watch.New(me, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	live := []watch.LiveGame{
		{Game: protocol.GameID{0xab, 1}, Variant: "phantom", Size: 9, Peers: [2]string{pub.ID().String(), "12D3KooWOther"}, Names: [2]string{"alice", "bob"}, Moves: 12},
		{Game: protocol.GameID{0xcd, 2}, Variant: "go", Size: 13, Peers: [2]string{pub.ID().String(), "12D3KooWThird"}, Names: [2]string{"alice", "carol"}, Moves: 3},
	}
	game := newLiveRecord(t, "go", protocol.Inviter)
	net := &spectatingNetwork{
		fakeNetwork: &fakeNetwork{game: game, bot: make(chan engine.Options, 1), invitations: make(chan *Invitation), accepted: make(chan GameConn, 1)},
		lan:         make(chan LANPeer, 1), live: map[string][]watch.LiveGame{pub.ID().String(): live},
		hub: hub, pub: pub, me: me, watched: make(chan protocol.GameID, 1)}
	s := tcell.NewSimulationScreen("UTF-8")
	s.SetSize(120, 40)
	app := NewApp(AppConfig{Network: net, Defaults: options(t, engine.VariantGo, 5), SaveDir: t.TempDir(), Screen: s})
	done := make(chan error, 1)
	go func() { done <- app.Run() }()
	defer func() {
		app.Stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	waitScreen(t, app, s, "kakure — lobby")
	net.lan <- LANPeer{ID: pub.ID().String(), Addrs: []string{"/ip4/192.168.1.7/tcp/4001"}}
	waitScreen(t, app, s, "watch: Phantom Go 9×9 · 12")
	waitScreen(t, app, s, "watch: Go 13×13 · 3 moves")
	// ^P, down to the second game (the peer's row is first), Enter.
	s.InjectKey(tcell.KeyCtrlP, 0, tcell.ModCtrl)
	time.Sleep(50 * time.Millisecond)
	s.InjectKey(tcell.KeyDown, 0, tcell.ModNone)
	s.InjectKey(tcell.KeyDown, 0, tcell.ModNone)
	s.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	select {
	case g := <-net.watched:
		if g != live[1].Game {
			t.Errorf("the lobby watches %s, want the second game %s", g, live[1].Game)
		}
	case <-time.After(testenv.Duration(10 * time.Second)):
		t.Fatal("Enter on a live game watched nothing")
	}
	waitScreen(t, app, s, "game "+live[1].Game.String()[:8])
	s.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	waitScreen(t, app, s, "kakure — lobby")
	// A peer gone from the LAN takes its games along.
	net.lan <- LANPeer{ID: pub.ID().String(), Gone: true}
	deadline := testenv.Deadline(10 * time.Second)
	for strings.Contains(waitScreen(t, app, s, "kakure — lobby"), "watch: ") {
		if time.Now().After(deadline) {
			t.Fatal("the games of a peer gone from the LAN are still listed")
		}
		time.Sleep(20 * time.Millisecond)
	}

	// The player's own game: how to watch it.
	net.accepted <- game
	// "kakure watch PEERID/GAME", wrapped in the log's column.
	waitScreen(t, app, s, "Spectators: kakure watch")
	waitScreen(t, app, s, net.ID()+"/")
	waitScreen(t, app, s, game.ID().String())
	waitScreen(t, app, s, "Spectators: kakure watch maple-otter-quail")
}
