// Package gomokurules is Hidden Move Double Gomoku over the network
// (GM-1..GM-8, docs/rules/gomoku.md): committed pieces, announcements and
// answers, and the audit of every commitment at the end. These are the
// variant's rules over messages, which the core's machine runs for both
// peers and for `kakure verify`; the package registers them with the
// core (protocol.Register, ARCH-D3), and protocol/variants imports it.
package gomokurules
