package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/node"
	"github.com/libp2p/go-libp2p/core/peer"
)

// TestMain lets the test binary stand in for the kakure binary: with
// KAKURE_BE_BINARY=1 it runs the command line given after "--" as kakure
// would, so that tests can start real kakure processes without building.
func TestMain(m *testing.M) {
	if os.Getenv(testEngineEnv) == "1" {
		// The GTP engine of the bot --engine tests (checked first: the
		// bot that starts it passes it KAKURE_BE_BINARY).
		os.Exit(runTestEngine(os.Args[1:]))
	}
	if os.Getenv(publicNodeEnv) == "1" {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		if err := runPublicNode(args); err != nil {
			fmt.Fprintln(os.Stderr, "public node:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv("KAKURE_BE_BINARY") == "1" {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		env := &environment{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
		os.Exit(run(env, args))
	}
	// No test touches the public network (NET-D16): the nodes this
	// process and the processes it starts run stay off the DHT unless a
	// test says otherwise (the namespace lab's DHT tests).
	os.Setenv(node.DHTEnv, node.DHTOff)
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		parallel := kakureParallel
		if raceScheduling {
			parallel = kakureParallelRace
		}
		if err := flag.Set("test.parallel", parallel); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}

// kakureParallel is how many of this package's parallel tests run at once
// unless -parallel says otherwise. The longest of them wait rather than
// compute (the network-namespace tests cut links for 10 and 35 s, a
// NAT's mapping expires, a relay's reservation comes), so more than
// GOMAXPROCS of them at once shortens the package's run: without -race
// it took 269 s of go test's 600 s with two at once on 2 cores, 109 s
// with four; with eight, 118 s against 99 s with twelve (one after the
// other at a load of 3 to 10 from other engineers' runs: the tests wait
// for a slot behind others that wait on cuts and NATs).
const kakureParallel = "12"

// kakureParallelRace is kakureParallel under the race detector, whose
// CPU cost turns more tests at once into starved clocks: eight, as
// before twelve were tried without it.
const kakureParallelRace = "8"

// TestUserMessagesHaveNoPackageNames: errors reach the terminal without the
// package names kakure's errors carry inside ("usage: engine: bad options"
// read that way before; issue 20, bug 10).
func TestUserMessagesHaveNoPackageNames(t *testing.T) {
	for _, args := range [][]string{
		{"play", "--size", "4", "--home", t.TempDir()},
		{"match", "--variant", "phantom", "--size", "40", "--out", t.TempDir()},
		{"verify", filepath.Join(t.TempDir(), "missing.record.json")},
	} {
		status, out := runCommand(t, args...)
		if status == 0 {
			t.Errorf("%v succeeded:\n%s", args, out)
		}
		first := strings.SplitN(out, "\n", 2)[0]
		for _, pkg := range []string{"usage: ", "engine: ", "protocol: ", "node: "} {
			if strings.Contains(first, pkg) {
				t.Errorf("%v says %q: the package name %q means nothing to a player", args, first, pkg)
			}
		}
	}
	if got := userMessage(fmt.Errorf("%w: %w", errUsage, errors.New("engine: bad options: size 4"))); got != "bad options: size 4" {
		t.Errorf("userMessage = %q", got)
	}
}

// startPeer starts a node in home, listening on listen, with its games in
// home/games and its own log in home/games.log; a protected identity key
// there is refused (no passphrase).
func startPeer(ctx context.Context, home string, listen []string, onInvite func(peer.ID, string, engine.Options) error) (*peerHandle, error) {
	return startPeerConfig(ctx, node.Config{Home: home, ListenAddrs: listen}, onInvite, false)
}
