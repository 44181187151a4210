// Package protocol is the replayable core of a kakure game: the game as
// its messages make it, with no I/O. It holds Message and its signature
// (checked against the key in the sender's PeerID), the kinds and their
// bodies, the frames that carry them, Machine and each variant's rules
// over messages, the clocks' rules, Transcript read from its bytes
// (ParseTranscript), the judge and Verify. Both peers run it as they
// play, and `kakure verify` runs it on a record. Two Examples run it on
// real records of testdata/records: Example replays a finished game and
// shows that a changed move breaks its signature, and
// ExampleVerify_report judges an honest peer's report of the other's
// equivocation, proven by the cheater's own signed messages (REC-D20).
//
// The session around it, package protocol/session (Service, Game,
// streams, storage, limits, reconnects, the players that hold a peer's
// secrets), runs a game between two libp2p hosts on top of it (ARCH-D1,
// ARCH-D2 in docs/spec/architecture.md). The core imports neither libp2p
// nor the disk nor the network (TestARCHD1CoreFilesNeitherNetworkNorDisk).
package protocol
