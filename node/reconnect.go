package node

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Keeping connections to the peers of games (see docs/internet.md,
// NET-D14): while a game with a peer runs, the node holds the peer
// (Keep). When the last connection to a held peer closes, the node
// redials it by every path it knows, with growing pauses, until it is
// connected again or released:
//
//   - its direct addresses (from the peerstore: what identify, mDNS or
//     the invite record taught);
//   - a circuit through each configured relay (the node reconnects to the
//     relay first);
//   - when both fail and the peer was met by invite code, a new lookup of
//     the code on the relays, for its addresses of the moment.
//
// The side that accepts a relayed connection starts DCUtR hole punching
// by itself (go-libp2p's holepunch service), so a punch is tried again
// whenever the redial goes through a relay; the redial waits a few
// seconds for it, as JoinInvite does, so that the game's stream is
// opened on the direct connection. Each step is logged to kakure.log at
// the default level and described by ConnectionInfo's Reconnecting.

const (
	// firstRedialPause and maxRedialPause bound the pauses between redials.
	firstRedialPause = time.Second
	maxRedialPause   = 8 * time.Second
	// redialTimeout bounds one redial over all paths: a dial into a cut
	// link hangs until it.
	redialTimeout = 10 * time.Second
)

// keptPeer is the reconnection state of a held peer.
type keptPeer struct {
	holds   int
	running bool   // a reconnection loop runs
	state   string // what the loop does now, for ConnectionInfo
}

// Keep holds p: until as many Release calls, the node reconnects to p
// whenever its last connection closes. Keep p while a game with it runs.
func (n *Node) Keep(p peer.ID) {
	in := n.inet
	in.mu.Lock()
	k := in.kept[p]
	if k == nil {
		k = &keptPeer{}
		in.kept[p] = k
	}
	k.holds++
	in.mu.Unlock()
}

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
	in.mu.Lock()
	k := in.kept[p]
	if k == nil || k.running || in.closing || n.host.Network().Connectedness(p) == network.Connected {
		in.mu.Unlock()
		return
	}
	k.running = true
	k.state = "reconnecting"
	in.mu.Unlock()
	connLog.Info("lost", "peer", p)
	go n.reconnectLoop(p)
}

// reconnectLoop redials p until it is connected, released, or the node
// closes.
func (n *Node) reconnectLoop(p peer.ID) {
	in := n.inet
	lost := time.Now()
	defer func() {
		in.mu.Lock()
		if k := in.kept[p]; k != nil {
			k.running, k.state = false, ""
		}
		in.notifyLocked()
		in.mu.Unlock()
	}()
	pause := firstRedialPause
	for try := 1; ; try++ {
		if !in.held(p) {
			return
		}
		if n.host.Network().Connectedness(p) == network.Connected {
			connLog.Info("reconnected", "peer", p, "by", "the peer or a game's own dial", "via", n.bestKind(p), "after", time.Since(lost).Round(time.Millisecond))
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), redialTimeout)
		stop := context.AfterFunc(n.closingCtx(), cancel)
		kind, err := n.redial(ctx, p, try)
		stop()
		cancel()
		if err == nil {
			connLog.Info("reconnected", "peer", p, "via", kind, "try", try, "after", time.Since(lost).Round(time.Millisecond))
			return
		}
		connLog.Info("redial failed", "peer", p, "try", try, "err", err, "next in", pause)
		in.setState(p, fmt.Sprintf("reconnecting: the %s try failed, next in %s", Ordinal(try), pause))
		select {
		case <-time.After(pause):
		case <-n.closingCtx().Done():
			return
		}
		pause = min(2*pause, maxRedialPause)
	}
}

// redial tries once to reach p by every path: its direct addresses and a
// circuit through each relay at once, then a new lookup of its invite
// code. A relayed result waits a few seconds for hole punching.
func (n *Node) redial(ctx context.Context, p peer.ID, try int) (ConnKind, error) {
	in := n.inet
	n.clearDialBackoff(p)
	var direct []ma.Multiaddr
	for _, a := range n.host.Peerstore().Addrs(p) {
		if !isCircuitAddr(a) {
			direct = append(direct, a)
		}
	}
	paths := "directly"
	if len(in.relays) > 0 {
		paths = "directly and via relay"
		if len(direct) == 0 {
			paths = "via relay"
		}
	}
	in.setState(p, fmt.Sprintf("reconnecting %s (%s try)", paths, Ordinal(try)))
	connLog.Info("redialling", "peer", p, "try", try, "paths", paths, "direct", direct, "relays", len(in.relays))

	start := time.Now()
	directDone := make(chan error, 1)
	var errs []error
	var mu sync.Mutex
	var wg sync.WaitGroup
	if len(direct) > 0 {
		wg.Go(func() {
			err := n.host.Connect(network.WithForceDirectDial(ctx, "kakure-redial"), peer.AddrInfo{ID: p, Addrs: direct})
			directDone <- err
			if err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("direct: %w", err))
				mu.Unlock()
			}
		})
	} else {
		directDone <- errors.New("no direct address")
	}
	for _, r := range in.relays {
		wg.Go(func() {
			if err := n.dialViaRelay(ctx, r, p); err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("via relay %s: %w", r.ID, err))
				mu.Unlock()
			}
		})
	}
	// The first path that connects is enough; the others go on in the
	// background until ctx ends (a direct one is welcome later too).
	connected := make(chan struct{})
	go func() { wg.Wait(); close(connected) }()
	for n.host.Network().Connectedness(p) != network.Connected {
		changed := in.watch()
		select {
		case <-connected:
			if n.host.Network().Connectedness(p) != network.Connected {
				return n.redialByCode(ctx, p, try, errors.Join(errs...))
			}
		case <-changed:
		case <-ctx.Done():
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
	return n.host.Connect(ctx, peer.AddrInfo{ID: p, Addrs: addrs})
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
