package referee

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// newAuthGame is newCOTGame with the authenticated state (MPC-D29):
// three-halves, the correlated input OTs.
func newAuthGame(t testing.TB, size int, rules engine.PhantomRules, garbler engine.Color, seedG, seedE prg.Seed, lambda int) *testGame {
	t.Helper()
	cfg := Config{Size: size, Rules: rules, GarblerColor: garbler, Game: []byte(fmt.Sprintf("test game %dx%d %s", size, size, rules)), Komi: 7.5,
		Lambda: lambda, Scheme: gc.ThreeHalves, InputOT: InputOTCorrelated, AuthState: true}
	return newGameOf(t, cfg, seedG, seedE)
}

// TestMPCD29Config: the authenticated state needs the correlated input
// OTs, λ > 1 and three-halves.
func TestMPCD29Config(t *testing.T) {
	for _, c := range []struct {
		lambda int
		form   InputOT
		scheme gc.Scheme
		ok     bool
	}{{4, InputOTCorrelated, gc.ThreeHalves, true}, {2, InputOTCorrelated, gc.ThreeHalves, true}, {4, InputOTExtension, gc.ThreeHalves, false},
		{4, InputOTCorrelated, gc.HalfGates, false}, {1, InputOTExtension, gc.ThreeHalves, false}, {0, InputOTExtension, gc.ThreeHalves, false}} {
		cfg := Config{Size: 9, Rules: engine.RulesCommon, GarblerColor: engine.Black, Game: []byte("g"), Lambda: c.lambda, InputOT: c.form, Scheme: c.scheme, AuthState: true}
		if err := cfg.Validate(); (err == nil) != c.ok {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

// TestMPCD29GamesMatchEngine plays random games with the authenticated
// state and holds them to the plaintext referee (T-9); the audit of each
// finds nothing, and neither party ever holds a certificate against the
// other.
func TestMPCD29GamesMatchEngine(t *testing.T) {
	tries := 40
	if raceEnabled {
		tries = 6
	}
	for i, c := range []struct{ lambda, size int }{{4, 5}, {2, 9}, {4, 9}, {8, 5}} {
		garbler := engine.Black
		if i%2 == 1 {
			garbler = engine.White
		}
		rng := rand.New(rand.NewPCG(uint64(c.size), uint64(c.lambda)))
		gm := newAuthGame(t, c.size, allRules[i%3], garbler, testSeed("auth g", i), testSeed("auth e", i), c.lambda)
		played := gm.playRandom(rng, tries, nil)
		if gm.e.Certificate() != nil || gm.e.ShareCertificate() != nil || gm.g.ShareCertificate() != nil {
			t.Fatalf("%+v: a certificate in an honest game", c)
		}
		if _, err := Audit(gm.rec, gm.reveals()); err != nil {
			t.Fatalf("%+v: honest game fails the audit: %v", c, err)
		}
		t.Logf("%dx%d λ=%d: %d tries match", c.size, c.size, c.lambda, played)
	}
}

// flipShare flips, in s, the bit of a stone of colour col at p (a
// phantom stone of the opponent, or one taken away).
func flipShare(s *circuit.RefereeState, col engine.Color, p engine.Point) {
	if col == engine.Black {
		s.Black[p] = !s.Black[p]
	} else {
		s.White[p] = !s.White[p]
	}
}

// TestT8AuthEvaluatorSubstitution is the cheater of issue 31, item 1, as
// the evaluator: its program flips its share's bit of an opponent stone
// at the point its player then tries (a stone put there or taken away),
// and flips it back after the try. Caught in that try, every time and
// whatever the try number (the first try's empty state included), by the
// garbler's check of the sums of its choice (MPC-D29), before the
// garbler sends garbling ĵ: the evaluator learns nothing of the try; the
// garbler holds a certificate that JudgeEvaluatorShare accepts.
func TestT8AuthEvaluatorSubstitution(t *testing.T) {
	for trial := range 6 {
		gm := newAuthGame(t, 5, allRules[trial%3], engine.White, testSeed("esub g", trial), testSeed("esub e", trial), 4)
		rng := rand.New(rand.NewPCG(uint64(trial), 31))
		// Honest tries first (none in the first trial); the cheat at a
		// try of the evaluator's player (Black).
		gm.playRandom(rng, 2*trial, nil)
		for gm.cfg.PartyOf(gm.ref.ToMove()) != circuit.Evaluator {
			gm.step(randomTry(rng, gm.ref, engine.NoPoint))
		}
		at := len(gm.rec.Tries)
		p := engine.Point(rng.IntN(25))
		flipShare(&gm.e.share, engine.White, p)
		_, err := gm.play(p)
		flipShare(&gm.e.share, engine.White, p)
		if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the evaluator") {
			t.Fatalf("trial %d: a substituted evaluator share at try %d: %v, want ErrDeviation blaming the evaluator", trial, at, err)
		}
		if gm.rec.Tries[at].Sent != 3 {
			t.Fatalf("trial %d: the try went on to message %d", trial, gm.rec.Tries[at].Sent)
		}
		c := gm.g.ShareCertificate()
		if c == nil {
			t.Fatalf("trial %d: no certificate", trial)
		}
		if err := JudgeEvaluatorShare(gm.rec, at, *c); err != nil {
			t.Fatalf("trial %d: the certificate is not accepted: %v", trial, err)
		}
		t.Logf("trial %d: caught at try %d (%s), certificate accepted", trial, at, p.Vertex(5))
	}
}

// TestT8AuthGarblerSubstitution is the same cheat by the garbler: its
// program flips its share's bit of an opponent stone at the point its
// player tries, and flips it back. Caught in that try, every time, by
// the evaluator's check of the garbler's MAC opening before it evaluates
// garbling ĵ (MPC-D29): the garbler gets no output label, its player no
// announcement; the evaluator holds a certificate that
// JudgeGarblerShare accepts.
func TestT8AuthGarblerSubstitution(t *testing.T) {
	for trial := range 6 {
		gm := newAuthGame(t, 5, allRules[trial%3], engine.Black, testSeed("gsub g", trial), testSeed("gsub e", trial), 4)
		rng := rand.New(rand.NewPCG(uint64(trial), 32))
		gm.playRandom(rng, 2*trial, nil)
		for gm.cfg.PartyOf(gm.ref.ToMove()) != circuit.Garbler {
			gm.step(randomTry(rng, gm.ref, engine.NoPoint))
		}
		at := len(gm.rec.Tries)
		p := engine.Point(rng.IntN(25))
		flipShare(&gm.g.share, engine.White, p)
		_, err := gm.play(p)
		flipShare(&gm.g.share, engine.White, p)
		if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the garbler") {
			t.Fatalf("trial %d: a substituted garbler share at try %d: %v, want ErrDeviation blaming the garbler", trial, at, err)
		}
		if gm.rec.Tries[at].Sent != 4 {
			t.Fatalf("trial %d: the try went on to message %d", trial, gm.rec.Tries[at].Sent)
		}
		c := gm.e.ShareCertificate()
		if c == nil {
			t.Fatalf("trial %d: no certificate", trial)
		}
		if err := JudgeGarblerShare(gm.rec, at, *c); err != nil {
			t.Fatalf("trial %d: the certificate is not accepted: %v", trial, err)
		}
		t.Logf("trial %d: caught at try %d (%s), certificate accepted", trial, at, p.Vertex(5))
	}
}
