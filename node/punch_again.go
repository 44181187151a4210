package node

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/holepunch"
	pb "github.com/libp2p/go-libp2p/p2p/protocol/holepunch/pb"
	"github.com/libp2p/go-libp2p/p2p/protocol/identify"
	idpb "github.com/libp2p/go-libp2p/p2p/protocol/identify/pb"
	"github.com/libp2p/go-msgio/pbio"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
	"github.com/multiformats/go-multistream"
)

// A second hole punch, later and the other way round (NET-D15 in
// docs/internet.md).
//
// A home NAT that accepts unsolicited packets addressed to itself (no DROP
// on its input) lets the first packet of the other peer's punch in and
// keeps a conntrack entry for it; when its own player's punch then leaves
// for that peer, the NAT finds the mapping taken and sends it from another
// port, and the punch fails. go-libp2p's DCUtR tries three times within a
// few seconds, while that entry lives (30 s, renewed by each packet), so
// all three fail alike. In its timing the guest (the DCUtR receiver)
// dials at once when the SYNC reaches it and the host waits half a round
// trip: the guest's packets tend to go first, which suits a permissive NAT
// on the guest's side and fails one on the host's.
//
// So when hole punching with a held peer failed and this node holds the
// inbound relayed connection (the side that starts DCUtR), it tries again
// punchAgainDelay after the last failure, when the NATs have forgotten
// it: it runs the DCUtR exchange itself and sends its first punch packet
// before the SYNC (NET-D41), without waiting half a round trip after it,
// so that its NAT maps the port before the peer's packets arrive (a
// permissive NAT on this side); if that fails too, once more, punching two round trips
// after the SYNC, when the peer's dial has left (a permissive NAT on the
// peer's side, where go-libp2p's attempts lost the race). A game already
// under way on the relayed connection moves to the direct one: the node
// closes the relayed connection once the direct one is up, and the game's
// inviter opens its stream again on the direct connection (T-11).

// defaultPunchAgainDelay is how long after the last failed hole punch
// the second one starts: longer than the 30 s a NAT keeps an unanswered
// UDP mapping.
const defaultPunchAgainDelay = 35 * time.Second

// punchAgainDelay is defaultPunchAgainDelay, or KAKURE_PUNCH_AGAIN_DELAY
// (a Go duration such as 40s) where it is set: for NATs that keep an
// unanswered UDP mapping longer than 30 s, or a test whose NATs forget
// sooner.
var punchAgainDelay = parsePunchAgainDelay(os.Getenv("KAKURE_PUNCH_AGAIN_DELAY"))

// parsePunchAgainDelay reads KAKURE_PUNCH_AGAIN_DELAY's value: an empty,
// malformed or non-positive one leaves defaultPunchAgainDelay (the
// program still plays; the second hole punch just keeps its usual time).
func parsePunchAgainDelay(v string) time.Duration {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return defaultPunchAgainDelay
	}
	return d
}

// punchLag delays this side's dial in kakure's second and third hole
// punches by that much after the SYNC: KAKURE_TEST_PUNCH_LAG, a Go
// duration, for tests only (zero when unset or malformed). It stands for
// a busy machine that runs the dial's goroutines late, made
// deterministic, so that the namespace lab can show which order of the
// two sides' packets a punch needs (NET-D41, NET-D42).
var punchLag = parsePunchLag(os.Getenv("KAKURE_TEST_PUNCH_LAG"))

// parsePunchLag reads KAKURE_TEST_PUNCH_LAG's value: a positive Go
// duration, or zero.
func parsePunchLag(v string) time.Duration {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0
	}
	return d
}

// punchMsgMax bounds a DCUtR message, as go-libp2p does.
const punchMsgMax = 4 * 1024

// schedulePunchAgain starts, once per peer and failure, the second hole
// punch with p.
func (n *Node) schedulePunchAgain(p peer.ID) {
	in := n.inet
	in.mu.Lock()
	if in.punchAgain[p] || in.closing {
		in.mu.Unlock()
		return
	}
	in.punchAgain[p] = true
	in.mu.Unlock()
	go func() {
		defer func() {
			in.mu.Lock()
			delete(in.punchAgain, p)
			in.mu.Unlock()
		}()
		for i, when := range []punchTiming{punchFirst, punchLast} {
			// The delay runs from the last failed attempt: go-libp2p
			// makes three, each renewing the NATs' entries.
			for {
				in.mu.Lock()
				wait := time.Until(in.failed[p].Add(punchAgainDelay))
				in.mu.Unlock()
				if wait <= 0 {
					break
				}
				select {
				case <-time.After(wait):
				case <-n.closingCtx().Done():
					return
				}
			}
			if why := n.noPunchAgain(p); why != "" {
				connLog.Info("not hole punching again", "peer", p, "attempt", i+2, "why", why)
				return
			}
			connLog.Info("hole punching again", "peer", p, "attempt", i+2, "timing", when)
			ctx, cancel := context.WithTimeout(n.closingCtx(), 30*time.Second)
			err := n.punchAgain(ctx, p, when)
			cancel()
			if err == nil {
				connLog.Info("hole punch succeeded", "peer", p, "attempt", i+2, "timing", when)
				n.moveOffRelay(p)
				return
			}
			connLog.Info("hole punch failed", "peer", p, "attempt", i+2, "timing", when, "err", err)
			in.markFailed(p)
		}
	}()
}

// noPunchAgain says why the next hole punch with p is not made, or "":
// p is no longer held, is reached otherwise than through a relay only,
// or reached this node through no relay (the peer starts DCUtR then).
func (n *Node) noPunchAgain(p peer.ID) string {
	switch {
	case !n.inet.held(p):
		return "the peer is not held (no game with it runs)"
	case n.bestKind(p) != ConnRelayed:
		return "the connection is " + n.bestKind(p).String()
	case !n.holdsInboundRelayed(p):
		return "no inbound relayed connection (the peer starts hole punching)"
	}
	return ""
}

// punchTiming says when this side's punch leaves, relative to the peer's.
type punchTiming int

const (
	// punchFirst sends a packet before the SYNC and dials as soon as
	// the SYNC is written: this side's packets leave before the peer's
	// dial arrives (a permissive NAT on this side, NET-D41).
	punchFirst punchTiming = iota
	// punchLast punches two round trips after the SYNC: the peer's dial
	// has left its NAT first (a permissive NAT on the peer's side), and
	// this side's packets answer it.
	punchLast
)

// String returns "this side first" or "the peer first".
func (w punchTiming) String() string {
	if w == punchFirst {
		return "this side first"
	}
	return "the peer first"
}

// holdsInboundRelayed reports whether p reached this node through a
// relay: the side that starts DCUtR.
func (n *Node) holdsInboundRelayed(p peer.ID) bool {
	for _, c := range n.host.Network().ConnsToPeer(p) {
		if isRelayedConn(c) && !c.IsClosed() && c.Stat().Direction == network.DirInbound {
			return true
		}
	}
	return false
}

// punchAgain runs DCUtR's initiator side with p over the relayed
// connection and punches at once after the SYNC.
func (n *Node) punchAgain(ctx context.Context, p peer.ID, when punchTiming) error {
	own := n.punchAddrs()
	if len(own) == 0 {
		return errors.New("no public address of this node known")
	}
	sctx := network.WithNoDial(network.WithAllowLimitedConn(ctx, "hole-punch"), "hole-punch")
	st, err := n.host.NewStream(sctx, p, holepunch.Protocol)
	if err != nil {
		return fmt.Errorf("opening the DCUtR stream: %w", err)
	}
	defer st.Close()
	st.SetDeadline(time.Now().Add(holepunch.StreamTimeout))
	w := pbio.NewDelimitedWriter(st)
	r := pbio.NewDelimitedReader(st, punchMsgMax)
	ownBytes := make([][]byte, len(own))
	for i, a := range own {
		ownBytes[i] = a.Bytes()
	}
	start := time.Now()
	if err := w.WriteMsg(&pb.HolePunch{Type: pb.HolePunch_CONNECT.Enum(), ObsAddrs: ownBytes}); err != nil {
		st.Reset()
		return fmt.Errorf("sending CONNECT: %w", err)
	}
	var msg pb.HolePunch
	if err := r.ReadMsg(&msg); err != nil {
		st.Reset()
		return fmt.Errorf("reading CONNECT: %w", err)
	}
	rtt := time.Since(start)
	if msg.GetType() != pb.HolePunch_CONNECT {
		st.Reset()
		return fmt.Errorf("expected CONNECT, got %s", msg.GetType())
	}
	var theirs []ma.Multiaddr
	for _, b := range msg.ObsAddrs {
		if a, err := ma.NewMultiaddrBytes(b); err == nil && !isCircuitAddr(a) {
			theirs = append(theirs, a)
		}
	}
	if len(theirs) == 0 {
		st.Reset()
		return errors.New("the peer sent no public address")
	}
	if when == punchFirst {
		// This side's first packet leaves before the SYNC, so that its
		// NAT maps the port before the peer's dial can reach it, however
		// late this program then runs the dial (NET-D41).
		if sent := n.sendPunchPackets(theirs); sent == 0 {
			connLog.Info("no hole-punching packet sent before the SYNC: no QUIC socket for the peer's addresses", "peer", p, "addrs", theirs)
		}
	}
	if err := w.WriteMsg(&pb.HolePunch{Type: pb.HolePunch_SYNC.Enum()}); err != nil {
		st.Reset()
		return fmt.Errorf("sending SYNC: %w", err)
	}
	// punchFirst: at once (its first packet has left already).
	// punchLast: two round trips later, when the peer's dial has left
	// its NAT. Tests can make either later (punchLag).
	wait := punchLag
	if when == punchLast {
		wait += 2*rtt + 20*time.Millisecond
	}
	if wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	dctx, cancel := context.WithTimeout(ctx, holePunchDialTimeout)
	defer cancel()
	dctx = network.WithForceDirectDial(network.WithSimultaneousConnect(dctx, false, "hole-punching"), "hole-punching")
	if err := n.host.Connect(dctx, peer.AddrInfo{ID: p, Addrs: theirs}); err != nil && !n.bestKind(p).direct() {
		// A direct connection the peer's dial made while this side's
		// dial had not started listening for it is a punch that worked.
		return fmt.Errorf("punching: %w", err)
	}
	in := n.inet
	in.mu.Lock()
	for _, c := range n.host.Network().ConnsToPeer(p) {
		if !isRelayedConn(c) && !c.IsClosed() {
			in.punched[c.ID()] = true
		}
	}
	in.notifyLocked()
	in.mu.Unlock()
	return nil
}

// sendPunchPackets sends a packet of random bytes from this node's QUIC
// socket to each of the peer's QUIC addresses in theirs, at once, as
// go-libp2p's QUIC transport does when it punches (NET-D41): the packet
// makes this side's NAT map the socket's port to the peer's address, so
// that the peer's dial, sent when the SYNC reaches it, is let in. It
// returns how many it sent: none when the node has no QUIC socket
// listening at the port of its own QUIC addresses.
func (n *Node) sendPunchPackets(theirs []ma.Multiaddr) int {
	cm := n.inet.quic
	if cm == nil {
		return 0
	}
	ports := map[int]bool{}
	for _, a := range n.host.Network().ListenAddresses() {
		if ua := quicUDPAddr(a); ua != nil {
			ports[ua.Port] = true
		}
	}
	payload := make([]byte, 64)
	sent := 0
	for _, a := range theirs {
		ua := quicUDPAddr(a)
		if ua == nil {
			continue
		}
		network := "udp4"
		if ua.IP.To4() == nil {
			network = "udp6"
		}
		tr, err := cm.TransportForDial(network, ua)
		if err != nil {
			continue
		}
		if la, ok := tr.LocalAddr().(*net.UDPAddr); ok && ports[la.Port] {
			rand.Read(payload)
			if _, err := tr.WriteTo(payload, ua); err == nil {
				sent++
			}
		}
		tr.DecreaseCount()
	}
	return sent
}

// quicUDPAddr returns the UDP address of a, a QUIC address with an IP
// (/ip4/…/udp/…/quic-v1), or nil.
func quicUDPAddr(a ma.Multiaddr) *net.UDPAddr {
	if _, err := a.ValueForProtocol(ma.P_QUIC_V1); err != nil {
		return nil
	}
	network, hostport, err := manet.DialArgs(a)
	if err != nil || (network != "udp4" && network != "udp6") {
		return nil
	}
	ua, err := net.ResolveUDPAddr(network, hostport)
	if err != nil {
		return nil
	}
	return ua
}

// punchAddrs returns this node's public addresses for hole punching: its
// announced ones and, behind a NAT, those its peers observed (AutoNAT v2
// tells them whether reachable or not; a NATed address is unreachable
// until punched), as go-libp2p's DCUtR uses.
func (n *Node) punchAddrs() []ma.Multiaddr {
	all := n.host.Addrs()
	if ch, ok := n.host.(interface {
		ConfirmedAddrs() (reachable, unreachable, unknown []ma.Multiaddr)
	}); ok {
		r, u, k := ch.ConfirmedAddrs()
		all = append(append(append(all, r...), u...), k...)
	}
	all = append(all, n.observedByRelays()...)
	var own []ma.Multiaddr
	for _, a := range ma.Unique(all) {
		if !isCircuitAddr(a) && manet.IsPublicAddr(a) {
			own = append(own, a)
		}
	}
	return own
}

// observedByRelays asks each relay, on each connection to it, which
// address it sees this node at (libp2p's identify protocol: the
// observedAddr of the relay's answer). Behind a port-preserving NAT the
// one seen on a QUIC connection is where a QUIC punch reaches this node.
func (n *Node) observedByRelays() []ma.Multiaddr {
	var out []ma.Multiaddr
	for _, r := range n.inet.relays {
		for _, c := range n.host.Network().ConnsToPeer(r.ID) {
			if isRelayedConn(c) || c.IsClosed() {
				continue
			}
			if a := askObserved(c); a != nil {
				out = append(out, a)
			}
		}
	}
	return out
}

// askObserved runs identify on c and returns the address the other side
// observes, nil on failure.
func askObserved(c network.Conn) ma.Multiaddr {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := c.NewStream(ctx)
	if err != nil {
		return nil
	}
	defer st.Reset()
	st.SetDeadline(time.Now().Add(5 * time.Second))
	if st.SetProtocol(identify.ID) != nil || multistream.SelectProtoOrFail(identify.ID, st) != nil {
		return nil
	}
	var msg idpb.Identify
	if pbio.NewDelimitedReader(st, identifyMsgMax).ReadMsg(&msg) != nil {
		return nil
	}
	a, err := ma.NewMultiaddrBytes(msg.GetObservedAddr())
	if err != nil {
		return nil
	}
	return a
}

// identifyMsgMax bounds an identify message, as go-libp2p does.
const identifyMsgMax = 8 * 1024

// moveOffRelay closes the relayed connections to p once a direct one is
// up, so that a game on one of them opens its stream again on the direct
// connection.
func (n *Node) moveOffRelay(p peer.ID) {
	if k := n.bestKind(p); k != ConnDirect && k != ConnHolePunched {
		return
	}
	for _, c := range n.host.Network().ConnsToPeer(p) {
		if isRelayedConn(c) {
			connLog.Info("closing the relayed connection: a direct one is up", "peer", p)
			c.Close()
		}
	}
}
