package sgf_test

import (
	"errors"
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/sgf"
)

func ExampleParse() {
	c, err := sgf.Parse([]byte(`(;GM[1]SZ[9]C[Black's \] turn]AB[aa:bb];B[ee](;W[cc])(;W[tt]))`))
	if err != nil {
		fmt.Println(err)
		return
	}
	root := c[0].Root()
	fmt.Println(root.Text("C"))
	stones, _ := root.Points("AB", 9)
	fmt.Println(engine.FormatVertices(9, stones))
	for _, n := range c[0].MainLine()[1:] {
		ms, _ := n.Moves(9)
		fmt.Println(ms[0].Color, ms[0].Point.Vertex(9))
	}
	fmt.Println(len(c[0].Variations), "variations")
	// Output:
	// Black's ] turn
	// A9,B9,A8,B8
	// black E5
	// white C7
	// 2 variations
}

func ExampleParse_error() {
	_, err := sgf.Parse([]byte("(;GM[1]\n;B[aa]C[unclosed"))
	fmt.Println(err)
	var pe *sgf.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe.Line, pe.Column, errors.Is(err, sgf.ErrUnexpectedEOF))
	}
	// Output:
	// sgf: line 2, column 8: unexpected end of input: value not closed by "]"
	// 2 8 true
}

func ExampleFormat() {
	var root, move sgf.Node
	root.Add("GM", "1")
	root.Add("SZ", sgf.NumberValue(9))
	root.AddText("C", "a comment with ] and \\")
	move.AddMove(9, sgf.Move{Color: engine.Black, Point: engine.PointAt(9, 2, 2)})
	out, err := sgf.Format(sgf.Collection{{Nodes: []sgf.Node{root, move}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// (;GM[1]SZ[9]C[a comment with \] and \\]
	// ;B[cg])
}

func ExampleGoRecord_SGF() {
	d4, _ := engine.ParseVertex(9, "D4")
	f6, _ := engine.ParseVertex(9, "F6")
	r := sgf.GoRecord{
		Size: 9, Komi: 7.5, Black: "Alice", White: "Bob", Date: "2025-03-14", Version: "0.1.0",
		Result: engine.Result{Winner: engine.White, By: engine.ByResignation},
		Moves: []sgf.Move{
			{Color: engine.Black, Point: d4},
			{Color: engine.White, Point: f6},
			{Color: engine.Black, Point: engine.Pass},
		},
	}
	data, err := r.SGF()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(data))
	// Output:
	// (;GM[1]FF[4]CA[UTF-8]AP[kakure:0.1.0]SZ[9]KM[7.5]RU[Chinese]PB[Alice]PW[Bob]
	// RE[W+R]DT[2025-03-14]
	// ;B[df]
	// ;W[fd]
	// ;B[])
}

func ExampleParseGoRecord() {
	r, err := sgf.ParseGoRecord([]byte("(;FF[4]GM[1]SZ[5]KM[0.5]AB[bd]AW[ae];B[be];W[tt];B[ad])"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Size, r.Komi, engine.FormatVertices(5, r.Setup.Black), engine.FormatVertices(5, r.Setup.White))
	g, err := r.Replay()
	fmt.Println(err)
	fmt.Print(g.Board())

	r.Moves = append(r.Moves, sgf.Move{Color: engine.White, Point: engine.PointAt(5, 0, 0)})
	_, err = r.Replay()
	fmt.Println(err, errors.Is(err, engine.ErrSuicide))
	// Output:
	// 5 0.5 B2 A1
	// <nil>
	//     A B C D E
	//  5  . . . . .  5
	//  4  . . . . .  4
	//  3  . . . . .  3
	//  2  X X . . .  2
	//  1  . X . . .  1
	//     A B C D E
	// sgf: move 4: play white A1: engine: suicide true
}

func ExampleGameInfo_Root() {
	// A variant exporter starts its record with the shared root, then adds
	// its turns with the custom properties of docs/sgf.md.
	root, err := sgf.GameInfo{
		Options: engine.Options{Variant: engine.VariantPhantom, Size: 9, Rules: engine.RulesKriegspiel},
		Black:   "Alice", White: "Bob", Version: "0.1.0",
	}.Root()
	if err != nil {
		fmt.Println(err)
		return
	}
	e5, _ := engine.ParseVertex(9, "E5")
	d5, _ := engine.ParseVertex(9, "D5")
	var turn sgf.Node
	turn.AddMove(9, sgf.Move{Color: engine.White, Point: d5})
	turn.AddPoints(sgf.PropIllegalTry, 9, e5)
	turn.AddText(sgf.PropIllegalReason, sgf.ReasonOpponentStone)
	turn.AddText(sgf.PropAnnouncement, "Illegal move", "White has moved")
	out, _ := sgf.Format(sgf.Collection{{Nodes: []sgf.Node{root, turn}}})
	fmt.Print(string(out))
	// Output:
	// (;GM[1]FF[4]CA[UTF-8]AP[kakure:0.1.0]SZ[9]KM[7.5]RU[Chinese]PB[Alice]PW[Bob]
	// VA[phantom]VO[rules=kriegspiel]
	// ;W[de]XT[ee]XR[opponent-stone]AT[Illegal move][White has moved])
}

func ExampleValue_Text() {
	v := sgf.Value("first line \\\nstill first\nsecond \\] line")
	fmt.Printf("%q\n", v.Text())
	fmt.Printf("%q\n", v.SimpleText())
	// Output:
	// "first line still first\nsecond ] line"
	// "first line still first second ] line"
}
