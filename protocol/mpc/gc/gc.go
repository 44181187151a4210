// Package gc garbles and evaluates boolean circuits (Yao's garbled
// circuits) for the two-party referee of Phantom Go (trust.md T-7).
//
// Two schemes garble AND gates ([Scheme]): half-gates (Zahur, Rosulek and
// Evans, Eurocrypt 2015), described here, and three-halves (Rosulek and
// Roy, CRYPTO 2021; threehalves.go), 197 bits per AND gate instead of 256.
// Both use free-XOR (Kolesnikov and Schneider) and point-and-permute:
//
//   - every wire w has a zero label W0 and a one label W0 ⊕ Δ, where Δ is a
//     secret 128-bit offset of the garbler with least significant bit 1, so
//     the least significant bit of a label (its colour) is a random mask of
//     the wire's value;
//   - XOR gates cost nothing (Out0 = A0 ⊕ B0) and so do INV gates
//     (Out0 = A0 ⊕ Δ; the evaluator passes its label through);
//   - an AND gate costs two ciphertexts, 32 bytes, four hashes to garble and
//     two to evaluate.
//
// The hash is the tweakable circular correlation-robust hash of package
// aeshash (Guo, Katz, Wang and Yu 2020); the j-th AND gate of a garbling
// uses the tweaks (instance, 2j) and (instance, 2j+1), so the instance
// number must differ between garblings made with the same Δ (a try number
// does).
//
// Garbling is deterministic: the same circuit, Δ, instance and input labels
// give the same bytes, and [Garble] draws the input labels from a stream, so
// [CheckGarbling] can re-garble from a revealed seed and compare byte for
// byte (trust.md T-8).
package gc

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/kakure/kakure/protocol/mpc/aeshash"
	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// Label is a wire label.
type Label = aeshash.Block

// TableSize is the number of bytes of garbled table per AND gate of
// HalfGates (see Scheme.TablesSize for both schemes).
const TableSize = 2 * aeshash.Size

// Errors of the package. They are wrapped with context.
var (
	// ErrCircuit reports a circuit that cannot be garbled: a wire out of
	// range, read before it is written or written twice, an unknown op.
	ErrCircuit = errors.New("gc: invalid circuit")
	// ErrLabels reports input labels or decoding bits of the wrong number.
	ErrLabels = errors.New("gc: wrong number of labels")
	// ErrTables reports garbled tables of the wrong size for the circuit.
	ErrTables = errors.New("gc: garbled tables do not fit the circuit")
	// ErrUndecodable reports an output label that is neither of the two
	// labels of its wire: the tables or the labels were tampered with.
	ErrUndecodable = errors.New("gc: output label matches neither value")
	// ErrMismatch reports a garbling that differs from the one re-derived
	// from the garbler's seed.
	ErrMismatch = errors.New("gc: garbling differs from its re-derivation")
	// ErrDelta reports a Δ whose least significant bit is 0.
	ErrDelta = errors.New("gc: delta must have least significant bit 1")
)

// Garbled is what the garbler sends to the evaluator for one circuit.
type Garbled struct {
	// Scheme is the garbling scheme of the tables.
	Scheme Scheme
	// Instance is the tweak domain of this garbling; evaluation must use
	// the same value.
	Instance uint64
	// Tables holds Scheme.TablesSize bytes. HalfGates: TableSize bytes
	// per AND gate, in gate order: the generator half-gate ciphertext TG,
	// then the evaluator half TE. ThreeHalves: the three half-label
	// ciphertexts G0, G1, G2 of every AND gate (8 bytes each, little
	// endian), in gate order, then the five control bits z0..z4 of every
	// AND gate, packed.
	Tables []byte
	// Decoding holds, per output wire, the colour of its zero label: the
	// evaluator's output bit is the colour of its label XOR this bit.
	Decoding []bool
	// msg, for a garbling made by this package, is the buffer of its
	// message form that Tables lives in: garbledHeader bytes before the
	// tables, the packed decoding bits after them ([Garbled.MarshalInPlace]);
	// buf is the buffer msg is in, for Release.
	msg, buf []byte
}

// Keys is the garbler's secret side of a garbling.
type Keys struct {
	Delta Label
	// Inputs holds, per party and per input wire, the labels of 0 and 1.
	Inputs [2][][2]Label
	// Outputs holds, per output wire, the labels of 0 and 1; they let the
	// garbler decode output labels the evaluator sends back, which the
	// evaluator cannot forge.
	Outputs [][2]Label
}

// NewDelta reads a Δ from r and sets its least significant bit.
func NewDelta(r io.Reader) (Label, error) {
	var d Label
	if _, err := io.ReadFull(r, d[:]); err != nil {
		return d, fmt.Errorf("gc: reading delta: %w", err)
	}
	d[0] |= 1
	return d, nil
}

// Garble garbles c with offset delta, reading one zero label per input wire
// from labels (garbler's inputs first, then the evaluator's, 16 bytes
// each). With labels a prg.Stream it is reproducible from the stream's
// seed.
func Garble(c *circuit.Circuit, delta Label, labels io.Reader, instance uint64) (*Garbled, *Keys, error) {
	return HalfGates.Garble(c, delta, labels, instance)
}

// GarbleInputs garbles c with offset delta and the given zero labels of the
// input wires (per party, per input wire), for inputs whose labels come
// from elsewhere: output labels of a previous circuit, a correlated OT.
func GarbleInputs(c *circuit.Circuit, delta Label, zero [2][]Label, instance uint64) (*Garbled, *Keys, error) {
	return HalfGates.GarbleInputs(c, delta, zero, nil, instance)
}

// garbleInputs is GarbleInputs with scheme s on a prepared circuit;
// coins gives ThreeHalves its random bits.
func garbleInputs(s Scheme, c *Prepared, delta Label, zero [2][]Label, coins io.Reader, instance uint64) (*Garbled, *Keys, error) {
	if !delta.LSB() {
		return nil, nil, ErrDelta
	}
	for p := range 2 {
		if len(zero[p]) != len(c.inputs[p]) {
			return nil, nil, fmt.Errorf("%w: party %d has %d input labels, circuit has %d inputs",
				ErrLabels, p, len(zero[p]), len(c.inputs[p]))
		}
	}
	nAND := c.nAND
	wp, w := getWires(c.numWires)
	defer wirePool.Put(wp)
	keys := &Keys{Delta: delta}
	d := toBlk(delta)
	for p := range 2 {
		in, zp := make([][2]Label, len(c.inputs[p])), zero[p][:len(c.inputs[p])]
		keys.Inputs[p] = in
		for i, x := range c.inputs[p] {
			// In place: a [2]Label built aside and copied cost more than
			// garbling the gates' XORs (profile of BenchmarkReferee).
			z := toBlk(zp[i])
			w[x] = z
			z.putPair(&in[i], d)
		}
	}
	g := newGarbled(s, instance, s.TablesSize(nAND), len(c.outputs))
	if s == ThreeHalves {
		if coins == nil {
			return nil, nil, fmt.Errorf("gc: three-halves garbling needs random coins")
		}
		r := make([]byte, (2*nAND+7)/8)
		if _, err := io.ReadFull(coins, r); err != nil {
			return nil, nil, fmt.Errorf("gc: reading three-halves coins: %w", err)
		}
		if useTH3Fused(true) {
			garbleScheduled3(c.ensureSchedule(), w, d, instance, r, g.Tables, nAND)
		} else {
			garbleGates3(c.gates, w, d, instance, r, g.Tables, nAND)
		}
	} else {
		garbleGates(c, w, d, instance, g.Tables)
	}
	keys.Outputs = make([][2]Label, len(c.outputs))
	for i, x := range c.outputs {
		w[x].putPair(&keys.Outputs[i], d)
		g.Decoding[i] = keys.Outputs[i][0].LSB()
	}
	return g, keys, nil
}

// Evaluate evaluates the garbled circuit g of c on one label per input wire
// (per party) and returns one label per output wire.
func Evaluate(c *circuit.Circuit, g *Garbled, inputs [2][]Label) ([]Label, error) {
	p, err := prepareTemp(c)
	if err != nil {
		return nil, err
	}
	defer releaseTemp(p)
	return EvaluatePrepared(p, g, inputs)
}

// EvaluatePrepared is Evaluate on a prepared circuit.
func EvaluatePrepared(c *Prepared, g *Garbled, inputs [2][]Label) ([]Label, error) {
	if c == nil {
		return nil, fmt.Errorf("%w: nil prepared circuit", ErrCircuit)
	}
	nAND := c.nAND
	if g == nil {
		return nil, fmt.Errorf("%w: no garbling", ErrTables)
	}
	if !g.Scheme.Valid() {
		return nil, fmt.Errorf("%w: %v", ErrTables, g.Scheme)
	}
	if len(g.Tables) != g.Scheme.TablesSize(nAND) {
		return nil, fmt.Errorf("%w: %d bytes of %v tables for %d AND gates", ErrTables, len(g.Tables), g.Scheme, nAND)
	}
	for p := range 2 {
		if len(inputs[p]) != len(c.inputs[p]) {
			return nil, fmt.Errorf("%w: party %d has %d input labels, circuit has %d inputs",
				ErrLabels, p, len(inputs[p]), len(c.inputs[p]))
		}
	}
	wp, w := getWires(c.numWires)
	defer wirePool.Put(wp)
	for p := range 2 {
		for i, x := range c.inputs[p] {
			w[x] = toBlk(inputs[p][i])
		}
	}
	if g.Scheme == ThreeHalves {
		if useTH3Fused(false) {
			evaluateScheduled3(c.ensureSchedule(), w, g.Instance, g.Tables, nAND)
		} else {
			evaluateGates3(c.gates, w, g.Instance, g.Tables, nAND)
		}
	} else {
		evaluateGates(c, w, g.Instance, g.Tables)
	}
	out := make([]Label, len(c.outputs))
	for i, x := range c.outputs {
		out[i] = w[x].label()
	}
	return out, nil
}

// Decode turns output labels into bits with the decoding bits of the
// garbling: bit i is the colour of labels[i] XOR decoding[i]. A label
// obtained from tampered tables decodes to an arbitrary bit; only the
// garbler's Keys.Decode, or the audit, can tell.
func Decode(labels []Label, decoding []bool) ([]bool, error) {
	if len(labels) != len(decoding) {
		return nil, fmt.Errorf("%w: %d output labels, %d decoding bits", ErrLabels, len(labels), len(decoding))
	}
	out := make([]bool, len(labels))
	for i, l := range labels {
		out[i] = l.LSB() != decoding[i]
	}
	return out, nil
}

// Encode returns the labels of the given input bits of party (0 garbler,
// 1 evaluator): what the garbler sends for its own inputs.
func (k *Keys) Encode(party int, bits []bool) ([]Label, error) {
	if party != 0 && party != 1 {
		return nil, fmt.Errorf("gc: party %d is not 0 or 1", party)
	}
	if len(bits) != len(k.Inputs[party]) {
		return nil, fmt.Errorf("%w: %d bits for %d inputs of party %d", ErrLabels, len(bits), len(k.Inputs[party]), party)
	}
	out := make([]Label, len(bits))
	for i, b := range bits {
		out[i] = k.Inputs[party][i][b2i(b)]
	}
	return out, nil
}

// Decode decodes output labels on the garbler's side: each label must be
// one of the two labels of its output wire, otherwise ErrUndecodable. The
// evaluator, lacking Δ, cannot produce the label of the other value, so a
// decoded bit is the true output of the circuit the garbler garbled.
func (k *Keys) Decode(labels []Label) ([]bool, error) {
	if len(labels) != len(k.Outputs) {
		return nil, fmt.Errorf("%w: %d output labels for %d outputs", ErrLabels, len(labels), len(k.Outputs))
	}
	out := make([]bool, len(labels))
	for i, l := range labels {
		switch l {
		case k.Outputs[i][0]:
		case k.Outputs[i][1]:
			out[i] = true
		default:
			return nil, fmt.Errorf("%w: output %d", ErrUndecodable, i)
		}
	}
	return out, nil
}

// CheckGarbling re-garbles c from the garbler's revealed delta and label
// stream with the instance number the garbling should have had, and
// compares the result with g, the garbling that was received.
// It returns nil if they are identical, and otherwise an ErrMismatch error
// naming the first AND gate (by index among AND gates) or decoding bit that
// differs.
func CheckGarbling(c *circuit.Circuit, delta Label, labels io.Reader, instance uint64, g *Garbled) error {
	want, _, err := Garble(c, delta, labels, instance)
	if err != nil {
		return err
	}
	return compareGarbled(want, g)
}

// CheckGarblingInputs is CheckGarbling for a garbling made by GarbleInputs.
func CheckGarblingInputs(c *circuit.Circuit, delta Label, zero [2][]Label, instance uint64, g *Garbled) error {
	want, _, err := GarbleInputs(c, delta, zero, instance)
	if err != nil {
		return err
	}
	return compareGarbled(want, g)
}

func compareGarbled(want, got *Garbled) error {
	if got.Scheme != want.Scheme {
		return fmt.Errorf("%w: %v, want %v", ErrMismatch, got.Scheme, want.Scheme)
	}
	if got.Instance != want.Instance {
		return fmt.Errorf("%w: instance %d, want %d", ErrMismatch, got.Instance, want.Instance)
	}
	if len(got.Tables) != len(want.Tables) {
		return fmt.Errorf("%w: %d bytes of tables, want %d", ErrMismatch, len(got.Tables), len(want.Tables))
	}
	if j := firstDifferentGate(want.Scheme, want.Tables, got.Tables); j >= 0 {
		return fmt.Errorf("%w: AND gate %d", ErrMismatch, j)
	}
	if len(got.Decoding) != len(want.Decoding) {
		return fmt.Errorf("%w: %d decoding bits, want %d", ErrMismatch, len(got.Decoding), len(want.Decoding))
	}
	for i := range want.Decoding {
		if want.Decoding[i] != got.Decoding[i] {
			return fmt.Errorf("%w: decoding bit %d", ErrMismatch, i)
		}
	}
	return nil
}

// firstDifferentGate returns the index of the first AND gate whose table
// (ciphertexts or control bits) differs between a and b, tables of scheme
// s of the same size, or -1.
func firstDifferentGate(s Scheme, a, b []byte) int {
	size := TableSize
	if s == ThreeHalves {
		size = ThreeHalvesTableSize
	}
	nAND, _ := tablesGates(s, len(a))
	for j := range nAND {
		if string(a[j*size:(j+1)*size]) != string(b[j*size:(j+1)*size]) {
			return j
		}
		if s == ThreeHalves && controlBits(a, nAND, j) != controlBits(b, nAND, j) {
			return j
		}
	}
	return -1
}

// CountAND returns the number of AND gates of c, which fixes the size of
// its tables: CountAND(c) * TableSize bytes.
func CountAND(c *circuit.Circuit) int {
	n := 0
	for _, g := range c.Gates {
		if g.Op == circuit.OpAND {
			n++
		}
	}
	return n
}

// validate checks that c can be garbled safely and returns its number of
// AND gates: every wire in range, inputs distinct, every gate reading only
// wires already written and writing a wire not yet written, outputs
// written.
func validate(c *circuit.Circuit) (int, error) {
	if c == nil {
		return 0, fmt.Errorf("%w: nil circuit", ErrCircuit)
	}
	if c.NumWires < 0 || c.NumWires > maxWires {
		return 0, fmt.Errorf("%w: %d wires", ErrCircuit, c.NumWires)
	}
	if nAND, ok := validateBuilt(c); ok {
		return nAND, nil
	}
	set := newWireSet(c.NumWires)
	for p := range 2 {
		for _, x := range c.Inputs[p] {
			if int(x) >= c.NumWires || set.has(x) {
				return 0, fmt.Errorf("%w: input wire %d out of range or repeated", ErrCircuit, x)
			}
			set.add(x)
		}
	}
	nAND := 0
	for i, g := range c.Gates {
		if int(g.A) >= c.NumWires || !set.has(g.A) {
			return 0, fmt.Errorf("%w: gate %d reads wire %d before it is written", ErrCircuit, i, g.A)
		}
		switch g.Op {
		case circuit.OpAND:
			nAND++
			fallthrough
		case circuit.OpXOR:
			if int(g.B) >= c.NumWires || !set.has(g.B) {
				return 0, fmt.Errorf("%w: gate %d reads wire %d before it is written", ErrCircuit, i, g.B)
			}
		case circuit.OpINV:
		default:
			return 0, fmt.Errorf("%w: gate %d has op %d", ErrCircuit, i, g.Op)
		}
		if int(g.Out) >= c.NumWires || set.has(g.Out) {
			return 0, fmt.Errorf("%w: gate %d writes wire %d out of range or twice", ErrCircuit, i, g.Out)
		}
		set.add(g.Out)
	}
	for _, x := range c.Outputs {
		if int(x) >= c.NumWires || !set.has(x) {
			return 0, fmt.Errorf("%w: output wire %d out of range or never written", ErrCircuit, x)
		}
	}
	return nAND, nil
}

// validateBuilt is validate for circuits laid out as [circuit.Builder]
// lays them out: the garbler's inputs are wires 0, 1, ..., the
// evaluator's follow, gate i writes wire nIn+i (nIn the number of input
// wires) and NumWires is nIn plus the number of gates. Then the wires
// written before gate i are exactly those below nIn+i, so a gate is
// valid when it reads wires below its own output and has a known op,
// and no wire set is needed. It returns the number of AND gates and
// true if c has that layout and is valid, and false otherwise (validate
// then checks c wire by wire and names what is wrong).
func validateBuilt(c *circuit.Circuit) (int, bool) {
	x := circuit.Wire(0)
	for p := range 2 {
		for _, w := range c.Inputs[p] {
			if w != x {
				return 0, false
			}
			x++
		}
	}
	if uint64(x)+uint64(len(c.Gates)) != uint64(c.NumWires) {
		return 0, false
	}
	nAND := 0
	for _, g := range c.Gates {
		// x is the wire gate g must write; every wire below it is written.
		if g.Out != x || g.A >= x {
			return 0, false
		}
		switch g.Op {
		case circuit.OpAND:
			nAND++
			fallthrough
		case circuit.OpXOR:
			if g.B >= x {
				return 0, false
			}
		case circuit.OpINV:
		default:
			return 0, false
		}
		x++
	}
	for _, w := range c.Outputs {
		if w >= x {
			return 0, false
		}
	}
	return nAND, true
}

// wireSet is a set of wires, one bit each (validate clears and scans
// an eighth of the memory a []bool would take).
type wireSet []uint64

func newWireSet(n int) wireSet { return make(wireSet, (n+63)/64) }

// has reports whether x is in the set; x must be below the size given
// to newWireSet.
func (s wireSet) has(x circuit.Wire) bool { return s[x/64]>>(x%64)&1 == 1 }

func (s wireSet) add(x circuit.Wire) { s[x/64] |= 1 << (x % 64) }

// maxWires bounds the wires of a circuit (the wire labels of a circuit this
// large take 1 GiB).
const maxWires = 1 << 26

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// wirePool holds the wire-label arrays of finished garblings and
// evaluations (*[]blk), so that a garbling or an evaluation neither
// allocates nor zeroes one: 16 bytes a wire, 357 KB for the 9×9 referee,
// whose allocation, zeroing and collection cost about as much as its
// XOR gates. A reused array holds the labels of an earlier circuit; no
// gate reads a wire before writing it (validate), so none of them is
// ever read, and none leaves the package.
var wirePool sync.Pool

// messagePool holds the message buffers of garblings given back by
// [Garbled.Release] (*[]byte), so that a program that garbles the same
// circuit try after try (the evaluator's re-garbling of the opened
// garblings of a checked try, MPC-D14) neither allocates nor collects
// their tables: 220 KiB a garbling on 9×9 with three-halves.
var messagePool sync.Pool

// newGarbled returns a garbling of scheme s with tables of tablesSize
// bytes, zero, and nOut decoding bits, its tables inside a buffer of its
// message form (from messagePool when one is large enough). The message
// starts tablesOffset − garbledHeader bytes into the buffer, so that the
// tables start 64 bytes into it: on a cache line (Go aligns a large
// buffer on a page), as they did in a buffer of their own, and the gate
// routines' 16- and 32-byte stores do not straddle lines (at the 18th
// byte they would; the difference was within the noise of the shared
// machine, the alignment is kept as it was).
func newGarbled(s Scheme, instance uint64, tablesSize, nOut int) *Garbled {
	n := tablesOffset + tablesSize + (nOut+7)/8
	var buf []byte
	if p, ok := messagePool.Get().(*[]byte); ok && cap(*p) >= n {
		buf = (*p)[:n]
		clear(buf)
	} else {
		buf = make([]byte, n)
	}
	end := tablesOffset + tablesSize
	return &Garbled{Scheme: s, Instance: instance, Tables: buf[tablesOffset:end:end], Decoding: make([]bool, nOut),
		msg: buf[tablesOffset-garbledHeader:], buf: buf}
}

// tablesOffset is where the tables start in a garbling's buffer.
const tablesOffset = 64

// Release gives the buffer of g's tables back for reuse by later
// garblings, when g was made by this package; g's Tables and Decoding
// are then nil. Neither the tables nor a message [Garbled.MarshalInPlace]
// returned for g may be used after Release: the caller must hold no
// other reference to them.
func (g *Garbled) Release() {
	if g.inPlace() {
		buf := g.buf
		messagePool.Put(&buf)
	}
	g.msg, g.buf, g.Tables, g.Decoding = nil, nil, nil, nil
}

// getWires returns a wire-label array of n wires from wirePool, or a new
// one, and the pointer to give back to wirePool when the caller is done
// with it; its contents are arbitrary.
func getWires(n int) (*[]blk, []blk) {
	if p, ok := wirePool.Get().(*[]blk); ok && cap(*p) >= n {
		return p, (*p)[:n]
	}
	w := make([]blk, n)
	return &w, w
}
