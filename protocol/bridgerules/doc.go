// Package bridgerules is Bridge Go over the network (BG-1..BG-5,
// docs/rules/bridge.md): the variant's rules over messages, which the
// core's machine runs for both peers and for `kakure verify`. It
// registers them with the core (protocol.Register, ARCH-D3); package
// protocol/variants imports it.
//
// The board is public, the players alternate moves (protocol.KindMove, a
// GTP vertex or "pass"), Black first. The machine enforces the turn (the
// engine's Play does not, BG-D5): a move out of turn breaks BG-1. A
// bridge ends the game with a win (ByWin), two passes in a row with a
// draw (ByDraw); there is no scoring phase.
package bridgerules
