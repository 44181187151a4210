package gc

import (
	"slices"
	"sync"

	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// The fused gate routines hash the AND gates of a batch together (up to
// four gates, sixteen AES blocks in flight with VAES); the gates of a
// batch must not read each other's outputs. Walking the gates in circuit
// order and cutting a batch when a gate reads a held output fills
// batches badly on the referee circuit, whose AND gates come in long
// dependent chains: on the 9×9 referee, 3,498 of its 5,635 batches held
// a single gate (two of them hashed as two gates) and only 138 held four.
//
// A schedule walks the gates by AND depth instead (the most AND gates on
// a path from an input to the gate's output): first the XOR and INV
// gates of depth 0, then the AND gates of depth 1, which read only wires
// of depth 0 and so none of each other's outputs, then the XOR and INV
// gates of depth 1, the AND gates of depth 2, and so on. Each group keeps
// circuit order, which is a topological order within it; the AND gates
// of a group go four (or two) at a time through the fused routines, and
// the j-th AND gate of the circuit keeps its tweaks and its place in the
// tables, so the tables are byte for byte those of circuit order. On the
// 9×9 referee (8,954 AND gates, depth 181) that makes 2,285 batches,
// 2,191 of them of four.
//
// The schedule is a flat array of steps the gate loop walks: per gate its
// op, its wires and (AND) its index among the AND gates, as 32-bit
// integers, grouped by key (2d for the XOR and INV gates of depth d,
// 2d−1 for the AND gates of depth d) with the start of each group. It is
// built once by [Prepare], for circuits garbled or evaluated many times
// (the referee's), or by every half-gates garbling and evaluation of a
// *circuit.Circuit on the fused path, in two passes over the gates, into
// arrays kept in preparedPool, so that it allocates nothing once warm.

// step is one gate of a schedule.
type step struct {
	op        circuit.Op
	a, b, out circuit.Wire
	j         uint32 // AND gates: index among the AND gates in circuit order
}

// schedule is the gates of a circuit in AND-depth order (see above):
// steps[start[k]:start[k+1]] is group k, odd k AND gates.
type schedule struct {
	steps []step
	start []int32
	depth []uint32 // scratch: the AND depth of every wire
	count []int32  // scratch: gates per group
}

// Prepared is a circuit validated and laid out once for garbling and
// evaluation, as flat arrays the gate loops walk (its gates grouped by
// AND depth, see schedule.go): [Scheme.GarblePrepared] and
// [EvaluatePrepared] skip the validation and the layout that Garble and
// Evaluate do on every call, which cost about as much as hashing the
// 9×9 referee's AND gates (profile of BenchmarkReferee). It holds its own copy of everything it needs
// of the circuit, so later changes to the circuit do not reach it, and
// it is read-only: goroutines may share it.
type Prepared struct {
	numWires int
	inputs   [2][]circuit.Wire
	outputs  []circuit.Wire
	// gates are the gates in circuit order, which the gate loops without
	// batches (three-halves, pure Go) walk: their wires are read and
	// written in the order the circuit's builder laid out, which keeps
	// them in cache better than the order of the schedule.
	gates []circuit.Gate
	nAND  int
	// sched is the schedule of the fused half-gates loops, built when
	// scheduled is false and one of them first runs: always built by
	// Prepare, so a shared Prepared is never written.
	sched     schedule
	scheduled bool
}

// Prepare validates c (as Garble does) and lays it out for the gate
// loops.
func Prepare(c *circuit.Circuit) (*Prepared, error) {
	p := new(Prepared)
	if err := p.prepare(c); err != nil {
		return nil, err
	}
	p.inputs = [2][]circuit.Wire{slices.Clone(c.Inputs[0]), slices.Clone(c.Inputs[1])}
	p.outputs = slices.Clone(c.Outputs)
	p.gates = slices.Clone(c.Gates)
	p.ensureSchedule()
	p.sched.depth, p.sched.count = nil, nil
	return p, nil
}

// ANDCount returns the number of AND gates of the circuit, which fixes
// the size of its tables (Scheme.TablesSize).
func (p *Prepared) ANDCount() int { return p.nAND }

// prepare validates c and lays it out into p, reusing p's arrays; p
// refers to c's inputs and outputs until the caller replaces them.
func (p *Prepared) prepare(c *circuit.Circuit) error {
	nAND, err := validate(c)
	if err != nil {
		return err
	}
	p.numWires, p.inputs, p.outputs, p.gates, p.nAND = c.NumWires, c.Inputs, c.Outputs, c.Gates, nAND
	p.scheduled = false
	return nil
}

// ensureSchedule builds the schedule of p if it is not built yet.
func (p *Prepared) ensureSchedule() *schedule {
	if !p.scheduled {
		p.sched.build(p.gates, p.numWires, p.inputs)
		p.scheduled = true
	}
	return &p.sched
}

// preparedPool holds the Prepared of earlier calls of Garble and
// Evaluate on a *circuit.Circuit.
var preparedPool = sync.Pool{New: func() any { return new(Prepared) }}

// prepareTemp is Prepare into a Prepared of preparedPool that refers to
// c, for one call; the caller gives it back with releaseTemp.
func prepareTemp(c *circuit.Circuit) (*Prepared, error) {
	p := preparedPool.Get().(*Prepared)
	if err := p.prepare(c); err != nil {
		releaseTemp(p)
		return nil, err
	}
	return p, nil
}

// releaseTemp returns p, from prepareTemp, to preparedPool without its
// references to the circuit.
func releaseTemp(p *Prepared) {
	p.inputs, p.outputs, p.gates = [2][]circuit.Wire{}, nil, nil
	preparedPool.Put(p)
}

// build lays out the gates of a circuit validate has accepted, of
// numWires wires and the given inputs, as the schedule s.
func (s *schedule) build(gates []circuit.Gate, numWires int, inputs [2][]circuit.Wire) {
	if cap(s.depth) < numWires {
		s.depth = make([]uint32, numWires)
	}
	depth := s.depth[:numWires]
	for p := range 2 {
		for _, x := range inputs[p] {
			depth[x] = 0
		}
	}
	// Pass 1: the depth of every wire and the size of every group.
	count := s.count[:0]
	for _, g := range gates {
		d := depth[g.A]
		if g.Op != circuit.OpINV {
			d = max(d, depth[g.B])
		}
		key := 2 * d
		if g.Op == circuit.OpAND {
			d++
			key = 2*d - 1
		}
		depth[g.Out] = d
		for int(key) >= len(count) {
			count = append(count, 0)
		}
		count[key]++
	}
	s.count = count
	// Pass 2: each gate into the next place of its group.
	start := s.start[:0]
	n := int32(0)
	for _, k := range count {
		start = append(start, n)
		n += k
	}
	start = append(start, n)
	s.start = start
	if cap(s.steps) < len(gates) {
		s.steps = make([]step, len(gates))
	}
	steps := s.steps[:len(gates)]
	next := count // reused: the next place in each group
	copy(next, start)
	j := uint32(0)
	for _, g := range gates {
		d := depth[g.Out]
		key := 2 * d
		st := step{op: g.Op, a: g.A, b: g.B, out: g.Out}
		if g.Op == circuit.OpAND {
			key = 2*d - 1
			st.j = j
			j++
		}
		steps[next[key]] = st
		next[key]++
	}
	s.steps = steps
}

// garbleScheduled garbles the gates of schedule s with half-gates and the
// fused routines, four AND gates at a time with VAES, two with AES-NI:
// what garbleGates does where the fused routines run.
func garbleScheduled(s *schedule, w []blk, delta blk, instance uint64, tables []byte) {
	rk := &roundKeys
	width := 2 // garble2AESNI
	if useVAES {
		width = 4 // garble4VAES
	}
	var held [4]gateArg
	for k := 0; k+1 < len(s.start); k++ {
		group := s.steps[s.start[k]:s.start[k+1]]
		if k%2 == 0 {
			garbleLinear(group, w, delta)
			continue
		}
		for len(group) > 0 {
			n := min(width, len(group))
			for i, st := range group[:n] {
				j := uint64(st.j)
				h := &held[i] // field by field: a composite literal is built aside and copied
				h.a, h.b, h.out = &w[st.a], &w[st.b], &w[st.out]
				h.t, h.j = (*[TableSize]byte)(tables[j*TableSize:]), j
			}
			garbleHeld(rk, &held, n, &delta, instance)
			group = group[n:]
		}
	}
}

// evaluateScheduled evaluates the gates of schedule s with half-gates
// and the fused routines, four AND gates at a time: what evaluateGates
// does where the fused routines run.
func evaluateScheduled(s *schedule, w []blk, instance uint64, tables []byte) {
	rk := &roundKeys
	var held [4]gateArg
	for k := 0; k+1 < len(s.start); k++ {
		group := s.steps[s.start[k]:s.start[k+1]]
		if k%2 == 0 {
			evaluateLinear(group, w)
			continue
		}
		for len(group) > 0 {
			n := min(len(held), len(group))
			for i, st := range group[:n] {
				j := uint64(st.j)
				h := &held[i] // field by field: a composite literal is built aside and copied
				h.a, h.b, h.out = &w[st.a], &w[st.b], &w[st.out]
				h.t, h.j = (*[TableSize]byte)(tables[j*TableSize:]), j
			}
			evaluateHeld(rk, &held, n, instance)
			group = group[n:]
		}
	}
}

// garbleLinear garbles a group of the schedule's XOR and INV gates (free
// XOR: an INV gate's label for false is its input's xor Δ).
func garbleLinear(group []step, w []blk, delta blk) {
	for _, st := range group {
		if st.op == circuit.OpXOR {
			w[st.out] = w[st.a].xor(w[st.b])
		} else {
			w[st.out] = w[st.a].xor(delta)
		}
	}
}

// evaluateLinear evaluates a group of the schedule's XOR and INV gates (an
// INV gate passes its input's label on: the garbler flipped its meaning).
func evaluateLinear(group []step, w []blk) {
	for _, st := range group {
		if st.op == circuit.OpXOR {
			w[st.out] = w[st.a].xor(w[st.b])
		} else {
			w[st.out] = w[st.a]
		}
	}
}
