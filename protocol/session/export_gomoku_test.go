package session

import (
	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine/gomoku"
)

// SetGomokuTamper installs a hook through which the gomoku players of the
// service of c pass the messages they are about to send, before their own
// machine sees them: a cheating program. The hook gets the player's role
// and view.
func SetGomokuTamper(c *Config, f func(me protocol.Role, v gomoku.View, kind protocol.Kind, body any) (protocol.Kind, any)) {
	c.gomokuTamper = f
}

// GomokuOpeningOf returns the opening of the local player's commitment of
// turn move in the gomoku game g.
func GomokuOpeningOf(g *Game, move int) (commit.Opening, bool) {
	p, ok := g.player.(*gomokuPlayer)
	if !ok {
		return commit.Opening{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	o, ok := p.pieces[move]
	return o, ok
}
