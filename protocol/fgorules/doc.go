// Package fgorules is F-Go over the network (FG-1..FG-7,
// docs/rules/fgo.md): both players commit their choice of each turn and
// then open it, with bargains and the clocks of simultaneous choices
// (CLK-D14). These are the variant's rules over messages, which the
// core's machine runs for both peers and for `kakure verify`; the package
// registers them with the core (protocol.Register, ARCH-D3), and
// protocol/variants imports it.
package fgorules
