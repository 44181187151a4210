package node

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p"
	kaddht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p/core/event"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/routing"
	"github.com/libp2p/go-libp2p/p2p/host/autorelay"
	"github.com/libp2p/go-libp2p/p2p/host/eventbus"
	ma "github.com/multiformats/go-multiaddr"
)

// The public libp2p network as the meeting place (docs/internet.md,
// NET-D16..D20): every node that may meet peers over the internet joins a
// Kademlia DHT as a client, by default the Amino DHT (the IPFS public
// DHT) through its well-known bootstrap peers. Invite codes are announced
// there as provider records (dhtinvite.go), and the DHT's peers are the
// candidates AutoRelay and HostInvite take reservations on.

// DHT settings of Config.DHT and of the configuration file's "dht".
const (
	// DHTDefault (the empty string) means on unless every listen address
	// is a loopback one.
	DHTDefault = ""
	// DHTOn joins the DHT even when listening on loopback only (tests).
	DHTOn = "on"
	// DHTOff keeps the node off the DHT.
	DHTOff = "off"
)

// DHTEnv is the environment variable that, set to "off", keeps every
// node of the program off the DHT unless its Config says DHTOn (the
// tests of cmd/kakure set it, so that no test touches the public
// network); "on" stands for DHTOn.
const DHTEnv = "KAKURE_DHT"

// AminoBootstrapPeers returns the Amino DHT's bootstrap peers, the
// default of Config.Bootstrap.
func AminoBootstrapPeers() []string {
	out := make([]string, len(kaddht.DefaultBootstrapPeers))
	for i, a := range kaddht.DefaultBootstrapPeers {
		out[i] = a.String()
	}
	return out
}

// dhtSettings decides whether the node joins the DHT and from which
// bootstrap peers (NET-D16): Config.DHT, else KAKURE_DHT, else the file's
// "dht"; Config.Bootstrap, else the file's "bootstrap", else Amino's. An
// empty bootstrap list means off; the default is on unless every listen
// address is a loopback one. A relay is different (NET-D26): it serves
// the DHT unless Config.DHT says off, from Config.Bootstrap alone (none
// by default: a DHT of its own, which players join by naming the relay
// as their bootstrap peer); it reaches no one else, so KAKURE_DHT and
// the file leave it alone.
func dhtSettings(cfg Config, file FileConfig, allLoopback bool) (bool, []peer.AddrInfo, error) {
	if cfg.Relay != nil {
		switch cfg.DHT {
		case DHTDefault, DHTOn:
		case DHTOff:
			return false, nil, nil
		default:
			return false, nil, fmt.Errorf("node: DHT setting %q: want %q or %q", cfg.DHT, DHTOn, DHTOff)
		}
		peers, err := ParsePeerAddrs(cfg.Bootstrap)
		if err != nil {
			return false, nil, fmt.Errorf("node: bootstrap peer: %w", err)
		}
		return true, peers, nil
	}
	mode := cfg.DHT
	if mode == DHTDefault {
		if env := os.Getenv(DHTEnv); env == DHTOn || env == DHTOff {
			mode = env
		}
	}
	if mode == DHTDefault {
		mode = file.DHT
	}
	switch mode {
	case DHTDefault, DHTOn, DHTOff:
	default:
		return false, nil, fmt.Errorf("node: DHT setting %q: want %q or %q", mode, DHTOn, DHTOff)
	}
	if mode == DHTOff || mode == DHTDefault && allLoopback {
		return false, nil, nil
	}
	addrs := cfg.Bootstrap
	if addrs == nil {
		addrs = file.Bootstrap
	}
	if addrs == nil {
		addrs = AminoBootstrapPeers()
	}
	peers, err := ParsePeerAddrs(addrs)
	if err != nil {
		return false, nil, fmt.Errorf("node: bootstrap peer: %w", err)
	}
	return len(peers) > 0, peers, nil
}

// ParsePeerAddrs parses peer addresses (multiaddrs ending in /p2p/<ID>)
// and merges the addresses of the same peer. Errors wrap ErrBadAddress.
func ParsePeerAddrs(addrs []string) ([]peer.AddrInfo, error) {
	var out []peer.AddrInfo
	index := map[peer.ID]int{}
	for _, s := range addrs {
		info, err := ParsePeerAddr(s)
		if err != nil {
			return nil, err
		}
		if i, ok := index[info.ID]; ok {
			out[i].Addrs = append(out[i].Addrs, info.Addrs...)
			continue
		}
		index[info.ID] = len(out)
		out = append(out, info)
	}
	return out, nil
}

// reachState follows what AutoNAT says of this node's reachability.
type reachState struct {
	mu sync.Mutex
	// v1 is AutoNAT v1's verdict; reachable and unreachable are AutoNAT
	// v2's addresses.
	v1                     network.Reachability
	reachable, unreachable int
}

func (r *reachState) get() network.Reachability {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.reachable > 0 || r.v1 == network.ReachabilityPublic:
		return network.ReachabilityPublic
	case r.v1 == network.ReachabilityPrivate || r.unreachable > 0:
		return network.ReachabilityPrivate
	}
	return network.ReachabilityUnknown
}

// watchReachability follows AutoNAT's events until the node closes.
func (n *Node) watchReachability() error {
	sub, err := n.host.EventBus().Subscribe([]any{new(event.EvtLocalReachabilityChanged), new(event.EvtHostReachableAddrsChanged)},
		eventbus.Name("kakure reachability"))
	if err != nil {
		return fmt.Errorf("node: watching reachability: %w", err)
	}
	go func() {
		defer sub.Close()
		for {
			select {
			case <-n.closed.Done():
				return
			case e, ok := <-sub.Out():
				if !ok {
					return
				}
				r := &n.inet.reach
				r.mu.Lock()
				switch e := e.(type) {
				case event.EvtLocalReachabilityChanged:
					r.v1 = e.Reachability
				case event.EvtHostReachableAddrsChanged:
					r.reachable, r.unreachable = len(e.Reachable), len(e.Unreachable)
				}
				r.mu.Unlock()
				n.inet.notify()
			}
		}
	}()
	return nil
}

// NetStatus says where the node stands on the internet.
type NetStatus struct {
	// DHT is whether the node is on the DHT; DHTPeers is the number of
	// peers in its routing table.
	DHT      bool
	DHTPeers int
	// Reachability is what AutoNAT found: public (peers can dial this
	// node), private (behind a NAT or firewall) or unknown (not yet
	// tested).
	Reachability network.Reachability
	// Relays are the relays that hold a reservation for this node, so
	// that peers reach it through them.
	Relays []peer.ID
}

// String returns e.g. "DHT: 14 peers; reachability: private; relay
// reservations: 2 (12D3KooWAbc…, 12D3KooWXyz…)".
func (s NetStatus) String() string {
	var b strings.Builder
	if s.DHT {
		fmt.Fprintf(&b, "DHT: %d peers", s.DHTPeers)
	} else {
		b.WriteString("DHT: off")
	}
	fmt.Fprintf(&b, "; reachability: %s", reachabilityWord(s.Reachability))
	fmt.Fprintf(&b, "; relay reservations: %d", len(s.Relays))
	if len(s.Relays) > 0 {
		short := make([]string, len(s.Relays))
		for i, r := range s.Relays {
			short[i] = shortID(r)
		}
		fmt.Fprintf(&b, " (%s)", strings.Join(short, ", "))
	}
	return b.String()
}

func reachabilityWord(r network.Reachability) string {
	switch r {
	case network.ReachabilityPublic:
		return "public"
	case network.ReachabilityPrivate:
		return "private"
	default:
		return "unknown"
	}
}

// shortID returns the first 12 characters of a peer ID and an ellipsis.
func shortID(p peer.ID) string {
	s := p.String()
	if len(s) <= 14 {
		return s
	}
	return s[:12] + "…"
}

// NetStatus returns where the node stands: DHT peers, reachability and
// relay reservations. It does not block.
func (n *Node) NetStatus() NetStatus {
	st := NetStatus{Reachability: n.inet.reach.get()}
	if d := n.inet.getDHT(); d != nil {
		st.DHT = true
		st.DHTPeers = d.RoutingTable().Size()
	}
	st.Relays = n.reservedRelays()
	return st
}

// AwaitDHT waits until the node's DHT routing table holds a peer, or ctx
// ends, or every bootstrap peer has failed to answer a dial (offline, or
// the bootstrap list is stale): then waiting longer cannot help. It
// returns at once when the node is off the DHT, and reports whether the
// table holds a peer.
func (n *Node) AwaitDHT(ctx context.Context) bool {
	ok, _ := n.awaitDHT(ctx)
	return ok
}

// awaitDHT is AwaitDHT, returning as well the errors of the bootstrap
// peers' dials when every one failed.
func (n *Node) awaitDHT(ctx context.Context) (bool, []error) {
	d := n.inet.getDHT()
	if d == nil {
		return false, nil
	}
	n.inet.mu.Lock()
	bootstrap, h := n.inet.bootstrap, n.inet.h
	n.inet.mu.Unlock()
	dialCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	failed := make(chan error, len(bootstrap))
	if h != nil {
		for _, info := range bootstrap {
			go func() {
				if err := h.Connect(dialCtx, info); err != nil {
					failed <- fmt.Errorf("bootstrap peer %s: %w", info.ID, err)
				}
			}()
		}
	}
	unanswered := len(bootstrap)
	var errs []error
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for d.RoutingTable().Size() == 0 {
		select {
		case <-ctx.Done():
			return false, errs
		case err := <-failed:
			errs = append(errs, err)
			if unanswered--; unanswered == 0 {
				return d.RoutingTable().Size() > 0, errs
			}
		case <-tick.C:
		}
	}
	return true, nil
}

// reservedRelays returns the relays holding a reservation for this node:
// those HostInvite reserved on (until the reservation expires) and those
// whose circuit addresses the host announces (autorelay's).
func (n *Node) reservedRelays() []peer.ID {
	var out []peer.ID
	in := n.inet
	in.mu.Lock()
	now := time.Now()
	for r, exp := range in.reservations {
		if exp.After(now) {
			out = append(out, r)
		}
	}
	in.mu.Unlock()
	for _, a := range n.host.Addrs() {
		if r, ok := circuitRelay(a); ok && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

// circuitRelay returns the relay of a circuit address
// (…/p2p/RELAY/p2p-circuit…).
func circuitRelay(a ma.Multiaddr) (peer.ID, bool) {
	var relay peer.ID
	found := false
	for _, c := range a {
		switch c.Protocol().Code {
		case ma.P_P2P:
			if !found {
				if id, err := peer.Decode(c.Value()); err == nil {
					relay = id
				}
			}
		case ma.P_CIRCUIT:
			found = true
		}
	}
	return relay, found && relay != ""
}

// relayCandidates is AutoRelay's peer source: the peers of the DHT's
// routing table (public DHT servers, most of which run a limited circuit
// relay), at most num of them.
func (n *Node) relayCandidates(ctx context.Context, num int) <-chan peer.AddrInfo {
	ch := make(chan peer.AddrInfo, max(num, 0))
	defer close(ch)
	in := n.inet
	in.mu.Lock()
	d, h := in.dht, in.h
	in.mu.Unlock()
	if d == nil || h == nil {
		return ch
	}
	for _, p := range d.RoutingTable().ListPeers() {
		if len(ch) == cap(ch) || ctx.Err() != nil {
			break
		}
		ch <- peer.AddrInfo{ID: p, Addrs: h.Peerstore().Addrs(p)}
	}
	return ch
}

// getDHT returns the node's DHT, nil when it is off the DHT.
func (in *internet) getDHT() *kaddht.IpfsDHT {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.dht
}

// dhtOptions returns the libp2p options that put the node on the DHT,
// bootstrapping from bootstrap: as a client, with AutoRelay taking its
// candidates from the DHT when no kakure relay is configured; as a
// server for a relay (NET-D26).
func dhtOptions(n *Node, bootstrap []peer.AddrInfo, kakureRelays, server bool) []libp2p.Option {
	mode := kaddht.ModeClient
	if server {
		mode = kaddht.ModeServer
	}
	opts := []libp2p.Option{libp2p.Routing(func(h host.Host) (routing.PeerRouting, error) {
		d, err := kaddht.New(h, kaddht.Mode(mode), kaddht.BootstrapPeers(bootstrap...))
		if err != nil {
			return nil, fmt.Errorf("node: starting the DHT: %w", err)
		}
		n.inet.mu.Lock()
		n.inet.dht = d
		n.inet.bootstrap = bootstrap
		n.inet.mu.Unlock()
		return d, nil
	})}
	if !kakureRelays && !server {
		opts = append(opts, libp2p.EnableAutoRelayWithPeerSource(n.relayCandidates,
			autorelay.WithMinInterval(10*time.Second), autorelay.WithBootDelay(30*time.Second)))
	}
	return opts
}

// startDHT bootstraps the DHT in the background.
func (n *Node) startDHT() {
	d := n.inet.getDHT()
	if d == nil {
		return
	}
	go func() {
		if err := d.Bootstrap(n.closed); err != nil {
			inetLog.Info("DHT bootstrap", "err", err)
		}
	}()
}

// closeDHT stops the DHT.
func (n *Node) closeDHT() {
	if d := n.inet.getDHT(); d != nil {
		d.Close()
	}
}
