package node

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/proto"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/kakure/kakure/node/rendezvous"
)

// Invite codes through the DHT (NET-D17): the host announces itself as
// a provider of rendezvous.DHTKey(code) and answers the rendezvous lookup
// of that code itself with its signed record; the guest finds the key's
// providers, asks each of them, and keeps the answers signed by the very
// peer that gave them. A DHT node can withhold provider records or add
// forged ones; a forged one names a peer that either cannot answer for
// the code (no record signed by itself) and is dropped, or claims the
// code itself, and then the guest sees two claimants and refuses both
// (ErrAmbiguousCode) rather than pick one.

// ErrAmbiguousCode means more than one peer answered for an invite code
// with a record it signed: a second host drew the same code, or someone
// claims it to catch its guest. The guest joins neither.
var ErrAmbiguousCode = errors.New("node: more than one peer answers for this invite code")

// ErrLimitedRelay means the host was reached only through a public relay
// that limits connections (time and data), hole punching failed, and no
// kakure relay is configured: a game cannot be played on such a
// connection (NET-D19).
var ErrLimitedRelay = errors.New("node: the host is reachable only through a public relay, which cannot carry a game, and hole punching failed " +
	"(one of you is probably behind a symmetric NAT, common on mobile networks and some routers): " +
	"configure a kakure relay that both of you use (\"relays\" in " + ConfigFileName + ", or --relay), or play from another network")

const (
	// dhtReadyWait bounds the wait for the DHT's first peer when a code
	// is hosted or joined.
	dhtReadyWait = 30 * time.Second
	// dhtRelays is how many relays found on the DHT HostInvite reserves
	// a slot on.
	dhtRelays = 2
	// providerCheckTimeout bounds reaching one provider of a code's key
	// and asking it for its record.
	providerCheckTimeout = 15 * time.Second
	// providerAddrTTL is how long the addresses of a provider stay in
	// the peerstore.
	providerAddrTTL = 10 * time.Minute
)

// dhtCode is a code this node hosts on the DHT.
type dhtCode struct {
	relays []peer.AddrInfo // relays holding a reservation for the invite
	near   []peer.AddrInfo // peers reached when the code was drawn
}

// ownCodeRecord is the record this node gives a guest who looks up code
// (rendezvous.ServeOwnCodes): signed now, with the addresses of the
// moment.
func (n *Node) ownCodeRecord(code string) (rendezvous.SignedRecord, bool) {
	n.inet.mu.Lock()
	c, ok := n.inet.dhtCodes[code]
	n.inet.mu.Unlock()
	if !ok {
		return rendezvous.SignedRecord{}, false
	}
	sr, err := rendezvous.Sign(n.host.Peerstore().PrivKey(n.host.ID()), code, n.inviteAddrs(c.near, c.relays), time.Now().Add(inviteTTL))
	if err != nil {
		inetLog.Info("signing an invite record", "err", err)
		return rendezvous.SignedRecord{}, false
	}
	return sr, true
}

// dhtPeers returns the peers of the DHT's routing table with their
// addresses.
func (n *Node) dhtPeers() []peer.AddrInfo {
	d := n.inet.getDHT()
	if d == nil {
		return nil
	}
	var out []peer.AddrInfo
	for _, p := range d.RoutingTable().ListPeers() {
		out = append(out, peer.AddrInfo{ID: p, Addrs: n.host.Peerstore().Addrs(p)})
	}
	return out
}

// dhtRelayCandidates returns up to max peers of the DHT's routing table
// that run a circuit relay v2 (identify told which).
func (n *Node) dhtRelayCandidates(max int) []peer.AddrInfo {
	var out []peer.AddrInfo
	for _, p := range n.dhtPeers() {
		if len(out) == max {
			break
		}
		if ok, err := n.host.Peerstore().SupportsProtocols(p.ID, proto.ProtoIDv2Hop); err == nil && len(ok) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// awaitDHTReady waits for the DHT's first peer, at most max. Its
// failure says how long it waited, and whether the bootstrap peers were
// out of reach (no internet) or silent.
func (n *Node) awaitDHTReady(ctx context.Context, max time.Duration) error {
	start := time.Now()
	wctx, cancel := context.WithTimeout(ctx, max)
	defer cancel()
	ok, errs := n.awaitDHT(wctx)
	if ok {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	took := time.Since(start)
	err := errors.Join(errs...)
	if err == nil {
		err = fmt.Errorf("node: no DHT peer in %s", took.Round(100*time.Millisecond))
	}
	if v := judgeDial(err); v.allUnreachable && len(errs) > 0 {
		return fail(FailNoInternet, err, "this machine seems to be off the internet: no DHT bootstrap peer can be reached (%s); check its connection, or configure a kakure relay on your network (docs/internet.md)", roundTook(took))
	}
	return fail(FailNoInternet, err, "no DHT peer answered (%s): is this machine on the internet? If it is, configure a kakure relay (\"relays\" in %s, or --relay)", roundTook(took), ConfigFileName)
}

// hostInviteDHT is HostInvite on the DHT: reserve a slot on relays found
// there (unless this node is reachable as it is), draw a code, announce
// this node as a provider of the code's key.
func (n *Node) hostInviteDHT(ctx context.Context) (*Invite, error) {
	d := n.inet.getDHT()
	if err := n.awaitDHTReady(ctx, dhtReadyWait); err != nil {
		return nil, err
	}
	var reserved []peer.AddrInfo
	if n.inet.reach.get() != network.ReachabilityPublic {
		candidates := n.dhtRelayCandidates(dhtRelays)
		var resErr error
		reserved, resErr = n.reserve(ctx, candidates)
		if len(reserved) == 0 && !n.hasPublicAddr() {
			if len(candidates) == 0 {
				return nil, fail(FailNoPath, errors.New("node: no peer of the DHT's routing table runs a circuit relay"),
					"no relay found on the DHT, and this node has no public address: guests could not reach it; configure a kakure relay (\"relays\" in %s, or --relay)", ConfigFileName)
			}
			return nil, noReservationFailure(resErr, len(candidates))
		}
	}
	near := n.dhtPeers()
	n.awaitHolePunchReady(ctx, near, holePunchReadyWait)
	code, err := rendezvous.NewCode(nil)
	if err != nil {
		return nil, err
	}
	key, err := rendezvous.DHTKey(code)
	if err != nil {
		return nil, err
	}
	if !n.inet.addDHTCode(code, dhtCode{relays: reserved, near: near}) {
		return nil, errors.New("node: closed")
	}
	if err := d.Provide(ctx, key, true); err != nil {
		n.inet.removeDHTCode(code)
		return nil, fmt.Errorf("node: announcing the invite code on the DHT: %w", err)
	}
	loopCtx, cancel := context.WithCancel(context.Background())
	inv := &Invite{Code: code, n: n, dhtRelays: reserved, onDHT: true, cancel: cancel, done: make(chan struct{}), announced: make(chan error, 1)}
	inv.announced <- nil
	if !n.inet.addInvite(inv) {
		cancel()
		n.inet.removeDHTCode(code)
		return nil, errors.New("node: closed")
	}
	go inv.refresh(loopCtx)
	return inv, nil
}

// alsoOnDHT announces a code hosted on kakure relays on the DHT as well,
// when the node is on it, in the background: a guest who configured no
// relay finds it there, and reaches this node through the kakure relays'
// circuits its record names (NET-D1). The returned channel receives the
// outcome (nil off the DHT); a failure does not end the invite: the code
// is on the relays.
func (n *Node) alsoOnDHT(ctx context.Context, code string, relays, reserved []peer.AddrInfo) chan error {
	d := n.inet.getDHT()
	if d == nil {
		return nil
	}
	done := make(chan error, 1)
	key, err := rendezvous.DHTKey(code)
	if err != nil {
		done <- err
		return done
	}
	if !n.inet.addDHTCode(code, dhtCode{relays: reserved, near: relays}) {
		done <- errors.New("node: closed")
		return done
	}
	go func() {
		pctx, cancel := context.WithTimeout(ctx, dhtReadyWait+time.Minute)
		defer cancel()
		err := n.awaitDHTReady(pctx, dhtReadyWait)
		if err == nil {
			err = d.Provide(pctx, key, true)
		}
		if err != nil {
			inetLog.Info("invite code not announced on the DHT", "code", code, "err", err)
			err = fmt.Errorf("node: announcing %s on the DHT: %w", code, err)
		}
		done <- err
	}()
	return done
}

func (in *internet) addDHTCode(code string, c dhtCode) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closing {
		return false
	}
	in.dhtCodes[code] = c
	return true
}

func (in *internet) removeDHTCode(code string) {
	in.mu.Lock()
	delete(in.dhtCodes, code)
	in.mu.Unlock()
}

// providerAnswer is what checking one provider of a code's key gave.
type providerAnswer struct {
	provider peer.ID
	host     peer.AddrInfo // the record's peer and addresses, when it checks
	err      error
	// unreachable says the provider could not be reached at all.
	unreachable bool
}

// findCodeOnDHT finds the providers of code's key, asks each for its
// record of code and returns the one peer that answered with a record it
// signed itself, waiting at most wait for the DHT's first peer. Its
// failures are *Failure: FailCodeNotFound (wrapping
// rendezvous.ErrNotFound) when no provider answered for the code,
// FailPeerOffline when the providers do not answer at all (the host has
// stopped), FailAmbiguousCode (wrapping ErrAmbiguousCode) when several
// did, FailNoInternet when the DHT cannot be reached.
func (n *Node) findCodeOnDHT(ctx context.Context, code string, wait time.Duration) (peer.AddrInfo, error) {
	d := n.inet.getDHT()
	if err := n.awaitDHTReady(ctx, wait); err != nil {
		return peer.AddrInfo{}, err
	}
	key, err := rendezvous.DHTKey(code)
	if err != nil {
		return peer.AddrInfo{}, err
	}
	// Reaching a provider through a relay makes it start hole punching at
	// once (its DCUtR service does, on the inbound relayed connection),
	// and the punch fails unless this node's DCUtR service is up already.
	n.awaitHolePunchReady(ctx, n.dhtPeers(), holePunchReadyWait)
	answers := make(chan providerAnswer)
	var wg sync.WaitGroup
	asked := 0
	for p := range d.FindProvidersAsync(ctx, key, 0) {
		if p.ID == n.host.ID() {
			continue
		}
		asked++
		wg.Go(func() { answers <- n.askProvider(ctx, code, p) })
	}
	go func() { wg.Wait(); close(answers) }()
	var hosts []peer.AddrInfo
	var errs []error
	unreachable := 0
	for a := range answers {
		if a.err != nil {
			connLog.Info("invite code provider dropped", "code", code, "provider", a.provider, "err", a.err)
			errs = append(errs, a.err)
			if a.unreachable {
				unreachable++
			}
			continue
		}
		hosts = append(hosts, a.host)
	}
	if err := ctx.Err(); err != nil {
		return peer.AddrInfo{}, err
	}
	switch {
	case len(hosts) == 1:
		return hosts[0], nil
	case len(hosts) > 1:
		ids := make([]string, len(hosts))
		for i, h := range hosts {
			ids[i] = h.ID.String()
		}
		slices.Sort(ids)
		return peer.AddrInfo{}, fail(FailAmbiguousCode, fmt.Errorf("%w: %s (%s)", ErrAmbiguousCode, code, strings.Join(ids, ", ")),
			"more than one peer claims the code %s (%s), so you join none: ask your friend for a new code, and check the peer ID you reach", code, strings.Join(ids, ", "))
	case asked == 0:
		return peer.AddrInfo{}, codeFailure(fmt.Errorf("%w: %s (nobody announces it on the DHT; codes end when their host stops)", rendezvous.ErrNotFound, code), code)
	case unreachable == asked:
		// The code's providers are its host's programs (NET-D17): none
		// of them answers.
		return peer.AddrInfo{}, fail(FailPeerOffline, fmt.Errorf("%w: %s (%d peers announce it on the DHT, none could be reached: %w)", rendezvous.ErrNotFound, code, asked, errors.Join(errs...)),
			"the host of %s does not answer: its program has stopped or lost its connection (the DHT still names it); ask your friend to host a new code", code)
	default:
		return peer.AddrInfo{}, codeFailure(fmt.Errorf("%w: %s (%d peers announce it on the DHT, none answered for it: %w)", rendezvous.ErrNotFound, code, asked, errors.Join(errs...)), code)
	}
}

// askProvider reaches provider p of code's key and asks it for its
// record of code. The record must be signed by p itself: a record of
// another peer is a replay (NET-D17).
func (n *Node) askProvider(ctx context.Context, code string, p peer.AddrInfo) providerAnswer {
	ctx, cancel := context.WithTimeout(ctx, providerCheckTimeout)
	defer cancel()
	// The provider may be reachable only through a limited public relay:
	// a lookup is a few hundred bytes.
	ctx = network.WithAllowLimitedConn(ctx, "kakure-invite")
	if len(p.Addrs) > 0 {
		n.host.Peerstore().AddAddrs(p.ID, p.Addrs, providerAddrTTL)
	}
	n.clearDialBackoff(p.ID)
	if err := n.host.Connect(ctx, peer.AddrInfo{ID: p.ID, Addrs: p.Addrs}); err != nil {
		return providerAnswer{provider: p.ID, err: fmt.Errorf("provider %s: unreachable: %w", p.ID, err), unreachable: true}
	}
	_, info, err := rendezvous.Lookup(ctx, n.host, p.ID, code)
	if err != nil {
		return providerAnswer{provider: p.ID, err: fmt.Errorf("provider %s: %w", p.ID, err)}
	}
	if info.ID != p.ID {
		return providerAnswer{provider: p.ID, err: fmt.Errorf("provider %s answered with a record signed by %s, not by itself: a replayed record, ignored", p.ID, info.ID)}
	}
	return providerAnswer{provider: p.ID, host: info}
}

// withCircuitAddrs is the AddrsFactory of a node that is no relay: on
// the DHT, its addresses and, for every relay holding a reservation
// HostInvite made (found on the DHT or a kakure relay), a circuit address
// through it, so that the addresses the DHT's provider records carry
// reach a node behind a NAT. Off the DHT the addresses are left as they
// are: the invite records on the kakure relays carry the circuits
// (inviteAddrs).
func (n *Node) withCircuitAddrs(addrs []ma.Multiaddr) []ma.Multiaddr {
	in := n.inet
	in.mu.Lock()
	if in.dht == nil {
		in.mu.Unlock()
		return addrs
	}
	h := in.h
	now := time.Now()
	var relays []peer.ID
	for r, exp := range in.reservations {
		if exp.After(now) {
			relays = append(relays, r)
		}
	}
	in.mu.Unlock()
	if h == nil || len(relays) == 0 {
		return addrs
	}
	addrs = slices.Clone(addrs)
	for _, r := range relays {
		circuit, err := ma.NewMultiaddr("/p2p/" + r.String() + "/p2p-circuit")
		if err != nil {
			continue
		}
		for _, c := range h.Network().ConnsToPeer(r) {
			if !isCircuitAddr(c.RemoteMultiaddr()) {
				addrs = append(addrs, c.RemoteMultiaddr().Encapsulate(circuit))
			}
		}
	}
	return ma.Unique(addrs)
}

// onlyLimited reports whether every open connection to p is a limited
// one (through a public relay).
func (n *Node) onlyLimited(p peer.ID) bool {
	conns := n.host.Network().ConnsToPeer(p)
	limited := 0
	for _, c := range conns {
		if c.IsClosed() {
			continue
		}
		if !c.Stat().Limited {
			return false
		}
		limited++
	}
	return limited > 0
}
