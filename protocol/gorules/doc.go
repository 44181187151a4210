// Package gorules is plain Go over the network (GO-1..GO-5,
// docs/spec/rules.md): moves in turn, then the agreement on dead stones
// (GO-4). These are the variant's rules over messages, which the core's
// machine runs for both peers and for `kakure verify`; the package
// registers them with the core (protocol.Register, ARCH-D3), and
// protocol/variants imports it.
package gorules
