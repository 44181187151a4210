package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/watch"
	"github.com/kakure/kakure/ui"
)

// The spectators' side of `kakure play` (ui.Spectating): how others watch
// this program's games (SPEC-D13), and the games of the peers on the LAN
// to watch (SPEC-D14). With --spectators off the program has no hub: it
// tells no watch command, hosts no watch code, lists no game and answers
// no listing.

var _ ui.Spectating = (*playNetwork)(nil)

// errSpectatorsOff is what the spectators' side says with --spectators
// off.
var errSpectatorsOff = errors.New("spectators are off in this program (kakure play --spectators off)")

// WatchCommand implements ui.Spectating.
func (n *playNetwork) WatchCommand(id protocol.GameID) string {
	if n.me.hub == nil {
		return ""
	}
	return fmt.Sprintf("kakure watch %s/%s", n.ID(), id)
}

// HostWatchCode implements ui.Spectating: an invite code of this node
// (node.HostInvite), which the hub's listing names as the game's
// (SPEC-D13). A game against the built-in bot gets none.
func (n *playNetwork) HostWatchCode(ctx context.Context, id protocol.GameID, opponent string) (string, func(), error) {
	if n.me.hub == nil {
		return "", nil, errSpectatorsOff
	}
	n.botMu.Lock()
	bot := n.botPlaying[id] || (n.bot != nil && n.bot.node.ID().String() == opponent)
	n.botMu.Unlock()
	if bot {
		return "", nil, errors.New("a game against the built-in bot gets no watch code")
	}
	inv, err := n.me.node.HostInvite(ctx)
	if err != nil {
		return "", nil, n.codeError(err)
	}
	n.me.hub.SetCode(id, inv.Code)
	return inv.Code, func() {
		n.me.hub.SetCode(id, "")
		inv.Close()
	}, nil
}

// LiveGames implements ui.Spectating.
func (n *playNetwork) LiveGames(ctx context.Context, p string) ([]watch.LiveGame, error) {
	if n.me.hub == nil {
		return nil, errSpectatorsOff
	}
	pid, err := peer.Decode(p)
	if err != nil {
		return nil, fmt.Errorf("live games of %q: %w", p, err)
	}
	return n.me.hub.AskLiveGames(ctx, pid)
}

// Watch implements ui.Spectating: connected to the publisher first, so
// that the watch's first backlog request reaches it (SPEC-D8).
func (n *playNetwork) Watch(ctx context.Context, p string, game protocol.GameID) (*watch.Watch, error) {
	if n.me.hub == nil {
		return nil, errSpectatorsOff
	}
	pid, err := peer.Decode(p)
	if err != nil {
		return nil, fmt.Errorf("watch %q: %w", p, err)
	}
	if err := n.me.node.ConnectPeer(ctx, pid); err != nil {
		return nil, err
	}
	return n.me.hub.Watch(ctx, pid, game)
}
