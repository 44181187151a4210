package node

import (
	"context"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
)

// Both sides told (NET-D23): when a guest finds no path that can carry a
// game to the host of a code (FailNoPath: only a limited public relay
// joins them), it says so to the host before it gives up, on a stream of
// NoPathProtocol opened over that very relayed connection; the host's
// program hears it as a Notice, so that the player waiting for a friend
// learns why nobody came and what to do. The stream carries nothing but
// its protocol ID; a peer that does not know it ignores it.

// NoPathProtocol is the protocol of a guest's "no path" message.
const NoPathProtocol = protocol.ID("/kakure/nopath/1.0.0")

// noticeEvery bounds the notices about one peer: at most one per
// noticeEvery, whatever a peer sends.
const noticeEvery = 30 * time.Second

// Notice is news about a peer the node learnt by itself, for the player:
// a guest that could not reach this node.
type Notice struct {
	// Kind is the failure the notice tells.
	Kind FailureKind
	// Peer is the peer concerned.
	Peer peer.ID
	// Headline is one line: what happened and what to do.
	Headline string
}

// Notices returns the channel on which the node reports Notices. Reports
// are dropped when nobody reads; the channel is never closed.
func (n *Node) Notices() <-chan Notice { return n.notices }

// notify reports a notice about p unless one was reported less than
// noticeEvery ago.
func (n *Node) notify(nt Notice) {
	n.noticeMu.Lock()
	last, seen := n.noticed[nt.Peer]
	if seen && time.Since(last) < noticeEvery {
		n.noticeMu.Unlock()
		return
	}
	n.noticed[nt.Peer] = time.Now()
	n.noticeMu.Unlock()
	connLog.Info("notice", "peer", nt.Peer, "class", nt.Kind, "headline", nt.Headline)
	select {
	case n.notices <- nt:
	default:
	}
}

// serveNoPath answers NoPathProtocol: a guest says it found no path.
func (n *Node) serveNoPath() {
	n.host.SetStreamHandler(NoPathProtocol, func(st network.Stream) {
		p := st.Conn().RemotePeer()
		st.Close()
		n.notify(Notice{Kind: FailNoPath, Peer: p, Headline: fmt.Sprintf(
			"%s tried to join you but met you only through a public relay, which cannot carry a game, and hole punching failed "+
				"(one of you is probably behind a symmetric NAT): configure a kakure relay that both of you use (\"relays\" in %s, or --relay), or play from another network",
			shortID(p), ConfigFileName)})
	})
}

// noPath tells p, over the limited relayed connection that joins the
// two, that this node found no path to it (NoPathProtocol). It waits at
// most a second.
func (n *Node) noPath(p peer.ID) {
	ctx, cancel := context.WithTimeout(n.closingCtx(), time.Second)
	defer cancel()
	ctx = network.WithNoDial(network.WithAllowLimitedConn(ctx, "kakure-nopath"), "kakure-nopath")
	st, err := n.host.NewStream(ctx, p, NoPathProtocol)
	if err != nil {
		connLog.Info("could not tell the peer there is no path", "peer", p, "err", err)
		return
	}
	st.CloseWrite()
	st.SetReadDeadline(time.Now().Add(time.Second))
	var b [1]byte
	st.Read(b[:]) // the host closes: the message is through
	st.Close()
}
