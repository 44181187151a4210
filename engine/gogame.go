package engine

import "fmt"

// GoGame is a game of plain Go (GO-1..GO-6): a position, the player to
// move, the passes, the captures and the positions of earlier turns for
// positional superko. It is a value; Play returns the next game.
type GoGame struct {
	opts     Options
	board    Board
	toMove   Color
	passes   int
	captured [3]int
	history  *PositionHistory
	last     Point
	moves    int
}

// NewGoGame starts a game of plain Go. Options other than the size, the
// komi, the colour choice and the handicap are refused by Normalize for
// this variant. With a handicap, Black's stones stand on the board and
// White is to move.
func NewGoGame(o Options) (GoGame, error) {
	if o.Variant == "" {
		o.Variant = VariantGo
	}
	o, err := o.Normalize()
	if err != nil {
		return GoGame{}, err
	}
	b := MustNewBoard(o.Size)
	g := GoGame{opts: o, board: b, toMove: Black, history: (*PositionHistory)(nil).Push(b), last: NoPoint}
	if o.Handicap > 0 {
		// HC-D1: Black's stones stand before the first move; White moves
		// first.
		stones, err := HandicapPoints(o.Size, o.Handicap)
		if err != nil {
			return GoGame{}, err
		}
		if g, err = g.WithSetup(stones, nil); err != nil {
			return GoGame{}, err
		}
		g.toMove = White
	}
	return g, nil
}

// Options returns the game's options, defaults filled in.
func (g GoGame) Options() Options { return g.opts }

// Board returns the position.
func (g GoGame) Board() Board { return g.board }

// ToMove returns the player whose turn it is.
func (g GoGame) ToMove() Color { return g.toMove }

// Passes returns the number of consecutive passes that ended the last turns.
func (g GoGame) Passes() int { return g.passes }

// PlayEnded reports whether two consecutive passes ended play (GO-4). A
// move played after that resumes play.
func (g GoGame) PlayEnded() bool { return g.passes >= 2 }

// Captures returns how many stones c has captured.
func (g GoGame) Captures(c Color) int { return g.captured[c] }

// LastMove returns the last move played (a point or Pass), or NoPoint.
func (g GoGame) LastMove() Point { return g.last }

// MoveNumber returns how many moves (passes included) have been played.
func (g GoGame) MoveNumber() int { return g.moves }

// Check returns nil if c may play p now, ignoring whose turn it is (GTP
// lets a controller play either colour), or the reason it may not.
func (g GoGame) Check(c Color, p Point) error {
	_, _, err := g.play(c, p)
	return err
}

// Play plays p (or Pass) for c and returns the next game and the stones
// captured. The turn passes to c's opponent. An illegal move returns the
// receiver unchanged and an error that wraps ErrOccupied, ErrSuicide,
// ErrSuperko or ErrOffBoard.
func (g GoGame) Play(c Color, p Point) (GoGame, []Point, error) {
	next, captured, err := g.play(c, p)
	if err != nil {
		return g, nil, err
	}
	return next, captured, nil
}

func (g GoGame) play(c Color, p Point) (GoGame, []Point, error) {
	if c != Black && c != White {
		return g, nil, fmt.Errorf("engine: play: %v is not a player", c)
	}
	if p == Pass {
		g.passes++
		g.toMove = c.Opponent()
		g.last = Pass
		g.moves++
		return g, nil, nil
	}
	if !g.board.OnBoard(p) {
		return g, nil, fmt.Errorf("%w: %d", ErrOffBoard, p)
	}
	next, res := g.board.Place(p, c)
	switch {
	case res.Occupied:
		return g, nil, fmt.Errorf("play %s %s: %w", c, p.Vertex(g.board.Size()), ErrOccupied)
	case res.Suicide:
		return g, nil, fmt.Errorf("play %s %s: %w", c, p.Vertex(g.board.Size()), ErrSuicide)
	}
	if g.history.Contains(next) {
		return g, nil, fmt.Errorf("play %s %s: %w", c, p.Vertex(g.board.Size()), ErrSuperko)
	}
	g.board = next
	g.history = g.history.Push(next)
	g.captured[c] += len(res.Captured)
	g.passes = 0
	g.toMove = c.Opponent()
	g.last = p
	g.moves++
	return g, res.Captured, nil
}

// LegalPoints returns every point c may play now, in increasing order (pass
// is always legal and not listed).
func (g GoGame) LegalPoints(c Color) []Point {
	var ps []Point
	for i := 0; i < g.board.Points(); i++ {
		p := Point(i)
		if g.board.At(p) == Empty && g.Check(c, p) == nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// Score counts the game by area with the given dead stones (GO-5).
func (g GoGame) Score(dead Marking) Score { return AreaScore(g.board, dead, g.opts.Komi) }

// WithKomi returns the game with another komi (GTP's komi command may
// change it between moves; it only matters when counting).
func (g GoGame) WithKomi(k float64) GoGame {
	g.opts.Komi, g.opts.KomiSet = k, true
	return g
}
