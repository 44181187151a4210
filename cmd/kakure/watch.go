package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/watch"
)

func init() {
	register(command{name: "watch", summary: "watch a game of another peer as a spectator: its public events, each checked, then the record's verdict", run: runWatch})
}

// errWatchFailed makes `kakure watch` exit non-zero after its verdict.
type errWatchFailed struct{ msg string }

func (e errWatchFailed) Error() string { return e.msg }

// parseWatchTarget reads PEERID/GAME, or PEERID alone for the peer's
// next game.
func parseWatchTarget(s string) (peer.ID, protocol.GameID, error) {
	id, gameText, hasGame := strings.Cut(s, "/")
	p, err := peer.Decode(id)
	if err != nil {
		return "", protocol.GameID{}, usageError("%q is not a peer ID: %v", id, err)
	}
	var game protocol.GameID
	if hasGame && gameText != "" {
		if game, err = protocol.ParseGameID(gameText); err != nil {
			return "", protocol.GameID{}, usageError("%q is not a game ID (32 hex digits, as the game's record names it)", gameText)
		}
	}
	return p, game, nil
}

func runWatch(env *environment, args []string) (err error) {
	fs := newFlagSet(env, "watch", "[--addr MULTIADDR] [--out FILE] [--home DIR] [--listen MULTIADDR ...] PEERID[/GAME]")
	addr := fs.String("addr", "", "the publishing peer's address (…/p2p/PEERID, as kakure id prints it); without it, the addresses this node knows")
	out := fs.String("out", "", "write the game's record here once it came and checked, for kakure verify and the replay")
	home := fs.String("home", "", "directory of the spectator's identity and logs (default: a temporary one, a fresh identity removed at the end)")
	var listen listenFlag
	fs.Var(&listen, "listen", "multiaddr to listen on, repeatable (default: all interfaces, TCP and QUIC, random ports)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want exactly one PEERID or PEERID/GAME")
	}
	publisher, game, err := parseWatchTarget(fs.Arg(0))
	if err != nil {
		return err
	}
	dir := *home
	if dir == "" {
		if dir, err = os.MkdirTemp("", "kakure-watch-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	addrs := []string(listen)
	if len(addrs) == 0 {
		addrs = nodeDefaultListen()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	n, err := node.New(ctx, node.Config{Home: dir, ListenAddrs: addrs, Passphrase: env.askPassphrase})
	if err != nil {
		return err
	}
	defer n.Close()
	logFile, err := os.OpenFile(filepath.Join(dir, "watch.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("watch log: %w", err)
	}
	defer logFile.Close()
	hub, err := watch.New(n.Host(), slog.New(slog.NewTextHandler(logFile, nil)))
	if err != nil {
		return err
	}
	defer hub.Close()
	if *addr != "" {
		id, err := n.Connect(ctx, *addr)
		if err != nil {
			return err
		}
		if id != publisher {
			return usageError("the address names the peer %s, not %s", id, publisher)
		}
	} else if err := n.ConnectPeer(ctx, publisher); err != nil {
		return err
	}
	// Connected first: the watch asks the publisher for the game's
	// backlog at once (SPEC-D8).
	w, err := hub.Watch(ctx, publisher, game)
	if err != nil {
		return err
	}
	if game == (protocol.GameID{}) {
		fmt.Fprintf(env.stdout, "watching the next game of %s\n", publisher)
	} else {
		fmt.Fprintf(env.stdout, "watching game %s of %s\n", game, publisher)
	}
	for l := range w.Lines() {
		fmt.Fprintln(env.stdout, l)
	}
	var done, ok bool
	var record *protocol.Transcript
	w.Spectator(func(s *watch.Spectator) {
		done, ok = s.Done()
		record = s.Record()
	})
	if *out != "" && record != nil {
		if err := record.Save(*out); err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "record: %s\n", *out)
	}
	return watchVerdict(done, ok)
}

// watchVerdict is how `kakure watch` ends: nil once the record came and
// it and every publication checked, an error otherwise.
func watchVerdict(done, ok bool) error {
	switch {
	case !done:
		return errWatchFailed{"the watch ended before the game's record came"}
	case !ok:
		return errWatchFailed{"the game's record or its publications did not check"}
	}
	return nil
}
