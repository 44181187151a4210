// Package hmgrules is Hidden Move Go over the network (HMG-1..HMG-8,
// docs/rules/hmg.md): the committed cards, their reveals during play and
// their opening at the end. These are the variant's rules over messages,
// which the core's machine runs for both peers and for `kakure verify`;
// the package registers them with the core (protocol.Register, ARCH-D3),
// and protocol/variants imports it.
package hmgrules
