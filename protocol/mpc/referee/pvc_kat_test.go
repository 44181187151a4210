package referee

import (
	"fmt"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/internal/kat"
)

// TestKATCheckedTry keeps the known answers of checked tries (T-8(b),
// MPC-D14): from fixed seeds, every message of the first two tries of a
// 5×5 game with λ = 4 (the first by the garbler's player, the second by
// the evaluator's): the request, the commitments and the OT reply, the
// choice, garbling ĵ's tables, labels and corrections, and the outputs.
// The garbler and the evaluator share the code, so a change both make
// the same way (a GGM child label, the order of the label hashes, the
// corrections) leaves the round trips green; the digests in
// testdata/kat.txt see it. KAKURE_WRITE_KAT=1 rewrites them after a
// deliberate change.
//
// The same with three-halves garbling, checked (λ = 4) and not (λ = 1),
// whose garbler's masks are in the decoding bits (MPC-D27): the
// digests of the tables see a change of where the masks are read or
// which decoding bits they flip, which garbler and evaluator would
// otherwise share.
//
// And a checked game of the correlated input OTs (MPC-D28): the reverse
// setup, then per try the reverse request, the per-garbling requests,
// H(K_i) in the commitments and the corrections in its reply.
//
// And the authenticated state (MPC-D29) with MACs of 128 bits and of 64
// (MPC-D32): its MAC extension's setup, MAC sub-batches, sums, openings
// and seed transfer (MPC-D30) in the same messages. The vectors of MACs
// of 128 bits were written by the code before MPC-D32: records of games
// of "authenticated" keep their bytes.
func TestKATCheckedTry(t *testing.T) {
	got := map[string][]byte{}
	for _, r := range []struct {
		prefix  string
		lambda  int
		scheme  gc.Scheme
		msgs    int
		form    InputOT
		auth    bool
		macBits int
	}{{"checked", 4, gc.HalfGates, 16, InputOTExtension, false, 0}, {"checked-three-halves", 4, gc.ThreeHalves, 16, InputOTExtension, false, 0}, {"three-halves", 0, gc.ThreeHalves, 10, InputOTExtension, false, 0},
		{"checked-correlated", 4, gc.HalfGates, 20, InputOTCorrelated, false, 0},
		{"checked-authenticated", 4, gc.ThreeHalves, 20, InputOTCorrelated, true, 0}, {"checked-authenticated-mac64", 4, gc.ThreeHalves, 20, InputOTCorrelated, true, 64}} {
		n := len(got)
		var gm *testGame
		if r.auth {
			gm = newAuthGame(t, 5, engine.RulesCommon, engine.Black, testSeed("kat g", 1), testSeed("kat e", 1), r.lambda, r.macBits)
			got[r.prefix+"/setup/reverse-start"], _ = gm.g.ReverseStart()
			got[r.prefix+"/setup/reverse-respond"] = gm.received[circuit.Garbler][len(gm.received[circuit.Garbler])-1]
		} else if r.form == InputOTCorrelated {
			gm = newCOTGame(t, 5, engine.RulesCommon, engine.Black, testSeed("kat g", 1), testSeed("kat e", 1), r.lambda, r.scheme)
			got[r.prefix+"/setup/reverse-start"], _ = gm.g.ReverseStart()
			got[r.prefix+"/setup/reverse-respond"] = gm.received[circuit.Garbler][len(gm.received[circuit.Garbler])-1]
		} else {
			gm = newSchemeGame(t, 5, engine.RulesCommon, engine.Black, testSeed("kat g", 1), testSeed("kat e", 1), r.lambda, r.scheme)
		}
		gm.tamper = func(try uint64, what string, b []byte) []byte {
			got[fmt.Sprintf("%s/try-%d/%s", r.prefix, try, what)] = append([]byte(nil), b...)
			return b
		}
		for _, p := range []engine.Point{12, 6} {
			if _, d := gm.step(p); d != "" {
				t.Fatal(d)
			}
		}
		if len(got)-n != r.msgs {
			t.Fatalf("%s: %d messages", r.prefix, len(got)-n)
		}
	}
	kat.Check(t, "testdata/kat.txt", got)
}
