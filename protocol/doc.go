// Package protocol turns two peers and a variant into a game: messages, the
// signed hash-chained transcript, commitments at the right moments, the
// audit at the end and resuming after a crash. It exposes a game to its
// callers (the user interface and the bots) as events in and actions out.
package protocol
