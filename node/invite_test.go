package node_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/node/rendezvous"
)

// startRelay starts a kakure relay on loopback and returns it with its
// address.
func startRelay(t testing.TB) (*node.Node, string) {
	t.Helper()
	r, err := node.New(t.Context(), node.Config{Home: t.TempDir(), ListenAddrs: []string{loopbackTCP}, Relay: &node.RelayConfig{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, r.Addrs()[0].String()
}

// startPeerWithRelays starts a node on loopback that uses relays.
func startPeerWithRelays(t testing.TB, relays ...string) *node.Node {
	t.Helper()
	n, err := node.New(t.Context(), node.Config{Home: t.TempDir(), ListenAddrs: []string{loopbackTCP}, Relays: relays})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

func TestHostJoinInvite(t *testing.T) {
	relay, relayAddr := startRelay(t)
	host := startPeerWithRelays(t, relayAddr)
	guest := startPeerWithRelays(t, relayAddr)
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(20*time.Second))
	defer cancel()

	inv, err := host.HostInvite(ctx)
	if err != nil {
		t.Fatalf("HostInvite: %v", err)
	}
	if _, err := rendezvous.ParseCode(inv.Code); err != nil {
		t.Fatalf("HostInvite gave code %q: %v", inv.Code, err)
	}
	if st, _ := relay.RelayStats(); st.Codes != 1 {
		t.Errorf("relay holds %d codes, want 1", st.Codes)
	}
	// The guest types the code in capitals, cut short.
	typed := strings.ToUpper(strings.ReplaceAll(inv.Code, "-", " "))
	info, err := guest.JoinInvite(ctx, typed)
	if err != nil {
		t.Fatalf("JoinInvite(%q): %v", typed, err)
	}
	if info.ID != host.ID() {
		t.Fatalf("JoinInvite found %s, want the host %s", info.ID, host.ID())
	}
	ci := guest.ConnectionInfo(host.ID())
	if ci.Kind != node.ConnDirect {
		t.Errorf("connection on loopback: %v, want direct", ci.Kind)
	}
	rtt, err := guest.Ping(ctx, host.ID())
	if err != nil || rtt <= 0 {
		t.Fatalf("Ping = %v, %v", rtt, err)
	}
	if got := guest.ConnectionInfo(host.ID()).RTT; got != rtt {
		t.Errorf("ConnectionInfo RTT = %v, want the ping's %v", got, rtt)
	}
	if _, err := host.JoinInvite(ctx, inv.Code); err == nil {
		t.Error("JoinInvite of the node's own code: no error")
	}

	inv.Close()
	if st, _ := relay.RelayStats(); st.Codes != 0 {
		t.Errorf("relay holds %d codes after Close, want 0", st.Codes)
	}
	if _, err := guest.JoinInvite(ctx, inv.Code); !errors.Is(err, rendezvous.ErrNotFound) {
		t.Errorf("JoinInvite of a closed invite: %v, want ErrNotFound", err)
	}
}

func TestInviteErrors(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(20*time.Second))
	defer cancel()
	lonely := startPeerWithRelays(t)
	if _, err := lonely.HostInvite(ctx); !errors.Is(err, node.ErrNoRelays) {
		t.Errorf("HostInvite without relays: %v, want ErrNoRelays", err)
	}
	if _, err := lonely.JoinInvite(ctx, "acorn-acorn-acorn"); !errors.Is(err, node.ErrNoRelays) {
		t.Errorf("JoinInvite without relays: %v, want ErrNoRelays", err)
	}
	_, relayAddr := startRelay(t)
	guest := startPeerWithRelays(t, relayAddr)
	if _, err := guest.JoinInvite(ctx, "acorn acorn"); !errors.Is(err, rendezvous.ErrBadCode) {
		t.Errorf("JoinInvite of a bad code: %v, want ErrBadCode", err)
	}
	if _, err := guest.JoinInvite(ctx, "acorn-acorn-acorn"); !errors.Is(err, rendezvous.ErrNotFound) {
		t.Errorf("JoinInvite of an unknown code: %v, want ErrNotFound", err)
	}
	// A relay that is not running: a clear error, not a hang.
	dead, deadAddr := startRelay(t)
	dead.Close()
	stranded := startPeerWithRelays(t, deadAddr)
	if _, err := stranded.HostInvite(ctx); node.AsFailure(err) == nil || node.AsFailure(err).Kind != node.FailRelayDown || !strings.Contains(node.AsFailure(err).Detail(), "no relay reachable") {
		t.Errorf("HostInvite with the relay down: %v, want FailRelayDown (no relay reachable)", err)
	}
}

// TestRelayedConnection connects two peers through the relay only and
// checks what ConnectionInfo, Ping and RelayStats say. On loopback there
// is no public address, so no hole punching: the connection stays
// relayed.
func TestRelayedConnection(t *testing.T) {
	relay, relayAddr := startRelay(t)
	host := startPeerWithRelays(t, relayAddr)
	guest := startPeerWithRelays(t, relayAddr)
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(20*time.Second))
	defer cancel()
	inv, err := host.HostInvite(ctx) // reserves a slot on the relay
	if err != nil {
		t.Fatal(err)
	}
	defer inv.Close()
	if _, err := guest.Connect(ctx, relayAddr+"/p2p-circuit/p2p/"+host.ID().String()); err != nil {
		t.Fatalf("connecting through the relay: %v", err)
	}
	ci := guest.ConnectionInfo(host.ID())
	if ci.Kind != node.ConnRelayed {
		t.Fatalf("connection: %v, want relayed", ci.Kind)
	}
	if _, err := guest.Ping(ctx, host.ID()); err != nil {
		t.Fatalf("Ping through the relay: %v", err)
	}
	st, ok := relay.RelayStats()
	if !ok || st.CircuitsOpened < 1 || st.BytesRelayed < 64 {
		t.Errorf("relay stats %v, %v: want a circuit and the ping's bytes", st, ok)
	}
	if _, ok := guest.RelayStats(); ok {
		t.Error("RelayStats of a node that is not a relay: ok")
	}
	if got := guest.ConnectionInfo(relay.ID()).Kind; got != node.ConnDirect {
		t.Errorf("connection to the relay: %v, want direct", got)
	}
	if got := guest.ConnectionInfo(guest.ID()).Kind; got != node.ConnNone {
		t.Errorf("connection to self: %v, want none", got)
	}

	// A game stream open on the relayed connection: ConnectionInfo keeps
	// describing that connection when a direct one appears, because the
	// game stays where its stream is.
	var relayed network.Conn
	for _, c := range guest.Host().Network().ConnsToPeer(host.ID()) {
		relayed = c
	}
	game, err := relayed.NewStream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer game.Reset()
	game.SetProtocol(echoProtocol)
	if _, err := guest.Connect(network.WithForceDirectDial(ctx, "test"), addrWith(t, host, "/tcp/")); err != nil {
		t.Fatal(err)
	}
	if n := len(guest.Host().Network().ConnsToPeer(host.ID())); n != 2 {
		t.Fatalf("%d connections to the host, want a relayed and a direct one", n)
	}
	if got := guest.ConnectionInfo(host.ID()).Kind; got != node.ConnRelayed {
		t.Errorf("with the game stream on the relayed connection: %v, want relayed", got)
	}
	game.Reset()
	if got := guest.ConnectionInfo(host.ID()).Kind; got != node.ConnDirect {
		t.Errorf("with no game stream: %v, want direct (preferred)", got)
	}
}

func TestConfigFile(t *testing.T) {
	_, relayAddr := startRelay(t)
	tests := []struct {
		name    string
		content string
		wantErr string // "" means no error
		relays  int
	}{
		{"relays and listen", `{"relays": ["` + relayAddr + `"], "listen": ["` + loopbackTCP + `"]}`, "", 1},
		{"empty object", `{}`, "", 0},
		{"unknown key", `{"relay": ["` + relayAddr + `"]}`, "unknown field", 0},
		{"relay without peer ID", `{"relays": ["/ip4/127.0.0.1/tcp/4747"]}`, "/p2p/", 0},
		{"not JSON", `relays = []`, "invalid character", 0},
		{"two objects", `{} {}`, "after the JSON object", 0},
		{"bad listen address", `{"listen": ["/ip4/nope"]}`, "listen address", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			if err := os.WriteFile(filepath.Join(home, node.ConfigFileName), []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			n, err := node.New(t.Context(), node.Config{Home: home})
			if tt.wantErr != "" {
				if err == nil {
					n.Close()
					t.Fatalf("New: no error, want one containing %q", tt.wantErr)
				}
				if !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), node.ConfigFileName) {
					t.Fatalf("New: %v; want an error naming the file and containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer n.Close()
			if got := len(n.Relays()); got != tt.relays {
				t.Errorf("%d relays, want %d", got, tt.relays)
			}
			if tt.relays > 0 {
				for _, a := range n.Addrs() {
					if !strings.HasPrefix(a.String(), "/ip4/127.0.0.1/tcp/") {
						t.Errorf("listening on %s, want only the config file's loopback TCP", a)
					}
				}
			}
		})
	}
	// Config.Relays given (even empty) wins over the file.
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, node.ConfigFileName), []byte(`{"relays": ["`+relayAddr+`"]}`), 0o600)
	n, err := node.New(t.Context(), node.Config{Home: home, ListenAddrs: []string{loopbackTCP}, Relays: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if got := len(n.Relays()); got != 0 {
		t.Errorf("Config.Relays empty: %d relays from the file, want 0", got)
	}
}

func TestConnKindString(t *testing.T) {
	for k, want := range map[node.ConnKind]string{node.ConnNone: "none", node.ConnDirect: "direct", node.ConnHolePunched: "hole-punched", node.ConnRelayed: "relayed", 9: "ConnKind(9)"} {
		if got := k.String(); got != want {
			t.Errorf("ConnKind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
	for _, tt := range []struct {
		ci   node.ConnInfo
		want string
	}{
		{node.ConnInfo{Kind: node.ConnRelayed, RTT: 23412 * time.Microsecond}, "relayed, rtt 23.4ms"},
		{node.ConnInfo{Kind: node.ConnDirect, RTT: 41234 * time.Nanosecond}, "direct, rtt 41µs"},
		{node.ConnInfo{Kind: node.ConnHolePunched}, "hole-punched"},
		{node.ConnInfo{}, "none"},
	} {
		if got := tt.ci.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.ci, got, tt.want)
		}
	}
}

// TestJoinInviteDialsDirectWhenRelayed covers a LAN (here loopback) where
// the circuit through the relay connects first: JoinInvite still dials
// the host's own addresses, ends on a direct connection and closes the
// idle circuit.
func TestJoinInviteDialsDirectWhenRelayed(t *testing.T) {
	relay, relayAddr := startRelay(t)
	host := startPeerWithRelays(t, relayAddr)
	guest := startPeerWithRelays(t, relayAddr)
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(20*time.Second))
	defer cancel()
	inv, err := host.HostInvite(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer inv.Close()
	if _, err := guest.Connect(ctx, relayAddr+"/p2p-circuit/p2p/"+host.ID().String()); err != nil {
		t.Fatal(err)
	}
	if got := guest.ConnectionInfo(host.ID()).Kind; got != node.ConnRelayed {
		t.Fatalf("before joining: %v, want relayed", got)
	}
	if _, err := guest.JoinInvite(ctx, inv.Code); err != nil {
		t.Fatal(err)
	}
	if got := guest.ConnectionInfo(host.ID()).Kind; got != node.ConnDirect {
		t.Errorf("after joining: %v, want direct", got)
	}
	for _, c := range guest.Host().Network().ConnsToPeer(host.ID()) {
		if _, err := c.RemoteMultiaddr().ValueForProtocol(ma.P_CIRCUIT); err == nil {
			t.Errorf("the idle circuit %s is still open", c.RemoteMultiaddr())
		}
	}
	if st, _ := relay.RelayStats(); st.CircuitsOpened != 1 {
		t.Errorf("relay stats %v: want the one circuit", st)
	}
}
