// Package rendezvous is kakure's invite-code rendezvous: a tiny protocol
// (ProtocolID) served by kakure relays, with which a host registers an
// invite code and a guest who types the code learns the host's peer ID
// and addresses.
//
// A code (NewCode, ParseCode) is three words of a list of 256, easy to
// read aloud. It is not a secret and protects nothing: it only names a
// record, and the record is signed by the host's identity key (Sign,
// SignedRecord.Open), so the relay can neither forge nor alter it. The
// connection that follows is authenticated by peer IDs, which both
// players see. Records expire after at most MaxTTL; a relay keeps them in
// memory only (Server).
package rendezvous
