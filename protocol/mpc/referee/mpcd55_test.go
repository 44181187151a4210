package referee

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kakure/kakure/engine"
)

// TestMPCD55ReverseAheadOfTheFlips (MPC-D55): in a game whose evaluator's
// tries come by flips, the garbler may make the next try's reverse
// request once the choice is in and the flips are awaited. Twin games
// (the same seeds and tries), one making it there at each of the
// evaluator's tries, send the same bytes both ways; what it made is the
// reverse request the next try starts with.
func TestMPCD55ReverseAheadOfTheFlips(t *testing.T) {
	allowTryFlips(t)
	for _, auth := range []bool{false, true} {
		t.Run(fmt.Sprintf("auth-%v", auth), func(t *testing.T) {
			cfg := flippedConfig(5, engine.RulesCommon, engine.White, 4, auth, "reverse ahead of the flips")
			plain := newGameOf(t, cfg, testSeed("d55 g", 0), testSeed("d55 e", 0))
			early := newGameOf(t, cfg, testSeed("d55 g", 0), testSeed("d55 e", 0))
			made := map[uint64][]byte{}
			early.flipsOf = func(p engine.Point) ([]byte, error) {
				msg, err := early.g.ReverseRequestAhead()
				if err != nil {
					return nil, fmt.Errorf("the reverse request before the flips: %w", err)
				}
				made[early.e.pub.Try+1] = msg
				return early.e.Flips(p)
			}
			rng := rand.New(rand.NewPCG(55, 1))
			last := engine.NoPoint
			for range 24 {
				if plain.ref.PlayEnded() {
					break
				}
				p := randomTry(rng, plain.ref, last)
				try := plain.e.pub.Try
				if want, ok := made[try]; ok {
					got, err := early.g.ReverseRequest()
					if err != nil || !bytes.Equal(got, want) {
						t.Fatalf("try %d starts with another reverse request than the one made before the flips (%v)", try, err)
					}
				}
				for _, gm := range []*testGame{plain, early} {
					if _, d := gm.step(p); d != "" {
						t.Fatal(d)
					}
				}
				if p != engine.Pass {
					last = p
				}
			}
			if len(made) == 0 {
				t.Fatal("no try of the evaluator's player")
			}
			for side, name := range []string{"garbler", "evaluator"} {
				a, b := plain.received[side], early.received[side]
				if len(a) != len(b) {
					t.Fatalf("the %s received %d messages in one game, %d in its twin", name, len(a), len(b))
				}
				for i := range a {
					if !bytes.Equal(a[i], b[i]) {
						t.Fatalf("the %s's message %d differs between the twins", name, i)
					}
				}
			}
		})
	}
}
