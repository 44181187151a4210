package referee

import (
	"bytes"
	"errors"
	"slices"
	"strings"
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

// FuzzCorrelatedMessagesRefuseGarbage is FuzzMachinesRefuseGarbage for
// the messages of the correlated input OTs (MPC-D28, λ = 4): arbitrary
// bytes in place of the garbler's reverse request, the evaluator's
// request, or the commitments or reply part of the garbler's
// commitment. Nothing panics; a refusal as malformed (ErrMessage) leaves
// the machine as it was, and the honest message then goes through to
// the end of the try; anything else is a deviation caught at once
// (ErrDeviation, blaming the sender), or the honest bytes.
func FuzzCorrelatedMessagesRefuseGarbage(f *testing.F) {
	f.Add(uint8(0), []byte("P\x02V"))
	f.Add(uint8(1), []byte("P\x02Q\x00\x00\x00\x00\x00\x00\x00\x01"))
	f.Add(uint8(2), []byte("P\x02C"))
	f.Add(uint8(3), []byte("P\x02D"))
	f.Add(uint8(0), []byte{})
	// Well-formed garbage: the messages of a game of other seeds.
	other := newGameOf(f, Config{Size: 5, Rules: engine.RulesCommon, GarblerColor: engine.White, Game: []byte("test game 5x5 common"), Komi: 7.5, Lambda: 4, InputOT: InputOTCorrelated},
		testSeed("cot fuzz g", 1), testSeed("cot fuzz e", 1))
	msgs := map[string][]byte{}
	other.tamper = func(_ uint64, what string, b []byte) []byte {
		msgs[what] = b
		return b
	}
	if _, err := other.play(engine.PointAt(2, 2, 5)); err != nil {
		f.Fatal(err)
	}
	for which, what := range []string{"reverse", "request", "commitment", "commitment-reply"} {
		f.Add(uint8(which), msgs[what])
	}
	f.Fuzz(func(t *testing.T, which uint8, junk []byte) {
		cfg := Config{Size: 5, Rules: engine.RulesCommon, GarblerColor: engine.White, Game: []byte("test game 5x5 common"), Komi: 7.5, Lambda: 4, InputOT: InputOTCorrelated}
		gm := newGameOf(t, cfg, testSeed("cot fuzz g", 0), testSeed("cot fuzz e", 0))
		// caught reports whether err is a deviation caught at once, blaming
		// the sender; it fails the test on an error that is neither that
		// nor a refusal as malformed.
		caught := func(err error, sender circuit.Party) bool {
			switch {
			case err == nil || errors.Is(err, ErrMessage):
				return false
			case errors.Is(err, ErrDeviation) && strings.Contains(err.Error(), "the "+sender.String()+":"):
				return true
			}
			t.Fatalf("garbage refused with %v", err)
			return false
		}
		rev, err := gm.g.ReverseRequest()
		if err != nil {
			t.Fatal(err)
		}
		if which%4 == 0 {
			err := gm.e.TakeReverse(junk)
			if caught(err, circuit.Garbler) || err == nil && bytes.Equal(junk, rev) {
				return
			}
			if err == nil {
				t.Fatal("garbage taken as the reverse request")
			}
		}
		if err := gm.e.TakeReverse(rev); err != nil {
			t.Fatalf("the honest reverse request after garbage: %v", err)
		}
		// Try 0: Black, the evaluator's player, moves.
		req, err := gm.e.Request(engine.PointAt(2, 2, 5))
		if err != nil {
			t.Fatal(err)
		}
		if which%4 == 1 {
			_, err := gm.g.Commit(junk)
			if caught(err, circuit.Evaluator) || err == nil && bytes.Equal(junk, req) {
				return
			}
			if err == nil {
				t.Fatal("garbage taken as the request")
			}
		}
		cm, err := gm.g.Commit(req)
		if err != nil {
			t.Fatalf("the honest request after garbage: %v", err)
		}
		if which%4 >= 2 {
			bad := cm
			if which%4 == 2 {
				bad.Commitments = junk
			} else {
				bad.Reply = junk
			}
			_, err := gm.e.Open(bad)
			if caught(err, circuit.Garbler) || err == nil && bytes.Equal(bad.Commitments, cm.Commitments) && bytes.Equal(bad.Reply, cm.Reply) {
				return
			}
			if err == nil {
				t.Fatal("garbage taken as the commitment")
			}
		}
		choice, err := gm.e.Open(cm)
		if err != nil {
			t.Fatalf("the honest commitment after garbage: %v", err)
		}
		gb, err := gm.g.GarbleChosen(choice, engine.NoPoint)
		if err != nil {
			t.Fatal(err)
		}
		o, _, err := gm.e.Evaluate(gb)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := gm.g.Finish(o); err != nil {
			t.Fatal(err)
		}
	})
}
