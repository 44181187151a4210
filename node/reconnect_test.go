package node_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/node"
	"github.com/libp2p/go-libp2p/core/network"
	ma "github.com/multiformats/go-multiaddr"
)

// waitUntil polls cond every 20 ms until it holds or d passes.
func waitUntil(d time.Duration, cond func() bool) bool {
	deadline := testenv.Deadline(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

// TestKeepReconnectsDirect (T-11): a node holding a peer (Keep) redials
// it by itself when its connection is lost, at its direct address; once
// released, a lost connection stays lost.
func TestKeepReconnectsDirect(t *testing.T) {
	a := startNode(t, loopbackTCP)
	b := startNode(t, loopbackTCP)
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(20*time.Second))
	defer cancel()
	if _, err := a.Connect(ctx, addrWith(t, b, "/tcp/")); err != nil {
		t.Fatal(err)
	}
	a.Keep(b.ID())
	first := a.Host().Network().ConnsToPeer(b.ID())[0]
	a.Host().Network().ClosePeer(b.ID())
	if !waitUntil(10*time.Second, func() bool {
		conns := a.Host().Network().ConnsToPeer(b.ID())
		return len(conns) > 0 && conns[0] != first
	}) {
		t.Fatal("no new connection to the held peer within 10 s of losing it")
	}
	if got := a.ConnectionInfo(b.ID()).Kind; got != node.ConnDirect {
		t.Errorf("reconnected on a %v connection, want direct", got)
	}

	a.Release(b.ID())
	a.Host().Network().ClosePeer(b.ID())
	if waitUntil(2*time.Second, func() bool { return a.Host().Network().Connectedness(b.ID()) == network.Connected }) {
		t.Error("a released peer was redialled")
	}
}

// TestKeepReconnectsViaRelay (T-11): the guest of a game met through a
// relay loses the connection and knows no direct address of the host any
// more: it redials through the relay's circuit, says so while it does
// (ConnectionInfo.Reconnecting) and logs each step in kakure.log at the
// default level.
func TestKeepReconnectsViaRelay(t *testing.T) {
	if os.Getenv("GOLOG_LOG_LEVEL") != "" {
		t.Skip("checks the logs at the default level")
	}
	_, relayAddr := startRelay(t)
	host := startPeerWithRelays(t, relayAddr)
	guestHome := t.TempDir()
	guest, err := node.New(t.Context(), node.Config{Home: guestHome, ListenAddrs: []string{loopbackTCP}, Relays: []string{relayAddr}})
	if err != nil {
		t.Fatal(err)
	}
	defer guest.Close()
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(30*time.Second))
	defer cancel()
	inv, err := host.HostInvite(ctx) // reserves a slot on the relay
	if err != nil {
		t.Fatal(err)
	}
	defer inv.Close()
	if _, err := guest.Connect(ctx, relayAddr+"/p2p-circuit/p2p/"+host.ID().String()); err != nil {
		t.Fatalf("connecting through the relay: %v", err)
	}
	guest.Keep(host.ID())
	defer guest.Release(host.ID())
	guest.Host().Peerstore().ClearAddrs(host.ID())
	guest.Host().Network().ClosePeer(host.ID())
	var states []string
	if !waitUntil(testenv.Duration(20*time.Second), func() bool {
		if r := guest.ConnectionInfo(host.ID()).Reconnecting; r != "" && (len(states) == 0 || states[len(states)-1] != r) {
			states = append(states, r)
		}
		return guest.Host().Network().Connectedness(host.ID()) == network.Connected
	}) {
		t.Fatalf("not reconnected through the relay within 20 s; states seen: %q", states)
	}
	if got := guest.ConnectionInfo(host.ID()).Kind; got != node.ConnRelayed {
		t.Errorf("reconnected on a %v connection, want relayed", got)
	}
	t.Logf("states shown while reconnecting: %q", states)
	if !waitUntil(5*time.Second, func() bool { return guest.ConnectionInfo(host.ID()).Reconnecting == "" }) {
		t.Errorf("still %q once connected", guest.ConnectionInfo(host.ID()).Reconnecting)
	}
	// The redial logs its end after the connection is up: wait for it.
	var logs []byte
	for _, want := range []string{"msg=lost", "msg=redialling", "msg=reconnected", "via=relayed"} {
		if !waitUntil(5*time.Second, func() bool {
			logs, err = os.ReadFile(filepath.Join(guestHome, node.LogFileName))
			return err == nil && strings.Contains(string(logs), want)
		}) {
			t.Errorf("kakure.log has no %q (%v):\n%s", want, err, logs)
		}
	}
}

// TestNETD28RedialsTheAddressItReached: the side that was dialled holds
// its peer and no longer knows the addresses the peer announced (behind
// a NAT they are private ones; the peerstore forgets those of a lost
// peer): when the connection is lost, it redials at the address the
// connection came from (for a hole-punched one, the peer's NAT mapping),
// which it kept, while the peer, holding nothing, dials nobody.
func TestNETD28RedialsTheAddressItReached(t *testing.T) {
	a := startNode(t, loopbackQUIC)
	b := startNode(t, loopbackQUIC)
	ctx := testenv.Context(t, 20*time.Second)
	if _, err := a.Connect(ctx, addrWith(t, b, "/quic-v1/")); err != nil {
		t.Fatal(err)
	}
	b.Keep(a.ID())
	defer b.Release(a.ID())
	// Identify tells b a's addresses: wait for it, then forget them.
	if !waitUntil(5*time.Second, func() bool { return len(b.Host().Peerstore().Addrs(a.ID())) > 0 }) {
		t.Fatal("identify told b no address of a")
	}
	b.Host().Peerstore().ClearAddrs(a.ID())
	b.Host().Network().ClosePeer(a.ID())
	if !waitUntil(10*time.Second, func() bool {
		for _, c := range b.Host().Network().ConnsToPeer(a.ID()) {
			if c.Stat().Direction == network.DirOutbound {
				return true
			}
		}
		return false
	}) {
		t.Fatal("b did not redial a at the address a's connection came from within 10 s")
	}
}

// TestNETD28KeepDialsAPeerNotConnected: a peer held while it is not
// connected (a game resumed at start whose peer did not answer) is dialled
// at once, since the games leave their dials to the node (Held).
func TestNETD28KeepDialsAPeerNotConnected(t *testing.T) {
	a := startNode(t, loopbackTCP)
	b := startNode(t, loopbackTCP)
	a.Host().Peerstore().AddAddrs(b.ID(), b.Addrs(), time.Hour)
	if a.Held(b.ID()) {
		t.Fatal("a peer held before Keep")
	}
	a.Keep(b.ID())
	defer a.Release(b.ID())
	if !a.Held(b.ID()) {
		t.Fatal("a peer not held after Keep")
	}
	if !waitUntil(10*time.Second, func() bool { return a.Host().Network().Connectedness(b.ID()) == network.Connected }) {
		t.Fatal("a held peer that was not connected was not dialled within 10 s")
	}
}

// TestNETD28RedialLooksThePeerUpOnTheDHT: a held peer comes back at
// another address (its NAT gave it another mapping after a cut; here it
// restarts on another port), while its old address swallows every packet
// (a dial there hangs until its timeout, so that no dial fails fast and
// makes libp2p's routed host look it up). The node finds the new address
// by its own lookups of the peer on the DHT while the peer is lost, and
// reconnects there.
func TestNETD28RedialLooksThePeerUpOnTheDHT(t *testing.T) {
	servers := startDHTServers(t, 2)
	start := func(home string) *node.Node {
		t.Helper()
		n, err := node.New(t.Context(), node.Config{Home: home, ListenAddrs: []string{loopbackQUIC}, DHT: node.DHTOn,
			Bootstrap: bootstrapAddrs(servers), Relays: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		ctx := testenv.Context(t, 20*time.Second)
		if !n.AwaitDHT(ctx) {
			t.Fatalf("the node met no DHT server: %s", n.NetStatus())
		}
		return n
	}
	homeB := t.TempDir()
	a, b := start(t.TempDir()), start(homeB)
	ctx := testenv.Context(t, 20*time.Second)
	oldAddr := addrWith(t, b, "/quic-v1/")
	if _, err := a.Connect(ctx, oldAddr); err != nil {
		t.Fatal(err)
	}
	a.Keep(b.ID())
	defer a.Release(b.ID())
	oldPort, err := ma.StringCast(oldAddr).ValueForProtocol(ma.P_UDP)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	hole, err := net.ListenPacket("udp4", "127.0.0.1:"+oldPort)
	if err != nil {
		t.Fatalf("taking the old port: %v", err)
	}
	defer hole.Close()
	go func() {
		buf := make([]byte, 2048)
		for {
			if _, _, err := hole.ReadFrom(buf); err != nil {
				return
			}
		}
	}()
	b = start(homeB) // the same peer ID, another port
	newAddr := addrWith(t, b, "/quic-v1/")
	if newAddr == oldAddr {
		t.Fatal("the peer came back at the same address")
	}
	if !waitUntil(30*time.Second, func() bool {
		for _, c := range a.Host().Network().ConnsToPeer(b.ID()) {
			if strings.HasPrefix(newAddr, c.RemoteMultiaddr().String()) {
				return true
			}
		}
		return false
	}) {
		t.Fatalf("not reconnected at the peer's new address %s within 30 s", newAddr)
	}
}
