package node

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p"
	kaddht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/libp2p/go-libp2p/gologshim"
	"github.com/libp2p/go-libp2p/p2p/protocol/holepunch"
	"github.com/libp2p/go-libp2p/p2p/protocol/ping"
	"github.com/libp2p/go-libp2p/p2p/transport/quicreuse"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
	"github.com/multiformats/go-multistream"
	"go.uber.org/fx"
)

// How kakure crosses NATs (see docs/internet.md):
//
//   - Every node runs libp2p's circuit relay v2 client (the relay
//     transport), DCUtR hole punching and AutoNAT v2. With Config.Relays it
//     also keeps reservations on those relays (autorelay with static
//     relays), so that peers behind NATs can reach it through them.
//   - A guest reaches a host behind a NAT through a relay first; the
//     host's DCUtR service then coordinates a hole punch over the relayed
//     connection, and where both NATs allow it the peers end up with a
//     direct connection. JoinInvite waits for that upgrade before it
//     returns, because a game keeps the connection its stream was opened
//     on.
//   - ConnectionInfo says which kind of connection a peer is on, and Ping
//     measures its round trip.

// holePunchDialTimeout bounds each hole-punching attempt's dial. A punch
// that works connects within a few round trips; waiting go-libp2p's
// default ten seconds only delays the game on NATs that do not allow it.
const holePunchDialTimeout = 3 * time.Second

// ConnKind is the kind of connection to a peer.
type ConnKind int

// Kinds of connections.
const (
	// ConnNone means not connected.
	ConnNone ConnKind = iota
	// ConnDirect is a direct connection that needed no hole punching:
	// dialled on a LAN, on the internet to a reachable peer, or by a
	// DCUtR direct dial.
	ConnDirect
	// ConnHolePunched is a direct connection made by DCUtR hole punching
	// after the peers met through a relay.
	ConnHolePunched
	// ConnRelayed is a connection through a relay: slower, and the relay
	// forwards it (encrypted end to end; it sees no game content).
	ConnRelayed
)

// String returns "none", "direct", "hole-punched" or "relayed".
// direct reports whether k goes through no relay: ConnDirect or
// ConnHolePunched.
func (k ConnKind) direct() bool { return k == ConnDirect || k == ConnHolePunched }

func (k ConnKind) String() string {
	switch k {
	case ConnNone:
		return "none"
	case ConnDirect:
		return "direct"
	case ConnHolePunched:
		return "hole-punched"
	case ConnRelayed:
		return "relayed"
	default:
		return fmt.Sprintf("ConnKind(%d)", int(k))
	}
}

// ConnInfo describes the connection to a peer.
type ConnInfo struct {
	Kind ConnKind
	// RTT is the round-trip time last measured by Ping on this very
	// connection; zero when it has not been measured.
	RTT time.Duration
	// Remote is the peer's address on the connection; nil when not
	// connected.
	Remote ma.Multiaddr
	// Reconnecting says what the node does to reconnect to the peer
	// (held by Keep) after its connection was lost, e.g. "reconnecting
	// directly and via relay (3rd try)"; empty when it does nothing.
	Reconnecting string
}

// String returns e.g. "hole-punched, rtt 23ms".
func (c ConnInfo) String() string {
	if c.Kind == ConnNone && c.Reconnecting != "" {
		return "none, " + c.Reconnecting
	}
	if c.Kind == ConnNone || c.RTT == 0 {
		return c.Kind.String()
	}
	rtt := c.RTT.Round(100 * time.Microsecond)
	if c.RTT < time.Millisecond {
		rtt = c.RTT.Round(time.Microsecond)
	}
	return fmt.Sprintf("%s, rtt %s", c.Kind, rtt)
}

// internet is the node's state for NAT traversal, relays and invites.
type internet struct {
	relays []peer.AddrInfo

	mu      sync.Mutex
	h       host.Host                // set once the host exists
	punched map[string]bool          // IDs of connections made by hole punching
	failed  map[peer.ID]time.Time    // when a hole punch with a peer last failed
	rtts    map[string]time.Duration // last RTT measured per connection ID
	changed chan struct{}            // closed and replaced at every change
	invites map[*Invite]bool         // open invites, closed with the node
	kept    map[peer.ID]*keptPeer    // peers held by Keep
	codes   map[peer.ID]string       // invite codes by which peers were joined
	// punchAgain holds the peers whose second hole punch is scheduled.
	punchAgain map[peer.ID]bool
	// quic is the QUIC transport's sockets, set while libp2p builds the
	// host (nil for a relay): the second hole punch sends its first
	// packet on them itself (NET-D41).
	quic    *quicreuse.ConnManager
	closing bool

	relayService *relayService // with Config.Relay

	dht *kaddht.IpfsDHT // nil when off the DHT
	// bootstrap are the DHT's bootstrap peers (nil when off the DHT).
	bootstrap []peer.AddrInfo
	reach     reachState
	// reservations are the relays HostInvite reserved a slot on, with
	// the reservations' expiry.
	reservations map[peer.ID]time.Time
	// renewedAt is when a lost peer's lookup last renewed the
	// reservations (renewalDue).
	renewedAt time.Time
	// dhtCodes are the invite codes this node hosts on the DHT.
	dhtCodes map[string]dhtCode
}

func newInternet(relays []peer.AddrInfo) *internet {
	return &internet{relays: relays, punched: map[string]bool{}, failed: map[peer.ID]time.Time{}, rtts: map[string]time.Duration{},
		changed: make(chan struct{}), invites: map[*Invite]bool{}, kept: map[peer.ID]*keptPeer{}, codes: map[peer.ID]string{},
		punchAgain: map[peer.ID]bool{}, reservations: map[peer.ID]time.Time{}, dhtCodes: map[string]dhtCode{}}
}

// notifyLocked wakes those waiting for a change of connections.
func (in *internet) notifyLocked() {
	close(in.changed)
	in.changed = make(chan struct{})
}

func (in *internet) notify() {
	in.mu.Lock()
	in.notifyLocked()
	in.mu.Unlock()
}

// watch returns a channel closed at the next change.
func (in *internet) watch() <-chan struct{} {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.changed
}

// internetOptions returns the libp2p options for NAT traversal: AutoNAT
// v2, and hole punching traced into n, autorelay with relays; for a relay
// the AutoNAT v1 service and the announced addresses instead.
func internetOptions(n *Node, cfg Config, relays []peer.AddrInfo) ([]libp2p.Option, error) {
	opts := []libp2p.Option{
		libp2p.EnableRelay(),
		libp2p.EnableAutoNATv2(),
	}
	if cfg.Relay != nil {
		opts = append(opts, libp2p.EnableNATService())
		if len(cfg.Relay.Announce) > 0 {
			announce := make([]ma.Multiaddr, len(cfg.Relay.Announce))
			for i, s := range cfg.Relay.Announce {
				a, err := ma.NewMultiaddr(s)
				if err != nil {
					return nil, fmt.Errorf("node: announced address %q: %w", s, err)
				}
				announce[i] = a
			}
			opts = append(opts, libp2p.AddrsFactory(func([]ma.Multiaddr) []ma.Multiaddr { return slices.Clone(announce) }))
		}
		return opts, nil
	}
	opts = append(opts, libp2p.AddrsFactory(n.withCircuitAddrs))
	// The QUIC sockets, for the first packet of kakure's second hole
	// punch (NET-D41).
	opts = append(opts, libp2p.WithFxOption(fx.Invoke(func(cm *quicreuse.ConnManager) { n.inet.quic = cm })))
	opts = append(opts, libp2p.EnableHolePunching(holepunch.WithTracer(holePunchTracer{n}), holepunch.DirectDialTimeout(holePunchDialTimeout)))
	if len(relays) > 0 {
		opts = append(opts, libp2p.EnableAutoRelayWithStaticRelays(relays))
	}
	return opts, nil
}

// startInternet runs once the host exists.
func (n *Node) startInternet(cfg Config) error {
	n.inet.mu.Lock()
	n.inet.h = n.host
	n.inet.mu.Unlock()
	logConns := cfg.Relay == nil // a relay's connections are its stats' business
	n.host.Network().Notify(&network.NotifyBundle{
		ConnectedF: func(_ network.Network, c network.Conn) {
			if logConns {
				via := "direct"
				if isRelayedConn(c) {
					via = "relay"
				}
				connLog.Info("connected", "peer", c.RemotePeer(), "via", via, "remote", c.RemoteMultiaddr(), "direction", c.Stat().Direction)
			}
			n.inet.noteConn(c)
			n.inet.notify()
		},
		DisconnectedF: func(net network.Network, c network.Conn) {
			if logConns {
				connLog.Info("connection closed", "peer", c.RemotePeer(), "remote", c.RemoteMultiaddr())
			}
			n.forgetConn(net, c)
		},
	})
	if cfg.Relay != nil {
		rs, err := startRelayService(n.host, *cfg.Relay)
		if err != nil {
			return err
		}
		n.inet.relayService = rs
	}
	return nil
}

func (n *Node) closeInternet() {
	n.inet.closeInvites()
	if rs := n.inet.relayService; rs != nil {
		rs.close()
	}
}

func (n *Node) forgetConn(net network.Network, c network.Conn) {
	gone := net.Connectedness(c.RemotePeer()) != network.Connected
	in := n.inet
	in.mu.Lock()
	delete(in.punched, c.ID())
	delete(in.rtts, c.ID())
	if gone {
		delete(in.failed, c.RemotePeer())
	}
	in.notifyLocked()
	in.mu.Unlock()
	if gone {
		n.peerLost(c.RemotePeer())
	}
}

// holePunchTracer learns from go-libp2p's DCUtR service which direct
// connections hole punching made.
type holePunchTracer struct{ n *Node }

// inetLog logs NAT traversal events (GOLOG_LOG_LEVEL=kakure-internet=info
// shows them in the log file).
var inetLog = gologshim.Logger("kakure-internet")

// Trace implements holepunch.EventTracer.
func (t holePunchTracer) Trace(evt *holepunch.Event) {
	inetLog.Info("hole punching", "peer", evt.Remote, "event", evt.Type, "details", evt.Evt)
	in := t.n.inet
	success := false
	switch e := evt.Evt.(type) {
	case *holepunch.EndHolePunchEvt:
		success = e.Success
		if !success {
			in.markFailed(evt.Remote)
			connLog.Info("hole punch failed", "peer", evt.Remote, "err", e.Error)
			t.n.schedulePunchAgain(evt.Remote)
		} else {
			connLog.Info("hole punch succeeded", "peer", evt.Remote)
		}
	case *holepunch.ProtocolErrorEvt:
		in.markFailed(evt.Remote)
	}
	if !success {
		in.notify()
		return
	}
	in.mu.Lock()
	h := in.h
	in.mu.Unlock()
	var conns []network.Conn
	if h != nil {
		conns = h.Network().ConnsToPeer(evt.Remote)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, c := range conns {
		if !isRelayedConn(c) && !c.IsClosed() {
			in.punched[c.ID()] = true
		}
	}
	in.notifyLocked()
}

func (in *internet) markFailed(p peer.ID) {
	in.mu.Lock()
	in.failed[p] = time.Now()
	in.mu.Unlock()
}

// failedSince reports whether a hole punch with p failed after t.
func (in *internet) failedSince(p peer.ID, t time.Time) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.failed[p].After(t)
}

func isRelayedConn(c network.Conn) bool { return isCircuitAddr(c.RemoteMultiaddr()) }

// Relays returns the relays the node was configured with (Config.Relays
// or the config file).
func (n *Node) Relays() []peer.AddrInfo { return slices.Clone(n.inet.relays) }

// gameConn returns the connection to p that carries a game: the one with
// the most open streams of application protocols (a game keeps its
// stream open for the whole game), among equals a direct one before a
// relayed one. Nil when not connected.
func (n *Node) gameConn(p peer.ID) network.Conn {
	var best network.Conn
	bestStreams := -1
	for _, c := range n.host.Network().ConnsToPeer(p) {
		if c.IsClosed() {
			continue
		}
		s := 0
		for _, st := range c.GetStreams() {
			if !isBackgroundProtocol(st.Protocol()) {
				s++
			}
		}
		if best == nil || s > bestStreams || s == bestStreams && isRelayedConn(best) && !isRelayedConn(c) {
			best, bestStreams = c, s
		}
	}
	return best
}

// isBackgroundProtocol reports whether id is one of libp2p's own
// protocols (identify, ping, DCUtR, AutoNAT, circuit relay...), whose
// streams are short, the spectators' backlog (SPEC-D8) and listing of
// live games (SPEC-D14), GossipSub's (the
// spectators' publications, SPEC-2:
// its streams stay open on whichever connection they met first, a
// relayed one too, and follow the peer to another), or a stream not
// negotiated yet: none of them carries a game, so none makes a
// connection the game's (gameConn) or keeps a relayed one open beside a
// direct one (closeIdleRelayed).
func isBackgroundProtocol(id protocol.ID) bool {
	s := string(id)
	return s == "" || strings.HasPrefix(s, "/ipfs/") || strings.HasPrefix(s, "/libp2p/") || strings.HasPrefix(s, "/p2p/") ||
		strings.HasPrefix(s, "/meshsub/") || strings.HasPrefix(s, "/floodsub/") || s == WatchBacklogProtocol || s == WatchGamesProtocol
}

// ConnectionInfo describes the connection to p that carries a game (the
// one with the most open streams of application protocols; among equals
// a direct one): direct,
// hole-punched or relayed, the RTT last measured on it by Ping, and p's
// address on it. It does not block.
func (n *Node) ConnectionInfo(p peer.ID) ConnInfo {
	c := n.gameConn(p)
	if c == nil {
		return ConnInfo{Reconnecting: n.inet.reconnecting(p)}
	}
	info := ConnInfo{Kind: ConnDirect, Remote: c.RemoteMultiaddr()}
	in := n.inet
	in.mu.Lock()
	defer in.mu.Unlock()
	switch {
	case isRelayedConn(c):
		info.Kind = ConnRelayed
	case in.punched[c.ID()]:
		info.Kind = ConnHolePunched
	}
	info.RTT = in.rtts[c.ID()]
	return info
}

// pingSize is the size of a ping, as go-libp2p's ping protocol sends it.
const pingSize = 32

// Ping measures one round trip to p on the connection ConnectionInfo
// describes, with libp2p's ping protocol, and records it for
// ConnectionInfo.
func (n *Node) Ping(ctx context.Context, p peer.ID) (time.Duration, error) {
	c := n.gameConn(p)
	if c == nil {
		return 0, fmt.Errorf("node: ping %s: not connected", p)
	}
	st, err := c.NewStream(ctx)
	if err != nil {
		return 0, fmt.Errorf("node: ping %s: %w", p, err)
	}
	defer st.Reset()
	if d, ok := ctx.Deadline(); ok {
		st.SetDeadline(d)
	} else {
		st.SetDeadline(time.Now().Add(30 * time.Second))
	}
	stop := context.AfterFunc(ctx, func() { st.Reset() })
	defer stop()
	if err := st.SetProtocol(ping.ID); err != nil {
		return 0, fmt.Errorf("node: ping %s: %w", p, err)
	}
	if err := multistream.SelectProtoOrFail(ping.ID, st); err != nil {
		return 0, fmt.Errorf("node: ping %s: %w", p, err)
	}
	var out, back [pingSize]byte
	rand.Read(out[:])
	start := time.Now()
	if _, err := st.Write(out[:]); err != nil {
		return 0, fmt.Errorf("node: ping %s: %w", p, err)
	}
	if _, err := io.ReadFull(st, back[:]); err != nil {
		return 0, fmt.Errorf("node: ping %s: %w", p, err)
	}
	rtt := time.Since(start)
	if !bytes.Equal(out[:], back[:]) {
		return 0, fmt.Errorf("node: ping %s: the answer differs from the ping", p)
	}
	n.host.Peerstore().RecordLatency(p, rtt)
	n.inet.mu.Lock()
	if !c.IsClosed() {
		n.inet.rtts[c.ID()] = rtt
	}
	n.inet.mu.Unlock()
	return rtt, nil
}

// awaitDirect waits until n has a direct connection to p, or ctx ends,
// or neither path to one is left: the direct dial reported on direct
// failed, and hole punching failed or cannot happen (this node knows no
// public address of its own). It returns the kind of connection it then
// has. A direct connection is reported as ConnHolePunched once the DCUtR
// service says hole punching made it, for which it waits up to a second
// more when hole punching can happen.
func (n *Node) awaitDirect(ctx context.Context, p peer.ID, direct <-chan error) ConnKind {
	start := time.Now()
	directFailed := false
	var tracerWait <-chan time.Time
	for {
		changed := n.inet.watch()
		kind := n.bestKind(p)
		switch {
		case kind == ConnHolePunched || kind == ConnNone:
			return kind
		case kind == ConnRelayed && directFailed && (!n.holePunchReady() || n.inet.failedSince(p, start)):
			return kind
		case kind == ConnDirect && !n.holePunchReady():
			return kind
		case kind == ConnDirect && tracerWait == nil:
			tracerWait = time.After(time.Second)
		}
		select {
		case <-changed:
		case err := <-direct:
			directFailed = err != nil
			direct = nil
		case <-tracerWait:
			return n.bestKind(p)
		case <-ctx.Done():
			return n.bestKind(p)
		}
	}
}

// bestKind is the kind of the best connection to p (direct before
// relayed), whatever streams it carries.
func (n *Node) bestKind(p peer.ID) ConnKind {
	conns := n.host.Network().ConnsToPeer(p)
	kind := ConnNone
	in := n.inet
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, c := range conns {
		switch {
		case c.IsClosed():
		case isRelayedConn(c):
			if kind == ConnNone {
				kind = ConnRelayed
			}
		case in.punched[c.ID()]:
			return ConnHolePunched
		default:
			kind = ConnDirect
		}
	}
	return kind
}

// holePunchReady reports whether the DCUtR service takes hole-punching
// requests: go-libp2p starts it once the node knows a public address of
// its own, learnt from the peers it is connected to (here, the relay).
func (n *Node) holePunchReady() bool {
	return slices.Contains(n.host.Mux().Protocols(), holepunch.Protocol)
}

// awaitHolePunchReady waits, at most max, for holePunchReady when one of
// the relays is reached at a public address (behind a NAT the relay then
// tells this node its public address). Without it the first hole punch
// with a peer met right after start would fail.
func (n *Node) awaitHolePunchReady(ctx context.Context, relays []peer.AddrInfo, max time.Duration) {
	public := false
	for _, r := range relays {
		for _, c := range n.host.Network().ConnsToPeer(r.ID) {
			public = public || manet.IsPublicAddr(c.RemoteMultiaddr())
		}
	}
	if !public {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, max)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !n.holePunchReady() {
		select {
		case <-tick.C:
		case <-ctx.Done():
			return
		}
	}
}
