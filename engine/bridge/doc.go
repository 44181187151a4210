// Package bridge holds the rules of Bridge Go (BG-1..BG-5 of
// docs/spec/rules.md) over engine's board: captures, the win by a chain
// that joins two opposite sides, self-capture, superko and the
// perpendicular option ([Game]).
//
// The package imports engine and engine never imports it: the variant's
// descriptor and options (engine.VariantBridge, engine.Options.Perpendicular)
// stay in engine, and this package reads them.
package bridge
