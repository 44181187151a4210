package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

func init() {
	register(command{name: "match", summary: "play games between two bot peers on loopback and save their records", run: runMatch})
}

func runMatch(env *environment, args []string) error {
	fs := newFlagSet(env, "match", "--variant V [variant options] [--black PLAYER --white PLAYER] --games N --out DIR")
	var vf variantFlags
	vf.register(fs, "go")
	vf.registerSides(fs, "the colour of peer a, which invites b (the players stay by colour)")
	games := fs.Int("games", 1, "number of games")
	out := fs.String("out", "", "directory for the records and SGF files (required)")
	seed := fs.Uint64("seed", 1, "seed of the bots' choices")
	timeout := fs.Duration("timeout", 10*time.Minute, "give up on a game after this long")
	black := fs.String("black", "bot", "the player of Black: "+playerUsage)
	white := fs.String("white", "bot", "the player of White (same syntax as --black)")
	x := fs.String("x", "", "gomoku: the player of X (Black); same as --black")
	o := fs.String("o", "", "gomoku: the player of O (White); same as --white")
	progress := fs.Duration("progress", defaultProgressEvery, "print a line this often during a game (moves, time, Phantom Go's tries); 0: none")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	if *out == "" {
		return usageError("--out DIR is required")
	}
	if *games < 1 {
		return usageError("--games must be at least 1")
	}
	for _, alias := range []struct {
		name, other string
		value       *string
		target      *string
	}{{"x", "black", x, black}, {"o", "white", o, white}} {
		if *alias.value == "" {
			continue
		}
		if isSet(fs, alias.other) {
			return usageError("--%s and --%s name the same side; give one", alias.name, alias.other)
		}
		*alias.target = *alias.value
	}
	opts, err := vf.options(fs)
	if err != nil {
		return err
	}
	// A variant still missing a piece is refused by name before a game
	// starts, rather than by a bot's panic at its first move (VAR-D8):
	// every kind of player falls back on the bots.
	if err := session.Playable(opts.Variant); err != nil {
		return err
	}
	if !bot.Plays(opts.Variant) {
		return fmt.Errorf("variant %s has no bot (bot's variantBots): the players of kakure match are bots", opts.Variant)
	}
	var sides [2]*matchPlayer // by colour: Black, White
	for i, spec := range []string{*black, *white} {
		p, err := parseMatchPlayer(spec, nil)
		if err != nil {
			return err
		}
		defer p.close()
		sides[i] = p
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	ctx := context.Background()
	loopback := []string{"/ip4/127.0.0.1/tcp/0"}
	names := peerNames
	var peers [2]*peerHandle
	for i := range peers {
		cfg := node.Config{Home: filepath.Join(*out, "peers", names[i]), ListenAddrs: loopback, Passphrase: env.askPassphrase}
		p, err := startPeerConfig(ctx, cfg, nil, false)
		if err != nil {
			return fmt.Errorf("peer %s: %w", names[i], err)
		}
		defer p.close()
		peers[i] = p
	}
	if _, err := peers[0].node.Connect(ctx, peers[1].node.Addrs()[0].String()); err != nil {
		return fmt.Errorf("connect the peers: %w", err)
	}
	fmt.Fprintln(env.stdout, connectionLine(ctx, peers[0].node, peers[1].node.ID()))
	colorName := func(c engine.Color) string {
		if c != engine.Black && c != engine.White {
			return c.String()
		}
		return strings.ToLower(opts.Variant.Descriptor().ColorName(c))
	}
	label := func(c engine.Color) string { return fmt.Sprintf("%s (%s)", colorName(c), sides[c-engine.Black].spec) }
	wins := map[engine.Color]int{}
	for i := 1; i <= *games; i++ {
		start := time.Now()
		gameSeed := *seed + uint64(i)*2
		players := byColor{
			engine.Black: sides[0].timed(sides[0].forGame(gameSeed)),
			engine.White: sides[1].timed(sides[1].forGame(gameSeed + 1)),
		}
		say := func(line string) { fmt.Fprintln(env.stdout, line) }
		res, host, err := playMatchGame(ctx, peers, opts, players, *timeout, label, func(ctx context.Context, g *session.Game) {
			reportProgress(ctx, g, strconv.Itoa(i), *progress, say)
		})
		if err != nil {
			return fmt.Errorf("game %d: %w", i, err)
		}
		path := filepath.Join(*out, fmt.Sprintf("game-%03d.record.json", i))
		if _, err := saveFinishedRecord(host, path); err != nil {
			return fmt.Errorf("game %d: %w", i, err)
		}
		wins[res.Result.Winner]++
		tr := host.Transcript()
		fmt.Fprintf(env.stdout, "game %d: %s %dx%d %s: %s (%s) %s=%s %s=%s peer-a=%s messages=%d passes=%d/%d %.2fs\n", i, opts.Variant, opts.Size, opts.Size,
			filepath.Base(path), res.Result, res.Result.By, colorName(engine.Black), sides[0].spec, colorName(engine.White), sides[1].spec,
			colorName(host.View().Color), len(tr.Messages), sides[0].gamePasses(), sides[1].gamePasses(), time.Since(start).Seconds())
	}
	for c := engine.Black; c <= engine.White; c++ {
		fmt.Fprintf(env.stdout, "time per decision: %s: %s\n", label(c), sides[c-engine.Black].summary())
	}
	fmt.Fprintf(env.stdout, "wins: %s=%d %s=%d draws=%d\n", label(engine.Black), wins[engine.Black], label(engine.White), wins[engine.White], *games-wins[engine.Black]-wins[engine.White])
	return nil
}

// playMatchGame plays one game: peer 0 invites peer 1, each plays its
// colour with that colour's player. It returns the outcome and the
// inviter's game. When either side's player fails, the other side is
// stopped at once and the error names the side that failed, by label
// (the colour and its PLAYER), and its peer (MATCH-D2, docs/bots.md).
//
// watch, when not nil, runs in a goroutine of its own beside the
// inviter's game (kakure match's progress lines); it is stopped (its
// context cancelled) and waited for before playMatchGame returns, so that
// it never writes after the game's result line.
func playMatchGame(ctx context.Context, peers [2]*peerHandle, o engine.Options, players byColor, timeout time.Duration, label func(engine.Color) string, watch func(context.Context, *session.Game)) (*protocol.Outcome, *session.Game, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type sideResult struct {
		out *protocol.Outcome
		g   *session.Game
		err error
	}
	var results [2]chan sideResult
	for i := range results {
		results[i] = make(chan sideResult, 1)
	}
	// play runs one peer's side; a failure of its player stops the other.
	play := func(i int, g *session.Game) {
		out, err := bot.Run(ctx, g, players)
		if err != nil && ctx.Err() == nil {
			err = fmt.Errorf("%s on peer %s failed: %w", label(players.colorOf(g.View())), peerNames[i], err)
			cancel()
		}
		results[i] <- sideResult{out, g, err}
	}
	go func() {
		select {
		case g := <-peers[1].service.Accepted():
			play(1, g)
		case <-ctx.Done():
			results[1] <- sideResult{err: ctx.Err()}
		}
	}()
	g, err := peers[0].service.Invite(ctx, peers[1].node.ID(), o)
	if err != nil {
		cancel()
		<-results[1]
		return nil, nil, fmt.Errorf("invite: %w", err)
	}
	if watch != nil {
		wctx, stop := context.WithCancel(ctx)
		stopped := make(chan struct{})
		go func() {
			defer close(stopped)
			watch(wctx, g)
		}()
		defer func() {
			stop()
			<-stopped
		}()
	}
	go play(0, g)
	var got [2]sideResult
	for i := range results {
		got[i] = <-results[i]
	}
	// A player's failure first, then the timeout.
	for _, r := range got {
		if r.err != nil && !errors.Is(r.err, context.Canceled) && !errors.Is(r.err, context.DeadlineExceeded) {
			return nil, nil, r.err
		}
	}
	for i, r := range got {
		if r.err != nil {
			return nil, nil, fmt.Errorf("peer %s: no result after --timeout %v: %w", peerNames[i], timeout, r.err)
		}
	}
	if got[0].out == nil {
		return nil, nil, fmt.Errorf("the game ended without a result")
	}
	return got[0].out, got[0].g, nil
}

// peerNames are the names of a match's two peers: a invites b.
var peerNames = [2]string{"a", "b"}

// describeOutcome is a short text of an outcome for logs.
func describeOutcome(o *protocol.Outcome) string {
	if o == nil {
		return "no result"
	}
	if o.Violation != nil {
		return fmt.Sprintf("%s after %v", o.Result, o.Violation)
	}
	return o.Result.String()
}
