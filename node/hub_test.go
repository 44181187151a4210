package node_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/node"
)

// TestNETD26RelayIsABootstrapPeer: a kakure relay serves the DHT, so
// that players who name it as their only bootstrap peer (no "relays")
// meet there by code: the host reserves a slot on it (found on the DHT,
// it speaks the relay protocol) and announces the code; the guest finds
// the host through it and connects (NET-D26).
func TestNETD26RelayIsABootstrapPeer(t *testing.T) {
	relay, relayAddr := startRelay(t)
	if !relay.NetStatus().DHT {
		t.Fatal("the relay is not on the DHT")
	}
	start := func() *node.Node {
		n, err := node.New(t.Context(), node.Config{Home: t.TempDir(), ListenAddrs: []string{loopbackTCP}, DHT: node.DHTOn,
			Bootstrap: []string{relayAddr}, Relays: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close() })
		return n
	}
	host, guest := start(), start()
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(60*time.Second))
	defer cancel()
	inv, err := host.HostInvite(ctx)
	if err != nil {
		t.Fatalf("HostInvite with the relay as the only bootstrap peer: %v", err)
	}
	defer inv.Close()
	// A person types the code seconds after it shows; on a loaded
	// machine the relay's DHT may take that long to answer with the
	// host's provider record (the full tier's run once found none at
	// once), so the guest looks again as a person would, for a while.
	info, err := guest.JoinInvite(ctx, inv.Code)
	for deadline := testenv.Deadline(5 * time.Second); err != nil && time.Now().Before(deadline); {
		time.Sleep(500 * time.Millisecond)
		info, err = guest.JoinInvite(ctx, inv.Code)
	}
	if err != nil {
		t.Fatalf("JoinInvite: %v", err)
	}
	if info.ID != host.ID() {
		t.Errorf("joined %s, want the host %s", info.ID, host.ID())
	}
	if st := host.NetStatus(); st.DHTPeers != 1 || len(st.Relays) != 1 || st.Relays[0] != relay.ID() {
		t.Errorf("the host's status: %s; want the relay as its DHT peer and its relay", st)
	}
	// --dht off: a relay alone.
	off, err := node.New(t.Context(), node.Config{Home: t.TempDir(), ListenAddrs: []string{loopbackTCP}, DHT: node.DHTOff, Relay: &node.RelayConfig{}})
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close()
	if off.NetStatus().DHT {
		t.Error("a relay with the DHT off serves it")
	}
}

// TestNETD26AddressInUse: a node refuses a listen address with a fixed
// port that another program holds (TCP and QUIC), instead of sharing it
// quietly through SO_REUSEPORT (NET-D26).
func TestNETD26AddressInUse(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	listen := []string{fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", port), fmt.Sprintf("/ip4/127.0.0.1/udp/%d/quic-v1", port)}
	first, err := node.New(t.Context(), node.Config{Home: t.TempDir(), ListenAddrs: listen, Relay: &node.RelayConfig{}})
	if err != nil {
		t.Skipf("port %d taken meanwhile: %v", port, err)
	}
	defer first.Close()
	quic := 0
	for _, a := range first.Addrs() {
		if strings.Contains(a.String(), "/quic-v1/") {
			quic++
		}
	}
	if quic == 0 {
		t.Errorf("the relay listens on no QUIC address: %v", first.Addrs())
	}
	for _, addr := range listen {
		_, err := node.New(t.Context(), node.Config{Home: t.TempDir(), ListenAddrs: []string{addr}, Relay: &node.RelayConfig{}})
		if !errors.Is(err, node.ErrAddrInUse) {
			t.Errorf("a second relay on %s: %v, want ErrAddrInUse", addr, err)
		}
	}
}
