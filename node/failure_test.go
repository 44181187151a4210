package node_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/sec"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/node"
)

// TestNETD22FailureHeadlines: each class of failure to reach a peer, a
// relay or a code's host, made for real with hosts on loopback, comes out
// as a *node.Failure of its class, whose Error is one line naming the
// cause (no raw libp2p text), whose Detail keeps the raw error, and
// which is retried only when retrying can mend it (NET-D22).
func TestNETD22FailureHeadlines(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(90*time.Second))
	defer cancel()
	relay, relayAddr := startRelay(t)
	_ = relay
	tests := []struct {
		name      string
		make      func(t *testing.T) error
		kind      node.FailureKind
		retryable bool
		words     []string // the headline contains each
	}{
		{"wrong code", func(t *testing.T) error {
			_, err := startPeerWithRelays(t, relayAddr).JoinInvite(ctx, "acorn zzz quail")
			return err
		}, node.FailBadCode, false, []string{"not an invite code", `"zzz"`}},
		{"nobody hosts it", func(t *testing.T) error {
			_, err := startPeerWithRelays(t, relayAddr).JoinInvite(ctx, "acorn acorn acorn")
			return err
		}, node.FailCodeNotFound, false, []string{"nobody hosts the code acorn-acorn-acorn"}},
		{"peer offline: nothing listens at its address", func(t *testing.T) error {
			gone := startNode(t, loopbackTCP)
			addr := addrWith(t, gone, "/tcp/")
			gone.Close()
			_, err := startNode(t, loopbackTCP).Connect(ctx, addr)
			return err
		}, node.FailPeerOffline, true, []string{"does not answer", "offline"}},
		{"peer offline: the code's host was killed, its relay still holds the code", func(t *testing.T) error {
			host := startPeerWithRelays(t, relayAddr)
			inv, err := host.HostInvite(ctx)
			if err != nil {
				t.Fatal(err)
			}
			host.Host().Close() // killed: the code stays on the relay
			_, err = startPeerWithRelays(t, relayAddr).JoinInvite(ctx, inv.Code)
			return err
		}, node.FailPeerOffline, true, []string{"the host of", "not on the relay any more"}},
		{"peer ID mismatch over TCP", func(t *testing.T) error {
			a, b := startNode(t, loopbackTCP), startNode(t, loopbackTCP)
			addr := addrWith(t, a, "/tcp/")
			_, err := startNode(t, loopbackTCP).Connect(ctx, strings.Replace(addr, a.ID().String(), b.ID().String(), 1))
			return err
		}, node.FailPeerMismatch, false, []string{"answers as another peer", "out of date"}},
		{"peer ID mismatch over QUIC", func(t *testing.T) error {
			a, b := startNode(t, loopbackQUIC), startNode(t, loopbackQUIC)
			addr := addrWith(t, a, "/quic-v1/")
			_, err := startNode(t, loopbackQUIC).Connect(ctx, strings.Replace(addr, a.ID().String(), b.ID().String(), 1))
			return err
		}, node.FailPeerMismatch, false, []string{"answers as another peer"}},
		{"relay down", func(t *testing.T) error {
			dead, deadAddr := startRelay(t)
			dead.Close()
			_, err := startPeerWithRelays(t, deadAddr).JoinInvite(ctx, "acorn acorn acorn")
			return err
		}, node.FailRelayDown, true, []string{"relay", "not answer"}},
		{"relay full: no reservation", func(t *testing.T) error {
			full, err := node.New(ctx, node.Config{Home: t.TempDir(), ListenAddrs: []string{loopbackTCP}, Relay: &node.RelayConfig{MaxReservations: 1}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { full.Close() })
			fullAddr := full.Addrs()[0].String()
			if _, err := startPeerWithRelays(t, fullAddr).HostInvite(ctx); err != nil {
				t.Fatalf("the first host: %v", err)
			}
			_, err = startPeerWithRelays(t, fullAddr).HostInvite(ctx)
			return err
		}, node.FailRelayFull, true, []string{"refused this node a reservation", "full"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.make(t)
			checkFailure(t, err, tt.kind, tt.retryable, tt.words...)
		})
	}
}

// TestNETD22DialErrorsClassified: the dial errors that loopback cannot
// make (the network unreachable, a dial that hangs, a relay's refusal),
// as libp2p's swarm reports them, one per address, fall in their class;
// among several addresses the most telling error decides (NET-D22). The
// namespace tests make them for real (TestNETD22FailuresInTheLab).
func TestNETD22DialErrorsClassified(t *testing.T) {
	p := startNode(t, loopbackTCP).ID()
	addr := func(s string) ma.Multiaddr { return ma.StringCast(s) }
	opErr := func(errno syscall.Errno) error {
		return &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", errno)}
	}
	dialErr := func(causes ...error) error {
		de := &swarm.DialError{Peer: p, Cause: swarm.ErrAllDialsFailed}
		for i, c := range causes {
			de.DialErrors = append(de.DialErrors, swarm.TransportError{Address: addr(fmt.Sprintf("/ip4/192.0.0.%d/tcp/4001", 70+i)), Cause: c})
		}
		return fmt.Errorf("node: connecting to %s: %w", p, de)
	}
	relayErr := errors.New("error opening relay circuit: NO_RESERVATION (204)")
	tests := []struct {
		name string
		err  error
		kind node.FailureKind
	}{
		{"network unreachable", dialErr(opErr(syscall.ENETUNREACH), opErr(syscall.EHOSTUNREACH)), node.FailNoInternet},
		{"DNS name not found", dialErr(&net.DNSError{Err: "no such host", Name: "bootstrap.libp2p.io", IsNotFound: true}), node.FailNoInternet},
		{"refused", dialErr(opErr(syscall.ECONNREFUSED)), node.FailPeerOffline},
		{"silent", dialErr(context.DeadlineExceeded), node.FailPeerOffline},
		{"QUIC silent", dialErr(errors.New("timeout: no recent network activity")), node.FailPeerOffline},
		{"no reservation beats a silent direct address", dialErr(context.DeadlineExceeded, relayErr), node.FailPeerOffline},
		{"relay refused the circuit", dialErr(errors.New("error opening relay circuit: RESOURCE_LIMIT_EXCEEDED (201)")), node.FailRelayFull},
		{"mismatch beats everything", dialErr(opErr(syscall.ECONNREFUSED), sec.ErrPeerIDMismatch{Expected: p, Actual: p}), node.FailPeerMismatch},
		{"unreachable but for one cut", dialErr(opErr(syscall.ENETUNREACH), errors.New("failed to negotiate security protocol: EOF")), node.FailCut},
		{"cut", dialErr(errors.New("failed to negotiate security protocol: read: connection reset by peer")), node.FailCut},
		{"no address worth dialling", fmt.Errorf("failed to dial: %w", &swarm.DialError{Peer: p, Cause: swarm.ErrNoGoodAddresses,
			DialErrors: []swarm.TransportError{{Address: addr("/ip4/127.0.0.1/tcp/1"), Cause: swarm.ErrGaterDisallowedConnection}}}), node.FailPeerOffline},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := node.ClassifyDialError(tt.err, p)
			if f.Kind != tt.kind {
				t.Errorf("class %s, want %s: %s", f.Kind, tt.kind, f.Headline)
			}
			if !errors.Is(f, tt.err) || f.Detail() == "" {
				t.Errorf("the raw error is not kept: %v", f.Detail())
			}
		})
	}
}

// checkFailure checks that err is a *node.Failure of kind, retryable or
// not, whose headline is one line without libp2p's raw text and contains
// words, and which keeps a detail.
func checkFailure(t *testing.T, err error, kind node.FailureKind, retryable bool, words ...string) {
	t.Helper()
	f := node.AsFailure(err)
	if f == nil {
		t.Fatalf("error %v (%T): not a *node.Failure", err, err)
	}
	t.Logf("%s: %s", f.Kind, f.Headline)
	if f.Kind != kind {
		t.Errorf("class %s, want %s; detail: %s", f.Kind, kind, f.Detail())
	}
	if node.Retryable(err) != retryable {
		t.Errorf("Retryable = %v, want %v", node.Retryable(err), retryable)
	}
	if err.Error() != f.Headline || strings.Contains(f.Headline, "\n") {
		t.Errorf("Error() = %q: want the headline alone, on one line", err.Error())
	}
	for _, raw := range []string{"failed to dial", "* [", "NO_RESERVATION", "peer id mismatch", "context deadline"} {
		if strings.Contains(f.Headline, raw) {
			t.Errorf("the headline holds raw text %q: %s", raw, f.Headline)
		}
	}
	for _, w := range words {
		if !strings.Contains(f.Headline, w) {
			t.Errorf("the headline lacks %q: %s", w, f.Headline)
		}
	}
	if f.Detail() == "" {
		t.Error("no detail kept")
	}
}

// TestNETD23NoPathBothSidesTold: a guest that meets the host of a code
// only through a limited public relay (a stand-in DHT server on
// loopback; the host's own addresses out of the guest's reach, as behind
// a NAT) fails with FailNoPath, not retried, and tells the host, whose
// node reports it as a Notice naming the guest (NET-D19, NET-D23).
func TestNETD23NoPathBothSidesTold(t *testing.T) {
	servers := startDHTServers(t, 2)
	host := startDHTPeer(t, servers)
	guest := startDHTNode(t, servers)
	node.TreatAsRemote(guest) // the host's loopback addresses are not for it
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(60*time.Second))
	defer cancel()
	if !guest.AwaitDHT(ctx) {
		t.Fatal("the guest met no DHT server")
	}
	inv, err := host.HostInvite(ctx)
	if err != nil {
		t.Fatalf("HostInvite: %v", err)
	}
	defer inv.Close()
	awaitProviders(t, servers, inv.Code, 1)
	_, err = guest.JoinInvite(ctx, inv.Code)
	checkFailure(t, err, node.FailNoPath, false, "no way through the NATs", "kakure relay")
	select {
	case nt := <-host.Notices():
		if nt.Peer != guest.ID() || nt.Kind != node.FailNoPath || !strings.Contains(nt.Headline, "kakure relay") {
			t.Errorf("the host's notice: %+v", nt)
		}
		t.Logf("the host: %s", nt.Headline)
	case <-time.After(testenv.Duration(10 * time.Second)):
		t.Fatal("the host was not told")
	}
}

// TestNETD24NoLoopbackOfRemotePeers: a node on a real network dials no
// loopback address of a peer it learnt (the peerstore, as identify, the
// DHT or mDNS fill it), but does dial one the user typed (NET-D24).
func TestNETD24NoLoopbackOfRemotePeers(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(20*time.Second))
	defer cancel()
	far := startNode(t, loopbackTCP)
	n := startNode(t, loopbackTCP)
	node.TreatAsRemote(n)
	n.Host().Peerstore().AddAddrs(far.ID(), far.Host().Addrs(), time.Hour)
	if err := n.Host().Connect(ctx, peer.AddrInfo{ID: far.ID()}); err == nil {
		t.Fatal("dialled a learnt loopback address of another peer")
	} else {
		t.Logf("learnt loopback address refused: %v", strings.Join(strings.Fields(err.Error()), " "))
	}
	if _, err := n.Connect(ctx, addrWith(t, far, "/tcp/")); err != nil {
		t.Fatalf("a typed loopback address was not dialled: %v", err)
	}
	// And a node that listens on loopback only dials them: every peer it
	// reaches is on this machine.
	local := startNode(t, loopbackTCP)
	other := startNode(t, loopbackTCP)
	local.Host().Peerstore().AddAddrs(other.ID(), other.Host().Addrs(), time.Hour)
	if err := local.Host().Connect(ctx, peer.AddrInfo{ID: other.ID()}); err != nil {
		t.Fatalf("a loopback-only node did not dial a loopback peer: %v", err)
	}
}
