package referee

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
)

// TestT8CertificateOfSentGarbling: a garbler that sends garbling ĵ other
// than it committed to (a table, or an input label that does not open
// its commitment) is caught every time, with a certificate made of its
// own messages.
func TestT8CertificateOfSentGarbling(t *testing.T) {
	for k, form := range []string{"tables", "label", "tables, authenticated", "label, authenticated"} {
		what, auth := strings.CutSuffix(form, ", authenticated")
		gm := newCheckedGame(t, 5, engine.RulesHamburg, engine.White, testSeed("sent g", k), testSeed("sent e", k), 4)
		if auth {
			// The choice of a game of the authenticated state carries
			// the sums and the next seed transfer response (MPC-D29,
			// MPC-D30): the judge reads ĵ from it all the same.
			gm = newAuthGame(t, 5, engine.RulesHamburg, engine.White, testSeed("sent g", k), testSeed("sent e", k), 4, macForms[k%2])
		}
		switch what {
		case "tables":
			gm.tamper = func(_ uint64, msg string, b []byte) []byte {
				if msg == "tables" {
					b[len(b)-1] ^= 1
				}
				return b
			}
		case "label":
			gm.g.cheatSend = func(_ uint64, _ int, own *[]gc.Label, _ *[]Digest, _ *copyGarbling) {
				(*own)[0][3] ^= 4
			}
		}
		_, err := gm.play(engine.Point(12))
		if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the garbler") {
			t.Fatalf("%s: %v", form, err)
		}
		c := gm.e.Certificate()
		if c == nil || c.Opened != -1 {
			t.Fatalf("%s: certificate %+v", form, c)
		}
		if err := JudgeCertificate(gm.rec, 0, *c); err != nil {
			t.Fatalf("%s: certificate not accepted: %v", form, err)
		}
	}
}

// TestT8ForgedCertificateRejected: an evaluator that accuses an honest
// garbler with a made-up certificate is never believed (T-8(b), T-13):
// an opened seed that is its committed one (the garbling matches), a
// seed that is not the committed one, a garbling or commitment that is
// not the record's, a commitment of another try, the honest garbling
// sent.
func TestT8ForgedCertificateRejected(t *testing.T) {
	gm := newCheckedGame(t, 5, engine.RulesCommon, engine.Black, testSeed("forge g", 0), testSeed("forge e", 0), 4)
	var commitments [][]byte
	var choices [][]byte
	gm.tamper = func(_ uint64, msg string, b []byte) []byte {
		switch msg {
		case "commitment":
			commitments = append(commitments, b)
		case "choice":
			choices = append(choices, b)
		}
		return b
	}
	rng := rand.New(rand.NewPCG(1, 2))
	gm.playRandom(rng, 3, nil)
	// The honest garblings sent, from what the evaluator received (five
	// attachments per try after the base OT answer).
	r := gm.received[circuit.Evaluator]
	var garblings []Garbling
	for k := len(r) - 3*5; k < len(r); k += 5 {
		garblings = append(garblings, Garbling{Tables: r[k+2], Labels: r[k+3], Reply: r[k+4]})
	}
	seeds := ggmLevels(gm.g.seed.Derive(labelPVCRoot, 0), 2)[2]
	j := gm.e.choose(0)
	opened := (j + 1) % 4
	forged := map[string]Certificate{
		"opened seed, honest garbling":   {Commitment: commitments[0], Opened: opened, Seed: seeds[opened]},
		"seed not committed to":          {Commitment: commitments[0], Opened: opened, Seed: testSeed("x", 1)},
		"seed of another garbling":       {Commitment: commitments[0], Opened: opened, Seed: seeds[(opened+1)%4]},
		"garbling sent, honest":          {Commitment: commitments[0], Opened: -1, Choice: choices[0], Tables: Sum(garblings[0].Tables), Labels: garblings[0].Labels},
		"tables digest changed":          {Commitment: commitments[0], Opened: -1, Choice: choices[0], Tables: Sum(garblings[1].Tables), Labels: garblings[0].Labels},
		"labels changed":                 {Commitment: commitments[0], Opened: -1, Choice: choices[0], Tables: Sum(garblings[0].Tables), Labels: garblings[1].Labels},
		"labels, one byte changed":       {Commitment: commitments[0], Opened: -1, Choice: choices[0], Tables: Sum(garblings[0].Tables), Labels: oneByteOff(garblings[0].Labels, 13)},
		"label hashes, one byte changed": {Commitment: commitments[0], Opened: -1, Choice: choices[0], Tables: Sum(garblings[0].Tables), Labels: oneByteOff(garblings[0].Labels, len(garblings[0].Labels)-1)},
		"choice of another try":          {Commitment: commitments[0], Opened: -1, Choice: choices[1], Tables: Sum(garblings[0].Tables), Labels: garblings[0].Labels},
		"commitment of another try":      {Commitment: commitments[1], Opened: opened, Seed: seeds[opened]},
		"index out of range":             {Commitment: commitments[0], Opened: 9, Seed: seeds[opened]},
	}
	for name, c := range forged {
		err := JudgeCertificate(gm.rec, 0, c)
		if !errors.Is(err, ErrNotProven) {
			t.Errorf("%s: %v, want ErrNotProven", name, err)
		}
		t.Logf("%s: %v", name, err)
	}
	// With the right messages the seed check alone does not convict.
	if err := VerifyCertificate(gm.cfg, forged["opened seed, honest garbling"]); !errors.Is(err, ErrNotProven) {
		t.Errorf("VerifyCertificate on an honest garbling: %v", err)
	}
	// The boundary of the labels' binding: labels one byte off the
	// record's do not open the commitment, so on their own (without the
	// record) they would convict the honest garbler; only the record's
	// digest of the labels sent keeps them out.
	for _, name := range []string{"labels, one byte changed", "label hashes, one byte changed"} {
		if err := VerifyCertificate(gm.cfg, forged[name]); err != nil {
			t.Errorf("%s: VerifyCertificate alone says %v; the test no longer shows what the record's binding of Labels guards", name, err)
		}
	}
}

// oneByteOff returns a copy of b with byte k flipped in one bit.
func oneByteOff(b []byte, k int) []byte {
	b = append([]byte(nil), b...)
	b[k] ^= 1
	return b
}

// TestT8JudgeRefusesCommitmentOfAnotherMover: a certificate judges the
// garblings of the circuit of the mover the record gives the try. A
// commitment that names the other mover (or another try) is malformed:
// the evaluator refuses it at once as a message (ErrMessage, T-10), it
// is no deviation to convict on, and a certificate built on it proves
// nothing — though re-garbling the opened seed for the mover it names
// gives digests other than the honest ones it commits to, so that
// VerifyCertificate alone would convict.
func TestT8JudgeRefusesCommitmentOfAnotherMover(t *testing.T) {
	for _, field := range []string{"mover", "try"} {
		gm := newCheckedGame(t, 5, engine.RulesCommon, engine.Black, testSeed("mover g", 0), testSeed("mover e", 0), 4)
		var commitment []byte
		gm.tamper = func(_ uint64, msg string, b []byte) []byte {
			if msg == "commitment" {
				switch field {
				case "mover":
					b[11] ^= 1 // circuit.Garbler ↔ circuit.Evaluator
				case "try":
					b[10] ^= 1
				}
				commitment = b
			}
			return b
		}
		if _, err := gm.play(engine.Point(12)); !errors.Is(err, ErrMessage) {
			t.Fatalf("%s: a commitment naming another %s: %v, want ErrMessage", field, field, err)
		}
		seeds := ggmLevels(gm.g.seed.Derive(labelPVCRoot, 0), 2)[2]
		opened := (gm.e.choose(0) + 1) % 4
		c := Certificate{Commitment: commitment, Opened: opened, Seed: seeds[opened]}
		if field == "mover" {
			if err := VerifyCertificate(gm.cfg, c); err != nil {
				t.Fatalf("VerifyCertificate of the commitment naming the other mover: %v; the test no longer shows what the judge's mover check guards", err)
			}
		}
		if err := JudgeCertificate(gm.rec, 0, c); !errors.Is(err, ErrNotProven) {
			t.Fatalf("%s: a certificate on a commitment naming another %s: %v, want ErrNotProven", field, field, err)
		}
	}
}

// TestT8AuditNamesChangedGarbling: a garbling changed before the
// commitment and not caught during the try (it was garbling ĵ) is named
// by the end audit (T-8(c)), which re-derives the commitment from the
// garbler's seed.
func TestT8AuditNamesChangedGarbling(t *testing.T) {
	for _, scheme := range []gc.Scheme{gc.HalfGates, gc.ThreeHalves} {
		gm := newSchemeGame(t, 5, engine.RulesCommon, engine.Black, testSeed("audit g", 0), testSeed("audit e", 0), 4, scheme)
		j := gm.e.choose(0)
		gm.g.cheatCopy = func(_ uint64, i int, g *gc.Garbled, _ *gc.Keys) {
			if i == j {
				// With three-halves the last decoding bit carries a mask
				// of the garbler's next share (MPC-D27): a wrong mask.
				k := 0
				if scheme == gc.ThreeHalves {
					k = len(g.Decoding) - 1
				}
				g.Decoding[k] = !g.Decoding[k]
			}
		}
		_, err := gm.play(engine.Point(6))
		if gm.e.Certificate() != nil {
			t.Fatalf("%v: a certificate on garbling ĵ changed before the commitment: %v", scheme, err)
		}
		_, err = Audit(gm.rec, gm.reveals())
		var f *Fault
		if !errors.As(err, &f) || f.Party != circuit.Garbler || f.Message != "commitment" || f.Try != 0 {
			t.Fatalf("%v: audit: %v, want the garbler's commitment of try 0", scheme, err)
		}
	}
}

// TestT8AuditCatchesUncheckedOpenedGarbling: the audit does not garble
// the opened garblings again on the evaluator's side (MPC-D22), yet a
// garbling changed before the commitment and opened, which an evaluator
// that does not check (impossible for an honest one) let through, is
// still named by the audit: the replayed garbler's commitment differs
// from the record's. The honest game audits clean.
func TestT8AuditCatchesUncheckedOpenedGarbling(t *testing.T) {
	cheats := []string{"table", "decoding bit", "label"}
	if raceEnabled {
		cheats = cheats[:1] // the race detector's pass keeps its time
	}
	for _, what := range cheats {
		gm := newCheckedGame(t, 5, engine.RulesCommon, engine.Black, testSeed("unchecked g", 0), testSeed("unchecked e", 0), 4)
		gm.e.unchecked = true
		gm.playRandom(rand.New(rand.NewPCG(5, 5)), 3, nil)
		if _, err := Audit(gm.rec, gm.reveals()); err != nil {
			t.Fatalf("honest game: %v", err)
		}
		try := gm.e.pub.Try
		opened := (gm.e.choose(try) + 1) % 4
		gm.g.cheatCopy = func(_ uint64, i int, g *gc.Garbled, k *gc.Keys) {
			if i != opened {
				return
			}
			switch what {
			case "table":
				g.Tables[9] ^= 4
			case "decoding bit":
				g.Decoding[0] = !g.Decoding[0]
			default:
				k.Inputs[circuit.Garbler][0][0][3] ^= 1
				k.Inputs[circuit.Garbler][0][1][3] ^= 1
			}
		}
		if _, err := gm.play(randomTry(rand.New(rand.NewPCG(6, 6)), gm.ref, engine.NoPoint)); err != nil {
			t.Fatalf("%s: the evaluator that does not check caught it: %v", what, err)
		}
		_, err := Audit(gm.rec, gm.reveals())
		var f *Fault
		if !errors.As(err, &f) || f.Party != circuit.Garbler || f.Message != "commitment" || f.Try != int(try) {
			t.Fatalf("%s: audit: %v, want the garbler's commitment of try %d", what, err, try)
		}
	}
}
