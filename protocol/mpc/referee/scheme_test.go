package referee

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
)

// t9ThreeHalvesBudget is the number of random tries per board size of
// TestT9SecureRefereeThreeHalves.
var t9ThreeHalvesBudget = map[int]int{5: 500, 9: 300, 13: 60}

// TestT9SecureRefereeThreeHalves is TestT9SecureRefereeMatchesEngine with
// three-halves garbling (trust.md T-9, MPC-D26): random games through the
// whole secure computation held to the plaintext referee bit for bit,
// the three rule sets, the garbler Black and White, tries checked with
// λ = 4 garblings but in the second game of each size (λ = 1); the honest
// games of 5×5 and 9×9 pass the audit. With -short or under the race
// detector fewer tries (t9Scale) and no check of the kinds covered.
func TestT9SecureRefereeThreeHalves(t *testing.T) {
	scale := t9Scale()
	total := 0
	for _, size := range []int{5, 9, 13} {
		budget := (t9ThreeHalvesBudget[size] + scale - 1) / scale
		cover := map[string]int{}
		played := 0
		for i := 0; played < budget; i++ {
			rules := allRules[i%3]
			garbler := engine.Black
			if i/3%2 == 1 {
				garbler = engine.White
			}
			rng := rand.New(rand.NewPCG(uint64(size)+1000, uint64(i)))
			gm := newSchemeGame(t, size, rules, garbler, testSeed("3h g", size*1000+i), testSeed("3h e", size*1000+i), t9Lambda(i), gc.ThreeHalves)
			played += gm.playRandom(rng, min(budget-played, 2*size*size+20), cover)
			if i < 2 && size <= 9 && !raceEnabled {
				if _, err := Audit(gm.rec, gm.reveals()); err != nil {
					t.Fatalf("%dx%d %s: honest three-halves game fails the audit: %v", size, size, rules, err)
				}
			}
		}
		total += played
		t.Logf("%dx%d three-halves: %d tries %v", size, size, played, cover)
		if scale == 1 && (cover["mover garbler"] == 0 || cover["mover evaluator"] == 0 || cover["moved"] == 0) {
			t.Errorf("%dx%d: tries of some kind missing: %v", size, size, cover)
		}
	}
	t.Logf("T-9 three-halves: %d random tries match the plaintext referee", total)
}

// TestT8CoverThreeHalvesOpenedCopyCaught (T-8(b)): a garbler that corrupts a
// table row of one of the λ = 4 three-halves garblings of a try is
// caught during the try whenever that garbling is one the evaluator
// opens, with a certificate JudgeCertificate accepts against the record
// (its re-garbling reads the scheme from the record's configuration);
// the honest evaluator is never the one blamed.
//
// The same with a wrong decoding bit of an opened garbling: one of the
// bits that carry the garbler's masks of its next share (MPC-D27), as a
// garbler that XORs in other masks than its seed gives would make it;
// the corrupted garbling is always an opened one here.
func TestT8CoverThreeHalvesOpenedCopyCaught(t *testing.T) {
	for _, kind := range []string{"table row", "decoding bit"} {
		t.Run(strings.ReplaceAll(kind, " ", "-"), func(t *testing.T) { coverThreeHalvesOpenedCopy(t, kind) })
	}
}

func coverThreeHalvesOpenedCopy(t *testing.T, kind string) {
	trials, lambda := 40, 4
	if raceEnabled {
		trials = 6
	}
	rng := rand.New(rand.NewPCG(16, 3))
	gm := newSchemeGame(t, 5, engine.RulesCommon, engine.Black, testSeed("3h cheat g", 0), testSeed("3h cheat e", 0), lambda, gc.ThreeHalves)
	stateBits := gm.g.rc.layout[circuit.Garbler].StateBits
	target, armed := -1, false
	gm.g.cheatCopy = func(_ uint64, i int, g *gc.Garbled, _ *gc.Keys) {
		if !armed || i != target {
			return
		}
		if kind == "decoding bit" {
			k := len(g.Decoding) - 1 - rng.IntN(stateBits)
			g.Decoding[k] = !g.Decoding[k]
			return
		}
		g.Tables[rng.IntN(len(g.Tables))] ^= 1 << rng.IntN(8)
	}
	caught, opened := 0, 0
	last := engine.NoPoint
	for range trials {
		if gm.ref.PlayEnded() {
			t.Fatal("play ended; use fewer trials")
		}
		target, armed = rng.IntN(lambda), true
		if kind == "decoding bit" {
			target = (gm.e.choose(gm.e.pub.Try) + 1 + rng.IntN(lambda-1)) % lambda
		}
		nTries := [2]int{len(gm.g.tries), len(gm.e.tries)}
		nMovers := [2]int{len(gm.g.movers), len(gm.e.movers)}
		pub, shares := gm.e.pub, [2]circuit.RefereeState{gm.g.Share(), gm.e.Share()}
		p := randomTry(rng, gm.ref, last)
		try := gm.e.pub.Try
		isOpened := target != gm.e.choose(try)
		_, err := gm.play(p)
		armed = false
		if isOpened {
			opened++
			if err == nil || gm.e.Certificate() == nil {
				t.Fatalf("try %d: corrupted opened garbling %d not caught with a certificate: %v", try, target, err)
			}
			if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the garbler") || gm.g.Err() != nil {
				t.Fatalf("try %d: the honest evaluator does not blame the garbler: %v", try, err)
			}
			c := gm.e.Certificate()
			if err := JudgeCertificate(gm.rec, int(try), *c); err != nil {
				t.Fatalf("try %d: the certificate (%s) is not accepted: %v", try, c.What, err)
			}
			if c.Opened != target {
				t.Fatalf("try %d: certificate on garbling %d, the corrupted one is %d", try, c.Opened, target)
			}
			if kind == "decoding bit" && !strings.Contains(c.What, "decoding bits") {
				t.Fatalf("try %d: the certificate says %q of a wrong decoding bit", try, c.What)
			}
			caught++
			gm.resetTry(nTries, nMovers, pub, shares)
			continue
		}
		if err != nil {
			// The evaluated garbling was corrupted: no proof during the
			// try (the audit has one); start again from before it.
			gm.resetTry(nTries, nMovers, pub, shares)
			continue
		}
		next, _, err := gm.ref.Try(gm.ref.ToMove(), p)
		if err != nil {
			t.Fatal(err)
		}
		gm.ref = next
		if p != engine.Pass {
			last = p
		}
	}
	t.Logf("three-halves, λ=%d, %s: %d of %d corrupted garblings were opened, all caught with a certificate", lambda, kind, caught, opened)
	if caught == 0 {
		t.Error("no corrupted garbling was opened")
	}
}

// TestThreeHalvesSchemeMismatch: an evaluator refuses a garbling of the
// other scheme than its game's as a malformed message, blaming the
// garbler's message rather than evaluating it.
func TestThreeHalvesSchemeMismatch(t *testing.T) {
	gm := newSchemeGame(t, 5, engine.RulesCommon, engine.Black, testSeed("3h mm g", 0), testSeed("3h mm e", 0), 0, gc.ThreeHalves)
	gm.e.cfg.Scheme = gc.HalfGates
	_, err := gm.play(engine.Point(6))
	if !errors.Is(err, ErrMessage) || !strings.Contains(err.Error(), "three-halves garbling in a half-gates game") {
		t.Fatalf("three-halves garbling in a half-gates game: %v", err)
	}
	if err := (Config{Size: 5, Rules: engine.RulesCommon, GarblerColor: engine.Black, Game: []byte("x"), Scheme: 5}).Validate(); !errors.Is(err, ErrConfig) {
		t.Errorf("unknown scheme: Validate = %v, want ErrConfig", err)
	}
}
