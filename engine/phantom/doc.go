// Package phantom holds the rules of Phantom Go (PG-1..PG-9 of
// docs/spec/rules.md) over engine's board: the plaintext referee
// ([Referee]), the announcements each player hears under a rule set
// ([Announcement], [Announce]) and one player's view of the game ([View]).
//
// The package imports engine and engine never imports it: the variant's
// descriptor and options (engine.VariantPhantom, the rule sets
// engine.phantomrules.Rules of engine.Options) stay in engine, and this package
// reads them.
package phantom
