package sgf

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// node builds a node from id, value, id, value ... pairs; a value list
// is given as several pairs with the same id.
func node(pairs ...string) Node {
	var n Node
	for i := 0; i+1 < len(pairs); i += 2 {
		n.Add(pairs[i], Value(pairs[i+1]))
	}
	return n
}

type readTest struct {
	Name  string
	Input string
	// Output is the expected collection, if Err is nil.
	Output Collection
	// Err is the expected sentinel; Line and Column its position.
	Err          error
	Line, Column int
}

var readTests = []readTest{
	{
		Name:   "one node",
		Input:  "(;FF[4])",
		Output: Collection{{Nodes: []Node{node("FF", "4")}}},
	},
	{
		Name:  "sequence and variations",
		Input: "(;SZ[9];B[ee](;W[cc];B[dd])(;W[gg]))",
		Output: Collection{{
			Nodes: []Node{node("SZ", "9"), node("B", "ee")},
			Variations: []GameTree{
				{Nodes: []Node{node("W", "cc"), node("B", "dd")}},
				{Nodes: []Node{node("W", "gg")}},
			},
		}},
	},
	{
		Name:   "white space between all tokens",
		Input:  " \t(\n ; SZ [9] \r\n AB [aa]\n\t[bb] ; B\n[cc] \n) \n",
		Output: Collection{{Nodes: []Node{node("SZ", "9", "AB", "aa", "AB", "bb"), node("B", "cc")}}},
	},
	{
		Name:   "text before the first game tree is skipped",
		Input:  "\xef\xbb\xbfFrom: someone (a mail header)\n(;GM[1])",
		Output: Collection{{Nodes: []Node{node("GM", "1")}}},
	},
	{
		Name:   "several games",
		Input:  "(;GN[one])\n(;GN[two])",
		Output: Collection{{Nodes: []Node{node("GN", "one")}}, {Nodes: []Node{node("GN", "two")}}},
	},
	{
		Name:   "escaped bracket and backslash are kept as written",
		Input:  `(;C[a \] b \\ c])`,
		Output: Collection{{Nodes: []Node{node("C", `a \] b \\ c`)}}},
	},
	{
		Name:   "escaped backslash before the closing bracket",
		Input:  `(;C[dir\\]GN[x])`,
		Output: Collection{{Nodes: []Node{node("C", `dir\\`, "GN", "x")}}},
	},
	{
		Name:   "soft line break and brackets inside a value",
		Input:  "(;C[one\\\ntwo [three]\n)",
		Output: Collection{{Nodes: []Node{node("C", "one\\\ntwo [three")}}},
	},
	{
		Name:   "compressed point list and empty values",
		Input:  "(;AB[aa:cc][ee]TB[];B[])",
		Output: Collection{{Nodes: []Node{node("AB", "aa:cc", "AB", "ee", "TB", ""), node("B", "")}}},
	},
	{
		Name:   "repeated property is merged into the first (SGF-D2)",
		Input:  "(;AB[aa]C[x]AB[bb])",
		Output: Collection{{Nodes: []Node{node("AB", "aa", "AB", "bb", "C", "x")}}},
	},
	{
		Name:   "unknown and long identifiers are kept",
		Input:  "(;MULTIGOGM[1]XT[cd]AT[Black has moved])",
		Output: Collection{{Nodes: []Node{node("MULTIGOGM", "1", "XT", "cd", "AT", "Black has moved")}}},
	},
	{
		Name:   "empty node",
		Input:  "(;;B[aa])",
		Output: Collection{{Nodes: []Node{{}, node("B", "aa")}}},
	},
	{Name: "empty input", Input: "", Err: ErrNoGameTree, Line: 1, Column: 1},
	{Name: "no game tree", Input: "hello (world)", Err: ErrNoGameTree, Line: 1, Column: 1},
	{Name: "unclosed value", Input: "(;C[abc\n", Err: ErrUnexpectedEOF, Line: 1, Column: 4},
	{Name: "value closed by an escaped bracket only", Input: `(;C[abc\])`, Err: ErrUnexpectedEOF, Line: 1, Column: 4},
	{Name: "unclosed game tree", Input: "(;B[aa]\n;W[bb]", Err: ErrUnexpectedEOF, Line: 1, Column: 1},
	{Name: "unclosed variation", Input: "(;B[aa]\n  (;W[bb])\n  (;W[cc]", Err: ErrUnexpectedEOF, Line: 3, Column: 3},
	{Name: "identifier at end of input", Input: "(;B[aa]C", Err: ErrUnexpectedEOF, Line: 1, Column: 8},
	{Name: "identifier without value", Input: "(;B[aa]\nC;W[bb])", Err: ErrNoValue, Line: 2, Column: 2},
	{Name: "lower-case identifier", Input: "(;b[aa])", Err: ErrPropertyID, Line: 1, Column: 3},
	{Name: "mixed-case identifier", Input: "(;\r\nAddBlack[aa])", Err: ErrPropertyID, Line: 2, Column: 1},
	{Name: "empty game tree", Input: "(;B[aa]())", Err: ErrEmptyGameTree, Line: 1, Column: 9},
	{Name: "variation before any node", Input: "(;GM[1])\n((;B[aa]))", Err: ErrEmptyGameTree, Line: 2, Column: 2},
	{Name: "node after a variation", Input: "(;B[aa](;W[bb]);W[cc])", Err: ErrSyntax, Line: 1, Column: 16},
	{Name: "stray character in a node", Input: "(;B[aa] 1 )", Err: ErrSyntax, Line: 1, Column: 9},
	{Name: "trailing text after the last tree", Input: "(;B[aa])\n)", Err: ErrSyntax, Line: 2, Column: 1},
	{Name: "position after a CR line break", Input: "(;C[x]\r\r  ?)", Err: ErrSyntax, Line: 3, Column: 3},
}

func TestRead(t *testing.T) {
	for _, tt := range readTests {
		t.Run(tt.Name, func(t *testing.T) {
			got, err := Parse([]byte(tt.Input))
			if tt.Err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) || !errors.Is(err, tt.Err) {
					t.Fatalf("Parse(%q) error = %v, want a *ParseError wrapping %v", tt.Input, err, tt.Err)
				}
				if pe.Line != tt.Line || pe.Column != tt.Column {
					t.Errorf("Parse(%q) error at %d:%d, want %d:%d (%v)", tt.Input, pe.Line, pe.Column, tt.Line, tt.Column, err)
				}
				if !strings.HasPrefix(err.Error(), "sgf: line ") || strings.Count(err.Error(), "sgf:") != 1 {
					t.Errorf("error message %q should start with \"sgf: line\" and name the package once", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.Input, err)
			}
			if !reflect.DeepEqual(got, tt.Output) {
				t.Errorf("Parse(%q)\n got  %#v\n want %#v", tt.Input, got, tt.Output)
			}
		})
	}
}

func TestReadFromReader(t *testing.T) {
	c, err := Read(iotest.OneByteReader(strings.NewReader("(;B[aa];W[bb])")))
	if err != nil {
		t.Fatal(err)
	}
	if len(c) != 1 || len(c[0].Nodes) != 2 {
		t.Fatalf("Read gave %#v", c)
	}
	if _, err := Read(iotest.ErrReader(errors.New("disk on fire"))); err == nil || !strings.HasPrefix(err.Error(), "sgf: ") {
		t.Errorf("Read of a failing reader: error %v, want one starting with sgf:", err)
	}
}

func TestReadTooDeep(t *testing.T) {
	ok := strings.Repeat("(;", MaxDepth) + strings.Repeat(")", MaxDepth)
	if _, err := Parse([]byte(ok)); err != nil {
		t.Fatalf("nesting of exactly MaxDepth refused: %v", err)
	}
	deep := strings.Repeat("(;", MaxDepth+1) + strings.Repeat(")", MaxDepth+1)
	_, err := Parse([]byte(deep))
	var pe *ParseError
	if !errors.Is(err, ErrTooDeep) || !errors.As(err, &pe) || pe.Column != 2*MaxDepth+1 {
		t.Fatalf("nesting of MaxDepth+1: error %v, want ErrTooDeep at column %d", err, 2*MaxDepth+1)
	}
}

func TestParseErrorMessage(t *testing.T) {
	_, err := Parse([]byte("(;B[aa]\n  ?)"))
	want := `sgf: line 2, column 3: syntax error: unexpected '?'`
	if err == nil || err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}
