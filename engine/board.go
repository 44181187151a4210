package engine

import (
	"fmt"
	"strings"
)

// Board is a position: the side and the colour of every point. It is a
// value: assigning a Board copies it, so a changed copy never changes the
// original. The zero Board has side 0 and is not usable; make one with
// [NewBoard].
type Board struct {
	size  uint8
	cells [MaxPoints]Color
}

// NewBoard returns an empty board of side size (1–19; the variants check
// their own narrower ranges through [Options.Normalize]).
func NewBoard(size int) (Board, error) {
	if size < 1 || size > MaxSize {
		return Board{}, fmt.Errorf("%w: board size %d (allowed 1 to %d)", ErrBadOptions, size, MaxSize)
	}
	return Board{size: uint8(size)}, nil
}

// MustNewBoard is NewBoard for a size already checked; it panics on a size
// out of range.
func MustNewBoard(size int) Board {
	b, err := NewBoard(size)
	if err != nil {
		panic(err)
	}
	return b
}

// Size returns the side of the board.
func (b *Board) Size() int { return int(b.size) }

// Points returns the number of points of the board.
func (b *Board) Points() int { return int(b.size) * int(b.size) }

// OnBoard reports whether p is a point of the board.
func (b *Board) OnBoard(p Point) bool { return p >= 0 && int(p) < b.Points() }

// At returns the colour at p, Empty for a point off the board.
func (b *Board) At(p Point) Color {
	if !b.OnBoard(p) {
		return Empty
	}
	return b.cells[p]
}

// Set puts c (Empty clears) at p. Points off the board are ignored.
func (b *Board) Set(p Point, c Color) {
	if b.OnBoard(p) {
		b.cells[p] = c
	}
}

// Neighbors returns the up to four orthogonal neighbours of p, in the
// order south, west, east, north, and how many there are.
func (b *Board) Neighbors(p Point) (ns [4]Point, n int) {
	size := int(b.size)
	x, y := int(p)%size, int(p)/size
	if y > 0 {
		ns[n] = p - Point(size)
		n++
	}
	if x > 0 {
		ns[n] = p - 1
		n++
	}
	if x < size-1 {
		ns[n] = p + 1
		n++
	}
	if y < size-1 {
		ns[n] = p + Point(size)
		n++
	}
	return ns, n
}

// Chain returns the stones of the chain at p and its liberties (each point
// once), or nil, nil when p is empty.
func (b *Board) Chain(p Point) (stones, liberties []Point) {
	c := b.At(p)
	if c == Empty {
		return nil, nil
	}
	var seen [MaxPoints]bool
	stones = append(stones, p)
	seen[p] = true
	for i := 0; i < len(stones); i++ {
		ns, n := b.Neighbors(stones[i])
		for _, q := range ns[:n] {
			if seen[q] {
				continue
			}
			switch b.cells[q] {
			case c:
				seen[q] = true
				stones = append(stones, q)
			case Empty:
				seen[q] = true
				liberties = append(liberties, q)
			}
		}
	}
	return stones, liberties
}

// Liberties returns the number of liberties of the chain at p (0 for an
// empty point).
func (b *Board) Liberties(p Point) int {
	_, libs := b.Chain(p)
	return len(libs)
}

// HasLiberty reports whether the chain at p has at least one liberty,
// stopping at the first one found.
func (b *Board) HasLiberty(p Point) bool {
	c := b.cells[p]
	var seen [MaxPoints]bool
	var stack [MaxPoints]Point
	stack[0] = p
	top := 1
	seen[p] = true
	for top > 0 {
		top--
		s := stack[top]
		ns, n := b.Neighbors(s)
		for _, q := range ns[:n] {
			switch b.cells[q] {
			case Empty:
				return true
			case c:
				if !seen[q] {
					seen[q] = true
					stack[top] = q
					top++
				}
			}
		}
	}
	return false
}

// removeChain empties the chain at p and appends its points to removed.
func (b *Board) removeChain(p Point, removed []Point) []Point {
	c := b.cells[p]
	if c == Empty {
		return removed
	}
	start := len(removed)
	b.cells[p] = Empty
	removed = append(removed, p)
	for i := start; i < len(removed); i++ {
		ns, n := b.Neighbors(removed[i])
		for _, q := range ns[:n] {
			if b.cells[q] == c {
				b.cells[q] = Empty
				removed = append(removed, q)
			}
		}
	}
	return removed
}

// PlaceResult is what [Board.Place] did.
type PlaceResult struct {
	// Captured lists the opponent stones removed (GO-1).
	Captured []Point
	// Suicide is true when the mover's own chain had no liberty after the
	// captures; the board returned then is the one before the move.
	Suicide bool
	// Occupied is true when the point was not empty; nothing was placed.
	Occupied bool
}

// Place puts a stone of colour c on p following GO-1: opponent chains left
// without a liberty are removed first, then the mover's chain is examined.
// A suicide (GO-2) and a move onto a stone change nothing: the receiver is
// returned unchanged with the reason set. p must be on the board.
func (b Board) Place(p Point, c Color) (Board, PlaceResult) {
	if b.cells[p] != Empty {
		return b, PlaceResult{Occupied: true}
	}
	next := b
	next.cells[p] = c
	var res PlaceResult
	opp := c.Opponent()
	ns, n := next.Neighbors(p)
	for _, q := range ns[:n] {
		if next.cells[q] == opp && !next.HasLiberty(q) {
			res.Captured = next.removeChain(q, res.Captured)
		}
	}
	if len(res.Captured) == 0 && !next.HasLiberty(p) {
		return b, PlaceResult{Suicide: true}
	}
	return next, res
}

// Count returns the number of stones of colour c on the board.
func (b *Board) Count(c Color) int {
	n := 0
	for _, x := range b.cells[:b.Points()] {
		if x == c {
			n++
		}
	}
	return n
}

// Stones returns the points holding colour c, in increasing order.
func (b *Board) Stones(c Color) []Point {
	var ps []Point
	for i, x := range b.cells[:b.Points()] {
		if x == c {
			ps = append(ps, Point(i))
		}
	}
	return ps
}

// Hash returns the Zobrist hash of the position (colours of all points; the
// side is part of the hash too).
func (b *Board) Hash() uint64 {
	h := zobristSize[b.size]
	for i, x := range b.cells[:b.Points()] {
		if x != Empty {
			h ^= zobrist[i][x-1]
		}
	}
	return h
}

// String draws the board as text, row N at the top, with "X" for black,
// "O" for white and "." for empty, and GTP coordinates around it.
func (b Board) String() string {
	size := b.Size()
	var sb strings.Builder
	sb.WriteString("   ")
	for x := 0; x < size; x++ {
		sb.WriteByte(' ')
		sb.WriteByte(ColumnLetters[x])
	}
	sb.WriteByte('\n')
	for y := size - 1; y >= 0; y-- {
		fmt.Fprintf(&sb, "%2d ", y+1)
		for x := 0; x < size; x++ {
			sb.WriteByte(' ')
			switch b.cells[PointAt(size, x, y)] {
			case Black:
				sb.WriteByte('X')
			case White:
				sb.WriteByte('O')
			default:
				sb.WriteByte('.')
			}
		}
		fmt.Fprintf(&sb, " %2d\n", y+1)
	}
	sb.WriteString("   ")
	for x := 0; x < size; x++ {
		sb.WriteByte(' ')
		sb.WriteByte(ColumnLetters[x])
	}
	sb.WriteByte('\n')
	return sb.String()
}

// ParseBoard reads a diagram of rows from the top (row N) to the bottom,
// one character per point: 'X' or 'x' or 'B' black, 'O' or 'o' or 'W'
// white, '.' or '+' empty; spaces are ignored. It is meant for tests and
// documentation.
func ParseBoard(rows ...string) (Board, error) {
	size := len(rows)
	b, err := NewBoard(size)
	if err != nil {
		return b, err
	}
	for r, row := range rows {
		y := size - 1 - r
		x := 0
		for _, ch := range row {
			if ch == ' ' {
				continue
			}
			if x >= size {
				return b, fmt.Errorf("engine: diagram row %d is longer than %d", r+1, size)
			}
			switch ch {
			case 'X', 'x', 'B':
				b.cells[PointAt(size, x, y)] = Black
			case 'O', 'o', 'W':
				b.cells[PointAt(size, x, y)] = White
			case '.', '+':
			default:
				return b, fmt.Errorf("engine: diagram row %d: unknown mark %q", r+1, ch)
			}
			x++
		}
		if x != size {
			return b, fmt.Errorf("engine: diagram row %d has %d points, want %d", r+1, x, size)
		}
	}
	return b, nil
}

// MustParseBoard is ParseBoard that panics on a bad diagram, for tests and
// examples.
func MustParseBoard(rows ...string) Board {
	b, err := ParseBoard(rows...)
	if err != nil {
		panic(err)
	}
	return b
}
