// Package session runs a kakure game between two libp2p hosts on top of
// the replayable core, package protocol: the service that invites and
// accepts (Service, Config), each game's loop (Game: events in, actions
// out), its streams and their frames, storage of the record and of the
// secrets and resuming after a crash, the limits a peer is held to,
// reconnects, the players that hold a peer's secrets and act for it, and
// what a game publishes to spectators (ARCH-D1, ARCH-D2 in
// docs/spec/architecture.md). Every message it sends or takes goes
// through the core's Machine, which decides what the game is.
package session
