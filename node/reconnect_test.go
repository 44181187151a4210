package node_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/node"
	"github.com/libp2p/go-libp2p/core/network"
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
