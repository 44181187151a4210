// Package gomoku holds the rules of Hidden Move Double Gomoku (GM-1..GM-8
// of docs/spec/rules.md) over engine's board and geometry: the
// full-information game ([Game]), one player's view during network play
// ([View]), the audit of a finished game ([Audit]) and the lines of five
// ([FiveLines], [DoubleFive]).
//
// The package imports engine and engine never imports it: the variant's
// descriptor and options (engine.VariantGomoku, engine.Options) stay in
// engine, and this package reads them.
package gomoku
