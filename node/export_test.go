package node

import "github.com/kakure/kakure/node/rendezvous"

// OwnCodeRecord is the record n gives a guest who looks up code, for
// tests that replay it from another peer.
func OwnCodeRecord(n *Node, code string) (rendezvous.SignedRecord, bool) {
	return n.ownCodeRecord(code)
}
