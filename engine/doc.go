// Package engine holds the rules of every game kakure plays: plain Go and the
// hidden-information variants Phantom Go, Hidden Move Go, Hidden Move Double
// Gomoku, F-Go and Bridge Go.
//
// The package is the rules contract of docs/spec/rules.md written as
// code. It is pure and deterministic: positions are values, there is no I/O
// and there are no goroutines, and the same inputs always give the same
// outputs. Every other part of kakure (the network protocol, the secure
// computation for Phantom Go, the bots, the user interface) asks engine what
// is legal and what happens.
//
// The building blocks are [Point] and [Color], the [Board] value with its
// chain and capture primitives, and [Options] naming a variant and its
// settings. Each variant then has its own state value ([GoGame],
// phantom.Referee, hmg.Game, gomoku.Game, fgo.Game, bridge.Game) whose
// methods return the next state together with what each player is told.
//
// A variant's rules live in a subpackage of engine (engine/gomoku,
// engine/fgo, engine/bridge, engine/hmg, engine/phantom) over the shared
// board, geometry and scoring here. The dependency runs one way: a
// subpackage imports engine, never the reverse, so the descriptor registry
// (variant.go) and the options (options.go) keep the variants' option types
// and settings here and the subpackages read them (VAR-D5 of
// docs/variants.md).
package engine
