package sgf

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

type writeTest struct {
	Name   string
	Input  Collection
	Output string
	Err    error
}

var writeTests = []writeTest{
	{
		Name:   "a node per line",
		Input:  Collection{{Nodes: []Node{node("GM", "1", "SZ", "9"), node("B", "ee"), node("W", "")}}},
		Output: "(;GM[1]SZ[9]\n;B[ee]\n;W[])\n",
	},
	{
		Name: "variations start on a new line",
		Input: Collection{{
			Nodes:      []Node{node("SZ", "9")},
			Variations: []GameTree{{Nodes: []Node{node("B", "aa")}}, {Nodes: []Node{node("B", "bb")}, Variations: []GameTree{{Nodes: []Node{node("W", "cc")}}}}},
		}},
		Output: "(;SZ[9]\n(;B[aa])\n(;B[bb]\n(;W[cc])))\n",
	},
	{
		Name:   "several games",
		Input:  Collection{{Nodes: []Node{node("GN", "one")}}, {Nodes: []Node{node("GN", "two")}}},
		Output: "(;GN[one])\n(;GN[two])\n",
	},
	{
		Name:   "list values and escapes are written as they are",
		Input:  Collection{{Nodes: []Node{node("AB", "aa:cc", "AB", "dd", "C", `a\]b\\`)}}},
		Output: "(;AB[aa:cc][dd]C[a\\]b\\\\])\n",
	},
	{
		Name: "long nodes are broken between properties",
		Input: Collection{{Nodes: []Node{node(
			"PB", strings.Repeat("b", 30), "PW", strings.Repeat("w", 30), "EV", strings.Repeat("e", 30))}}},
		Output: "(;PB[" + strings.Repeat("b", 30) + "]PW[" + strings.Repeat("w", 30) + "]\nEV[" + strings.Repeat("e", 30) + "])\n",
	},
	{Name: "empty collection", Input: Collection{}, Err: ErrNoGameTree},
	{Name: "game tree without nodes", Input: Collection{{}}, Err: ErrEmptyGameTree},
	{Name: "variation without nodes", Input: Collection{{Nodes: []Node{{}}, Variations: []GameTree{{}}}}, Err: ErrEmptyGameTree},
	{Name: "lower-case identifier", Input: Collection{{Nodes: []Node{node("b", "aa")}}}, Err: ErrPropertyID},
	{Name: "empty identifier", Input: Collection{{Nodes: []Node{node("", "aa")}}}, Err: ErrPropertyID},
	{Name: "identifier twice in a node", Input: Collection{{Nodes: []Node{{Properties: []Property{{"C", []Value{"a"}}, {"C", []Value{"b"}}}}}}}, Err: ErrPropertyID},
	{Name: "property without a value", Input: Collection{{Nodes: []Node{{Properties: []Property{{ID: "KO"}}}}}}, Err: ErrNoValue},
	{Name: "unescaped bracket", Input: Collection{{Nodes: []Node{node("C", "a]b")}}}, Err: ErrValue},
	{Name: "unescaped backslash at the end", Input: Collection{{Nodes: []Node{node("C", `a\\\`)}}}, Err: ErrValue},
}

func TestWrite(t *testing.T) {
	for _, tt := range writeTests {
		t.Run(tt.Name, func(t *testing.T) {
			var buf bytes.Buffer
			err := Write(&buf, tt.Input)
			if tt.Err != nil {
				if !errors.Is(err, tt.Err) || !strings.HasPrefix(err.Error(), "sgf: ") {
					t.Fatalf("Write error = %v, want %v", err, tt.Err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if buf.String() != tt.Output {
				t.Fatalf("Write\n got  %q\n want %q", buf.String(), tt.Output)
			}
			back, err := Parse(buf.Bytes())
			if err != nil {
				t.Fatalf("output does not parse: %v", err)
			}
			if !reflect.DeepEqual(back, tt.Input) {
				t.Errorf("round trip\n got  %#v\n want %#v", back, tt.Input)
			}
		})
	}
}

// TestWriteEscapes checks that text built with the constructors reads back
// as the same text, whatever it holds.
func TestWriteEscapes(t *testing.T) {
	texts := []string{
		"plain", "", "a]b", `a\b`, `ends in \`, `\]`, "colon: here", "[brackets]", "two\nlines", "ünïcødé ☯",
	}
	for _, s := range texts {
		var n Node
		n.AddText("C", s)
		n.Add("LB", ComposeValue("aa", s))
		out, err := Format(Collection{{Nodes: []Node{n}}})
		if err != nil {
			t.Fatalf("Format(%q): %v", s, err)
		}
		c, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(%s): %v", out, err)
		}
		root := c[0].Root()
		if got := root.Text("C"); got != s {
			t.Errorf("C: wrote %q, read back %q (file %s)", s, got, out)
		}
		lb, _ := root.Get("LB")
		first, second, ok := lb.Compose()
		if !ok || first != "aa" || second.Text() != s {
			t.Errorf("LB: wrote aa:%q, read back %q:%q (%v)", s, first, second.Text(), ok)
		}
	}
}

func TestWriteIsStable(t *testing.T) {
	in := "(;GM[1]FF[4]C[multi\nline \\] comment]\n;B[aa]\n(;W[bb])\n(;W[cc]\n;B[dd]))\n"
	c, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Format(c)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Errorf("Format(Parse(x)) changed a file already in the writer's layout:\n got  %q\n want %q", out, in)
	}
}
