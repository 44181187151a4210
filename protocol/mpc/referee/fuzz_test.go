package referee

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// FuzzMachinesRefuseGarbage feeds arbitrary bytes to both machines in
// place of the other party's messages of a try. Nothing panics; a refusal
// as malformed (ErrMessage) leaves the machine as it was, so that the
// honest message then goes through and the try ends as in an honest
// game; anything else accepted must be a deviation caught (ErrDeviation)
// at once, or, where the receiver cannot tell (a well-formed OT request,
// garbled tables, labels or an OT reply that decode), caught by the audit
// of the record that keeps it, which names the sender (T-8), or bytes
// equal to the honest message.
func FuzzMachinesRefuseGarbage(f *testing.F) {
	f.Add(uint8(0), []byte("O\x01\x03"), uint8(12))
	f.Add(uint8(1), []byte("G\x01"), uint8(3))
	f.Add(uint8(2), []byte("L\x01\x00\x00\x00\x01"), uint8(0))
	f.Add(uint8(3), []byte{}, uint8(7))
	// Garbage the receiver cannot tell from the honest message, for the
	// audit to catch: another evaluator's request, and the honest tables
	// with one byte changed.
	other := newTestGame(f, 5, engine.RulesCommon, engine.White, testSeed("fuzz g", 1), testSeed("fuzz e", 1))
	if _, err := other.play(engine.PointAt(2, 2, 5)); err != nil {
		f.Fatal(err)
	}
	otherReq, err := other.e.Request(engine.NoPoint)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint8(0), otherReq, uint8(12))
	same := newTestGame(f, 5, engine.RulesCommon, engine.White, testSeed("fuzz g", 0), testSeed("fuzz e", 0))
	if _, err := same.play(engine.PointAt(2, 2, 5)); err != nil {
		f.Fatal(err)
	}
	sameReq, err := same.e.Request(engine.NoPoint)
	if err != nil {
		f.Fatal(err)
	}
	gb, err := same.g.Garble(sameReq, engine.PointAt(2, 2, 5))
	if err != nil {
		f.Fatal(err)
	}
	flipped := append([]byte(nil), gb.Tables...)
	flipped[len(flipped)/2] ^= 0x10
	f.Add(uint8(1), flipped, uint8(12))
	f.Fuzz(func(t *testing.T, which uint8, junk []byte, at uint8) {
		gm := newTestGame(t, 5, engine.RulesCommon, engine.White, testSeed("fuzz g", 0), testSeed("fuzz e", 0))
		// One honest try first (Black, the evaluator's player, moves).
		if _, err := gm.play(engine.PointAt(2, 2, 5)); err != nil {
			t.Fatal(err)
		}
		// Try 1: White, the garbler's player, tries p.
		p := engine.PointAt(int(at)%5, int(at)/5%5, 5)
		req, err := gm.e.Request(engine.NoPoint)
		if err != nil {
			t.Fatal(err)
		}
		// refused reports whether err refuses garbage as malformed; it
		// fails the test on an error that is neither that nor a deviation
		// caught.
		refused := func(err error) bool {
			if err == nil || errors.Is(err, ErrDeviation) {
				return false
			}
			if !errors.Is(err, ErrMessage) {
				t.Fatalf("garbage refused with %v", err)
			}
			return true
		}
		// auditCatches checks that garbage a machine took without a word
		// is pinned on its sender by the audit of the record that ends
		// with it (try 1 holding its first `last.Sent` messages).
		auditCatches := func(last TryRecord, sender circuit.Party, message string) {
			t.Helper()
			rec := gm.rec
			rec.Tries = append(slices.Clone(rec.Tries), last)
			rev := gm.reveals()
			if last.Sent < 2 {
				// The garbler's try goes with its garbling, not sent.
				rev[circuit.Garbler].Tries = rev[circuit.Garbler].Tries[:len(rev[circuit.Garbler].Tries)-1]
			}
			_, err := Audit(rec, rev)
			wantFault(t, err, sender, 1, message)
		}
		var gb Garbling
		if which%4 == 0 {
			gb, err = gm.g.Garble(junk, p)
			switch {
			case err == nil && bytes.Equal(junk, req):
				// The honest request: the try goes on with its garbling.
			case err == nil:
				// Well-formed: a cheating request, which only the audit
				// can see.
				auditCatches(RecordRequest(junk), circuit.Evaluator, "OT request")
				return
			case !refused(err):
				return // a deviation caught at once
			}
		}
		if which%4 != 0 || err != nil {
			if gb, err = gm.g.Garble(req, p); err != nil {
				t.Fatal(err)
			}
		}
		if which%4 != 0 {
			bad := gb
			var honest []byte
			var message string
			switch which % 4 {
			case 1:
				honest, bad.Tables, message = gb.Tables, junk, "garbled tables"
			case 2:
				honest, bad.Labels, message = gb.Labels, junk, "garbler's input labels"
			case 3:
				honest, bad.Reply, message = gb.Reply, junk, "OT reply"
			}
			_, _, err := gm.e.Evaluate(bad)
			switch {
			case err == nil && bytes.Equal(junk, honest):
				return // the honest garbling, evaluated
			case err == nil:
				// Garbage that decodes: the evaluator cannot tell, the
				// audit can.
				auditCatches(RecordRequest(req).WithGarbling(bad), circuit.Garbler, message)
				return
			case !refused(err):
				return // a deviation caught at once
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
