package node

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/kakure/kakure/node/rendezvous"
)

// ErrNoRelays means an invite code was asked for and the node knows no
// relay.
var ErrNoRelays = errors.New("node: no relay configured and off the DHT: invite codes need the DHT or a kakure relay (give --relay, or list relays in " + ConfigFileName + ")")

const (
	// inviteTTL is how long a registered code lives on a relay without
	// being refreshed; inviteRefresh is how often a host refreshes it
	// (and its relay reservations), with its addresses of the moment.
	inviteTTL     = 30 * time.Minute
	inviteRefresh = 10 * time.Minute
	// relayDialTimeout bounds connecting to one relay.
	relayDialTimeout = 10 * time.Second
	// holePunchReadyWait bounds the wait for the DCUtR service after
	// connecting to the relays.
	holePunchReadyWait = 3 * time.Second
	// upgradeWait bounds how long JoinInvite waits for a relayed
	// connection to become direct.
	upgradeWait = 6 * time.Second
	// lanDialWait bounds JoinInvite's own dial of the host's addresses:
	// on a LAN it connects in milliseconds, and elsewhere it would only
	// keep the guest waiting.
	lanDialWait = 2 * time.Second
	// maxCodeDraws is how many codes HostInvite draws before giving up
	// when the relays say each is taken.
	maxCodeDraws = 8
	// unregisterTimeout bounds withdrawing a code when an invite closes.
	unregisterTimeout = 2 * time.Second
)

// Invite is an invite code the node hosts on its relays until Close: a
// guest who types Code reaches the node with JoinInvite. The code is not
// a secret; who connects is known by peer ID.
type Invite struct {
	// Code is the code to read to the guest, e.g. "maple-otter-quail".
	Code string

	n      *Node
	relays []peer.AddrInfo // the relays holding the code
	// onDHT says the code is announced on the DHT; dhtRelays are the
	// relays found there that hold a reservation for it.
	onDHT     bool
	dhtRelays []peer.AddrInfo
	// announced receives the outcome of announcing the code on the DHT;
	// nil off the DHT.
	announced chan error
	cancel    context.CancelFunc
	done      chan struct{}
	closeOnce sync.Once
}

// HostInvite connects to the node's relays, reserves a slot on each (so
// that guests behind NATs reach this node through them), draws a fresh
// code and registers it there with this node's addresses, signed by its
// identity key. The code stays registered, refreshed in the background,
// until the Invite is closed or the node closes. ctx bounds the setup
// only.
func (n *Node) HostInvite(ctx context.Context) (*Invite, error) {
	if len(n.inet.relays) == 0 {
		if n.inet.getDHT() != nil {
			return n.hostInviteDHT(ctx)
		}
		return nil, noRelaysFailure()
	}
	relays, err := n.connectRelays(ctx)
	if err != nil {
		return nil, err
	}
	reserved, resErr := n.reserve(ctx, relays)
	if len(reserved) == 0 && !n.hasPublicAddr() {
		return nil, noReservationFailure(resErr, len(relays))
	}
	n.awaitHolePunchReady(ctx, relays, holePunchReadyWait)
	for range maxCodeDraws {
		code, err := rendezvous.NewCode(nil)
		if err != nil {
			return nil, err
		}
		held, err := n.registerCode(ctx, code, relays, reserved)
		if errors.Is(err, rendezvous.ErrTaken) {
			continue
		}
		if err != nil {
			if errors.Is(err, rendezvous.ErrRefused) {
				return nil, fail(FailRelayFull, err, "the relay refused the invite code (it holds too many codes, or too many of yours): try again later or use another relay")
			}
			return nil, fail(FailRelayDown, err, "the relay did not take the invite code (it stopped answering): try again, or check \"relays\" in %s", ConfigFileName)
		}
		loopCtx, cancel := context.WithCancel(context.Background())
		inv := &Invite{Code: code, n: n, relays: held, cancel: cancel, done: make(chan struct{})}
		if !n.inet.addInvite(inv) {
			cancel()
			inv.unregister()
			return nil, errors.New("node: closed")
		}
		go inv.refresh(loopCtx)
		inv.announced = n.alsoOnDHT(loopCtx, code, relays, reserved)
		return inv, nil
	}
	return nil, fail(FailRelayFull, fmt.Errorf("node: the relays refused %d invite codes in a row as taken", maxCodeDraws),
		"the relays refused %d invite codes in a row as taken: they hold too many codes; try again later", maxCodeDraws)
}

// noReservationFailure says why no relay gave this node a reservation:
// they refused (full, or their limits) or did not answer.
func noReservationFailure(err error, relays int) *Failure {
	if err == nil {
		err = errors.New("node: no relay to reserve a slot on")
	}
	if relays == 0 {
		return fail(FailNoPath, err, "no relay to reach this node through: guests could not reach it; configure a kakure relay (\"relays\" in %s, or --relay)", ConfigFileName)
	}
	if judgeDial(err).class == dialRelayFull {
		return fail(FailRelayFull, err, "the relay refused this node a reservation (it is full, or limits your address), so guests could not reach you: try again later or use another relay")
	}
	return fail(FailRelayDown, err, "no relay gave this node a reservation (the relay stopped answering), so guests could not reach you: try again, or check \"relays\" in %s", ConfigFileName)
}

// AnnouncedOnDHT returns a channel that receives, once, the outcome of
// announcing the code on the DHT (nil when done): at once for a code
// hosted on the DHT alone, in the background for a code on kakure relays
// that is announced on the DHT as well. It returns nil when the node is
// off the DHT.
func (inv *Invite) AnnouncedOnDHT() <-chan error { return inv.announced }

// Close withdraws the code from the relays and stops refreshing it. A
// game the code led to goes on. Calling it again does nothing.
func (inv *Invite) Close() error {
	inv.closeOnce.Do(func() {
		inv.cancel()
		<-inv.done
		inv.unregister()
		inv.n.inet.removeDHTCode(inv.Code)
		inv.n.inet.removeInvite(inv)
	})
	return nil
}

func (inv *Invite) unregister() {
	ctx, cancel := context.WithTimeout(context.Background(), unregisterTimeout)
	defer cancel()
	var wg sync.WaitGroup
	for _, r := range inv.relays {
		wg.Go(func() { rendezvous.Unregister(ctx, inv.n.host, r.ID, inv.Code) })
	}
	wg.Wait()
}

// refresh renews the reservations and the code's record until ctx ends.
func (inv *Invite) refresh(ctx context.Context) {
	defer close(inv.done)
	t := time.NewTicker(inviteRefresh)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rctx, cancel := context.WithTimeout(ctx, time.Minute)
		if inv.onDHT {
			inv.n.reserve(rctx, inv.dhtRelays)
		} else {
			reserved, _ := inv.n.reserve(rctx, inv.relays)
			inv.n.registerCode(rctx, inv.Code, inv.relays, reserved)
		}
		cancel()
	}
}

// JoinInvite finds the peer hosting code on the node's relays (or on the
// DHT when it has none, or they do not know the code: NET-D17), connects
// to it, directly if it can or else through a relay, and when relayed
// waits a few seconds for hole punching to make the connection direct
// (see ConnectionInfo). It returns the host's ID and addresses, checked
// against the host's signature. Its failures are *Failure (NET-D22):
// FailBadCode wrapping rendezvous.ErrBadCode for a code that cannot be
// one, FailCodeNotFound wrapping rendezvous.ErrNotFound when nobody
// answers for it, FailAmbiguousCode wrapping ErrAmbiguousCode when
// several peers do on the DHT, FailNoPath wrapping ErrLimitedRelay when
// only a limited public relay connects the two, FailConfig wrapping
// ErrNoRelays with neither relays nor the DHT, and the classes of a
// failed dial (FailPeerOffline, FailPeerMismatch, FailRelayDown,
// FailNoInternet ...).
func (n *Node) JoinInvite(ctx context.Context, typed string) (peer.AddrInfo, error) {
	code, err := rendezvous.ParseCode(typed)
	if err != nil {
		return peer.AddrInfo{}, codeFailure(err, strings.TrimSpace(typed))
	}
	onDHT := n.inet.getDHT() != nil
	if len(n.inet.relays) == 0 && !onDHT {
		return peer.AddrInfo{}, noRelaysFailure()
	}
	var info peer.AddrInfo
	var near []peer.AddrInfo // peers reached at public addresses, for awaitHolePunchReady
	if len(n.inet.relays) > 0 {
		near, err = n.connectRelays(ctx)
		if err == nil {
			info, err = n.lookupCode(ctx, code, near)
		}
	}
	if onDHT && (len(n.inet.relays) == 0 || err != nil) && ctx.Err() == nil {
		relayErr := err
		wait := dhtReadyWait
		if errors.Is(relayErr, rendezvous.ErrNotFound) {
			// The relays answered: a code typed wrong is not worth
			// waiting long for the DHT.
			wait = dhtReadyWaitAfterRelays
		}
		info, err = n.findCodeOnDHT(ctx, code, wait)
		if err != nil && relayErr != nil {
			err = joinBothFailure(code, relayErr, err)
		}
		near = n.dhtPeers()
	}
	if err != nil {
		if ctx.Err() != nil {
			return peer.AddrInfo{}, ctx.Err()
		}
		return peer.AddrInfo{}, err
	}
	if info.ID == n.host.ID() {
		return peer.AddrInfo{}, fail(FailConfig, fmt.Errorf("node: %s is this node's own invite code", code),
			"%s is this program's own invite code: give it to your friend, who types it", code)
	}
	n.awaitHolePunchReady(ctx, near, holePunchReadyWait)
	// Dial the host's own addresses apart as well: on a LAN the circuit
	// through the relay may connect first, and nothing else would then try
	// the direct path (DCUtR only tries public addresses).
	dctx, cancel := context.WithTimeout(ctx, upgradeWait)
	defer cancel()
	direct := make(chan error, 1)
	go func() {
		lctx, cancel := context.WithTimeout(dctx, lanDialWait)
		defer cancel()
		direct <- n.dialDirect(lctx, info)
	}()
	n.clearDialBackoff(info.ID) // a join asked for again is tried again
	connLog.Info("dialling", "peer", info.ID, "code", code, "addrs", info.Addrs)
	// A public relay gives a limited connection, enough to meet and hole
	// punch; the game needs a direct one then (checked below).
	if err := n.host.Connect(network.WithAllowLimitedConn(ctx, "kakure-join"), info); err != nil && n.bestKind(info.ID) == ConnNone {
		connLog.Info("dial failed", "peer", info.ID, "err", err)
		if ctx.Err() != nil {
			return peer.AddrInfo{}, ctx.Err()
		}
		return peer.AddrInfo{}, peerDialFailure(fmt.Errorf("node: connecting to %s, host of %s: %w", info.ID, code, err), info.ID, "the host of "+code)
	}
	if n.bestKind(info.ID) == ConnRelayed {
		n.awaitDirect(dctx, info.ID, direct)
	}
	if n.bestKind(info.ID) == ConnRelayed && n.onlyLimited(info.ID) {
		connLog.Info("only a limited relayed connection", "peer", info.ID, "code", code)
		n.noPath(info.ID)
		return peer.AddrInfo{}, noPathFailure(fmt.Errorf("%w (host %s)", ErrLimitedRelay, info.ID))
	}
	n.closeIdleRelayed(info.ID)
	n.inet.rememberCode(info.ID, code)
	return info, nil
}

// dhtReadyWaitAfterRelays bounds the wait for the DHT's first peer when
// the relays said they do not know the code.
const dhtReadyWaitAfterRelays = 10 * time.Second

// noRelaysFailure is ErrNoRelays as a Failure.
func noRelaysFailure() *Failure {
	return fail(FailConfig, ErrNoRelays, "invite codes need the DHT or a kakure relay, and this node has neither: remove \"dht\": \"off\" from %[1]s, or give --relay, or list relays in %[1]s", ConfigFileName)
}

// noPathFailure is ErrLimitedRelay as a Failure (NET-D19).
func noPathFailure(err error) *Failure {
	return fail(FailNoPath, err, "no way through the NATs: you met only through a public relay, which cannot carry a game, and hole punching failed (one of you is probably behind a symmetric NAT); "+
		"configure a kakure relay that both of you use (\"relays\" in %s, or --relay), or play from another network", ConfigFileName)
}

// joinBothFailure combines the failure of a code's lookup on the relays
// with its failure on the DHT into the one that names the cause: a relay
// down, or this machine offline, unless the DHT found out more (the host
// offline, two claimants); the relays' "not found" when the DHT could not
// be asked.
func joinBothFailure(code string, relayErr, dhtErr error) error {
	rf, df := AsFailure(relayErr), AsFailure(dhtErr)
	joined := fmt.Errorf("%w (and on the relays: %w)", dhtErr, relayErr)
	if rf == nil || df == nil {
		return joined
	}
	switch {
	case df.Kind == FailAmbiguousCode || df.Kind == FailPeerOffline:
		return &Failure{Kind: df.Kind, Headline: df.Headline, Err: joined}
	case rf.Kind == FailCodeNotFound && df.Kind == FailNoInternet:
		return fail(FailCodeNotFound, joined, "nobody hosts the code %s on the relays (and the DHT cannot be reached): check it with your friend, or ask for a new one", code)
	case rf.Kind == FailCodeNotFound:
		return &Failure{Kind: rf.Kind, Headline: rf.Headline, Err: joined}
	case df.Kind == FailCodeNotFound || df.Kind == FailNoInternet:
		// The relays could not be asked: their failure is the cause.
		return &Failure{Kind: rf.Kind, Headline: rf.Headline, Err: joined}
	}
	return &Failure{Kind: df.Kind, Headline: df.Headline, Err: joined}
}

// dialDirect dials p at its addresses that are not circuit addresses,
// even when a relayed connection exists.
func (n *Node) dialDirect(ctx context.Context, p peer.AddrInfo) error {
	var addrs []ma.Multiaddr
	for _, a := range p.Addrs {
		if !isCircuitAddr(a) {
			addrs = append(addrs, a)
		}
	}
	if len(addrs) == 0 {
		return errors.New("node: no direct address")
	}
	return n.host.Connect(network.WithForceDirectDial(ctx, "kakure-join"), peer.AddrInfo{ID: p.ID, Addrs: addrs})
}

// closeIdleRelayed closes the relayed connections to p that carry no
// application stream when a direct one exists, so that the relay does
// not keep a circuit open for nothing.
func (n *Node) closeIdleRelayed(p peer.ID) {
	if k := n.bestKind(p); k != ConnDirect && k != ConnHolePunched {
		return
	}
	for _, c := range n.host.Network().ConnsToPeer(p) {
		if !isRelayedConn(c) {
			continue
		}
		idle := true
		for _, st := range c.GetStreams() {
			idle = idle && isBackgroundProtocol(st.Protocol())
		}
		if idle {
			c.Close()
		}
	}
}

// connectRelays connects to every relay at once and returns those it
// reached, in the configured order. When it reaches none, its failure
// says whether the relays are down or this machine is offline.
func (n *Node) connectRelays(ctx context.Context) ([]peer.AddrInfo, error) {
	relays := n.inet.relays
	start := time.Now()
	errs := make([]error, len(relays))
	var wg sync.WaitGroup
	for i, r := range relays {
		wg.Go(func() {
			dctx, cancel := context.WithTimeout(ctx, relayDialTimeout)
			defer cancel()
			n.clearDialBackoff(r.ID)
			if err := n.host.Connect(dctx, r); err != nil {
				errs[i] = fmt.Errorf("relay %s: %w", r.ID, err)
			}
		})
	}
	wg.Wait()
	var ok []peer.AddrInfo
	for i, r := range relays {
		if errs[i] == nil {
			ok = append(ok, r)
		}
	}
	if len(ok) == 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, relayFailure(errs, len(relays), time.Since(start))
	}
	return ok, nil
}

// reserve asks each relay for a reservation and returns those that gave
// one, and the errors of the others.
func (n *Node) reserve(ctx context.Context, relays []peer.AddrInfo) ([]peer.AddrInfo, error) {
	errs := make([]error, len(relays))
	var wg sync.WaitGroup
	for i, r := range relays {
		wg.Go(func() {
			rsvp, err := client.Reserve(ctx, n.host, r)
			if err != nil {
				errs[i] = fmt.Errorf("reservation on relay %s: %w", r.ID, err)
				return
			}
			n.inet.mu.Lock()
			n.inet.reservations[r.ID] = rsvp.Expiration
			n.inet.mu.Unlock()
		})
	}
	wg.Wait()
	var out []peer.AddrInfo
	for i, r := range relays {
		if errs[i] == nil {
			out = append(out, r)
		}
	}
	return out, errors.Join(errs...)
}

// registerCode registers code on every relay with this node's addresses
// and returns the relays that hold it. If one says the code is taken, it
// withdraws the code from the others and returns ErrTaken.
func (n *Node) registerCode(ctx context.Context, code string, relays, reserved []peer.AddrInfo) ([]peer.AddrInfo, error) {
	key := n.host.Peerstore().PrivKey(n.host.ID())
	sr, err := rendezvous.Sign(key, code, n.inviteAddrs(relays, reserved), time.Now().Add(inviteTTL))
	if err != nil {
		return nil, err
	}
	errs := make([]error, len(relays))
	var wg sync.WaitGroup
	for i, r := range relays {
		wg.Go(func() { errs[i] = rendezvous.Register(ctx, n.host, r.ID, sr) })
	}
	wg.Wait()
	var held []peer.AddrInfo
	taken := false
	for i, r := range relays {
		switch {
		case errs[i] == nil:
			held = append(held, r)
		case errors.Is(errs[i], rendezvous.ErrTaken):
			taken = true
		}
	}
	if taken {
		for _, r := range held {
			rendezvous.Unregister(ctx, n.host, r.ID, code)
		}
		return nil, rendezvous.ErrTaken
	}
	if len(held) == 0 {
		return nil, fmt.Errorf("node: no relay took the invite code: %w", errors.Join(errs...))
	}
	return held, nil
}

// lookupCode asks every relay at once who hosts code and returns the
// first answer that checks.
func (n *Node) lookupCode(ctx context.Context, code string, relays []peer.AddrInfo) (peer.AddrInfo, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		info peer.AddrInfo
		err  error
	}
	answers := make(chan answer, len(relays))
	for _, r := range relays {
		go func() {
			_, info, err := rendezvous.Lookup(ctx, n.host, r.ID, code)
			if err != nil {
				err = fmt.Errorf("relay %s: %w", r.ID, err)
			} else if n.onLoopbackTo(r.ID) {
				// A host puts its loopback addresses in its record only
				// when it reaches the relay on loopback (NET-D7): it is
				// on this machine, as the relay is.
				n.markLocal(info.ID)
			}
			answers <- answer{info, err}
		}()
	}
	var errs []error
	notFound := 0
	for range relays {
		a := <-answers
		if a.err == nil {
			return a.info, nil
		}
		if errors.Is(a.err, rendezvous.ErrNotFound) {
			notFound++
		}
		errs = append(errs, a.err)
	}
	if notFound == len(relays) {
		return peer.AddrInfo{}, codeFailure(fmt.Errorf("%w: %s (asked %d relays; codes expire when their host stops)", rendezvous.ErrNotFound, code, len(relays)), code)
	}
	if ctx.Err() != nil {
		return peer.AddrInfo{}, ctx.Err()
	}
	return peer.AddrInfo{}, fail(FailRelayDown, fmt.Errorf("node: looking up %s: %w", code, errors.Join(errs...)),
		"the relay did not answer the lookup of %s (it is not a kakure relay, or it stopped answering): try again, or check \"relays\" in %s", code, ConfigFileName)
}

// inviteAddrs returns the addresses to put in an invite record: the
// node's own addresses (loopback ones only if the relays are reached on
// loopback too, link-local ones never) and, for every relay that gave a
// reservation, a circuit address through it.
func (n *Node) inviteAddrs(relays, reserved []peer.AddrInfo) []ma.Multiaddr {
	allLoopback := true
	for _, r := range relays {
		for _, c := range n.host.Network().ConnsToPeer(r.ID) {
			allLoopback = allLoopback && manet.IsIPLoopback(c.RemoteMultiaddr())
		}
	}
	var addrs []ma.Multiaddr
	for _, a := range n.host.Addrs() {
		switch {
		case isCircuitAddr(a), isLinkLocal(a):
		case manet.IsIPLoopback(a) && !allLoopback:
		default:
			addrs = append(addrs, a)
		}
	}
	for _, r := range reserved {
		circuit, err := ma.NewMultiaddr("/p2p/" + r.ID.String() + "/p2p-circuit")
		if err != nil {
			continue
		}
		var via []ma.Multiaddr
		for _, c := range n.host.Network().ConnsToPeer(r.ID) {
			if !isCircuitAddr(c.RemoteMultiaddr()) {
				via = append(via, c.RemoteMultiaddr())
			}
		}
		for _, a := range append(via, r.Addrs...) {
			addrs = append(addrs, a.Encapsulate(circuit))
		}
	}
	return ma.Unique(addrs)
}

// onLoopbackTo reports whether n has a connection to p on loopback.
func (n *Node) onLoopbackTo(p peer.ID) bool {
	for _, c := range n.host.Network().ConnsToPeer(p) {
		if manet.IsIPLoopback(c.RemoteMultiaddr()) {
			return true
		}
	}
	return false
}

func isCircuitAddr(a ma.Multiaddr) bool {
	_, err := a.ValueForProtocol(ma.P_CIRCUIT)
	return err == nil
}

// hasPublicAddr reports whether the node listens on a public address.
func (n *Node) hasPublicAddr() bool {
	for _, a := range n.host.Addrs() {
		if !isCircuitAddr(a) && manet.IsPublicAddr(a) {
			return true
		}
	}
	return false
}

// addInvite records an open invite, so that Close closes it; false once
// the node is closing.
func (in *internet) addInvite(inv *Invite) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closing {
		return false
	}
	in.invites[inv] = true
	return true
}

func (in *internet) removeInvite(inv *Invite) {
	in.mu.Lock()
	delete(in.invites, inv)
	in.mu.Unlock()
}

// closeInvites closes every open invite (withdrawing their codes).
func (in *internet) closeInvites() {
	in.mu.Lock()
	in.closing = true
	invs := make([]*Invite, 0, len(in.invites))
	for inv := range in.invites {
		invs = append(invs, inv)
	}
	in.mu.Unlock()
	var wg sync.WaitGroup
	for _, inv := range invs {
		wg.Go(func() { inv.Close() })
	}
	wg.Wait()
}
