package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/watch"
	"github.com/kakure/kakure/ui"
)

// peerHandle is a running kakure peer: its libp2p node, its game service
// and its log.
type peerHandle struct {
	node    *node.Node
	service *session.Service
	logFile *os.File
	// logger writes to logFile: the game service's log.
	logger *slog.Logger
	// hub publishes the peer's games for spectators; nil when they are
	// refused (SPEC-6).
	hub *watch.Hub
}

// startPeerConfig starts a node of configuration cfg, with its games in
// its home's games directory and its own log in games.log there; with
// spectators, its games are published for them (SPEC-2, SPEC-6); more
// set further fields of the game service's configuration.
func startPeerConfig(ctx context.Context, cfg node.Config, onInvite func(peer.ID, string, engine.Options) error, spectators bool, more ...func(*session.Config)) (*peerHandle, error) {
	n, err := node.New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	home := n.Home()
	name, err := readName(home)
	if err != nil {
		n.Close()
		return nil, err
	}
	logFile, err := os.OpenFile(filepath.Join(home, "games.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		n.Close()
		return nil, fmt.Errorf("game log: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(logFile, nil))
	var hub *watch.Hub
	var publisher session.Publisher
	if spectators {
		if hub, err = watch.New(n.Host(), logger); err != nil {
			logFile.Close()
			n.Close()
			return nil, err
		}
		publisher = hub
	}
	pc := session.Config{
		Host:     n.Host(),
		Dir:      filepath.Join(home, "games"),
		Logger:   logger,
		OnInvite: onInvite,
		Name:     name,
		Known:    newPetnameBook(home).has,
		// The node redials the peers of the games it holds (holdPeer):
		// their games leave the dials to it (NET-D28).
		Redialled: n.Held,
		Publisher: publisher,
	}
	for _, f := range more {
		f(&pc)
	}
	svc, err := session.NewService(pc)
	if err != nil {
		if hub != nil {
			hub.Close()
		}
		logFile.Close()
		n.Close()
		return nil, err
	}
	return &peerHandle{node: n, service: svc, logFile: logFile, logger: logger, hub: hub}, nil
}

// spectatorsFlag adds --spectators to fs; its value tells whether the
// program's games are published for spectators (SPEC-6).
func spectatorsFlag(fs *flag.FlagSet) func() (bool, error) {
	v := fs.String("spectators", "on", "on: publish the public part of this program's games for spectators (kakure watch); off: publish nothing (docs/spectators.md)")
	return func() (bool, error) {
		switch *v {
		case "on":
			return true, nil
		case "off":
			return false, nil
		}
		return false, usageError("--spectators %q: want on or off", *v)
	}
}

// broadcastDelayFlag adds --broadcast-delay to fs; its value is the
// broadcast delay this program proposes in its invitations and the
// least it accepts in another's (docs/spectators.md SPEC-D12).
func broadcastDelayFlag(fs *flag.FlagSet) func() (protocol.BroadcastDelay, error) {
	v := fs.String("broadcast-delay", "off", "delay before spectators see a game, agreed in the invitation: off, a number of moves (20moves), a time (10m, 90s) or both (20moves,10m); this program proposes it in its invitations and declines an invitation that proposes less (docs/spectators.md)")
	return func() (protocol.BroadcastDelay, error) {
		d, err := protocol.ParseBroadcastDelay(*v)
		if err != nil {
			return d, usageError("--broadcast-delay: %v", err)
		}
		return d, nil
	}
}

// withBroadcastDelay sets the service's broadcast delay.
func withBroadcastDelay(d protocol.BroadcastDelay) func(*session.Config) {
	return func(c *session.Config) { c.BroadcastDelay = d }
}

// close stops the peer.
func (p *peerHandle) close() {
	p.service.Close()
	if p.hub != nil {
		p.hub.Close()
	}
	p.node.Close()
	p.logFile.Close()
}

// saveFinishedRecord copies a game's record to path and writes its SGF
// export beside it (path without .record.json, plus .sgf).
func saveFinishedRecord(g *session.Game, path string) (sgfPath string, err error) {
	return ui.SaveRecord(g.Transcript(), path)
}
