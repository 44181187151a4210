package node_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kakure/kakure/node"
	"github.com/libp2p/go-libp2p/core/network"
)

// TestNETD40BothRestartedFindEachOther (NET-D40): the two nodes of a game
// both stop (the kill campaign killed one program while it redialled the
// other, which was being restarted) and start again at the same homes and
// addresses, with no discovery: the node that holds its peer again dials
// it at the addresses its home's address book kept. Without the book
// neither knew an address of the other ("no addresses") and the game
// never resumed.
func TestNETD40BothRestartedFindEachOther(t *testing.T) {
	homeA, homeB := t.TempDir(), t.TempDir()
	start := func(home string, listen ...string) *node.Node {
		n, err := node.New(t.Context(), node.Config{Home: home, ListenAddrs: listen})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	a, b := start(homeA, loopbackTCP), start(homeB, loopbackTCP)
	listenB := b.Host().Addrs()
	var listenStrs []string
	for _, m := range listenB {
		listenStrs = append(listenStrs, m.String())
	}
	a.Host().Peerstore().AddAddrs(b.ID(), listenB, time.Hour)
	a.Keep(b.ID())
	if !waitUntil(10*time.Second, func() bool { return a.Host().Network().Connectedness(b.ID()) == network.Connected }) {
		t.Fatal("a held peer was not dialled")
	}
	if _, err := os.Stat(filepath.Join(homeA, "peer-addrs.json")); err != nil {
		t.Fatalf("no address book after holding a connected peer: %v", err)
	}
	idB := b.ID()
	a.Close()
	b.Close()

	b2 := start(homeB, listenStrs...)
	defer b2.Close()
	if b2.ID() != idB {
		t.Fatalf("B restarted as %s, want %s", b2.ID(), idB)
	}
	a2 := start(homeA, loopbackTCP)
	defer a2.Close()
	if n := len(a2.Host().Peerstore().Addrs(idB)); n != 0 {
		t.Fatalf("the restarted node's peerstore already holds %d addresses of B", n)
	}
	a2.Keep(idB)
	defer a2.Release(idB)
	if !waitUntil(10*time.Second, func() bool { return a2.Host().Network().Connectedness(idB) == network.Connected }) {
		t.Fatal("the restarted node did not dial its held peer at the address its book kept, within 10 s")
	}
}
