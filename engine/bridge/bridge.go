package bridge

import (
	"fmt"
	"slices"

	"github.com/kakure/kakure/engine"
)

// MoveResult is what a Bridge Go move did (BG-3).
type MoveResult struct {
	// Captured lists the opponent stones removed in step 1, in increasing
	// order.
	Captured []engine.Point
	// SelfCaptured lists the mover's own stones removed in step 3, in
	// increasing order (self-capture is legal). It is empty when the move
	// won: a bridge wins before step 3.
	SelfCaptured []engine.Point
	// Winner is the mover when the move made a bridge (step 2), else Empty.
	Winner engine.Color
	// WinningChain lists, in increasing order, the stones of the chain that
	// touches two opposite sides, for a winning move.
	WinningChain []engine.Point
	// Draw is true when this pass was the second in a row (BG-1).
	Draw bool
}

// Game is a game of Bridge Go (BG-1..BG-5): a position, the player to
// move, the passes, the positions of earlier turns for positional superko
// and the outcome once there is one. It is a value; Play returns the next
// game.
type Game struct {
	opts         engine.Options
	board        engine.Board
	toMove       engine.Color
	passes       int
	history      *engine.PositionHistory
	over         bool
	winner       engine.Color
	winningChain []engine.Point // never written after it is set; shared freely
	captured     [3]int
	selfCaptured [3]int
	last         engine.Point
	moves        int
}

// NewGame starts a game of Bridge Go, Black to move on an empty
// board. The variant may be left empty; other variants are refused.
// Default 9×9; Options.Perpendicular selects BG-5.
func NewGame(o engine.Options) (Game, error) {
	if o.Variant == "" {
		o.Variant = engine.VariantBridge
	}
	if o.Variant != engine.VariantBridge {
		return Game{}, fmt.Errorf("%w: Bridge Go game with variant %q", engine.ErrBadOptions, o.Variant)
	}
	o, err := o.Normalize()
	if err != nil {
		return Game{}, err
	}
	b := engine.MustNewBoard(o.Size)
	return Game{opts: o, board: b, toMove: engine.Black, history: (*engine.PositionHistory)(nil).Push(b), last: engine.NoPoint}, nil
}

// Options returns the game's options, defaults filled in.
func (g Game) Options() engine.Options { return g.opts }

// Board returns the position.
func (g Game) Board() engine.Board { return g.board }

// ToMove returns the player whose turn it is.
func (g Game) ToMove() engine.Color { return g.toMove }

// Passes returns the number of consecutive passes that ended the last turns.
func (g Game) Passes() int { return g.passes }

// LastMove returns the last move played (a point or Pass), or NoPoint.
func (g Game) LastMove() engine.Point { return g.last }

// MoveNumber returns how many moves (passes included) have been played.
func (g Game) MoveNumber() int { return g.moves }

// Captures returns how many opponent stones c has captured (BG-3 step 1).
func (g Game) Captures(c engine.Color) int {
	if c != engine.Black && c != engine.White {
		return 0
	}
	return g.captured[c]
}

// SelfCaptures returns how many of its own stones c has removed by
// self-capture (BG-3 step 3).
func (g Game) SelfCaptures(c engine.Color) int {
	if c != engine.Black && c != engine.White {
		return 0
	}
	return g.selfCaptured[c]
}

// Over reports whether the game has ended, by a bridge or by two passes.
func (g Game) Over() bool { return g.over }

// Winner returns the player who made a bridge, or Empty while the game
// goes on and after a draw.
func (g Game) Winner() engine.Color { return g.winner }

// WinningChain returns the stones of the winning bridge in increasing
// order, or nil when nobody has won.
func (g Game) WinningChain() []engine.Point { return slices.Clone(g.winningChain) }

// Result returns the outcome and true once the game is over: a win ByWin
// for the player who made a bridge, a draw ByDraw after two passes.
// Resignation is the protocol's business.
func (g Game) Result() (engine.Result, bool) {
	if !g.over {
		return engine.Result{}, false
	}
	if g.winner == engine.Empty {
		return engine.Result{By: engine.ByDraw}, true
	}
	return engine.Result{Winner: g.winner, By: engine.ByWin}, true
}

// ExternalLiberties returns, in increasing order, the external liberties
// (BG-2, with BG-5 when the game has the perpendicular option) of the chain
// at p, or nil for an empty point.
func (g Game) ExternalLiberties(p engine.Point) []engine.Point {
	if !g.board.OnBoard(p) || g.board.At(p) == engine.Empty {
		return nil
	}
	c := g.board.At(p)
	sides := regionSides(&g.board, c)
	stones, _ := g.board.Chain(p)
	var libs []engine.Point
	for _, s := range stones {
		ns, n := g.board.Neighbors(s)
		for _, q := range ns[:n] {
			if g.board.At(q) == engine.Empty && external(&g.board, s, q, sides[q], g.opts.Perpendicular) && !slices.Contains(libs, q) {
				libs = append(libs, q)
			}
		}
	}
	slices.Sort(libs)
	return libs
}

// Check returns nil if c may play p now, ignoring whose turn it is (GTP
// lets a controller play either colour, as for [engine.GoGame.Check]), or the
// reason it may not.
func (g Game) Check(c engine.Color, p engine.Point) error {
	_, _, err := g.play(c, p)
	return err
}

// Play plays p (or Pass) for c and returns the next game and what the move
// did. The turn passes to c's opponent; whose turn it is is not enforced,
// as for [engine.GoGame.Play]. An illegal move returns the receiver unchanged and
// an error that wraps ErrOccupied, ErrSuperko, ErrOffBoard or ErrGameOver.
func (g Game) Play(c engine.Color, p engine.Point) (Game, MoveResult, error) {
	next, res, err := g.play(c, p)
	if err != nil {
		return g, MoveResult{}, err
	}
	return next, res, nil
}

func (g Game) play(c engine.Color, p engine.Point) (Game, MoveResult, error) {
	var res MoveResult
	if c != engine.Black && c != engine.White {
		return g, res, fmt.Errorf("engine: play: %v is not a player", c)
	}
	if g.over {
		return g, res, fmt.Errorf("play %s: %w", c, engine.ErrGameOver)
	}
	if p == engine.Pass {
		g.passes++
		g.toMove = c.Opponent()
		g.last = engine.Pass
		g.moves++
		if g.passes >= 2 {
			// BG-1: two consecutive passes end the game as a draw.
			g.over = true
			res.Draw = true
		}
		return g, res, nil
	}
	size := g.board.Size()
	if !g.board.OnBoard(p) {
		return g, res, fmt.Errorf("%w: %d", engine.ErrOffBoard, p)
	}
	if g.board.At(p) != engine.Empty {
		return g, res, fmt.Errorf("play %s %s: %w", c, p.Vertex(size), engine.ErrOccupied)
	}
	b := g.board
	b.Set(p, c)
	perp := g.opts.Perpendicular
	// (1) Remove the opponent's chains without an external liberty, all
	// judged on the position after placement.
	res.Captured = removeDead(&b, c.Opponent(), perp)
	// (2) A bridge wins. Only the chain of the new stone can be one: any
	// other chain of c was there after c's previous move, when it would
	// have won, and step 1 removes no stone of c.
	stones, _ := b.Chain(p)
	if spans(&b, stones) {
		slices.Sort(stones)
		res.Winner = c
		res.WinningChain = stones
	} else {
		// (3) Remove the mover's own chains without an external liberty.
		res.SelfCaptured = removeDead(&b, c, perp)
	}
	// BG-4: positional superko on the position after the whole move. A
	// move whose stone is removed with nothing else changed repeats the
	// position before it, and is refused too (BG-D3).
	if g.history.Contains(b) {
		return g, MoveResult{}, fmt.Errorf("play %s %s: %w", c, p.Vertex(size), engine.ErrSuperko)
	}
	g.board = b
	g.history = g.history.Push(b)
	g.captured[c] += len(res.Captured)
	g.selfCaptured[c] += len(res.SelfCaptured)
	g.passes = 0
	g.toMove = c.Opponent()
	g.last = p
	g.moves++
	if res.Winner != engine.Empty {
		g.over = true
		g.winner = c
		g.winningChain = slices.Clone(res.WinningChain)
	}
	return g, res, nil
}

// LegalPoints returns every point c may play now, in increasing order (pass
// is always legal while the game goes on and is not listed).
func (g Game) LegalPoints(c engine.Color) []engine.Point {
	var ps []engine.Point
	for i := 0; i < g.board.Points(); i++ {
		p := engine.Point(i)
		if g.board.At(p) == engine.Empty && g.Check(c, p) == nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// The sides of the board, as bits of a mask. North is the side of row N,
// south that of row 1, west that of column A.
const (
	north uint8 = 1 << iota
	south
	east
	west
)

// sidesOf returns the sides of the board that p lies on.
func sidesOf(size int, p engine.Point) uint8 {
	x, y := p.XY(size)
	var m uint8
	if y == size-1 {
		m |= north
	}
	if y == 0 {
		m |= south
	}
	if x == size-1 {
		m |= east
	}
	if x == 0 {
		m |= west
	}
	return m
}

// regionSides returns, for every point that does not hold a stone of
// colour c, the sides of the board reached by orthogonal paths from it that
// never step on a stone of c (BG-2), as a mask; 0 for c's stones. The
// non-c points fall into regions connected through non-c points, and a
// point reaches exactly the sides its region touches, so one flood fill
// per region answers for all its points: the whole board costs one pass,
// where a search per liberty would cost one pass per liberty.
func regionSides(b *engine.Board, c engine.Color) (sides [engine.MaxPoints]uint8) {
	size := b.Size()
	last := size - 1
	var visited [engine.MaxPoints]bool
	var region [engine.MaxPoints]engine.Point
	for i := 0; i < b.Points(); i++ {
		if visited[i] || b.At(engine.Point(i)) == c {
			continue
		}
		visited[i] = true
		region[0] = engine.Point(i)
		n := 1
		var mask uint8
		for j := 0; j < n; j++ {
			q := int(region[j])
			y := q / size
			x := q - y*size
			// Each step looks at one neighbour and, on the side where
			// there is none, notes the side instead.
			if y > 0 {
				if r := q - size; !visited[r] && b.At(engine.Point(r)) != c {
					visited[r] = true
					region[n] = engine.Point(r)
					n++
				}
			} else {
				mask |= south
			}
			if x > 0 {
				if r := q - 1; !visited[r] && b.At(engine.Point(r)) != c {
					visited[r] = true
					region[n] = engine.Point(r)
					n++
				}
			} else {
				mask |= west
			}
			if x < last {
				if r := q + 1; !visited[r] && b.At(engine.Point(r)) != c {
					visited[r] = true
					region[n] = engine.Point(r)
					n++
				}
			} else {
				mask |= east
			}
			if y < last {
				if r := q + size; !visited[r] && b.At(engine.Point(r)) != c {
					visited[r] = true
					region[n] = engine.Point(r)
					n++
				}
			} else {
				mask |= north
			}
		}
		for _, q := range region[:n] {
			sides[q] = mask
		}
	}
	return sides
}

// external reports whether the empty point lib, a liberty of the
// stone s whose region reaches the sides in mask, is external for s
// (BG-2). With the perpendicular option (BG-5), a liberty east or west of
// s must reach north and south, one north or south of s east and west.
func external(b *engine.Board, s, lib engine.Point, mask uint8, perpendicular bool) bool {
	northSouth := mask&(north|south) == north|south
	eastWest := mask&(east|west) == east|west
	if !perpendicular {
		return northSouth || eastWest
	}
	if d := s - lib; d == 1 || d == -1 { // east or west of s
		return northSouth
	}
	return eastWest
}

// removeDead removes every chain of colour c that has no external
// liberty (BG-3), all judged on the position as it is on entry, and
// returns their stones in increasing order.
func removeDead(b *engine.Board, c engine.Color, perpendicular bool) []engine.Point {
	sides := regionSides(b, c)
	var seen [engine.MaxPoints]bool
	var chain [engine.MaxPoints]engine.Point
	var dead []engine.Point
	for i := 0; i < b.Points(); i++ {
		if b.At(engine.Point(i)) != c || seen[i] {
			continue
		}
		seen[i] = true
		chain[0] = engine.Point(i)
		n := 1
		alive := false
		for j := 0; j < n; j++ {
			s := chain[j]
			ns, k := b.Neighbors(s)
			for _, q := range ns[:k] {
				switch b.At(q) {
				case c:
					if !seen[q] {
						seen[q] = true
						chain[n] = q
						n++
					}
				case engine.Empty:
					alive = alive || external(b, s, q, sides[q], perpendicular)
				}
			}
		}
		if !alive {
			dead = append(dead, chain[:n]...)
		}
	}
	for _, s := range dead {
		b.Set(s, engine.Empty)
	}
	slices.Sort(dead)
	return dead
}

// spans reports whether the stones touch two opposite sides of the
// board: north and south, or east and west (BG-3 step 2).
func spans(b *engine.Board, stones []engine.Point) bool {
	size := b.Size()
	var mask uint8
	for _, s := range stones {
		mask |= sidesOf(size, s)
	}
	return mask&(north|south) == north|south ||
		mask&(east|west) == east|west
}
