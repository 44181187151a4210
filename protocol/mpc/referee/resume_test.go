package referee

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
)

// TestT11ResumeMachines cuts a game at every step of some tries (between
// tries, after the request, after the garbling, after the evaluation
// before the outputs are recorded), rebuilds the machines from their
// seeds, the record and what a session keeps, and checks that the game
// goes on exactly as without the cut: the same messages, the same
// announcements, the same shares. The rebuilt machines make their own
// messages that the record holds and the other party may lack again,
// byte for byte (Again, PN-D14): the base OT messages, the request of a
// try whose garbling is not recorded, the garbling (with the OT reply,
// from the request the session keeps) of a try whose outputs are not. (A session saves the evaluator's
// secrets before it records the garbling, so a record that holds the
// garbling always comes with the evaluation done: step 3.)
func TestT11ResumeMachines(t *testing.T) {
	for _, scheme := range []gc.Scheme{gc.HalfGates, gc.ThreeHalves} {
		for _, garbler := range []engine.Color{engine.Black, engine.White} {
			// The game without a cut.
			ref := newSchemeGame(t, 5, engine.RulesHamburg, garbler, testSeed("g", 9), testSeed("e", 9), 0, scheme)
			rng := rand.New(rand.NewPCG(9, 9))
			var points []engine.Point
			var shares []circuit.RefereeState // the evaluator's share before each try
			last := engine.NoPoint
			for len(points) < 24 && !ref.ref.PlayEnded() {
				p := randomTry(rng, ref.ref, last)
				shares = append(shares, ref.e.Share())
				if _, d := ref.step(p); d != "" {
					t.Fatal(d)
				}
				points = append(points, p)
				if p != engine.Pass {
					last = p
				}
			}
			// The same game with a restart at each of these tries, at the
			// given step.
			cuts := map[int]int{0: 0, 3: 1, 6: 2, 8: 3, 11: 0, 14: 1, 17: 3, len(points) - 1: 2}
			gm := newSchemeGame(t, 5, engine.RulesHamburg, garbler, testSeed("g", 9), testSeed("e", 9), 0, scheme)
			for k, p := range points {
				step, cut := cuts[k]
				if !cut {
					if _, err := gm.play(p); err != nil {
						t.Fatal(err)
					}
					continue
				}
				req, err := gm.e.Request(p)
				if err != nil {
					t.Fatal(err)
				}
				gm.rec.Tries = append(gm.rec.Tries, RecordRequest(req))
				if step == 1 {
					gm.restart(t, true, true, shares[k], req)
					if _, again := gm.e.Again(); !bytes.Equal(again, req) {
						t.Fatalf("try %d: the request made again differs from the one sent", k)
					}
					if _, again := gm.g.Again(); again != nil {
						t.Fatalf("try %d: a garbling made again before the garbler garbled", k)
					}
				}
				gb, err := gm.g.Garble(req, p)
				if err != nil {
					t.Fatal(err)
				}
				gm.rec.Tries[k] = gm.rec.Tries[k].WithGarbling(gb)
				if step == 2 {
					gm.restart(t, true, false, shares[k], req)
					if _, again := gm.g.Again(); again == nil || !reflect.DeepEqual(*again, gb) {
						t.Fatalf("try %d: the garbling made again differs from the one sent", k)
					}
				}
				o, annE, err := gm.e.Evaluate(gb)
				if err != nil {
					t.Fatal(err)
				}
				gm.rec.Tries[k] = gm.rec.Tries[k].WithOutputs(o)
				if step == 3 {
					// The evaluator kept its outputs and new share.
					gm.restart(t, false, true, gm.e.Share(), nil)
				}
				annG, err := gm.g.Finish(o)
				if err != nil {
					t.Fatal(err)
				}
				gm.views[0], gm.views[1] = append(gm.views[0], annG), append(gm.views[1], annE)
				if step == 0 {
					gm.restart(t, true, true, gm.e.Share(), nil)
				}
			}
			if !reflect.DeepEqual(gm.rec.Tries, ref.rec.Tries) {
				t.Fatalf("garbler %v: the record differs", garbler)
			}
			if !reflect.DeepEqual(gm.views, ref.views) || !reflect.DeepEqual(gm.e.Share(), ref.e.Share()) || !reflect.DeepEqual(gm.g.Share(), ref.g.Share()) {
				t.Fatalf("garbler %v: the announcements or shares differ", garbler)
			}
		}
	}
}

// restart replaces the machines of gm (the garbler's, the evaluator's or
// both) with machines rebuilt from the record and what a session keeps:
// the evaluator's share after the last complete try of the record, the
// request of the try under way. Both machines make their base OT
// messages again.
func (gm *testGame) restart(t *testing.T, garbler, evaluator bool, share circuit.RefereeState, request []byte) {
	t.Helper()
	if garbler {
		g, err := ResumeGarblerKept(gm.cfg, gm.seeds[0], gm.rec, GarblerKept{BaseStart: gm.g.baseMsg, Tries: gm.g.Tries(), Request: request})
		if err != nil {
			t.Fatalf("resume garbler: %v", err)
		}
		if base, _ := g.Again(); !bytes.Equal(base, gm.received[circuit.Evaluator][0]) {
			t.Fatal("the base OT answer made again differs from the one sent")
		}
		if g.Public() != gm.g.Public() || g.Waiting() != gm.g.Waiting() || !reflect.DeepEqual(g.Share(), gm.g.Share()) {
			t.Fatalf("garbler resumed in another state: %+v %v / %+v %v", g.Public(), g.Waiting(), gm.g.Public(), gm.g.Waiting())
		}
		gm.g = g
	}
	if evaluator {
		e, err := ResumeEvaluator(gm.cfg, gm.seeds[1], gm.e.baseMsg, gm.rec, gm.e.Tries(), share)
		if err != nil {
			t.Fatalf("resume evaluator: %v", err)
		}
		if base, _ := e.Again(); !bytes.Equal(base, gm.received[circuit.Garbler][0]) {
			t.Fatal("the base OT message made again differs from the one sent")
		}
		if e.Public() != gm.e.Public() || e.Waiting() != gm.e.Waiting() {
			t.Fatalf("evaluator resumed in another state: %+v %v / %+v %v", e.Public(), e.Waiting(), gm.e.Public(), gm.e.Waiting())
		}
		gm.e = e
	}
}
