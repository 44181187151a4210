package gtp

import (
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// gameMove is one move of a public game's history, as GTP's play gives it.
type gameMove struct {
	color engine.Color
	point engine.Point
}

// moveHistory rebuilds, from the views a player is shown at its turns,
// the moves of a public-board game (plain Go, Bridge Go, F-Go's turns),
// so that an engine can be given the game move by move and know its ko
// and superko state (GTP-D1). Between two of its turns a player sees one
// new move of the opponent (LastMove) and knows its own; the moves are
// replayed under Go's rules and the history is kept only while the
// replay gives the game's board. When it does not (a Bridge Go capture
// that Go's rules do not make, an F-Go turn whose two stones interact, a
// game that did not start empty), the history is given up for the rest
// of the game and the engine is set up with the board instead.
type moveHistory struct {
	started bool
	broken  bool
	moves   []gameMove
	replay  engine.GoGame
	// count is how many moves (F-Go: turns) of the game the history
	// accounts for; pending is the player's own move since, or NoPoint.
	count   int
	pending engine.Point
}

// observe brings the history up to the view; it reports whether the
// history holds the whole game.
func (h *moveHistory) observe(v protocol.View) bool {
	if h.broken {
		return false
	}
	if !h.started {
		o := engine.Options{Variant: engine.VariantGo, Size: v.Options.Size, Komi: v.Options.Komi, KomiSet: true}
		g, err := engine.NewGoGame(o)
		if err != nil {
			h.broken = true
			return false
		}
		h.started, h.replay, h.pending = true, g, engine.NoPoint
	}
	var board engine.Board
	if v.Variant == nil {
		h.broken = true // no game view yet
	} else {
		var held bool
		board, held = viewReaderOf(v).history(h, v)
		h.broken = !held
	}
	h.pending = engine.NoPoint
	if !h.broken && h.replay.Board() != board {
		h.broken = true
	}
	return !h.broken
}

// noMoveHistory is the history of a variant with hidden moves (Hidden
// Move Go, gomoku, Phantom Go): the history cannot hold the game.
func noMoveHistory[V protocol.VariantView](*moveHistory, engine.Color, V) (engine.Board, bool) {
	return engine.Board{}, false
}

// observeMoves adds the moves of a game played in turns (Go, Bridge Go)
// made since the player's last turn: its own (pending) and the
// opponent's last. When the pending move is not what the game shows (the
// caller played something else), its own move is found by trying every
// point.
func (h *moveHistory) observeMoves(me engine.Color, number int, last engine.Point, board engine.Board) bool {
	opp := me.Opponent()
	switch number - h.count {
	case 0:
		return true
	case 1:
		return h.play(opp, last) && h.counted(1)
	case 2:
		try := func(q engine.Point) bool {
			g1, _, err := h.replay.Play(me, q)
			if err != nil {
				return false
			}
			g2, _, err := g1.Play(opp, last)
			return err == nil && g2.Board() == board
		}
		own := h.pending
		if own == engine.NoPoint || !try(own) {
			own = engine.NoPoint
			for q := engine.Pass; int(q) < board.Points(); q++ {
				if try(q) {
					own = q
					break
				}
			}
		}
		return own != engine.NoPoint && h.play(me, own) && h.play(opp, last) && h.counted(2)
	}
	return false
}

// observeTurn adds the F-Go turn played since the player's last turn: its
// two choices played one after the other, Black's first; a collision
// (FG-2) places nothing.
func (h *moveHistory) observeTurn(number int, black, white engine.Point) bool {
	switch number - h.count {
	case 0:
		return true
	case 1:
		if black == white && black != engine.Pass {
			return h.counted(1)
		}
		return h.play(engine.Black, black) && h.play(engine.White, white) && h.counted(1)
	}
	return false
}

func (h *moveHistory) play(c engine.Color, p engine.Point) bool {
	g, _, err := h.replay.Play(c, p)
	if err != nil {
		return false
	}
	h.replay = g
	h.moves = append(h.moves, gameMove{c, p})
	return true
}

func (h *moveHistory) counted(n int) bool { h.count += n; return true }
