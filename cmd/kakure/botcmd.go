package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

func init() {
	register(command{name: "bot", summary: "run a headless peer that accepts invitations and plays", run: runBot})
}

func runBot(env *environment, args []string) error {
	fs := newFlagSet(env, "bot", "[--home DIR] [--listen MULTIADDR ...] [--invite MULTIADDR --variant V ...]")
	home := fs.String("home", "", "directory of the identity, the games and the logs (default $XDG_CONFIG_HOME/kakure)")
	var listen listenFlag
	fs.Var(&listen, "listen", "multiaddr to listen on, repeatable (default: all interfaces, TCP and QUIC, random ports)")
	invite := fs.String("invite", "", "invite the peer at this multiaddr (with /p2p/ID) to one game, play it and exit")
	seed := fs.Uint64("seed", uint64(time.Now().UnixNano()), "seed of the bot's choices")
	var vf variantFlags
	vf.register(fs, "go")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	var o engine.Options
	if *invite != "" {
		var err error
		if o, err = vf.options(fs); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	addrs := []string(listen)
	if len(addrs) == 0 {
		addrs = nodeDefaultListen()
	}
	p, err := startPeer(ctx, *home, addrs, nil)
	if err != nil {
		return err
	}
	defer p.close()
	fmt.Fprintf(env.stdout, "peer ID: %s\n", p.node.ID())
	for _, a := range p.node.Addrs() {
		fmt.Fprintf(env.stdout, "  %s\n", a)
	}
	results := make(chan string, 16)
	play := func(g *protocol.Game, seed uint64) {
		out, err := bot.Run(ctx, g, bot.NewRandom(seed))
		if err != nil {
			results <- fmt.Sprintf("game %s: %v", g.ID(), err)
			return
		}
		sgfNote := ""
		if out != nil && g.RecordPath() != "" {
			if path, err := saveFinishedRecord(g, g.RecordPath()); err == nil {
				sgfNote = " sgf=" + path
			}
		}
		results <- fmt.Sprintf("game %s: %s record=%s%s", g.ID(), describeOutcome(out), g.RecordPath(), sgfNote)
	}
	// Resume the games a crash or a lost connection left unfinished.
	ids, err := p.service.Unfinished()
	if err != nil {
		// Torn or damaged records are reported, never resumed.
		fmt.Fprintf(env.stdout, "records not resumed: %v\n", err)
	}
	for i, id := range ids {
		g, err := p.service.Resume(ctx, id)
		if err != nil {
			fmt.Fprintf(env.stdout, "resuming game %s: %v (waiting for the other peer)\n", id, err)
		} else {
			fmt.Fprintf(env.stdout, "resuming game %s\n", id)
		}
		if g != nil {
			go play(g, *seed+uint64(i)+1000)
		}
	}
	if *invite != "" {
		pid, err := p.node.Connect(ctx, *invite)
		if err != nil {
			return err
		}
		g, err := p.service.Invite(ctx, pid, o)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "game %s started with %s\n", g.ID(), pid)
		go play(g, *seed)
		select {
		case line := <-results:
			fmt.Fprintln(env.stdout, line)
			return nil
		case <-ctx.Done():
			return nil
		}
	}
	n := 0
	for {
		select {
		case g := <-p.service.Accepted():
			n++
			fmt.Fprintf(env.stdout, "game %s accepted from %s: %s\n", g.ID(), g.Peer(), g.View().Options.Variant)
			go play(g, *seed+uint64(n))
		case line := <-results:
			fmt.Fprintln(env.stdout, line)
		case <-ctx.Done():
			return nil
		}
	}
}

// nodeDefaultListen is every interface, TCP and QUIC, random ports.
func nodeDefaultListen() []string {
	return []string{"/ip4/0.0.0.0/tcp/0", "/ip4/0.0.0.0/udp/0/quic-v1", "/ip6/::/tcp/0", "/ip6/::/udp/0/quic-v1"}
}

var _ = filepath.Join
