package node_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ipfs/go-datastore"
	dssync "github.com/ipfs/go-datastore/sync"
	"github.com/libp2p/go-libp2p"
	kaddht "github.com/libp2p/go-libp2p-kad-dht"
	pb "github.com/libp2p/go-libp2p-kad-dht/pb"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/node/rendezvous"
)

// dhtServer is a stand-in for a public DHT node on loopback: a libp2p
// host running the DHT in server mode and a circuit relay v2 with the
// default limits of public relays (2 minutes, 128 KiB per circuit),
// reachable (as a public node finds out with AutoNAT).
type dhtServer struct {
	h   host.Host
	dht *kaddht.IpfsDHT
}

// addr returns the server's address as a bootstrap peer.
func (s *dhtServer) addr() string {
	return s.h.Addrs()[0].String() + "/p2p/" + s.h.ID().String()
}

// startDHTServers starts count DHT servers on loopback, each bootstrapped
// from the ones before it, and closes them at the end of the test. opts
// are extra DHT options for every server.
func startDHTServers(t testing.TB, count int, opts ...kaddht.Option) []*dhtServer {
	t.Helper()
	var servers []*dhtServer
	for range count {
		h, err := libp2p.New(libp2p.ListenAddrStrings(loopbackTCP), libp2p.EnableRelayService(), libp2p.ForceReachabilityPublic(), libp2p.DisableMetrics())
		if err != nil {
			t.Fatal(err)
		}
		var boot []peer.AddrInfo
		for _, s := range servers {
			boot = append(boot, peer.AddrInfo{ID: s.h.ID(), Addrs: s.h.Addrs()})
		}
		d, err := kaddht.New(h, append([]kaddht.Option{kaddht.Mode(kaddht.ModeServer), kaddht.BootstrapPeers(boot...)}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close(); h.Close() })
		for _, b := range boot {
			if err := h.Connect(t.Context(), b); err != nil {
				t.Fatal(err)
			}
		}
		servers = append(servers, &dhtServer{h: h, dht: d})
	}
	return servers
}

// bootstrapAddrs returns the servers' addresses.
func bootstrapAddrs(servers []*dhtServer) []string {
	var out []string
	for _, s := range servers {
		out = append(out, s.addr())
	}
	return out
}

// startDHTNode starts a node on loopback that joins the DHT of servers.
func startDHTNode(t testing.TB, servers []*dhtServer) *node.Node {
	t.Helper()
	n, err := node.New(t.Context(), node.Config{Home: t.TempDir(), ListenAddrs: []string{loopbackTCP}, DHT: node.DHTOn,
		Bootstrap: bootstrapAddrs(servers), Relays: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// TestAwaitDHTGivesUpWhenNoBootstrapPeerAnswers (NET-D16): a node whose
// bootstrap peers all refuse the dial (offline, or a stale list) stops
// waiting for the DHT at once instead of until its deadline, which is
// what `kakure id` shows on a machine without internet.
func TestAwaitDHTGivesUpWhenNoBootstrapPeerAnswers(t *testing.T) {
	dead := startNode(t, loopbackTCP)
	addr := addrWith(t, dead, "/tcp/") + "/p2p/" + dead.ID().String()
	if err := dead.Close(); err != nil {
		t.Fatal(err)
	}
	n, err := node.New(t.Context(), node.Config{Home: t.TempDir(), ListenAddrs: []string{loopbackTCP}, DHT: node.DHTOn,
		Bootstrap: []string{addr}, Relays: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(60*time.Second))
	defer cancel()
	if n.AwaitDHT(ctx) {
		t.Fatalf("AwaitDHT reported a DHT peer with a dead bootstrap peer: %s", n.NetStatus())
	}
	if ctx.Err() != nil {
		t.Fatalf("AwaitDHT waited until its deadline although its only bootstrap peer refused the dial")
	}
}

// TestDHTJoinAsClient: a node given bootstrap peers joins their DHT (its
// routing table fills with the servers) and says so in NetStatus, as a
// client: the servers do not take it into their routing tables.
func TestDHTJoinAsClient(t *testing.T) {
	servers := startDHTServers(t, 3)
	n := startDHTNode(t, servers)
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(20*time.Second))
	defer cancel()
	if !n.AwaitDHT(ctx) {
		t.Fatalf("the node's routing table stayed empty: %s", n.NetStatus())
	}
	for n.NetStatus().DHTPeers < len(servers) && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
	}
	st := n.NetStatus()
	if !st.DHT || st.DHTPeers != len(servers) {
		t.Errorf("NetStatus = %+v, want the DHT on with %d peers", st, len(servers))
	}
	if s := st.String(); !strings.HasPrefix(s, "DHT: 3 peers; reachability: ") || !strings.Contains(s, "relay reservations: 0") {
		t.Errorf("NetStatus().String() = %q", s)
	}
	for _, s := range servers {
		if s.dht.RoutingTable().Find(n.ID()) != "" {
			t.Errorf("server %s took the client into its routing table", s.h.ID())
		}
	}
}

// TestDHTSettings: when a node stays off the DHT (NET-D16).
func TestDHTSettings(t *testing.T) {
	servers := startDHTServers(t, 1)
	boot := bootstrapAddrs(servers)
	tests := []struct {
		name   string
		cfg    node.Config
		file   string
		env    string
		wantOn bool
	}{
		{"on", node.Config{DHT: node.DHTOn, Bootstrap: boot}, "", "", true},
		{"loopback only: off by default", node.Config{Bootstrap: boot}, "", "", false},
		{"off in the config", node.Config{DHT: node.DHTOff, Bootstrap: boot}, "", "", false},
		{"no bootstrap peers", node.Config{DHT: node.DHTOn, Bootstrap: []string{}}, "", "", false},
		{"bootstrap from the file", node.Config{DHT: node.DHTOn}, `{"bootstrap": ["` + boot[0] + `"]}`, "", true},
		{"on in the file", node.Config{Bootstrap: boot}, `{"dht": "on"}`, "", true},
		{"off in the file", node.Config{Bootstrap: boot}, `{"dht": "off"}`, "", false},
		{"KAKURE_DHT=off over the file", node.Config{Bootstrap: boot}, `{"dht": "on"}`, "off", false},
		{"Config over KAKURE_DHT=off", node.Config{DHT: node.DHTOn, Bootstrap: boot}, "", "off", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(node.DHTEnv, tt.env)
			cfg := tt.cfg
			cfg.Home, cfg.ListenAddrs, cfg.Relays = t.TempDir(), []string{loopbackTCP}, []string{}
			if tt.file != "" {
				if err := os.WriteFile(filepath.Join(cfg.Home, node.ConfigFileName), []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			n, err := node.New(t.Context(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer n.Close()
			if got := n.NetStatus().DHT; got != tt.wantOn {
				t.Errorf("on the DHT: %v, want %v", got, tt.wantOn)
			}
		})
	}
	for _, bad := range []string{`{"dht": "maybe"}`, `{"bootstrap": ["/ip4/127.0.0.1/tcp/1"]}`} {
		home := t.TempDir()
		if err := os.WriteFile(filepath.Join(home, node.ConfigFileName), []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := node.New(t.Context(), node.Config{Home: home, ListenAddrs: []string{loopbackTCP}}); err == nil || !strings.Contains(err.Error(), node.ConfigFileName) {
			t.Errorf("config %s: error %v, want one naming the file", bad, err)
		}
	}
	if len(node.AminoBootstrapPeers()) == 0 {
		t.Error("no Amino bootstrap peers")
	}
}

// startDHTPeer starts a node on loopback that joins the DHT of servers,
// with no kakure relay, and waits until it has met them.
func startDHTPeer(t testing.TB, servers []*dhtServer) *node.Node {
	t.Helper()
	n := startDHTNode(t, servers)
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(20*time.Second))
	defer cancel()
	if !n.AwaitDHT(ctx) {
		t.Fatalf("the node met no DHT server: %s", n.NetStatus())
	}
	return n
}

// awaitProviders waits until every server holds at least want provider
// records of code's key: the DHT's ADD_PROVIDER messages get no answer,
// so Provide returns before the servers stored them (a guest types the
// code seconds later).
func awaitProviders(t testing.TB, servers []*dhtServer, code string, want int) {
	t.Helper()
	key, err := rendezvous.DHTKey(code)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(testenv.Duration(10 * time.Second))
	for _, s := range servers {
		for {
			provs, err := s.dht.ProviderStore().GetProviders(t.Context(), key.Hash())
			if err == nil && len(provs) >= want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("server %s holds %d provider records of %s, want %d (%v)", s.h.ID(), len(provs), code, want, err)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// TestDHTInviteCode (NET-D17): with no kakure relay, a host announces its
// code on the DHT and a guest who types it reaches that host, checked by
// the host's signature; a closed invite is found no more, though its
// provider records stay on the DHT.
func TestDHTInviteCode(t *testing.T) {
	servers := startDHTServers(t, 3)
	host := startDHTPeer(t, servers)
	guest := startDHTPeer(t, servers)
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(60*time.Second))
	defer cancel()
	inv, err := host.HostInvite(ctx)
	if err != nil {
		t.Fatalf("HostInvite: %v", err)
	}
	awaitProviders(t, servers, inv.Code, 1)
	start := time.Now()
	info, err := guest.JoinInvite(ctx, strings.ToUpper(strings.ReplaceAll(inv.Code, "-", " ")))
	if err != nil {
		t.Fatalf("JoinInvite: %v", err)
	}
	t.Logf("joined over the DHT in %s", time.Since(start))
	if info.ID != host.ID() {
		t.Errorf("joined %s, want the host %s", info.ID, host.ID())
	}
	if k := guest.ConnectionInfo(host.ID()).Kind; k != node.ConnDirect {
		t.Errorf("connection %s, want direct", k)
	}
	inv.Close()
	other := startDHTPeer(t, servers)
	if _, err := other.JoinInvite(ctx, inv.Code); !errors.Is(err, rendezvous.ErrNotFound) {
		t.Errorf("JoinInvite of a closed invite: %v, want ErrNotFound", err)
	}
	if _, err := other.JoinInvite(ctx, "acorn acorn acorn"); !errors.Is(err, rendezvous.ErrNotFound) || !strings.Contains(node.AsFailure(err).Detail(), "nobody announces it") {
		t.Errorf("JoinInvite of a code nobody hosts: %v, want ErrNotFound", err)
	}
}

// TestDHTInviteForgedProviders (NET-D17, T-1): the DHT servers forge
// provider records for every key announced to them: one naming mallory, a
// peer that answers lookups of any code, one naming the host's peer ID at
// mallory's addresses. Mallory replaying the host's own record is dropped
// (the record is not mallory's) and the guest reaches the genuine host;
// mallory claiming the code with a record of its own makes the guest
// refuse both with ErrAmbiguousCode, naming both, and join neither.
func TestDHTInviteForgedProviders(t *testing.T) {
	for _, claim := range []bool{false, true} {
		name := "mallory replays the host's record"
		if claim {
			name = "mallory claims the code itself"
		}
		t.Run(name, func(t *testing.T) {
			mallory, err := libp2p.New(libp2p.ListenAddrStrings(loopbackTCP), libp2p.DisableMetrics())
			if err != nil {
				t.Fatal(err)
			}
			defer mallory.Close()
			var forged atomic.Int32
			var servers []*dhtServer
			var ready atomic.Bool
			forge := func(i int) kaddht.Option {
				return kaddht.OnRequestHook(func(ctx context.Context, s network.Stream, req *pb.Message) {
					if !ready.Load() || req.GetType() != pb.Message_ADD_PROVIDER {
						return
					}
					ps := servers[i].dht.ProviderStore()
					ps.AddProvider(ctx, req.GetKey(), peer.AddrInfo{ID: mallory.ID(), Addrs: mallory.Addrs()})
					ps.AddProvider(ctx, req.GetKey(), peer.AddrInfo{ID: s.Conn().RemotePeer(), Addrs: mallory.Addrs()})
					forged.Add(1)
				})
			}
			for i := range 3 {
				var boot []kaddht.Option
				for _, b := range servers {
					boot = append(boot, kaddht.BootstrapPeers(peer.AddrInfo{ID: b.h.ID(), Addrs: b.h.Addrs()}))
				}
				srv := startDHTServers(t, 1, append(boot, forge(i))...)[0]
				for _, b := range servers {
					if err := srv.h.Connect(t.Context(), peer.AddrInfo{ID: b.h.ID(), Addrs: b.h.Addrs()}); err != nil {
						t.Fatal(err)
					}
				}
				servers = append(servers, srv)
			}
			ready.Store(true)
			host := startDHTPeer(t, servers)
			guest := startDHTPeer(t, servers)
			var asked atomic.Int32
			rendezvous.ServeOwnCodes(mallory, func(code string) (rendezvous.SignedRecord, bool) {
				asked.Add(1)
				if claim {
					sr, err := rendezvous.Sign(mallory.Peerstore().PrivKey(mallory.ID()), code, mallory.Addrs(), time.Now().Add(30*time.Minute))
					return sr, err == nil
				}
				return node.OwnCodeRecord(host, code)
			})
			ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(60*time.Second))
			defer cancel()
			inv, err := host.HostInvite(ctx)
			if err != nil {
				t.Fatalf("HostInvite: %v", err)
			}
			defer inv.Close()
			awaitProviders(t, servers, inv.Code, 2) // the host and mallory; the host's ID at mallory's addresses is the host's record
			info, err := guest.JoinInvite(ctx, inv.Code)
			if forged.Load() == 0 || asked.Load() == 0 {
				t.Fatalf("the attack did not happen: %d forged announcements, mallory asked %d times", forged.Load(), asked.Load())
			}
			if claim {
				if !errors.Is(err, node.ErrAmbiguousCode) || !strings.Contains(err.Error(), host.ID().String()) || !strings.Contains(err.Error(), mallory.ID().String()) {
					t.Fatalf("JoinInvite with mallory claiming the code: %v, %v; want ErrAmbiguousCode naming the host and mallory", info, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("JoinInvite: %v", err)
			}
			if info.ID != host.ID() {
				t.Errorf("joined %s, want the genuine host %s (mallory is %s)", info.ID, host.ID(), mallory.ID())
			}
		})
	}
}

// withholdingStore is a provider datastore that keeps nothing: a DHT
// server with it accepts provider records and withholds them.
type withholdingStore struct{ datastore.Batching }

func (withholdingStore) Put(context.Context, datastore.Key, []byte) error { return nil }

// TestDHTInviteWithheldProviders (NET-D17): DHT servers that withhold the
// provider records announced to them. With one honest server left the
// guest still finds the host; with none, it fails with ErrNotFound,
// saying that nobody announces the code.
func TestDHTInviteWithheldProviders(t *testing.T) {
	for _, honest := range []int{1, 0} {
		t.Run(fmt.Sprintf("%d honest of 3", honest), func(t *testing.T) {
			var servers []*dhtServer
			var announced atomic.Int32 // ADD_PROVIDER messages the withholding servers got
			countAnnounced := kaddht.OnRequestHook(func(_ context.Context, _ network.Stream, req *pb.Message) {
				if req.GetType() == pb.Message_ADD_PROVIDER {
					announced.Add(1)
				}
			})
			for i := range 3 {
				var opts []kaddht.Option
				for _, b := range servers {
					opts = append(opts, kaddht.BootstrapPeers(peer.AddrInfo{ID: b.h.ID(), Addrs: b.h.Addrs()}))
				}
				if i >= honest {
					opts = append(opts, countAnnounced, kaddht.ProviderDatastore(withholdingStore{dssync.MutexWrap(datastore.NewMapDatastore())}))
				}
				srv := startDHTServers(t, 1, opts...)[0]
				for _, b := range servers {
					if err := srv.h.Connect(t.Context(), peer.AddrInfo{ID: b.h.ID(), Addrs: b.h.Addrs()}); err != nil {
						t.Fatal(err)
					}
				}
				servers = append(servers, srv)
			}
			host := startDHTPeer(t, servers)
			guest := startDHTPeer(t, servers)
			ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(60*time.Second))
			defer cancel()
			inv, err := host.HostInvite(ctx)
			if err != nil {
				t.Fatalf("HostInvite: %v", err)
			}
			defer inv.Close()
			if honest > 0 {
				awaitProviders(t, servers[:honest], inv.Code, 1)
				info, err := guest.JoinInvite(ctx, inv.Code)
				if err != nil || info.ID != host.ID() {
					t.Fatalf("JoinInvite with %d honest servers: %v, %v; want the host %s", honest, info.ID, err, host.ID())
				}
				return
			}
			// The announcement reached every server, which withheld it.
			for announced.Load() < 3 {
				if ctx.Err() != nil {
					t.Fatalf("%d of 3 servers got the announcement", announced.Load())
				}
				time.Sleep(10 * time.Millisecond)
			}
			if _, err := guest.JoinInvite(ctx, inv.Code); !errors.Is(err, rendezvous.ErrNotFound) || !strings.Contains(node.AsFailure(err).Detail(), "nobody announces it") {
				t.Errorf("JoinInvite with every server withholding: %v, want ErrNotFound", err)
			}
		})
	}
}

// TestDHTInviteOnRelayToo (NET-D1): a host with a kakure relay and on the
// DHT registers its code on the relay and announces it on the DHT as
// well, so that a guest with no relay finds it there.
func TestDHTInviteOnRelayToo(t *testing.T) {
	servers := startDHTServers(t, 3)
	relay, relayAddr := startRelay(t)
	host, err := node.New(t.Context(), node.Config{Home: t.TempDir(), ListenAddrs: []string{loopbackTCP}, DHT: node.DHTOn,
		Bootstrap: bootstrapAddrs(servers), Relays: []string{relayAddr}})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	guest := startDHTPeer(t, servers)
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(60*time.Second))
	defer cancel()
	inv, err := host.HostInvite(ctx)
	if err != nil {
		t.Fatalf("HostInvite: %v", err)
	}
	defer inv.Close()
	if st, _ := relay.RelayStats(); st.Codes != 1 {
		t.Errorf("the relay holds %d codes, want 1", st.Codes)
	}
	select {
	case err := <-inv.AnnouncedOnDHT():
		if err != nil {
			t.Fatalf("announcing on the DHT: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the code was never announced on the DHT")
	}
	awaitProviders(t, servers, inv.Code, 1)
	info, err := guest.JoinInvite(ctx, inv.Code)
	if err != nil || info.ID != host.ID() {
		t.Fatalf("JoinInvite by a guest with no relay: %v, %v; want the host %s", info.ID, err, host.ID())
	}
}

// BenchmarkDHTJoinInvite measures JoinInvite over a DHT of three servers
// on loopback, from the code typed to the host connected (a fresh guest
// node each time, started outside the timing, its DHT met).
func BenchmarkDHTJoinInvite(b *testing.B) {
	servers := startDHTServers(b, 3)
	host := startDHTPeer(b, servers)
	inv, err := host.HostInvite(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	defer inv.Close()
	awaitProviders(b, servers, inv.Code, 1)
	for b.Loop() {
		b.StopTimer()
		guest := startDHTPeer(b, servers)
		b.StartTimer()
		if _, err := guest.JoinInvite(b.Context(), inv.Code); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		guest.Close()
		b.StartTimer()
	}
}
