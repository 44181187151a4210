package circuit

import (
	"fmt"
	"math"
)

// Builder writes a [Circuit] gate by gate. It folds constants (AND with a
// known 0 or 1, XOR with 0, XOR of a wire with itself or with its
// negation, double negation), shares identical gates, and drops in
// [Builder.Build] every gate no output depends on, so that code written
// for clarity does not pay AND gates for it.
//
// The wires a Builder hands out are its own numbering; Build renumbers
// them. [Builder.Zero] and [Builder.One] are constant wires that exist only
// in the builder: a gate never reads them (they fold away), and an output
// that is constant is materialized by Build.
//
// A Builder is not safe for concurrent use. The zero Builder is not
// usable; make one with [NewBuilder].
type Builder struct {
	next    Wire
	inputs  [2][]Wire
	outputs []Wire
	gates   []Gate
	shared  map[gateKey]Wire
	// neg[w] is a wire known to be NOT w, or noWire. invOf[w] is the wire w
	// is the INV gate of, or noWire.
	neg   []Wire
	invOf []Wire
}

type gateKey struct {
	op   Op
	a, b Wire
}

// The builder's constant wires and its "no wire" marker, far above any
// real wire.
const (
	noWire     Wire = math.MaxUint32 - 2
	constFalse Wire = math.MaxUint32 - 1
	constTrue  Wire = math.MaxUint32
)

// maxBuilderWires keeps real wires below the constants.
const maxBuilderWires = math.MaxUint32 - 16

// NewBuilder returns an empty builder.
func NewBuilder() *Builder {
	return &Builder{shared: make(map[gateKey]Wire)}
}

func (b *Builder) newWire() Wire {
	if b.next >= maxBuilderWires {
		panic("circuit: too many wires")
	}
	w := b.next
	b.next++
	b.neg = append(b.neg, noWire)
	b.invOf = append(b.invOf, noWire)
	return w
}

func (b *Builder) checkWire(w Wire) {
	if w != constFalse && w != constTrue && w >= b.next {
		panic(fmt.Sprintf("circuit: wire %d does not belong to this builder", w))
	}
}

// Inputs adds n input bits of party and returns their wires, in order. The
// inputs of each party are numbered in the order of the calls.
func (b *Builder) Inputs(party Party, n int) []Wire {
	if party != Garbler && party != Evaluator {
		panic(fmt.Sprintf("circuit: inputs of %v", party))
	}
	ws := make([]Wire, n)
	for i := range ws {
		ws[i] = b.newWire()
	}
	b.inputs[party] = append(b.inputs[party], ws...)
	return ws
}

// NumInputs returns the number of input bits party has so far.
func (b *Builder) NumInputs(party Party) int { return len(b.inputs[party]) }

// Outputs appends ws to the outputs, in order, and returns the position of
// the first one in [Circuit.Outputs].
func (b *Builder) Outputs(ws ...Wire) int {
	for _, w := range ws {
		b.checkWire(w)
	}
	at := len(b.outputs)
	b.outputs = append(b.outputs, ws...)
	return at
}

// NumOutputs returns the number of outputs so far.
func (b *Builder) NumOutputs() int { return len(b.outputs) }

// Zero returns the constant false.
func (b *Builder) Zero() Wire { return constFalse }

// One returns the constant true.
func (b *Builder) One() Wire { return constTrue }

// Const returns the constant v.
func (b *Builder) Const(v bool) Wire {
	if v {
		return constTrue
	}
	return constFalse
}

// IsConst reports whether w is a constant, and its value.
func (b *Builder) IsConst(w Wire) (value, ok bool) {
	switch w {
	case constFalse:
		return false, true
	case constTrue:
		return true, true
	}
	return false, false
}

func (b *Builder) gate(op Op, x, y Wire) Wire {
	if op != OpINV && x > y {
		x, y = y, x
	}
	k := gateKey{op, x, y}
	if w, ok := b.shared[k]; ok {
		return w
	}
	w := b.newWire()
	b.gates = append(b.gates, Gate{Op: op, A: x, B: y, Out: w})
	b.shared[k] = w
	return w
}

// NOT returns NOT x (an INV gate, free under free-XOR).
func (b *Builder) NOT(x Wire) Wire {
	b.checkWire(x)
	switch x {
	case constFalse:
		return constTrue
	case constTrue:
		return constFalse
	}
	if n := b.neg[x]; n != noWire {
		return n
	}
	w := b.gate(OpINV, x, 0)
	b.neg[x], b.neg[w] = w, x
	b.invOf[w] = x
	return w
}

// XOR returns x XOR y (free under free-XOR). A negated input is pulled out
// (XOR(NOT x, y) = NOT XOR(x, y)) so that equal expressions share gates.
func (b *Builder) XOR(x, y Wire) Wire {
	b.checkWire(x)
	b.checkWire(y)
	switch {
	case x == constFalse:
		return y
	case y == constFalse:
		return x
	case x == constTrue:
		return b.NOT(y)
	case y == constTrue:
		return b.NOT(x)
	case x == y:
		return constFalse
	case b.neg[x] == y:
		return constTrue
	}
	if s := b.invOf[x]; s != noWire {
		return b.NOT(b.XOR(s, y))
	}
	if s := b.invOf[y]; s != noWire {
		return b.NOT(b.XOR(x, s))
	}
	return b.gate(OpXOR, x, y)
}

// XNOR returns NOT (x XOR y): whether x and y are equal.
func (b *Builder) XNOR(x, y Wire) Wire { return b.NOT(b.XOR(x, y)) }

// AND returns x AND y, the one gate that costs.
func (b *Builder) AND(x, y Wire) Wire {
	b.checkWire(x)
	b.checkWire(y)
	switch {
	case x == constFalse || y == constFalse:
		return constFalse
	case x == constTrue:
		return y
	case y == constTrue:
		return x
	case x == y:
		return x
	case b.neg[x] == y:
		return constFalse
	}
	return b.gate(OpAND, x, y)
}

// OR returns x OR y (one AND gate: NOT(NOT x AND NOT y)).
func (b *Builder) OR(x, y Wire) Wire {
	return b.NOT(b.AND(b.NOT(x), b.NOT(y)))
}

// Mux returns ifTrue when sel is true and ifFalse otherwise (one AND gate).
func (b *Builder) Mux(sel, ifTrue, ifFalse Wire) Wire {
	if v, ok := b.IsConst(sel); ok {
		if v {
			return ifTrue
		}
		return ifFalse
	}
	return b.XOR(ifFalse, b.AND(sel, b.XOR(ifTrue, ifFalse)))
}

// ANDCount returns the number of AND gates written so far, including those
// Build will drop because no output uses them.
func (b *Builder) ANDCount() int {
	n := 0
	for _, g := range b.gates {
		if g.Op == OpAND {
			n++
		}
	}
	return n
}

// Build returns the circuit: the inputs, the outputs, and the gates the
// outputs depend on, renumbered as [Circuit] describes for built circuits.
// A constant output is computed as XOR(w, w) from the first input wire w;
// Build panics if the circuit needs a constant output and has no input.
// The builder may be used further after Build.
func (b *Builder) Build() *Circuit {
	numIn := len(b.inputs[0]) + len(b.inputs[1])
	// Real wires that stand for the constants, if an output needs them.
	var zeroGates []Gate
	zero, one := noWire, noWire
	for _, w := range b.outputs {
		if w != constFalse && w != constTrue {
			continue
		}
		if numIn == 0 {
			panic("circuit: a constant output in a circuit without inputs")
		}
		if zero == noWire {
			first := b.inputs[0]
			if len(first) == 0 {
				first = b.inputs[1]
			}
			zero = b.next
			zeroGates = append(zeroGates, Gate{Op: OpXOR, A: first[0], B: first[0], Out: zero})
		}
		if w == constTrue && one == noWire {
			one = b.next + 1
			zeroGates = append(zeroGates, Gate{Op: OpINV, A: zero, Out: one})
		}
	}
	outputs := make([]Wire, len(b.outputs))
	for i, w := range b.outputs {
		switch w {
		case constFalse:
			w = zero
		case constTrue:
			w = one
		}
		outputs[i] = w
	}
	gates := append(zeroGates[:len(zeroGates):len(zeroGates)], b.gates...)

	// Liveness, backwards.
	total := int(b.next) + len(zeroGates)
	live := make([]bool, total)
	for _, w := range outputs {
		live[w] = true
	}
	for i := len(gates) - 1; i >= 0; i-- {
		g := gates[i]
		if !live[g.Out] {
			continue
		}
		live[g.A] = true
		if g.Op != OpINV {
			live[g.B] = true
		}
	}
	// Renumber: inputs first, then live gates in order.
	renum := make([]Wire, total)
	c := &Circuit{}
	var n Wire
	for party := range b.inputs {
		c.Inputs[party] = make([]Wire, len(b.inputs[party]))
		for i, w := range b.inputs[party] {
			renum[w] = n
			c.Inputs[party][i] = n
			n++
		}
	}
	for _, g := range gates {
		if !live[g.Out] {
			continue
		}
		ng := Gate{Op: g.Op, A: renum[g.A], Out: n}
		if g.Op != OpINV {
			ng.B = renum[g.B]
		}
		renum[g.Out] = n
		n++
		c.Gates = append(c.Gates, ng)
	}
	c.NumWires = int(n)
	c.Outputs = make([]Wire, len(outputs))
	for i, w := range outputs {
		c.Outputs[i] = renum[w]
	}
	return c
}
