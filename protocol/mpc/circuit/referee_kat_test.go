package circuit_test

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/internal/kat"
)

// circuitBytes is the whole of c in a fixed encoding: the number of
// wires, each party's input wires, the output wires and every gate (op,
// A, B, Out) in order, each a little-endian uint32 after its count.
func circuitBytes(c *circuit.Circuit) []byte {
	var b []byte
	put := func(v uint32) { b = binary.LittleEndian.AppendUint32(b, v) }
	wires := func(ws []circuit.Wire) {
		put(uint32(len(ws)))
		for _, w := range ws {
			put(uint32(w))
		}
	}
	put(uint32(c.NumWires))
	wires(c.Inputs[0])
	wires(c.Inputs[1])
	wires(c.Outputs)
	put(uint32(len(c.Gates)))
	for _, g := range c.Gates {
		put(uint32(g.Op))
		put(uint32(g.A))
		put(uint32(g.B))
		put(uint32(g.Out))
	}
	return b
}

// TestKATRefereeCircuitGates (MPC-D48): the referee circuit is pinned
// gate for gate. For 9×9 and 19×19, each mover, the circuit of
// [circuit.RefereeCircuit] and of [circuit.RefereeCircuitMasksInDecoding]
// (its wires, inputs, outputs and every gate in order) and its layout
// give the SHA-256 digests kept in testdata/kat.txt, computed before
// buildReferee was split into named steps (issue 33), and for the
// evaluator's tries the form with the try flipped (MPC-D52, in the
// decoding-bits form of three-halves games). The layouts' digests were
// written again when the layout gained the flips' fields: the print of
// each old layout without the new empty fields still gives its old
// digest, and the gates' digests did not change. Swapping two gates,
// renumbering a wire or moving an output changes a digest; a deliberate
// change of the circuit rewrites them with KAKURE_WRITE_KAT=1 (and
// changes every garbling of the protocol's known answers).
func TestKATRefereeCircuitGates(t *testing.T) {
	got := map[string][]byte{}
	builds := []struct {
		name  string
		build func(int, engine.PhantomRules, circuit.Party) (*circuit.RefereeLayout, *circuit.Circuit, error)
	}{
		{"masked", circuit.RefereeCircuit},
		{"masks-in-decoding", circuit.RefereeCircuitMasksInDecoding},
		{"masks-in-decoding-flips", func(size int, rules engine.PhantomRules, mover circuit.Party) (*circuit.RefereeLayout, *circuit.Circuit, error) {
			return circuit.RefereeCircuitOf(size, rules, mover, circuit.RefereeForm{MasksInDecoding: true, TryFlips: true})
		}},
	}
	for _, size := range []int{9, 19} {
		for _, mover := range []circuit.Party{circuit.Garbler, circuit.Evaluator} {
			for _, bd := range builds {
				if bd.name == "masks-in-decoding-flips" && mover != circuit.Evaluator {
					continue // only the evaluator's try is flipped
				}
				l, c, err := bd.build(size, engine.RulesCommon, mover)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("referee/%dx%d/mover-%v/%s", size, size, mover, bd.name)
				got[name+"/gates"] = circuitBytes(c)
				got[name+"/layout"] = fmt.Appendf(nil, "%+v", *l)
			}
		}
	}
	kat.Check(t, "testdata/kat.txt", got)
}
