package sgf

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// Read reads a whole SGF collection from r. See [Parse].
func Read(r io.Reader) (Collection, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("sgf: read: %w", err)
	}
	return Parse(data)
}

// Parse reads an SGF collection: one or more game trees.
//
// Text before the first "(;" is skipped, as FF[4] asks (mail headers, a
// byte-order mark); after the last game tree only white space may follow.
// White space may stand between any two tokens, also between a property
// identifier and its first value. A property repeated in a node has its
// values merged into the first occurrence (decision SGF-D2). Values are kept
// as written (see [Value]); only their end is found here.
//
// Every error is a [*ParseError] that wraps one of ErrNoGameTree,
// ErrUnexpectedEOF, ErrSyntax, ErrPropertyID, ErrNoValue, ErrEmptyGameTree
// or ErrTooDeep.
func Parse(data []byte) (Collection, error) {
	p := parser{data: data}
	start := p.findStart()
	if start < 0 {
		return nil, p.errorAt(0, ErrNoGameTree, "no \"(;\" in the input")
	}
	p.pos = start
	var c Collection
	for {
		p.skipSpace()
		if p.pos == len(p.data) {
			return c, nil
		}
		if p.data[p.pos] != '(' {
			return nil, p.errorAt(p.pos, ErrSyntax, "unexpected %s after the last game tree", p.describe(p.pos))
		}
		t, err := p.tree(1)
		if err != nil {
			return nil, err
		}
		c = append(c, t)
	}
}

// parser reads data from pos on.
type parser struct {
	data []byte
	pos  int
}

// isSpace reports whether c is white space between tokens.
func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) && isSpace(p.data[p.pos]) {
		p.pos++
	}
}

// findStart returns the offset of the first "(" followed by white space
// and ";", or -1.
func (p *parser) findStart() int {
	for i := 0; i < len(p.data); i++ {
		if p.data[i] != '(' {
			continue
		}
		j := i + 1
		for j < len(p.data) && isSpace(p.data[j]) {
			j++
		}
		if j < len(p.data) && p.data[j] == ';' {
			return i
		}
	}
	return -1
}

// tree reads a game tree whose "(" is at pos, nested at depth.
func (p *parser) tree(depth int) (GameTree, error) {
	open := p.pos
	if depth > MaxDepth {
		return GameTree{}, p.errorAt(open, ErrTooDeep, "more than %d levels", MaxDepth)
	}
	p.pos++
	var t GameTree
	for {
		p.skipSpace()
		if p.pos == len(p.data) {
			return GameTree{}, p.errorAt(open, ErrUnexpectedEOF, "game tree not closed by \")\"")
		}
		c := p.data[p.pos]
		switch {
		case c == ';' && len(t.Variations) > 0:
			return GameTree{}, p.errorAt(p.pos, ErrSyntax, "node after a variation (nodes come before the variations of a game tree)")
		case c == ';':
			n, err := p.node()
			if err != nil {
				return GameTree{}, err
			}
			t.Nodes = append(t.Nodes, n)
		case len(t.Nodes) == 0 && (c == '(' || c == ')'):
			return GameTree{}, p.errorAt(p.pos, ErrEmptyGameTree, "%s where the first node (\";\") should be", p.describe(p.pos))
		case c == '(':
			v, err := p.tree(depth + 1)
			if err != nil {
				return GameTree{}, err
			}
			t.Variations = append(t.Variations, v)
		case c == ')':
			p.pos++
			return t, nil
		case c >= 'a' && c <= 'z':
			return GameTree{}, p.errorAt(p.pos, ErrPropertyID, "property identifiers are upper-case letters, found %s", p.describe(p.pos))
		default:
			return GameTree{}, p.errorAt(p.pos, ErrSyntax, "unexpected %s", p.describe(p.pos))
		}
	}
}

// node reads a node whose ";" is at pos. It stops before the first byte
// that does not begin a property.
func (p *parser) node() (Node, error) {
	p.pos++
	var n Node
	for {
		p.skipSpace()
		if p.pos == len(p.data) {
			return n, nil
		}
		c := p.data[p.pos]
		if c < 'A' || c > 'Z' {
			return n, nil
		}
		start := p.pos
		for p.pos < len(p.data) && isLetter(p.data[p.pos]) {
			p.pos++
		}
		id := string(p.data[start:p.pos])
		if !validPropertyID(id) {
			return n, p.errorAt(start, ErrPropertyID, "%q: identifiers are upper-case letters only", id)
		}
		p.skipSpace()
		if p.pos == len(p.data) || p.data[p.pos] != '[' {
			if p.pos == len(p.data) {
				return n, p.errorAt(start, ErrUnexpectedEOF, "property %s without a value", id)
			}
			return n, p.errorAt(p.pos, ErrNoValue, "property %s is followed by %s, not by \"[\"", id, p.describe(p.pos))
		}
		var vs []Value
		for p.pos < len(p.data) && p.data[p.pos] == '[' {
			v, err := p.value()
			if err != nil {
				return n, err
			}
			vs = append(vs, v)
			p.skipSpace()
		}
		n.Add(id, vs...)
	}
}

func isLetter(c byte) bool { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') }

// value reads a value whose "[" is at pos, and returns it as written.
func (p *parser) value() (Value, error) {
	open := p.pos
	for i := open + 1; i < len(p.data); i++ {
		switch p.data[i] {
		case '\\':
			i++
		case ']':
			p.pos = i + 1
			return Value(p.data[open+1 : i]), nil
		}
	}
	return "", p.errorAt(open, ErrUnexpectedEOF, "value not closed by \"]\"")
}

// describe names the character at offset for an error message.
func (p *parser) describe(offset int) string {
	r, _ := utf8.DecodeRune(p.data[offset:])
	return fmt.Sprintf("%q", r)
}

// errorAt returns a ParseError at offset whose reason wraps sentinel.
func (p *parser) errorAt(offset int, sentinel error, format string, args ...any) error {
	line, col := 1, 1
	for i := 0; i < offset && i < len(p.data); i++ {
		switch {
		case p.data[i] == '\n', p.data[i] == '\r' && (i+1 >= len(p.data) || p.data[i+1] != '\n'):
			line++
			col = 1
		default:
			col++
		}
	}
	return &ParseError{Line: line, Column: col, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}
