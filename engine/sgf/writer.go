package sgf

import (
	"bytes"
	"fmt"
	"io"
)

// lineWidth is the length after which the writer starts a new line between
// two properties of a node.
const lineWidth = 79

// Write writes c to w as SGF text. See [Format].
func Write(w io.Writer, c Collection) error {
	out, err := Format(c)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// Format returns c as SGF text: each node on its own line (a line is
// broken between two properties when it grows past 79 bytes), each
// variation starting on a new line, and a line break after each game tree.
// Properties and values are written as they are, unknown ones included.
//
// Format refuses what it could not read back as the same tree: an empty
// collection (ErrNoGameTree), a game tree without a node
// (ErrEmptyGameTree), an identifier that is not upper-case letters or that
// appears twice in a node (ErrPropertyID), a property without a value
// (ErrNoValue), a value with an unescaped "]" or ending in an unescaped
// "\" (ErrValue), nesting deeper than [MaxDepth] (ErrTooDeep).
func Format(c Collection) ([]byte, error) {
	if len(c) == 0 {
		return nil, ErrNoGameTree
	}
	w := writer{}
	for i := range c {
		if err := w.tree(&c[i], 1); err != nil {
			return nil, fmt.Errorf("%w (game %d)", err, i+1)
		}
		w.buf.WriteByte('\n')
		w.col = 0
	}
	return w.buf.Bytes(), nil
}

// writer prints a collection and tracks the column for line breaks.
type writer struct {
	buf bytes.Buffer
	col int
}

// write appends b and updates the column.
func (w *writer) write(b []byte) {
	w.buf.Write(b)
	if i := bytes.LastIndexAny(b, "\n\r"); i >= 0 {
		w.col = len(b) - i - 1
	} else {
		w.col += len(b)
	}
}

func (w *writer) newline() {
	w.buf.WriteByte('\n')
	w.col = 0
}

func (w *writer) tree(t *GameTree, depth int) error {
	if depth > MaxDepth {
		return fmt.Errorf("%w: more than %d levels", ErrTooDeep, MaxDepth)
	}
	if len(t.Nodes) == 0 {
		return ErrEmptyGameTree
	}
	w.write([]byte{'('})
	for i := range t.Nodes {
		if i > 0 {
			w.newline()
		}
		if err := w.node(&t.Nodes[i]); err != nil {
			return err
		}
	}
	for i := range t.Variations {
		w.newline()
		if err := w.tree(&t.Variations[i], depth+1); err != nil {
			return err
		}
	}
	w.write([]byte{')'})
	return nil
}

func (w *writer) node(n *Node) error {
	w.write([]byte{';'})
	start := w.col
	var prop []byte
	for i, p := range n.Properties {
		if !validPropertyID(p.ID) {
			return fmt.Errorf("%w: %q", ErrPropertyID, p.ID)
		}
		for _, q := range n.Properties[:i] {
			if q.ID == p.ID {
				return fmt.Errorf("%w: %s appears twice in a node", ErrPropertyID, p.ID)
			}
		}
		if len(p.Values) == 0 {
			return fmt.Errorf("%w: %s", ErrNoValue, p.ID)
		}
		prop = append(prop[:0], p.ID...)
		for _, v := range p.Values {
			if err := checkValue(v); err != nil {
				return fmt.Errorf("%w in %s[%s]", err, p.ID, v)
			}
			prop = append(prop, '[')
			prop = append(prop, v...)
			prop = append(prop, ']')
		}
		if w.col > start && w.col+len(prop) > lineWidth {
			w.newline()
		}
		w.write(prop)
	}
	return nil
}

// checkValue reports a value that would not read back as itself: one with
// an unescaped "]" or an unescaped "\" at its end.
func checkValue(v Value) error {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			if i+1 == len(v) {
				return fmt.Errorf("%w: unescaped \"\\\" at the end", ErrValue)
			}
			i++
		case ']':
			return fmt.Errorf("%w: unescaped \"]\"", ErrValue)
		}
	}
	return nil
}
