package referee

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
)

// allowTryFlips lets Validate take Config.TryFlips for the rest of tb
// (MPC-D52's gate, tryFlipsBuilt), then puts the gate back as it was: the
// one place the tests open it. With the gate open in config.go the tests
// pass unchanged; when it goes, this and TestMPCD52FlipsChecked's check
// of the gate go.
func allowTryFlips(tb testing.TB) {
	was := tryFlipsBuilt
	tryFlipsBuilt = true
	tb.Cleanup(func() { tryFlipsBuilt = was })
}

// flippedConfig is a checked game of the correlated input OTs whose
// evaluator's tries come by flips (MPC-D52), with the authenticated state
// (MACs of 64 bits) when auth is set.
func flippedConfig(size int, rules engine.PhantomRules, garbler engine.Color, lambda int, auth bool, game string) Config {
	cfg := Config{Size: size, Rules: rules, GarblerColor: garbler, Game: []byte(game), Komi: 7.5,
		Lambda: lambda, Scheme: gc.ThreeHalves, InputOT: InputOTCorrelated, TryFlips: true}
	if auth {
		cfg.AuthState, cfg.MACBits = true, 64
	}
	return cfg
}

// TestMPCD52FlippedTriesMatchEngine: in games whose evaluator's tries come
// by flips (MPC-D52, in process), every announcement of both players and
// the shared state after each try are the engine referee's (T-9), with
// both colours for the garbler, λ = 2 and 4, with and without the
// authenticated state; the evaluator's player's tries are the ones it
// made, and no certificate is made against the honest garbler.
func TestMPCD52FlippedTriesMatchEngine(t *testing.T) {
	allowTryFlips(t)
	for i, c := range []struct {
		lambda, size int
		auth         bool
	}{{4, 9, true}, {2, 5, false}, {4, 5, true}, {2, 9, false}} {
		garbler := engine.Black
		if i%2 == 1 {
			garbler = engine.White
		}
		t.Run(fmt.Sprintf("%dx%d-lambda-%d-auth-%v", c.size, c.size, c.lambda, c.auth), func(t *testing.T) {
			cfg := flippedConfig(c.size, allRules[i%3], garbler, c.lambda, c.auth, fmt.Sprintf("flips %d", i))
			gm := newGameOf(t, cfg, testSeed("flips g", i), testSeed("flips e", i))
			rng := rand.New(rand.NewPCG(uint64(c.size), uint64(52+i)))
			var mine []engine.Point
			last := engine.NoPoint
			evaluatorTries := 0
			for range 30 {
				if gm.ref.PlayEnded() {
					break
				}
				p := randomTry(rng, gm.ref, last)
				if cfg.PartyOf(gm.ref.ToMove()) == circuit.Evaluator {
					mine = append(mine, p)
					evaluatorTries++
				}
				if _, d := gm.step(p); d != "" {
					t.Fatal(d)
				}
				if p != engine.Pass {
					last = p
				}
			}
			if evaluatorTries == 0 {
				t.Fatal("no try of the evaluator's player")
			}
			if got := gm.e.Tries(); fmt.Sprint(got) != fmt.Sprint(mine) {
				t.Errorf("the evaluator's tries %v, want %v", got, mine)
			}
			if cert := gm.e.Certificate(); cert != nil {
				t.Fatalf("a certificate against an honest garbler: %+v", cert)
			}
			if _, err := Audit(gm.rec, gm.reveals()); err != nil {
				t.Fatalf("the honest game fails the audit: %v", err)
			}
		})
	}
}

// TestMPCD52AuditNamesFalseFlips: an evaluator whose flips are not its
// revealed try XOR its seed's random bits (its player tried another point
// than it reveals) is named by the audit, at that try, for its flips;
// the garbler is not. With its true try revealed the audit passes.
func TestMPCD52AuditNamesFalseFlips(t *testing.T) {
	allowTryFlips(t)
	cfg := flippedConfig(5, engine.RulesCommon, engine.White, 4, true, "false flips")
	gm := newGameOf(t, cfg, testSeed("false flips g", 0), testSeed("false flips e", 0))
	// Black, the evaluator's player, tries first, at C3.
	if _, err := gm.play(engine.Point(12)); err != nil {
		t.Fatalf("the try: %v", err)
	}
	if _, err := Audit(gm.rec, gm.reveals()); err != nil {
		t.Fatalf("the honest try fails the audit: %v", err)
	}
	rev := gm.reveals()
	rev[circuit.Evaluator].Tries[0] = engine.Point(13)
	_, err := Audit(gm.rec, rev)
	var f *Fault
	if !errors.As(err, &f) || f.Party != circuit.Evaluator || f.Message != "flips" || f.Try != 0 {
		t.Fatalf("audit: %v; want the evaluator's flips of try 0", err)
	}
}

// TestMPCD52FlipsChecked: the garbler of a flipped try gives the label of
// each flip's value, committed in value order; the evaluator takes no
// other. A garbler that sends the other committed label of a flip (which
// would move the evaluator's try) fails the evaluator's check with a
// certificate, and so does a flip label of neither value; flips of
// another try or length are refused as malformed, and so is a garbling
// asked before the flips.
func TestMPCD52FlipsChecked(t *testing.T) {
	allowTryFlips(t)
	cfg := flippedConfig(5, engine.RulesCommon, engine.White, 4, true, "flips checked")
	if err := (Config{Size: 5, Rules: engine.RulesCommon, GarblerColor: engine.White, Game: []byte("g"), Lambda: 4, TryFlips: true}).Validate(); err == nil {
		t.Error("flips without the correlated input OTs validated")
	}
	// The gate (until the session knows the form).
	tryFlipsBuilt = false
	if err := cfg.Validate(); err == nil {
		t.Error("flips validated while MPC-D52 is not built")
	}
	tryFlipsBuilt = true
	for _, c := range []struct {
		cheat string
		at    int // honest tries before
	}{{"honest", 0}, {"other-label", 0}, {"garbage-label", 0}, {"other-label", 4}} {
		cheat := c.cheat
		t.Run(fmt.Sprintf("%s-after-%d", cheat, c.at), func(t *testing.T) {
			gm := newGameOf(t, cfg, testSeed("flips checked g", 0), testSeed("flips checked e", 0))
			// White garbles: Black, the evaluator's player, tries first,
			// and again after two legal tries (one of each).
			for _, p := range []engine.Point{0, 24, 1, 23}[:c.at] {
				if _, d := gm.step(p); d != "" {
					t.Fatal(d)
				}
			}
			if cfg.PartyOf(gm.ref.ToMove()) != circuit.Evaluator {
				t.Fatal("the evaluator's player is not to move")
			}
			if cheat != "honest" {
				gm.g.cheatSend = func(try uint64, j int, own *[]gc.Label, other *[]Digest, cp *copyGarbling) {
					w := gm.g.rc.layout[circuit.Evaluator].FlipX[0]
					if cheat == "other-label" {
						// The label of the other value, and its hash as "the other".
						l0, l1 := cp.keys.Inputs[circuit.Garbler][w][0], cp.keys.Inputs[circuit.Garbler][w][1]
						if (*own)[w] == l0 {
							(*own)[w] = l1
						} else {
							(*own)[w] = l0
						}
						(*other)[w] = cp.pairs[w][0]
						if (*own)[w] == l0 {
							(*other)[w] = cp.pairs[w][1]
						}
					} else {
						(*own)[w][0] ^= 1
					}
				}
			}
			_, err := gm.play(engine.Point(6))
			if cheat == "honest" {
				if err != nil {
					t.Fatalf("honest try: %v", err)
				}
				return
			}
			cert := gm.e.Certificate()
			if err == nil || cert == nil || cert.What != "garbler's input labels" {
				t.Fatalf("%s: err %v, certificate %+v; want the labels' certificate", cheat, err, cert)
			}
			last := len(gm.rec.Tries) - 1
			if err := JudgeCertificate(gm.rec, last, *cert); err != nil {
				t.Fatalf("%s: the judge refuses the certificate of try %d: %v", cheat, last, err)
			}
			// Other flips than the signed ones prove nothing.
			forged := *cert
			forged.Flips = bytes.Clone(cert.Flips)
			forged.Flips[len(forged.Flips)-1] ^= 1
			if err := JudgeCertificate(gm.rec, last, forged); !errors.Is(err, ErrNotProven) {
				t.Fatalf("%s: a certificate with other flips: %v, want not proven", cheat, err)
			}
		})
	}
}

// TestMPCD52FlipsFalseAccusation: an evaluator whose program signs and
// sends other flips than the ones its machine made (so that the honest
// garbler's labels of the flips sent do not match the ones it expects)
// fails its try with a certificate that the judge refuses (T-14): the
// labels are judged against the flips the record holds, and an honest
// garbler is never convicted.
func TestMPCD52FlipsFalseAccusation(t *testing.T) {
	allowTryFlips(t)
	cfg := flippedConfig(5, engine.RulesCommon, engine.White, 4, true, "false accusation")
	gm := newGameOf(t, cfg, testSeed("false accusation g", 0), testSeed("false accusation e", 0))
	gm.tamper = func(try uint64, what string, b []byte) []byte {
		if what == "flips" {
			b[len(b)-1] ^= 1
		}
		return b
	}
	_, err := gm.play(engine.Point(12))
	cert := gm.e.Certificate()
	if err == nil || cert == nil {
		t.Fatalf("err %v, certificate %+v: the evaluator's machine should fail its check", err, cert)
	}
	if err := JudgeCertificate(gm.rec, 0, *cert); !errors.Is(err, ErrNotProven) {
		t.Fatalf("the judge: %v; want the certificate not proven (the garbler is honest)", err)
	}
}
