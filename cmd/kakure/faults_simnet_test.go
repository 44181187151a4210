package main

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	libp2pquic "github.com/libp2p/go-libp2p/p2p/transport/quic"
	"github.com/libp2p/go-libp2p/p2p/transport/quicreuse"
	"github.com/marcopolo/simnet"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/kakure/kakure/protocol/session"
)

// QUIC under loss runs on marcopolo/simnet, the simulated UDP network of
// go-libp2p's own hole-punching tests: each host's QUIC transport gets a
// simnet endpoint instead of a UDP socket (quicreuse.OverrideListenUDP, as
// go-libp2p's x/simlibp2p does), on a simulated link with a latency and a
// bandwidth. simnet has no random loss of its own; lossyConn drops a share
// of the datagrams each endpoint sends.

// lossyConn is a net.PacketConn that drops a share loss of the datagrams
// it is asked to send.
type lossyConn struct {
	net.PacketConn
	loss float64

	mu  sync.Mutex
	rng *rand.Rand

	sent, dropped *atomic.Int64
}

// WriteTo implements net.PacketConn.
func (c *lossyConn) WriteTo(b []byte, addr net.Addr) (int, error) {
	c.mu.Lock()
	drop := c.rng.Float64() < c.loss
	c.mu.Unlock()
	if drop {
		c.dropped.Add(1)
		return len(b), nil
	}
	c.sent.Add(1)
	return c.PacketConn.WriteTo(b, addr)
}

// SetReadBuffer and SetWriteBuffer pass on to the simnet endpoint, which
// ignores them; quic-go logs a warning when they are missing.
func (c *lossyConn) SetReadBuffer(n int) error {
	return c.PacketConn.(*simnet.SimConn).SetReadBuffer(n)
}

// SetWriteBuffer: see SetReadBuffer.
func (c *lossyConn) SetWriteBuffer(n int) error {
	return c.PacketConn.(*simnet.SimConn).SetWriteBuffer(n)
}

// sourceIP is the quicreuse.SourceIPSelector of a simnet host: its one
// address.
type sourceIP struct{ ip net.IP }

// PreferredSourceIPForDestination implements quicreuse.SourceIPSelector.
func (s sourceIP) PreferredSourceIPForDestination(*net.UDPAddr) (net.IP, error) { return s.ip, nil }

// simnetLink is a simulated network of two hosts.
type simnetLink struct {
	net           *simnet.Simnet
	sent, dropped atomic.Int64
}

// simnetPair starts a simnet with oneWay of latency and two libp2p hosts
// on it, each with a game service, QUIC only, each dropping a share loss
// of what it sends; the first is connected to the second.
func simnetPair(t *testing.T, oneWay time.Duration, loss float64) (faultPair, *simnetLink) {
	t.Helper()
	link := &simnetLink{net: &simnet.Simnet{
		LatencyFunc: simnet.StaticLatency(oneWay),
		Logger:      slog.New(slog.DiscardHandler),
	}}
	settings := simnet.NodeBiDiLinkSettings{
		Downlink: simnet.LinkSettings{BitsPerSecond: 100 * simnet.Mibps},
		Uplink:   simnet.LinkSettings{BitsPerSecond: 100 * simnet.Mibps},
	}
	var fp faultPair
	for i := range fp.hosts {
		key, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		ip := net.IPv4(1, 0, 0, byte(i+1))
		seed := uint64(i + 1)
		h, err := libp2p.New(
			libp2p.Identity(key),
			libp2p.ListenAddrs(ma.StringCast(fmt.Sprintf("/ip4/%s/udp/9000/quic-v1", ip))),
			libp2p.Transport(libp2pquic.NewTransport),
			libp2p.QUICReuse(quicreuse.NewConnManager,
				quicreuse.OverrideSourceIPSelector(func() (quicreuse.SourceIPSelector, error) { return sourceIP{ip}, nil }),
				quicreuse.OverrideListenUDP(func(_ string, addr *net.UDPAddr) (net.PacketConn, error) {
					return &lossyConn{PacketConn: link.net.NewEndpoint(addr, settings), loss: loss,
						rng: rand.New(rand.NewPCG(seed, 2)), sent: &link.sent, dropped: &link.dropped}, nil
				})),
			libp2p.DisableRelay(),
			libp2p.DisableMetrics(),
		)
		if err != nil {
			t.Fatalf("libp2p host on simnet: %v", err)
		}
		t.Cleanup(func() { h.Close() })
		svc, err := session.NewService(session.Config{Host: h, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(svc.Close)
		fp.hosts[i], fp.svcs[i] = h, svc
	}
	link.net.Start()
	t.Cleanup(link.net.Close)
	var err error
	for range 3 { // a handshake packet may be lost more often than QUIC retries in time
		if err = fp.hosts[0].Connect(t.Context(), peer.AddrInfo{ID: fp.hosts[1].ID(), Addrs: fp.hosts[1].Addrs()}); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("connecting over simnet: %v", err)
	}
	return fp, link
}
