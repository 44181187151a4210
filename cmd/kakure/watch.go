package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/node/rendezvous"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/watch"
	"github.com/kakure/kakure/ui"
)

func init() {
	register(command{name: "watch", summary: "watch a game of another peer as a spectator: its public events, each checked, then the record's verdict", run: runWatch})
}

// errWatchFailed makes `kakure watch` exit non-zero after its verdict.
type errWatchFailed struct{ msg string }

func (e errWatchFailed) Error() string { return e.msg }

// parseWatchTarget reads PEERID/GAME, or PEERID alone for the peer's
// live game (or its next one), or a watch code (SPEC-D13), returned in
// its canonical form.
func parseWatchTarget(s string) (p peer.ID, game protocol.GameID, code string, err error) {
	id, gameText, hasGame := strings.Cut(s, "/")
	p, err = peer.Decode(id)
	if err != nil {
		if !hasGame {
			if code, cerr := rendezvous.ParseCode(s); cerr == nil {
				return "", protocol.GameID{}, code, nil
			}
		}
		return "", protocol.GameID{}, "", usageError("%q is neither a peer ID nor a watch code (three words, as the player's screen shows it): %v", id, err)
	}
	if hasGame && gameText != "" {
		if game, err = protocol.ParseGameID(gameText); err != nil {
			return "", protocol.GameID{}, "", usageError("%q is not a game ID (32 hex digits, as the game's record names it)", gameText)
		}
	}
	return p, game, "", nil
}

// chooseLiveGame picks the game to watch among the live games a
// publisher listed (SPEC-D13, SPEC-D14): the one whose watch code was
// typed, else the only one; with none, the zero game (the publisher's
// next game); with several, an error that lists them.
func chooseLiveGame(publisher peer.ID, games []watch.LiveGame, code string) (protocol.GameID, error) {
	if code != "" {
		for _, g := range games {
			if g.Code == code {
				return g.Game, nil
			}
		}
	}
	switch len(games) {
	case 0:
		return protocol.GameID{}, nil
	case 1:
		return games[0].Game, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s plays %d games now: name one as PEERID/GAME", publisher, len(games))
	for _, g := range games {
		fmt.Fprintf(&b, "\n  kakure watch %s/%s   %s", publisher, g.Game, describeLiveGame(g))
	}
	return protocol.GameID{}, usageError("%s", b.String())
}

// noPetnames is the petname book kakure watch shows: none (it lists
// peers by their own names and short peer IDs).
var noPetnames ui.Petnames

// describeLiveGame writes a live game as kakure watch lists it.
func describeLiveGame(g watch.LiveGame) string {
	return fmt.Sprintf("%s %d×%d, %s vs %s, %d moves", ui.VariantName(engine.Variant(g.Variant)), g.Size, g.Size,
		noPetnames.PeerLabel(g.Names[0], g.Peers[0]), noPetnames.PeerLabel(g.Names[1], g.Peers[1]), g.Moves)
}

func runWatch(env *environment, args []string) (err error) {
	fs := newFlagSet(env, "watch", "[--addr MULTIADDR] [--out FILE] [--text] [--home DIR] [--listen MULTIADDR ...] [--relay MULTIADDR ...] PEERID[/GAME] | CODE")
	textOut := fs.Bool("text", false, "print one line per public event and the verdict instead of the spectator screen (the default when the output is not a terminal)")
	addr := fs.String("addr", "", "the publishing peer's address (…/p2p/PEERID, as kakure id prints it); without it, the addresses this node knows")
	out := fs.String("out", "", "write the game's record here once it came and checked, for kakure verify and the replay")
	home := fs.String("home", "", "directory of the spectator's identity and logs (default: a temporary one, a fresh identity removed at the end)")
	var listen listenFlag
	fs.Var(&listen, "listen", "multiaddr to listen on, repeatable (default: all interfaces, TCP and QUIC, random ports)")
	var relays listenFlag
	fs.Var(&relays, "relay", "kakure relay multiaddr (with /p2p/ID) to look a watch code up on, repeatable (default: the relays of config.json in the home directory; the DHT otherwise)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want exactly one PEERID, PEERID/GAME or watch code")
	}
	publisher, game, code, err := parseWatchTarget(fs.Arg(0))
	if err != nil {
		return err
	}
	if code != "" && *addr != "" {
		return usageError("--addr names a peer: not with a watch code, which names it already")
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
	cfg := node.Config{Home: dir, ListenAddrs: addrs, Passphrase: env.askPassphrase}
	if len(relays) > 0 {
		cfg.Relays = relays
	}
	n, err := node.New(ctx, cfg)
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
	if publisher, err = reachPublisher(ctx, n, publisher, code, *addr); err != nil {
		return err
	}
	if game == (protocol.GameID{}) {
		// The game the publisher plays now, if it says (SPEC-D14).
		games, err := hub.AskLiveGames(ctx, publisher)
		if err != nil {
			fmt.Fprintf(env.stderr, "kakure watch: %s lists no live games (it refuses spectators, or is an older kakure): %v\n", publisher, err)
		}
		if game, err = chooseLiveGame(publisher, games, code); err != nil {
			return err
		}
	}
	// Connected first: the watch asks the publisher for the game's
	// backlog at once (SPEC-D8).
	w, err := hub.Watch(ctx, publisher, game)
	if err != nil {
		return err
	}
	showWatch(ctx, env, publisher, game, w, *textOut, stop)
	var done, ok bool
	var record *protocol.Transcript
	w.Spectator(func(s *watch.Spectator) {
		done, ok = s.Done()
		record = s.Record()
	})
	if *out != "" && record != nil {
		if err := session.SaveTranscript(record, *out); err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "record: %s\n", *out)
	}
	return watchVerdict(done, ok)
}

// reachPublisher connects to the publishing peer: by its watch code (the
// relays or the DHT, SPEC-D13), at addr, or by its ID; it returns the
// publisher, which a watch code names.
func reachPublisher(ctx context.Context, n *node.Node, publisher peer.ID, code, addr string) (peer.ID, error) {
	switch {
	case code != "":
		// The same rendezvous as an invite code's: the relays, or the
		// DHT (SPEC-D13).
		info, err := n.JoinInvite(ctx, code)
		if err != nil {
			return "", fmt.Errorf("watch code %s: %w", code, err)
		}
		publisher = info.ID
	case addr != "":
		id, err := n.Connect(ctx, addr)
		if err != nil {
			return "", err
		}
		if id != publisher {
			return "", usageError("the address names the peer %s, not %s", id, publisher)
		}
	default:
		if err := n.ConnectPeer(ctx, publisher); err != nil {
			return "", err
		}
	}
	return publisher, nil
}

// showWatch shows the game as it comes, until its end: the spectator
// screen on a terminal (then stop), else one line per public event.
func showWatch(ctx context.Context, env *environment, publisher peer.ID, game protocol.GameID, w *watch.Watch, textOut bool, stop context.CancelFunc) {
	if !textOut && isTerminal(env.stdout) {
		// The spectator screen (UI-D48): it stays after the end, for the
		// replay, until q; the verdict is printed again when it closes.
		for _, l := range watchScreen(ctx, publisher, w) {
			fmt.Fprintln(env.stdout, l)
		}
		stop()
	} else {
		if game == (protocol.GameID{}) {
			fmt.Fprintf(env.stdout, "watching the next game of %s\n", publisher)
		} else {
			fmt.Fprintf(env.stdout, "watching game %s of %s\n", game, publisher)
		}
		for l := range w.Lines() {
			fmt.Fprintln(env.stdout, l)
		}
	}
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

// isTerminal tells whether w is a terminal: `kakure watch` shows its
// screen there and prints lines elsewhere (a pipe, a file, a test).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// watchScreen shows the watch w on the spectator screen until its user
// quits or ctx ends, and returns the lines of the verdict and the
// refusals it showed.
func watchScreen(ctx context.Context, publisher peer.ID, w *watch.Watch) []watch.Line {
	app := ui.NewSpectatorApp(publisher, nil)
	quit := make(chan struct{})
	defer close(quit)
	var mu sync.Mutex
	var kept []watch.Line
	go ui.FeedSpectator(publisher, w, func(batch []watch.Line, st ui.SpectatorState) {
		mu.Lock()
		for _, l := range batch {
			if l.Status == watch.Verdict || l.Status == watch.Refused {
				kept = append(kept, l)
			}
		}
		mu.Unlock()
		app.Take(batch, st)
	})
	go func() {
		// The clocks run: draw every second.
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				app.Redraw()
			case <-ctx.Done():
				app.Stop()
				return
			case <-quit:
				return
			}
		}
	}()
	err := app.Run()
	mu.Lock()
	defer mu.Unlock()
	if err != nil {
		kept = append(kept, watch.Line{Status: watch.Verdict, Text: fmt.Sprintf("the screen failed: %v", err)})
	}
	return slices.Clone(kept)
}
