// Package sgf reads and writes game records in the Smart Game Format,
// FF[4] (https://www.red-bean.com/sgf/).
//
// The package has two layers. The generic layer is the SGF tree itself: a
// [Collection] of [GameTree] values, each a sequence of [Node] values and
// its variations, each node an ordered list of [Property] values with one or
// more [Value]s. [Parse] and [Read] build it, [Format] and [Write] print it;
// properties the package does not know are kept as they are, so a record
// survives a round trip whatever it holds.
//
// The game layer turns kakure's games into records: [GoRecord] is a game of
// plain Go that GNU Go and other SGF programs can load, and [GameInfo] with
// the custom properties of variant.go lets each hidden-information variant
// write its own record. docs/sgf.md lists the custom properties.
//
// Values are kept as they are written between the brackets, escapes
// included; [Value.Text], [Value.SimpleText], [Value.Point] and the other
// methods decode them, and [TextValue], [PointValue] and the other
// constructors encode them.
package sgf

import (
	"errors"
	"fmt"
	"strings"
)

// Reasons an SGF text or tree is refused. Reading errors come wrapped in a
// [*ParseError] that gives the position; test for them with errors.Is.
var (
	// ErrNoGameTree: the input holds no game tree ("(;"), or a collection
	// to write is empty.
	ErrNoGameTree = errors.New("sgf: no game tree")
	// ErrUnexpectedEOF: the input ended inside a game tree or a value.
	ErrUnexpectedEOF = errors.New("sgf: unexpected end of input")
	// ErrSyntax: a character that cannot stand where it is.
	ErrSyntax = errors.New("sgf: syntax error")
	// ErrPropertyID: a property identifier that is not one or more
	// upper-case ASCII letters.
	ErrPropertyID = errors.New("sgf: bad property identifier")
	// ErrNoValue: a property without a value.
	ErrNoValue = errors.New("sgf: property without a value")
	// ErrEmptyGameTree: a game tree without a node.
	ErrEmptyGameTree = errors.New("sgf: game tree without a node")
	// ErrTooDeep: variations nested deeper than [MaxDepth].
	ErrTooDeep = errors.New("sgf: variations nested too deeply")
	// ErrValue: a value that does not have the syntax its property needs
	// (an unescaped "]" when writing, a bad point, a bad number, a board
	// size kakure does not play).
	ErrValue = errors.New("sgf: bad value")
	// ErrNotPlainGo: a record read as plain Go holds something plain Go
	// has not (another game, a variant, kakure's custom properties, a node
	// with both B and W).
	ErrNotPlainGo = errors.New("sgf: not a plain Go record")
)

// MaxDepth is how deeply variations may nest, counting the game tree
// itself as depth 1. It bounds the recursion of the reader and the writer.
const MaxDepth = 10000

// ParseError is a reading error with its position in the input.
type ParseError struct {
	// Line and Column are 1-based; Column counts bytes from the start of
	// the line.
	Line, Column int
	// Err is the reason: one of the sentinel errors of the package,
	// possibly wrapped with details.
	Err error
}

// Error returns "sgf: line L, column C: reason".
func (e *ParseError) Error() string {
	return fmt.Sprintf("sgf: line %d, column %d: %s", e.Line, e.Column, strings.TrimPrefix(e.Err.Error(), "sgf: "))
}

// Unwrap returns the reason, so that errors.Is finds the sentinel.
func (e *ParseError) Unwrap() error { return e.Err }

// Collection is the content of an SGF file: one or more game trees, usually
// one game each.
type Collection []GameTree

// GameTree is a sequence of nodes followed by the variations that branch
// from its last node. The first variation continues the main line.
type GameTree struct {
	Nodes      []Node
	Variations []GameTree
}

// Root returns the first node of the tree, which holds the game
// information, or nil if the tree has no node.
func (t *GameTree) Root() *Node {
	if len(t.Nodes) == 0 {
		return nil
	}
	return &t.Nodes[0]
}

// MainLine returns the nodes of the main line: the tree's own nodes, then
// those of its first variation, and so on. The nodes are copied, their
// properties are not.
func (t *GameTree) MainLine() []Node {
	var line []Node
	for cur := t; ; cur = &cur.Variations[0] {
		line = append(line, cur.Nodes...)
		if len(cur.Variations) == 0 {
			return line
		}
	}
}

// Node is one node of a game tree: a move, a setup, a turn of a variant.
// Its properties keep their order; an identifier appears at most once (the
// reader merges repeated ones, [Node.Add] appends to an existing one).
type Node struct {
	Properties []Property
}

// Property is an identifier such as "B" or "AB" with its values.
type Property struct {
	ID     string
	Values []Value
}

// index returns the position of the property id in n, or -1.
func (n *Node) index(id string) int {
	for i := range n.Properties {
		if n.Properties[i].ID == id {
			return i
		}
	}
	return -1
}

// Has reports whether n holds the property id.
func (n *Node) Has(id string) bool { return n.index(id) >= 0 }

// Values returns the values of the property id, or nil if n does not hold
// it. The slice is the node's own.
func (n *Node) Values(id string) []Value {
	if i := n.index(id); i >= 0 {
		return n.Properties[i].Values
	}
	return nil
}

// Get returns the first value of the property id, and whether n holds it.
func (n *Node) Get(id string) (Value, bool) {
	vs := n.Values(id)
	if len(vs) == 0 {
		return "", false
	}
	return vs[0], true
}

// Text returns the first value of the property id decoded as Text (see
// [Value.Text]), or "" if n does not hold it.
func (n *Node) Text(id string) string {
	v, _ := n.Get(id)
	return v.Text()
}

// SimpleText returns the first value of the property id decoded as
// SimpleText (see [Value.SimpleText]), or "" if n does not hold it.
func (n *Node) SimpleText(id string) string {
	v, _ := n.Get(id)
	return v.SimpleText()
}

// Add appends values to the property id, creating it at the end of the
// node if n does not hold it yet. Without values it does nothing: a
// property of type none (KO, HU, FV) has the single empty value,
// Add(id, "").
func (n *Node) Add(id string, vs ...Value) {
	if len(vs) == 0 {
		return
	}
	if i := n.index(id); i >= 0 {
		p := &n.Properties[i]
		p.Values = append(p.Values[:len(p.Values):len(p.Values)], vs...)
		return
	}
	n.Properties = append(n.Properties, Property{ID: id, Values: append([]Value(nil), vs...)})
}

// Set gives the property id exactly the values vs, keeping its place if n
// already holds it and adding it at the end otherwise. Without values it
// removes the property.
func (n *Node) Set(id string, vs ...Value) {
	if len(vs) == 0 {
		n.Remove(id)
		return
	}
	if i := n.index(id); i >= 0 {
		n.Properties[i].Values = append([]Value(nil), vs...)
		return
	}
	n.Add(id, vs...)
}

// Remove deletes the property id from n and reports whether it was there.
func (n *Node) Remove(id string) bool {
	i := n.index(id)
	if i < 0 {
		return false
	}
	n.Properties = append(n.Properties[:i:i], n.Properties[i+1:]...)
	return true
}

// AddText appends texts to the property id, escaped as SGF Text.
func (n *Node) AddText(id string, texts ...string) {
	vs := make([]Value, len(texts))
	for i, s := range texts {
		vs[i] = TextValue(s)
	}
	n.Add(id, vs...)
}

// validPropertyID reports whether id is one or more upper-case ASCII
// letters, as FF[4] requires.
func validPropertyID(id string) bool {
	if id == "" {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 'A' || id[i] > 'Z' {
			return false
		}
	}
	return true
}
