// Package commit holds commitments (hash of a domain tag, the game, the
// player, the item's index, the value and a fresh salt) and the
// commit-then-reveal coin toss. It knows nothing about games.
package commit
