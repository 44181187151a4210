// Package variants registers every variant's rules over messages with
// the core (protocol.Register, ARCH-D3). The core names no variant: a
// program that replays, verifies or plays games of any variant imports
// this package for its effect. Each variant has a file of its own here
// that imports its rules package, so that a new variant is a new file
// and no line of another's.
package variants
