// Package circuit describes boolean circuits for the two-party secure
// computation: XOR, AND and INV gates over numbered wires.
//
// This file is a minimal copy kept on the garble branch so that the gc and
// ot packages compile; the circuit branch holds the full package.
package circuit

import (
	"errors"
	"fmt"
)

// Wire is the index of a wire, in [0, Circuit.NumWires).
type Wire uint32

// Op is a gate's operation.
type Op uint8

// The gate operations.
const (
	OpXOR Op = iota // Out = A XOR B
	OpAND           // Out = A AND B
	OpINV           // Out = NOT A; B unused
)

// Gate is one gate: Out = Op(A, B).
type Gate struct {
	Op   Op
	A, B Wire
	Out  Wire
}

// Circuit is a boolean circuit with two parties' inputs.
type Circuit struct {
	NumWires int
	Inputs   [2][]Wire // [0] garbler's input wires, [1] evaluator's
	Outputs  []Wire
	Gates    []Gate // topological order; each wire written once
}

// Errors of Eval (unexported: the circuit branch owns the package's API).
var (
	errInput     = errors.New("circuit: wrong number of input bits")
	errMalformed = errors.New("circuit: malformed circuit")
)

// Eval evaluates the circuit in the clear on the two parties' inputs.
func (c *Circuit) Eval(in0, in1 []bool) ([]bool, error) {
	if len(in0) != len(c.Inputs[0]) || len(in1) != len(c.Inputs[1]) {
		return nil, fmt.Errorf("%w: got %d and %d, want %d and %d",
			errInput, len(in0), len(in1), len(c.Inputs[0]), len(c.Inputs[1]))
	}
	w := make([]bool, c.NumWires)
	in := [2][]bool{in0, in1}
	for p := range 2 {
		for i, x := range c.Inputs[p] {
			if int(x) >= c.NumWires {
				return nil, fmt.Errorf("%w: input wire %d out of range", errMalformed, x)
			}
			w[x] = in[p][i]
		}
	}
	for i, g := range c.Gates {
		if int(g.A) >= c.NumWires || int(g.B) >= c.NumWires || int(g.Out) >= c.NumWires {
			return nil, fmt.Errorf("%w: gate %d wire out of range", errMalformed, i)
		}
		switch g.Op {
		case OpXOR:
			w[g.Out] = w[g.A] != w[g.B]
		case OpAND:
			w[g.Out] = w[g.A] && w[g.B]
		case OpINV:
			w[g.Out] = !w[g.A]
		default:
			return nil, fmt.Errorf("%w: gate %d has op %d", errMalformed, i, g.Op)
		}
	}
	out := make([]bool, len(c.Outputs))
	for i, x := range c.Outputs {
		if int(x) >= c.NumWires {
			return nil, fmt.Errorf("%w: output wire %d out of range", errMalformed, x)
		}
		out[i] = w[x]
	}
	return out, nil
}
