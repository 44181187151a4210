package gc

import (
	"fmt"
	"io"
	"unsafe"

	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// Scheme is the way AND gates are garbled. Both schemes share free-XOR,
// point-and-permute, the labels, Δ, the decoding bits and the hash of
// package aeshash; they differ in the tables of AND gates.
type Scheme uint8

const (
	// HalfGates is half-gates (Zahur, Rosulek and Evans, Eurocrypt 2015):
	// two ciphertexts per AND gate, TableSize = 32 bytes. It is the zero
	// value, so a game or a garbling that names no scheme is half-gates.
	HalfGates Scheme = 0
	// ThreeHalves is three-halves garbling ("slicing and dicing", Rosulek
	// and Roy, "Three Halves Make a Whole? Beating the Half-Gates Lower
	// Bound for Garbled Circuits", CRYPTO 2021, ePrint 2021/749): three
	// half-label ciphertexts and five control bits per AND gate,
	// 1.5κ + 5 = 197 bits, ThreeHalvesTableSize bytes of ciphertexts plus
	// five bits packed after all of them.
	ThreeHalves Scheme = 1
)

// ThreeHalvesTableSize is the number of bytes of half-label ciphertexts
// per AND gate of ThreeHalves (its five control bits per gate come after
// the ciphertexts of all gates, see Scheme.TablesSize).
const ThreeHalvesTableSize = 3 * 8

// threeHalvesControlBits is the number of control bits per AND gate of
// ThreeHalves.
const threeHalvesControlBits = 5

// String returns "half-gates" or "three-halves".
func (s Scheme) String() string {
	switch s {
	case HalfGates:
		return "half-gates"
	case ThreeHalves:
		return "three-halves"
	}
	return fmt.Sprintf("scheme(%d)", uint8(s))
}

// Valid reports whether s is a scheme of the package.
func (s Scheme) Valid() bool { return s == HalfGates || s == ThreeHalves }

// ParseScheme returns the scheme named by String.
func ParseScheme(name string) (Scheme, error) {
	for _, s := range []Scheme{HalfGates, ThreeHalves} {
		if s.String() == name {
			return s, nil
		}
	}
	return 0, fmt.Errorf("gc: unknown garbling scheme %q (half-gates or three-halves)", name)
}

// TablesSize returns the bytes of garbled tables of nAND AND gates:
// nAND·TableSize for HalfGates; nAND·ThreeHalvesTableSize followed by the
// control bits, five per gate packed eight per byte (least significant
// bit first, gate j's bits at 5j..5j+4, unused bits zero), for
// ThreeHalves.
func (s Scheme) TablesSize(nAND int) int {
	if s == ThreeHalves {
		return nAND*ThreeHalvesTableSize + (nAND*threeHalvesControlBits+7)/8
	}
	return nAND * TableSize
}

// Garble is the package function Garble with scheme s. ThreeHalves reads,
// after the input labels, two random bits per AND gate from labels (the
// garbler's choice of the R matrices of the scheme), so that the garbling
// is still reproducible from the stream's seed.
func (s Scheme) Garble(c *circuit.Circuit, delta Label, labels io.Reader, instance uint64) (*Garbled, *Keys, error) {
	if !s.Valid() {
		return nil, nil, fmt.Errorf("gc: garbling with %v", s)
	}
	p, err := prepareTemp(c)
	if err != nil {
		return nil, nil, err
	}
	defer releaseTemp(p)
	return s.GarblePrepared(p, delta, labels, instance)
}

// GarblePrepared is Garble on a prepared circuit.
func (s Scheme) GarblePrepared(c *Prepared, delta Label, labels io.Reader, instance uint64) (*Garbled, *Keys, error) {
	if !s.Valid() {
		return nil, nil, fmt.Errorf("gc: garbling with %v", s)
	}
	if c == nil {
		return nil, nil, fmt.Errorf("%w: nil prepared circuit", ErrCircuit)
	}
	zero, err := readZeroLabels(c.inputs, labels)
	if err != nil {
		return nil, nil, err
	}
	return garbleInputs(s, c, delta, zero, labels, instance)
}

// GarbleInputs is the package function GarbleInputs with scheme s; coins
// gives ThreeHalves its two random bits per AND gate (HalfGates reads
// nothing from it, and it may be nil).
func (s Scheme) GarbleInputs(c *circuit.Circuit, delta Label, zero [2][]Label, coins io.Reader, instance uint64) (*Garbled, *Keys, error) {
	if !s.Valid() {
		return nil, nil, fmt.Errorf("gc: garbling with %v", s)
	}
	p, err := prepareTemp(c)
	if err != nil {
		return nil, nil, err
	}
	defer releaseTemp(p)
	return garbleInputs(s, p, delta, zero, coins, instance)
}

// CheckGarbling is the package function CheckGarbling with scheme s.
func (s Scheme) CheckGarbling(c *circuit.Circuit, delta Label, labels io.Reader, instance uint64, g *Garbled) error {
	want, _, err := s.Garble(c, delta, labels, instance)
	if err != nil {
		return err
	}
	return compareGarbled(want, g)
}

// CheckGarblingInputs is the package function CheckGarblingInputs with
// scheme s and the coins the garbling was made with.
func (s Scheme) CheckGarblingInputs(c *circuit.Circuit, delta Label, zero [2][]Label, coins io.Reader, instance uint64, g *Garbled) error {
	want, _, err := s.GarbleInputs(c, delta, zero, coins, instance)
	if err != nil {
		return err
	}
	return compareGarbled(want, g)
}

// readZeroLabels reads one zero label per input wire of a circuit of the
// given inputs from labels, the garbler's inputs first.
func readZeroLabels(inputs [2][]circuit.Wire, labels io.Reader) ([2][]Label, error) {
	var zero [2][]Label
	for p := range 2 {
		zero[p] = make([]Label, len(inputs[p]))
		if len(zero[p]) == 0 {
			continue
		}
		// One read for all of a party's labels, which lie one after the
		// other in the slice: a read per label cost a tenth of the 9×9
		// referee's garbling (profile of BenchmarkReferee).
		all := unsafe.Slice(&zero[p][0][0], len(zero[p])*len(Label{}))
		if _, err := io.ReadFull(labels, all); err != nil {
			return zero, fmt.Errorf("gc: reading input labels: %w", err)
		}
	}
	return zero, nil
}
