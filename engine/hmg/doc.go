// Package hmg holds the rules of Hidden Move Go (HMG-1..HMG-8 of
// docs/spec/rules.md) over engine's board: the hidden moves (cards) each
// player commits to before the game, their reveals, and the regular moves
// around them ([Game], [Card], [Action]).
//
// The package imports engine and engine never imports it: the variant's
// descriptor and options (engine.VariantHMG, engine.Options.Cards) stay in
// engine, and this package reads them.
package hmg
