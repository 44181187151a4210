package node

import (
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/kakure/kakure/internal/testenv"
	ma "github.com/multiformats/go-multiaddr"
)

// TestNETD41PunchPacketFromQUICPort: the packet kakure's second hole
// punch sends before its SYNC leaves from the node's QUIC socket (the
// port its QUIC address names, which the NAT must map to the peer), to
// each QUIC address of the peer and to no other (NET-D41).
func TestNETD41PunchPacketFromQUICPort(t *testing.T) {
	n, err := New(t.Context(), Config{Home: t.TempDir(), ListenAddrs: []string{"/ip4/127.0.0.1/udp/0/quic-v1", "/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	quicPort := 0
	for _, a := range n.host.Network().ListenAddresses() {
		if ua := quicUDPAddr(a); ua != nil {
			quicPort = ua.Port
		}
	}
	if quicPort == 0 {
		t.Fatal("the node listens on no QUIC address")
	}
	// The peer: a UDP socket, named by a QUIC address, a TCP one that
	// must get nothing, and a second UDP socket named by a plain UDP
	// address (not QUIC) that must get nothing either.
	peerQUIC, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer peerQUIC.Close()
	other, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	theirs := []ma.Multiaddr{
		ma.StringCast("/ip4/127.0.0.1/tcp/1"),
		ma.StringCast("/ip4/127.0.0.1/udp/" + itoa(other.LocalAddr().(*net.UDPAddr).Port)),
		ma.StringCast("/ip4/127.0.0.1/udp/" + itoa(peerQUIC.LocalAddr().(*net.UDPAddr).Port) + "/quic-v1"),
	}
	if sent := n.sendPunchPackets(theirs); sent != 1 {
		t.Errorf("sent %d packets, want 1 (to the one QUIC address)", sent)
	}
	buf := make([]byte, 2048)
	peerQUIC.SetReadDeadline(time.Now().Add(testenv.Duration(5 * time.Second)))
	k, from, err := peerQUIC.ReadFromUDP(buf)
	if err != nil {
		t.Fatalf("no packet at the peer's QUIC address: %v", err)
	}
	if from.Port != quicPort {
		t.Errorf("the packet came from port %d, want the QUIC socket's %d", from.Port, quicPort)
	}
	if k == 0 {
		t.Error("the packet is empty")
	}
	other.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if _, _, err := other.ReadFromUDP(buf); err == nil {
		t.Error("a packet reached an address that is not a QUIC one")
	}
}

func itoa(i int) string { return fmt.Sprint(i) }
