package node

import (
	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// Loopback and link-local addresses of other peers are not dialled
// (NET-D24). A peer announces every address it listens on, 127.0.0.1 and
// ::1 included (identify, mDNS, DHT provider records); dialled from
// another machine they reach this machine itself, where at best nothing
// listens ("connection refused", which then reads as the peer refusing)
// and at worst another kakure answers under another peer ID. Link-local
// addresses (169.254/16, fe80::/10) name a link, not a machine: from
// another link they are meaningless. So the node's connection gater
// refuses to dial such an address unless the peer is on this machine:
//
//   - this node listens on loopback only (a game against the built-in
//     bot, kakure match, the tests): every peer it can reach is here;
//   - the address was given by the user (Connect with a typed address, a
//     relay or bootstrap peer of the configuration at a loopback address);
//   - the peer reached this node from a loopback address;
//   - the program says so (AddLocalPeer: the built-in bot of the lobby).
//
// Circuit addresses are let through: the dial of the relay they go
// through is gated by itself.

// localGater is the node's connmgr.ConnectionGater.
type localGater struct{ n *Node }

// isHostLocalAddr reports whether a is a loopback or link-local IP
// address (not a circuit through one).
func isHostLocalAddr(a ma.Multiaddr) bool {
	if isCircuitAddr(a) {
		return false
	}
	return manet.IsIPLoopback(a) || isLinkLocal(a)
}

// InterceptPeerDial implements connmgr.ConnectionGater.
func (g localGater) InterceptPeerDial(peer.ID) bool { return true }

// InterceptAddrDial implements connmgr.ConnectionGater: see above.
func (g localGater) InterceptAddrDial(p peer.ID, a ma.Multiaddr) bool {
	if !isHostLocalAddr(a) {
		return true
	}
	return g.n.mayDialLoopback(p)
}

// InterceptAccept implements connmgr.ConnectionGater.
func (g localGater) InterceptAccept(network.ConnMultiaddrs) bool { return true }

// InterceptSecured implements connmgr.ConnectionGater: a peer that
// reaches this node from a loopback address is on this machine.
func (g localGater) InterceptSecured(dir network.Direction, p peer.ID, c network.ConnMultiaddrs) bool {
	if dir == network.DirInbound && manet.IsIPLoopback(c.RemoteMultiaddr()) {
		g.n.markLocal(p)
	}
	return true
}

// InterceptUpgraded implements connmgr.ConnectionGater.
func (g localGater) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) { return true, 0 }

// mayDialLoopback reports whether p's loopback addresses may be dialled:
// this node listens on loopback only, or p is known to be on this
// machine.
func (n *Node) mayDialLoopback(p peer.ID) bool {
	n.localMu.Lock()
	defer n.localMu.Unlock()
	return n.loopbackOnly || n.localPeers[p]
}

// markLocal notes that p is on this machine.
func (n *Node) markLocal(p peer.ID) {
	n.localMu.Lock()
	n.localPeers[p] = true
	n.localMu.Unlock()
}

// markAddrsGiven notes the peer of addresses the user gave as local when
// one of them is a loopback address: a typed address is dialled as it is.
func (n *Node) markAddrsGiven(info peer.AddrInfo) {
	for _, a := range info.Addrs {
		if manet.IsIPLoopback(a) {
			n.markLocal(info.ID)
			return
		}
	}
}

// AddLocalPeer notes that the peer of info runs on this machine, so that
// its loopback addresses are dialled, and stores its addresses for good:
// for a program that starts a second node of its own (the lobby's
// built-in bot).
func (n *Node) AddLocalPeer(info peer.AddrInfo) {
	n.markLocal(info.ID)
	n.host.Peerstore().AddAddrs(info.ID, info.Addrs, peerstore.PermanentAddrTTL)
}

// RemoteAddrs returns the addresses of addrs worth dialling from another
// machine: without loopback and link-local ones.
func RemoteAddrs(addrs []ma.Multiaddr) []ma.Multiaddr {
	var out []ma.Multiaddr
	for _, a := range addrs {
		if !isHostLocalAddr(a) {
			out = append(out, a)
		}
	}
	return out
}
