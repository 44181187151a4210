package gc_test

import (
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// The garbler garbles a one-gate circuit from its seed, the evaluator
// evaluates it on one label per input wire and decodes the output.
func Example() {
	and := &circuit.Circuit{
		NumWires: 3,
		Inputs:   [2][]circuit.Wire{{0}, {1}},
		Outputs:  []circuit.Wire{2},
		Gates:    []circuit.Gate{{Op: circuit.OpAND, A: 0, B: 1, Out: 2}},
	}
	var seed prg.Seed // in a game: the garbler's committed per-game seed
	delta, _ := gc.NewDelta(seed.Stream("gc/delta"))
	const try = 1
	garbled, keys, _ := gc.Garble(and, delta, seed.Stream("gc/labels", try), try)

	garblerInput, _ := keys.Encode(0, []bool{true})
	evaluatorInput, _ := keys.Encode(1, []bool{true}) // in a game: by OT
	out, _ := gc.Evaluate(and, garbled, [2][]gc.Label{garblerInput, evaluatorInput})
	bits, _ := gc.Decode(out, garbled.Decoding)
	fmt.Println(bits, len(garbled.Tables), "bytes of tables")

	// At the end of the game the seed is revealed and the garbling checked.
	fmt.Println(gc.CheckGarbling(and, delta, seed.Stream("gc/labels", try), try, garbled))
	// Output:
	// [true] 32 bytes of tables
	// <nil>
}
