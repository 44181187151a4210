package referee

import (
	"errors"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// FuzzMachinesRefuseGarbage feeds arbitrary bytes to both machines in
// place of the other party's messages of a try. Nothing panics; a refusal
// as malformed (ErrMessage) leaves the machine as it was, so that the
// honest message then goes through and the try ends as in an honest
// game; anything else accepted must be a deviation caught (ErrDeviation)
// or bytes equal to the honest message.
func FuzzMachinesRefuseGarbage(f *testing.F) {
	f.Add(uint8(0), []byte("O\x01\x03"), uint8(12))
	f.Add(uint8(1), []byte("G\x01"), uint8(3))
	f.Add(uint8(2), []byte("L\x01\x00\x00\x00\x01"), uint8(0))
	f.Add(uint8(3), []byte{}, uint8(7))
	f.Fuzz(func(t *testing.T, which uint8, junk []byte, at uint8) {
		gm := newTestGame(t, 5, engine.RulesCommon, engine.White, testSeed("fuzz g", 0), testSeed("fuzz e", 0))
		// One honest try first (Black, the evaluator's player, moves).
		if _, err := gm.play(engine.PointAt(2, 2, 5)); err != nil {
			t.Fatal(err)
		}
		p := engine.PointAt(int(at)%5, int(at)/5%5, 5)
		req, err := gm.e.Request(engine.NoPoint)
		if err != nil {
			t.Fatal(err)
		}
		refused := func(err error) bool {
			if err == nil || errors.Is(err, ErrDeviation) {
				return false
			}
			if !errors.Is(err, ErrMessage) {
				t.Fatalf("garbage refused with %v", err)
			}
			return true
		}
		if which%4 == 0 {
			if _, err := gm.g.Garble(junk, p); err == nil {
				t.Skip("garbage taken as a request") // well-formed: a cheating request, for the audit
			} else if !refused(err) {
				t.Skip()
			}
		}
		gb, err := gm.g.Garble(req, p)
		if err != nil {
			t.Fatal(err)
		}
		bad := gb
		switch which % 4 {
		case 1:
			bad.Tables = junk
		case 2:
			bad.Labels = junk
		case 3:
			bad.Reply = junk
		}
		if which%4 != 0 {
			if _, _, err := gm.e.Evaluate(bad); !refused(err) {
				t.Skip()
			}
		}
		o, _, err := gm.e.Evaluate(gb)
		if err != nil {
			t.Fatalf("the honest garbling after garbage: %v", err)
		}
		badO := o
		badO.Labels = junk
		if _, err := gm.g.Finish(badO); err == nil {
			t.Fatal("garbage taken as output labels")
		} else if errors.Is(err, ErrDeviation) {
			return
		}
		a, err := gm.g.Finish(o)
		if err != nil {
			t.Fatalf("the honest outputs after garbage: %v", err)
		}
		if a.Mover != engine.White || gm.cfg.PartyOf(a.Mover) != circuit.Garbler {
			t.Fatalf("announcement %v", a.KeyValues())
		}
	})
}
