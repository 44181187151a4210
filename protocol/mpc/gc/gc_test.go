package gc_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// randomCircuit returns a random circuit with n0 and n1 input wires, gates
// gates drawn with the given weights of XOR, AND and INV, and outputs
// outputs chosen among all wires (gate outputs first).
func randomCircuit(r *prg.Stream, n0, n1, gates int, weights [3]int, outputs int) *circuit.Circuit {
	c := &circuit.Circuit{NumWires: n0 + n1 + gates}
	for i := range n0 {
		c.Inputs[0] = append(c.Inputs[0], circuit.Wire(i))
	}
	for i := range n1 {
		c.Inputs[1] = append(c.Inputs[1], circuit.Wire(n0+i))
	}
	total := weights[0] + weights[1] + weights[2]
	for i := range gates {
		out := n0 + n1 + i
		op := circuit.OpXOR
		switch k := r.Intn(total); {
		case k < weights[0]:
		case k < weights[0]+weights[1]:
			op = circuit.OpAND
		default:
			op = circuit.OpINV
		}
		g := circuit.Gate{Op: op, A: circuit.Wire(r.Intn(out)), B: circuit.Wire(r.Intn(out)), Out: circuit.Wire(out)}
		if op == circuit.OpINV {
			g.B = 0
		}
		c.Gates = append(c.Gates, g)
	}
	for i := range outputs {
		if i < gates {
			c.Outputs = append(c.Outputs, circuit.Wire(c.NumWires-1-i))
		} else {
			c.Outputs = append(c.Outputs, circuit.Wire(r.Intn(c.NumWires)))
		}
	}
	return c
}

// runGarbled garbles c, evaluates it on in0 and in1 and decodes the output
// on both sides.
func runGarbled(t *testing.T, s gc.Scheme, c *circuit.Circuit, seed prg.Seed, in0, in1 []bool) []bool {
	t.Helper()
	delta, err := gc.NewDelta(seed.Stream("delta"))
	if err != nil {
		t.Fatal(err)
	}
	g, keys, err := s.Garble(c, delta, seed.Stream("labels"), 7)
	if err != nil {
		t.Fatal(err)
	}
	l0, err := keys.Encode(0, in0)
	if err != nil {
		t.Fatal(err)
	}
	l1, err := keys.Encode(1, in1)
	if err != nil {
		t.Fatal(err)
	}
	out, err := gc.Evaluate(c, g, [2][]gc.Label{l0, l1})
	if err != nil {
		t.Fatal(err)
	}
	bits, err := gc.Decode(out, g.Decoding)
	if err != nil {
		t.Fatal(err)
	}
	byGarbler, err := keys.Decode(out)
	if err != nil {
		t.Fatalf("garbler cannot decode honest output labels: %v", err)
	}
	for i := range bits {
		if bits[i] != byGarbler[i] {
			t.Fatalf("output %d: evaluator decodes %v, garbler %v", i, bits[i], byGarbler[i])
		}
	}
	return bits
}

func TestGarbleMatchesEval(t *testing.T) {
	cases := []struct {
		name    string
		n0, n1  int
		gates   int
		weights [3]int // XOR, AND, INV
	}{
		{"mixed", 16, 16, 400, [3]int{4, 4, 1}},
		{"AND only", 8, 8, 300, [3]int{0, 1, 0}},
		{"XOR only", 8, 8, 300, [3]int{1, 0, 0}},
		{"INV only", 4, 4, 100, [3]int{0, 0, 1}},
		{"XOR and INV", 8, 8, 300, [3]int{3, 0, 1}},
		{"garbler inputs only", 12, 0, 200, [3]int{2, 2, 1}},
		{"evaluator inputs only", 0, 12, 200, [3]int{2, 2, 1}},
		{"AND heavy", 3, 3, 500, [3]int{1, 8, 1}},
	}
	for ci, tc := range cases {
		for _, s := range schemes {
			t.Run(s.String()+"/"+tc.name, func(t *testing.T) {
				var seed prg.Seed
				seed[0] = byte(ci)
				r := seed.Stream("test circuit")
				for trial := range 20 {
					c := randomCircuit(r, tc.n0, tc.n1, tc.gates, tc.weights, 40)
					in0, in1 := r.Bools(tc.n0), r.Bools(tc.n1)
					want, err := c.Eval(in0, in1)
					if err != nil {
						t.Fatal(err)
					}
					got := runGarbled(t, s, c, seed.Derive("garbler", uint64(trial)), in0, in1)
					for i := range want {
						if got[i] != want[i] {
							t.Fatalf("trial %d output %d: garbled %v, plain %v", trial, i, got[i], want[i])
						}
					}
				}
			})
		}
	}
}

// TestGarbleAllInputs checks every input combination of small circuits: a
// single gate of each kind and chains of gates that reuse a wire.
func TestGarbleAllInputs(t *testing.T) {
	circuits := map[string]*circuit.Circuit{
		"AND": {NumWires: 3, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{2},
			Gates: []circuit.Gate{{Op: circuit.OpAND, A: 0, B: 1, Out: 2}}},
		"XOR": {NumWires: 3, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{2},
			Gates: []circuit.Gate{{Op: circuit.OpXOR, A: 0, B: 1, Out: 2}}},
		"INV": {NumWires: 3, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{2, 1},
			Gates: []circuit.Gate{{Op: circuit.OpINV, A: 0, Out: 2}}},
		"AND same wire": {NumWires: 3, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{2},
			Gates: []circuit.Gate{{Op: circuit.OpAND, A: 0, B: 0, Out: 2}}},
		"AND with own negation": {NumWires: 4, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{3},
			Gates: []circuit.Gate{{Op: circuit.OpINV, A: 1, Out: 2}, {Op: circuit.OpAND, A: 1, B: 2, Out: 3}}},
		// The circuit builder makes constants as XOR(w, w) and its INV: the
		// zero label of such a wire is the all-zero block.
		"constants": {NumWires: 7, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{2, 3, 4, 5, 6},
			Gates: []circuit.Gate{
				{Op: circuit.OpXOR, A: 0, B: 0, Out: 2},
				{Op: circuit.OpINV, A: 2, Out: 3},
				{Op: circuit.OpAND, A: 3, B: 1, Out: 4},
				{Op: circuit.OpAND, A: 2, B: 1, Out: 5},
				{Op: circuit.OpAND, A: 2, B: 3, Out: 6},
			}},
		"NAND OR": {NumWires: 7, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{3, 6},
			Gates: []circuit.Gate{
				{Op: circuit.OpAND, A: 0, B: 1, Out: 2},
				{Op: circuit.OpINV, A: 2, Out: 3},
				{Op: circuit.OpINV, A: 0, Out: 4},
				{Op: circuit.OpINV, A: 1, Out: 5},
				{Op: circuit.OpAND, A: 4, B: 5, Out: 6},
			}},
	}
	for name, c := range circuits {
		for _, scheme := range schemes {
			t.Run(scheme.String()+"/"+name, func(t *testing.T) {
				for v := range 4 {
					in0, in1 := []bool{v&1 == 1}, []bool{v&2 == 2}
					want, _ := c.Eval(in0, in1)
					for s := range 8 {
						var seed prg.Seed
						seed[1] = byte(s)
						got := runGarbled(t, scheme, c, seed, in0, in1)
						if fmt.Sprint(got) != fmt.Sprint(want) {
							t.Fatalf("inputs %v %v seed %d: garbled %v, plain %v", in0, in1, s, got, want)
						}
					}
				}
			})
		}
	}
}

func TestGarbleDeterministic(t *testing.T) {
	for _, s := range schemes {
		t.Run(s.String(), func(t *testing.T) { garbleDeterministic(t, s) })
	}
}

func garbleDeterministic(t *testing.T, s gc.Scheme) {
	var seed prg.Seed
	r := seed.Stream("circuit")
	c := randomCircuit(r, 10, 10, 500, [3]int{2, 2, 1}, 20)
	delta, _ := gc.NewDelta(seed.Stream("delta"))
	g1, k1, err := s.Garble(c, delta, seed.Stream("labels", 3), 3)
	if err != nil {
		t.Fatal(err)
	}
	g2, k2, err := s.Garble(c, delta, seed.Stream("labels", 3), 3)
	if err != nil {
		t.Fatal(err)
	}
	if string(g1.Tables) != string(g2.Tables) || fmt.Sprint(g1.Decoding) != fmt.Sprint(g2.Decoding) ||
		fmt.Sprint(k1) != fmt.Sprint(k2) {
		t.Fatal("same seed gave different garblings")
	}
	if err := s.CheckGarbling(c, delta, seed.Stream("labels", 3), 3, g1); err != nil {
		t.Fatalf("honest garbling rejected: %v", err)
	}
	// Another label stream, another instance, another Δ: other bytes.
	g3, _, _ := s.Garble(c, delta, seed.Stream("labels", 4), 3)
	g4, _, _ := s.Garble(c, delta, seed.Stream("labels", 3), 4)
	delta2, _ := gc.NewDelta(seed.Stream("delta", 2))
	g5, _, _ := s.Garble(c, delta2, seed.Stream("labels", 3), 3)
	for name, g := range map[string]*gc.Garbled{"labels": g3, "instance": g4, "delta": g5} {
		if string(g.Tables) == string(g1.Tables) {
			t.Errorf("changing the %s did not change the tables", name)
		}
		if err := s.CheckGarbling(c, delta, seed.Stream("labels", 3), 3, g); !errors.Is(err, gc.ErrMismatch) {
			t.Errorf("changing the %s: CheckGarbling = %v, want ErrMismatch", name, err)
		}
	}
}

// TestTamperedTable flips one byte of the tables: the audit's re-garbling
// names the gate, and whenever the evaluator's output labels change they
// are labels the garbler cannot decode.
func TestTamperedTable(t *testing.T) {
	for _, s := range schemes {
		t.Run(s.String(), func(t *testing.T) { tamperedTable(t, s) })
	}
}

func tamperedTable(t *testing.T, s gc.Scheme) {
	var seed prg.Seed
	r := seed.Stream("tamper")
	c := randomCircuit(r, 16, 16, 600, [3]int{2, 3, 1}, 64)
	delta, _ := gc.NewDelta(seed.Stream("delta"))
	g, keys, err := s.Garble(c, delta, seed.Stream("labels"), 1)
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for trial := range 64 {
		in0, in1 := r.Bools(16), r.Bools(16)
		l0, _ := keys.Encode(0, in0)
		l1, _ := keys.Encode(1, in1)
		honest, err := gc.Evaluate(c, g, [2][]gc.Label{l0, l1})
		if err != nil {
			t.Fatal(err)
		}
		bad := &gc.Garbled{Scheme: s, Instance: g.Instance, Tables: append([]byte(nil), g.Tables...), Decoding: g.Decoding}
		pos := r.Intn(len(bad.Tables))
		flip := byte(1 + r.Intn(255))
		bad.Tables[pos] ^= flip
		err = s.CheckGarbling(c, delta, seed.Stream("labels"), 1, bad)
		if !errors.Is(err, gc.ErrMismatch) {
			t.Fatalf("trial %d: tampered byte %d not detected: %v", trial, pos, err)
		}
		if want := fmt.Sprintf("AND gate %d", tamperedGate(s, gc.CountAND(c), pos, flip)); !contains(err.Error(), want) {
			t.Fatalf("trial %d: error %q does not name %q", trial, err, want)
		}
		out, err := gc.Evaluate(c, bad, [2][]gc.Label{l0, l1})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(out) != fmt.Sprint(honest) {
			changed++
			if _, err := keys.Decode(out); !errors.Is(err, gc.ErrUndecodable) {
				t.Fatalf("trial %d: changed output labels decoded: %v", trial, err)
			}
		}
	}
	// A ciphertext is used only when the colour of its input label is 1
	// (three-halves: G0 and z2 when A's colour is 1, G1 and z3 when B's,
	// G2 and z4 when they differ), about half the time; an unused one
	// leaves the outputs unchanged.
	if changed < 10 {
		t.Errorf("only %d of 64 tamperings changed the output labels", changed)
	}
}

// tamperedGate returns the AND gate whose table holds byte pos of tables
// of scheme s for nAND gates, where the bits flip are changed: for the
// control bits of three-halves, the gate of the lowest changed bit.
func tamperedGate(s gc.Scheme, nAND, pos int, flip byte) int {
	if s == gc.HalfGates {
		return pos / gc.TableSize
	}
	if pos < nAND*gc.ThreeHalvesTableSize {
		return pos / gc.ThreeHalvesTableSize
	}
	bit := 8 * (pos - nAND*gc.ThreeHalvesTableSize)
	for flip&1 == 0 {
		flip >>= 1
		bit++
	}
	return bit / 5
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestGarbleRejects(t *testing.T) {
	ok := &circuit.Circuit{NumWires: 3, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{2},
		Gates: []circuit.Gate{{Op: circuit.OpAND, A: 0, B: 1, Out: 2}}}
	bad := map[string]*circuit.Circuit{
		"nil": nil,
		"wire out of range": {NumWires: 3, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{2},
			Gates: []circuit.Gate{{Op: circuit.OpAND, A: 0, B: 7, Out: 2}}},
		"read before write": {NumWires: 4, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{2},
			Gates: []circuit.Gate{{Op: circuit.OpAND, A: 0, B: 3, Out: 2}, {Op: circuit.OpINV, A: 0, Out: 3}}},
		"reads its own output": {NumWires: 3, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{2},
			Gates: []circuit.Gate{{Op: circuit.OpAND, A: 2, B: 1, Out: 2}}},
		"written twice": {NumWires: 3, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{2},
			Gates: []circuit.Gate{{Op: circuit.OpAND, A: 0, B: 1, Out: 2}, {Op: circuit.OpXOR, A: 0, B: 1, Out: 2}}},
		"input overwritten": {NumWires: 3, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{1},
			Gates: []circuit.Gate{{Op: circuit.OpAND, A: 0, B: 1, Out: 1}}},
		"repeated input": {NumWires: 3, Inputs: [2][]circuit.Wire{{0}, {0}}, Outputs: []circuit.Wire{2},
			Gates: []circuit.Gate{{Op: circuit.OpAND, A: 0, B: 0, Out: 2}}},
		"unknown op": {NumWires: 3, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{2},
			Gates: []circuit.Gate{{Op: 9, A: 0, B: 1, Out: 2}}},
		"output never written": {NumWires: 4, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{3},
			Gates: []circuit.Gate{{Op: circuit.OpAND, A: 0, B: 1, Out: 2}}},
		"negative wires": {NumWires: -1},
	}
	var seed prg.Seed
	delta, _ := gc.NewDelta(seed.Stream("delta"))
	for name, c := range bad {
		if _, _, err := gc.Garble(c, delta, seed.Stream("labels"), 0); !errors.Is(err, gc.ErrCircuit) {
			t.Errorf("%s: Garble = %v, want ErrCircuit", name, err)
		}
		if _, err := gc.Evaluate(c, &gc.Garbled{}, [2][]gc.Label{}); !errors.Is(err, gc.ErrCircuit) {
			t.Errorf("%s: Evaluate = %v, want ErrCircuit", name, err)
		}
		if _, err := gc.Prepare(c); !errors.Is(err, gc.ErrCircuit) {
			t.Errorf("%s: Prepare = %v, want ErrCircuit", name, err)
		}
	}
	even := delta
	even[0] &^= 1
	if _, _, err := gc.Garble(ok, even, seed.Stream("labels"), 0); !errors.Is(err, gc.ErrDelta) {
		t.Errorf("even delta: %v, want ErrDelta", err)
	}
	g, keys, err := gc.Garble(ok, delta, seed.Stream("labels"), 0)
	if err != nil {
		t.Fatal(err)
	}
	l, _ := keys.Encode(0, []bool{true})
	if _, err := gc.Evaluate(ok, g, [2][]gc.Label{l, nil}); !errors.Is(err, gc.ErrLabels) {
		t.Errorf("missing evaluator label: %v, want ErrLabels", err)
	}
	if _, err := gc.Evaluate(ok, nil, [2][]gc.Label{l, l}); !errors.Is(err, gc.ErrTables) {
		t.Errorf("nil garbling: %v, want ErrTables", err)
	}
	short := &gc.Garbled{Tables: g.Tables[:31]}
	if _, err := gc.Evaluate(ok, short, [2][]gc.Label{l, l}); !errors.Is(err, gc.ErrTables) {
		t.Errorf("short tables: %v, want ErrTables", err)
	}
	if _, err := keys.Encode(1, []bool{true, false}); !errors.Is(err, gc.ErrLabels) {
		t.Errorf("too many bits: %v, want ErrLabels", err)
	}
	if _, err := keys.Encode(2, nil); err == nil {
		t.Error("party 2 accepted")
	}
	if _, err := gc.Decode(make([]gc.Label, 2), []bool{true}); !errors.Is(err, gc.ErrLabels) {
		t.Errorf("decode length mismatch: %v, want ErrLabels", err)
	}
	if _, _, err := gc.Garble(ok, delta, bytes.NewReader(nil), 0); err == nil {
		t.Error("empty label stream accepted")
	}
}
