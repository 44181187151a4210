package referee

// The adversary's review of the evaluator's try by flips (MPC-D52,
// MPC-D53; MPC-D54 in docs/mpc.md): each cheat a modified party can make
// of the new messages, run in process, caught with the right party named
// and the honest one never blamed (T-14).

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
)

// swapPair swaps the two labels of the garbler's input wire w in k: the
// pair then committed in value order (MPC-D52) holds, at value v, the
// label the tables read as 1 − v, and Encode gives it for v.
func swapPair(k *gc.Keys, w int) {
	in := k.Inputs[circuit.Garbler]
	in[w][0], in[w][1] = in[w][1], in[w][0]
}

// auditNamesGarbler runs the audit of gm's game and fails t unless it
// names the garbler at try (the honest evaluator never).
func auditNamesGarbler(t *testing.T, gm *testGame, try int) *Fault {
	t.Helper()
	_, err := Audit(gm.rec, gm.reveals())
	var f *Fault
	if !errors.As(err, &f) || f.Party != circuit.Garbler || f.Try != try {
		t.Fatalf("audit: %v; want the garbler named at try %d", err, try)
	}
	return f
}

// TestMPCD54SwappedFlipLabels (MPC-D54 a): a garbler that swaps the two
// labels of a flip wire in one garbling, so that its value-order
// commitment puts at entry v the label its tables read as 1 − v, and
// that sends the label the commitment holds at the public flip d (which
// moves the evaluator's try to x ⊕ e):
//   - in an opened garbling, it is caught before any output label (the
//     check of the opened garblings, MPC-D21, may end after the flips
//     went: MPC-D54 says why that is harmless) with a certificate the
//     judge accepts (the entries made again from the seed are in value
//     order);
//   - in garbling ĵ (1/λ, the garbler cannot choose it: the commitment
//     goes before the choice), it passes the check and the try moves, as
//     a corrupted table of ĵ computes another function: caught only by
//     the audit, which names the garbler; when x ⊕ e is no point the
//     circuit says pass and the evaluator's machine fails its try, the
//     audit again naming the garbler;
//   - with the commitment swapped and the honest label sent, the
//     evaluator's check fails with a certificate whatever its try (a
//     point or a pass): its reaction depends on d and the garbler's own
//     messages, never on x.
func TestMPCD54SwappedFlipLabels(t *testing.T) {
	allowTryFlips(t)
	cfg := flippedConfig(5, engine.RulesCommon, engine.White, 4, true, "swapped flips")
	for _, c := range []struct {
		name   string
		opened bool
		honest bool // the honest label of d sent (only the commitment swapped)
		try    engine.Point
	}{
		{"opened", true, false, 12},
		{"chosen-moved", false, false, 12},
		{"chosen-moved-off-board", false, false, 4},
		{"chosen-honest-label-point", false, true, 12},
		{"chosen-honest-label-edge", false, true, 4},
		{"chosen-honest-label-pass", false, true, engine.Pass},
	} {
		t.Run(c.name, func(t *testing.T) {
			gm := newGameOf(t, cfg, testSeed("swapped flips g", 0), testSeed("swapped flips e", 0))
			l := gm.g.rc.layout[circuit.Evaluator]
			w := l.FlipX[0] // bit 0 of the column: x ⊕ e is the next column
			j := gm.e.choose(0)
			target := j
			if c.opened {
				target = (j + 1) % 4
			}
			gm.g.cheatCopy = func(try uint64, i int, _ *gc.Garbled, k *gc.Keys) {
				if try == 0 && i == target {
					swapPair(k, w)
				}
			}
			if c.honest {
				gm.g.cheatSend = func(_ uint64, _ int, own *[]gc.Label, other *[]Digest, cp *copyGarbling) {
					d := b2int(gm.g.committed.flips[0])
					(*own)[w] = cp.keys.Inputs[circuit.Garbler][w][1-d] // the tables' label of d
					(*other)[w] = cp.pairs[w][d]                        // the hash of the other one
				}
			}
			_, err := gm.play(c.try)
			cert := gm.e.Certificate()
			switch {
			case c.opened || c.honest:
				if err == nil || cert == nil || gm.g.Err() != nil || !strings.Contains(err.Error(), "the garbler") {
					t.Fatalf("err %v, certificate %+v, garbler %v; want the evaluator's certificate", err, cert, gm.g.Err())
				}
				if c.opened && (cert.Opened != target || gm.rec.Tries[0].Sent > 5) {
					t.Fatalf("certificate of garbling %d after %d messages; want garbling %d before the outputs", cert.Opened, gm.rec.Tries[0].Sent, target)
				}
				if c.honest && cert.What != "garbler's input labels" {
					t.Fatalf("certificate %q; want the labels'", cert.What)
				}
				if err := JudgeCertificate(gm.rec, 0, *cert); err != nil {
					t.Fatalf("the judge refuses the certificate: %v", err)
				}
			case c.try == 12:
				// The try moved to the next column, silently.
				if err != nil {
					t.Fatalf("the swap in ĵ: %v", err)
				}
				st, err := gm.g.Share().Xor(gm.e.Share())
				if err != nil {
					t.Fatal(err)
				}
				if !st.Black[13] || st.Black[12] {
					t.Fatalf("Black stones at 12: %v, 13: %v; want the try moved to 13", st.Black[12], st.Black[13])
				}
			default:
				// x ⊕ e is no point: the circuit says pass, the evaluator's
				// machine refuses it, without proof.
				if err == nil || cert != nil || gm.e.Err() == nil || !strings.Contains(err.Error(), "pass") {
					t.Fatalf("err %v, certificate %+v, evaluator %v; want its machine failed on a pass it did not play", err, cert, gm.e.Err())
				}
			}
			f := auditNamesGarbler(t, gm, 0)
			t.Logf("%s: %v; audit: %s", c.name, err, f.Message)
		})
	}
}

// flippedCheats are the garbler's cheats of MPC-D54 b, c, a in one of
// the λ garblings of an evaluator's try by flips, drawn at random
// (target).
var flippedCheats = []struct {
	name string
	arm  func(gm *testGame, rng *rand.Rand, armed *bool, target *int)
}{
	{"corrupted table row", func(gm *testGame, rng *rand.Rand, armed *bool, target *int) {
		gm.g.cheatCopy = func(_ uint64, i int, g *gc.Garbled, _ *gc.Keys) {
			if *armed && i == *target {
				g.Tables[rng.IntN(len(g.Tables))] ^= 1 << rng.IntN(8)
			}
		}
	}},
	{"wrong correction of a try wire", func(gm *testGame, rng *rand.Rand, armed *bool, target *int) {
		l := gm.g.rc.layout[circuit.Evaluator]
		wires := append(append([]int(nil), l.TryX...), l.TryY...)
		gm.g.cheatCorrections = func(_ uint64, _ int, d [][]ot.Block) {
			if *armed {
				d[*target][wires[rng.IntN(len(wires))]][rng.IntN(16)] ^= 1 << rng.IntN(8)
			}
		}
	}},
	{"wrong reverse choice", func(gm *testGame, rng *rand.Rand, armed *bool, target *int) {
		// A bit of Δ_i flipped in the reverse choices: garbling i's OT
		// secret is Δ_i ⊕ e, a value-selective OT (MPC-D28); the garbler
		// goes on past its own check of the request.
		gm.g.cheatIgnoreCheck = true
		gm.g.cheatReverse = func(_ uint64, choices []bool) {
			if *armed {
				k := *target*ot.Kappa + rng.IntN(ot.Kappa)
				choices[k] = !choices[k]
			}
		}
	}},
	{"swapped flip labels", func(gm *testGame, rng *rand.Rand, armed *bool, target *int) {
		flips := gm.cfg.flipWires(gm.g.rc, circuit.Evaluator)
		gm.g.cheatCopy = func(_ uint64, i int, _ *gc.Garbled, k *gc.Keys) {
			if *armed && i == *target {
				swapPair(k, flips[rng.IntN(len(flips))])
			}
		}
	}},
}

// TestMPCD54CoverCatchesOnFlippedTries (MPC-D54 a, b, c; T-8(b)): on the
// evaluator's tries by flips, a garbler that corrupts one of the λ = 4
// garblings drawn at random — a table row (selective failure through the
// tables), the correction of a try wire's random bit r (through the
// correlated OT, MPC-D28: the only input OT of the form), the value
// order of a flip wire's labels — is caught during the try whenever that
// garbling is opened, expected (λ − 1)/λ = 75 %, each time with a
// certificate the judge accepts, before any output label; when it is ĵ the try
// fails without proof or passes (the audit names the garbler:
// TestMPCD54FlippedCheatsAudited). No honest evaluator is blamed. 400
// trials each in the full tier, 100 by default (catchTrials).
func TestMPCD54CoverCatchesOnFlippedTries(t *testing.T) {
	allowTryFlips(t)
	trials, slack := catchTrials()
	for ci, cheat := range flippedCheats {
		t.Run(strings.ReplaceAll(cheat.name, " ", "-"), func(t *testing.T) {
			cfg := flippedConfig(5, engine.RulesCommon, engine.White, 4, false, "flipped cover "+cheat.name)
			gm := newGameOf(t, cfg, testSeed("flipped cover g", ci), testSeed("flipped cover e", ci))
			rng := rand.New(rand.NewPCG(54, uint64(ci)))
			armed, target := false, 0
			cheat.arm(gm, rng, &armed, &target)
			caught, failed, passed := 0, 0, 0
			for range trials {
				// Every trial is the evaluator's first try (Black, White
				// garbles), the machines put back after it.
				nTries := [2]int{len(gm.g.tries), len(gm.e.tries)}
				nMovers := [2]int{len(gm.g.movers), len(gm.e.movers)}
				pub, shares := gm.e.pub, [2]circuit.RefereeState{gm.g.Share(), gm.e.Share()}
				p := randomTry(rng, gm.ref, engine.NoPoint)
				try := gm.e.pub.Try
				j := gm.e.choose(try)
				target = rng.IntN(4)
				armed = true
				_, err := gm.play(p)
				armed = false
				cert := gm.e.Certificate()
				switch {
				case cert != nil:
					if target == j || cert.Opened != target || gm.g.Err() != nil || !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the garbler") {
						t.Fatalf("try %d (ĵ %d, garbling %d changed): %v, certificate of garbling %d, garbler %v", try, j, target, err, cert.Opened, gm.g.Err())
					}
					if gm.rec.Tries[try].Sent > 5 {
						t.Fatalf("caught after %d messages, want before the outputs", gm.rec.Tries[try].Sent)
					}
					if err := JudgeCertificate(gm.rec, int(try), *cert); err != nil {
						t.Fatalf("try %d: the certificate is not accepted: %v", try, err)
					}
					caught++
				case target != j:
					t.Fatalf("try %d: garbling %d changed and opened (ĵ %d), not caught: %v", try, target, j, err)
				case err == nil:
					passed++
				case gm.e.Err() != nil && !strings.Contains(err.Error(), "the garbler"):
					t.Fatalf("try %d: the evaluator's machine fails blaming %v", try, err)
				default:
					failed++
				}
				gm.resetTry(nTries, nMovers, pub, shares)
			}
			rate := float64(caught) / float64(trials)
			t.Logf("MPC-D54 %s in one garbling of an evaluator's try by flips, λ=4: caught during the try with a certificate in %d of %d (%.1f %%, expected 75 %%); garbling ĵ: %d failed without proof, %d passed", cheat.name, caught, trials, 100*rate, failed, passed)
			if rate < 0.70-slack || rate > 0.80+slack {
				t.Errorf("caught in %.1f %% of the trials, want 75 %% ± %.0f", 100*rate, 100*(0.05+slack))
			}
		})
	}
}

// TestMPCD54FlippedCheatsAudited (MPC-D54 a, b, c): each cheat of
// TestMPCD54CoverCatchesOnFlippedTries in garbling ĵ (not caught during
// the try) and in an opened one (caught with a certificate) is named by
// the audit as the garbler's, at that try; the evaluator never is, and a
// certificate the cheating garbler's machine makes against it (a wrong
// reverse choice in ĵ makes its share labels wrong) proves nothing.
func TestMPCD54FlippedCheatsAudited(t *testing.T) {
	allowTryFlips(t)
	for ci, cheat := range flippedCheats {
		for _, opened := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s-opened-%v", strings.ReplaceAll(cheat.name, " ", "-"), opened), func(t *testing.T) {
				cfg := flippedConfig(5, engine.RulesCommon, engine.White, 4, true, "flipped audit")
				gm := newGameOf(t, cfg, testSeed("flipped audit g", ci), testSeed("flipped audit e", ci))
				rng := rand.New(rand.NewPCG(54, uint64(ci)))
				armed, target := true, gm.e.choose(0)
				if opened {
					target = (target + 1) % 4
				}
				cheat.arm(gm, rng, &armed, &target)
				_, err := gm.play(engine.Point(12))
				if opened != (gm.e.Certificate() != nil) {
					t.Fatalf("certificate %+v (%v); want one exactly when the garbling is opened", gm.e.Certificate(), err)
				}
				if c := gm.g.ShareCertificate(); c != nil {
					// The cheater's machine may blame the evaluator (a wrong
					// reverse choice in ĵ makes its share labels wrong): the
					// judge never believes it (T-14).
					if jerr := JudgeEvaluatorShare(gm.rec, 0, *c); !errors.Is(jerr, ErrNotProven) {
						t.Fatalf("the garbler's certificate against the honest evaluator: %v, want not proven", jerr)
					}
				}
				f := auditNamesGarbler(t, gm, 0)
				t.Logf("%v; audit: %s", err, f.Message)
			})
		}
	}
}

// flipsOfBits makes the evaluator's flips of try bits x (any 2·CoordBits
// bits, not necessarily a point's) as Flips does, and keeps claimed as
// its player's try: a modified evaluator (MPC-D54 d).
func (e *Evaluator) flipsOfBits(x []bool, claimed engine.Point) []byte {
	r := e.flipRandom(e.pub.Try)
	d := make([]bool, len(x))
	for i := range x {
		d[i] = x[i] != r[i]
	}
	msg := marshalFlips(e.pub.Try, d)
	e.cur.flips, e.cur.flipsMsg, e.cur.try = d, msg, claimed
	e.tries = append(e.tries, claimed)
	return msg
}

// TestMPCD54EvaluatorFlipsMisuse (MPC-D54 d, f): what a modified
// evaluator can do with its flips. Flips of another try number (the try
// before's replayed, or the right bits under the next try's number), of
// another length, with a byte that is no bit or another header are
// refused as malformed and leave the garbler's machine as it was: the
// honest flips that follow are taken and the try is the engine's (T-9).
// Flips cannot be replaced once taken: the garbling is of the first.
// Flips whose try is no point (a column off the board) are a pass to
// the circuit, as the engine's pass; the evaluator cannot reveal a try
// that gives them, and the audit names it ('flips'), never the garbler.
func TestMPCD54EvaluatorFlipsMisuse(t *testing.T) {
	allowTryFlips(t)
	cfg := flippedConfig(5, engine.RulesCommon, engine.White, 4, true, "flips misuse")
	t.Run("malformed-replayed-twice", func(t *testing.T) {
		gm := newGameOf(t, cfg, testSeed("flips misuse g", 0), testSeed("flips misuse e", 0))
		l := tryLog{}
		gm.logging(l)
		for _, p := range []engine.Point{12, 0} {
			if _, d := gm.step(p); d != "" {
				t.Fatal(d)
			}
		}
		old := l.get(0, "flips")
		refused := 0
		gm.tamper = func(try uint64, what string, b []byte) []byte {
			if what != "flips" {
				return b
			}
			next := bytes.Clone(b)
			next[10]++ // the try number + 1
			badBit := bytes.Clone(b)
			badBit[len(b)-1] = 2
			badHeader := bytes.Clone(b)
			badHeader[2] = 'G'
			for name, bad := range map[string][]byte{"replayed": old, "next try": next, "short": b[:len(b)-1], "long": append(bytes.Clone(b), 0),
				"no bit": badBit, "header": badHeader, "empty": nil} {
				if err := gm.g.TakeFlips(bad); !errors.Is(err, ErrMessage) || gm.g.Err() != nil {
					t.Errorf("%s flips: %v (garbler %v); want refused as malformed, the machine as it was", name, err, gm.g.Err())
				}
				refused++
			}
			return b
		}
		twice := 0
		gm.g.cheatSend = func(_ uint64, _ int, _ *[]gc.Label, _ *[]Digest, _ *copyGarbling) {
			// Once taken, other flips are refused: the garbling is of the
			// first.
			other := flipLast(l.get(2, "flips"))
			if err := gm.g.TakeFlips(other); !errors.Is(err, ErrMessage) {
				t.Errorf("flips taken twice: %v", err)
			}
			twice++
		}
		inner := gm.tamper
		gm.tamper = func(try uint64, what string, b []byte) []byte {
			b = inner(try, what, b)
			l.put(try, what, b)
			return b
		}
		if _, d := gm.step(engine.Point(6)); d != "" {
			t.Fatal(d)
		}
		if refused != 7 || twice != 1 {
			t.Fatalf("%d refusals, %d second flips tried", refused, twice)
		}
		if _, err := Audit(gm.rec, gm.reveals()); err != nil {
			t.Fatalf("the audit after refused flips: %v", err)
		}
	})
	t.Run("off-board", func(t *testing.T) {
		gm := newGameOf(t, cfg, testSeed("flips misuse g", 1), testSeed("flips misuse e", 1))
		l := gm.g.rc.layout[circuit.Evaluator]
		x, err := l.TryBits(engine.Point(0))
		if err != nil {
			t.Fatal(err)
		}
		x[0], x[2] = true, true // column 5 of a 5×5 board, row 0: no point, no pass
		gm.flipsOf = func(engine.Point) ([]byte, error) { return gm.e.flipsOfBits(x, engine.Pass), nil }
		out, d := gm.step(engine.Pass)
		if d != "" {
			t.Fatalf("an off-board try is not the engine's pass: %s", d)
		}
		if gm.e.Err() != nil || gm.g.Err() != nil {
			t.Fatalf("evaluator %v, garbler %v", gm.e.Err(), gm.g.Err())
		}
		_, aerr := Audit(gm.rec, gm.reveals())
		var f *Fault
		if !errors.As(aerr, &f) || f.Party != circuit.Evaluator || f.Message != "flips" || f.Try != 0 {
			t.Fatalf("audit: %v; want the evaluator's flips of try 0", aerr)
		}
		t.Logf("off-board try announced as %+v; audit: %v", out, aerr)
	})
}

// TestMPCD54FlipLabelOfAnotherGarbling (MPC-D54 f): a garbler that sends,
// for a flip wire of garbling ĵ, the label of d of another garbling (with
// its committed hash of the other value) fails the evaluator's check with
// a certificate the judge accepts: the label hashes are bound to the
// garbling and try.
func TestMPCD54FlipLabelOfAnotherGarbling(t *testing.T) {
	allowTryFlips(t)
	cfg := flippedConfig(5, engine.RulesCommon, engine.White, 4, true, "flip label of another")
	gm := newGameOf(t, cfg, testSeed("flip label of another g", 0), testSeed("flip label of another e", 0))
	w := gm.g.rc.layout[circuit.Evaluator].FlipY[1]
	k := len(gm.g.rc.layout[circuit.Evaluator].FlipX) + 1
	gm.g.cheatSend = func(_ uint64, j int, own *[]gc.Label, other *[]Digest, _ *copyGarbling) {
		st := gm.g.committed
		d := b2int(st.flips[k])
		cp := st.copies[(j+1)%len(st.copies)]
		(*own)[w] = cp.keys.Inputs[circuit.Garbler][w][d]
		(*other)[w] = cp.pairs[w][1-d]
	}
	_, err := gm.play(engine.Point(12))
	cert := gm.e.Certificate()
	if err == nil || cert == nil || cert.What != "garbler's input labels" || gm.g.Err() != nil {
		t.Fatalf("err %v, certificate %+v; want the labels' certificate", err, cert)
	}
	if err := JudgeCertificate(gm.rec, 0, *cert); err != nil {
		t.Fatalf("the judge refuses the certificate: %v", err)
	}
}

// TestMPCD54FlipsOfAnotherTryProveNothing (MPC-D54 g): a certificate
// carrying the genuine, signed flips of another try of the evaluator's
// proves nothing, whether it accuses the garbler (Certificate.Flips, a
// garbler that sent the other value's label of a flip) or the evaluator
// (EvaluatorShareCertificate.PrevFlips, an evaluator that substituted its
// share): each judge holds the flips to the record's digest of the try
// judged, and convicts with the right ones.
func TestMPCD54FlipsOfAnotherTryProveNothing(t *testing.T) {
	allowTryFlips(t)
	cfg := flippedConfig(5, engine.RulesCommon, engine.White, 4, true, "flips of another try")
	// White garbles: tries 0 (Black at C3) and 2 (Black at D3, illegal)
	// are the evaluator's, by flips; try 3 is Black's again.
	before := []engine.Point{12, 13, 13}
	for _, accused := range []circuit.Party{circuit.Garbler, circuit.Evaluator} {
		t.Run(fmt.Sprintf("against-the-%v", accused), func(t *testing.T) {
			gm := newGameOf(t, cfg, testSeed("flips of another try g", int(accused)), testSeed("flips of another try e", int(accused)))
			l := tryLog{}
			gm.logging(l)
			for _, p := range before {
				if _, d := gm.step(p); d != "" {
					t.Fatal(d)
				}
			}
			at := len(before)
			p := engine.Point(7)
			if accused == circuit.Evaluator {
				flipShare(&gm.e.share, engine.White, p)
			} else {
				gm.g.cheatSend = func(_ uint64, _ int, own *[]gc.Label, other *[]Digest, cp *copyGarbling) {
					w := gm.g.rc.layout[circuit.Evaluator].FlipX[0]
					d := b2int(gm.g.committed.flips[0])
					(*own)[w] = cp.keys.Inputs[circuit.Garbler][w][1-d]
					(*other)[w] = cp.pairs[w][d]
				}
			}
			if _, err := gm.play(p); !errors.Is(err, ErrDeviation) {
				t.Fatalf("%v; want the cheat caught", err)
			}
			others := [][]byte{l.get(0, "flips"), l.get(2, "flips")}
			if accused == circuit.Evaluator {
				cert := gm.g.ShareCertificate()
				if cert == nil || JudgeEvaluatorShare(gm.rec, at, *cert) != nil {
					t.Fatalf("certificate %+v not convicting", cert)
				}
				forged := *cert
				forged.PrevFlips = others[0]
				if err := JudgeEvaluatorShare(gm.rec, at, forged); !errors.Is(err, ErrNotProven) {
					t.Fatalf("the flips of try 0 as the try before's: %v, want not proven", err)
				}
				return
			}
			cert := gm.e.Certificate()
			if cert == nil || JudgeCertificate(gm.rec, at, *cert) != nil {
				t.Fatalf("certificate %+v not convicting", cert)
			}
			for k, o := range others {
				forged := *cert
				forged.Flips = o
				if err := JudgeCertificate(gm.rec, at, forged); !errors.Is(err, ErrNotProven) {
					t.Fatalf("the flips of try %d in a certificate of try %d: %v, want not proven", 2*k, at, err)
				}
			}
		})
	}
}
