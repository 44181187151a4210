package circuit_test

import (
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// A 2-bit comparison between the garbler's and the evaluator's numbers.
func ExampleBuilder() {
	b := circuit.NewBuilder()
	x := b.Inputs(circuit.Garbler, 2)
	y := b.Inputs(circuit.Evaluator, 2)
	b.Outputs(b.Equal(x, y), b.LessConst(x, 3))
	c := b.Build()
	out, _ := c.Eval([]bool{true, false}, []bool{true, false}) // x = 1, y = 1
	fmt.Println(out, c.ANDCount())
	// Output: [true true] 2
}

// One try through the referee circuit in the clear, the way two programs
// would run it garbled: each gives its inputs, the evaluator decodes the
// outputs and forwards to the garbler those VisibleOutputs(Garbler) lists.
func ExampleRefereeCircuit() {
	l, c, err := circuit.RefereeCircuit(5, engine.RulesCommon, circuit.Evaluator)
	if err != nil {
		panic(err)
	}
	// A game starts with two empty shares. The garbler's mask bits must be
	// fresh random bits from its committed seed; zeros keep the example
	// short.
	garblerShare, evaluatorShare := circuit.EmptyRefereeState(5), circuit.EmptyRefereeState(5)
	mask := make([]bool, l.MaskBits())
	try, _ := engine.ParseVertex(5, "C3")
	in0, _ := l.Inputs(circuit.Garbler, engine.Black, garblerShare, engine.NoPoint, mask)
	in1, _ := l.Inputs(circuit.Evaluator, engine.Black, evaluatorShare, try, nil)
	out, _ := c.Eval(in0, in1)

	toBlack, _ := l.Announcement(circuit.Evaluator, engine.Black, try, out, nil)
	toWhite, _ := l.Announcement(circuit.Garbler, engine.Black, engine.NoPoint, out, mask)
	fmt.Println(toBlack.KeyValues())
	fmt.Println(toWhite.KeyValues())

	g, _ := l.NextShare(circuit.Garbler, engine.Black, nil, mask)
	e, _ := l.NextShare(circuit.Evaluator, engine.Black, out, nil)
	state, _ := g.Xor(e)
	board, _ := state.Board()
	fmt.Print(board.String())
	// Output:
	// event=moved mover=black point=C3 capture-count=0 captured=- atari-opponent=0 atari-self=0
	// event=moved mover=black capture-count=0 captured=- atari-opponent=0 atari-self=0
	//     A B C D E
	//  5  . . . . .  5
	//  4  . . . . .  4
	//  3  . . X . .  3
	//  2  . . . . .  2
	//  1  . . . . .  1
	//     A B C D E
}
