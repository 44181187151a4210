package referee

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// TestT8AuthCertificatesAfterAResume (MPC-D29, PN-D9): the honest party
// is rebuilt from its record between two tries (its machine then holds
// none of the try before's messages), and the other substitutes its
// share in the first try after. With the messages of the try before
// given back (ResumeAuthEvidence: what the session keeps in its secrets
// and by digest) the certificate is whole and the judge accepts it;
// without them it lacks the try before's messages (the session then
// accuses and the audit decides). Both sides: a resumed garbler against
// a substituting evaluator, a resumed evaluator against a substituting
// garbler. Messages that are not the record's are refused.
func TestT8AuthCertificatesAfterAResume(t *testing.T) {
	for _, macBits := range macForms {
		for _, cheater := range []circuit.Party{circuit.Evaluator, circuit.Garbler} {
			for _, evidence := range []bool{true, false} {
				resumeThenSubstitute(t, macBits, cheater, evidence)
			}
		}
	}
}

// resumeThenSubstitute is TestT8AuthCertificatesAfterAResume's game: the
// party that is not cheater resumed after two tries or more, with its
// messages of the try before given back if evidence, and cheater
// substituting its share in the next try.
func resumeThenSubstitute(t *testing.T, macBits int, cheater circuit.Party, evidence bool) {
	gm := newAuthGame(t, 5, engine.RulesCommon, engine.White, testSeed("resume cert g", int(cheater)), testSeed("resume cert e", int(cheater)), 4, macBits)
	msgs := authMessages(gm)
	rng := rand.New(rand.NewPCG(uint64(cheater), 41))
	gm.playRandom(rng, 2, nil)
	for gm.cfg.PartyOf(gm.ref.ToMove()) != cheater {
		gm.step(randomTry(rng, gm.ref, engine.NoPoint))
	}
	gm.tamper = nil
	last := len(gm.rec.Tries) - 1
	tr := gm.rec.Tries[last]
	rG, rE := gm.received[circuit.Garbler], gm.received[circuit.Evaluator]
	if cheater == circuit.Evaluator {
		g2, err := ResumeGarblerKept(gm.cfg, gm.seeds[0], gm.rec, GarblerKept{BaseStart: rG[0], ReverseAnswer: rG[1], Tries: gm.g.Tries(), PrevChoice: msgs["choice"][last]})
		if err != nil {
			t.Fatal(err)
		}
		if evidence {
			// Each message changed in its last byte: refused as
			// not the record's.
			in := [][]byte{msgs["request"][last], msgs["commitment"][last], msgs["labels"][last]}
			for i := range in {
				bad := append([][]byte(nil), in...)
				bad[i] = flipLast(bad[i])
				if err := g2.ResumeAuthEvidence(tr, bad[0], bad[1], bad[2]); !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), "recorded") {
					t.Fatalf("the garbler's message %d changed taken: %v", i, err)
				}
			}
			if err := g2.ResumeAuthEvidence(tr, in[0], in[1], in[2]); err != nil {
				t.Fatalf("the garbler's evidence: %v", err)
			}
		}
		gm.g = g2
	} else {
		e2, err := ResumeAuthenticatedEvaluator(gm.cfg, gm.seeds[1], rE[0], rE[1], nil, gm.rec, gm.e.Tries(), gm.e.Share(), gm.e.EncodeAuth(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if evidence {
			in := [][]byte{msgs["commitment"][last], msgs["reverse"][last], msgs["choice"][last]}
			for i := range in {
				bad := append([][]byte(nil), in...)
				bad[i] = flipLast(bad[i])
				if err := e2.ResumeAuthEvidence(tr, uint64(last), bad[0], bad[1], bad[2]); !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), "recorded") {
					t.Fatalf("the evaluator's message %d changed taken: %v", i, err)
				}
			}
			if err := e2.ResumeAuthEvidence(tr, uint64(last), in[0], in[1], in[2]); err != nil {
				t.Fatalf("the evaluator's evidence: %v", err)
			}
		}
		gm.e = e2
	}
	at := len(gm.rec.Tries)
	p := engine.Point(rng.IntN(25))
	if cheater == circuit.Evaluator {
		flipShare(&gm.e.share, engine.White, p)
	} else {
		flipShare(&gm.g.share, engine.White, p)
	}
	_, err := gm.play(p)
	if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the "+cheater.String()) {
		t.Fatalf("%v: a substituted share after a resume: %v, want ErrDeviation blaming it", cheater, err)
	}
	var judged error
	var whole bool
	if cheater == circuit.Evaluator {
		c := gm.g.ShareCertificate()
		if c == nil {
			t.Fatal("no certificate")
		}
		whole = c.PrevCommitment != nil && c.PrevRequestPart != nil && c.PrevCorrections != nil && c.PrevChoice != nil && c.PrevLabels != nil
		judged = JudgeEvaluatorShare(gm.rec, at, *c)
	} else {
		c := gm.e.ShareCertificate()
		if c == nil {
			t.Fatal("no certificate")
		}
		whole = c.PrevCommitment != nil && c.PrevMAC != nil && c.PrevChoice != nil
		judged = JudgeGarblerShare(gm.rec, at, *c)
	}
	switch {
	case evidence && (!whole || judged != nil):
		t.Errorf("%s: %v caught after the other's resume: certificate whole %v, judged %v", macName(macBits), cheater, whole, judged)
	case !evidence && whole:
		t.Errorf("%v caught after the other's resume without the evidence: a whole certificate", cheater)
	case !evidence && judged == nil:
		t.Errorf("%v: a certificate without the try before's messages accepted", cheater)
	}
	t.Logf("%s: %v substitutes at try %d after the other's resume, evidence %v: whole %v, judged %v", macName(macBits), cheater, at, evidence, whole, judged)
}

// flipLast returns a copy of b with its last byte changed.
func flipLast(b []byte) []byte {
	out := append([]byte(nil), b...)
	out[len(out)-1] ^= 1
	return out
}
