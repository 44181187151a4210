package engine

import "fmt"

// WithSetup returns the game with setup stones added to its starting
// position (SGF AB/AW, handicap stones), before any move is played. The
// setup position becomes the first position of the superko history; the
// player to move does not change (GoGame.Play lets either colour play).
//
// It refuses, and returns the receiver with the error, when a move has
// already been played (ErrWrongPhase), a point is off the board
// (ErrOffBoard), a point is already occupied or listed twice (ErrOccupied),
// or the position would leave a chain without a liberty (ErrSuicide): a
// setup never captures (decision SGF-D6 in docs/sgf.md).
func (g GoGame) WithSetup(black, white []Point) (GoGame, error) {
	if g.moves > 0 {
		return g, fmt.Errorf("engine: setup after %d moves: %w", g.moves, ErrWrongPhase)
	}
	b := g.board
	for _, s := range [2]struct {
		c  Color
		ps []Point
	}{{Black, black}, {White, white}} {
		for _, p := range s.ps {
			if !b.OnBoard(p) {
				return g, fmt.Errorf("engine: setup %s %d: %w", s.c, p, ErrOffBoard)
			}
			if b.At(p) != Empty {
				return g, fmt.Errorf("engine: setup %s %s: %w", s.c, p.Vertex(b.Size()), ErrOccupied)
			}
			b.Set(p, s.c)
		}
	}
	for i := 0; i < b.Points(); i++ {
		p := Point(i)
		if b.At(p) != Empty && !b.HasLiberty(p) {
			return g, fmt.Errorf("engine: setup leaves the chain at %s without a liberty: %w", p.Vertex(b.Size()), ErrSuicide)
		}
	}
	g.board = b
	g.history = (*PositionHistory)(nil).Push(b)
	return g, nil
}
