// Package phantomrules is Phantom Go over the network (PG-*,
// docs/phantom-net.md): the referee's public state as the secure
// computation's messages make it (protocol/mpc/referee), the try clocks
// (CLK-D16), the reveal and audit at the end, and the judge of T-8(b)
// certificates. These are the variant's rules over messages, which the
// core's machine runs for both peers and for `kakure verify`; the package
// registers them with the core (protocol.Register, ARCH-D3), and
// protocol/variants imports it. It holds no secret: the players that do
// are in protocol/session.
package phantomrules
