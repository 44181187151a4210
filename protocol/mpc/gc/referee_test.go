package gc_test

import (
	"fmt"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// TestT9GarbledRefereeMatchesEval garbles the Phantom Go referee circuit
// and checks that the evaluator decodes exactly what the plaintext circuit
// computes on the same inputs (random shares and tries; the circuit
// package checks the plaintext circuit against the engine's referee),
// with every garbling scheme.
func TestT9GarbledRefereeMatchesEval(t *testing.T) {
	for _, s := range schemes {
		t.Run(s.String(), func(t *testing.T) { t9GarbledReferee(t, s) })
	}
}

func t9GarbledReferee(t *testing.T, s gc.Scheme) {
	for _, tc := range []struct {
		size  int
		rules engine.PhantomRules
		mover circuit.Party
		tries int
	}{
		{9, engine.RulesHamburg, circuit.Garbler, 2},
		{9, engine.RulesKriegspiel, circuit.Evaluator, 2},
		{19, engine.RulesCommon, circuit.Garbler, 1},
	} {
		t.Run(fmt.Sprintf("%dx%d %s mover %v", tc.size, tc.size, tc.rules, tc.mover), func(t *testing.T) {
			_, c, err := circuit.RefereeCircuit(tc.size, tc.rules, tc.mover)
			if err != nil {
				t.Fatal(err)
			}
			seed := prg.Seed{byte(tc.size)}
			r := seed.Stream("inputs")
			for k := range tc.tries {
				in0, in1 := r.Bools(len(c.Inputs[0])), r.Bools(len(c.Inputs[1]))
				want, err := c.Eval(in0, in1)
				if err != nil {
					t.Fatal(err)
				}
				got := runGarbled(t, s, c, seed.Derive("garbler", uint64(k)), in0, in1)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("try %d: garbled referee output differs from Eval", k)
				}
			}
		})
	}
}

// BenchmarkReferee garbles and evaluates the referee circuit of one try
// with each scheme, from the *circuit.Circuit (garble, evaluate: each
// call validates it and lays it out) and from a gc.Prepared (as the
// referee does).
func BenchmarkReferee(b *testing.B) {
	for _, s := range schemes {
		b.Run(s.String(), func(b *testing.B) { benchmarkReferee(b, s) })
	}
}

func benchmarkReferee(b *testing.B, s gc.Scheme) {
	for _, size := range []int{9, 19} {
		_, c, err := circuit.RefereeCircuit(size, engine.RulesHamburg, circuit.Garbler)
		if err != nil {
			b.Fatal(err)
		}
		var seed prg.Seed
		delta, _ := gc.NewDelta(seed.Stream("delta"))
		nAND := gc.CountAND(c)
		b.Run(fmt.Sprintf("garble-%dx%d", size, size), func(b *testing.B) {
			cpu := cpuTime()
			for i := range b.N {
				s.Garble(c, delta, seed.Stream("labels"), uint64(i))
			}
			reportRate(b, nAND, cpu)
		})
		g, keys, _ := s.Garble(c, delta, seed.Stream("labels"), 0)
		in0, _ := keys.Encode(0, make([]bool, len(c.Inputs[0])))
		in1, _ := keys.Encode(1, make([]bool, len(c.Inputs[1])))
		b.Run(fmt.Sprintf("evaluate-%dx%d", size, size), func(b *testing.B) {
			cpu := cpuTime()
			for range b.N {
				gc.Evaluate(c, g, [2][]gc.Label{in0, in1})
			}
			reportRate(b, nAND, cpu)
		})
		p, err := gc.Prepare(c)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("garble-prepared-%dx%d", size, size), func(b *testing.B) {
			cpu := cpuTime()
			for i := range b.N {
				if _, _, err := s.GarblePrepared(p, delta, seed.Stream("labels"), uint64(i)); err != nil {
					b.Fatal(err)
				}
			}
			reportRate(b, nAND, cpu)
		})
		b.Run(fmt.Sprintf("evaluate-prepared-%dx%d", size, size), func(b *testing.B) {
			cpu := cpuTime()
			for range b.N {
				if _, err := gc.EvaluatePrepared(p, g, [2][]gc.Label{in0, in1}); err != nil {
					b.Fatal(err)
				}
			}
			reportRate(b, nAND, cpu)
		})
	}
}
