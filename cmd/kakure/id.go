package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kakure/kakure/node"
)

func init() {
	register(command{name: "id", summary: "print this peer's ID and the addresses to share", run: runID})
}

// listenFlag collects repeated --listen flags.
type listenFlag []string

func (l *listenFlag) String() string { return strings.Join(*l, " ") }

func (l *listenFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// runID starts the node just long enough to learn its addresses, prints
// them and stops it; while another program holds the home, it prints that
// program's ID and addresses from the home's lock file.
func runID(env *environment, args []string) error {
	fs := newFlagSet(env, "id", "[--home DIR] [--listen MULTIADDR ...] [--protect] [--name NAME]")
	home := fs.String("home", "", "directory of the identity key and the log (default $XDG_CONFIG_HOME/kakure or ~/.config/kakure)")
	var listen listenFlag
	fs.Var(&listen, "listen", "multiaddr to listen on, repeatable (default: all interfaces, TCP and QUIC, random ports)")
	protect := fs.Bool("protect", false, "put the identity key under a passphrase (asked twice, or KAKURE_PASSPHRASE); every program on this home then asks for it when it starts")
	name := fs.String("name", "", "choose the display name your opponents see beside your peer ID (kept in the home; --name '' clears it)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	if isSet(fs, "name") {
		if err := writeName(*home, *name); err != nil {
			return err
		}
	}
	if *protect {
		if err := protectIdentity(env, *home); err != nil {
			return err
		}
	}
	cfg := node.Config{Home: *home, ListenAddrs: node.DefaultListenAddrs(), Passphrase: env.askPassphrase}
	if len(listen) > 0 {
		cfg.ListenAddrs = listen
	}
	n, err := node.New(context.Background(), cfg)
	var inUse *node.HomeInUseError
	if errors.As(err, &inUse) && inUse.Holder.PeerID != "" {
		// The home's program is running (T-16): print what it is, not a
		// second node under the same key.
		fmt.Fprintf(env.stdout, "peer ID: %s\naddresses:\n", inUse.Holder.PeerID)
		for _, a := range inUse.Holder.Addrs {
			fmt.Fprintf(env.stdout, "  %s\n", a)
		}
		fmt.Fprintf(env.stderr, "note: the addresses are those of the running program (pid %d) that holds this home\n", inUse.Holder.PID)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "peer ID: %s\n", n.ID())
	if name, err := readName(n.Home()); err == nil && name != "" {
		fmt.Fprintf(env.stdout, "name: %s\n", name)
	}
	fmt.Fprintf(env.stdout, "addresses:\n")
	for _, a := range n.Addrs() {
		fmt.Fprintf(env.stdout, "  %s\n", a)
	}
	// On the DHT, give the node a few seconds to meet its bootstrap peers
	// so that the status says something.
	if n.NetStatus().DHT {
		fmt.Fprintf(env.stderr, "internet: looking for DHT peers (up to %v; \"dht\": \"off\" in config.json stays off the DHT)…\n", idDHTWait)
	}
	ctx, cancel := context.WithTimeout(context.Background(), idDHTWait)
	n.AwaitDHT(ctx)
	cancel()
	fmt.Fprintf(env.stdout, "internet: %s\n", n.NetStatus())
	if err := n.Close(); err != nil {
		return err
	}
	if slices.ContainsFunc(cfg.ListenAddrs, idIsRandomPort) {
		fmt.Fprintln(env.stderr, "note: port 0 is a new random port each run; pass --listen with fixed ports (e.g. /ip4/0.0.0.0/udp/4001/quic-v1) for addresses that stay valid")
	}
	return nil
}

// idDHTWait bounds how long kakure id waits for the DHT's first peer.
const idDHTWait = 10 * time.Second

// NameFile is the file of the home that holds the player's display name.
const NameFile = "name"

// writeName checks a display name and keeps it in the home (UI-D30): at
// most protocol.MaxNameLength bytes of UTF-8 and no control characters;
// an empty name removes the file.
func writeName(home, name string) error {
	if home == "" {
		var err error
		if home, err = node.DefaultHome(); err != nil {
			return err
		}
	}
	name = strings.TrimSpace(name)
	if p := nameProblem("name", name); p != "" {
		return usageError("%s", p)
	}
	path := filepath.Join(home, NameFile)
	if name == "" {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("name: %w", err)
		}
		return nil
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return fmt.Errorf("name: %w", err)
	}
	if err := os.WriteFile(path, []byte(name+"\n"), 0o600); err != nil {
		return fmt.Errorf("name: %w", err)
	}
	return nil
}

// readName returns the display name kept in the home ("" for none); a
// name that is no longer valid (edited by hand) is an error.
func readName(home string) (string, error) {
	b, err := os.ReadFile(filepath.Join(home, NameFile))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("name: %w", err)
	}
	name := strings.TrimSpace(string(b))
	if nameProblem("name", name) != "" {
		return "", fmt.Errorf("name: %s holds no valid name; set it again with kakure id --name", filepath.Join(home, NameFile))
	}
	return name, nil
}

// idIsRandomPort reports whether a listen multiaddr asks for port 0.
func idIsRandomPort(addr string) bool {
	addr += "/"
	return strings.Contains(addr, "/tcp/0/") || strings.Contains(addr, "/udp/0/")
}

// protectIdentity puts the home's identity key (created if there is none)
// under a new passphrase, holding the home's lock meanwhile.
func protectIdentity(env *environment, home string) error {
	if home == "" {
		var err error
		if home, err = node.DefaultHome(); err != nil {
			return err
		}
	}
	lock, err := node.LockHome(home)
	if err != nil {
		return err
	}
	defer lock.Release()
	if _, err := os.Stat(filepath.Join(home, node.IdentityFile)); errors.Is(err, os.ErrNotExist) {
		if _, err := node.LoadOrCreateIdentity(home, env.askPassphrase); err != nil {
			return err
		}
	}
	if protected, err := node.IdentityProtected(home); err != nil {
		return err
	} else if protected {
		return fmt.Errorf("the identity key in %s is protected already", home)
	}
	pass, err := env.newPassphrase()
	if err != nil {
		return err
	}
	if err := node.ProtectIdentity(home, pass); err != nil {
		return err
	}
	fmt.Fprintf(env.stderr, "the identity key in %s is now under a passphrase; kakure asks for it when it starts\n", home)
	return nil
}
