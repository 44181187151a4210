package session_test

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/phantomrules"
	"github.com/kakure/kakure/protocol/session"
)

// flipsOptions are authMAC64Options with the evaluator's tries by flips
// (MPC-D52, engine.OptionTryFlips).
func flipsOptions(rules engine.PhantomRules) engine.Options {
	o := authMAC64Options(rules)
	o.Own = engine.OptionTryFlips + "=true"
	return o
}

// TestMPCD52InTheInvitation: the evaluator's tries by flips travel in the
// signed invitation's options as "try-flips=true" among the variants' own
// options; they act in checked games of the correlated (or authenticated)
// input OTs only (phantomrules.FlipsOn), the switch changing nothing in
// the others; an invitation without it is a game without flips, as older
// records are.
func TestMPCD52InTheInvitation(t *testing.T) {
	o, err := flipsOptions(engine.RulesCommon).Normalize()
	if err != nil {
		t.Fatal(err)
	}
	if !o.TryFlips() || !phantomrules.FlipsOn(o) {
		t.Fatal("try-flips lost by Normalize")
	}
	b := protocol.OptionsToBody(o)
	if back, err := b.Options(); err != nil || !back.TryFlips() {
		t.Fatalf("round trip: %v, own %q", err, back.Own)
	}
	plain, err := authMAC64Options(engine.RulesCommon).Normalize()
	if err != nil {
		t.Fatal(err)
	}
	if plain.TryFlips() || strings.Contains(protocol.OptionsToBody(plain).Own, engine.OptionTryFlips) {
		t.Fatalf("a game without flips names them: %q", protocol.OptionsToBody(plain).Own)
	}
	bad := o
	bad.Lambda, bad.InputOT = 1, ""
	if n, err := bad.Normalize(); err != nil || phantomrules.FlipsOn(n) {
		t.Errorf("try-flips with λ = 1: %v, flips on %v; want taken and off", err, phantomrules.FlipsOn(n))
	}
	bad = o
	bad.InputOT = engine.InputOTExtension
	if n, err := bad.Normalize(); err != nil || phantomrules.FlipsOn(n) {
		t.Errorf("try-flips with the extension's input OTs: %v, flips on %v; want taken and off", err, phantomrules.FlipsOn(n))
	}
}

// TestMPCD52PhantomGame (T-9): two honest programs play a whole game
// whose evaluator's tries come by flips, over libp2p, both colours for
// the garbler: every try of the evaluator's player is a request, a
// commitment, a choice and then its flips (no phantom-try), nobody is
// accused, and Verify (whose audit replays the flips from the
// evaluator's seed and revealed tries) finds the record clean. In the
// pass without the race detector.
func TestMPCD52PhantomGame(t *testing.T) {
	if phantomRace {
		t.Skip("a whole checked game: in the pass without the race detector")
	}
	t.Parallel() // games of their own, nothing shared
	for _, c := range []struct {
		name  string
		o     engine.Options
		color engine.Color
	}{
		{"authenticated-mac64", flipsOptions(engine.RulesCommon), engine.Black},
		{"correlated", func() engine.Options {
			o := correlatedOptions(engine.RulesKriegspiel)
			o.Own = engine.OptionTryFlips + "=true"
			return o
		}(), engine.White},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := c.o
			o.InviterColor = c.color
			h := playPhantomHooks(t, o, 0, [2]func(*session.Config){}, [2]bot.Player{shortBot(21), shortBot(22)})
			if out := h.Outcome(); out == nil || out.Violation != nil {
				t.Fatalf("outcome %+v, want an honest end", out)
			}
			tr, err := session.LoadTranscript(h.RecordPath())
			if err != nil {
				t.Fatal(err)
			}
			checkFlippedRecord(t, tr)
			if rep := protocol.Verify(tr); rep.Violation != nil {
				t.Errorf("Verify finds %v in an honest game by flips", rep.Violation)
			}
		})
	}
}

// checkFlippedRecord checks the messages of a record of a game whose
// evaluator's tries come by flips (MPC-D52): the evaluator's player's
// tries are flips, each after the try's choice, and none is a
// phantom-try.
func checkFlippedRecord(t *testing.T, tr *protocol.Transcript) {
	t.Helper()
	kinds := map[protocol.Kind]int{}
	var last protocol.Kind
	for _, m := range tr.Messages {
		kinds[m.Kind]++
		if m.Kind == phantomrules.KindFlips && last != phantomrules.KindChoice {
			t.Errorf("flips message %d after %s, want after the choice", m.Seq, last)
		}
		if m.Kind == phantomrules.KindGarbling && last != phantomrules.KindFlips {
			t.Errorf("garbling %d of the evaluator's player's try after %s, want after the flips", m.Seq, last)
		}
		if m.Kind != protocol.KindChat {
			last = m.Kind
		}
	}
	if kinds[phantomrules.KindTry] != 0 || kinds[phantomrules.KindFlips] == 0 ||
		kinds[phantomrules.KindFlips] != kinds[phantomrules.KindGarbling] ||
		kinds[phantomrules.KindOutputs] != kinds[phantomrules.KindChoice] {
		t.Errorf("messages of the record: %v", kinds)
	}
	t.Logf("%d tries by flips of %d", kinds[phantomrules.KindFlips], kinds[phantomrules.KindOutputs])
}

// TestMPCD52PhantomCertificateOfTheGarblingSent (T-8(b)): in a game
// whose evaluator's tries come by flips, a garbler's program sends a
// garbling of a try by flips whose tables differ from the ones it
// committed to. The evaluator's program reports it at once with a
// certificate that carries its signed flips (the judge holds them to the
// record's digest and judges the flips' labels with them); the garbler
// loses, proven, on the evaluator's machine and in Verify: the honest
// evaluator is not blamed.
func TestMPCD52PhantomCertificateOfTheGarblingSent(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	h := playPhantomCheatOpts(t, flipsOptions(engine.RulesKriegspiel), 0, phantomRewrite(2, func(body any) any {
		return session.PhantomTamper(body, 0, flipByte(18+32*7+3))
	}, phantomrules.KindGarbling), nil)
	checkPhantomCaught(t, h, "T-8", "certificate")
	checkNoReveal(t, h)
}

// TestMPCD52PhantomEvaluatorFlipsAnotherTry (T-8, T-14): an evaluator's
// program sends flips of another try than its machine made (a flip of
// its second try's message changed after its machine made it, signed).
// The honest garbler's labels of those flips then differ from what the
// cheater's machine expects, which makes a certificate against the
// garbler with the flips it made: the judge holds them to the record's
// digest, refuses it, and convicts the evaluator of a false accusation,
// on the garbler's machine and in Verify. The honest garbler is never
// the one blamed.
func TestMPCD52PhantomEvaluatorFlipsAnotherTry(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	h := playPhantomCheatOpts(t, flipsOptions(engine.RulesHamburg), 1, phantomRewrite(2, func(body any) any {
		return session.PhantomTamper(body, 0, func(b []byte) []byte {
			b[len(b)-1] ^= 1 // a flip of the try's last coordinate bit
			return b
		})
	}, phantomrules.KindFlips), nil)
	checkPhantomCaught(t, h, "T-14", "flips")
}

// TestMPCD52PhantomCheats is a part of T-8's campaign in games whose
// evaluator's tries come by flips (MPC-D52): a garbler's program that
// commits to garblings its seeds do not give is reported with a
// certificate of an opened garbling; an evaluator's program that
// forwards an output label it did not decode (of a try by flips, or of
// one of the garbler's player's) is named by the audit. Each time the
// cheater loses, proven, and the honest program is not blamed.
func TestMPCD52PhantomCheats(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		cheater int
		setup   func(*session.Config)
		rule    string
		what    string
	}{
		{"garbler-commitment", 0, phantomRewrite(3, func(body any) any {
			return session.PhantomTamper(body, 0, func(b []byte) []byte {
				for i := range 4 {
					b[13+96*i+32+5] ^= 1
				}
				return b
			})
		}, phantomrules.KindCommitment), "T-8", "certificate"},
		{"evaluator-outputs", 1, phantomRewrite(4, func(body any) any {
			return session.PhantomTamper(body, 0, flipByte(6+16+3))
		}, phantomrules.KindOutputs), "T-8", "output labels"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // games of their own
			h := playPhantomCheatOpts(t, flipsOptions(engine.RulesHamburg), c.cheater, c.setup, nil)
			checkPhantomCaught(t, h, c.rule, c.what)
		})
	}
}
