package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

func init() {
	register(command{name: "match", summary: "play games between two bot peers on loopback and save their records", run: runMatch})
}

func runMatch(env *environment, args []string) error {
	fs := newFlagSet(env, "match", "--variant V [variant options] --games N --out DIR")
	var vf variantFlags
	vf.register(fs, "go")
	games := fs.Int("games", 1, "number of games")
	out := fs.String("out", "", "directory for the records and SGF files (required)")
	seed := fs.Uint64("seed", 1, "seed of the bots' choices")
	timeout := fs.Duration("timeout", 10*time.Minute, "give up on a game after this long")
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
	o, err := vf.options(fs)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	ctx := context.Background()
	loopback := []string{"/ip4/127.0.0.1/tcp/0"}
	names := [2]string{"a", "b"}
	var peers [2]*peerHandle
	for i := range peers {
		p, err := startPeer(ctx, filepath.Join(*out, "peers", names[i]), loopback, nil)
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
	wins := map[string]int{}
	for i := 1; i <= *games; i++ {
		start := time.Now()
		res, host, err := playMatchGame(ctx, peers, o, *seed+uint64(i)*2, *timeout)
		if err != nil {
			return fmt.Errorf("game %d: %w", i, err)
		}
		path := filepath.Join(*out, fmt.Sprintf("game-%03d.record.json", i))
		if _, err := saveFinishedRecord(host, path); err != nil {
			return fmt.Errorf("game %d: %w", i, err)
		}
		winner := "draw"
		switch res.Result.Winner {
		case engine.Black, engine.White:
			role := host.Role()
			if host.View().Color != res.Result.Winner {
				role = role.Other()
			}
			winner = names[role]
		}
		wins[winner]++
		tr := host.Transcript()
		fmt.Fprintf(env.stdout, "game %d: %s %dx%d %s: %s (%s) black=%s messages=%d %.2fs\n", i, o.Variant, o.Size, o.Size,
			filepath.Base(path), res.Result, res.Result.By, names[colorRole(host, engine.Black)], len(tr.Messages), time.Since(start).Seconds())
	}
	fmt.Fprintf(env.stdout, "wins: a=%d b=%d draws=%d\n", wins["a"], wins["b"], wins["draw"])
	return nil
}

// colorRole returns the role index that plays c in g.
func colorRole(g *protocol.Game, c engine.Color) protocol.Role {
	if g.View().Color == c {
		return g.Role()
	}
	return g.Role().Other()
}

// playMatchGame plays one game: peer 0 invites peer 1, both play with
// bots. It returns the outcome and the inviter's game.
func playMatchGame(ctx context.Context, peers [2]*peerHandle, o engine.Options, seed uint64, timeout time.Duration) (*protocol.Outcome, *protocol.Game, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	guest := make(chan error, 1)
	go func() {
		select {
		case g := <-peers[1].service.Accepted():
			_, err := bot.Run(ctx, g, bot.NewRandom(seed+1))
			guest <- err
		case <-ctx.Done():
			guest <- ctx.Err()
		}
	}()
	g, err := peers[0].service.Invite(ctx, peers[1].node.ID(), o)
	if err != nil {
		return nil, nil, err
	}
	out, err := bot.Run(ctx, g, bot.NewRandom(seed))
	if err != nil {
		return nil, nil, err
	}
	if err := <-guest; err != nil {
		return nil, nil, fmt.Errorf("guest: %w", err)
	}
	if out == nil {
		return nil, nil, fmt.Errorf("the game ended without a result")
	}
	return out, g, nil
}

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
