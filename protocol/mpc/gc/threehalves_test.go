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

// schemes are the garbling schemes every round-trip, privacy and tamper
// test of the package runs over.
var schemes = []gc.Scheme{gc.HalfGates, gc.ThreeHalves}

// andGate is one AND gate of the garbler's input 0 and the evaluator's
// input 1.
var andGate = &circuit.Circuit{NumWires: 3, Inputs: [2][]circuit.Wire{{0}, {1}}, Outputs: []circuit.Wire{2},
	Gates: []circuit.Gate{{Op: circuit.OpAND, A: 0, B: 1, Out: 2}}}

// garbleAND garbles andGate with ThreeHalves, with zero labels of the
// given colours α, β and the coins ρ (two bits).
func garbleAND(t testing.TB, seed prg.Seed, alpha, beta bool, rho byte) (*gc.Garbled, *gc.Keys) {
	t.Helper()
	delta, err := gc.NewDelta(seed.Stream("delta"))
	if err != nil {
		t.Fatal(err)
	}
	var zero [2][]gc.Label
	st := seed.Stream("zero")
	for p, colour := range []bool{alpha, beta} {
		var l gc.Label
		st.Read(l[:])
		if l.LSB() != colour {
			l[0] ^= 1
		}
		zero[p] = []gc.Label{l}
	}
	g, keys, err := gc.ThreeHalves.GarbleInputs(andGate, delta, zero, bytes.NewReader([]byte{rho}), 9)
	if err != nil {
		t.Fatal(err)
	}
	return g, keys
}

// TestThreeHalvesEveryCase (T-7): one AND gate garbled with
// three-halves, for every colour of the two zero labels, every choice of
// the garbler's coins (every R of the scheme) and every input pair,
// evaluates to exactly the label of the right output value, and the
// garbler decodes it; the output's two labels differ by Δ.
func TestThreeHalvesEveryCase(t *testing.T) {
	for s := range 16 {
		seed := seedOf(byte(100 + s))
		for cases := range 16 {
			alpha, beta, rho := cases&1 == 1, cases&2 == 2, byte(cases>>2)
			g, keys := garbleAND(t, seed, alpha, beta, rho)
			if got, want := len(g.Tables), gc.ThreeHalves.TablesSize(1); got != want || want != 25 {
				t.Fatalf("%d bytes of tables, want %d = 24 + 1", got, want)
			}
			if keys.Outputs[0][1] != keys.Outputs[0][0].Xor(keys.Delta) {
				t.Fatal("output labels do not differ by Δ")
			}
			for v := range 4 {
				a, b := v&1 == 1, v&2 == 2
				la, _ := keys.Encode(0, []bool{a})
				lb, _ := keys.Encode(1, []bool{b})
				out, err := gc.Evaluate(andGate, g, [2][]gc.Label{la, lb})
				if err != nil {
					t.Fatal(err)
				}
				if want := keys.Outputs[0][b2i(a && b)]; out[0] != want {
					t.Fatalf("seed %d α=%v β=%v ρ=%d inputs %v %v: output label is not the label of %v",
						s, alpha, beta, rho, a, b, a && b)
				}
				bits, err := gc.Decode(out, g.Decoding)
				if err != nil || bits[0] != (a && b) {
					t.Fatalf("evaluator decodes %v (%v), want %v", bits, err, a && b)
				}
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestThreeHalvesCoinsMatter: the two coins of a gate change its table
// (the randomised R of the scheme is really drawn), not its output
// labels.
func TestThreeHalvesCoinsMatter(t *testing.T) {
	seed := seedOf(120)
	var tables []string
	var outs []gc.Label
	for rho := range byte(4) {
		g, keys := garbleAND(t, seed, true, false, rho)
		tables = append(tables, string(g.Tables))
		outs = append(outs, keys.Outputs[0][0])
	}
	for i := range tables {
		for j := range i {
			if tables[i] == tables[j] {
				t.Errorf("coins %d and %d give the same table", i, j)
			}
		}
	}
	_ = outs
}

// TestThreeHalvesSize: 197 bits per AND gate, rounded up to bytes once
// for the whole circuit.
func TestThreeHalvesSize(t *testing.T) {
	for n, want := range map[int]int{0: 0, 1: 25, 8: 8*24 + 5, 9: 9*24 + 6, 8954: 8954*24 + (8954*5+7)/8} {
		if got := gc.ThreeHalves.TablesSize(n); got != want {
			t.Errorf("TablesSize(%d) = %d, want %d", n, got, want)
		}
	}
	if gc.HalfGates.TablesSize(10) != 10*gc.TableSize {
		t.Error("half-gates tables size changed")
	}
	for _, s := range schemes {
		got, err := gc.ParseScheme(s.String())
		if err != nil || got != s {
			t.Errorf("ParseScheme(%q) = %v, %v", s.String(), got, err)
		}
	}
	if _, err := gc.ParseScheme("quarter-gates"); err == nil {
		t.Error("unknown scheme parsed")
	}
	_ = errors.New
	_ = fmt.Sprint
}

// wrongRow garbles one AND gate with three-halves (zero-label colours and
// coins from cases, labels from seed), evaluates it on the inputs v, then
// changes one row of its table (row 0..2: a bit of G0..G2; 3..7: the
// control bit z0..z4) and evaluates again. A row the evaluator reads at
// its colours (i, j) (G0 and z2 when i = 1, G1 and z3 when j = 1, G2 and
// z4 when i ≠ j, z0 and z1 always) must change its output label to one
// the garbler cannot decode; a row it does not read must change nothing.
func wrongRow(t *testing.T, seed byte, cases, v, row, bit int) {
	t.Helper()
	alpha, beta, rho := cases&1 == 1, cases&2 == 2, byte(cases>>2&3)
	g, keys := garbleAND(t, seedOf(seed), alpha, beta, rho)
	la, _ := keys.Encode(0, []bool{v&1 == 1})
	lb, _ := keys.Encode(1, []bool{v&2 == 2})
	honest, err := gc.Evaluate(andGate, g, [2][]gc.Label{la, lb})
	if err != nil {
		t.Fatal(err)
	}
	i, j := la[0].LSB(), lb[0].LSB()
	bad := &gc.Garbled{Scheme: g.Scheme, Instance: g.Instance, Tables: bytes.Clone(g.Tables), Decoding: g.Decoding}
	var used bool
	switch row = row % 8; {
	case row < 3:
		bit %= 64
		bad.Tables[8*row+bit/8] ^= 1 << (bit % 8)
		used = []bool{i, j, i != j}[row]
	default:
		bad.Tables[gc.ThreeHalvesTableSize] ^= 1 << (row - 3)
		used = []bool{true, true, i, j, i != j}[row-3]
	}
	out, err := gc.Evaluate(andGate, bad, [2][]gc.Label{la, lb})
	if err != nil {
		t.Fatal(err)
	}
	if !used {
		if out[0] != honest[0] {
			t.Fatalf("row %d, unused at colours %v %v, changed the output", row, i, j)
		}
		return
	}
	if out[0] == honest[0] {
		t.Fatalf("cases %d inputs %d: wrong row %d (bit %d) left the output label unchanged", cases, v, row, bit)
	}
	if _, err := keys.Decode(out); !errors.Is(err, gc.ErrUndecodable) {
		t.Fatalf("cases %d inputs %d: wrong row %d gave a label the garbler decodes (%v)", cases, v, row, err)
	}
}

// TestThreeHalvesWrongRow (T-8(c)): for every colour, coin and input
// case, every row of a three-halves table that the evaluator reads
// changes its output to a label the garbler refuses (a corrupted row is
// never silently harmless where it is read).
func TestThreeHalvesWrongRow(t *testing.T) {
	for cases := range 16 {
		for v := range 4 {
			for row := range 8 {
				wrongRow(t, byte(cases), cases, v, row, 17*row+cases)
			}
		}
	}
}

// FuzzThreeHalvesWrongRow is TestThreeHalvesWrongRow on random labels
// and bits.
func FuzzThreeHalvesWrongRow(f *testing.F) {
	for row := range 8 {
		f.Add(byte(row), uint8(row*5), uint8(row), uint8(row*9))
	}
	f.Fuzz(func(t *testing.T, seed byte, cases, row, bit uint8) {
		wrongRow(t, seed, int(cases&15), int(cases>>4&3), int(row), int(bit))
	})
}

// TestThreeHalvesWire: a three-halves garbling crosses the wire as 'G' 2
// with 197 bits per AND gate rounded up once, decodes to the same
// garbling, and is refused with non-zero padding of its control bits, as
// the other scheme's garbling, or without its coins.
func TestThreeHalvesWire(t *testing.T) {
	seed := seedOf(130)
	c := randomCircuit(seed.Stream("wire"), 6, 6, 91, [3]int{1, 2, 1}, 11)
	delta, _ := gc.NewDelta(seed.Stream("delta"))
	g, keys, err := gc.ThreeHalves.Garble(c, delta, seed.Stream("labels"), 1<<40+5)
	if err != nil {
		t.Fatal(err)
	}
	nAND := gc.CountAND(c)
	if nAND*5%8 == 0 {
		t.Fatalf("pick a circuit whose control bits leave padding (%d AND gates)", nAND)
	}
	b, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if want := 18 + 24*nAND + (5*nAND+7)/8 + 2; len(b) != want || b[1] != 2 {
		t.Errorf("message is %d bytes, version %d; want %d, 2", len(b), b[1], want)
	}
	g2, err := gc.ParseGarbled(b)
	if err != nil {
		t.Fatal(err)
	}
	if g2.Scheme != gc.ThreeHalves {
		t.Fatalf("parsed scheme %v", g2.Scheme)
	}
	if err := gc.ThreeHalves.CheckGarbling(c, delta, seed.Stream("labels"), 1<<40+5, g2); err != nil {
		t.Errorf("decoded garbling differs: %v", err)
	}
	if err := gc.HalfGates.CheckGarbling(c, delta, seed.Stream("labels"), 1<<40+5, g2); !errors.Is(err, gc.ErrMismatch) {
		t.Errorf("three-halves garbling checked as half-gates: %v", err)
	}
	// Evaluating a garbling under the wrong scheme is refused.
	in0, _ := keys.Encode(0, make([]bool, 6))
	in1, _ := keys.Encode(1, make([]bool, 6))
	wrong := &gc.Garbled{Scheme: gc.HalfGates, Instance: g.Instance, Tables: g.Tables, Decoding: g.Decoding}
	if _, err := gc.Evaluate(c, wrong, [2][]gc.Label{in0, in1}); !errors.Is(err, gc.ErrTables) {
		t.Errorf("three-halves tables as half-gates: %v, want ErrTables", err)
	}
	if _, err := gc.Evaluate(c, &gc.Garbled{Scheme: 7, Tables: g.Tables, Decoding: g.Decoding}, [2][]gc.Label{in0, in1}); !errors.Is(err, gc.ErrTables) {
		t.Errorf("unknown scheme: %v, want ErrTables", err)
	}
	// Non-zero padding after the last gate's control bits, each padding
	// bit alone (the lowest is right after the last control bit).
	for bit := 5 * nAND % 8; bit < 8; bit++ {
		padded := bytes.Clone(b)
		padded[18+24*nAND+(5*nAND+7)/8-1] |= 1 << bit
		if _, err := gc.ParseGarbled(padded); !errors.Is(err, gc.ErrMessage) {
			t.Errorf("control padding bit %d: %v, want ErrMessage", bit, err)
		}
	}
	for name, m := range map[string][]byte{"truncated": b[:len(b)-1], "extra": append(bytes.Clone(b), 0), "version 3": append([]byte{'G', 3}, b[2:]...)} {
		if _, err := gc.ParseGarbled(m); !errors.Is(err, gc.ErrMessage) {
			t.Errorf("%s: %v, want ErrMessage", name, err)
		}
	}
	// No coins, or too few.
	var zero [2][]gc.Label
	zero[0], zero[1] = make([]gc.Label, 6), make([]gc.Label, 6)
	if _, _, err := gc.ThreeHalves.GarbleInputs(c, delta, zero, nil, 0); err == nil {
		t.Error("three-halves garbled without coins")
	}
	if _, _, err := gc.ThreeHalves.GarbleInputs(c, delta, zero, bytes.NewReader([]byte{1}), 0); err == nil {
		t.Error("three-halves garbled with too few coins")
	}
	if _, _, err := gc.Scheme(9).Garble(c, delta, seed.Stream("labels"), 0); err == nil {
		t.Error("unknown scheme garbled")
	}
}
