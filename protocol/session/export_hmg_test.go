package session

import (
	"github.com/kakure/kakure/commit"
)

// HMGOpeningOf returns the opening of the local player's card number card
// in g, a game of Hidden Move Go; ok is false when there is none. Tests
// use it to play a cheater that opens its own commitments. Call it from
// the game's loop (a tamper hook) or after the game.
func HMGOpeningOf(g *Game, card int) (o commit.Opening, ok bool) {
	p, isHMG := g.player.(*hmgPlayer)
	if !isHMG {
		return commit.Opening{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if card < 0 || card >= len(p.openings) {
		return commit.Opening{}, false
	}
	return p.openings[card], true
}
