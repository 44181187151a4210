package node

import (
	"cmp"
	"slices"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// TestAddrRankOrder: shared addresses list public, private, other and
// loopback addresses in that order, IPv4 first within each kind.
func TestAddrRankOrder(t *testing.T) {
	want := []string{
		"/ip4/8.8.8.8/tcp/1",
		"/ip6/2001:4860::1/tcp/1",
		"/ip4/192.168.1.5/udp/1/quic-v1",
		"/ip6/fd00::2/tcp/1",
		"/ip4/169.254.1.1/tcp/1",
		"/ip6/fe80::1/tcp/1",
		"/ip4/127.0.0.1/tcp/1",
		"/ip6/::1/tcp/1",
	}
	var addrs []ma.Multiaddr
	for i := len(want) - 1; i >= 0; i-- {
		addrs = append(addrs, ma.StringCast(want[i]))
	}
	slices.SortStableFunc(addrs, func(a, b ma.Multiaddr) int { return cmp.Compare(addrRank(a), addrRank(b)) })
	for i, a := range addrs {
		if a.String() != want[i] {
			t.Errorf("position %d: %s, want %s", i, a, want[i])
		}
	}
}

// TestLANNotifee: peers mDNS finds are passed on, except this node
// itself, and nothing is sent (or panics) after Close. mDNS itself is
// never started in tests: it sends multicast traffic off this machine.
func TestLANNotifee(t *testing.T) {
	n, err := New(t.Context(), Config{Home: t.TempDir(), ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	other, err := New(t.Context(), Config{Home: t.TempDir(), ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	notifee := lanNotifee{n}
	notifee.HandlePeerFound(peer.AddrInfo{ID: n.ID(), Addrs: n.Host().Addrs()})
	notifee.HandlePeerFound(peer.AddrInfo{ID: other.ID(), Addrs: other.Host().Addrs()})
	select {
	case got := <-n.LANPeers():
		if got.ID != other.ID() {
			t.Errorf("LANPeers gave %s, want %s", got.ID, other.ID())
		}
	default:
		t.Fatal("the found peer was not reported")
	}
	select {
	case got := <-n.LANPeers():
		t.Errorf("LANPeers gave a second peer %s (the node itself?)", got.ID)
	default:
	}
	// Reports beyond the buffer are dropped, not blocking.
	for range cap(n.lanPeers) + 5 {
		notifee.HandlePeerFound(peer.AddrInfo{ID: other.ID()})
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	notifee.HandlePeerFound(peer.AddrInfo{ID: other.ID()})
}

// TestLANPeerDialledByID: a peer found by mDNS is reached by its bare peer
// ID, as the lobby's ^P, Enter invites it: the notifee stores the
// addresses mDNS brought in the peerstore before reporting the peer.
// Real hosts on loopback; mDNS itself is not started (see TestLANNotifee).
func TestLANPeerDialledByID(t *testing.T) {
	n, err := New(t.Context(), Config{Home: t.TempDir(), ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	other, err := New(t.Context(), Config{Home: t.TempDir(), ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0", "/ip4/127.0.0.1/udp/0/quic-v1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if known := n.Host().Peerstore().Addrs(other.ID()); len(known) != 0 {
		t.Fatalf("addresses known before the peer was found: %v; the test proves nothing", known)
	}
	lanNotifee{n}.HandlePeerFound(peer.AddrInfo{ID: other.ID(), Addrs: other.Host().Addrs()})
	got := <-n.LANPeers()
	if got.ID != other.ID() {
		t.Fatalf("LANPeers gave %s, want %s", got.ID, other.ID())
	}
	if known := n.Host().Peerstore().Addrs(other.ID()); len(known) != len(other.Host().Addrs()) {
		t.Errorf("peerstore holds %v, want the %d addresses found", known, len(other.Host().Addrs()))
	}
	if err := n.Host().Connect(t.Context(), peer.AddrInfo{ID: other.ID()}); err != nil {
		t.Fatalf("dialling the peer found on the LAN by its ID: %v", err)
	}
}
