package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/protocol"
)

// lockedWriter is a buffer a command writes to while the test reads it.
type lockedWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestSPEC4WatchCommand: `kakure watch --addr ADDR PEERID` watches the
// next game of a peer whose games are published (as `kakure play` and
// `kakure bot` publish them by default): one line per public event,
// each checked, then the checks of the record and verify's verdict, and
// it exits 0 (SPEC-3, SPEC-4).
func TestSPEC4WatchCommand(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(90*time.Second))
	defer cancel()
	var peers [2]*peerHandle
	for i := range peers {
		p, err := startPeerConfig(ctx, node.Config{Home: t.TempDir(), ListenAddrs: loopbackListen}, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		defer p.close()
		peers[i] = p
	}
	a, b := peers[0], peers[1]
	addr := fmt.Sprintf("%s/p2p/%s", a.node.Host().Addrs()[0], a.node.ID())
	out := &lockedWriter{}
	status := make(chan int, 1)
	recordPath := filepath.Join(t.TempDir(), "watched.record.json")
	go func() {
		env := &environment{stdin: strings.NewReader(""), stdout: out, stderr: out}
		status <- run(env, []string{"watch", "--addr", addr, "--listen", loopbackListen[0], "--home", t.TempDir(), "--out", recordPath, a.node.ID().String()})
	}()
	// The game starts once the spectator is subscribed: GossipSub keeps
	// no history (SPEC-D5).
	for len(a.hub.Subscribers(a.node.ID())) == 0 {
		select {
		case code := <-status:
			t.Fatalf("kakure watch exited with %d:\n%s", code, out.String())
		case <-ctx.Done():
			t.Fatalf("the spectator never subscribed:\n%s", out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := a.node.Host().Connect(ctx, peer.AddrInfo{ID: b.node.ID(), Addrs: b.node.Host().Addrs()}); err != nil {
		t.Fatal(err)
	}
	testnet.StartBotGame(ctx, a.service, b.service, b.node.ID(), engine.Options{Variant: engine.VariantGo, Size: 5},
		[2]bot.Player{bot.New(bot.Level{Playouts: 60}, 1), bot.New(bot.Level{Playouts: 60}, 2)}).Wait(t)
	select {
	case code := <-status:
		text := out.String()
		if code != 0 {
			t.Fatalf("kakure watch exited with %d:\n%s", code, text)
		}
		for _, want := range []string{"watching the next game of " + a.node.ID().String(), "[verified] inviter 0 invite", "[verified] invitee 0 accept",
			"[verdict] the ", "[verdict] ok: result", "record: " + recordPath} {
			if !strings.Contains(text, want) {
				t.Errorf("kakure watch did not print %q:\n%s", want, text)
			}
		}
		t.Logf("kakure watch printed:\n%s", text)
		// The record it wrote is the game's, whole: kakure verify says
		// so.
		if code, verified := runCommand(t, "verify", recordPath); code != 0 || !strings.Contains(verified, "ok: result") {
			t.Errorf("kakure verify on the watched record: status %d:\n%s", code, verified)
		}
		if strings.Contains(text, "REFUSED") {
			t.Errorf("kakure watch refused a publication of an honest game:\n%s", text)
		}
	case <-ctx.Done():
		t.Fatalf("kakure watch did not end with the game:\n%s", out.String())
	}
}

// TestSPEC6SpectatorsFlag: --spectators off starts a peer that
// publishes nothing (no GossipSub at all); on, the default, one that
// publishes; another value is a usage error (SPEC-6).
func TestSPEC6SpectatorsFlag(t *testing.T) {
	ctx := context.Background()
	for _, publish := range []bool{false, true} {
		p, err := startPeerConfig(ctx, node.Config{Home: t.TempDir(), ListenAddrs: loopbackListen}, nil, publish)
		if err != nil {
			t.Fatal(err)
		}
		if (p.hub != nil) != publish {
			t.Errorf("spectators %v: the peer's hub is %v", publish, p.hub)
		}
		p.close()
	}
	for args, want := range map[string]bool{"": true, "--spectators=on": true, "--spectators=off": false} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		publish := spectatorsFlag(fs)
		if err := fs.Parse(strings.Fields(args)); err != nil {
			t.Fatal(err)
		}
		if got, err := publish(); err != nil || got != want {
			t.Errorf("%q: publish %v (%v), want %v", args, got, err, want)
		}
	}
	for _, cmd := range []string{"bot", "play"} {
		status, out := runCommand(t, cmd, "--home", t.TempDir(), "--spectators", "maybe")
		if status == 0 || !strings.Contains(out, `--spectators "maybe": want on or off`) {
			t.Errorf("kakure %s --spectators maybe: status %d:\n%s", cmd, status, out)
		}
	}
}

// TestSPEC4WatchVerdict: kakure watch exits non-zero when it ended
// before the record, or when the record or a publication did not check
// (SPEC-4).
func TestSPEC4WatchVerdict(t *testing.T) {
	for _, c := range []struct{ done, ok, fails bool }{{false, false, true}, {true, false, true}, {true, true, false}} {
		if err := watchVerdict(c.done, c.ok); (err != nil) != c.fails {
			t.Errorf("done %v, ok %v: %v", c.done, c.ok, err)
		}
	}
}

// TestSPECD12BroadcastDelayFlag: --broadcast-delay reads off, moves, a
// time or both into the delay the program proposes and asks for; bad
// input is a usage error of kakure play and kakure bot, naming the flag
// (SPEC-D12).
func TestSPECD12BroadcastDelayFlag(t *testing.T) {
	for args, want := range map[string]protocol.BroadcastDelay{
		"":                                {},
		"--broadcast-delay=off":           {},
		"--broadcast-delay=20moves":       {Moves: 20},
		"--broadcast-delay=1move":         {Moves: 1},
		"--broadcast-delay=10m":           {Seconds: 600},
		"--broadcast-delay=20moves,1m30s": {Moves: 20, Seconds: 90},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		delay := broadcastDelayFlag(fs)
		if err := fs.Parse(strings.Fields(args)); err != nil {
			t.Fatal(err)
		}
		if got, err := delay(); err != nil || got != want {
			t.Errorf("%q: %v (%v), want %v", args, got, err, want)
		}
	}
	for _, bad := range []string{"soon", "0moves", "-3moves", "1.5s", "20moves,5moves", "10m,20m", "2000moves", "48h", ""} {
		for _, cmd := range []string{"bot", "play"} {
			status, out := runCommand(t, cmd, "--home", t.TempDir(), "--broadcast-delay", bad)
			if status == 0 || !strings.Contains(out, "--broadcast-delay: ") {
				t.Errorf("kakure %s --broadcast-delay %q: status %d:\n%s", cmd, bad, status, out)
			}
		}
	}
}
