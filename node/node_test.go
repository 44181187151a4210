package node_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/protocol"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/node"
)

// Loopback addresses only: tests never send traffic off this machine.
const (
	loopbackTCP  = "/ip4/127.0.0.1/tcp/0"
	loopbackQUIC = "/ip4/127.0.0.1/udp/0/quic-v1"
)

const echoProtocol = protocol.ID("/kakure-test/echo/1.0.0")

// startNode starts a node in its own temporary home and closes it at the
// end of the test.
func startNode(t testing.TB, listen ...string) *node.Node {
	t.Helper()
	n, err := node.New(t.Context(), node.Config{Home: t.TempDir(), ListenAddrs: listen})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// serveEcho answers each stream on echoProtocol with what it read, in
// upper case, reading at most 1 KiB.
func serveEcho(n *node.Node) {
	n.Host().SetStreamHandler(echoProtocol, func(s network.Stream) {
		s.SetDeadline(time.Now().Add(testenv.Duration(10 * time.Second)))
		b, err := io.ReadAll(io.LimitReader(s, 1024))
		if err != nil {
			s.Reset()
			return
		}
		if _, err := s.Write(bytes.ToUpper(b)); err != nil {
			s.Reset()
			return
		}
		s.Close()
	})
}

// addrWith returns n's first shared address containing part.
func addrWith(t testing.TB, n *node.Node, part string) string {
	t.Helper()
	for _, a := range n.Addrs() {
		if strings.Contains(a.String(), part) {
			return a.String()
		}
	}
	t.Fatalf("no address with %q among %v", part, n.Addrs())
	return ""
}

// exchange connects a to b at addr, sends a message on echoProtocol and
// checks the answer; it returns the state of the connection used.
func exchange(t testing.TB, a, b *node.Node, addr string) network.ConnectionState {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(20*time.Second))
	defer cancel()
	id, err := a.Connect(ctx, addr)
	if err != nil {
		t.Fatalf("Connect(%s): %v", addr, err)
	}
	if id != b.ID() {
		t.Fatalf("Connect returned %s, want %s", id, b.ID())
	}
	s, err := a.Host().NewStream(ctx, b.ID(), echoProtocol)
	if err != nil {
		t.Fatalf("NewStream: %v", err)
	}
	defer s.Close()
	s.SetDeadline(time.Now().Add(testenv.Duration(10 * time.Second)))
	if _, err := s.Write([]byte("hello, kakure")); err != nil {
		t.Fatal(err)
	}
	if err := s.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(s)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "HELLO, KAKURE" {
		t.Fatalf("echo answered %q", got)
	}
	return s.Conn().ConnState()
}

// TestT2ConnectAndExchange: two nodes with their own identities connect
// over TCP and over QUIC on loopback and exchange bytes on a stream, over
// an authenticated, encrypted channel.
func TestT2ConnectAndExchange(t *testing.T) {
	tests := []struct {
		name      string
		listen    string
		part      string
		transport string
		security  []protocol.ID
	}{
		{"T-2 TCP", loopbackTCP, "/tcp/", "tcp", []protocol.ID{"/noise", "/tls/1.0.0"}},
		// QUIC has TLS 1.3 built in; libp2p reports no separate protocol.
		{"T-2 QUIC", loopbackQUIC, "/quic-v1/", "quic-v1", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := startNode(t, tt.listen), startNode(t, tt.listen)
			if a.ID() == b.ID() {
				t.Fatal("two homes gave the same peer ID")
			}
			serveEcho(b)
			state := exchange(t, a, b, addrWith(t, b, tt.part))
			if state.Transport != tt.transport {
				t.Errorf("transport %q, want %q", state.Transport, tt.transport)
			}
			if tt.security != nil && !contains(tt.security, state.Security) {
				t.Errorf("security protocol %q, want one of %v", state.Security, tt.security)
			}
		})
	}
}

func contains[T comparable](list []T, x T) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// TestT2OtherProtocolVersion: a stream for a protocol version the peer
// does not speak fails at once with an error, not a hang.
func TestT2OtherProtocolVersion(t *testing.T) {
	a, b := startNode(t, loopbackTCP), startNode(t, loopbackTCP)
	serveEcho(b)
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(20*time.Second))
	defer cancel()
	if _, err := a.Connect(ctx, addrWith(t, b, "/tcp/")); err != nil {
		t.Fatal(err)
	}
	_, err := a.Host().NewStream(ctx, b.ID(), "/kakure-test/echo/2.0.0")
	if err == nil {
		t.Fatal("NewStream for an unknown protocol version succeeded")
	}
	if ctx.Err() != nil {
		t.Fatalf("NewStream waited for the deadline: %v", err)
	}
}

// TestNodeListensOnBothTransports: with the default kinds of address (on
// loopback here), a node shares a TCP and a QUIC address, each ending in
// its peer ID.
func TestNodeListensOnBothTransports(t *testing.T) {
	n := startNode(t, loopbackTCP, loopbackQUIC)
	addrs := n.Addrs()
	var tcp, quic bool
	for _, a := range addrs {
		id, err := a.ValueForProtocol(ma.P_P2P)
		if err != nil || id != n.ID().String() {
			t.Errorf("address %v does not end in /p2p/%s", a, n.ID())
		}
		tcp = tcp || strings.Contains(a.String(), "/tcp/")
		quic = quic || strings.Contains(a.String(), "/quic-v1/")
	}
	if !tcp || !quic {
		t.Errorf("addresses %v: TCP %v, QUIC %v", addrs, tcp, quic)
	}
	if n.Home() == "" {
		t.Error("Home is empty")
	}
}

func TestConnectBadAddress(t *testing.T) {
	a, b := startNode(t, loopbackTCP), startNode(t, loopbackTCP)
	tests := []struct {
		name, addr, want string
	}{
		{"empty", "", "empty address"},
		{"not a multiaddr", "192.0.2.7:4001", "192.0.2.7:4001"},
		{"unknown protocol", "/ip4/127.0.0.1/carrier-pigeon/1", "carrier-pigeon"},
		{"no peer ID", "/ip4/127.0.0.1/tcp/4001", "/p2p/<peer ID>"},
		{"peer ID only", "/p2p/" + b.ID().String(), "no address"},
		{"own address", addrWith(t, a, "/tcp/"), "own address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := a.Connect(t.Context(), tt.addr)
			if !errors.Is(err, node.ErrBadAddress) {
				t.Fatalf("Connect(%q) = %v, want ErrBadAddress", tt.addr, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
		})
	}
}

func TestNewRefusesBadListenAddr(t *testing.T) {
	_, err := node.New(t.Context(), node.Config{Home: t.TempDir(), ListenAddrs: []string{"/ip4/127.0.0.1/tcp/x"}})
	if err == nil || !strings.Contains(err.Error(), "/ip4/127.0.0.1/tcp/x") {
		t.Errorf("New with a bad listen address = %v", err)
	}
	_, err = node.New(t.Context(), node.Config{Home: t.TempDir(), ListenAddrs: []string{}})
	if err == nil {
		t.Error("New with no listen addresses succeeded")
	}
}

func TestCloseClosesLANPeers(t *testing.T) {
	n, err := node.New(t.Context(), node.Config{Home: t.TempDir(), ListenAddrs: []string{loopbackTCP}})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := <-n.LANPeers(); ok {
		t.Error("LANPeers delivered a peer after Close")
	}
	if err := n.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestDefaultListenAddrs(t *testing.T) {
	got := strings.Join(node.DefaultListenAddrs(), " ")
	for _, want := range []string{"/ip4/0.0.0.0/tcp/0", "/ip4/0.0.0.0/udp/0/quic-v1", "/ip6/::/tcp/0", "/ip6/::/udp/0/quic-v1"} {
		if !strings.Contains(got, want) {
			t.Errorf("DefaultListenAddrs() = %s, missing %s", got, want)
		}
	}
}

func BenchmarkExchangeTCP(b *testing.B) {
	x, y := startNode(b, loopbackTCP), startNode(b, loopbackTCP)
	serveEcho(y)
	addr := addrWith(b, y, "/tcp/")
	for b.Loop() {
		exchange(b, x, y, addr)
	}
}
