package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/libp2p/go-libp2p/core/network"
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
	old, err := startPeer(ctx, t.TempDir(), []string{"/ip4/127.0.0.1/tcp/0"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer old.close()
	var mu sync.Mutex
	var invitations []bool // whether each carried try-flips
	old.node.Host().SetStreamHandler(protocol.GameProtocol, func(st network.Stream) {
		r := bufio.NewReader(st)
		for range 2 { // the hello, then the invitation
			frame, err := protocol.ReadFrame(r, protocol.MaxFrameSize)
			if err != nil {
				st.Reset()
				return
			}
			if bytes.Contains(frame, []byte(`"kind":"invite"`)) {
				mu.Lock()
				invitations = append(invitations, bytes.Contains(frame, []byte(`"`+engine.OptionTryFlips+`"`)))
				mu.Unlock()
			}
		}
		st.Reset()
	})
	if _, err := a.node.Connect(ctx, old.node.Addrs()[0].String()); err != nil {
		t.Fatal(err)
	}
	var said []string
	g, err := inviteOrWithoutFlips(defaultPhantomOptions(t), func(o engine.Options) (*session.Game, error) {
		return a.service.Invite(ctx, old.node.ID(), o)
	}, func(s string) { said = append(said, s) })
	mu.Lock()
	defer mu.Unlock()
	if g != nil || err == nil {
		t.Fatalf("the stand-in accepted nothing, yet the invitation returned %v, %v", g, err)
	}
	if fmt.Sprint(invitations) != "[true false]" {
		t.Errorf("the invitations carried try-flips %v, want [true false]: one with, then one without", invitations)
	}
	if len(said) != 1 || !strings.Contains(said[0], "UI-D51") {
		t.Errorf("the user was told %q, want one line naming UI-D51", said)
	}
	if !strings.Contains(err.Error(), "invited again without try-flips") || !errors.Is(err, session.ErrNoAnswer) {
		t.Errorf("the error does not tell both invitations: %v", err)
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
