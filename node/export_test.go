package node

import (
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/node/rendezvous"
)

// OwnCodeRecord is the record n gives a guest who looks up code, for
// tests that replay it from another peer.
func OwnCodeRecord(n *Node, code string) (rendezvous.SignedRecord, bool) {
	return n.ownCodeRecord(code)
}

// TreatAsRemote makes n behave as a node on a real network, which
// listens beyond loopback: it dials no loopback address of a peer not
// known to be on this machine (NET-D24), though it listens on loopback
// only, as tests do.
func TreatAsRemote(n *Node) {
	n.localMu.Lock()
	defer n.localMu.Unlock()
	n.loopbackOnly = false
}

// ClassifyDialError classifies a failed dial of p as Connect does.
func ClassifyDialError(err error, p peer.ID) *Failure { return peerDialFailure(err, p, shortID(p)) }
