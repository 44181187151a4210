package gomoku

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kakure/kakure/engine"
)

// This file holds what Hidden Move Double Gomoku needs of plane geometry:
// the pieces' names, announced rows and columns (GM-3), windows of five
// (GM-5) and the double five that wins (GM-6).

// X and O are the gomoku pieces as colours (GM-1): X is Black
// and O is White, so a [engine.Board] draws X pieces as "X" and O pieces as "O".
const (
	X = engine.Black
	O = engine.White
)

// PieceName returns "x" for X (Black), "o" for O (White) and "-" for
// anything else. These are the names of GTP (`play x D4`) and the records.
func PieceName(c engine.Color) string {
	switch c {
	case X:
		return "x"
	case O:
		return "o"
	}
	return "-"
}

// ParsePiece reads a piece name, "x" or "o" in any case. The GTP
// colours ("b", "black", "w", "white") are accepted too and mean X and O.
func ParsePiece(s string) (engine.Color, error) {
	switch strings.ToLower(s) {
	case "x":
		return X, nil
	case "o":
		return O, nil
	}
	if c, err := engine.ParseColor(s); err == nil {
		return c, nil
	}
	return engine.Empty, fmt.Errorf("engine: %q is not a gomoku piece (want x or o)", s)
}

// LineKind says whether an announced line is a row or a column.
type LineKind uint8

// The kinds of announced line. The zero value is no line at all, so that
// a record that forgot the announcement does not silently read "row 1".
const (
	Row LineKind = iota + 1
	Column
)

// String returns "row" or "column".
func (k LineKind) String() string {
	switch k {
	case Row:
		return "row"
	case Column:
		return "column"
	}
	return fmt.Sprintf("GomokuLineKind(%d)", uint8(k))
}

// Line is a row or a column as a mover announces it (GM-3).
type Line struct {
	Kind LineKind
	// Index is the row (0 = row 1, at the bottom) or the column (0 = A).
	Index int
}

// LineOf returns the row or the column of p on a board of side size.
func LineOf(size int, p engine.Point, kind LineKind) Line {
	x, y := p.XY(size)
	if kind == Column {
		return Line{Kind: Column, Index: x}
	}
	return Line{Kind: kind, Index: y}
}

// Valid reports whether l names a row or a column of a board of side size.
func (l Line) Valid(size int) bool {
	return (l.Kind == Row || l.Kind == Column) && l.Index >= 0 && l.Index < size
}

// Contains reports whether p is a point of the board on the line l.
func (l Line) Contains(size int, p engine.Point) bool {
	if p < 0 || int(p) >= size*size || !l.Valid(size) {
		return false
	}
	x, y := p.XY(size)
	if l.Kind == Row {
		return y == l.Index
	}
	return x == l.Index
}

// Points returns the points of the line from the lowest up (A to the last
// column for a row, row 1 to the top for a column), or nil if l is not a
// line of the board.
func (l Line) Points(size int) []engine.Point {
	if !l.Valid(size) {
		return nil
	}
	ps := make([]engine.Point, size)
	for i := range ps {
		if l.Kind == Row {
			ps[i] = engine.PointAt(size, i, l.Index)
		} else {
			ps[i] = engine.PointAt(size, l.Index, i)
		}
	}
	return ps
}

// Format writes the line as the players say it: "row 4", "column D".
func (l Line) Format(size int) string {
	if !l.Valid(size) {
		return fmt.Sprintf("no line (%v %d)", l.Kind, l.Index)
	}
	if l.Kind == Row {
		return fmt.Sprintf("row %d", l.Index+1)
	}
	return "column " + string(engine.ColumnLetters[l.Index])
}

// Direction is the direction in which a window of five runs.
type Direction uint8

// The four directions of a line of five. Each window is named from its
// first point and runs in the direction's step four times.
const (
	// Horizontal runs along a row, column +1.
	Horizontal Direction = iota + 1
	// Vertical runs along a column, row +1.
	Vertical
	// Diagonal runs up and to the right, column +1 and row +1.
	Diagonal
	// AntiDiagonal runs up and to the left, column -1 and row +1.
	AntiDiagonal
)

// directions lists the directions in the order FiveLines reports.
var directions = [4]Direction{Horizontal, Vertical, Diagonal, AntiDiagonal}

// Step returns the column and row steps of d (0, 0 for no direction).
func (d Direction) Step() (dx, dy int) {
	switch d {
	case Horizontal:
		return 1, 0
	case Vertical:
		return 0, 1
	case Diagonal:
		return 1, 1
	case AntiDiagonal:
		return -1, 1
	}
	return 0, 0
}

// String returns "horizontal", "vertical", "diagonal" or "anti-diagonal".
func (d Direction) String() string {
	switch d {
	case Horizontal:
		return "horizontal"
	case Vertical:
		return "vertical"
	case Diagonal:
		return "diagonal"
	case AntiDiagonal:
		return "anti-diagonal"
	}
	return fmt.Sprintf("GomokuDirection(%d)", uint8(d))
}

// Five is a window of five consecutive points in a row, a column or
// a diagonal: Start and the four points that follow it in direction Dir.
// A "line of five" of GM-5 and GM-6 is such a window filled with one
// player's pieces; a longer run holds several overlapping windows.
type Five struct {
	Start engine.Point
	Dir   Direction
}

// Points returns the five points of f on a board of side size, and false
// if f leaves the board or has no direction.
func (f Five) Points(size int) ([5]engine.Point, bool) {
	var ps [5]engine.Point
	dx, dy := f.Dir.Step()
	if dx == 0 && dy == 0 || f.Start < 0 || int(f.Start) >= size*size {
		return ps, false
	}
	x, y := f.Start.XY(size)
	ex, ey := x+4*dx, y+4*dy
	if ex < 0 || ex >= size || ey >= size {
		return ps, false
	}
	for i := range ps {
		ps[i] = engine.PointAt(size, x+i*dx, y+i*dy)
	}
	return ps, true
}

// Valid reports whether f is a window of the board of side size.
func (f Five) Valid(size int) bool {
	_, ok := f.Points(size)
	return ok
}

// Shared returns how many points f and g have in common on a board of side
// size (0 when either is not a window of the board). Two windows in
// different directions share at most one point; windows on the same line
// in the same direction share 5 minus the distance between their starts.
func (f Five) Shared(size int, g Five) int {
	fp, ok1 := f.Points(size)
	gp, ok2 := g.Points(size)
	if !ok1 || !ok2 {
		return 0
	}
	n := 0
	for _, p := range fp {
		for _, q := range gp {
			if p == q {
				n++
			}
		}
	}
	return n
}

// Format writes f as its two ends in GTP vertices, "C3-G7".
func (f Five) Format(size int) string {
	ps, ok := f.Points(size)
	if !ok {
		return fmt.Sprintf("no five (%s %v)", f.Start.Vertex(size), f.Dir)
	}
	return ps[0].Vertex(size) + "-" + ps[4].Vertex(size)
}

// gomokuAxis identifies the straight line a window lies on and the window's
// place along it: windows with the same direction and line number lie on one
// line, and offset counts points along it.
func (f Five) gomokuAxis(size int) (line, offset int) {
	x, y := f.Start.XY(size)
	switch f.Dir {
	case Horizontal:
		return y, x
	case Vertical:
		return x, y
	case Diagonal:
		return x - y, y
	default: // AntiDiagonal
		return x + y, y
	}
}

// FiveLines returns every window of five of b filled with colour c (GM-5),
// by direction (horizontal, vertical, diagonal, anti-diagonal) and then by
// first point. A run of six gives two windows, a run of nine five.
func FiveLines(b engine.Board, c engine.Color) []Five {
	var fives []Five
	size := b.Size()
	for _, d := range directions {
		for p := engine.Point(0); int(p) < size*size; p++ {
			f := Five{Start: p, Dir: d}
			if ps, ok := f.Points(size); ok && filled(&b, ps, c) {
				fives = append(fives, f)
			}
		}
	}
	return fives
}

// filled reports whether every point of ps holds c.
func filled(b *engine.Board, ps [5]engine.Point, c engine.Color) bool {
	for _, p := range ps {
		if b.At(p) != c {
			return false
		}
	}
	return true
}

// HasFive reports whether b has at least one window of five of colour c.
func HasFive(b engine.Board, c engine.Color) bool {
	size := b.Size()
	for p := engine.Point(0); int(p) < size*size; p++ {
		if b.At(p) == c && runThrough(&b, c, p) >= 5 {
			return true
		}
	}
	return false
}

// runThrough returns the length of the longest run of c through p in
// any of the four directions (0 if p does not hold c).
func runThrough(b *engine.Board, c engine.Color, p engine.Point) int {
	if b.At(p) != c {
		return 0
	}
	size := b.Size()
	x0, y0 := p.XY(size)
	best := 0
	for _, d := range directions {
		dx, dy := d.Step()
		n := 1
		for _, sign := range [2]int{1, -1} {
			x, y := x0+sign*dx, y0+sign*dy
			for x >= 0 && x < size && y >= 0 && y < size && b.At(engine.PointAt(size, x, y)) == c {
				n++
				x, y = x+sign*dx, y+sign*dy
			}
		}
		best = max(best, n)
	}
	return best
}

// DoubleFive looks for two windows of five of colour c on b that share at
// most one point: the win of GM-6. Six in a row is one line (its two
// windows share four points), nine in a row is two (the first and the last
// window share the middle point), and two fives across each other win
// whether or not they cross on a piece.
//
// The search rests on this: windows on different straight lines share at
// most one point, and windows on one line share 5-d points when their
// starts are d apart. So either two windows lie on different lines, or all
// lie on one line and the two farthest apart decide.
func DoubleFive(b engine.Board, c engine.Color) ([2]Five, bool) {
	fives := FiveLines(b, c)
	if len(fives) < 2 {
		return [2]Five{}, false
	}
	size := b.Size()
	first := fives[0]
	line0, off0 := first.gomokuAxis(size)
	lo, hi := first, first
	loOff, hiOff := off0, off0
	for _, f := range fives[1:] {
		line, off := f.gomokuAxis(size)
		if f.Dir != first.Dir || line != line0 {
			return [2]Five{first, f}, true
		}
		if off < loOff {
			lo, loOff = f, off
		}
		if off > hiOff {
			hi, hiOff = f, off
		}
	}
	if hiOff-loOff >= 4 {
		return [2]Five{lo, hi}, true
	}
	return [2]Five{}, false
}

// errNotDoubleFive is wrapped by CheckDoubleFive's errors.
var errNotDoubleFive = errors.New("not a double five")

// CheckDoubleFive returns nil if lines are two windows of five of the board
// filled with colour c on b that share at most one point (GM-6), or an
// error that says what is wrong with the claim.
func CheckDoubleFive(b engine.Board, c engine.Color, lines [2]Five) error {
	size := b.Size()
	for i, f := range lines {
		ps, ok := f.Points(size)
		if !ok {
			return fmt.Errorf("%w: line %d (%s) is not a window of five of the board", errNotDoubleFive, i+1, f.Format(size))
		}
		var missing []string
		for _, p := range ps {
			if b.At(p) != c {
				missing = append(missing, p.Vertex(size))
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("%w: line %d (%s) lacks %s pieces at %s", errNotDoubleFive, i+1, f.Format(size), PieceName(c), strings.Join(missing, ","))
		}
	}
	if n := lines[0].Shared(size, lines[1]); n > 1 {
		return fmt.Errorf("%w: lines %s and %s share %d pieces (at most one allowed)", errNotDoubleFive, lines[0].Format(size), lines[1].Format(size), n)
	}
	return nil
}
