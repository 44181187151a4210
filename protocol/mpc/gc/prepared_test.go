package gc_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// garbling is everything a garbling gives, as bytes: tables, decoding
// bits, output zero labels and the labels of an evaluation on fixed
// inputs.
func garbling(t *testing.T, s gc.Scheme, c *circuit.Circuit, p *gc.Prepared, seed prg.Seed, instance uint64) []byte {
	t.Helper()
	delta, _ := gc.NewDelta(seed.Stream("delta"))
	var g *gc.Garbled
	var keys *gc.Keys
	var err error
	if p != nil {
		g, keys, err = s.GarblePrepared(p, delta, seed.Stream("labels"), instance)
	} else {
		g, keys, err = s.Garble(c, delta, seed.Stream("labels"), instance)
	}
	if err != nil {
		t.Fatal(err)
	}
	in := seed.Stream("inputs")
	var labels [2][]gc.Label
	for party := range 2 {
		if labels[party], err = keys.Encode(party, in.Bools(len(c.Inputs[party]))); err != nil {
			t.Fatal(err)
		}
	}
	var out []gc.Label
	if p != nil {
		out, err = gc.EvaluatePrepared(p, g, labels)
	} else {
		out, err = gc.Evaluate(c, g, labels)
	}
	if err != nil {
		t.Fatal(err)
	}
	b := append(bytes.Clone(g.Tables), bitsBytes(g.Decoding)...)
	for _, pair := range keys.Outputs {
		b = append(b, pair[0][:]...)
	}
	return append(b, gc.MarshalLabels(out)...)
}

// TestPreparedMatchesCircuit: garbling and evaluating a prepared circuit
// gives byte for byte what Garble and Evaluate give on the circuit, and
// the same on every gate path (the pure-Go path walks the gates one at a
// time, the fused ones by AND depth, four AND gates a call), on the 9×9
// referee circuit with each scheme.
func TestPreparedMatchesCircuit(t *testing.T) {
	defer gc.SetAssembly(true)
	defer gc.SetVAES(true)
	defer gc.SetAVX2(true)
	_, c, err := circuit.RefereeCircuit(9, engine.RulesHamburg, circuit.Garbler)
	if err != nil {
		t.Fatal(err)
	}
	p, err := gc.Prepare(c)
	if err != nil {
		t.Fatal(err)
	}
	if p.ANDCount() != gc.CountAND(c) {
		t.Fatalf("ANDCount %d, CountAND %d", p.ANDCount(), gc.CountAND(c))
	}
	for _, s := range schemes {
		var want []byte
		for _, path := range gatePaths {
			if !path.set() {
				t.Logf("no %s path on this machine", path.name)
				continue
			}
			for _, prepared := range []*gc.Prepared{nil, p} {
				got := garbling(t, s, c, prepared, prg.Seed{9}, 3)
				if want == nil {
					want = got
				} else if !bytes.Equal(got, want) {
					t.Fatalf("%v, %s path, prepared %v: the garbling differs", s, path.name, prepared != nil)
				}
			}
		}
	}
}

// TestPreparedKeepsItsCircuit: a prepared circuit keeps garbling the
// circuit it was prepared from after that circuit is changed.
func TestPreparedKeepsItsCircuit(t *testing.T) {
	c := randomCircuit(seedOf(90).Stream("prepared"), 8, 8, 400, [3]int{3, 4, 1}, 20)
	orig := *c
	clone := func() circuit.Circuit {
		k := orig
		k.Gates = append([]circuit.Gate(nil), orig.Gates...)
		k.Outputs = append([]circuit.Wire(nil), orig.Outputs...)
		return k
	}
	for _, s := range schemes {
		*c = clone()
		p, err := gc.Prepare(c)
		if err != nil {
			t.Fatal(err)
		}
		want := garbling(t, s, c, nil, prg.Seed{90}, 1)
		for k, g := range c.Gates {
			if g.Op == circuit.OpXOR {
				c.Gates[k].Op = circuit.OpAND
			}
		}
		c.Outputs[0], c.Outputs[1] = c.Outputs[1], c.Outputs[0]
		if bytes.Equal(garbling(t, s, c, nil, prg.Seed{90}, 1), want) {
			t.Fatalf("%v: changing the circuit changed nothing: the test cannot fail", s)
		}
		if got := garbling(t, s, c, p, prg.Seed{90}, 1); !bytes.Equal(got, want) {
			t.Fatalf("%v: the prepared circuit follows a change of its circuit", s)
		}
	}
}

// TestWireNumbersChangeNothing: the tables depend on the gates and their
// order, not on how the wires are numbered: a circuit and the same
// circuit with its wires renumbered at random (so that it has not the
// layout of circuit.Builder and is validated wire by wire) give the same
// tables, decoding bits, output labels and evaluation.
func TestWireNumbersChangeNothing(t *testing.T) {
	for k := range 3 {
		c := randomCircuit(seedOf(91).Stream("renumber", uint64(k)), 12, 10, 1500, [3]int{3, 4, 1}, 25)
		r := seedOf(92).Stream("perm", uint64(k))
		perm := make([]circuit.Wire, c.NumWires)
		for i := range perm {
			perm[i] = circuit.Wire(i)
		}
		for i := len(perm) - 1; i > 0; i-- {
			j := r.Intn(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
		m := &circuit.Circuit{NumWires: c.NumWires}
		for party := range 2 {
			for _, x := range c.Inputs[party] {
				m.Inputs[party] = append(m.Inputs[party], perm[x])
			}
		}
		for _, g := range c.Gates {
			ng := circuit.Gate{Op: g.Op, A: perm[g.A], B: perm[g.B], Out: perm[g.Out]}
			if g.Op == circuit.OpINV {
				ng.B = 0
			}
			m.Gates = append(m.Gates, ng)
		}
		for _, x := range c.Outputs {
			m.Outputs = append(m.Outputs, perm[x])
		}
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, s := range schemes {
			name := fmt.Sprintf("circuit %d, %v", k, s)
			if !bytes.Equal(garbling(t, s, c, nil, prg.Seed{byte(k)}, 2), garbling(t, s, m, nil, prg.Seed{byte(k)}, 2)) {
				t.Fatalf("%s: renumbering the wires changed the garbling", name)
			}
		}
	}
}

// TestPreparedRejectsMisuse: nil prepared circuits and tables of the
// wrong size are errors, not panics.
func TestPreparedRejectsMisuse(t *testing.T) {
	var seed prg.Seed
	delta, _ := gc.NewDelta(seed.Stream("delta"))
	if _, _, err := gc.HalfGates.GarblePrepared(nil, delta, seed.Stream("labels"), 0); !errors.Is(err, gc.ErrCircuit) {
		t.Errorf("GarblePrepared(nil) = %v, want ErrCircuit", err)
	}
	if _, err := gc.EvaluatePrepared(nil, &gc.Garbled{}, [2][]gc.Label{}); !errors.Is(err, gc.ErrCircuit) {
		t.Errorf("EvaluatePrepared(nil) = %v, want ErrCircuit", err)
	}
	c := randomCircuit(seedOf(93).Stream("misuse"), 4, 4, 50, [3]int{3, 4, 1}, 5)
	p, err := gc.Prepare(c)
	if err != nil {
		t.Fatal(err)
	}
	g, keys, err := gc.ThreeHalves.GarblePrepared(p, delta, seed.Stream("labels"), 0)
	if err != nil {
		t.Fatal(err)
	}
	in0, _ := keys.Encode(0, make([]bool, 4))
	in1, _ := keys.Encode(1, make([]bool, 4))
	g.Tables = g.Tables[:len(g.Tables)-1]
	if _, err := gc.EvaluatePrepared(p, g, [2][]gc.Label{in0, in1}); !errors.Is(err, gc.ErrTables) {
		t.Errorf("short tables: %v, want ErrTables", err)
	}
}

// TestPreparedShared: goroutines garbling and evaluating with one
// Prepared, none of them first, get what Garble and Evaluate give (run
// under -race, it also checks that they do not write it).
func TestPreparedShared(t *testing.T) {
	c := randomCircuit(seedOf(94).Stream("shared"), 8, 8, 600, [3]int{3, 4, 1}, 20)
	var seed prg.Seed
	delta, _ := gc.NewDelta(seed.Stream("delta"))
	zeros := [2][]bool{make([]bool, 8), make([]bool, 8)}
	run := func(s gc.Scheme, p *gc.Prepared) ([]byte, error) {
		var g *gc.Garbled
		var keys *gc.Keys
		var err error
		if p == nil {
			g, keys, err = s.Garble(c, delta, seed.Stream("labels"), 4)
		} else {
			g, keys, err = s.GarblePrepared(p, delta, seed.Stream("labels"), 4)
		}
		if err != nil {
			return nil, err
		}
		var in [2][]gc.Label
		for party := range 2 {
			in[party], _ = keys.Encode(party, zeros[party])
		}
		var out []gc.Label
		if p == nil {
			out, err = gc.Evaluate(c, g, in)
		} else {
			out, err = gc.EvaluatePrepared(p, g, in)
		}
		return append(bytes.Clone(g.Tables), gc.MarshalLabels(out)...), err
	}
	for _, s := range schemes {
		want, err := run(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := gc.Prepare(c)
		if err != nil {
			t.Fatal(err)
		}
		got := make([][]byte, 4)
		errs := make([]error, 4)
		done := make(chan struct{})
		for k := range got {
			go func() {
				defer func() { done <- struct{}{} }()
				got[k], errs[k] = run(s, p)
			}()
		}
		for range got {
			<-done
		}
		for k := range got {
			if errs[k] != nil || !bytes.Equal(got[k], want) {
				t.Fatalf("%v: goroutine %d garbled differently (%v)", s, k, errs[k])
			}
		}
	}
}
