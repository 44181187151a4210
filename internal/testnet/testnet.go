// Package testnet starts what the tests of protocol (its external tests)
// and of the packages above it (watch, bot, gtp, cmd/kakure) need to play
// real games: a protocol service on a fresh libp2p host on loopback, an
// invitation accepted, and a game between two services played by bots
// (tests only).
package testnet

import (
	"crypto/rand"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"

	"github.com/kakure/kakure/protocol/session"
)

// Service starts a protocol service on a fresh host listening on
// loopback TCP (no relay), with short idle and automatic-step graces, its
// games in a temporary directory; both end with the test.
func Service(t testing.TB) (host.Host, *session.Service) {
	t.Helper()
	h := Host(t)
	return h, ServiceOn(t, h, nil)
}

// Host starts a fresh host listening on loopback TCP (no relay), closed
// with the test.
func Host(t testing.TB) host.Host {
	t.Helper()
	priv, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	h, err := libp2p.New(libp2p.Identity(priv), libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// ServiceOn starts a protocol service on h configured as Service's, then
// changed by configure (nil: none); it ends with the test.
func ServiceOn(t testing.TB, h host.Host, configure func(*session.Config)) *session.Service {
	t.Helper()
	cfg := session.Config{Host: h, Dir: t.TempDir(), IdleTimeout: 10 * time.Second, AutoGrace: 5 * time.Second}
	if configure != nil {
		configure(&cfg)
	}
	s, err := session.NewService(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}
