package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/ui"
)

// Whom `kakure bot --invite` and `--invite-lan` invite (NET-D27 in
// docs/internet.md). --invite takes what the lobby takes: a full address
// (…/p2p/ID), a bare peer ID, or a petname of the home's petname book.
// A peer named without an address is reached at the addresses this node
// knows for it: those in the peerstore (a game resumed at start), those
// an earlier game with it saved (its secrets file's peer_addrs), or,
// with --mdns, those its mDNS record announces, waited for up to
// --connect-for. A peer known nowhere fails at once (without --mdns) or
// when the wait ends, with one line that says what to do.
//
// --invite-lan invites the first kakure peer found on the LAN. When two
// such bots find each other, only the one with the lower peer ID (its
// text form, compared byte by byte) invites at once; the other waits
// lanInviteGrace to be invited, and invites only if no invitation came
// by then (the peer is a plain `kakure bot --mdns` or a lobby, which
// never invite). Whichever game starts first, its own invitation's or
// one it accepted, is the one it plays before it exits.

// inviteTarget is the peer --invite names.
type inviteTarget struct {
	// addr is the full address typed, "" when the peer was named by its
	// ID or a petname.
	addr string
	// id is the peer's ID ("" for an address that does not parse:
	// Connect tells what is wrong with it).
	id peer.ID
	// petname is the petname typed, "" if none.
	petname string
}

// parseInviteTarget reads what --invite names: a multiaddr (it starts
// with "/"), a peer ID, or a petname of book (exactly one peer has it).
func parseInviteTarget(typed string, book ui.Petnames) (inviteTarget, error) {
	if strings.HasPrefix(typed, "/") {
		t := inviteTarget{addr: typed}
		if info, err := node.ParsePeerAddr(typed); err == nil {
			t.id = info.ID
		}
		return t, nil
	}
	if id, err := peer.Decode(typed); err == nil {
		return inviteTarget{id: id}, nil
	}
	name := strings.TrimSpace(typed)
	var ids []string
	for id, n := range book {
		if n == name {
			ids = append(ids, id)
		}
	}
	switch len(ids) {
	case 0:
		return inviteTarget{}, usageError("--invite %q is neither an address (…/p2p/ID), a peer ID nor a petname (kakure petname lists them)", typed)
	case 1:
		id, err := peer.Decode(ids[0])
		if err != nil { // readPetnames checked it
			return inviteTarget{}, usageError("--invite %q: the petname book's peer ID %q: %v", typed, ids[0], err)
		}
		return inviteTarget{id: id, petname: name}, nil
	default:
		slices.Sort(ids)
		return inviteTarget{}, usageError("--invite %q: the petname names %d peers (%s): give the peer ID", typed, len(ids), strings.Join(ids, ", "))
	}
}

// botShortID is p's ID cut to 12 characters and an ellipsis, as the
// node's headlines name peers.
func botShortID(p peer.ID) string {
	s := p.String()
	if len(s) <= 14 {
		return s
	}
	return s[:12] + "…"
}

// earlierGameAddrs returns the addresses that the games of gamesDir with
// p saved for it (each game's secrets file keeps where the other peer
// was, to dial it again on resume), without repeats; nil when there are
// none. Records and secrets that do not read are skipped.
func earlierGameAddrs(gamesDir string, p peer.ID) []ma.Multiaddr {
	records, _ := filepath.Glob(filepath.Join(gamesDir, "*.record.json"))
	var out []ma.Multiaddr
	for _, path := range records {
		tr, err := session.LoadTranscript(path)
		if err != nil || (tr.Peers[protocol.Inviter] != protocol.PeerID(p) && tr.Peers[protocol.Invitee] != protocol.PeerID(p)) {
			continue
		}
		data, err := os.ReadFile(strings.TrimSuffix(path, ".record.json") + ".secrets.json")
		if err != nil {
			continue
		}
		doc, err := session.ReadSecrets(data)
		if err != nil {
			continue
		}
		var sf struct {
			PeerAddrs []string `json:"peer_addrs"`
		}
		if json.Unmarshal(doc, &sf) != nil {
			continue
		}
		for _, s := range sf.PeerAddrs {
			a, err := ma.NewMultiaddr(s)
			if err != nil || slices.ContainsFunc(out, a.Equal) {
				continue
			}
			out = append(out, a)
		}
	}
	return out
}

// lanWaitPoll is how often findPeer looks whether mDNS found the peer.
const lanWaitPoll = 100 * time.Millisecond

// findPeer makes sure that n knows an address of p, named without one
// (NET-D27): in the peerstore, else from the earlier games of gamesDir,
// else, when lan (mDNS is on), from the LAN, waited for up to wait (a
// line on out says so). A peer known nowhere is a *node.Failure whose
// headline says what to do.
func findPeer(ctx context.Context, out io.Writer, n *node.Node, gamesDir string, p peer.ID, lan bool, wait time.Duration) error {
	if p == n.ID() {
		return node.Fail(node.FailConfig, fmt.Errorf("%w: it is this node's own peer ID", node.ErrBadAddress),
			"that is this program's own peer ID")
	}
	known := func() bool {
		return n.Host().Network().Connectedness(p) == network.Connected || len(n.Host().Peerstore().Addrs(p)) > 0
	}
	if known() {
		return nil
	}
	if addrs := earlierGameAddrs(gamesDir, p); len(addrs) > 0 {
		n.Host().Peerstore().AddAddrs(p, addrs, peerstore.RecentlyConnectedAddrTTL)
		return nil
	}
	if !lan {
		return node.Fail(node.FailConfig, fmt.Errorf("bot: no address known for %s (not in the peerstore nor in an earlier game)", p),
			"no address is known for %s: give its full address (…/p2p/ID, as kakure id prints it), or add --mdns if it is on this LAN", botShortID(p))
	}
	fmt.Fprintf(out, "looking for %s on the LAN (up to %s)\n", p, wait)
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	tick := time.NewTicker(lanWaitPoll)
	defer tick.Stop()
	for !known() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			return node.Fail(node.FailPeerOffline, fmt.Errorf("bot: no mDNS record of %s within %s", p, wait),
				"%s was not found on the LAN within %s: give its full address (…/p2p/ID, as kakure id prints it), or start it with --mdns on this LAN", botShortID(p), wait)
		case <-tick.C:
		}
	}
	return nil
}

// lanInviteGrace is how long a --invite-lan bot waits to be invited by a
// LAN peer with a lower peer ID before it invites that peer itself
// (NET-D27).
const lanInviteGrace = 10 * time.Second

// lanInviteConnectFor bounds the dial of each LAN peer --invite-lan
// tries.
const lanInviteConnectFor = 30 * time.Second

// invitesFirst reports whether me invites a LAN peer other at once
// (NET-D27): the lower peer ID, in its text form, invites; the other
// waits lanInviteGrace for its invitation.
func invitesFirst(me, other peer.ID) bool { return me.String() < other.String() }

// inviteOnLAN waits for kakure peers on the LAN (mDNS must be on) and
// returns the first game that starts: one it invites a peer found to
// (at once when this peer invitesFirst, after lanInviteGrace otherwise),
// or one another peer invited it to (accepted). A peer that cannot be
// reached or declines is skipped until mDNS reports it again.
func inviteOnLAN(ctx context.Context, out io.Writer, p *peerHandle, o engine.Options, verbose bool) (*session.Game, error) {
	found := p.node.LANPeers()
	due := map[peer.ID]time.Time{}
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	fmt.Fprintln(out, "looking for kakure peers on the LAN")
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case g := <-p.service.Accepted():
			fmt.Fprintf(out, "game %s accepted from %s: %s\n", g.ID(), g.Peer(), g.View().Options.Variant)
			return g, nil
		case lp, ok := <-found:
			if !ok {
				return nil, fmt.Errorf("bot: the node closed while looking for LAN peers")
			}
			if lp.Gone || lp.Stale {
				delete(due, lp.ID)
				continue
			}
			if _, ok := due[lp.ID]; ok {
				continue
			}
			if invitesFirst(p.node.ID(), lp.ID) {
				due[lp.ID] = time.Now()
				fmt.Fprintf(out, "found on the LAN: %s; inviting it (the lower peer ID invites)\n", lp.ID)
			} else {
				due[lp.ID] = time.Now().Add(lanInviteGrace)
				fmt.Fprintf(out, "found on the LAN: %s; waiting %s for its invitation (the lower peer ID invites)\n", lp.ID, lanInviteGrace)
			}
		case <-tick.C:
		}
		for id, at := range due {
			if time.Now().Before(at) {
				continue
			}
			delete(due, id)
			g, err := inviteOrWithoutFlips(o, func(o engine.Options) (*session.Game, error) { return inviteLANPeer(ctx, p, id, o) },
				func(s string) { fmt.Fprintf(out, "inviting %s: %s\n", id, s) })
			if err == nil {
				fmt.Fprintf(out, "game %s started with %s\n", g.ID(), id)
				return g, nil
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			fmt.Fprintf(out, "inviting %s: %s%s; waiting for another LAN peer\n", id, headline(err), detailSuffix(err, verbose))
			break // look at what came meanwhile before the next
		}
	}
}

// inviteLANPeer reaches id, found on the LAN, and invites it to a game
// of o.
func inviteLANPeer(ctx context.Context, p *peerHandle, id peer.ID, o engine.Options) (*session.Game, error) {
	cctx, cancel := context.WithTimeout(ctx, lanInviteConnectFor)
	err := p.node.ConnectPeer(cctx, id)
	cancel()
	if err != nil {
		return nil, err
	}
	return p.service.Invite(ctx, id, o)
}
