package referee

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
)

// flipsToTheFlips plays, in a new game of cfg (White garbles), the try of
// the evaluator's player (Black) at p up to its flips, made and recorded
// but not given to the garbler; it returns the game, the flips, the
// choice and the request.
func flipsToTheFlips(t testing.TB, cfg Config, p engine.Point) (gm *testGame, flips, choice, req []byte) {
	t.Helper()
	gm = newGameOf(t, cfg, testSeed("flips fuzz g", 0), testSeed("flips fuzz e", 0))
	rev, err := gm.g.ReverseRequest()
	if err != nil {
		t.Fatal(err)
	}
	gm.rec.Tries = append(gm.rec.Tries, RecordReverse(rev))
	last := &gm.rec.Tries[0]
	if err := gm.e.TakeReverse(rev); err != nil {
		t.Fatal(err)
	}
	if req, err = gm.e.Request(p); err != nil {
		t.Fatal(err)
	}
	*last = last.WithRequest(req)
	cm, err := gm.g.Commit(req)
	if err != nil {
		t.Fatal(err)
	}
	*last = last.WithCommitment(cm)
	if choice, err = gm.e.Open(cm); err != nil {
		t.Fatal(err)
	}
	*last = last.WithChoice(choice)
	if flips, err = gm.e.Flips(p); err != nil {
		t.Fatal(err)
	}
	return gm, flips, choice, req
}

// FuzzMPCD52FlipsRefuseGarbage (MPC-D52): arbitrary bytes in place of
// the evaluator's flips given to the garbler (which 0), of the flips in
// a certificate of garbling ĵ (1), of the flips of the try before in a
// certificate against the evaluator's share (2), or of the flips kept
// for the garbler's resume after them (3). Nothing panics. The garbler
// refuses malformed flips as malformed, its machine as it was, and the
// honest flips then go through to the end of the try; well-formed other
// flips are taken (they are the evaluator's word), the evaluator's check
// of the flips' labels then fails, and its certificate, whose flips are
// not the ones recorded, proves nothing. A certificate or a resume with
// other flips than the record's proves nothing or is refused.
func FuzzMPCD52FlipsRefuseGarbage(f *testing.F) {
	allowTryFlips(f)
	cfg := flippedConfig(5, engine.RulesCommon, engine.White, 4, true, "flips fuzz")
	const p = engine.Point(12)
	_, flips, _, _ := flipsToTheFlips(f, cfg, p)
	for which := range 4 {
		f.Add(uint8(which), flips)
		f.Add(uint8(which), flipLast(flips))
		f.Add(uint8(which), flips[:len(flips)-1])
		f.Add(uint8(which), append(bytes.Clone(flips), 0))
	}
	f.Add(uint8(0), []byte("P\x01F"))
	f.Add(uint8(0), []byte{})
	for i := flipsHeader; i < len(flips); i++ {
		// A flip of neither value at each place.
		bad := bytes.Clone(flips)
		bad[i] = 2
		f.Add(uint8(0), bad)
	}

	// A certificate of garbling ĵ: the other value's label of a flip.
	cg := newGameOf(f, cfg, testSeed("flips fuzz cert g", 0), testSeed("flips fuzz cert e", 0))
	cg.g.cheatSend = func(try uint64, j int, own *[]gc.Label, other *[]Digest, cp *copyGarbling) {
		w := cg.g.rc.layout[circuit.Evaluator].FlipX[0]
		in := cp.keys.Inputs[circuit.Garbler][w]
		v := 0
		if (*own)[w] == in[0] {
			v = 1
		}
		(*own)[w], (*other)[w] = in[v], cp.pairs[w][1-v]
	}
	if _, err := cg.play(p); !errors.Is(err, ErrDeviation) || cg.e.Certificate() == nil {
		f.Fatalf("the cheat: %v", err)
	}
	cert := *cg.e.Certificate()
	// A certificate against an evaluator substituting its share in the
	// try after one by flips.
	sg := newGameOf(f, cfg, testSeed("flips fuzz share g", 0), testSeed("flips fuzz share e", 0))
	if _, d := sg.step(p); d != "" {
		f.Fatal(d)
	}
	flipShare(&sg.e.share, engine.White, 7)
	if _, err := sg.play(7); !errors.Is(err, ErrDeviation) || sg.g.ShareCertificate() == nil {
		f.Fatalf("the substitution: %v", err)
	}
	share := *sg.g.ShareCertificate()
	if err := JudgeEvaluatorShare(sg.rec, 1, share); err != nil {
		f.Fatalf("the substitution not convicted: %v", err)
	}

	f.Fuzz(func(t *testing.T, which uint8, junk []byte) {
		switch which % 4 {
		case 0:
			gm, flips, choice, _ := flipsToTheFlips(t, cfg, p)
			err := gm.g.TakeFlips(junk)
			switch {
			case errors.Is(err, ErrMessage):
				if err := gm.g.TakeFlips(flips); err != nil {
					t.Fatalf("the honest flips after garbage: %v", err)
				}
				junk = flips
			case err != nil:
				t.Fatalf("garbage flips refused with %v", err)
			}
			last := &gm.rec.Tries[0]
			*last = last.WithFlips(junk)
			gb, err := gm.g.GarbleChosen(choice, engine.NoPoint)
			if err != nil {
				t.Fatalf("the garbling after flips taken: %v", err)
			}
			*last = last.WithGarbling(gb)
			o, _, err := gm.e.Evaluate(gb)
			if bytes.Equal(junk, flips) {
				if err != nil {
					t.Fatalf("the try with the honest flips: %v", err)
				}
				if _, err := gm.g.Finish(o); err != nil {
					t.Fatalf("the try with the honest flips: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the garbler") {
				t.Fatalf("other flips %x taken by the garbler: the evaluator %v", junk, err)
			}
			if c := gm.e.Certificate(); c != nil {
				if err := JudgeCertificate(gm.rec, 0, *c); !errors.Is(err, ErrNotProven) {
					t.Fatalf("other flips %x taken: the evaluator's certificate judged %v", junk, err)
				}
			}
		case 1:
			c := cert
			c.Flips = junk
			err := JudgeCertificate(cg.rec, 0, c)
			if bytes.Equal(junk, cert.Flips) != (err == nil) || err != nil && !errors.Is(err, ErrNotProven) {
				t.Fatalf("a certificate with flips %x: %v", junk, err)
			}
		case 2:
			c := share
			c.PrevFlips = junk
			err := JudgeEvaluatorShare(sg.rec, 1, c)
			if bytes.Equal(junk, share.PrevFlips) != (err == nil) || err != nil && !errors.Is(err, ErrNotProven) {
				t.Fatalf("a share certificate with flips %x of the try before: %v", junk, err)
			}
		case 3:
			gm, flips, choice, req := flipsToTheFlips(t, cfg, p)
			gm.rec.Tries[0] = gm.rec.Tries[0].WithFlips(flips)
			rG := gm.received[circuit.Garbler]
			k := GarblerKept{BaseStart: rG[0], ReverseAnswer: rG[1], Request: req, Choice: choice, Flips: junk}
			_, err := ResumeGarblerKept(cfg, gm.seeds[0], gm.rec, k)
			if bytes.Equal(junk, flips) != (err == nil) || err != nil && !errors.Is(err, ErrRecord) {
				t.Fatalf("a resume with flips %x kept: %v", junk, err)
			}
		}
	})
}
