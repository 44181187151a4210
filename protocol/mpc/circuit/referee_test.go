package circuit

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
)

func newPhantom(t testing.TB, size int, rules engine.PhantomRules) phantom.Referee {
	t.Helper()
	r, err := phantom.NewReferee(engine.Options{Variant: engine.VariantPhantom, Size: size, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// randomTry picks a try for the player to move: mostly empty points, half
// of them near the last try (local fights make captures, ataris and kos),
// some captures, some occupied points, the ko point half the time there is
// one, a few passes.
func (g *refereeGame) randomTry() engine.Point {
	b := g.ref.Board()
	size, n := b.Size(), b.Points()
	if ko := g.ref.Ko(); ko != engine.NoPoint && g.rng.IntN(2) == 0 {
		return ko
	}
	switch r := g.rng.IntN(100); {
	case r < 2:
		return engine.Pass
	case r < 20:
		return engine.Point(g.rng.IntN(n))
	case r < 35:
		// A try that captures, found with the engine: captures make kos,
		// snapbacks and stale labels.
		var takes []engine.Point
		for p := range n {
			if b.At(engine.Point(p)) != engine.Empty {
				continue
			}
			if _, out, err := g.ref.Try(g.ref.ToMove(), engine.Point(p)); err == nil && out.Legal && len(out.Captured) > 0 {
				takes = append(takes, engine.Point(p))
			}
		}
		if len(takes) > 0 {
			return takes[g.rng.IntN(len(takes))]
		}
	}
	near := g.last >= 0 && g.rng.IntN(2) == 0
	lx, ly := g.last.XY(size)
	var free []engine.Point
	for p := range n {
		x, y := engine.Point(p).XY(size)
		if b.At(engine.Point(p)) == engine.Empty && (!near || abs(x-lx)+abs(y-ly) <= 2) {
			free = append(free, engine.Point(p))
		}
	}
	if len(free) == 0 {
		g.last = engine.NoPoint
		return engine.Pass
	}
	return free[g.rng.IntN(len(free))]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// refereeCoverage counts the kinds of tries a random run went through, so
// that a run that never met a case fails instead of passing unseen.
type refereeCoverage map[string]int

func (c refereeCoverage) add(out phantom.TryOutcome, next phantom.Referee) {
	switch {
	case out.Pass:
		c["pass"]++
	case !out.Legal:
		c["illegal "+out.Reason.String()]++
	default:
		c["moved"]++
	}
	if len(out.Captured) == 1 {
		c["captured one"]++
	}
	if len(out.Captured) > 1 {
		c["captured several"]++
	}
	if out.AtariOpponent {
		c["atari opponent"]++
	}
	if out.AtariSelf {
		c["atari self"]++
		// PG-5: a capture can leave a chain of several stones in atari
		// only when every chain it joined was in atari before.
		b := next.Board()
		if stones, _ := b.Chain(out.Point); len(out.Captured) > 0 && len(stones) > 1 {
			c["atari self, capture joining atari"]++
		}
	}
	if out.Legal && !out.Pass && next.Ko() != engine.NoPoint {
		c["sets ko"]++
	}
}

// TestPG1to8RefereeCircuitMatchesEngine holds the circuit to the engine
// referee bit for bit (trust.md T-9) on random games: board, ko, labels
// after every try, and the announcements to both players (PG-1..PG-8,
// PG-D1), for sizes 5, 9, 13, 19, every rule set, and the mover as either
// party. 11,400 tries (2,850 with -short; 8 times fewer under the race
// detector).
func TestPG1to8RefereeCircuitMatchesEngine(t *testing.T) {
	budget := map[int]int{5: 1500, 9: 1200, 13: 700, 19: 400}
	scale := 1
	if testing.Short() {
		scale = 4
	}
	if raceEnabled {
		scale *= 8
	}
	total := 0
	start := time.Now()
	for _, rules := range allRules {
		cover := refereeCoverage{}
		for _, size := range []int{5, 9, 13, 19} {
			tries := budget[size] / scale
			rng := rand.New(rand.NewPCG(uint64(size), uint64(len(rules))))
			g := newRefereeGame(t, newPhantom(t, size, rules), rng)
			inGame := 0
			for range tries {
				if g.ref.PlayEnded() || inGame > 3*size*size {
					g = newRefereeGame(t, newPhantom(t, size, rules), rng)
					inGame = 0
				}
				out := g.try(t, Party(rng.IntN(2)), g.randomTry())
				cover.add(out, g.ref)
				inGame++
				total++
			}
		}
		kinds := []string{"pass", "moved", "illegal occupied-own", "illegal occupied-opponent",
			"illegal suicide", "captured one", "captured several", "atari opponent", "atari self"}
		if !raceEnabled {
			// Kos come about once in 800 tries: too rare for the race
			// detector's budget (the ko scenarios of the pitfall tests
			// still run).
			kinds = append(kinds, "illegal ko", "sets ko")
		}
		if scale == 1 {
			// PG-5's capture clause comes up a few times per rule set in
			// the full run only (TestPG5CaptureJoiningAtariCircuit always
			// runs it).
			kinds = append(kinds, "atari self, capture joining atari")
		}
		for _, k := range kinds {
			if cover[k] == 0 {
				t.Errorf("%s: no try of the kind %q in the random games: %v", rules, k, cover)
			}
		}
		t.Logf("%s: %v", rules, cover)
	}
	t.Logf("%d tries in %v", total, time.Since(start))
}

// TestRefereeANDCount logs the AND gates per try (the cost of garbling)
// and guards against a large regression: the design targets are 11,500
// for 9×9 and 25,500 for 13×13.
func TestRefereeANDCount(t *testing.T) {
	limit := map[int]int{5: 3500, 9: 11500, 13: 25500, 19: 60000}
	for _, size := range []int{5, 9, 13, 19} {
		for _, rules := range allRules {
			for _, mover := range []Party{Garbler, Evaluator} {
				_, c := refereeFor(t, size, rules, mover, refereeFlaws{})
				and := c.ANDCount()
				if mover == Garbler {
					x, _, inv := c.GateCounts()
					t.Logf("%2d×%-2d %-10s AND %6d  XOR %6d  INV %5d  wires %6d  %4.0f KiB at 32 B/AND",
						size, size, rules, and, x, inv, c.NumWires, float64(and)*32/1024)
				}
				if and > limit[size] {
					t.Errorf("%d×%d %s (mover %v): %d AND gates, more than %d", size, size, rules, mover, and, limit[size])
				}
				if err := c.Validate(); err != nil {
					t.Errorf("%d×%d %s: %v", size, size, rules, err)
				}
			}
		}
	}
}

// TestPG6PG7PG8RefereeRecipients checks who may read each output under each
// rule set (PG-D1): the facts for both in the clear, the facts for one
// player masked when that player is the garbler and kept by the evaluator
// otherwise, the next share for the evaluator only.
func TestPG6PG7PG8RefereeRecipients(t *testing.T) {
	type want struct {
		reasonBoth, atari, captured bool
		capturedBoth                bool // else to the opponent of the mover only
	}
	cases := map[engine.PhantomRules]want{
		engine.RulesCommon:     {reasonBoth: false, atari: true, captured: true, capturedBoth: true},
		engine.RulesHamburg:    {reasonBoth: true, atari: true, captured: false},
		engine.RulesKriegspiel: {reasonBoth: false, atari: false, captured: true, capturedBoth: false},
	}
	for rules, w := range cases {
		for _, mover := range []Party{Garbler, Evaluator} {
			t.Run(fmt.Sprintf("%s/mover=%v", rules, mover), func(t *testing.T) {
				l, _ := refereeFor(t, 5, rules, mover, refereeFlaws{})
				only := func(player Party) Recipient {
					if player == Garbler {
						return RecipientGarbler
					}
					return RecipientEvaluator
				}
				check := func(field string, at int, r Recipient) {
					t.Helper()
					if got := l.Recipient[at]; got != r {
						t.Errorf("%s (output %d) is for %v, want %v", field, at, got, r)
					}
					if masked := l.OutputMask[at] >= 0; masked != (r == RecipientGarbler) {
						t.Errorf("%s (output %d) masked=%v for recipient %v", field, at, masked, r)
					}
				}
				check("pass", l.Pass, RecipientBoth)
				check("legal", l.Legal, RecipientBoth)
				for _, at := range l.Reason {
					if w.reasonBoth {
						check("reason", at, RecipientBoth)
					} else {
						check("reason", at, only(mover))
					}
				}
				for _, at := range l.CaptureCount {
					check("capture count", at, RecipientBoth)
				}
				if w.atari != (l.AtariOpponent >= 0) || w.atari != (l.AtariSelf >= 0) {
					t.Errorf("atari outputs %d, %d; want them: %v", l.AtariOpponent, l.AtariSelf, w.atari)
				}
				if w.atari {
					check("atari opponent", l.AtariOpponent, RecipientBoth)
					check("atari self", l.AtariSelf, RecipientBoth)
				}
				if w.captured != (l.Captured != nil) {
					t.Errorf("captured outputs: %d; want them: %v", len(l.Captured), w.captured)
				}
				for _, at := range l.Captured {
					if w.capturedBoth {
						check("captured", at, RecipientBoth)
					} else {
						check("captured", at, only(mover.Other()))
					}
				}
				for p := range l.Points {
					for _, at := range append([]int{l.ShareOut.Own[p], l.ShareOut.Opp[p], l.ShareOut.Ko[p]}, l.ShareOut.Label[p]...) {
						if l.Recipient[at] != RecipientEvaluator || l.OutputMask[at] < 0 {
							t.Fatalf("next share output %d is for %v with mask %d", at, l.Recipient[at], l.OutputMask[at])
						}
					}
				}
				fields := 2 + 3 + len(l.CaptureCount) + len(l.Captured) + l.StateBits
				if w.atari {
					fields += 2
				}
				if len(l.Recipient) != fields || len(l.OutputMask) != fields {
					t.Errorf("%d recipients, %d masks for %d outputs", len(l.Recipient), len(l.OutputMask), fields)
				}
			})
		}
	}
}

// TestRefereeMasks checks that each mask bit of the garbler flips exactly
// the outputs it masks: what the evaluator decodes of a garbler's output is
// the value XOR a bit it never sees.
func TestRefereeMasks(t *testing.T) {
	for _, rules := range allRules {
		for _, mover := range []Party{Garbler, Evaluator} {
			l, c := refereeFor(t, 5, rules, mover, refereeFlaws{})
			rng := rand.New(rand.NewPCG(7, 7))
			g := newRefereeGame(t, newPhantom(t, 5, rules), rng)
			for range 20 {
				g.try(t, mover, g.randomTry())
			}
			mask := randomBits(rng, l.MaskBits())
			in1, err := l.Inputs(Evaluator, g.ref.ToMove(), g.shares[Evaluator], 7, nil)
			if err != nil {
				t.Fatal(err)
			}
			eval := func(mask []bool) []bool {
				in0, err := l.Inputs(Garbler, g.ref.ToMove(), g.shares[Garbler], 7, mask)
				if err != nil {
					t.Fatal(err)
				}
				out, err := c.Eval(in0, in1)
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			base := eval(mask)
			for i := range mask {
				flipped := append([]bool(nil), mask...)
				flipped[i] = !flipped[i]
				out := eval(flipped)
				for j := range out {
					if changed := out[j] != base[j]; changed != (l.OutputMask[j] == i) {
						t.Fatalf("%s mover=%v: flipping mask bit %d changes output %d: %v (its mask is %d)", rules, mover, i, j, changed, l.OutputMask[j])
					}
				}
			}
		}
	}
}

// TestRefereeMasksInDecoding holds the form of MPC-D27 to the form with
// mask inputs (T-9): on the same states, tries and masks, the circuit
// without mask inputs, with its outputs masked as the garbler's flipped
// decoding bits mask them (MaskOutputs), gives the evaluator exactly the
// outputs of the circuit with mask inputs, hence the same announcements
// and the same next shares; the garbler's announcement, read from the
// unmasked outputs, is the same too. The form has no mask inputs and as
// many mask bits.
func TestRefereeMasksInDecoding(t *testing.T) {
	for _, size := range []int{5, 9} {
		for _, rules := range allRules {
			for _, mover := range []Party{Garbler, Evaluator} {
				l, c := refereeFor(t, size, rules, mover, refereeFlaws{})
				ld, cd, err := RefereeCircuitMasksInDecoding(size, rules, mover)
				if err != nil {
					t.Fatal(err)
				}
				if !ld.MasksInDecoding || len(ld.MaskIn) != 0 || ld.MaskBits() != l.MaskBits() || ld.NumInputs[Garbler] != l.NumInputs[Garbler]-l.MaskBits() {
					t.Fatalf("%dx%d %s: %d mask inputs, %d mask bits (%d with inputs), %d garbler inputs (%d)",
						size, size, rules, len(ld.MaskIn), ld.MaskBits(), l.MaskBits(), ld.NumInputs[Garbler], l.NumInputs[Garbler])
				}
				if !reflect.DeepEqual(ld.OutputMask, l.OutputMask) || !reflect.DeepEqual(ld.Recipient, l.Recipient) {
					t.Fatalf("%dx%d %s: the outputs are not laid out alike", size, size, rules)
				}
				rng := rand.New(rand.NewPCG(uint64(size), 27))
				g := newRefereeGame(t, newPhantom(t, size, rules), rng)
				for k := range 30 {
					mv := g.ref.ToMove()
					try := g.randomTry()
					mask := randomBits(rng, l.MaskBits())
					var outs [2][]bool
					for f, lc := range []struct {
						l *RefereeLayout
						c *Circuit
					}{{l, c}, {ld, cd}} {
						in0, err := lc.l.Inputs(Garbler, mv, g.shares[Garbler], try, mask)
						if err != nil {
							t.Fatal(err)
						}
						in1, err := lc.l.Inputs(Evaluator, mv, g.shares[Evaluator], try, nil)
						if err != nil {
							t.Fatal(err)
						}
						out, err := lc.c.Eval(in0, in1)
						if err != nil {
							t.Fatal(err)
						}
						if f == 1 {
							plain := out
							if out, err = ld.MaskOutputs(plain, mask); err != nil {
								t.Fatal(err)
							}
							var annG [2]string
							for h, ll := range []*RefereeLayout{l, ld} {
								o := outs[0]
								if h == 1 {
									o = plain
								}
								a, err := ll.Announcement(Garbler, mv, try, o, mask)
								if err != nil {
									annG[h] = "error: " + err.Error()
								} else {
									annG[h] = fmt.Sprint(a.KeyValues())
								}
							}
							if annG[0] != annG[1] {
								t.Fatalf("%dx%d %s try %d: the garbler is told %s, with mask inputs %s", size, size, rules, k, annG[1], annG[0])
							}
						}
						outs[f] = out
					}
					if !reflect.DeepEqual(outs[0], outs[1]) {
						t.Fatalf("%dx%d %s mover=%v try %d: the evaluator decodes other outputs", size, size, rules, mover, k)
					}
					if g.ref.PlayEnded() {
						break
					}
					g.try(t, mover, try)
				}
			}
		}
	}
}

func TestRefereeCircuitErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		size  int
		rules engine.PhantomRules
		mover Party
	}{
		{"size 4", 4, engine.RulesCommon, Garbler},
		{"size 20", 20, engine.RulesCommon, Garbler},
		{"no rules", 9, "", Garbler},
		{"unknown rules", 9, "berlin", Garbler},
		{"no party", 9, engine.RulesCommon, Party(2)},
	} {
		if _, _, err := RefereeCircuit(tc.size, tc.rules, tc.mover); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	l, _ := refereeFor(t, 5, engine.RulesCommon, Garbler, refereeFlaws{})
	share := EmptyRefereeState(5)
	mask := make([]bool, l.MaskBits())
	if _, err := l.Inputs(Garbler, engine.Black, share, 25, mask); !errors.Is(err, engine.ErrOffBoard) {
		t.Errorf("try off the board: %v", err)
	}
	if _, err := l.Inputs(Garbler, engine.Black, share, 3, mask[1:]); !errors.Is(err, ErrInputLength) {
		t.Errorf("short mask: %v", err)
	}
	if _, err := l.Inputs(Evaluator, engine.Black, share, 3, mask); !errors.Is(err, ErrInputLength) {
		t.Errorf("evaluator with a mask: %v", err)
	}
	if _, err := l.Inputs(Garbler, engine.Empty, share, 3, mask); err == nil {
		t.Errorf("mover Empty: no error")
	}
	if _, err := l.Inputs(Garbler, engine.Black, EmptyRefereeState(9), 3, mask); !errors.Is(err, ErrBadState) {
		t.Errorf("share of another size: %v", err)
	}
	if _, err := l.Announcement(Evaluator, engine.Black, engine.NoPoint, make([]bool, 3), nil); !errors.Is(err, ErrBadOutput) {
		t.Errorf("short outputs: %v", err)
	}
}

// FuzzRefereeCircuit plays the tries the input spells on a 5×5 board
// through the circuit and the engine referee, which must agree on every
// try. Byte 0 picks the rule set; then each byte is a try (a point, or a
// pass for values 25 to 29 and the mover's party from bit 7).
func FuzzRefereeCircuit(f *testing.F) {
	f.Add([]byte{0, 12, 13, 7, 17, 11, 8, 6, 18, 16, 2, 22})
	f.Add([]byte{1, 0, 1, 5, 6, 10, 11, 2, 7, 25, 12, 3, 130, 141, 152})
	f.Add([]byte{2, 6, 7, 12, 11, 8, 13, 1, 17, 5, 16, 0, 26, 27})
	f.Add([]byte{0, 1, 0, 5, 2, 7, 6, 11, 10, 12, 16, 17, 15, 22, 20, 21, 3, 8, 9, 4, 14, 13, 18, 19, 23, 24})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		if len(data) > 120 {
			data = data[:120]
		}
		rules := allRules[int(data[0])%len(allRules)]
		g := newRefereeGame(t, newPhantom(t, 5, rules), rand.New(rand.NewPCG(uint64(len(data)), 9)))
		for _, c := range data[1:] {
			if g.ref.PlayEnded() {
				return
			}
			p := engine.Point(c&0x7f) % 30
			if p >= 25 {
				p = engine.Pass
			}
			g.try(t, Party(c>>7), p)
		}
	})
}

// BenchmarkRefereeCircuit evaluates the referee circuit in the clear on a
// position of a random game and reports its AND gates per try (the cost of
// garbling: 32 bytes each with half-gates).
func BenchmarkRefereeCircuit(b *testing.B) {
	for _, size := range []int{5, 9, 13, 19} {
		for _, rules := range allRules {
			b.Run(fmt.Sprintf("%dx%d/%s", size, size, rules), func(b *testing.B) {
				l, c, err := RefereeCircuit(size, rules, Evaluator)
				if err != nil {
					b.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(1, 1))
				g := newRefereeGame(b, newPhantom(b, size, rules), rng)
				for range size * size / 2 {
					g.try(b, Evaluator, g.randomTry())
				}
				mask := randomBits(rng, l.MaskBits())
				p := g.randomTry()
				in0, err := l.Inputs(Garbler, g.ref.ToMove(), g.shares[Garbler], p, mask)
				if err != nil {
					b.Fatal(err)
				}
				in1, err := l.Inputs(Evaluator, g.ref.ToMove(), g.shares[Evaluator], p, nil)
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					if _, err := c.Eval(in0, in1); err != nil {
						b.Fatal(err)
					}
				}
				// After the loop: b.Loop's reset drops metrics reported before.
				b.ReportMetric(float64(c.ANDCount()), "AND-gates")
				b.ReportMetric(float64(c.ANDCount())*32/1024, "KiB-garbled")
			})
		}
	}
}

// BenchmarkRefereeBuild measures building the circuit, done once per game.
func BenchmarkRefereeBuild(b *testing.B) {
	for _, size := range []int{9, 19} {
		b.Run(fmt.Sprintf("%dx%d", size, size), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := RefereeCircuit(size, engine.RulesCommon, Garbler); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
