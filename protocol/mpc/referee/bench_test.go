package referee

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
)

// TestANDCountPerTry logs the AND gates of one try (the garbled tables are
// 32 bytes per AND gate with half-gates, 24 + 5/8 with three-halves) and
// holds them to the targets for 9×9 and 13×13.
func TestANDCountPerTry(t *testing.T) {
	limit := map[int]int{9: 11500, 13: 25500}
	for _, size := range []int{5, 9, 13, 19} {
		for _, rules := range allRules {
			n, err := ANDGates(Config{Size: size, Rules: rules, GarblerColor: engine.Black, Game: []byte("x")})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%2dx%-2d %-10s %6d AND gates, %7d bytes of tables (%d with three-halves)", size, size, rules, n, gc.HalfGates.TablesSize(n), gc.ThreeHalves.TablesSize(n))
			if l := limit[size]; l > 0 && n > l {
				t.Errorf("%dx%d %s: %d AND gates, the target is %d", size, size, rules, n, l)
			}
		}
	}
}

// BenchmarkTry plays random tries of whole games between a garbler and an
// evaluator in one process (both on the same machine, no network) and
// reports per try: the AND gates, the bytes on the wire with and without
// the OT part (the evaluator's request and the garbler's reply, and with
// the correlated input OTs of MPC-D28 the garbler's reverse request and
// corrections), and the
// latency from the request to the garbler's announcement, p25, p50, p75
// and p95 (on the shared machine the distribution of a 9×9 try is often
// bimodal, the p50 then sits on either side).
// The cost of the base OTs (once per game) is left out.
//
//	go test -bench Try -benchtime 200x ./protocol/mpc/referee
func BenchmarkTry(b *testing.B) {
	type run struct {
		size, lambda int
		scheme       gc.Scheme
		form         InputOT
		auth         bool // MPC-D29
		macBits      int  // MPC-D32
	}
	for _, r := range []run{{9, 1, gc.HalfGates, 0, false, 0}, {9, 4, gc.HalfGates, 0, false, 0}, {9, 4, gc.HalfGates, InputOTCorrelated, false, 0}, {9, 1, gc.ThreeHalves, 0, false, 0}, {9, 4, gc.ThreeHalves, 0, false, 0},
		{9, 4, gc.ThreeHalves, InputOTCorrelated, false, 0}, {9, 4, gc.ThreeHalves, InputOTCorrelated, true, 0}, {9, 4, gc.ThreeHalves, InputOTCorrelated, true, 64},
		{13, 1, gc.HalfGates, 0, false, 0}, {19, 1, gc.HalfGates, 0, false, 0}} {
		size := r.size
		name := fmt.Sprintf("%dx%d-lambda-%d", size, size, r.lambda)
		if r.scheme != gc.HalfGates {
			name += "-" + r.scheme.String()
		}
		if r.form != InputOTExtension {
			name += "-" + r.form.String()
		}
		if r.auth {
			name += "-auth"
		}
		if r.macBits != 0 {
			name += fmt.Sprintf("-mac%d", r.macBits)
		}
		b.Run(name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(uint64(size), 1))
			var gm *testGame
			var lat []time.Duration
			var wire, otBytes int
			last := engine.NoPoint
			games := 0
			b.ResetTimer()
			for range b.N {
				// Only the try itself is timed.
				b.StopTimer()
				if gm == nil || gm.ref.PlayEnded() {
					gm = newGameOf(b, Config{Size: size, Rules: engine.RulesCommon, GarblerColor: engine.Black, Game: []byte(fmt.Sprintf("test game %dx%d %s", size, size, engine.RulesCommon)),
						Komi: 7.5, Lambda: r.lambda, Scheme: r.scheme, InputOT: r.form, AuthState: r.auth, MACBits: r.macBits}, testSeed("bench g", games), testSeed("bench e", games))
					games++
					last = engine.NoPoint
				}
				p := randomTry(rng, gm.ref, last)
				before := len(gm.received[0]) + len(gm.received[1])
				mover := gm.ref.ToMove()
				b.StartTimer()
				start := time.Now()
				if _, err := gm.play(p); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
				b.StopTimer()
				// Received by the garbler: the request, (the choice,) the
				// output labels, the event bits; by the evaluator: (the
				// commitments, their OT reply,) tables, labels, OT reply
				// or corrections; with the correlated input OTs
				// (MPC-D28) the reverse request first, timed too (a
				// session sends it when the try before ends).
				n0, n1 := 3, 3
				if gm.cfg.Checked() {
					n0, n1 = 4, 5
				}
				if gm.cfg.correlated() {
					n1 = 6
				}
				if len(gm.received[0])+len(gm.received[1]) != before+n0+n1 {
					b.Fatalf("not %d messages", n0+n1)
				}
				r0, r1 := gm.received[0], gm.received[1]
				wire += totalBytes(r0[len(r0)-n0:]) + totalBytes(r1[len(r1)-n1:])
				otBytes += len(r0[len(r0)-n0]) + len(r1[len(r1)-1])
				if gm.cfg.Checked() {
					otBytes += len(r1[len(r1)-4])
				}
				if gm.cfg.correlated() {
					otBytes += len(r1[len(r1)-6])
				}
				next, _, err := gm.ref.Try(mover, p)
				if err != nil {
					b.Fatal(err)
				}
				gm.ref = next
				if p != engine.Pass {
					last = p
				}
			}
			slices.Sort(lat)
			n, _ := ANDGates(gm.cfg)
			b.ReportMetric(float64(n), "AND/try")
			b.ReportMetric(float64(wire)/float64(b.N)/1024, "KiB/try")
			b.ReportMetric(float64(wire-otBytes)/float64(b.N)/1024, "KiB-without-OT/try")
			b.ReportMetric(float64(lat[len(lat)/4].Microseconds())/1000, "p25-ms")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*3/4].Microseconds())/1000, "p75-ms")
			b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
		})
	}
}

// BenchmarkGarbleEvaluate garbles and evaluates the referee circuit of one
// try and reports AND gates per second of each.
func BenchmarkGarbleEvaluate(b *testing.B) {
	for _, size := range []int{9, 19} {
		cfg := Config{Size: size, Rules: engine.RulesCommon, GarblerColor: engine.Black, Game: []byte("bench")}
		rc, err := circuitsFor(cfg)
		if err != nil {
			b.Fatal(err)
		}
		c := rc.circuit[circuit.Garbler]
		seed := testSeed("bench", size)
		b.Run(fmt.Sprintf("garble-%dx%d", size, size), func(b *testing.B) {
			for i := range b.N {
				delta, _ := tryDelta(seed, uint64(i))
				if _, _, err := gc.Garble(c, delta, seed.Stream(labelLabels, uint64(i)), uint64(i)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(rc.and)*float64(b.N)/b.Elapsed().Seconds()/1e6, "MAND/s")
		})
		delta, _ := tryDelta(seed, 0)
		g, keys, _ := gc.Garble(c, delta, seed.Stream(labelLabels, 0), 0)
		in0, _ := keys.Encode(0, make([]bool, len(c.Inputs[0])))
		in1, _ := keys.Encode(1, make([]bool, len(c.Inputs[1])))
		b.Run(fmt.Sprintf("evaluate-%dx%d", size, size), func(b *testing.B) {
			for range b.N {
				if _, err := gc.Evaluate(c, g, [2][]gc.Label{in0, in1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(rc.and)*float64(b.N)/b.Elapsed().Seconds()/1e6, "MAND/s")
		})
	}
}

// BenchmarkAudit audits (T-8(c)) a 9×9 game of 60 random tries played in
// process, at λ = 1 and λ = 4, and reports the audit's time per try (one
// program's audit; both programs of a game run one).
//
//	go test -run '^$' -bench Audit -benchtime 5x ./protocol/mpc/referee
func BenchmarkAudit(b *testing.B) {
	for _, lambda := range []int{1, 4} {
		b.Run(fmt.Sprintf("9x9-lambda-%d", lambda), func(b *testing.B) {
			gm := newCheckedGame(b, 9, engine.RulesCommon, engine.Black, testSeed("audit g", 0), testSeed("audit e", 0), lambda)
			tries := gm.playRandom(rand.New(rand.NewPCG(9, 2)), 60, nil)
			rev := gm.reveals()
			b.ResetTimer()
			for range b.N {
				ot.ForgetBaseOTs() // or the audit's replay of the setup is a look-up
				if _, err := Audit(gm.rec, rev); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*tries), "ms/try")
		})
	}
}

// BenchmarkTryInterleaved plays b.N random tries of each form of a 9×9
// try at λ = 4 with three-halves — the correlated input OTs (MPC-D28),
// the authenticated state with MACs of 128 bits (MPC-D29) and with MACs
// of 64 (MPC-D32) — one try of each in turn, in one process, so that the
// three share whatever load the machine has at each moment; it reports
// each form's p50 latency (from the reverse request to the garbler's
// announcement, as BenchmarkTry) and the authenticated forms' p50 over
// the correlated one's. On a shared machine it compares the forms better
// than runs of BenchmarkTry one after the other.
//
//	go test -run '^$' -bench TryInterleaved -benchtime 300x ./protocol/mpc/referee
func BenchmarkTryInterleaved(b *testing.B) {
	forms := []struct {
		name    string
		auth    bool
		macBits int
	}{{"correlated", false, 0}, {"auth", true, 0}, {"auth-mac64", true, 64}}
	games := make([]*testGame, len(forms))
	rngs := make([]*rand.Rand, len(forms))
	last := make([]engine.Point, len(forms))
	lat := make([][]time.Duration, len(forms))
	for i := range forms {
		rngs[i] = rand.New(rand.NewPCG(9, 1))
	}
	started := 0
	b.ResetTimer()
	for range b.N {
		for i, f := range forms {
			b.StopTimer()
			gm := games[i]
			if gm == nil || gm.ref.PlayEnded() {
				started++
				gm = newGameOf(b, Config{Size: 9, Rules: engine.RulesCommon, GarblerColor: engine.Black, Game: []byte(fmt.Sprintf("interleaved %d", started)), Komi: 7.5,
					Lambda: 4, Scheme: gc.ThreeHalves, InputOT: InputOTCorrelated, AuthState: f.auth, MACBits: f.macBits}, testSeed("bench g", started), testSeed("bench e", started))
				games[i], last[i] = gm, engine.NoPoint
			}
			p := randomTry(rngs[i], gm.ref, last[i])
			mover := gm.ref.ToMove()
			b.StartTimer()
			start := time.Now()
			if _, err := gm.play(p); err != nil {
				b.Fatal(err)
			}
			lat[i] = append(lat[i], time.Since(start))
			b.StopTimer()
			next, _, err := gm.ref.Try(mover, p)
			if err != nil {
				b.Fatal(err)
			}
			gm.ref = next
			if p != engine.Pass {
				last[i] = p
			}
			b.StartTimer()
		}
	}
	p50 := make([]float64, len(forms))
	for i, f := range forms {
		slices.Sort(lat[i])
		p50[i] = float64(lat[i][len(lat[i])/2].Microseconds()) / 1000
		b.ReportMetric(p50[i], "p50-ms-"+f.name)
	}
	for i := 1; i < len(forms); i++ {
		b.ReportMetric(p50[i]/p50[0], forms[i].name+"/correlated-p50")
	}
}

// BenchmarkTrySides plays random 9×9 tries in one process as BenchmarkTry
// and reports each party's share of a try: the wall time of the
// garbler's calls and of the evaluator's, p50 and mean (the calls run
// one after another, so the two add up to the try; the evaluator's
// include its wait for the check of the opened garblings, MPC-D21,
// which runs on its own goroutines from the Open to the Evaluate). As a
// session does, the garbler makes the λ garblings of a checked try
// ahead (MPC-D24): between tries, untimed, as while a player thinks.
// Three-halves, with the input OTs of the extension (plain) and in the
// default form (correlated input OTs, authenticated state, MACs of 64
// bits; it needs λ > 1: a game of λ = 1 is plain), at λ = 1 and λ = 4.
// It also reports the CPU time of the process in each party's calls and
// their sum a try (cpu-ms), which the other jobs of a shared machine
// disturb less than the wall time; at -cpu 1 the check of the opened
// garblings runs where the scheduler puts it, mostly in the garbler's
// calls that follow the evaluator's Open, so the sum is the figure to
// compare. evaluator-own-* are the evaluator's figures over the tries
// of its own player. The forms default-reverse-ahead and
// default-request-ahead do, untimed before each try of the evaluator's
// player, what a session does while that player thinks: the garbler's
// reverse request taken (TakeReverse), and in the second the
// evaluator's request prepared (MPC-D51).
//
//	go test -run '^$' -bench TrySides -benchtime 300x -benchmem ./protocol/mpc/referee
func BenchmarkTrySides(b *testing.B) {
	type form struct {
		name   string
		lambda int
		input  InputOT
		auth   bool
		mac    int
		// reverse and request: made ahead of the evaluator's player's
		// tries (untimed).
		reverse, request bool
	}
	for _, f := range []form{{"plain", 1, 0, false, 0, false, false}, {"plain", 4, 0, false, 0, false, false}, {"default", 4, InputOTCorrelated, true, 64, false, false},
		{"plain-request-ahead", 1, 0, false, 0, false, true},
		{"default-reverse-ahead", 4, InputOTCorrelated, true, 64, true, false}, {"default-request-ahead", 4, InputOTCorrelated, true, 64, true, true}} {
		b.Run(fmt.Sprintf("9x9-lambda-%d-%s", f.lambda, f.name), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(9, 3))
			var gm *testGame
			var sides [2][]time.Duration
			var cpu [2]time.Duration
			var own []time.Duration
			var ownCPU time.Duration
			last := engine.NoPoint
			games := 0
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				if gm == nil || gm.ref.PlayEnded() {
					gm = newGameOf(b, Config{Size: 9, Rules: engine.RulesCommon, GarblerColor: engine.Black, Game: []byte(fmt.Sprintf("sides %s %d", f.name, games)),
						Komi: 7.5, Lambda: f.lambda, Scheme: gc.ThreeHalves, InputOT: f.input, AuthState: f.auth, MACBits: f.mac}, testSeed("sides g", games), testSeed("sides e", games))
					gm.clock = &sideClock{}
					games++
					last = engine.NoPoint
				}
				if gm.cfg.Checked() {
					if err := gm.g.Prepare(); err != nil {
						b.Fatal(err)
					}
				}
				p := randomTry(rng, gm.ref, last)
				mover := gm.ref.ToMove()
				mine := gm.cfg.PartyOf(mover) == circuit.Evaluator
				if mine && f.reverse {
					rev, err := gm.g.ReverseRequest()
					if err != nil {
						b.Fatal(err)
					}
					if err := gm.e.TakeReverse(rev); err != nil {
						b.Fatal(err)
					}
				}
				if mine && f.request {
					gm.e.prepareRequest()
				}
				b.StartTimer()
				if _, err := gm.play(p); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				for party := range sides {
					sides[party] = append(sides[party], gm.clock.spent[party])
					cpu[party] += gm.clock.cpu[party]
				}
				if mine {
					own = append(own, gm.clock.spent[circuit.Evaluator])
					ownCPU += gm.clock.cpu[circuit.Evaluator]
				}
				next, _, err := gm.ref.Try(mover, p)
				if err != nil {
					b.Fatal(err)
				}
				gm.ref = next
				if p != engine.Pass {
					last = p
				}
			}
			for party, name := range []string{"garbler", "evaluator"} {
				var sum time.Duration
				for _, d := range sides[party] {
					sum += d
				}
				slices.Sort(sides[party])
				b.ReportMetric(float64(sides[party][len(sides[party])/2].Microseconds())/1000, name+"-p50-ms")
				b.ReportMetric(float64(sum.Microseconds())/1000/float64(len(sides[party])), name+"-mean-ms")
				b.ReportMetric(float64(cpu[party].Microseconds())/1000/float64(len(sides[party])), name+"-cpu-ms")
			}
			if len(own) > 0 {
				slices.Sort(own)
				b.ReportMetric(float64(own[len(own)/2].Microseconds())/1000, "evaluator-own-p50-ms")
				b.ReportMetric(float64(ownCPU.Microseconds())/1000/float64(len(own)), "evaluator-own-cpu-ms")
			}
			b.ReportMetric(float64((cpu[0]+cpu[1]).Microseconds())/1000/float64(b.N), "cpu-ms/try")
		})
	}
}

// BenchmarkOpenedCheck times the evaluator's check of the opened
// garblings of one 9×9 try (MPC-D21): the λ − 1 garblings but ĵ made
// again from their seeds and their digests compared with the garbler's
// commitment, from the start of the check to its result, on GOMAXPROCS
// cores (-cpu 1,2 compares one core with two). It also reports the CPU
// time of the process per check (cpu-ms), which the other jobs of a
// shared machine disturb less than the wall time.
//
//	go test -run '^$' -bench OpenedCheck -cpu 1,2 -benchmem ./protocol/mpc/referee
func BenchmarkOpenedCheck(b *testing.B) {
	for _, lambda := range []int{2, 4} {
		for _, scheme := range []gc.Scheme{gc.HalfGates, gc.ThreeHalves} {
			b.Run(fmt.Sprintf("9x9-lambda-%d-%v", lambda, scheme), func(b *testing.B) {
				cfg := Config{Size: 9, Rules: engine.RulesCommon, GarblerColor: engine.Black, Game: []byte("opened check"), Komi: 7.5, Lambda: lambda, Scheme: scheme}
				rc, err := circuitsFor(cfg)
				if err != nil {
					b.Fatal(err)
				}
				const try, j = 5, 1
				copies, seeds, err := prepareCopiesOf(cfg, rc, testSeed("opened check", lambda), try, circuit.Evaluator, copyHooks{})
				if err != nil {
					b.Fatal(err)
				}
				entries := make([][3]Digest, len(copies))
				for i, c := range copies {
					entries[i] = c.commit
				}
				b.ResetTimer()
				cpu := processCPU()
				for range b.N {
					oc := startOpenedCheck(cfg, rc, circuit.Evaluator, try, j, seeds, nil, entries)
					<-oc.done
					if oc.err != nil {
						b.Fatal(oc.err)
					}
				}
				b.ReportMetric(float64((processCPU()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms")
			})
		}
	}
}

// processCPU returns the CPU time (user and system) the process has used
// so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
