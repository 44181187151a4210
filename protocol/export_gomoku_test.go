package protocol

import (
	"testing"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine/gomoku"
)

// SetGomokuTamper installs, until the end of the test, a hook through which
// every local gomoku player of the process passes the messages it is about
// to send, before its own machine sees them: a cheating program. The hook
// gets the player's role and view.
func SetGomokuTamper(t testing.TB, f func(me Role, v gomoku.View, kind Kind, body any) (Kind, any)) {
	gomokuTamper.Store(&f)
	t.Cleanup(func() { gomokuTamper.Store(nil) })
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
