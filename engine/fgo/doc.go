// Package fgo holds the rules of F-Go (FG-1..FG-7 of docs/spec/rules.md)
// over engine's board: simultaneous turns in which both players choose a
// point at once, collisions, the removal order of FG-3, the suicide rule
// and the bargaining offers ([Game], [Offer]).
//
// The package imports engine and engine never imports it: the variant's
// descriptor and options (engine.VariantFGo, the suicide rule of
// engine.Options) stay in engine, and this package reads them.
package fgo
