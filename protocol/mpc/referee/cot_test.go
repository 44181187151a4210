package referee

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// Tests of the correlated input OTs of checked tries (MPC-D28).

// TestT8CorrelatedGamesMatchEngine plays random games of the correlated
// input OTs (MPC-D28) with λ = 2 and 4, both garbling schemes, and holds
// them to the plaintext referee (T-9); the audit (T-8(c)) of each finds
// nothing, and no evaluator ever holds a certificate against the honest
// garbler.
func TestT8CorrelatedGamesMatchEngine(t *testing.T) {
	tries := testenv.Size(15, 40)
	if raceEnabled && !testenv.Full() {
		tries = 6
	}
	for i, c := range []struct {
		lambda, size int
		scheme       gc.Scheme
	}{{2, 5, gc.HalfGates}, {4, 9, gc.ThreeHalves}, {4, 5, gc.HalfGates}, {8, 5, gc.ThreeHalves}} {
		garbler := engine.Black
		if i%2 == 1 {
			garbler = engine.White
		}
		rng := rand.New(rand.NewPCG(uint64(c.size), uint64(c.lambda)))
		gm := newCOTGame(t, c.size, allRules[i%3], garbler, testSeed("cot g", i), testSeed("cot e", i), c.lambda, c.scheme)
		played := gm.playRandom(rng, tries, nil)
		if cert := gm.e.Certificate(); cert != nil {
			t.Fatalf("%+v: a certificate against an honest garbler: %+v", c, cert)
		}
		if _, err := Audit(gm.rec, gm.reveals()); err != nil {
			t.Fatalf("%+v: honest game fails the audit: %v", c, err)
		}
		t.Logf("%dx%d λ=%d %v: %d tries match", c.size, c.size, c.lambda, c.scheme, played)
	}
}

// TestT8CorrelatedConfig (MPC-D28): the correlated input OTs need
// λ > 1; an unknown form is refused; the zero value is MPC-D18's.
func TestT8CorrelatedConfig(t *testing.T) {
	for _, c := range []struct {
		lambda int
		form   InputOT
		ok     bool
	}{{0, InputOTExtension, true}, {4, InputOTExtension, true}, {0, InputOTCorrelated, false}, {1, InputOTCorrelated, false}, {2, InputOTCorrelated, true}, {4, InputOT(2), false}} {
		cfg := Config{Size: 9, Rules: engine.RulesCommon, GarblerColor: engine.Black, Game: []byte("g"), Lambda: c.lambda, InputOT: c.form}
		if err := cfg.Validate(); (err == nil) != c.ok {
			t.Errorf("λ=%d %v: %v, want ok=%v", c.lambda, c.form, err, c.ok)
		}
	}
}

// TestT8CoverCatchesWrongCorrection runs a garbler that corrupts the
// correction of one of the evaluator's input wires in one garbling
// drawn at random (the OT cheat of MPC-D28: selective failure or input
// substitution through the OT). An opened garbling's corrections are a
// function of its seed, the garbler's committed reverse keys and the
// evaluator's signed request, so the corruption is caught during the
// try whenever that garbling is opened — expected (λ − 1)/λ = 75 % at
// λ = 4, against 37.5 % with MPC-D18's OTs (TestT8CoverCatchesWrongOTReply)
// — each time with a certificate JudgeCertificate accepts against the
// record, and the honest evaluator is never blamed. When the corrupted
// garbling is ĵ the try fails without proof (a label that is neither of
// its two values) or passes, and the audit names the garbler
// (TestT8AuditNamesWrongCorrection). 400 trials in the full tier, 100
// by default, 12 under the race detector (catchTrials).
func TestT8CoverCatchesWrongCorrection(t *testing.T) {
	trials, slack := catchTrials()
	lambda := 4
	rng := rand.New(rand.NewPCG(13, 28))
	armed := false
	var target, wire int
	hook := func(_ uint64, m int, d [][]ot.Block) {
		if armed {
			target, wire = rng.IntN(lambda), rng.IntN(m)
			d[target][wire][rng.IntN(16)] ^= 1 << rng.IntN(8)
		}
	}
	newGame := func(n int) *testGame {
		gm := newCOTGame(t, 5, engine.RulesCommon, engine.Black, testSeed("cot cheat g", n), testSeed("cot cheat e", n), lambda, gc.HalfGates)
		gm.g.cheatCorrections = hook
		return gm
	}
	gm := newGame(0)
	caught, failedLater, passed := 0, 0, 0
	last := engine.NoPoint
	for n := range trials {
		if gm.ref.PlayEnded() {
			gm = newGame(n + 1)
		}
		nTries := [2]int{len(gm.g.tries), len(gm.e.tries)}
		nMovers := [2]int{len(gm.g.movers), len(gm.e.movers)}
		pub, shares := gm.e.pub, [2]circuit.RefereeState{gm.g.Share(), gm.e.Share()}
		p := randomTry(rng, gm.ref, last)
		try := gm.e.pub.Try
		j := gm.e.choose(try)
		armed = true
		_, err := gm.play(p)
		armed = false
		switch {
		case err == nil:
			// Garbling ĵ's corrupted wire changed nothing visible.
			if target != j {
				t.Fatalf("try %d: a wrong correction in opened garbling %d (ĵ=%d) not caught", try, target, j)
			}
			passed++
			next, _, err := gm.ref.Try(gm.ref.ToMove(), p)
			if err != nil {
				t.Fatal(err)
			}
			gm.ref = next
			if p != engine.Pass {
				last = p
			}
			continue
		case gm.e.Err() != nil && gm.e.Certificate() != nil:
			c := gm.e.Certificate()
			if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the garbler") || gm.g.Err() != nil {
				t.Fatalf("try %d: %v (garbler: %v)", try, err, gm.g.Err())
			}
			if c.OT == nil || c.Opened != target || target == j {
				t.Fatalf("try %d: certificate %q on garbling %d, the corrupted one is %d, ĵ=%d", try, c.What, c.Opened, target, j)
			}
			if err := JudgeCertificate(gm.rec, int(try), *c); err != nil {
				t.Fatalf("try %d: the certificate is not accepted: %v", try, err)
			}
			caught++
		case target == j && (gm.e.Err() == nil && gm.g.Err() != nil || gm.e.Err() != nil && strings.Contains(err.Error(), "the garbler")):
			// Garbling ĵ's: the evaluator's label is neither of its two,
			// the try fails without proof (the audit has one).
			failedLater++
		default:
			t.Fatalf("try %d (corrupted garbling %d, ĵ=%d): %v (garbler %v, evaluator %v)", try, target, j, err, gm.g.Err(), gm.e.Err())
		}
		gm.resetTry(nTries, nMovers, pub, shares)
	}
	rate := float64(caught) / float64(trials)
	t.Logf("T-8(b) wrong OT correction in one garbling, λ=%d: caught during the try with a certificate in %d of %d trials (%.1f %%, expected 75 %%); garbling ĵ corrupted: %d failed without proof, %d passed (the audit names them)", lambda, caught, trials, 100*rate, failedLater, passed)
	if rate < 0.70-slack {
		t.Errorf("caught in %.1f %% of the trials, want at least %.0f %%", 100*rate, 100*(0.70-slack))
	}
	if caught == 0 {
		t.Error("never caught")
	}
}

// TestT8AuditNamesWrongCorrection: a wrong correction is named by the
// end audit (T-8(c)) as the garbler's commitment, whether its garbling
// was ĵ (not caught during the try) or opened (caught with a
// certificate).
func TestT8AuditNamesWrongCorrection(t *testing.T) {
	for _, opened := range []bool{false, true} {
		gm := newCOTGame(t, 5, engine.RulesCommon, engine.Black, testSeed("cot audit g", 0), testSeed("cot audit e", 0), 4, gc.HalfGates)
		gm.playRandom(rand.New(rand.NewPCG(3, 3)), 2, nil)
		try := gm.e.pub.Try
		target := gm.e.choose(try)
		if opened {
			target = (target + 1) % 4
		}
		gm.g.cheatCorrections = func(_ uint64, _ int, d [][]ot.Block) { d[target][0][5] ^= 0x10 }
		_, err := gm.play(engine.Point(7))
		if opened && gm.e.Certificate() == nil {
			t.Fatalf("opened garbling: no certificate (%v)", err)
		}
		_, aerr := Audit(gm.rec, gm.reveals())
		var f *Fault
		if !errors.As(aerr, &f) || f.Party != circuit.Garbler || f.Message != "commitment" || f.Try != int(try) {
			t.Fatalf("opened=%v (try error %v): audit %v, want the garbler's commitment of try %d", opened, err, aerr, try)
		}
	}
}

// TestT8WrongKeyHashNoCertificate documents a limit of MPC-D28's
// certificates (T-8(b)): a garbler that commits, for a garbling, a hash
// H(K_i) that is not the one of the keys it holds — alone, or to hide a
// wrong correction in that garbling — is caught whenever that garbling
// is opened, as the wrong correction alone would be, but without a
// certificate: a judge can take K_i only from H(K_i) (the keys are
// random-OT outputs that only the evaluator's reverse secret
// authenticates). The audit names the garbler's commitment; the honest
// evaluator is never blamed.
func TestT8WrongKeyHashNoCertificate(t *testing.T) {
	for _, withCorrection := range []bool{false, true} {
		gm := newCOTGame(t, 5, engine.RulesCommon, engine.Black, testSeed("key hash g", 0), testSeed("key hash e", 0), 4, gc.HalfGates)
		gm.playRandom(rand.New(rand.NewPCG(6, 6)), 1, nil)
		try := gm.e.pub.Try
		target := (gm.e.choose(try) + 1) % 4
		gm.g.cheatKeyHashes = func(_ uint64, h []Digest) { h[target][3] ^= 1 }
		if withCorrection {
			gm.g.cheatCorrections = func(_ uint64, _ int, d [][]ot.Block) { d[target][0][5] ^= 0x10 }
		}
		_, err := gm.play(engine.Point(7))
		if gm.e.Err() == nil || gm.g.Err() != nil || !strings.Contains(err.Error(), "the garbler") || !strings.Contains(err.Error(), "keys") || gm.e.Certificate() != nil {
			t.Fatalf("wrong correction too %v: %v (garbler %v, certificate %+v)", withCorrection, err, gm.g.Err(), gm.e.Certificate())
		}
		if sent := gm.rec.Tries[try].Sent; sent != 2 {
			t.Fatalf("caught after %d messages of the try, want before the choice", sent)
		}
		_, aerr := Audit(gm.rec, gm.reveals())
		var f *Fault
		if !errors.As(aerr, &f) || f.Party != circuit.Garbler || f.Message != "commitment" || f.Try != int(try) {
			t.Fatalf("audit %v, want the garbler's commitment of try %d", aerr, try)
		}
	}
}

// TestT8ForgedOTCertificateRejected: an evaluator that accuses an honest
// garbler with a made-up certificate about the OT corrections (MPC-D28)
// is never believed (T-8(b), T-13): the honest corrections with the
// right keys, keys that are not the committed ones, another try's or a
// changed request, changed corrections, another garbling's seed, an
// OT certificate in a game of MPC-D18's OTs. Nor with a certificate
// about its reverse choices: the honest reverse request in every opened
// garbling, another try's, a changed or cut one (not the record's),
// another garbling's seed, garbling ĵ, both kinds at once.
func TestT8ForgedOTCertificateRejected(t *testing.T) {
	gm := newCOTGame(t, 5, engine.RulesCommon, engine.Black, testSeed("cot forge g", 0), testSeed("cot forge e", 0), 4, gc.HalfGates)
	msgs := map[string][][]byte{}
	gm.tamper = func(_ uint64, what string, b []byte) []byte {
		msgs[what] = append(msgs[what], append([]byte(nil), b...))
		return b
	}
	var keys [][]ot.Key // the evaluator's view of K_i of try 0: Δ_i selects them
	for i := range 2 {
		if i == 0 {
			if _, err := gm.g.ReverseRequest(); err != nil {
				t.Fatal(err)
			}
			keys = gm.g.rev.keys
		}
		if _, d := gm.step([]engine.Point{12, 6}[i]); d != "" {
			t.Fatal(d)
		}
	}
	seeds := ggmLevels(gm.g.seed.Derive(labelPVCRoot, 0), 2)[2]
	j := gm.e.choose(0)
	i := (j + 1) % 4
	honest := Certificate{Commitment: msgs["commitment"][0], Opened: i, Seed: seeds[i],
		OT: &OTEvidence{Keys: keys[i], Request: msgs["request"][0], Reply: msgs["commitment-reply"][0]}}
	with := func(f func(c *Certificate)) Certificate {
		c := honest
		o := *honest.OT
		o.Keys = append([]ot.Key(nil), o.Keys...)
		o.Request = append([]byte(nil), o.Request...)
		o.Reply = append([]byte(nil), o.Reply...)
		c.OT = &o
		f(&c)
		return c
	}
	forged := map[string]Certificate{
		"honest corrections":         honest,
		"another garbling's keys":    with(func(c *Certificate) { c.OT.Keys = keys[(i+1)%4] }),
		"one key changed":            with(func(c *Certificate) { c.OT.Keys[7][0] ^= 1 }),
		"127 keys":                   with(func(c *Certificate) { c.OT.Keys = c.OT.Keys[:127] }),
		"request of another try":     with(func(c *Certificate) { c.OT.Request = msgs["request"][1] }),
		"request changed":            with(func(c *Certificate) { c.OT.Request[cotHeader+20] ^= 1 }),
		"corrections changed":        with(func(c *Certificate) { c.OT.Reply[cotHeader+16*3] ^= 1 }),
		"corrections of another try": with(func(c *Certificate) { c.OT.Reply = msgs["commitment-reply"][1] }),
		"seed of another garbling":   with(func(c *Certificate) { c.Seed = seeds[(i+1)%4] }),
		"commitment of another try":  with(func(c *Certificate) { c.Commitment = msgs["commitment"][1] }),
		"garbling out of range":      with(func(c *Certificate) { c.Opened = 4 }),
	}
	// Certificates about the garbler's reverse choices (MPC-D28): the
	// honest reverse request of the try, for every opened garbling and
	// with every seed it could name, convicts nobody.
	rev := func(f func(c *Certificate)) Certificate {
		c := Certificate{Commitment: msgs["commitment"][0], Opened: i, Seed: seeds[i], What: "reverse OT choices", Reverse: append([]byte(nil), msgs["reverse"][0]...)}
		f(&c)
		return c
	}
	for k := range 4 {
		if k == j {
			continue
		}
		forged[fmt.Sprintf("reverse choices of garbling %d, honest", k)] = rev(func(c *Certificate) { c.Opened, c.Seed = k, seeds[k] })
	}
	for name, c := range map[string]Certificate{
		"reverse request of another try":        rev(func(c *Certificate) { c.Reverse = msgs["reverse"][1] }),
		"reverse request with x changed":        rev(func(c *Certificate) { c.Reverse[cotHeader+(i+1)*ot.RequestSize(ot.Kappa)-20] ^= 1 }),
		"reverse request cut":                   rev(func(c *Certificate) { c.Reverse = c.Reverse[:len(c.Reverse)-1] }),
		"reverse, seed of another garbling":     rev(func(c *Certificate) { c.Seed = seeds[(i+1)%4] }),
		"reverse, garbling ĵ's seed named as ĵ": rev(func(c *Certificate) { c.Opened, c.Seed = j, seeds[j] }),
		"reverse, garbling out of range":        rev(func(c *Certificate) { c.Opened = 4 }),
		"reverse and OT at once":                rev(func(c *Certificate) { c.OT = honest.OT }),
	} {
		forged[name] = c
	}
	for name, c := range forged {
		err := JudgeCertificate(gm.rec, 0, c)
		if !errors.Is(err, ErrNotProven) {
			t.Errorf("%s: %v, want ErrNotProven", name, err)
		}
		t.Logf("%s: %v", name, err)
	}
	// With the record's messages the recomputation alone does not
	// convict an honest garbler.
	if err := VerifyCertificate(gm.cfg, honest); !errors.Is(err, ErrNotProven) || !strings.Contains(err.Error(), "the ones its seed gives") {
		t.Errorf("VerifyCertificate on honest corrections: %v", err)
	}
	// In a game of MPC-D18's OTs an OT certificate proves nothing.
	old := gm.cfg
	old.InputOT = InputOTExtension
	if err := VerifyCertificate(old, honest); !errors.Is(err, ErrNotProven) {
		t.Errorf("an OT certificate in a game of MPC-D18's OTs: %v", err)
	}
	if err := VerifyCertificate(gm.cfg, rev(func(*Certificate) {})); !errors.Is(err, ErrNotProven) || !strings.Contains(err.Error(), "are the bits of its Δ") {
		t.Errorf("VerifyCertificate on honest reverse choices: %v", err)
	}
	if err := VerifyCertificate(old, rev(func(*Certificate) {})); !errors.Is(err, ErrNotProven) {
		t.Errorf("a reverse certificate in a game of MPC-D18's OTs: %v", err)
	}
}

// TestT8WrongReverseChoice: a garbler whose reverse choices of one
// garbling are not the bits of its Δ_i (one bit off) holds keys its Δ_i
// does not select (MPC-D28). When that garbling is opened, the check
// value x of its reverse sub-batch is not the one of Δ_i's bits and
// seed_i's pad bits: the evaluator fails the try before any output
// label with a certificate that JudgeCertificate accepts, if the garbler
// ignores its own check to go on. When it is ĵ,
// the garbler that ignores its own check sends wrong labels (the try
// fails, or its own machine does). A garbler that follows its own check
// refuses the evaluator's request whatever the garbling, and cannot
// prove that refusal. A garbler that sends x for Δ_i's bits with columns of
// other choices fails the evaluator's KOS check of that sub-batch at
// once (TakeReverse, before any garbling). Every time the audit names
// the garbler's reverse request, never the evaluator. (The rate:
// TestT8CoverCatchesWrongReverseChoice.)
func TestT8WrongReverseChoice(t *testing.T) {
	for _, c := range []struct{ opened, ignore, forgeX bool }{{true, true, false}, {true, false, false}, {false, false, false}, {false, true, false}, {true, false, true}, {false, false, true}} {
		opened := c.opened
		gm := newCOTGame(t, 5, engine.RulesCommon, engine.White, testSeed("rev g", 0), testSeed("rev e", 0), 4, gc.HalfGates)
		gm.playRandom(rand.New(rand.NewPCG(4, 4)), 1, nil)
		try := gm.e.pub.Try
		target := gm.e.choose(try)
		if opened {
			target = (target + 1) % 4
		}
		gm.g.cheatReverse = func(_ uint64, choices []bool) { choices[target*ot.Kappa+43] = !choices[target*ot.Kappa+43] }
		gm.g.cheatIgnoreCheck = c.ignore
		gm.g.cheatForgeX = c.forgeX
		_, err := gm.play(engine.Point(12))
		switch {
		case c.forgeX:
			// The evaluator's KOS check of the sub-batch refuses it at
			// once, whatever the garbling: no request is made.
			if gm.e.Err() == nil || !strings.Contains(err.Error(), "the garbler") || !strings.Contains(err.Error(), "consistency") || gm.rec.Tries[try].Sent != 0 {
				t.Fatalf("%+v: %v (evaluator %v, %d messages of the try)", c, err, gm.e.Err(), gm.rec.Tries[try].Sent)
			}
		case !c.ignore:
			// The garbler's own check refuses the evaluator's request of
			// the garbling whatever it is: its machine fails (it blames
			// the evaluator, falsely, and cannot prove it; the audit
			// corrects it).
			if gm.g.Err() == nil || gm.e.Err() != nil {
				t.Fatalf("%+v: %v (garbler %v, evaluator %v)", c, err, gm.g.Err(), gm.e.Err())
			}
		case opened:
			cert := gm.e.Certificate()
			if gm.e.Err() == nil || gm.g.Err() != nil || !strings.Contains(err.Error(), "the garbler") || cert == nil || cert.Reverse == nil || cert.Opened != target {
				t.Fatalf("%+v: %v (evaluator %v, certificate %+v)", c, err, gm.e.Err(), cert)
			}
			if gm.rec.Tries[try].Sent != 2 {
				t.Fatalf("%+v: caught after %d messages of the try, want before the choice", c, gm.rec.Tries[try].Sent)
			}
			if err := JudgeCertificate(gm.rec, int(try), *cert); err != nil {
				t.Fatalf("%+v: the certificate is not accepted: %v", c, err)
			}
		default:
			// Garbling ĵ's labels are wrong: the try fails, on the
			// evaluator's side blaming the garbler, or on the garbler's.
			if err == nil || gm.e.Err() != nil && !strings.Contains(err.Error(), "the garbler") {
				t.Fatalf("ĵ, check ignored: %v", err)
			}
		}
		_, aerr := Audit(gm.rec, gm.reveals())
		var f *Fault
		if !errors.As(aerr, &f) || f.Party != circuit.Garbler || f.Message != "reverse OT request" || f.Try != int(try) {
			t.Fatalf("%+v: audit %v, want the garbler's reverse OT request of try %d", c, aerr, try)
		}
	}
}

// TestT8CoverCatchesWrongReverseChoice measures T-8(b) for a garbler
// whose reverse choices of one garbling drawn at random are not the bits
// of its Δ_i (one bit flipped, MPC-D28) and that ignores its own check
// of the evaluator's request to go on (a garbler that follows it only
// refuses that request, without proof: TestT8WrongReverseChoice):
// caught during the try whenever that garbling is opened — expected
// (λ − 1)/λ = 75 % at λ = 4 — each time with a certificate about its
// reverse choices that JudgeCertificate accepts, before the choice is
// sent; when it is ĵ the try fails or passes (the audit names its
// reverse request: TestT8WrongReverseChoice). The honest evaluator is
// never blamed. 400 trials in the full tier, 100 by default, 12 under
// the race detector (catchTrials).
func TestT8CoverCatchesWrongReverseChoice(t *testing.T) {
	trials, slack := catchTrials()
	lambda := 4
	rng := rand.New(rand.NewPCG(28, 8))
	armed := false
	target := 0
	hook := func(_ uint64, choices []bool) {
		if armed {
			target = rng.IntN(lambda)
			k := target*ot.Kappa + rng.IntN(ot.Kappa)
			choices[k] = !choices[k]
		}
	}
	newGame := func(n int) *testGame {
		gm := newCOTGame(t, 5, engine.RulesCommon, engine.Black, testSeed("rev cheat g", n), testSeed("rev cheat e", n), lambda, gc.HalfGates)
		gm.g.cheatReverse, gm.g.cheatIgnoreCheck = hook, true
		return gm
	}
	gm := newGame(0)
	caught, failed, passed := 0, 0, 0
	last := engine.NoPoint
	for n := range trials {
		if gm.ref.PlayEnded() {
			gm = newGame(n + 1)
		}
		nTries := [2]int{len(gm.g.tries), len(gm.e.tries)}
		nMovers := [2]int{len(gm.g.movers), len(gm.e.movers)}
		pub, shares := gm.e.pub, [2]circuit.RefereeState{gm.g.Share(), gm.e.Share()}
		p := randomTry(rng, gm.ref, last)
		try := gm.e.pub.Try
		j := gm.e.choose(try)
		armed = true
		_, err := gm.play(p)
		armed = false
		sent := gm.rec.Tries[try].Sent
		switch {
		case err == nil:
			// Garbling ĵ with the check ignored, and no wire's label wrong
			// for the evaluator's bits.
			if target != j {
				t.Fatalf("try %d: wrong reverse choices in opened garbling %d (ĵ=%d) not caught", try, target, j)
			}
			passed++
			next, _, err := gm.ref.Try(gm.ref.ToMove(), p)
			if err != nil {
				t.Fatal(err)
			}
			gm.ref = next
			if p != engine.Pass {
				last = p
			}
			continue
		case gm.e.Certificate() != nil:
			c := gm.e.Certificate()
			if gm.e.Err() == nil || !strings.Contains(err.Error(), "the garbler") || gm.g.Err() != nil {
				t.Fatalf("try %d: %v (garbler: %v)", try, err, gm.g.Err())
			}
			if c.Reverse == nil || c.Opened != target || target == j || sent != 2 {
				t.Fatalf("try %d: certificate %q on garbling %d after %d messages, the wrong choices in %d, ĵ=%d", try, c.What, c.Opened, sent, target, j)
			}
			if err := JudgeCertificate(gm.rec, int(try), *c); err != nil {
				t.Fatalf("try %d: the certificate is not accepted: %v", try, err)
			}
			caught++
		case target == j && (gm.e.Err() == nil && gm.g.Err() != nil || gm.e.Err() != nil && strings.Contains(err.Error(), "the garbler")):
			// Wrong labels of ĵ: the try fails without proof.
			failed++
		default:
			t.Fatalf("try %d (wrong choices in garbling %d, ĵ=%d): %v (garbler %v, evaluator %v)", try, target, j, err, gm.g.Err(), gm.e.Err())
		}
		gm.resetTry(nTries, nMovers, pub, shares)
	}
	rate := float64(caught) / float64(trials)
	t.Logf("T-8(b) wrong reverse choices in one garbling, λ=%d: caught during the try with a certificate in %d of %d trials (%.1f %%, expected 75 %%); garbling ĵ: the try failed %d, passed %d (the audit names them)", lambda, caught, trials, 100*rate, failed, passed)
	if rate < 0.70-slack {
		t.Errorf("caught in %.1f %% of the trials, want at least %.0f %%", 100*rate, 100*(0.70-slack))
	}
	if caught == 0 {
		t.Error("never caught")
	}
}

// TestT8CorrelatedProbingRefused (T-8(a), MPC-D28): a cheating
// evaluator whose request of one garbling has a column changed after
// its check values (the probing attack on that garbling's Δ_i) is
// refused at once by the garbler's KOS check of that garbling, which
// blames the evaluator; the garbler proves it with its reverse seed and
// the try's Δ_i (JudgeCorrelatedRefusal), and the audit names the
// evaluator's request. The same proof never convicts an honest
// evaluator, nor does a garbler that reveals other Δ or another seed.
func TestT8CorrelatedProbingRefused(t *testing.T) {
	for i := range 4 {
		gm := newCOTGame(t, 5, engine.RulesCommon, engine.Black, testSeed("probe g", i), testSeed("probe e", i), 4, gc.HalfGates)
		m := gm.g.rc.layout[circuit.Garbler].NumInputs[circuit.Evaluator]
		armed := i > 0
		if !armed {
			// An honest try first: its request is never proven refused.
			gm.playRandom(rand.New(rand.NewPCG(9, 9)), 1, nil)
			armed = true
		}
		msgs := map[string][]byte{}
		gm.tamper = func(_ uint64, what string, b []byte) []byte {
			if what == "request" && armed {
				b[cotHeader+i*ot.RequestSize(m)+11+3] ^= 0x10
			}
			msgs[what] = append([]byte(nil), b...)
			return b
		}
		if i == 0 {
			// The honest try's messages, from what each side received.
			rE, rG := gm.received[circuit.Evaluator], gm.received[circuit.Garbler]
			honestRev, honestReq := rE[len(rE)-6], rG[len(rG)-4]
			if err := JudgeCorrelatedRefusal(gm.rec, 0, gm.g.ReverseOTSeed(), gm.g.GarblingSeeds(), rE[1], rG[1], honestRev, honestReq); !errors.Is(err, ErrNotProven) || !strings.Contains(err.Error(), "passes the check") {
				t.Fatalf("an honest request proven refused: %v", err)
			}
		}
		try := int(gm.e.pub.Try)
		_, err := gm.play(engine.Point(12))
		if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the evaluator") || !strings.Contains(err.Error(), "consistency") || gm.g.Err() == nil || gm.e.Err() != nil {
			t.Fatalf("garbling %d: %v (garbler %v, evaluator %v)", i, err, gm.g.Err(), gm.e.Err())
		}
		rE, rG := gm.received[circuit.Evaluator], gm.received[circuit.Garbler]
		seed, seeds := gm.g.ReverseOTSeed(), gm.g.GarblingSeeds()
		if err := JudgeCorrelatedRefusal(gm.rec, try, seed, seeds, rE[1], rG[1], msgs["reverse"], msgs["request"]); err != nil {
			t.Fatalf("garbling %d: the refusal is not proven: %v", i, err)
		}
		lying := append([]prg.Seed(nil), seeds...)
		lying[(i+1)%4] = testSeed("another garbling", i)
		for name, err := range map[string]error{
			"other seeds (other Δ)": JudgeCorrelatedRefusal(gm.rec, try, seed, lying, rE[1], rG[1], msgs["reverse"], msgs["request"]),
			"another reverse seed":  JudgeCorrelatedRefusal(gm.rec, try, testSeed("x", 0), seeds, rE[1], rG[1], msgs["reverse"], msgs["request"]),
			"not the record's":      JudgeCorrelatedRefusal(gm.rec, try, seed, seeds, rE[1], rG[1], msgs["reverse"], append(msgs["request"][:len(msgs["request"])-1:len(msgs["request"])-1], 0)),
		} {
			if !errors.Is(err, ErrNotProven) {
				t.Errorf("garbling %d, %s: %v, want ErrNotProven", i, name, err)
			}
		}
		_, aerr := Audit(gm.rec, gm.reveals())
		var f *Fault
		if !errors.As(aerr, &f) || f.Party != circuit.Evaluator || f.Message != "OT request" {
			t.Fatalf("garbling %d: audit %v, want the evaluator's request", i, aerr)
		}
	}
}

// TestT8CorrelatedMalformed: messages of the correlated input OTs of
// the wrong size, version, kind or try are ErrMessage and leave the
// machines as they were (MPC-D10/D11): the honest messages then go
// through.
func TestT8CorrelatedMalformed(t *testing.T) {
	gm := newCOTGame(t, 5, engine.RulesCommon, engine.Black, testSeed("mal g", 0), testSeed("mal e", 0), 4, gc.HalfGates)
	rev, err := gm.g.ReverseRequest()
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"short":   rev[:len(rev)-1],
		"long":    append(append([]byte(nil), rev...), 0),
		"version": append([]byte{'P', 1}, rev[2:]...),
		"kind":    append([]byte{'P', 2, 'Q'}, rev[3:]...),
		"try":     append([]byte{'P', 2, 'V', 0, 0, 0, 0, 0, 0, 0, 1}, rev[11:]...),
		"ot body": append(append([]byte(nil), rev[:11]...), append([]byte{'X'}, rev[12:]...)...),
		// The last sub-batch's header (its batch number): refused before
		// the machine takes the first three.
		"last sub-batch": func() []byte {
			b := append([]byte(nil), rev...)
			b[cotHeader+3*ot.RequestSize(ot.Kappa)+6] ^= 1
			return b
		}(),
	} {
		if err := gm.e.TakeReverse(bad); !errors.Is(err, ErrMessage) || gm.e.Err() != nil {
			t.Errorf("reverse request, %s: %v", name, err)
		}
	}
	if err := gm.e.TakeReverse(rev); err != nil {
		t.Fatal(err)
	}
	if err := gm.e.TakeReverse(rev); err != nil {
		t.Errorf("the same reverse request again: %v", err)
	}
	req, err := gm.e.Request(engine.Point(12))
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"short": req[:len(req)-1],
		"kind":  append([]byte{'P', 2, 'V'}, req[3:]...),
		"try":   append([]byte{'P', 2, 'Q', 0, 0, 0, 0, 0, 0, 0, 9}, req[11:]...),
	} {
		if err := gm.g.CheckRequest(bad); !errors.Is(err, ErrMessage) || gm.g.Err() != nil {
			t.Errorf("request, %s: %v", name, err)
		}
		if _, err := gm.g.Commit(bad); !errors.Is(err, ErrMessage) || gm.g.Err() != nil {
			t.Errorf("request to Commit, %s: %v", name, err)
		}
	}
	cm, err := gm.g.Commit(req)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]Commitment{
		"reply short":       {Commitments: cm.Commitments, Reply: cm.Reply[:len(cm.Reply)-1]},
		"reply kind":        {Commitments: cm.Commitments, Reply: append([]byte{'P', 2, 'Q'}, cm.Reply[3:]...)},
		"commitment v1":     {Commitments: append([]byte{'P', 1}, cm.Commitments[2:]...), Reply: cm.Reply},
		"commitment short":  {Commitments: cm.Commitments[:len(cm.Commitments)-32], Reply: cm.Reply},
		"seed reply broken": {Commitments: cm.Commitments, Reply: append(append([]byte(nil), cm.Reply[:len(cm.Reply)-ot.ReplySize(4)]...), make([]byte, ot.ReplySize(4))...)},
	} {
		if _, err := gm.e.Open(bad); !errors.Is(err, ErrMessage) || gm.e.Err() != nil {
			t.Errorf("commitment, %s: %v", name, err)
		}
	}
	if _, err := gm.e.Open(cm); err != nil {
		t.Fatal(err)
	}
}
