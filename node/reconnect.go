package node

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	ma "github.com/multiformats/go-multiaddr"
)

// Keeping connections to the peers of games (see docs/internet.md,
// NET-D14, NET-D28): while a game with a peer runs, the node holds the
// peer (Keep). When the last connection to a held peer closes (or when
// it is held while not connected), the node redials it until it is
// connected again or released: a try at once, the next 1 s later, then
// one every 2 to 3 s (every 15 s once it has been lost for 15 minutes),
// each try by every path at once, its dials bounded by 5 s:
//
//   - the peer's direct addresses: those it was reached at (the remote
//     addresses of its direct connections and what the peerstore held
//     when it was lost, kept while it is held: the peerstore drops a
//     hole punch's addresses at the first identify, and a lost peer's
//     after a while) and the peerstore's of the moment;
//   - its circuit addresses (relays on which it holds a reservation),
//     where hole punching then makes the connection direct;
//   - a circuit through each configured relay (the node reconnects to the
//     relay first);
//   - when these fail and the peer was met by invite code, a new lookup of
//     the code on the relays, for its addresses of the moment.
//
// Meanwhile, on the DHT, every 10 s the node looks the peer up
// (FindPeer) for its addresses of the moment, and renews the relay
// reservations HostInvite made, so that the peer's own redial finds a
// circuit back. Both sides of a game hold each other, so both redial:
// after a cut their direct dials cross as a hole punch's do.
//
// The side that accepts a relayed connection starts DCUtR hole punching
// by itself (go-libp2p's holepunch service), so a punch is tried again
// whenever the redial goes through a relay; the redial waits a few
// seconds for it, as JoinInvite does, so that the game's stream is
// opened on the direct connection. Each step is logged to kakure.log at
// the default level and described by ConnectionInfo's Reconnecting.

const (
	// firstRedialPause is the pause between the starts of the first two
	// tries; then redialPause and up to redialJitter more, until the peer
	// has been lost for longLost, and then longRedialPause.
	firstRedialPause = time.Second
	redialPause      = 2 * time.Second
	redialJitter     = time.Second
	longLost         = 15 * time.Minute
	longRedialPause  = 15 * time.Second
	// redialDialTimeout bounds the dials of one try: a dial into a cut
	// link hangs until it. It is short because go-libp2p runs one dial of
	// a peer at a time, which a new dial joins, and does not dial again
	// within it an address that failed: only the next try's dial, once
	// this one has ended, sends the first packets of a new handshake.
	redialDialTimeout = 5 * time.Second
	// redialTimeout bounds one try with its lookup of the invite code and
	// its wait for a hole punch.
	redialTimeout = 10 * time.Second
	// lookupPause is how often the node looks a lost peer up on the DHT
	// and renews its own reservations (longLookupPause once the peer has
	// been lost for longLost); lookupTimeout bounds each time.
	lookupPause     = 10 * time.Second
	longLookupPause = time.Minute
	lookupTimeout   = 10 * time.Second
	// maxKeptAddrs bounds the addresses kept for a held peer.
	maxKeptAddrs = 32
)

// keptPeer is the reconnection state of a held peer.
type keptPeer struct {
	holds   int
	running bool   // a reconnection loop runs
	state   string // what the loop does now, for ConnectionInfo
	// addrs are the addresses the peer was reached at, kept while it is
	// held, the latest last: the remote addresses of its direct
	// connections, what the peerstore held when it was lost, what a
	// lookup found.
	addrs []ma.Multiaddr
}

// remember adds addrs to k's, at most maxKeptAddrs, the latest last.
func (k *keptPeer) remember(addrs []ma.Multiaddr) {
	for _, a := range addrs {
		k.addrs = append(slices.DeleteFunc(k.addrs, a.Equal), a)
	}
	if over := len(k.addrs) - maxKeptAddrs; over > 0 {
		k.addrs = slices.Delete(k.addrs, 0, over)
	}
}

// Keep holds p: until as many Release calls, the node reconnects to p
// whenever its last connection closes, and at once if it is not
// connected now. Keep p while a game with it runs.
func (n *Node) Keep(p peer.ID) {
	var reached []ma.Multiaddr
	for _, c := range n.host.Network().ConnsToPeer(p) {
		if !isRelayedConn(c) {
			reached = append(reached, c.RemoteMultiaddr())
		}
	}
	connected := len(reached) > 0 || n.host.Network().Connectedness(p) == network.Connected
	var booked []ma.Multiaddr
	if !connected {
		// Restarted: where the peer was last reached (NET-D40), read
		// before the lock (the book is a file).
		booked = n.book.addrsOf(p)
	}
	in := n.inet
	in.mu.Lock()
	k := in.kept[p]
	if k == nil {
		k = &keptPeer{}
		in.kept[p] = k
	}
	k.holds++
	k.remember(reached)
	if len(k.addrs) == 0 {
		k.remember(booked)
	}
	in.mu.Unlock()
	if connected {
		n.noteInBook(p, reached)
	}
	// A game resumed at start whose peer did not answer: nothing else
	// would dial it (the games leave it to the node, Held).
	n.peerLost(p)
}

// noteInBook writes the addresses p is reached at now (those of its
// direct connections, reached, and the peerstore's) to the address book
// (NET-D40).
func (n *Node) noteInBook(p peer.ID, reached []ma.Multiaddr) {
	addrs := append(n.host.Peerstore().Addrs(p), reached...)
	if err := n.book.note(p, addrs, time.Now()); err != nil {
		connLog.Warn("address book not written", "peer", p, "err", err)
	}
}

// Held reports whether p is held (Keep) and the node is not closing: the
// node then redials p by itself whenever the connection is lost, and
// the games with p need not dial it (protocol.Config.Redialled).
func (n *Node) Held(p peer.ID) bool { return n.inet.held(p) }

// Release undoes one Keep.
func (n *Node) Release(p peer.ID) {
	in := n.inet
	in.mu.Lock()
	defer in.mu.Unlock()
	if k := in.kept[p]; k != nil {
		if k.holds--; k.holds <= 0 {
			delete(in.kept, p)
		}
	}
	in.notifyLocked()
}

// noteConn keeps the remote address of a direct connection to a held
// peer: the address it was reached at (for a hole-punched connection, its
// NAT's mapping), which its identify may not announce.
func (in *internet) noteConn(c network.Conn) {
	if !isRelayedConn(c) {
		in.rememberAddrs(c.RemotePeer(), []ma.Multiaddr{c.RemoteMultiaddr()})
	}
}

// rememberAddrs keeps addrs among held peer p's addresses.
func (in *internet) rememberAddrs(p peer.ID, addrs []ma.Multiaddr) {
	in.mu.Lock()
	if k := in.kept[p]; k != nil {
		k.remember(addrs)
	}
	in.mu.Unlock()
}

// keptAddrs returns the addresses kept for held peer p.
func (in *internet) keptAddrs(p peer.ID) []ma.Multiaddr {
	in.mu.Lock()
	defer in.mu.Unlock()
	if k := in.kept[p]; k != nil {
		return slices.Clone(k.addrs)
	}
	return nil
}

// held reports whether p is held and the node is not closing.
func (in *internet) held(p peer.ID) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.kept[p] != nil && !in.closing
}

// setState records what the reconnection to p does now.
func (in *internet) setState(p peer.ID, state string) {
	in.mu.Lock()
	if k := in.kept[p]; k != nil {
		k.state = state
	}
	in.mu.Unlock()
}

// reconnecting returns what the reconnection to p does now, "" when none
// runs.
func (in *internet) reconnecting(p peer.ID) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	if k := in.kept[p]; k != nil && k.running {
		return k.state
	}
	return ""
}

// rememberCode notes that p was met by code, for lookups on redial.
func (in *internet) rememberCode(p peer.ID, code string) {
	in.mu.Lock()
	in.codes[p] = code
	in.mu.Unlock()
}

func (in *internet) codeOf(p peer.ID) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.codes[p]
}

// peerLost starts the reconnection loop for p if p is held, no other
// connection to it is left and no loop runs yet.
func (n *Node) peerLost(p peer.ID) {
	in := n.inet
	known := n.host.Peerstore().Addrs(p)
	in.mu.Lock()
	k := in.kept[p]
	if k == nil || k.running || in.closing || n.host.Network().Connectedness(p) == network.Connected {
		in.mu.Unlock()
		return
	}
	k.running = true
	k.state = "reconnecting"
	k.remember(known)
	kept := slices.Clone(k.addrs)
	in.mu.Unlock()
	connLog.Info("lost", "peer", p)
	go func() {
		// Written by the loop's goroutine: peerLost runs in the swarm's
		// Disconnected notification, which must not wait on the disk.
		if err := n.book.note(p, kept, time.Now()); err != nil {
			connLog.Warn("address book not written", "peer", p, "err", err)
		}
		n.reconnectLoop(p)
	}()
}

// reconnectLoop redials p until it is connected, released, or the node
// closes: a try at once, then one each redialPauseAfter, from the start
// of the last (at once if it took longer), while lookUpWhileLost runs
// beside it.
func (n *Node) reconnectLoop(p peer.ID) {
	in := n.inet
	lost := time.Now()
	ctx, cancel := context.WithCancel(n.closingCtx())
	defer func() {
		cancel()
		in.mu.Lock()
		if k := in.kept[p]; k != nil {
			k.running, k.state = false, ""
		}
		in.notifyLocked()
		in.mu.Unlock()
	}()
	go n.lookUpWhileLost(ctx, p)
	for try := 1; ; try++ {
		if !in.held(p) {
			return
		}
		if n.host.Network().Connectedness(p) == network.Connected {
			connLog.Info("reconnected", "peer", p, "by", "the peer or a game's own dial", "via", n.bestKind(p), "after", time.Since(lost).Round(time.Millisecond))
			return
		}
		start := time.Now()
		rctx, rcancel := context.WithTimeout(ctx, redialTimeout)
		kind, err := n.redial(rctx, p, try)
		rcancel()
		if err == nil {
			connLog.Info("reconnected", "peer", p, "via", kind, "try", try, "after", time.Since(lost).Round(time.Millisecond))
			return
		}
		next := start.Add(redialPauseAfter(try, start.Sub(lost)))
		wait := max(time.Until(next), 0).Round(100 * time.Millisecond)
		connLog.Info("redial failed", "peer", p, "try", try, "err", err, "next in", wait)
		in.setState(p, redialState(try, wait))
		// Wait for the next try, or for a connection the peer makes.
		timer := time.NewTimer(time.Until(next))
	waiting:
		for n.host.Network().Connectedness(p) != network.Connected {
			changed := in.watch()
			select {
			case <-timer.C:
				break waiting
			case <-changed:
			case <-ctx.Done():
				timer.Stop()
				return
			}
		}
		timer.Stop()
	}
}

// redialState is the state shown while a held peer is redialled: try
// failed, and the next begins in wait (at once when the try took longer
// than the pause).
func redialState(try int, wait time.Duration) string {
	if wait <= 0 {
		return fmt.Sprintf("reconnecting: the %s try failed, trying again", Ordinal(try))
	}
	return fmt.Sprintf("reconnecting: the %s try failed, next in %s", Ordinal(try), wait)
}

// redialPauseAfter is the pause from the start of try, which began lost
// after the loss, to the start of the next: firstRedialPause after the
// first, then redialPause and a random part of redialJitter (two sides
// redialling each other at the same pace do not keep missing each
// other's packets in step), longRedialPause once the peer has been lost
// for longLost.
func redialPauseAfter(try int, lost time.Duration) time.Duration {
	switch {
	case lost >= longLost:
		return longRedialPause
	case try == 1:
		return firstRedialPause
	}
	return redialPause + rand.N(redialJitter)
}

// lookUpWhileLost, on the DHT, every lookupPause (longLookupPause after
// longLost) until ctx ends, renews the relay reservations HostInvite made
// (a cut ended them, and the peer's redial may need the circuits this
// node announces) and looks p up on the DHT for its addresses of the
// moment, which the redials then dial (its NAT may give it another
// mapping or address after a cut). The lookup reaches p itself when it
// is found.
func (n *Node) lookUpWhileLost(ctx context.Context, p peer.ID) {
	d := n.inet.getDHT()
	if d == nil {
		return
	}
	lost := time.Now()
	for {
		pause := lookupPause
		if time.Since(lost) >= longLost {
			pause = longLookupPause
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
		var wg sync.WaitGroup
		if own := n.ownReservations(); len(own) > 0 && n.inet.renewalDue(time.Now(), pause) {
			wg.Go(func() {
				reserved, err := n.reserve(lctx, own)
				connLog.Info("reservations renewed while a peer is lost", "peer", p, "relays", len(own), "renewed", len(reserved), "err", err)
			})
		}
		info, err := d.FindPeer(lctx, p)
		wg.Wait()
		cancel()
		if err != nil {
			connLog.Info("lookup on the DHT", "peer", p, "err", err)
			continue
		}
		connLog.Info("lookup on the DHT", "peer", p, "addrs", info.Addrs)
		n.inet.rememberAddrs(p, info.Addrs)
	}
}

// renewalDue reports whether a lost peer's lookup at now renews the
// reservations: the node renews them once a pause whatever the number of
// peers lost, not once per lost peer. It notes the renewal when due.
func (in *internet) renewalDue(now time.Time, pause time.Duration) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	// A little slack: two lookups whose pauses end together renew once.
	if !in.renewedAt.IsZero() && now.Sub(in.renewedAt) < pause-pause/4 {
		return false
	}
	in.renewedAt = now
	return true
}

// ownReservations returns the relays HostInvite reserved a slot on (their
// reservation may have ended with a cut), with the addresses the
// peerstore knows for them.
func (n *Node) ownReservations() []peer.AddrInfo {
	in := n.inet
	in.mu.Lock()
	var ids []peer.ID
	for r := range in.reservations {
		ids = append(ids, r)
	}
	in.mu.Unlock()
	var out []peer.AddrInfo
	for _, r := range ids {
		if addrs := n.host.Peerstore().Addrs(r); len(addrs) > 0 {
			n.clearDialBackoff(r)
			out = append(out, peer.AddrInfo{ID: r, Addrs: addrs})
		}
	}
	return out
}

// redial tries once to reach p by every path at once: its direct
// addresses, its circuit addresses and a circuit through each configured
// relay, then a new lookup of its invite code. A relayed result waits a
// few seconds for hole punching; a limited one (a public relay's) counts
// only once hole punching made the connection direct.
func (n *Node) redial(ctx context.Context, p peer.ID, try int) (ConnKind, error) {
	in := n.inet
	n.clearDialBackoff(p)
	var direct, circuits []ma.Multiaddr
	for _, a := range ma.Unique(append(in.keptAddrs(p), n.host.Peerstore().Addrs(p)...)) {
		if isCircuitAddr(a) {
			circuits = append(circuits, a)
		} else {
			direct = append(direct, a)
		}
	}
	var paths []string
	if len(direct) > 0 {
		paths = append(paths, "directly")
	}
	if len(circuits) > 0 {
		paths = append(paths, "via its relays")
	}
	if len(in.relays) > 0 {
		paths = append(paths, "via relay")
	}
	what := strings.Join(paths, " and ")
	if what == "" {
		what = "with no address known"
	}
	in.setState(p, fmt.Sprintf("reconnecting %s (%s try)", what, Ordinal(try)))
	connLog.Info("redialling", "peer", p, "try", try, "paths", what, "direct", direct, "circuits", len(circuits), "relays", len(in.relays))

	start := time.Now()
	dctx, cancel := context.WithTimeout(ctx, redialDialTimeout)
	defer cancel()
	directDone := make(chan error, 1)
	var errs []error
	var mu sync.Mutex
	addErr := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
	}
	var wg sync.WaitGroup
	if len(direct) > 0 {
		wg.Go(func() {
			err := n.dialOnce(network.WithForceDirectDial(dctx, "kakure-redial"), p, direct)
			directDone <- err
			if err != nil {
				addErr(fmt.Errorf("direct: %w", err))
			}
		})
	} else {
		directDone <- errors.New("no direct address")
	}
	if len(circuits) > 0 {
		wg.Go(func() {
			if err := n.dialOnce(network.WithAllowLimitedConn(dctx, "kakure-redial"), p, circuits); err != nil {
				addErr(fmt.Errorf("via its relays: %w", err))
			}
		})
	}
	for _, r := range in.relays {
		wg.Go(func() {
			if err := n.dialViaRelay(dctx, r, p); err != nil {
				addErr(fmt.Errorf("via relay %s: %w", r.ID, err))
			}
		})
	}
	// The first path that connects is enough; the others go on in the
	// background until dctx ends (a direct one is welcome later too).
	tried := make(chan struct{})
	go func() { wg.Wait(); close(tried) }()
	for n.host.Network().Connectedness(p) != network.Connected {
		changed := in.watch()
		select {
		case <-tried:
			tried = nil
			switch n.host.Network().Connectedness(p) {
			case network.Connected:
			case network.Limited:
				// Through a public relay, which cannot carry a game:
				// wait for hole punching until ctx ends.
				in.setState(p, "on a public relay's circuit; trying a hole punch")
			default:
				if len(errs) == 0 {
					errs = append(errs, errors.New("no address known"))
				}
				return n.redialByCode(ctx, p, try, errors.Join(errs...))
			}
		case <-changed:
		case <-ctx.Done():
			if n.host.Network().Connectedness(p) == network.Limited {
				return ConnNone, errors.New("only through a public relay: hole punching did not make the connection direct in time")
			}
			return ConnNone, ctx.Err()
		}
	}
	kind := n.bestKind(p)
	connLog.Info("connected", "peer", p, "via", kind, "in", time.Since(start).Round(time.Millisecond))
	if kind == ConnRelayed {
		in.setState(p, "relayed again; trying a hole punch")
		wctx, cancel := context.WithTimeout(ctx, upgradeWait)
		kind = n.awaitDirect(wctx, p, directDone)
		cancel()
		connLog.Info("after waiting for a hole punch", "peer", p, "via", kind)
	}
	return kind, nil
}

// dialViaRelay connects to relay r, then to p through a circuit on it.
func (n *Node) dialViaRelay(ctx context.Context, r peer.AddrInfo, p peer.ID) error {
	n.clearDialBackoff(r.ID)
	if err := n.host.Connect(ctx, r); err != nil {
		return fmt.Errorf("reaching the relay: %w", err)
	}
	circuit, err := ma.NewMultiaddr("/p2p/" + r.ID.String() + "/p2p-circuit")
	if err != nil {
		return err
	}
	var addrs []ma.Multiaddr
	for _, a := range r.Addrs {
		addrs = append(addrs, a.Encapsulate(circuit))
	}
	return n.dialOnce(ctx, p, addrs)
}

// dialOnce dials p at addrs and at the other addresses the peerstore
// holds for it, as ctx says (directly only, or a limited connection
// too), unless it is connected already. Unlike the host's Connect, a
// dial that fails does not look p up on the DHT (go-libp2p's routed
// host does, at every failed Connect): a lost peer is looked up every
// lookupPause (lookUpWhileLost), not at every try.
func (n *Node) dialOnce(ctx context.Context, p peer.ID, addrs []ma.Multiaddr) error {
	n.host.Peerstore().AddAddrs(p, addrs, peerstore.TempAddrTTL)
	_, err := n.host.Network().DialPeer(ctx, p)
	return err
}

// redialByCode looks up p's invite code again on the relays, when p was
// met by one, and dials the addresses found.
func (n *Node) redialByCode(ctx context.Context, p peer.ID, try int, failed error) (ConnKind, error) {
	code := n.inet.codeOf(p)
	if code == "" || len(n.inet.relays) == 0 {
		return ConnNone, failed
	}
	n.inet.setState(p, fmt.Sprintf("reconnecting by a new lookup of the invite code on the relays (%s try)", Ordinal(try)))
	relays, err := n.connectRelays(ctx)
	if err != nil {
		return ConnNone, errors.Join(failed, err)
	}
	info, err := n.lookupCode(ctx, code, relays)
	if err != nil {
		return ConnNone, errors.Join(failed, fmt.Errorf("lookup of %s: %w", code, err))
	}
	if info.ID != p {
		return ConnNone, errors.Join(failed, fmt.Errorf("the code %s is now hosted by another peer", code))
	}
	connLog.Info("redialling at the addresses of the invite code", "peer", p, "code", code, "addrs", info.Addrs)
	n.clearDialBackoff(p)
	if err := n.host.Connect(ctx, info); err != nil {
		return ConnNone, errors.Join(failed, fmt.Errorf("at the code's addresses: %w", err))
	}
	return n.bestKind(p), nil
}

// Ordinal writes n as an English ordinal, as the state of a redial and
// the programs' retry lines say it: "1st", "2nd", "3rd", "4th" ... "11th",
// "21st".
func Ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
