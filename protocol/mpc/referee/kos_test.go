package referee

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/ot"
)

// TestT8OTProbingRefused (T-8(a), issue 16): a cheating evaluator sends,
// at try 5, an OT request whose row 0 has a choice vector of weight 8
// (bit 0 of 8 columns flipped: the IKNP probing attack). The garbler
// refuses it at once, before garbling, blaming the evaluator; the
// evaluator's machine is not failed; the refusal is proven by
// VerifyOTRefusal from the signed messages and the garbler's OT seed,
// while none of the honest requests before it can be; the end audit
// names the evaluator too.
func TestT8OTProbingRefused(t *testing.T) {
	const cheatAt = 5
	for k, garbler := range []engine.Color{engine.Black, engine.White} {
		gm := newTestGame(t, 9, engine.RulesCommon, garbler, testSeed("kos G", k), testSeed("kos E", k))
		var requests [][]byte
		gm.tamper = func(try uint64, what string, b []byte) []byte {
			if what != "request" {
				return b
			}
			if try == cheatAt {
				m := int(binary.BigEndian.Uint32(b[7:11]))
				nb := (m + ot.KOSPad + 7) / 8
				for _, col := range []int{3, 17, 30, 44, 61, 80, 99, 127} {
					b[11+col*nb] ^= 1 // bit 0 of the column: row 0
				}
			}
			requests = append(requests, b)
			return b
		}
		err := playUntil(t, gm, rand.New(rand.NewPCG(7, uint64(k))), 20, nil)
		if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the evaluator") || !strings.Contains(err.Error(), "consistency") {
			t.Fatalf("garbler %v: %v, want the evaluator's request refused by the consistency check", garbler, err)
		}
		if gm.g.Err() == nil || gm.e.Err() != nil || gm.g.Public().Try != cheatAt {
			t.Fatalf("garbler %v: at try %d, garbler error %v, evaluator error %v", garbler, gm.g.Public().Try, gm.g.Err(), gm.e.Err())
		}
		base := [2][]byte{gm.received[circuit.Garbler][0], gm.received[circuit.Evaluator][0]}
		for try, req := range requests {
			err := VerifyOTRefusal(gm.cfg, uint64(try), gm.g.OTSeed(), base[0], base[1], req)
			if (err == nil) != (try == cheatAt) {
				t.Fatalf("garbler %v: try %d: refusal proven = %v", garbler, try, err == nil)
			}
		}
		// The garbler cannot prove it with another try number or seed.
		if VerifyOTRefusal(gm.cfg, cheatAt-1, gm.g.OTSeed(), base[0], base[1], requests[cheatAt]) == nil ||
			VerifyOTRefusal(gm.cfg, cheatAt, testSeed("not the OT seed", k), base[0], base[1], requests[cheatAt]) == nil {
			t.Fatalf("garbler %v: a refusal proven with the wrong try or seed", garbler)
		}
		wantFault(t, mustFail(Audit(gm.rec, gm.reveals())), circuit.Evaluator, cheatAt, "OT request")
	}
}
