// Package protocol turns two peers and a variant into a game: messages, the
// signed hash-chained transcript, commitments at the right moments, the
// audit at the end and resuming after a crash. It exposes a game to its
// callers (the user interface and the bots) as events in and actions out.
//
// It is two layers (ARCH-D1 in docs/spec/architecture.md). The replayable
// core is the game as its messages make it: Message and its signature
// (checked against the key in the sender's PeerID), the kinds and bodies,
// Machine and each variant's rules over messages, the clocks' rules,
// Transcript read from its bytes (ParseTranscript), the judge and Verify.
// It does no I/O: both peers run it as they play, and `kakure verify`
// runs it on a record. The session (Service, Game, streams, storage,
// limits, reconnects, the players) runs a game between two libp2p hosts on
// top of it.
package protocol
