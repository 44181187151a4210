package referee

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// newAuthGame is newCOTGame with the authenticated state (MPC-D29):
// three-halves, the correlated input OTs, MACs of macBits bits (0 for
// 128, MPC-D29 as first built; 64, MPC-D32).
func newAuthGame(t testing.TB, size int, rules engine.PhantomRules, garbler engine.Color, seedG, seedE prg.Seed, lambda, macBits int) *testGame {
	t.Helper()
	cfg := Config{Size: size, Rules: rules, GarblerColor: garbler, Game: []byte(fmt.Sprintf("test game %dx%d %s", size, size, rules)), Komi: 7.5,
		Lambda: lambda, Scheme: gc.ThreeHalves, InputOT: InputOTCorrelated, AuthState: true, MACBits: macBits}
	return newGameOf(t, cfg, seedG, seedE)
}

// macForms are the two lengths of the garbler's MACs in a game of the
// authenticated state, as Config.MACBits names them: 128 bits (0,
// MPC-D29) and 64 (MPC-D32). The cheater tests run with both.
var macForms = []int{0, ot.KappaMAC}

// macName names a form of macForms in a test's messages.
func macName(macBits int) string {
	if macBits == 0 {
		return "MACs of 128 bits"
	}
	return fmt.Sprintf("MACs of %d bits", macBits)
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

// TestMPCD32Config: MACs of 64 bits only with the authenticated state;
// no other length than 64 and 0 (128).
func TestMPCD32Config(t *testing.T) {
	for _, c := range []struct {
		auth    bool
		macBits int
		ok      bool
	}{{true, 0, true}, {true, 64, true}, {false, 64, false}, {true, 128, false}, {true, 32, false}, {true, 40, false}, {true, -64, false}} {
		cfg := Config{Size: 9, Rules: engine.RulesCommon, GarblerColor: engine.Black, Game: []byte("g"), Lambda: 4, InputOT: InputOTCorrelated,
			Scheme: gc.ThreeHalves, AuthState: c.auth, MACBits: c.macBits}
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
	for i, c := range []struct{ lambda, size, macBits int }{{4, 5, 0}, {2, 9, 0}, {4, 9, 0}, {8, 5, 64}, {4, 9, 64}, {2, 5, 64}} {
		garbler := engine.Black
		if i%2 == 1 {
			garbler = engine.White
		}
		rng := rand.New(rand.NewPCG(uint64(c.size), uint64(c.lambda)))
		gm := newAuthGame(t, c.size, allRules[i%3], garbler, testSeed("auth g", i), testSeed("auth e", i), c.lambda, c.macBits)
		played := gm.playRandom(rng, tries, nil)
		if gm.e.Certificate() != nil || gm.e.ShareCertificate() != nil || gm.g.ShareCertificate() != nil {
			t.Fatalf("%+v: a certificate in an honest game", c)
		}
		if _, err := Audit(gm.rec, gm.reveals()); err != nil {
			t.Fatalf("%+v: honest game fails the audit: %v", c, err)
		}
		t.Logf("%dx%d λ=%d, %s: %d tries match", c.size, c.size, c.lambda, macName(c.macBits), played)
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
// garbler holds a certificate that JudgeEvaluatorShare accepts. The
// same with either length of the garbler's MACs (MPC-D32), which this
// check does not use.
func TestT8AuthEvaluatorSubstitution(t *testing.T) {
	for _, mb := range macForms {
		t.Run(macName(mb), func(t *testing.T) { evaluatorSubstitution(t, mb) })
	}
}

func evaluatorSubstitution(t *testing.T, macBits int) {
	for trial := range 6 {
		gm := newAuthGame(t, 5, allRules[trial%3], engine.White, testSeed("esub g", trial), testSeed("esub e", trial), 4, macBits)
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
// JudgeGarblerShare accepts. The same with MACs of 128 bits (MPC-D29)
// and of 64 (MPC-D32).
func TestT8AuthGarblerSubstitution(t *testing.T) {
	for _, mb := range macForms {
		t.Run(macName(mb), func(t *testing.T) { garblerSubstitution(t, mb) })
	}
}

func garblerSubstitution(t *testing.T, macBits int) {
	for trial := range 6 {
		gm := newAuthGame(t, 5, allRules[trial%3], engine.Black, testSeed("gsub g", trial), testSeed("gsub e", trial), 4, macBits)
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

// authMessages records every message of a test game by name, in order.
func authMessages(gm *testGame) map[string][][]byte {
	msgs := map[string][][]byte{}
	gm.tamper = func(_ uint64, what string, b []byte) []byte {
		msgs[what] = append(msgs[what], append([]byte(nil), b...))
		return b
	}
	return msgs
}

// TestT8AuthForgedCertificatesRejected: neither party can frame the
// other with the certificates of MPC-D29. An evaluator that accuses an
// honest garbler with its true MAC seed, with another seed (the wrong
// key), with messages that are not the record's or with the try
// before's, proves nothing; a garbler that accuses an honest evaluator
// with the true seeds and keys of both garblings ĵ, with another seed or
// other keys, proves nothing. The same with MACs of 128 bits and of 64
// (MPC-D32), where the evaluator also tries a MAC seed of the other
// length's machine.
func TestT8AuthForgedCertificatesRejected(t *testing.T) {
	for _, mb := range macForms {
		t.Run(macName(mb), func(t *testing.T) { forgedShareCertificates(t, mb) })
	}
}

func forgedShareCertificates(t *testing.T, macBits int) {
	gm := newAuthGame(t, 5, engine.RulesCommon, engine.Black, testSeed("auth forge g", 0), testSeed("auth forge e", 0), 4, macBits)
	msgs := authMessages(gm)
	var start, answer []byte
	start, _ = gm.g.ReverseStart()
	answer = gm.e.revAnswer
	type kept struct {
		seed prg.Seed
		keys []ot.Key
	}
	var garblings []kept
	for i, p := range []engine.Point{12, 6, 7} {
		if _, d := gm.step(p); d != "" {
			t.Fatal(d)
		}
		j := gm.e.choose(uint64(i))
		seeds := ggmLevels(gm.g.seed.Derive(labelPVCRoot, uint64(i)), 2)[2]
		garblings = append(garblings, kept{seeds[j], gm.g.authPrev.rkeys})
	}
	// Against the garbler, try 2 (the garbler's player moves at tries 0
	// and 2 here; any try serves: the check is of the garbler's share).
	const at = 2
	macOf := func(try int) []byte {
		subs, err := splitMAC(gm.cfg, uint64(try), msgs["reverse"][try])
		if err != nil {
			t.Fatal(err)
		}
		return subs[gm.e.choose(uint64(try))]
	}
	g := GarblerShareCertificate{Try: at, MACSeed: gm.e.MACSeed(), ReverseStart: start, ReverseAnswer: answer,
		PrevCommitment: msgs["commitment"][at-1], Commitment: msgs["commitment"][at], PrevMAC: macOf(at - 1), MAC: macOf(at),
		PrevChoice: msgs["choice"][at-1], Choice: msgs["choice"][at], Labels: msgs["labels"][at]}
	withG := func(f func(c *GarblerShareCertificate)) GarblerShareCertificate {
		c := g
		f(&c)
		return c
	}
	for name, c := range map[string]GarblerShareCertificate{
		"honest garbler, true MAC seed":  g,
		"another MAC seed (a wrong key)": withG(func(c *GarblerShareCertificate) { c.MACSeed = testSeed("other", 1) }),
		"the evaluator's reverse seed":   withG(func(c *GarblerShareCertificate) { c.MACSeed = gm.e.seed.Derive(labelReverseOT) }),
		"labels of another try":          withG(func(c *GarblerShareCertificate) { c.Labels = msgs["labels"][at-1] }),
		"labels, opening changed":        withG(func(c *GarblerShareCertificate) { c.Labels = oneByteOff(c.Labels, len(c.Labels)-1) }),
		"MAC sub-batch of another try":   withG(func(c *GarblerShareCertificate) { c.MAC = c.PrevMAC }),
		"MAC sub-batch of another garbling": withG(func(c *GarblerShareCertificate) {
			subs, _ := splitMAC(gm.cfg, at, msgs["reverse"][at])
			c.MAC = subs[(gm.e.choose(at)+1)%4]
		}),
		"commitment of another try": withG(func(c *GarblerShareCertificate) { c.Commitment = c.PrevCommitment }),
		"choices swapped":           withG(func(c *GarblerShareCertificate) { c.Choice, c.PrevChoice = c.PrevChoice, c.Choice }),
		"try before left out":       withG(func(c *GarblerShareCertificate) { c.PrevCommitment, c.PrevMAC, c.PrevChoice = nil, nil, nil }),
		"wrong try number":          withG(func(c *GarblerShareCertificate) { c.Try = at - 1 }),
	} {
		if err := JudgeGarblerShare(gm.rec, at, c); !errors.Is(err, ErrNotProven) {
			t.Errorf("against the garbler, %s: %v, want ErrNotProven", name, err)
		}
	}
	// The same messages judged as a game of the other MAC length: its MAC
	// machine does not give the signed setup answer.
	other := gm.rec
	other.Config.MACBits = ot.KappaMAC - macBits
	if err := JudgeGarblerShare(other, at, g); !errors.Is(err, ErrNotProven) {
		t.Errorf("against the garbler, judged as %s: %v, want ErrNotProven", macName(other.Config.MACBits), err)
	}
	parts := func(try int) ([]byte, []byte) {
		m := gm.g.rc.layout[gm.g.movers[try]].NumInputs[circuit.Evaluator]
		reqs, _, err := splitCOTRequest(gm.cfg, uint64(try), m, msgs["request"][try])
		if err != nil {
			t.Fatal(err)
		}
		corr, _, err := splitCOTReply(gm.cfg, uint64(try), m, msgs["commitment-reply"][try])
		if err != nil {
			t.Fatal(err)
		}
		j := gm.e.choose(uint64(try))
		return reqs[j], correctionBytes(corr[j])
	}
	prevReq, prevCorr := parts(at - 1)
	req, corr := parts(at)
	e := EvaluatorShareCertificate{Try: at, PrevSeed: garblings[at-1].seed, Seed: garblings[at].seed, PrevKeys: garblings[at-1].keys, Keys: garblings[at].keys,
		PrevCommitment: msgs["commitment"][at-1], Commitment: msgs["commitment"][at], PrevRequestPart: prevReq, RequestPart: req,
		PrevCorrections: prevCorr, Corrections: corr, PrevChoice: msgs["choice"][at-1], Choice: msgs["choice"][at], PrevLabels: msgs["labels"][at-1]}
	withE := func(f func(c *EvaluatorShareCertificate)) EvaluatorShareCertificate {
		c := e
		f(&c)
		return c
	}
	for name, c := range map[string]EvaluatorShareCertificate{
		"honest evaluator, true seeds and keys": e,
		"another seed":                          withE(func(c *EvaluatorShareCertificate) { c.Seed = garblings[at-1].seed }),
		"another previous seed":                 withE(func(c *EvaluatorShareCertificate) { c.PrevSeed = garblings[0].seed }),
		"other keys":                            withE(func(c *EvaluatorShareCertificate) { c.Keys = garblings[at-1].keys }),
		"choice with a sum changed":             withE(func(c *EvaluatorShareCertificate) { c.Choice = oneByteOff(c.Choice, len(c.Choice)-3) }),
		"try before left out":                   withE(func(c *EvaluatorShareCertificate) { c.PrevCommitment = nil }),
		"request part of the try before":        withE(func(c *EvaluatorShareCertificate) { c.RequestPart = c.PrevRequestPart }),
		"corrections, one byte changed":         withE(func(c *EvaluatorShareCertificate) { c.Corrections = oneByteOff(c.Corrections, 40) }),
	} {
		if err := JudgeEvaluatorShare(gm.rec, at, c); !errors.Is(err, ErrNotProven) {
			t.Errorf("against the evaluator, %s: %v, want ErrNotProven", name, err)
		}
	}
}

// TestT8AuthGarblerCannotFrameEvaluator: a garbler that makes the honest
// evaluator's sums wrong — by a wrong OT correction of one of its share
// inputs in garbling ĵ, or by a flipped decoding bit of a state output
// of garbling ĵ the try before (which also substitutes the evaluator's
// share) — sees its own check fail and holds a certificate against the
// evaluator, which the judge refuses: it replays both garblings ĵ and
// finds the garbler's deviation.
func TestT8AuthGarblerCannotFrameEvaluator(t *testing.T) {
	for _, how := range []string{"correction", "decoding bit"} {
		gm := newAuthGame(t, 5, engine.RulesHamburg, engine.White, testSeed("frame g", len(how)), testSeed("frame e", len(how)), 4, macForms[len(how)%2])
		const at = 1
		j0, j1 := gm.e.choose(0), gm.e.choose(at)
		switch how {
		case "correction":
			// The first share input of the evaluator in garbling ĵ.
			gm.g.cheatCorrections = func(try uint64, _ int, d [][]ot.Block) {
				if try == at {
					d[j1][0][3] ^= 0x40
				}
			}
		case "decoding bit":
			gm.g.cheatCopy = func(try uint64, i int, g *gc.Garbled, _ *gc.Keys) {
				if try == 0 && i == j0 {
					l := gm.g.rc.layout[circuit.Evaluator]
					for _, o := range canonicalPositions(l.ShareOut, engine.Black) {
						g.Decoding[o] = !g.Decoding[o]
					}
				}
			}
		}
		if _, d := gm.step(12); d != "" && how == "correction" {
			t.Fatal(d)
		}
		_, err := gm.play(7)
		if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the evaluator") {
			t.Fatalf("%s: %v, want the cheating garbler's own check to fail", how, err)
		}
		c := gm.g.ShareCertificate()
		if c == nil {
			t.Fatalf("%s: no certificate to frame with", how)
		}
		if err := JudgeEvaluatorShare(gm.rec, at, *c); !errors.Is(err, ErrNotProven) {
			t.Fatalf("%s: the framing certificate: %v, want ErrNotProven", how, err)
		} else {
			t.Logf("%s: %v", how, err)
		}
	}
}

// TestT8AuthGarblerMACChoices: a garbler that hides a substituted share
// by committing, in the MAC sub-batch of one garbling, to a colour of its
// share input other than the one its seed gives (so that its MAC opening
// fits the substituted label) is caught when that garbling is opened,
// (λ − 1)/λ, with a certificate that VerifyCertificate accepts; when it is
// ĵ the substitution passes, and the audit names the garbler. The same
// with MACs of 128 bits and of 64 (MPC-D32).
func TestT8AuthGarblerMACChoices(t *testing.T) {
	for _, mb := range macForms {
		t.Run(macName(mb), func(t *testing.T) { garblerMACChoices(t, mb) })
	}
}

func garblerMACChoices(t *testing.T, macBits int) {
	caught, passed := 0, 0
	for i := range 4 {
		gm := newAuthGame(t, 5, engine.RulesCommon, engine.Black, testSeed("mac g", 9), testSeed("mac e", 9), 4, macBits)
		// The garbler's player moves at try 0; its flipped bit: the
		// white stone at p (Opp for Black), position 25 + p of its share
		// inputs.
		p := engine.Point(12)
		gm.g.cheatMAC = func(try uint64, k int, bits []bool) {
			if try == 0 && k == i {
				bits[25+int(p)] = !bits[25+int(p)]
			}
		}
		flipShare(&gm.g.share, engine.White, p)
		_, err := gm.play(p)
		flipShare(&gm.g.share, engine.White, p)
		if i == gm.e.choose(0) {
			passed++
			if err != nil {
				t.Fatalf("garbling %d = ĵ: %v", i, err)
			}
			if _, err := Audit(gm.rec, gm.reveals()); err == nil {
				t.Fatalf("garbling %d = ĵ: the audit finds nothing", i)
			} else {
				t.Logf("garbling %d = ĵ: passed the try; the audit: %v", i, err)
			}
			continue
		}
		caught++
		c := gm.e.Certificate()
		if !errors.Is(err, ErrDeviation) || c == nil || !c.MAC {
			t.Fatalf("opened garbling %d: %v, certificate %+v", i, err, c)
		}
		if err := JudgeCertificate(gm.rec, 0, *c); err != nil {
			t.Fatalf("opened garbling %d: the certificate is not accepted: %v", i, err)
		}
	}
	if caught != 3 || passed != 1 {
		t.Fatalf("%d caught, %d passed", caught, passed)
	}
}

// TestT8AuthMalformed: the messages of MPC-D29 of the wrong form — a
// reverse setup message whose bundle is cut or whose MAC part is broken,
// a reverse request whose MAC sub-batch names another batch, a choice
// without its sums or cut short, a garbling whose labels lack the MAC
// opening — are ErrMessage and leave the machines as they were: the
// honest messages then go through to the end of the try. With MACs of
// 64 bits (MPC-D32) a MAC sub-batch of the 128-bit form (its kind) is
// refused too, and so is a MAC setup answer of the other length.
func TestT8AuthMalformed(t *testing.T) {
	for _, mb := range macForms {
		t.Run(macName(mb), func(t *testing.T) { authMalformed(t, mb) })
	}
}

func authMalformed(t *testing.T, macBits int) {
	cfg := Config{Size: 5, Rules: engine.RulesCommon, GarblerColor: engine.White, Game: []byte("auth malformed"), Komi: 7.5,
		Lambda: 4, Scheme: gc.ThreeHalves, InputOT: InputOTCorrelated, AuthState: true, MACBits: macBits}
	seedG, seedE := testSeed("amal g", 0), testSeed("amal e", 0)
	g, err := NewGarbler(cfg, seedG)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEvaluator(cfg, seedE)
	if err != nil {
		t.Fatal(err)
	}
	r1, err := g.ReverseStart()
	if err != nil {
		t.Fatal(err)
	}
	n := 4 + int(binary.BigEndian.Uint32(r1))
	macKind := append([]byte(nil), r1...)
	macKind[n+2] = 0x7f
	for name, bad := range map[string][]byte{
		"bundle cut":       r1[:3],
		"length past end":  append([]byte{0xff, 0xff, 0xff, 0xff}, r1[4:]...),
		"MAC part's kind":  macKind,
		"MAC part missing": r1[:n],
	} {
		if _, err := e.ReverseRespond(bad); !errors.Is(err, ErrMessage) || e.revDone {
			t.Errorf("reverse setup, %s: %v (done %v)", name, err, e.revDone)
		}
	}
	r2, err := e.ReverseRespond(r1)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.ReverseFinish(r2[:len(r2)-1]); !errors.Is(err, ErrMessage) || g.revDone {
		t.Errorf("reverse setup answer cut: %v", err)
	}
	// The answer of an evaluator of the other MAC width: its MAC part
	// has the other number of base OTs (the garbler's start, one point,
	// is the same for both).
	otherCfg := cfg
	otherCfg.MACBits = ot.KappaMAC - macBits
	otherE, err := NewEvaluator(otherCfg, seedE)
	if err != nil {
		t.Fatal(err)
	}
	otherAnswer, err := otherE.ReverseRespond(r1)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.ReverseFinish(otherAnswer); !errors.Is(err, ErrMessage) || g.revDone {
		t.Errorf("reverse setup answer of the other MAC width: %v", err)
	}
	if err := g.ReverseFinish(r2); err != nil {
		t.Fatal(err)
	}
	m1, _ := e.BaseStart()
	m2, err := g.BaseRespond(m1)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.BaseFinish(m2); err != nil {
		t.Fatal(err)
	}
	rev, err := g.ReverseRequest()
	if err != nil {
		t.Fatal(err)
	}
	macAt := cotHeader + 4*ot.RequestSize(ot.Kappa)
	badBatch := append([]byte(nil), rev...)
	badBatch[macAt+2*ot.RequestSizeKappa(cfg.macKappa(), 2*cfg.stateBits())+6] ^= 1
	otherKind := append([]byte(nil), rev...)
	otherKind[macAt+2] ^= 3 ^ 5 // a request of the other width's kind
	for name, bad := range map[string][]byte{
		"MAC sub-batch of another batch":       badBatch,
		"without the MAC sub-batches":          rev[:macAt],
		"MAC sub-batch of the other MAC width": otherKind,
	} {
		if err := e.TakeReverse(bad); !errors.Is(err, ErrMessage) || e.Err() != nil || e.rev != nil {
			t.Errorf("reverse request, %s: %v", name, err)
		}
	}
	if err := e.TakeReverse(rev); err != nil {
		t.Fatal(err)
	}
	req, err := e.Request(engine.Point(12))
	if err != nil {
		t.Fatal(err)
	}
	cm, err := g.Commit(req)
	if err != nil {
		t.Fatal(err)
	}
	choice, err := e.Open(cm)
	if err != nil {
		t.Fatal(err)
	}
	v1 := append([]byte(nil), choice[:choiceSize]...)
	v1[1] = pvcVersion
	badPoint := append([]byte(nil), choice...)
	for k := len(badPoint) - 32; k < len(badPoint); k++ {
		badPoint[k] = 0xff // not the encoding of a point
	}
	for name, bad := range map[string][]byte{
		"without the sums": v1,
		"cut short":        choice[:len(choice)-1],
		"one sum more":     append(append([]byte(nil), choice...), make([]byte, 16)...),
		"a seed transfer response point that does not decode": badPoint,
	} {
		if err := g.CheckChoice(bad); !errors.Is(err, ErrMessage) || g.Err() != nil {
			t.Errorf("choice, %s: %v", name, err)
		}
		if _, err := g.GarbleChosen(bad, engine.NoPoint); !errors.Is(err, ErrMessage) || g.Err() != nil {
			t.Errorf("choice to GarbleChosen, %s: %v", name, err)
		}
	}
	gb, err := g.GarbleChosen(choice, engine.NoPoint)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"without the opening": gb.Labels[:len(gb.Labels)-authOpeningSize],
		"one byte":            gb.Labels[:1],
	} {
		g2 := gb
		g2.Labels = bad
		if _, _, err := e.Evaluate(g2); !errors.Is(err, ErrMessage) || e.Err() != nil {
			t.Errorf("garbling, %s: %v", name, err)
		}
	}
	o, _, err := e.Evaluate(gb)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Finish(o); err != nil {
		t.Fatal(err)
	}
}

// TestT8AuthSeedTransferCertified is issue 31's certificate stripping:
// a garbler that cheats in one garbling and corrupts the seed transfer
// of that try, so that the evaluator cannot open the garbling and fails
// on a seed instead. With the seed transfer of MPC-D30 a wrong seed is
// proven: the evaluator reveals its coins of the try's transfer (they
// open ĵ's path only) and JudgeCertificate convicts the garbler, at
// every level of the tree, whichever side is corrupted (a corrupted side
// the evaluator does not take changes nothing: the try goes on). An
// honest garbler is never convicted: other coins, another ĵ, the coins
// of another try prove nothing.
func TestT8AuthSeedTransferCertified(t *testing.T) {
	certified := 0
	for trial := range 8 {
		gm := newAuthGame(t, 5, engine.RulesCommon, engine.White, testSeed("strip g", trial), testSeed("strip e", trial), 4, macForms[trial%2])
		const at = 1
		if _, d := gm.step(12); d != "" {
			t.Fatal(d)
		}
		j := gm.e.choose(at)
		level, side := trial%2+1, trial/2%2 // levels 1..2 of λ = 4, either side
		taken := b2int(seedPathChoices(j, 2)[level-1])
		opened := (j + 1) % 4
		gm.g.cheatCopy = func(try uint64, i int, g *gc.Garbled, _ *gc.Keys) {
			if try == at && i == opened {
				g.Tables[7] ^= 1 // the cheat the corrupted transfer should hide
			}
		}
		gm.g.cheatSeedSums = func(try uint64, sums [][2]prg.Seed) {
			if try == at {
				sums[level-1][side][3] ^= 0x20
			}
		}
		_, err := gm.play(7)
		c := gm.e.Certificate()
		if side != taken {
			// The side it does not take: the transfer is right, and the
			// opened garbling's own check catches the cheat.
			if c == nil || c.SeedOT != nil || c.Opened != opened {
				t.Fatalf("trial %d: a corrupted side not taken: %v, certificate %+v", trial, err, c)
			}
			continue
		}
		if !errors.Is(err, ErrDeviation) || c == nil || c.SeedOT == nil {
			t.Fatalf("trial %d: a corrupted seed transfer: %v, certificate %+v", trial, err, c)
		}
		if err := JudgeCertificate(gm.rec, at, *c); err != nil {
			t.Fatalf("trial %d: the certificate is not accepted: %v", trial, err)
		}
		certified++
	}
	if certified == 0 {
		t.Fatal("no trial corrupted the side the evaluator takes")
	}

	// Forged: an honest garbler's transfer, with the evaluator's true
	// coins (proves nothing: the seeds are the committed ones) and
	// altered ones.
	gm := newAuthGame(t, 5, engine.RulesCommon, engine.White, testSeed("strip g", 99), testSeed("strip e", 99), 4, ot.KappaMAC)
	msgs := authMessages(gm)
	for _, p := range []engine.Point{12, 7} {
		if _, d := gm.step(p); d != "" {
			t.Fatal(d)
		}
	}
	start, _ := gm.g.ReverseStart()
	honest := Certificate{Commitment: msgs["commitment"][1], Opened: 0, What: "seed transfer",
		SeedOT: &SeedTransferEvidence{Coins: seedCoins(gm.e.seed, 1), J: gm.e.choose(1), Start: start, Carrier: msgs["choice"][0]}}
	with := func(f func(e *SeedTransferEvidence)) Certificate {
		c := honest
		e := *honest.SeedOT
		f(&e)
		c.SeedOT = &e
		return c
	}
	for name, c := range map[string]Certificate{
		"honest transfer, true coins": honest,
		"coins of another try":        with(func(e *SeedTransferEvidence) { e.Coins = seedCoins(gm.e.seed, 0) }),
		"other coins":                 with(func(e *SeedTransferEvidence) { e.Coins = testSeed("coins", 1) }),
		"another ĵ":                   with(func(e *SeedTransferEvidence) { e.J = (e.J + 1) % 4 }),
		"carrier of another try":      with(func(e *SeedTransferEvidence) { e.Carrier = msgs["choice"][1] }),
	} {
		if err := JudgeCertificate(gm.rec, 1, c); !errors.Is(err, ErrNotProven) {
			t.Errorf("%s: %v, want ErrNotProven", name, err)
		}
	}
}

// TestMPCD32ForgedMACNeedsEveryKeyBit is the boundary of the MAC length
// (MPC-D32): a garbler that substitutes a share bit (the white stone at
// the point its player tries, flipped and flipped back as in
// TestT8AuthGarblerSubstitution) and forges the MAC of the substituted
// bit by adding a guess of the evaluator's MAC key s to its opening's sum
// of that bit. With the true s the forgery passes — the try goes on, the
// evaluator evaluates the substituted share: the MAC's strength is
// exactly the key's. A guess wrong in any one bit of s (the first and
// the last of the 64, one in between, or a bit beyond them) is caught in
// that try with a certificate JudgeGarblerShare accepts, with MACs of 64
// bits as with 128: a blind guess of a 64-bit key is right with
// probability 2^-64.
func TestMPCD32ForgedMACNeedsEveryKeyBit(t *testing.T) {
	for _, mb := range macForms {
		guesses := []int{-1, 0, 31, 63, 64} // -1: the true key
		if mb == 0 {
			guesses = []int{-1, 0, 63, 64, 127}
		}
		for _, bit := range guesses {
			name := fmt.Sprintf("%s, key bit %d wrong", macName(mb), bit)
			if bit < 0 {
				name = macName(mb) + ", the true key"
			}
			t.Run(name, func(t *testing.T) { forgedMAC(t, mb, bit) })
		}
	}
}

// forgedMAC plays one garbler substitution with a MAC forged with the
// evaluator's key, bit wrong in it (none if bit < 0).
func forgedMAC(t *testing.T, macBits, bit int) {
	const size = 5
	gm := newAuthGame(t, size, engine.RulesCommon, engine.Black, testSeed("forge mac g", bit+1), testSeed("forge mac e", bit+1), 4, macBits)
	s := gm.e.macSend.Secret()
	if macBits == ot.KappaMAC && [8]byte(s[8:]) != [8]byte{} {
		t.Fatalf("a 64-bit MAC key with high bits %x", s[8:])
	}
	guess := s
	if bit >= 0 {
		guess[bit/8] ^= 1 << (bit % 8)
	}
	// The garbler's player (Black) tries at try 0; its flipped bit: the
	// white stone at p, share bit p·(3 + label bits) + 1 in canonical
	// order.
	p := engine.Point(12)
	k := int(p)*(3+circuit.RefereeLabelBits(size)) + 1
	gm.g.cheatOpening = func(try uint64, sums []ot.Block) {
		if try == 0 {
			sums[k] = sums[k].Xor(guess)
		}
	}
	flipShare(&gm.g.share, engine.White, p)
	_, err := gm.play(p)
	flipShare(&gm.g.share, engine.White, p)
	if bit < 0 {
		if err != nil || gm.e.ShareCertificate() != nil {
			t.Fatalf("the MAC forged with the true key: %v (the forgery model is not the check's)", err)
		}
		return
	}
	if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the garbler") || gm.rec.Tries[0].Sent != 4 {
		t.Fatalf("a MAC forged with key bit %d wrong: %v, want ErrDeviation blaming the garbler before the outputs", bit, err)
	}
	c := gm.e.ShareCertificate()
	if c == nil {
		t.Fatal("no certificate")
	}
	if err := JudgeGarblerShare(gm.rec, 0, *c); err != nil {
		t.Fatalf("the certificate is not accepted: %v", err)
	}
}
