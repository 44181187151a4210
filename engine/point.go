package engine

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxSize is the largest board side kakure accepts.
const MaxSize = 19

// MinSize is the smallest board side of the Go-family variants.
const MinSize = 5

// MaxPoints is the number of points of the largest board.
const MaxPoints = MaxSize * MaxSize

// Point is an intersection of the board, numbered row by row from the
// bottom-left corner: on a board of side n, column x (0 = A) and row y
// (0 = row 1) is the point y*n + x. Point values depend on the board size.
type Point int16

// Special moves that are not points. A Move is a Point or one of these.
const (
	// Pass is the move that places no stone.
	Pass Point = -1
	// NoPoint marks the absence of a point (no ko, no last stone).
	NoPoint Point = -2
)

// ErrBadVertex reports a coordinate that does not name a point of the board.
var ErrBadVertex = errors.New("engine: bad vertex")

// ColumnLetters are the GTP column names: A to T without I.
const ColumnLetters = "ABCDEFGHJKLMNOPQRST"

// PointAt returns the point at column x and row y (both from 0) of a board
// of side size.
func PointAt(size, x, y int) Point { return Point(y*size + x) }

// XY returns the column and row (both from 0) of p on a board of side size.
func (p Point) XY(size int) (x, y int) { return int(p) % size, int(p) / size }

// Vertex formats p as a GTP vertex ("D4", "pass") for a board of side size.
func (p Point) Vertex(size int) string {
	switch {
	case p == Pass:
		return "pass"
	case p < 0 || int(p) >= size*size:
		return "?"
	}
	x, y := p.XY(size)
	return string(ColumnLetters[x]) + strconv.Itoa(y+1)
}

// ParseVertexList reads a comma-separated list of vertices ("d4, e5";
// "" or "-" for none) on a board of side size and returns the points in
// increasing order, nil for none.
func ParseVertexList(size int, list string) ([]Point, error) {
	if list == "" || list == "-" {
		return nil, nil
	}
	var ps []Point
	for _, v := range strings.Split(list, ",") {
		p, err := ParseVertex(size, strings.TrimSpace(v))
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	slices.Sort(ps)
	return ps, nil
}

// ParseVertex reads a GTP vertex ("d4", "D4", "pass") on a board of side
// size. Column letters skip I; rows count from 1 at the bottom.
func ParseVertex(size int, s string) (Point, error) {
	t := lower(s)
	if t == "pass" {
		return Pass, nil
	}
	if len(t) < 2 || len(t) > 3 {
		return NoPoint, fmt.Errorf("%w %q", ErrBadVertex, s)
	}
	col := t[0]
	if col < 'a' || col > 'z' || col == 'i' {
		return NoPoint, fmt.Errorf("%w %q: bad column", ErrBadVertex, s)
	}
	x := int(col - 'a')
	if col > 'i' {
		x--
	}
	y, err := strconv.Atoi(t[1:])
	if err != nil || t[1] == '0' || t[1] == '+' || t[1] == '-' {
		return NoPoint, fmt.Errorf("%w %q: bad row", ErrBadVertex, s)
	}
	if x >= size || y < 1 || y > size {
		return NoPoint, fmt.Errorf("%w %q: outside a %dx%d board", ErrBadVertex, s, size, size)
	}
	return PointAt(size, x, y-1), nil
}

// FormatVertices formats points as a comma-separated GTP list, or "-" when
// there are none, as the kakure GTP extensions and records write lists.
func FormatVertices(size int, ps []Point) string {
	if len(ps) == 0 {
		return "-"
	}
	b := make([]byte, 0, 4*len(ps))
	for i, p := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, p.Vertex(size)...)
	}
	return string(b)
}
