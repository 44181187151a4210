package referee

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
)

// playUntil plays up to n random tries of gm and returns the error of the
// first try a machine refused (a deviation caught at once), or nil.
// before, when set, runs before every try.
func playUntil(t *testing.T, gm *testGame, rng *rand.Rand, n int, before func(try uint64)) error {
	t.Helper()
	last := engine.NoPoint
	for range n {
		if gm.ref.PlayEnded() {
			break
		}
		if before != nil {
			before(gm.e.Public().Try)
		}
		p := randomTry(rng, gm.ref, last)
		mover := gm.ref.ToMove()
		if _, err := gm.play(p); err != nil {
			return err
		}
		next, _, err := gm.ref.Try(mover, p)
		if err != nil {
			t.Fatal(err)
		}
		gm.ref = next
		if p != engine.Pass {
			last = p
		}
	}
	return nil
}

// wantFault checks that err is a *Fault of T-8 naming party, try and
// message.
func wantFault(t *testing.T, err error, party circuit.Party, try int, message string) *Fault {
	t.Helper()
	var f *Fault
	if !errors.As(err, &f) {
		t.Fatalf("the audit says %v, want a fault of the %v at try %d (%s)", err, party, try, message)
	}
	if f.Party != party || f.Try != try || f.Message != message || f.Rule != "T-8" {
		t.Fatalf("the audit says %q, want a fault of the %v at try %d (%s)", f.Error(), party, try, message)
	}
	return f
}

// TestT8AuditHonestGames: an honest game passes the audit, which gives
// back the plaintext referee of the end and every announcement, and a
// game cut short in the middle of a try (a deviation caught at once stops
// it) is audited up to where it stopped. Honest three-halves games,
// checked and not, whose garbler's masks are in the decoding bits
// (MPC-D27), pass too, with both players' announcements.
func TestT8AuditHonestGames(t *testing.T) {
	for _, lambda := range []int{0, 4} {
		gm := newSchemeGame(t, 5, engine.RulesKriegspiel, engine.White, testSeed("3h audit g", lambda), testSeed("3h audit e", lambda), lambda, gc.ThreeHalves)
		if err := playUntil(t, gm, rand.New(rand.NewPCG(2, uint64(lambda))), 30, nil); err != nil {
			t.Fatal(err)
		}
		rp, err := Audit(gm.rec, gm.reveals())
		if err != nil {
			t.Fatalf("three-halves, λ = %d: %v", lambda, err)
		}
		if rp.Referee != gm.ref || len(rp.Announcements) != len(gm.rec.Tries) {
			t.Fatalf("three-halves, λ = %d: the audit ends on another game", lambda)
		}
		for k, a := range rp.Announcements {
			for p := range 2 {
				if a[p].KeyValues() != gm.views[p][k].KeyValues() {
					t.Fatalf("three-halves, λ = %d, try %d: the audit tells the %v %q, the game told %q", lambda, k, circuit.Party(p), a[p].KeyValues(), gm.views[p][k].KeyValues())
				}
			}
		}
	}
	for i, rules := range allRules {
		garbler := []engine.Color{engine.Black, engine.White}[i%2]
		gm := newTestGame(t, 5, rules, garbler, testSeed("g", 1), testSeed("e", 1))
		tries := 40
		if raceEnabled {
			tries = 20
		}
		if err := playUntil(t, gm, rand.New(rand.NewPCG(1, uint64(i))), tries, nil); err != nil {
			t.Fatal(err)
		}
		rp, err := Audit(gm.rec, gm.reveals())
		if err != nil {
			t.Fatalf("%s, garbler %v: %v", rules, garbler, err)
		}
		if rp.Referee != gm.ref {
			t.Fatalf("%s: the audit ends on\n%vwant\n%v", rules, rp.Referee.Board().String(), gm.ref.Board().String())
		}
		if len(rp.Announcements) != len(gm.rec.Tries) || !slices.EqualFunc(rp.Announcements, gm.views[0], func(a [2]phantom.Announcement, b phantom.Announcement) bool {
			return a[0].KeyValues() == b.KeyValues()
		}) {
			t.Fatalf("%s: the audit's announcements differ from the garbler's", rules)
		}
		if i > 0 {
			continue
		}
		// Cut the record in the middle of the last try: the audit checks
		// what was sent.
		for sent := 1; sent <= 2; sent++ {
			rec := gm.rec
			rec.Tries = slices.Clone(rec.Tries)
			rec.Tries[len(rec.Tries)-1].Sent = sent
			rev := gm.reveals()
			// The mover of the last try reveals it only if its input was
			// sent: the garbler's goes with the garbling.
			lastMover := gm.cfg.PartyOf(rp.Outcomes[len(rp.Outcomes)-1].Mover)
			if lastMover == circuit.Garbler && sent < 2 {
				rev[0].Tries = rev[0].Tries[:len(rev[0].Tries)-1]
			}
			if _, err := Audit(rec, rev); err != nil {
				t.Fatalf("%s: record cut at message %d of the last try: %v", rules, sent, err)
			}
		}
	}
}

// TestT8CheatingCaughtAtAudit: each way of cheating is caught by the
// audit, which names the party, the try and the message.
func TestT8CheatingCaughtAtAudit(t *testing.T) {
	const cheatTry = 4
	flipAt := func(what string, offset func(b []byte) int) func(uint64, string, []byte) []byte {
		return func(try uint64, w string, b []byte) []byte {
			if try == cheatTry && w == what {
				b[offset(b)] ^= 0x10
			}
			return b
		}
	}
	for _, tc := range []struct {
		name    string
		rules   engine.PhantomRules
		garbler engine.Color
		setup   func(gm *testGame)
		before  func(gm *testGame, try uint64)
		// caught: the machine refuses the try at once.
		caught  bool
		party   circuit.Party
		message string
	}{
		{
			// A garbler that flips one gate's table: the evaluator
			// decodes wrong bits (or no announcement at all); its next
			// share is wrong, but the tables' digest is in the record.
			name: "garbler flips one gate's table", rules: engine.RulesCommon, garbler: engine.Black,
			setup: func(gm *testGame) {
				gm.tamper = flipAt("tables", func(b []byte) int { return 18 + 32*(len(b)/64) + 3 })
			},
			party: circuit.Garbler, message: "garbled tables",
		},
		{
			name: "garbler sends the wrong label for one of its inputs", rules: engine.RulesHamburg, garbler: engine.White,
			setup: func(gm *testGame) {
				gm.tamper = flipAt("labels", func(b []byte) int { return 6 + 16*5 })
			},
			party: circuit.Garbler, message: "garbler's input labels",
		},
		{
			// Selective failure: a wrong OT message for one of the
			// evaluator's inputs.
			name: "garbler corrupts one OT message", rules: engine.RulesKriegspiel, garbler: engine.Black,
			setup: func(gm *testGame) {
				gm.tamper = flipAt("reply", func(b []byte) int { return 11 + 32*3 + 20 })
			},
			party: circuit.Garbler, message: "OT reply",
		},
		{
			// The evaluator forwards a label that is not the one it
			// decoded: it cannot make the other label (it lacks Δ), so
			// the garbler refuses it at once.
			name: "evaluator forwards a wrong output label", rules: engine.RulesCommon, garbler: engine.White,
			setup: func(gm *testGame) {
				gm.tamper = flipAt("outputs", func(b []byte) int { return 6 + 16 + 2 })
			},
			caught: true, party: circuit.Evaluator, message: "output labels",
		},
		{
			name: "evaluator misreports the event bits", rules: engine.RulesHamburg, garbler: engine.Black,
			setup: func(gm *testGame) {
				gm.tamperBits = func(try uint64, o *Outputs) {
					if try == cheatTry {
						o.Legal = !o.Legal
					}
				}
			},
			caught: true, party: circuit.Evaluator, message: "event bits",
		},
		{
			name: "evaluator sends an inconsistent OT request", rules: engine.RulesKriegspiel, garbler: engine.White,
			setup: func(gm *testGame) {
				gm.tamper = flipAt("request", func(b []byte) int { return 11 + 5 })
			},
			party: circuit.Evaluator, message: "OT request",
		},
		{
			// A peer that alters its share between tries: the evaluator's
			// share goes into its OT request.
			name: "evaluator alters its share", rules: engine.RulesCommon, garbler: engine.Black,
			before: func(gm *testGame, try uint64) {
				if try == cheatTry {
					gm.e.share.White[3] = !gm.e.share.White[3]
				}
			},
			party: circuit.Evaluator, message: "OT request",
		},
		{
			// The garbler's share goes into its input labels.
			name: "garbler alters its share", rules: engine.RulesHamburg, garbler: engine.White,
			before: func(gm *testGame, try uint64) {
				if try == cheatTry {
					gm.g.share.Label[2] ^= 1
				}
			},
			party: circuit.Garbler, message: "garbler's input labels",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gm := newTestGame(t, 5, tc.rules, tc.garbler, testSeed("g", 2), testSeed("e", 2))
			if tc.setup != nil {
				tc.setup(gm)
			}
			var before func(uint64)
			if tc.before != nil {
				before = func(try uint64) { tc.before(gm, try) }
			}
			err := playUntil(t, gm, rand.New(rand.NewPCG(3, 4)), cheatTry+3, before)
			if tc.caught && !errors.Is(err, ErrDeviation) {
				t.Fatalf("the deviation was not caught at once: %v", err)
			}
			if err != nil && !errors.Is(err, ErrDeviation) {
				t.Fatalf("try refused with %v", err)
			}
			if err != nil {
				t.Logf("caught at once: %v", err)
			}
			f := wantFault(t, mustFail(Audit(gm.rec, gm.reveals())), tc.party, cheatTry, tc.message)
			t.Logf("audit: %v", f)
		})
	}
}

func mustFail(_ *Replay, err error) error { return err }

// TestT8RevealCaught: what a party reveals at the end is checked: its
// seed against its commitment, its tries against what it sent.
func TestT8RevealCaught(t *testing.T) {
	gm := newTestGame(t, 5, engine.RulesCommon, engine.Black, testSeed("g", 3), testSeed("e", 3))
	if err := playUntil(t, gm, rand.New(rand.NewPCG(5, 6)), 16, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		change  func(rev *[2]Reveal)
		party   circuit.Party
		try     int
		message string
	}{
		{"garbler reveals another seed", func(rev *[2]Reveal) {
			rev[0].Seed.Value = append([]byte(nil), rev[0].Seed.Value...)
			rev[0].Seed.Value[0] ^= 1
		}, circuit.Garbler, -1, "seed"},
		{"evaluator reveals another seed with the salt of its commitment", func(rev *[2]Reveal) {
			s := testSeed("other", 0)
			rev[1].Seed.Value = s[:]
		}, circuit.Evaluator, -1, "seed"},
		{"evaluator reveals a seed of the wrong length", func(rev *[2]Reveal) {
			rev[1].Seed.Value = rev[1].Seed.Value[:16]
		}, circuit.Evaluator, -1, "seed"},
		{"garbler reveals another try", func(rev *[2]Reveal) {
			rev[0].Tries = slices.Clone(rev[0].Tries)
			rev[0].Tries[2] = (rev[0].Tries[2] + 1) % 25
		}, circuit.Garbler, -2, "garbler's input labels"},
		{"evaluator reveals a try fewer", func(rev *[2]Reveal) {
			rev[1].Tries = rev[1].Tries[:len(rev[1].Tries)-1]
		}, circuit.Evaluator, -2, "tries"},
		{"evaluator reveals a try more", func(rev *[2]Reveal) {
			rev[1].Tries = append(slices.Clone(rev[1].Tries), engine.Pass)
		}, circuit.Evaluator, len(gm.rec.Tries), "tries"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rev := gm.reveals()
			tc.change(&rev)
			_, err := Audit(gm.rec, rev)
			var f *Fault
			if !errors.As(err, &f) || f.Party != tc.party || f.Message != tc.message || (tc.try != -2 && f.Try != tc.try) {
				t.Fatalf("the audit says %v, want a fault of the %v (%s)", err, tc.party, tc.message)
			}
			t.Logf("audit: %v", f)
		})
	}
	if _, err := Audit(gm.rec, gm.reveals()); err != nil {
		t.Fatalf("the honest reveal: %v", err)
	}
}
