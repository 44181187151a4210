package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/kakure/kakure/node"
)

func init() {
	register(command{name: "relay", summary: "run a meeting point for players: a relay, an invite-code rendezvous, a DHT and AutoNAT (docs/internet.md)", run: runRelay})
}

// relayListenDefault is where a relay listens unless told: every
// interface, TCP and QUIC, on port 4747, so that its address stays the
// same across restarts.
func relayListenDefault() []string {
	return []string{"/ip4/0.0.0.0/tcp/4747", "/ip4/0.0.0.0/udp/4747/quic-v1", "/ip6/::/tcp/4747", "/ip6/::/udp/4747/quic-v1"}
}

func runRelay(env *environment, args []string) error {
	fs := newFlagSet(env, "relay", "[--home DIR] [--listen MULTIADDR ...] [--announce MULTIADDR ...] [--bootstrap MULTIADDR ...] [--dht on|off] [--stats DURATION]")
	home := fs.String("home", "", "directory of the relay's identity key and log (default $XDG_CONFIG_HOME/kakure/relay)")
	var listen, announce listenFlag
	fs.Var(&listen, "listen", "multiaddr to listen on, repeatable (default: all interfaces, TCP and QUIC, port 4747)")
	fs.Var(&announce, "announce", "multiaddr to announce instead of the listen addresses, repeatable (a relay behind a port forward announces its public address)")
	stats := fs.Duration("stats", 0, "print the relay's counters at this interval when they change (0: only at exit)")
	maxRes := fs.Int("max-reservations", 0, "most peers holding a reservation at once (default 256)")
	maxCodes := fs.Int("max-codes", 0, "most invite codes held at once (default 4096)")
	dhtMode := fs.String("dht", node.DHTOn, "on: serve the DHT, so that players name this relay as their \"bootstrap\" peer too; off: relay and codes only")
	var bootstrap listenFlag
	fs.Var(&bootstrap, "bootstrap", "DHT peer to join, repeatable (another relay of the group, say); default none: a DHT of its own")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	if *dhtMode != node.DHTOn && *dhtMode != node.DHTOff {
		return usageError("--dht %q: want on or off", *dhtMode)
	}
	if *home == "" {
		dir, err := node.DefaultHome()
		if err != nil {
			return err
		}
		*home = filepath.Join(dir, "relay")
	}
	addrs := []string(listen)
	if len(addrs) == 0 {
		addrs = relayListenDefault()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	n, err := node.New(ctx, node.Config{
		Home: *home, Passphrase: env.askPassphrase, ListenAddrs: addrs, Relays: []string{}, DHT: *dhtMode, Bootstrap: bootstrap,
		Relay: &node.RelayConfig{MaxReservations: *maxRes, MaxCodes: *maxCodes, Announce: announce},
	})
	if err != nil {
		return err
	}
	defer n.Close()
	fmt.Fprintf(env.stdout, "kakure relay %s\n", n.ID())
	var shared []string
	for _, a := range n.Addrs() {
		fmt.Fprintf(env.stdout, "  %s\n", a)
		shared = append(shared, a.String())
	}
	fc := node.FileConfig{Relays: shared}
	serves := "a relay, an invite-code rendezvous and AutoNAT"
	if n.NetStatus().DHT {
		fc.Bootstrap = shared
		serves = "a relay, an invite-code rendezvous, a DHT and AutoNAT"
	}
	snippet, _ := json.Marshal(fc)
	fmt.Fprintf(env.stdout, "It serves %s. Players list it in %s in their kakure directory (keep the addresses others can reach):\n  %s\n", serves, node.ConfigFileName, snippet)
	fmt.Fprintln(env.stdout, "It forwards encrypted streams between players and sees no game content.")

	var tick <-chan time.Time
	if *stats > 0 {
		t := time.NewTicker(*stats)
		defer t.Stop()
		tick = t.C
	}
	var last node.RelayStats
	for {
		select {
		case <-tick:
			if st, _ := n.RelayStats(); st != last {
				fmt.Fprintf(env.stdout, "stats: %s\n", st)
				last = st
			}
		case <-ctx.Done():
			st, _ := n.RelayStats()
			fmt.Fprintf(env.stdout, "stats: %s\n", st)
			return nil
		}
	}
}
