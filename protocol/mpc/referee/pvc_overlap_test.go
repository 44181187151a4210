package referee

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/gc"
)

// TestMPCD42OpenedCertificateBeforeChosenGarbling: Evaluate makes the
// digests of garbling ĵ while the check of the opened garblings runs
// (MPC-D42), and still takes the check's result first: a garbler that
// changed every garbling before committing and also sends garbling ĵ
// other than committed is convicted by the certificate of an opened
// garbling (the stronger finding of MPC-D21), which JudgeCertificate
// accepts, in a plain checked game and in one of the authenticated state.
func TestMPCD42OpenedCertificateBeforeChosenGarbling(t *testing.T) {
	for k, auth := range []bool{false, true} {
		gm := newCheckedGame(t, 5, engine.RulesCommon, engine.Black, testSeed("d42 g", k), testSeed("d42 e", k), 4)
		if auth {
			gm = newAuthGame(t, 5, engine.RulesCommon, engine.Black, testSeed("d42 g", k), testSeed("d42 e", k), 4, macForms[0])
		}
		rng := rand.New(rand.NewPCG(42, uint64(k)))
		gm.g.cheatCopy = func(_ uint64, _ int, g *gc.Garbled, _ *gc.Keys) {
			g.Tables[rng.IntN(len(g.Tables))] ^= 1 << rng.IntN(8)
		}
		gm.tamper = func(_ uint64, msg string, b []byte) []byte {
			if msg == "tables" {
				b[len(b)-1] ^= 1
			}
			return b
		}
		_, err := gm.play(engine.Point(12))
		if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the garbler") {
			t.Fatalf("auth %v: %v", auth, err)
		}
		c := gm.e.Certificate()
		if c == nil || c.Opened < 0 || c.Opened == gm.e.choose(0) {
			t.Fatalf("auth %v: certificate %+v, want one of an opened garbling", auth, c)
		}
		if err := JudgeCertificate(gm.rec, 0, *c); err != nil {
			t.Fatalf("auth %v: certificate not accepted: %v", auth, err)
		}
	}
}

// TestMPCD43SeedResponseAheadSameChoice: the choice whose next seed
// transfer response was made on its own goroutine from the request on
// (MPC-D43) is byte for byte the choice made with it inline, try after
// try, and the games go on alike.
func TestMPCD43SeedResponseAheadSameChoice(t *testing.T) {
	ahead := newAuthGame(t, 5, engine.RulesCommon, engine.Black, testSeed("d43 g", 0), testSeed("d43 e", 0), 4, macForms[1])
	inline := newAuthGame(t, 5, engine.RulesCommon, engine.Black, testSeed("d43 g", 0), testSeed("d43 e", 0), 4, macForms[1])
	dropped := 0
	inline.tamper = func(_ uint64, msg string, b []byte) []byte {
		if msg == "request" && inline.e.cur != nil && inline.e.cur.checked != nil && inline.e.cur.checked.next != nil {
			inline.e.cur.checked.next = nil
			dropped++
		}
		return b
	}
	rng := rand.New(rand.NewPCG(43, 0))
	last := engine.NoPoint
	for try := 0; try < 8 && !ahead.ref.PlayEnded(); try++ {
		p := randomTry(rng, ahead.ref, last)
		mover := ahead.ref.ToMove()
		if _, err := ahead.play(p); err != nil {
			t.Fatal(err)
		}
		if _, err := inline.play(p); err != nil {
			t.Fatal(err)
		}
		next, _, err := ahead.ref.Try(mover, p)
		if err != nil {
			t.Fatal(err)
		}
		ahead.ref, inline.ref = next, next
		if p != engine.Pass {
			last = p
		}
	}
	if dropped == 0 {
		t.Fatal("no response was made ahead")
	}
	a, b := ahead.rec.Tries, inline.rec.Tries
	if len(a) != len(b) {
		t.Fatalf("%d and %d tries", len(a), len(b))
	}
	for i := range a {
		if a[i].Choice != b[i].Choice {
			t.Fatalf("try %d: the choice with the response made ahead differs from the one made inline", i)
		}
		if a[i] != b[i] {
			t.Fatalf("try %d: the records differ", i)
		}
	}
}
