package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
	fs := newFlagSet(env, "id", "[--home DIR] [--listen MULTIADDR ...] [--protect]")
	home := fs.String("home", "", "directory of the identity key and the log (default $XDG_CONFIG_HOME/kakure or ~/.config/kakure)")
	var listen listenFlag
	fs.Var(&listen, "listen", "multiaddr to listen on, repeatable (default: all interfaces, TCP and QUIC, random ports)")
	protect := fs.Bool("protect", false, "put the identity key under a passphrase (asked twice, or KAKURE_PASSPHRASE); every program on this home then asks for it when it starts")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	if *protect {
		if err := protectIdentity(env, *home); err != nil {
			return err
		}
	}
	cfg := node.Config{Home: *home, ListenAddrs: node.DefaultListenAddrs()}
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
	fmt.Fprintf(env.stdout, "peer ID: %s\naddresses:\n", n.ID())
	for _, a := range n.Addrs() {
		fmt.Fprintf(env.stdout, "  %s\n", a)
	}
	if err := n.Close(); err != nil {
		return err
	}
	if slices.ContainsFunc(cfg.ListenAddrs, idIsRandomPort) {
		fmt.Fprintln(env.stderr, "note: port 0 is a new random port each run; pass --listen with fixed ports (e.g. /ip4/0.0.0.0/udp/4001/quic-v1) for addresses that stay valid")
	}
	return nil
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
		if _, err := node.LoadOrCreateIdentity(home); err != nil {
			return err
		}
	}
	if protected, err := node.IdentityProtected(home); err != nil {
		return err
	} else if protected {
		return fmt.Errorf("the identity key in %s is protected already", home)
	}
	pass, err := newPassphrase()
	if err != nil {
		return err
	}
	if err := node.ProtectIdentity(home, pass); err != nil {
		return err
	}
	fmt.Fprintf(env.stderr, "the identity key in %s is now under a passphrase; kakure asks for it when it starts\n", home)
	return nil
}
