package sgf

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/kakure/kakure/engine"
)

// Value is one property value as it is written between the brackets,
// escapes included: the value of C[a\]b] is `a\]b`. Keeping values as
// written lets every property, known or not, survive a round trip exactly;
// the methods decode a value by the type its property has, and the
// constructors ([TextValue], [ComposeValue], [PointValue] ...) encode one.
type Value string

// TextValue encodes s as an SGF Text or SimpleText value: "\" and "]" are
// escaped, everything else is kept.
func TextValue(s string) Value { return Value(escape(s, false)) }

// ComposeValue encodes a composed value "first:second" whose parts are
// Text: "\", "]" and ":" are escaped in each part. Points and numbers
// need no escaping, so ComposeValue("aa", "cc") is the rectangle `aa:cc`.
func ComposeValue(first, second string) Value {
	return Value(escape(first, true) + ":" + escape(second, true))
}

// escape puts a "\" before every "\" and "]" of s, and before every ":" if
// colon is true.
func escape(s string, colon bool) string {
	if !strings.ContainsAny(s, `\]:`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 4)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' || c == ']' || (colon && c == ':') {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Text decodes v as SGF Text: escapes are removed, a "\" before a line
// break removes the line break (a soft line break), other line breaks are
// kept as "\n", and other white space becomes a space.
func (v Value) Text() string { return decodeText(string(v), false) }

// SimpleText decodes v as SGF SimpleText: as [Value.Text], except that
// line breaks that are kept become spaces too.
func (v Value) SimpleText() string { return decodeText(string(v), true) }

// decodeText implements Text and SimpleText.
func decodeText(raw string, simple bool) string {
	var b strings.Builder
	b.Grow(len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		escaped := false
		if c == '\\' {
			i++
			if i == len(raw) {
				break // a lone "\" at the end escapes nothing
			}
			c = raw[i]
			escaped = true
		}
		switch c {
		case '\n', '\r':
			// "\r\n", "\n\r", "\r" and "\n" are each one line break.
			if i+1 < len(raw) && (raw[i+1] == '\n' || raw[i+1] == '\r') && raw[i+1] != c {
				i++
			}
			switch {
			case escaped:
			case simple:
				b.WriteByte(' ')
			default:
				b.WriteByte('\n')
			}
		case '\t', '\v', '\f':
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Compose splits a composed value at its first ":" that is not escaped,
// and reports whether there was one. The parts stay encoded: decode them
// with their own types (first.Point, second.SimpleText ...).
func (v Value) Compose() (first, second Value, ok bool) {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case ':':
			return v[:i], v[i+1:], true
		}
	}
	return v, "", false
}

// Number decodes v as an SGF Number: an optional sign and decimal digits.
func (v Value) Number() (int, error) {
	s := string(v)
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 || digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, fmt.Errorf("%w: %q is not a number", ErrValue, s)
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%w: %q is not a number", ErrValue, s)
	}
	return n, nil
}

// Real decodes v as an SGF Real ("7.5", "-3", "0.5"). Infinities and NaN
// are refused.
func (v Value) Real() (float64, error) {
	s := string(v)
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 || digits == "" || digits == "." || strings.Trim(digits, "0123456789.") != "" || strings.Count(digits, ".") > 1 {
		return 0, fmt.Errorf("%w: %q is not a real number", ErrValue, s)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%w: %q is not a real number", ErrValue, s)
	}
	return f, nil
}

// RealValue encodes f as an SGF Real with as few digits as it needs.
func RealValue(f float64) Value { return Value(strconv.FormatFloat(f, 'f', -1, 64)) }

// NumberValue encodes n as an SGF Number.
func NumberValue(n int) Value { return Value(strconv.Itoa(n)) }

// ColorValue encodes a player as an SGF Color: "B" or "W" (Empty gives "",
// which [Value.Color] refuses).
func ColorValue(c engine.Color) Value {
	switch c {
	case engine.Black:
		return "B"
	case engine.White:
		return "W"
	}
	return ""
}

// Color decodes v as an SGF Color, "B" or "W".
func (v Value) Color() (engine.Color, error) {
	switch v {
	case "B":
		return engine.Black, nil
	case "W":
		return engine.White, nil
	}
	return engine.Empty, fmt.Errorf("%w: %q is not a colour (B or W)", ErrValue, string(v))
}

// sgfLetters are the coordinates of SGF points: a–z then A–Z.
const sgfLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// coordinate returns the number of an SGF coordinate letter, or -1.
func coordinate(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a')
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 26
	}
	return -1
}

// PointValue encodes p as an SGF point on a board of side size: the column
// letter then the row letter, both from "a", rows counted from the top (so
// A1 on 9×9 is "ai"). Pass gives the empty value of FF[4]. p must be Pass
// or a point of the board; anything else gives "??", which [Value.Point]
// refuses.
func PointValue(size int, p engine.Point) Value {
	if p == engine.Pass {
		return ""
	}
	if size < 1 || size > len(sgfLetters) || p < 0 || int(p) >= size*size {
		return "??"
	}
	x, y := p.XY(size)
	return Value([]byte{sgfLetters[x], sgfLetters[size-1-y]})
}

// Point decodes v as a Go move on a board of side size: a point, or Pass
// for the empty value and, on boards up to 19×19, for "tt" (the pass of
// FF[3]).
func (v Value) Point(size int) (engine.Point, error) {
	if v == "" || (v == "tt" && size <= 19) {
		return engine.Pass, nil
	}
	return v.stone(size)
}

// stone decodes v as a point of the board, with no pass.
func (v Value) stone(size int) (engine.Point, error) {
	if len(v) == 2 {
		x, row := coordinate(v[0]), coordinate(v[1])
		if x >= 0 && row >= 0 && x < size && row < size {
			return engine.PointAt(size, x, size-1-row), nil
		}
	}
	return engine.NoPoint, fmt.Errorf("%w: %q is not a point of a %dx%d board", ErrValue, string(v), size, size)
}

// Points decodes v as an element of a list of points on a board of side
// size: a point, a rectangle "aa:cc" given by two opposite corners
// (expanded row by row from the top), or nothing for the empty value (an
// empty list). "tt" is not a pass here.
func (v Value) Points(size int) ([]engine.Point, error) {
	if v == "" {
		return nil, nil
	}
	first, second, composed := v.Compose()
	a, err := first.stone(size)
	if err != nil {
		return nil, err
	}
	if !composed {
		return []engine.Point{a}, nil
	}
	b, err := second.stone(size)
	if err != nil {
		return nil, err
	}
	ax, ay := a.XY(size)
	bx, by := b.XY(size)
	x0, x1 := min(ax, bx), max(ax, bx)
	y0, y1 := min(ay, by), max(ay, by)
	ps := make([]engine.Point, 0, (x1-x0+1)*(y1-y0+1))
	for y := y1; y >= y0; y-- {
		for x := x0; x <= x1; x++ {
			ps = append(ps, engine.PointAt(size, x, y))
		}
	}
	return ps, nil
}

// AddPoints appends the points ps to the property id of n, one value per
// point. With no points it adds the empty list, id[] (an SGF elist), unless
// n already holds id.
func (n *Node) AddPoints(id string, size int, ps ...engine.Point) {
	if len(ps) == 0 {
		if !n.Has(id) {
			n.Add(id, "")
		}
		return
	}
	vs := make([]Value, len(ps))
	for i, p := range ps {
		vs[i] = PointValue(size, p)
	}
	n.Add(id, vs...)
}

// Points decodes every value of the property id as a list of points (see
// [Value.Points]); a node without the property gives none.
func (n *Node) Points(id string, size int) ([]engine.Point, error) {
	var ps []engine.Point
	for _, v := range n.Values(id) {
		q, err := v.Points(size)
		if err != nil {
			return nil, fmt.Errorf("%w (in %s)", err, id)
		}
		ps = append(ps, q...)
	}
	return ps, nil
}

// Move is a Go move: a colour and a point or engine.Pass.
type Move struct {
	Color engine.Color
	Point engine.Point
}

// AddMove adds the move m to n as B[..] or W[..] on a board of side size.
// A colour other than Black and White adds nothing.
func (n *Node) AddMove(size int, m Move) {
	switch m.Color {
	case engine.Black:
		n.Add("B", PointValue(size, m.Point))
	case engine.White:
		n.Add("W", PointValue(size, m.Point))
	}
}

// Moves returns the moves of n: its B move, then its W move, each if
// present. A plain node holds at most one; an F-Go turn holds both.
func (n *Node) Moves(size int) ([]Move, error) {
	var ms []Move
	for _, c := range [2]engine.Color{engine.Black, engine.White} {
		id := string(ColorValue(c))
		vs := n.Values(id)
		if vs == nil {
			continue
		}
		if len(vs) != 1 {
			return nil, fmt.Errorf("%w: %s has %d values, a move has one", ErrValue, id, len(vs))
		}
		p, err := vs[0].Point(size)
		if err != nil {
			return nil, fmt.Errorf("%w (in %s)", err, id)
		}
		ms = append(ms, Move{Color: c, Point: p})
	}
	return ms, nil
}
