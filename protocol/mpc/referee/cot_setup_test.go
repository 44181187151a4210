package referee

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// Tests of the order of the setup messages and of the reverse request
// sent ahead (MPC-D28, what the session layer needs).

// setupStep is one setup message of a game of the correlated input OTs:
// "R0" the garbler's ReverseStart, "B0" the evaluator's BaseStart, "R1"
// the evaluator's ReverseRespond, "B1" the garbler's BaseRespond. Each is
// taken by its receiver as soon as it is sent.
var setupOrders = map[string][]string{
	"base OTs first":                 {"B0", "B1", "R0", "R1"},
	"reverse first, answer after B0": {"R0", "B0", "R1", "B1"},
	"reverse first, answer first":    {"R0", "R1", "B0", "B1"},
}

// setupMsgs are the setup messages as sent.
type setupMsgs map[string][]byte

// runSetup sends the setup messages steps in order between gm's
// machines, recording them in gm.rec and msgs.
func runSetup(t *testing.T, gm *testGame, steps []string, msgs setupMsgs) {
	t.Helper()
	for _, s := range steps {
		var err error
		switch s {
		case "R0":
			if msgs[s], err = gm.g.ReverseStart(); err == nil {
				gm.rec.ReverseSent, gm.rec.Reverse[0] = 1, Sum(msgs[s])
			}
		case "B0":
			if msgs[s], err = gm.e.BaseStart(); err == nil {
				gm.rec.BaseSent, gm.rec.Base[0] = 1, Sum(msgs[s])
			}
		case "R1":
			if msgs[s], err = gm.e.ReverseRespond(msgs["R0"]); err == nil {
				gm.rec.ReverseSent, gm.rec.Reverse[1] = 2, Sum(msgs[s])
				err = gm.g.ReverseFinish(msgs[s])
			}
		case "B1":
			if msgs[s], err = gm.g.BaseRespond(msgs["B0"]); err == nil {
				gm.rec.BaseSent, gm.rec.Base[1] = 2, Sum(msgs[s])
				err = gm.e.BaseFinish(msgs[s])
			}
		}
		if err != nil {
			t.Fatalf("setup message %s: %v", s, err)
		}
	}
}

// newUnsetCOTGame is newCOTGame before any setup message.
func newUnsetCOTGame(t *testing.T, n int) *testGame {
	t.Helper()
	cfg := Config{Size: 5, Rules: engine.RulesCommon, GarblerColor: engine.Black, Game: []byte("setup order game"), Komi: 7.5, Lambda: 2, Scheme: gc.HalfGates, InputOT: InputOTCorrelated}
	gm := &testGame{t: t, cfg: cfg, seeds: [2]prg.Seed{testSeed("setup g", n), testSeed("setup e", n)}}
	var err error
	if gm.g, err = NewGarbler(cfg, gm.seeds[0]); err != nil {
		t.Fatal(err)
	}
	if gm.e, err = NewEvaluator(cfg, gm.seeds[1]); err != nil {
		t.Fatal(err)
	}
	gm.rec.Config = cfg
	for p, s := range gm.seeds {
		c, o, err := cfg.CommitSeed(circuit.Party(p), s)
		if err != nil {
			t.Fatal(err)
		}
		gm.rec.SeedCommitments[p], gm.openings[p] = c, o
	}
	if gm.ref, err = phantom.NewReferee(engine.Options{Variant: engine.VariantPhantom, Size: cfg.Size, Rules: cfg.Rules}); err != nil {
		t.Fatal(err)
	}
	return gm
}

// TestT8CorrelatedSetupOrders (MPC-D28, T-8(c), T-11): the reverse
// setup may come first — the garbler's ReverseStart with its seed
// commitment, the evaluator's answer right after NewEvaluator, before or
// after its BaseStart, the garbler's ReverseFinish before BaseRespond —
// or after the base OTs. In every order the messages are the same bytes
// (each depends on its sender's seed and the message it answers), play
// goes on with the engine's announcements, and the audit passes the
// record at every point of the setup and after it. Machines resumed at
// every point of the setup (ResumeGarblerKept, ResumeCorrelatedEvaluator) make the
// messages already sent again, byte for byte, finish the setup and play.
func TestT8CorrelatedSetupOrders(t *testing.T) {
	ref := setupMsgs{}
	runSetup(t, newUnsetCOTGame(t, 0), setupOrders["base OTs first"], ref)
	// Every state of the setup that some order reaches, once: (messages
	// of the base OTs, of the reverse setup) sent.
	seen := map[[2]int]bool{}
	for _, name := range []string{"base OTs first", "reverse first, answer after B0", "reverse first, answer first"} {
		steps := setupOrders[name]
		for cut := 0; cut <= len(steps); cut++ {
			gm := newUnsetCOTGame(t, 0)
			msgs := setupMsgs{}
			runSetup(t, gm, steps[:cut], msgs)
			if state := [2]int{gm.rec.BaseSent, gm.rec.ReverseSent}; seen[state] {
				continue
			} else {
				seen[state] = true
			}
			if _, err := Audit(gm.rec, gm.reveals()); err != nil {
				t.Fatalf("%s, %d messages: the audit of the setup so far: %v", name, cut, err)
			}
			// A crash here: both machines rebuilt from the record and what
			// each kept of the other's messages.
			g2, err := ResumeGarblerKept(gm.cfg, gm.seeds[0], gm.rec, GarblerKept{BaseStart: msgs["B0"], ReverseAnswer: msgs["R1"]})
			if err != nil {
				t.Fatalf("%s, %d messages: garbler: %v", name, cut, err)
			}
			e2, err := ResumeCorrelatedEvaluator(gm.cfg, gm.seeds[1], msgs["B1"], msgs["R0"], nil, gm.rec, nil, gm.e.Share(), nil)
			if err != nil {
				t.Fatalf("%s, %d messages: evaluator: %v", name, cut, err)
			}
			if start, _ := g2.AgainReverse(); gm.rec.ReverseSent >= 1 && !bytes.Equal(start, ref["R0"]) {
				t.Fatalf("%s, %d messages: the reverse setup message made again differs", name, cut)
			}
			if gm.rec.ReverseSent == 2 && !bytes.Equal(e2.AgainReverse(), ref["R1"]) {
				t.Fatalf("%s, %d messages: the reverse setup answer made again differs", name, cut)
			}
			if b0, _ := e2.Again(); gm.rec.BaseSent >= 1 && !bytes.Equal(b0, ref["B0"]) {
				t.Fatalf("%s, %d messages: the base OT message made again differs", name, cut)
			}
			if b1, _ := g2.Again(); gm.rec.BaseSent == 2 && !bytes.Equal(b1, ref["B1"]) {
				t.Fatalf("%s, %d messages: the base OT answer made again differs", name, cut)
			}
			gm.g, gm.e = g2, e2
			// The messages not sent yet come from the rebuilt machines.
			runSetup(t, gm, steps[cut:], msgs)
			for s, b := range msgs {
				if !bytes.Equal(b, ref[s]) {
					t.Fatalf("%s, cut after %d: setup message %s differs from the one sent in another order", name, cut, s)
				}
			}
			gm.playRandom(rand.New(rand.NewPCG(5, uint64(cut))), 1, nil)
			if _, err := Audit(gm.rec, gm.reveals()); err != nil {
				t.Fatalf("%s, %d messages: the audit: %v", name, cut, err)
			}
		}
	}
	// Refusals: no reverse request before both setups are done, no reverse
	// answer once a try is under way, none in a game of MPC-D18's OTs.
	if len(seen) != 9 {
		t.Errorf("%d states of the setup, want the 9 pairs", len(seen))
	}
	gm := newUnsetCOTGame(t, 1)
	runSetup(t, gm, []string{"R0", "R1"}, setupMsgs{})
	if _, err := gm.g.ReverseRequest(); !errors.Is(err, ErrState) {
		t.Errorf("a reverse request before the base OTs: %v", err)
	}
	if _, err := gm.e.ReverseRespond(nil); !errors.Is(err, ErrState) {
		t.Errorf("a second reverse answer: %v", err)
	}
	rec := gm.rec
	rec.Tries = []TryRecord{RecordReverse([]byte("reverse"))}
	if _, err := Audit(rec, gm.reveals()); !errors.Is(err, ErrRecord) {
		t.Errorf("a try before the base OTs: %v", err)
	}
	old := newTestGame(t, 5, engine.RulesCommon, engine.Black, testSeed("setup g", 2), testSeed("setup e", 2))
	if _, err := old.e.ReverseRespond(nil); !errors.Is(err, ErrState) {
		t.Errorf("a reverse answer in a game of MPC-D18's OTs: %v", err)
	}
	rec = old.rec
	rec.ReverseSent = 1
	if _, err := Audit(rec, old.reveals()); !errors.Is(err, ErrRecord) {
		t.Errorf("a reverse setup message in a game of MPC-D18's OTs: %v", err)
	}
}

// TestT8ReverseRequestAhead (MPC-D28): once the garbler has made the
// garbling of try t, ReverseRequestAhead returns the reverse request of
// try t + 1 — the bytes ReverseRequest returns in try t + 1, and the
// ones the evaluator takes after applying try t's outputs —; asked again
// it gives the same bytes, between tries it is ReverseRequest, and
// between the commitment and the garbling it is already made, the same
// bytes (MPC-D55). The games
// then pass the audit. (A garbler resumed in the same phase gives the
// same bytes: TestT8ResumeCorrelatedTry.)
func TestT8ReverseRequestAhead(t *testing.T) {
	for _, scheme := range []gc.Scheme{gc.HalfGates, gc.ThreeHalves} {
		gm := newCOTGame(t, 5, engine.RulesCommon, engine.White, testSeed("ahead g", 0), testSeed("ahead e", 0), 4, scheme)
		var ahead, committedAhead []byte
		aheadTry := uint64(0)
		var errs []error
		gm.tamper = func(try uint64, what string, b []byte) []byte {
			switch what {
			case "reverse":
				if try > 0 && (aheadTry != try || !bytes.Equal(b, ahead)) {
					errs = append(errs, errors.New("the reverse request of a try is not the one sent ahead"))
				}
			case "choice":
				// Committed, not garbled: the reverse request ahead
				// already (MPC-D55), the bytes it has once garbled.
				a, err := gm.g.ReverseRequestAhead()
				if err != nil {
					errs = append(errs, err)
				}
				committedAhead = a
			case "tables":
				a, err := gm.g.ReverseRequestAhead()
				if err != nil {
					errs = append(errs, err)
					break
				}
				if !bytes.Equal(a, committedAhead) {
					errs = append(errs, errors.New("the reverse request ahead differs from the one made once committed"))
				}
				again, err := gm.g.ReverseRequestAhead()
				if err != nil || !bytes.Equal(a, again) {
					errs = append(errs, errors.New("the reverse request ahead asked again differs"))
				}
				ahead, aheadTry = a, try+1
			}
			return b
		}
		rng := rand.New(rand.NewPCG(7, 7))
		for n := range 6 {
			if gm.ref.PlayEnded() {
				break
			}
			if _, d := gm.step(randomTry(rng, gm.ref, engine.NoPoint)); d != "" {
				t.Fatal(d)
			}
			if len(errs) > 0 {
				t.Fatalf("%v try %d: %v", scheme, n, errs)
			}
			// Between tries: ReverseRequest of the next try, the same bytes.
			if gm.ref.PlayEnded() {
				break
			}
			if b, err := gm.g.ReverseRequestAhead(); err != nil || !bytes.Equal(b, ahead) {
				t.Fatalf("%v after try %d: between tries %v", scheme, n, err)
			}
		}
		if _, err := Audit(gm.rec, gm.reveals()); err != nil {
			t.Fatalf("%v: the audit: %v", scheme, err)
		}
		if f := gm.g.Public().Try; f != aheadTry {
			t.Fatalf("%v: %d tries, the last ahead request for try %d", scheme, f, aheadTry)
		}
	}
}
