package circuit

import (
	"errors"
	"fmt"
)

// Wire names one bit of a circuit: an input bit or the output of one gate.
type Wire uint32

// Op is the operation of a gate.
type Op uint8

// The gate operations. XOR and INV are free under free-XOR garbling; AND
// costs two ciphertexts under half-gates.
const (
	// OpXOR: Out = A XOR B.
	OpXOR Op = iota
	// OpAND: Out = A AND B.
	OpAND
	// OpINV: Out = NOT A; B is unused (zero).
	OpINV
)

// String returns "XOR", "AND" or "INV".
func (o Op) String() string {
	switch o {
	case OpXOR:
		return "XOR"
	case OpAND:
		return "AND"
	case OpINV:
		return "INV"
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// Party is one of the two parties of a two-party computation. Its value is
// the index of its inputs in [Circuit.Inputs].
type Party int

// The two parties of a garbled circuit.
const (
	// Garbler garbles the circuit; its inputs are Inputs[0].
	Garbler Party = 0
	// Evaluator evaluates the garbled circuit; its inputs are Inputs[1],
	// obtained by oblivious transfer.
	Evaluator Party = 1
)

// String returns "garbler" or "evaluator".
func (p Party) String() string {
	switch p {
	case Garbler:
		return "garbler"
	case Evaluator:
		return "evaluator"
	}
	return fmt.Sprintf("Party(%d)", int(p))
}

// Other returns the other party.
func (p Party) Other() Party { return 1 - p }

// Gate is one boolean gate: Out = A Op B, or Out = NOT A for OpINV (B is
// then unused and zero). A and B may be the same wire.
type Gate struct {
	Op        Op
	A, B, Out Wire
}

// Circuit is a boolean circuit of XOR, AND and INV gates between two
// parties.
//
//   - Wires are numbered 0 to NumWires-1. Every wire is written exactly
//     once: either it is an input wire or it is the Out of exactly one gate.
//   - Inputs[0] are the garbler's input wires and Inputs[1] the evaluator's,
//     in the order of the input bit vectors given to [Circuit.Eval].
//   - Gates are in topological order: a gate reads only input wires and
//     outputs of earlier gates.
//   - Outputs lists the output wires in order; a wire may appear several
//     times, and an input wire may be an output.
//   - There are no constant wires. A constant that must be an output is
//     computed from the first input wire w as XOR(w, w) (and INV of that),
//     so a garbler sees a gate whose two inputs are the same wire.
//
// Circuits made by [Builder.Build] have more structure, which a garbler may
// rely on: the garbler's inputs are wires 0 to len(Inputs[0])-1, the
// evaluator's inputs follow, and gate i writes wire
// len(Inputs[0])+len(Inputs[1])+i, so NumWires is the number of inputs
// plus the number of gates. [Circuit.Validate] checks the general rules.
type Circuit struct {
	NumWires int
	// Inputs[0] are the garbler's input wires, Inputs[1] the evaluator's, in
	// order.
	Inputs  [2][]Wire
	Outputs []Wire
	// Gates are in topological order; every wire is written once.
	Gates []Gate
}

// ErrBadCircuit reports a circuit that breaks the rules of [Circuit].
var ErrBadCircuit = errors.New("circuit: bad circuit")

// ErrInputLength reports input bit vectors of the wrong length.
var ErrInputLength = errors.New("circuit: wrong number of input bits")

// Validate returns nil if c follows the rules of [Circuit], or an error
// wrapping ErrBadCircuit that names the first broken rule.
func (c *Circuit) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadCircuit, fmt.Sprintf(format, args...))
	}
	if c.NumWires < 0 {
		return bad("%d wires", c.NumWires)
	}
	written := make([]bool, c.NumWires)
	for party, ws := range c.Inputs {
		for i, w := range ws {
			if int(w) >= c.NumWires {
				return bad("input %d of %v is wire %d of %d", i, Party(party), w, c.NumWires)
			}
			if written[w] {
				return bad("input %d of %v: wire %d is already an input", i, Party(party), w)
			}
			written[w] = true
		}
	}
	for i, g := range c.Gates {
		if int(g.A) >= c.NumWires || int(g.B) >= c.NumWires || int(g.Out) >= c.NumWires {
			return bad("gate %d (%v %d %d -> %d) uses a wire beyond %d", i, g.Op, g.A, g.B, g.Out, c.NumWires)
		}
		switch g.Op {
		case OpXOR, OpAND:
			if !written[g.A] || !written[g.B] {
				return bad("gate %d (%v %d %d -> %d) reads a wire not yet written", i, g.Op, g.A, g.B, g.Out)
			}
		case OpINV:
			if !written[g.A] {
				return bad("gate %d (INV %d -> %d) reads a wire not yet written", i, g.A, g.Out)
			}
			if g.B != 0 {
				return bad("gate %d (INV %d -> %d) has B = %d, not 0", i, g.A, g.Out, g.B)
			}
		default:
			return bad("gate %d has unknown op %v", i, g.Op)
		}
		if written[g.Out] {
			return bad("gate %d writes wire %d a second time", i, g.Out)
		}
		written[g.Out] = true
	}
	for i, w := range c.Outputs {
		if int(w) >= c.NumWires || !written[w] {
			return bad("output %d is wire %d, never written", i, w)
		}
	}
	return nil
}

// Eval computes the circuit in the clear: in0 are the garbler's input bits
// and in1 the evaluator's, in the order of Inputs. It returns the output
// bits in the order of Outputs. It reports input vectors of the wrong
// length (ErrInputLength) and wires out of range (ErrBadCircuit); for the
// other rules of [Circuit] see [Circuit.Validate].
func (c *Circuit) Eval(in0, in1 []bool) ([]bool, error) {
	if len(in0) != len(c.Inputs[0]) || len(in1) != len(c.Inputs[1]) {
		return nil, fmt.Errorf("%w: got %d and %d, the circuit takes %d and %d",
			ErrInputLength, len(in0), len(in1), len(c.Inputs[0]), len(c.Inputs[1]))
	}
	v := make([]bool, c.NumWires)
	n := Wire(c.NumWires)
	for party, in := range [2][]bool{in0, in1} {
		for i, w := range c.Inputs[party] {
			if w >= n {
				return nil, fmt.Errorf("%w: input wire %d of %d", ErrBadCircuit, w, n)
			}
			v[w] = in[i]
		}
	}
	for i, g := range c.Gates {
		if g.A >= n || g.B >= n || g.Out >= n {
			return nil, fmt.Errorf("%w: gate %d uses a wire beyond %d", ErrBadCircuit, i, n)
		}
		switch g.Op {
		case OpXOR:
			v[g.Out] = v[g.A] != v[g.B]
		case OpAND:
			v[g.Out] = v[g.A] && v[g.B]
		case OpINV:
			v[g.Out] = !v[g.A]
		default:
			return nil, fmt.Errorf("%w: gate %d has unknown op %v", ErrBadCircuit, i, g.Op)
		}
	}
	out := make([]bool, len(c.Outputs))
	for i, w := range c.Outputs {
		if w >= n {
			return nil, fmt.Errorf("%w: output wire %d of %d", ErrBadCircuit, w, n)
		}
		out[i] = v[w]
	}
	return out, nil
}

// ANDCount returns the number of AND gates, the cost of the circuit under
// free-XOR garbling (two ciphertexts each with half-gates).
func (c *Circuit) ANDCount() int {
	n := 0
	for _, g := range c.Gates {
		if g.Op == OpAND {
			n++
		}
	}
	return n
}

// GateCounts returns the number of XOR, AND and INV gates.
func (c *Circuit) GateCounts() (xor, and, inv int) {
	for _, g := range c.Gates {
		switch g.Op {
		case OpXOR:
			xor++
		case OpAND:
			and++
		case OpINV:
			inv++
		}
	}
	return xor, and, inv
}
