package referee

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
)

// t9Budget is the number of random tries per board size of
// TestT9SecureRefereeMatchesEngine, 10,000 in all.
var t9Budget = map[int]int{5: 6000, 9: 2800, 13: 800, 19: 400}

// TestT9SecureRefereeMatchesEngine plays random games through the whole
// secure computation (garbling, OT extension, evaluation, the labels
// forwarded back) and holds it to the plaintext referee bit for bit
// (trust.md T-9): after every try, both players' announcements, the board,
// the ko and the label invariants of the shared state, and the public
// state. Sizes 5, 9, 13, 19, the three rule sets, the garbler's player
// Black and White; in every game both parties move, so every try kind
// comes with the mover as the garbler and as the evaluator; the tries of
// every game but one per size are checked with λ = 4 garblings (T-8(b),
// t9Lambda). 10,000 checked tries and the unchecked game's in the full
// tier; by default and under the race detector fewer (see t9Scale).
func TestT9SecureRefereeMatchesEngine(t *testing.T) {
	t9Run(t, InputOTExtension, t9Scale())
}

// TestT9SecureRefereeCorrelatedOT is TestT9SecureRefereeMatchesEngine
// with the correlated input OTs of MPC-D28 in every checked game: a
// tenth of its budget (1,000 checked tries) in the full tier, all of it
// (10,000) with KAKURE_T9_FULL=1 as well; fewer by default and under the
// race detector (t9Scale).
func TestT9SecureRefereeCorrelatedOT(t *testing.T) {
	scale := t9Scale()
	if os.Getenv("KAKURE_T9_FULL") == "" {
		scale *= 10
	}
	t9Run(t, InputOTCorrelated, scale)
}

// t9Run is the harness of the T-9 tests: the budget divided by scale,
// the checked games with the input OTs of form.
func t9Run(t *testing.T, form InputOT, scale int) {
	total, checked := 0, 0
	start := time.Now()
	for _, size := range []int{5, 9, 13, 19} {
		budget := (t9Budget[size] + scale - 1) / scale
		cover := map[string]int{}
		played, all := 0, 0
		for i := 0; played < budget; i++ {
			rules := allRules[i%3]
			garbler := engine.Black
			if i/3%2 == 1 {
				garbler = engine.White
			}
			rng := rand.New(rand.NewPCG(uint64(size), uint64(i)))
			cfg := Config{Size: size, Rules: rules, GarblerColor: garbler, Game: []byte(fmt.Sprintf("test game %dx%d %s", size, size, rules)), Komi: 7.5, Lambda: t9Lambda(i)}
			if cfg.Checked() {
				cfg.InputOT = form
			}
			gm := newGameOf(t, cfg, testSeed("g", size*1000+i), testSeed("e", size*1000+i))
			n := min(budget-played, 2*size*size+20)
			if n < budget-played && budget-played-n < 10 {
				n = budget - played
			}
			k := gm.playRandom(rng, n, cover)
			all += k
			if gm.cfg.Checked() {
				// The budget counts checked tries; the unchecked game
				// comes on top.
				played += k
			}
			// The audit of an honest game finds nothing; it replays the
			// whole computation, so only the first game of each rule set
			// and colour on 5×5 and 9×9 is audited here.
			if i < 6 && size <= 9 && !raceEnabled {
				if _, err := Audit(gm.rec, gm.reveals()); err != nil {
					t.Fatalf("%dx%d %s: honest game fails the audit: %v", size, size, rules, err)
				}
			}
		}
		total += all
		checked += played
		t.Logf("%dx%d: %d tries (%d checked) %v", size, size, all, played, cover)
		if budget >= t9Budget[size] {
			kinds := []string{"mover garbler", "mover evaluator", "pass", "moved", "illegal occupied-own",
				"illegal occupied-opponent", "captured one", "atari opponent", "atari self"}
			if size == 5 {
				// PG-5's capture clause: common enough on 5×5 only.
				kinds = append(kinds, "atari self, capture joining atari")
			}
			for _, k := range kinds {
				if cover[k] == 0 {
					t.Errorf("%dx%d: no try of kind %q", size, size, k)
				}
			}
		}
	}
	t.Logf("T-9: %d random tries (%d checked, λ = 4, %v input OTs) through the secure referee match the plaintext referee (%v)", total, checked, form, time.Since(start).Round(time.Millisecond))
	if checked == 0 {
		t.Error("no checked try")
	}
	if scale == 1 && checked < 10000 {
		t.Errorf("only %d checked tries", checked)
	}
}

// t9Lambda is the λ of game i of TestT9SecureRefereeMatchesEngine: the
// tries of every game are checked with λ = 4 (T-8(b)) but the second's,
// the three-message try of older games, so that each board size has both
// kinds.
func t9Lambda(i int) int {
	if i == 1 {
		return 0
	}
	return 4
}

// t9Scale divides the budget: not at all in the full tier
// (KAKURE_TEST_FULL=1), by 20 by default, by 100 under the race
// detector, which makes garbling about ten times slower.
func t9Scale() int {
	switch {
	case testenv.Full():
		return 1
	case raceEnabled:
		return 100
	}
	return 20
}
