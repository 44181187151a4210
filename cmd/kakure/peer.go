package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/ui"
	"github.com/libp2p/go-libp2p/core/peer"
)

// peerHandle is a running kakure peer: its libp2p node, its game service
// and its log.
type peerHandle struct {
	node    *node.Node
	service *protocol.Service
	logFile *os.File
}

// startPeerConfig starts a node of configuration cfg, with its games in
// its home's games directory and its own log in games.log there.
func startPeerConfig(ctx context.Context, cfg node.Config, onInvite func(peer.ID, string, engine.Options) error, more ...func(*protocol.Config)) (*peerHandle, error) {
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
	pc := protocol.Config{
		Host:     n.Host(),
		Dir:      filepath.Join(home, "games"),
		Logger:   slog.New(slog.NewTextHandler(logFile, nil)),
		OnInvite: onInvite,
		Name:     name,
		Known:    newPetnameBook(home).has,
		// The node redials the peers of the games it holds (holdPeer):
		// their games leave the dials to it (NET-D28).
		Redialled: n.Held,
	}
	for _, f := range more {
		f(&pc)
	}
	svc, err := protocol.NewService(pc)
	if err != nil {
		logFile.Close()
		n.Close()
		return nil, err
	}
	return &peerHandle{node: n, service: svc, logFile: logFile}, nil
}

// close stops the peer.
func (p *peerHandle) close() {
	p.service.Close()
	p.node.Close()
	p.logFile.Close()
}

// saveFinishedRecord copies a game's record to path and writes its SGF
// export beside it (path without .record.json, plus .sgf).
func saveFinishedRecord(g *protocol.Game, path string) (sgfPath string, err error) {
	return ui.SaveRecord(g.Transcript(), path)
}
