package session_test

import (
	"context"
	"crypto/rand"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// newHost starts a real libp2p host on loopback TCP with a fresh Ed25519
// identity.
func newHost(t testing.TB) host.Host {
	t.Helper()
	priv, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	h, err := libp2p.New(
		libp2p.Identity(priv),
		libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"),
		libp2p.DisableRelay(),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// connect makes a know b's addresses and dials it.
func connect(t testing.TB, a, b host.Host) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(10*time.Second))
	defer cancel()
	if err := a.Connect(ctx, peer.AddrInfo{ID: b.ID(), Addrs: b.Addrs()}); err != nil {
		t.Fatal(err)
	}
}

// pair is two services on two connected hosts.
type pair struct {
	hosts    [2]host.Host
	services [2]*session.Service
	dirs     [2]string
}

func newPair(t *testing.T, cfgs ...func(i int, c *session.Config)) *pair {
	t.Helper()
	return newPairOn(t, [2]host.Host{newHost(t), newHost(t)}, cfgs...)
}

// newPairOn is newPair on the given hosts.
func newPairOn(t *testing.T, hosts [2]host.Host, cfgs ...func(i int, c *session.Config)) *pair {
	t.Helper()
	p := &pair{}
	for i := range 2 {
		p.hosts[i] = hosts[i]
		p.dirs[i] = t.TempDir()
		cfg := session.Config{Host: p.hosts[i], Dir: p.dirs[i], IdleTimeout: testenv.Duration(10 * time.Second), AutoGrace: testenv.Duration(5 * time.Second), Logger: testLogger(t, i)}
		for _, f := range cfgs {
			f(i, &cfg)
		}
		s, err := session.NewService(cfg)
		if err != nil {
			t.Fatal(err)
		}
		p.services[i] = s
		t.Cleanup(s.Close)
	}
	connect(t, p.hosts[0], p.hosts[1])
	return p
}

// testLogger sends a service's log to the test log.
func testLogger(t *testing.T, i int) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t, i}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct {
	t *testing.T
	i int
}

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("peer %d: %s", w.i, strings.TrimSpace(string(p)))
	return len(p), nil
}

// withheldBy is a setup of a pair whose cheater withholds a message for
// good (T-11): the honest peer waits a stretched second for it, and as
// long for the answer to its challenge, instead of the pair's five, so
// that the test waits seconds, not half a minute, on a loaded machine;
// the cheater's program waits a minute, so that its own grace never ends
// the game first. A message the cheater's program sends late but sends
// is challenged, answered, and the game goes on (REC-D12).
func withheldBy(cheater protocol.Role) func(i int, c *session.Config) {
	return func(i int, c *session.Config) {
		c.AutoGrace = testenv.Duration(time.Second)
		if protocol.Role(i) == cheater {
			c.AutoGrace = testenv.Duration(time.Minute)
		}
	}
}

// newPairB is newPair for benchmarks (no test logger).
func newPairB(b *testing.B) *pair {
	p := &pair{}
	for i := range 2 {
		p.hosts[i] = newHost(b)
		p.dirs[i] = b.TempDir()
		s, err := session.NewService(session.Config{Host: p.hosts[i], Dir: p.dirs[i]})
		if err != nil {
			b.Fatal(err)
		}
		p.services[i] = s
		b.Cleanup(s.Close)
	}
	connect(b, p.hosts[0], p.hosts[1])
	return p
}
