package session_test

import (
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// checkedOptions are the options of a 5×5 Phantom Go game whose tries are
// covertly checked with λ = 4 garblings (T-8(b)).
func checkedOptions(rules engine.PhantomRules) engine.Options {
	return engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: rules, Lambda: 4}
}

// TestT8PhantomCheckedGame: two honest programs play a game of Phantom Go
// with λ = 4 over libp2p (the five-message try of T-8(b)); it ends by the
// rules, nobody is accused, the record holds the commitments and choices,
// and Verify finds it clean (the audit replays the checked tries). A
// whole game with its audit, ten times slower under the race detector:
// it runs without it (the certificate and crash tests play
// checked tries under it).
func TestT8PhantomCheckedGame(t *testing.T) {
	if phantomRace {
		t.Skip("a whole checked game: without the race detector (go test ./...)")
	}
	t.Parallel() // a game of its own, nothing shared
	h := playPhantomCheatOpts(t, checkedOptions(engine.RulesCommon), 0, nil, nil)
	if out := h.Outcome(); out == nil || out.Violation != nil {
		t.Fatalf("outcome %+v, want an honest end", out)
	}
	tr, err := session.LoadTranscript(h.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[protocol.Kind]int{}
	for _, m := range tr.Messages {
		kinds[m.Kind]++
	}
	if kinds[phantomrules.KindCommitment] == 0 || kinds[phantomrules.KindCommitment] != kinds[phantomrules.KindChoice] ||
		kinds[phantomrules.KindOutputs] != kinds[phantomrules.KindChoice] {
		t.Errorf("messages of the record: %v", kinds)
	}
	if rep := protocol.Verify(tr); rep.Violation != nil {
		t.Errorf("Verify finds %v in an honest checked game", rep.Violation)
	}
	t.Logf("%d checked tries", kinds[phantomrules.KindChoice])
}

// TestT8PhantomCertificateOfAnOpenedGarbling: a garbler's program commits
// to garblings that its seeds do not give (the tables' digest of every one
// changed, so that whichever the evaluator keeps, an opened one differs).
// The evaluator's program checks the opened garblings while its choice
// travels (MPC-D21) and reports with a certificate before it sends any
// output label, revealing nothing of its own; the garbler loses, proven,
// and Verify finds the same on the record (T-8(b), T-13).
func TestT8PhantomCertificateOfAnOpenedGarbling(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	h := playPhantomCheatOpts(t, checkedOptions(engine.RulesHamburg), 0, phantomRewrite(3, func(body any) any {
		return session.PhantomTamper(body, 0, func(b []byte) []byte {
			for i := range 4 {
				b[13+96*i+32+5] ^= 1
			}
			return b
		})
	}, phantomrules.KindCommitment), nil)
	checkPhantomCaught(t, h, "T-8", "certificate")
	checkNoReveal(t, h)
}

// stallBot never chooses an action: a player that holds back its try.
type stallBot struct{}

func (stallBot) Choose(protocol.View) protocol.Action { return nil }

// TestT8PhantomCertificateWithoutTheGarbling: a garbler's program commits
// to garblings its seeds do not give and, the choice showing it that an
// opened one will be caught, never sends garbling ĵ (its player, to
// move at the first try as Black, holds back its try). The evaluator's
// program checks the opened garblings after its choice (MPC-D21) and
// reports the certificate without waiting for garbling ĵ: the game loop
// polls the check; the garbler loses, proven.
func TestT8PhantomCertificateWithoutTheGarbling(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	o := checkedOptions(engine.RulesCommon)
	o.InviterColor = engine.Black
	h := playPhantomCheatOpts(t, o, 0, phantomRewrite(1, func(body any) any {
		return session.PhantomTamper(body, 0, func(b []byte) []byte {
			for i := range 4 {
				b[13+96*i+32+5] ^= 1
			}
			return b
		})
	}, phantomrules.KindCommitment), stallBot{})
	checkPhantomCaught(t, h, "T-8", "certificate")
	checkNoReveal(t, h)
	tr, err := session.LoadTranscript(h.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range tr.Messages {
		if m.Kind == phantomrules.KindTryGarbling || m.Kind == phantomrules.KindGarbling {
			t.Fatalf("a garbling was sent (%s); the garbler held back its first", m.Kind)
		}
	}
}

// TestT8PhantomCertificateOfTheGarblingSent: a garbler's program sends a
// garbling whose tables differ from the ones it committed to; the
// evaluator's program reports it with a certificate before it evaluates.
func TestT8PhantomCertificateOfTheGarblingSent(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	h := playPhantomCheatOpts(t, checkedOptions(engine.RulesKriegspiel), 0, phantomRewrite(3, func(body any) any {
		return session.PhantomTamper(body, 0, flipByte(18+32*7+3))
	}, phantomrules.KindGarbling, phantomrules.KindTryGarbling), nil)
	checkPhantomCaught(t, h, "T-8", "certificate")
	checkNoReveal(t, h)
}

// TestT14PhantomForgedCertificate: a lying evaluator's program reports an
// honest garbler with a made-up certificate — the true seed of an opened
// garbling (which re-garbles to what was committed), or a seed that is
// not the committed one. The judge refuses it and the liar loses for a
// false accusation (T-14), on the garbler's machine and in Verify: the
// honest garbler is never the one blamed.
func TestT14PhantomForgedCertificate(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	for _, trueSeed := range []bool{true, false} {
		seen := 0
		h := playPhantomCheatOpts(t, checkedOptions(engine.RulesCommon), 1, func(c *session.Config) {
			session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
				if kind != phantomrules.KindChoice {
					return kind, body, false
				}
				if seen++; seen != 3 {
					return kind, body, false
				}
				v, err := session.PhantomForgedCertificate(g, trueSeed)
				if err != nil {
					t.Errorf("forging: %v", err)
					return kind, body, false
				}
				return protocol.KindViolation, v, true
			})
		}, nil)
		checkPhantomCaught(t, h, "T-14", "false accusation (T-8 certificate)")
	}
}

// checkNoReveal checks that the evaluator revealed nothing: its record
// holds no reveal of its seed.
func checkNoReveal(t *testing.T, h *session.Game) {
	t.Helper()
	tr, err := session.LoadTranscript(h.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range tr.Messages {
		if m.Kind == phantomrules.KindReveal && m.From == protocol.Invitee {
			t.Errorf("the evaluator revealed its seed (message %d)", m.Seq)
		}
	}
}

// TestT8LambdaInTheInvitation (T-8(b)): λ travels in the signed
// invitation's options as "lambda", absent for one garbling (older
// invitations, whose tries are not checked); one meaning has one form, so
// "lambda": 1 is refused, and so are λ that are not powers of two up to
// 16, and λ for another variant.
func TestT8LambdaInTheInvitation(t *testing.T) {
	o, err := checkedOptions(engine.RulesCommon).Normalize()
	if err != nil {
		t.Fatal(err)
	}
	b := protocol.OptionsToBody(o)
	if b.Lambda != 4 {
		t.Fatalf("body λ = %d", b.Lambda)
	}
	if back, err := b.Options(); err != nil || back.Lambda != 4 {
		t.Fatalf("round trip: %v, λ = %d", err, back.Lambda)
	}
	b.Lambda = 0
	if back, err := b.Options(); err != nil || back.Lambda != 0 {
		t.Fatalf("without lambda: %v, λ = %d", err, back.Lambda)
	}
	for _, bad := range []int{1, 3, 32, -2} {
		b.Lambda = bad
		if _, err := b.Options(); err == nil {
			t.Errorf("lambda %d accepted", bad)
		}
	}
	if _, err := (engine.Options{Variant: engine.VariantGo, Lambda: 4}).Normalize(); err == nil {
		t.Error("λ accepted for plain Go")
	}
	if n, err := (engine.Options{Variant: engine.VariantPhantom, Lambda: 1}).Normalize(); err != nil || n.Lambda != 0 {
		t.Errorf("λ = 1 normalizes to %d (%v), want 0", n.Lambda, err)
	}
}
