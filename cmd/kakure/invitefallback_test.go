package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
)

// defaultPhantomOptions are the options kakure's flags give a 5×5 Phantom
// Go game of two garblings a try: the evaluator's tries by flips, by
// kakure's default (UI-D50).
func defaultPhantomOptions(t *testing.T) engine.Options {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var vf variantFlags
	vf.register(fs, "go")
	if err := fs.Parse([]string{"--variant", "phantom", "--size", "5", "--lambda", "2"}); err != nil {
		t.Fatal(err)
	}
	o, err := vf.options(fs)
	if err != nil {
		t.Fatal(err)
	}
	if !o.TryFlips() {
		t.Fatalf("the default Phantom Go game has no flips (UI-D50): %+v", o)
	}
	return o
}

// TestUID51OlderPeerInvitedWithoutFlips invites, over libp2p on loopback,
// a peer that behaves as kakure of stop 46 and before does with an
// invitation carrying try-flips, an option it does not know: it reads the
// hello and the invitation and resets the stream. inviteOrWithoutFlips
// invites it once more without the option (UI-D51) and says why. The
// stand-in resets that one too (it cannot play), so the second failure is
// returned with the first, and no third invitation goes.
func TestUID51OlderPeerInvitedWithoutFlips(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(60*time.Second))
	defer cancel()
	a, err := startPeer(ctx, t.TempDir(), []string{"/ip4/127.0.0.1/tcp/0"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	old := startOldKakure(ctx, t)
	if _, err := a.node.Connect(ctx, old.addr); err != nil {
		t.Fatal(err)
	}
	var said []string
	g, err := inviteOrWithoutFlips(defaultPhantomOptions(t), func(o engine.Options) (*session.Game, error) {
		return a.service.Invite(ctx, old.id, o)
	}, func(s string) { said = append(said, s) })
	if g != nil || err == nil {
		t.Fatalf("the stand-in accepted nothing, yet the invitation returned %v, %v", g, err)
	}
	old.wantInvitations(t, "[true false]")
	if len(said) != 1 || !strings.Contains(said[0], "UI-D51") {
		t.Errorf("the user was told %q, want one line naming UI-D51", said)
	}
	if !strings.Contains(err.Error(), "invited again without try-flips") || !errors.Is(err, session.ErrNoAnswer) {
		t.Errorf("the error does not tell both invitations: %v", err)
	}
}

// oldKakure is a libp2p peer on loopback that answers the game protocol
// as kakure of stop 46 and before does an invitation carrying try-flips,
// an option it does not know: it reads the hello and the invitation and
// resets the stream (it resets every invitation: it cannot play).
type oldKakure struct {
	id   peer.ID
	addr string // its full address, …/p2p/ID
	mu   sync.Mutex
	// invitations tells, for each invitation read, whether it carried
	// try-flips.
	invitations []bool
}

func startOldKakure(ctx context.Context, t *testing.T) *oldKakure {
	t.Helper()
	p, err := startPeer(ctx, t.TempDir(), []string{"/ip4/127.0.0.1/tcp/0"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.close)
	old := &oldKakure{id: p.node.ID(), addr: p.node.Addrs()[0].String()}
	p.node.Host().SetStreamHandler(protocol.GameProtocol, func(st network.Stream) {
		r := bufio.NewReader(st)
		for range 2 { // the hello, then the invitation
			frame, err := protocol.ReadFrame(r, protocol.MaxFrameSize)
			if err != nil {
				st.Reset()
				return
			}
			if bytes.Contains(frame, []byte(`"kind":"invite"`)) {
				old.mu.Lock()
				old.invitations = append(old.invitations, bytes.Contains(frame, []byte(`"`+engine.OptionTryFlips+`"`)))
				old.mu.Unlock()
			}
		}
		st.Reset()
	})
	return old
}

// wantInvitations fails t unless the invitations read carried try-flips
// as want says ("[true false]": one with, then one without).
func (o *oldKakure) wantInvitations(t *testing.T, want string) {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	if got := fmt.Sprint(o.invitations); got != want {
		t.Errorf("the invitations carried try-flips %s, want %s", got, want)
	}
}

// botInvitesOldKakure runs `kakure bot --invite` with the game flags
// args against a new oldKakure and returns it, the exit status and the
// output (skipped in -short: it starts nodes).
func botInvitesOldKakure(t *testing.T, args ...string) (old *oldKakure, status int, out string) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a node")
	}
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(60*time.Second))
	defer cancel()
	old = startOldKakure(ctx, t)
	status, out = runCommandWithin(t, testenv.Duration(60*time.Second),
		append([]string{"bot", "--home", t.TempDir(), "--listen", anyLoopbackPort, "--invite", old.addr}, args...)...)
	return old, status, out
}

// TestUID51BotInviteFallsBack runs `kakure bot --invite` of a default
// Phantom Go game against a kakure older than try-flips (oldKakure): the
// bot invites it again without the option, says so once, and, the
// stand-in refusing that one too, ends with an error that tells both.
func TestUID51BotInviteFallsBack(t *testing.T) {
	old, status, out := botInvitesOldKakure(t, "--variant", "phantom", "--size", "5", "--lambda", "2")
	old.wantInvitations(t, "[true false]")
	if status != 1 || strings.Count(out, "UI-D51") < 1 || !strings.Contains(out, "invited again without try-flips") {
		t.Errorf("kakure bot --invite OLD-PEER: status %d, output:\n%s\nwant status 1, the fallback told and both invitations in the error", status, out)
	}
}

// TestUID51LobbyInviteFallsBack invites a kakure older than try-flips
// (oldKakure) from the lobby (playNetwork.Invite, by its address) with a
// default Phantom Go game: a second invitation goes without the option,
// and the peer's games.log says why.
func TestUID51LobbyInviteFallsBack(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(60*time.Second))
	defer cancel()
	home := t.TempDir()
	a, err := startPeer(ctx, home, []string{"/ip4/127.0.0.1/tcp/0"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	old := startOldKakure(ctx, t)
	n := &playNetwork{ctx: ctx, me: a}
	if g, err := n.Invite(ctx, old.addr, defaultPhantomOptions(t)); g != nil || err == nil || !errors.Is(err, session.ErrNoAnswer) {
		t.Fatalf("the stand-in accepted nothing, yet the lobby's invitation returned %v, %v", g, err)
	}
	old.wantInvitations(t, "[true false]")
	logged, _ := os.ReadFile(filepath.Join(home, "games.log"))
	if !bytes.Contains(logged, []byte("UI-D51")) {
		t.Errorf("games.log does not say why the second invitation went without try-flips:\n%s", logged)
	}
}

// TestUID51FallbackOnlyOnAReset checks the cases inviteOrWithoutFlips
// leaves alone: a decline, a connection lost (no reset by the invitee), a
// local reset and an invitation without flips are returned as they
// are, with one invitation; a remote reset without flips too.
func TestUID51FallbackOnlyOnAReset(t *testing.T) {
	flips := defaultPhantomOptions(t)
	without := flips
	_ = optionTryFlips().Parse(&without, "false")
	remote := fmt.Errorf("%w: %w", session.ErrNoAnswer, fmt.Errorf("protocol: read frame length: %w", &network.StreamError{Remote: true}))
	for _, c := range []struct {
		name    string
		o       engine.Options
		err     error
		retried bool
	}{
		{"remote reset with flips", flips, remote, true},
		{"remote reset without flips", without, remote, false},
		{"local reset", flips, fmt.Errorf("%w: %w", session.ErrNoAnswer, &network.StreamError{Remote: false}), false},
		{"connection lost", flips, fmt.Errorf("%w: %w", session.ErrNoAnswer, io.EOF), false},
		{"declined", flips, errors.New("protocol: invitation declined: busy"), false},
		{"a reset that is no invitation's", flips, &network.StreamError{Remote: true}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var calls []bool
			_, err := inviteOrWithoutFlips(c.o, func(o engine.Options) (*session.Game, error) {
				calls = append(calls, o.TryFlips())
				if len(calls) == 1 {
					return nil, c.err
				}
				return nil, nil
			}, func(string) {})
			want := "[" + fmt.Sprint(c.o.TryFlips()) + "]"
			if c.retried {
				want = "[true false]"
			}
			if fmt.Sprint(calls) != want {
				t.Errorf("invitations with flips %v, want %s", calls, want)
			}
			if c.retried != (err == nil) {
				t.Errorf("returned %v", err)
			}
		})
	}
}

// TestSERD2HintForAnOlderPeer runs `kakure bot --invite … --games 2`, a
// match series, against a peer that resets the invitation as a kakure
// older than series does (oldKakure): the error says the peer may need a
// newer kakure (SER-D2).
func TestSERD2HintForAnOlderPeer(t *testing.T) {
	old, status, out := botInvitesOldKakure(t, "--variant", "go", "--size", "5", "--games", "2")
	old.wantInvitations(t, "[false]")
	if status != 1 || !strings.Contains(out, "a kakure older than match series resets a series invitation") {
		t.Errorf("kakure bot --invite OLD-PEER --games 2: status %d, output:\n%s\nwant status 1 and the SER-D2 hint", status, out)
	}
}
