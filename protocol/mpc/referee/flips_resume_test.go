package referee

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
)

// tryLog is every message of a test game by try and name (the names of
// testGame.send).
type tryLog map[uint64]map[string][]byte

func (l tryLog) put(try uint64, what string, b []byte) {
	if l[try] == nil {
		l[try] = map[string][]byte{}
	}
	l[try][what] = bytes.Clone(b)
}

// get returns the message what of try, nil if there is none (or no such
// try).
func (l tryLog) get(try uint64, what string) []byte {
	if try == ^uint64(0) {
		return nil
	}
	return l[try][what]
}

// logging makes gm log every message it sends into l.
func (gm *testGame) logging(l tryLog) {
	gm.tamper = func(try uint64, what string, b []byte) []byte {
		l.put(try, what, b)
		return b
	}
}

// resumeEvaluatorOf rebuilds gm's evaluator from rec (ResumeAuthenticated-
// or ResumeCorrelatedEvaluator, as the game is).
func (gm *testGame) resumeEvaluatorOf(rec Record, tries []engine.Point, share circuit.RefereeState, auth, reverse []byte, kept *KeptOpening) (*Evaluator, error) {
	rE := gm.received[circuit.Evaluator]
	if gm.cfg.authenticated() {
		return ResumeAuthenticatedEvaluator(gm.cfg, gm.seeds[1], rE[0], rE[1], reverse, rec, tries, share, auth, kept)
	}
	return ResumeCorrelatedEvaluator(gm.cfg, gm.seeds[1], rE[0], rE[1], reverse, rec, tries, share, kept)
}

// cutTry plays try p of gm by hand, message by message, and rebuilds both
// machines from the record and what a session keeps once the record holds
// cut messages of the try (-1: between tries; 0: the reverse request;
// then the request, the commitment, the choice, the flips of a try by
// flips, the garbling; at the garbling the evaluator evaluated first and
// resumes from the record completed with its outputs, as a session that
// saves them before it records the garbling). It checks that what the
// rebuilt machines make again is what was sent, byte for byte; every
// message goes into l. Before the rebuild the audit of the record so far
// must pass with what each party would reveal then.
func cutTry(t *testing.T, gm *testGame, p engine.Point, cut int, l tryLog) [2]phantom.Announcement {
	t.Helper()
	cfg := gm.cfg
	pub := gm.e.Public()
	try := pub.Try
	mover := cfg.PartyOf(pub.ToMove)
	flipped := cfg.flipped(mover)
	garbled := cfg.MessagesOf(mover) - 1
	share, auth := gm.e.Share(), gm.e.EncodeAuth()
	triesG, triesE := gm.g.Tries(), gm.e.Tries()
	if mover == circuit.Garbler {
		triesG = append(triesG, p)
	}
	var rev, req, choice, flips []byte
	var cm Commitment
	var kept *KeptOpening
	var gb Garbling
	var o Outputs
	var annE phantom.Announcement
	put := func(what string, b []byte) { l.put(try, what, b) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("try %d cut %d: %v", try, cut, err)
		}
	}
	restart := func(sent int) {
		t.Helper()
		if _, err := Audit(gm.rec, gm.reveals()); err != nil {
			t.Fatalf("try %d (by the %v), %d messages: the audit of the record so far: %v", try, mover, sent, err)
		}
		k := GarblerKept{BaseStart: gm.received[circuit.Garbler][0], ReverseAnswer: gm.received[circuit.Garbler][1], Tries: triesG}
		if cfg.authenticated() {
			k.PrevChoice, k.PrevFlips = l.get(try-1, "choice"), l.get(try-1, "flips")
		}
		if sent >= 1 {
			k.Request = req
		}
		if sent >= 3 {
			k.Choice = choice
		}
		if flipped && sent >= 4 {
			k.Flips = flips
			// Without them, or with others, the resume is refused.
			for _, bad := range [][]byte{nil, flipLast(flips)} {
				kb := k
				kb.Flips = bad
				if _, err := ResumeGarblerKept(cfg, gm.seeds[0], gm.rec, kb); !errors.Is(err, ErrRecord) {
					t.Fatalf("try %d: the garbler resumed after the flips with flips %x: %v", try, bad, err)
				}
			}
		}
		if k.PrevFlips != nil {
			for _, bad := range [][]byte{nil, flipLast(k.PrevFlips)} {
				kb := k
				kb.PrevFlips = bad
				if _, err := ResumeGarblerKept(cfg, gm.seeds[0], gm.rec, kb); !errors.Is(err, ErrRecord) {
					t.Fatalf("try %d: the garbler resumed with flips %x of the try before: %v", try, bad, err)
				}
			}
		}
		g2, err := ResumeGarblerKept(cfg, gm.seeds[0], gm.rec, k)
		if err != nil {
			t.Fatalf("try %d (by the %v), %d messages: the garbler: %v", try, mover, sent, err)
		}
		switch start, again := g2.AgainReverse(); {
		case sent == 0 && !bytes.Equal(again, rev):
			t.Fatalf("try %d: the reverse request made again differs", try)
		case sent >= 2 && (g2.AgainCommitment() == nil || !bytes.Equal(g2.AgainCommitment().Commitments, cm.Commitments) || !bytes.Equal(g2.AgainCommitment().Reply, cm.Reply)):
			t.Fatalf("try %d: the commitment made again differs", try)
		case sent < 2 && start == nil:
			t.Fatalf("try %d: no reverse setup message made again", try)
		}
		var e2 *Evaluator
		if sent < garbled {
			te := triesE
			if flipped && sent >= 4 {
				// Kept from the flips on, not before (its player may
				// not have played yet).
				te = append(te, p)
				if _, err := gm.resumeEvaluatorOf(gm.rec, triesE, share, auth, rev, kept); !errors.Is(err, ErrRecord) {
					t.Fatalf("try %d: the evaluator resumed after its flips without its try: %v", try, err)
				}
				other := engine.Pass
				if p == engine.Pass {
					other = 0
				}
				if _, err := gm.resumeEvaluatorOf(gm.rec, append(append([]engine.Point(nil), triesE...), other), share, auth, rev, kept); !errors.Is(err, ErrRecord) {
					t.Fatalf("try %d: the evaluator resumed after its flips with another try: %v", try, err)
				}
			}
			var reverse []byte
			if sent >= 0 {
				reverse = rev
			}
			var kp *KeptOpening
			if sent >= 2 {
				kp = kept
			}
			e2, err = gm.resumeEvaluatorOf(gm.rec, te, share, auth, reverse, kp)
			if err != nil {
				t.Fatalf("try %d (by the %v), %d messages: the evaluator: %v", try, mover, sent, err)
			}
			_, againReq := e2.Again()
			switch {
			case sent >= 1 && !bytes.Equal(againReq, req):
				t.Fatalf("try %d: the request made again differs", try)
			case sent >= 2 && !bytes.Equal(e2.AgainChoice(), choice):
				t.Fatalf("try %d: the choice made again differs", try)
			case flipped && sent >= 4 && !bytes.Equal(e2.AgainFlips(), flips):
				t.Fatalf("try %d: the flips made again differ", try)
			case !(flipped && sent >= 4) && e2.AgainFlips() != nil:
				t.Fatalf("try %d, %d messages: flips made again", try, sent)
			}
		} else {
			_, again := g2.Again()
			if again == nil || !bytes.Equal(again.Tables, gb.Tables) || !bytes.Equal(again.Labels, gb.Labels) || !bytes.Equal(again.Reply, gb.Reply) {
				t.Fatalf("try %d: the garbling made again differs", try)
			}
			rec := gm.rec
			rec.Tries = append([]TryRecord(nil), rec.Tries...)
			rec.Tries[len(rec.Tries)-1] = rec.Tries[len(rec.Tries)-1].WithOutputs(o)
			e2, err = gm.resumeEvaluatorOf(rec, gm.e.Tries(), gm.e.Share(), gm.e.EncodeAuth(), nil, nil)
			if err != nil {
				t.Fatalf("try %d: the evaluator after its outputs: %v", try, err)
			}
		}
		gm.g, gm.e = g2, e2
	}
	if cut == -1 {
		restart(-1)
	}
	rev, err := gm.g.ReverseRequest()
	must(err)
	put("reverse", rev)
	gm.rec.Tries = append(gm.rec.Tries, RecordReverse(rev))
	last := &gm.rec.Tries[len(gm.rec.Tries)-1]
	must(gm.e.TakeReverse(rev))
	if cut == 0 {
		restart(0)
	}
	req, err = gm.e.Request(p)
	must(err)
	put("request", req)
	*last = last.WithRequest(req)
	must(gm.g.CheckRequest(req))
	if cut == 1 {
		restart(1)
	}
	cm, err = gm.g.Commit(req)
	must(err)
	put("commitment", cm.Commitments)
	put("commitment-reply", cm.Reply)
	*last = last.WithCommitment(cm)
	choice, err = gm.e.Open(cm)
	must(err)
	kept = gm.e.Kept()
	if cut == 2 {
		restart(2)
		choice = gm.e.AgainChoice()
	}
	put("choice", choice)
	*last = last.WithChoice(choice)
	if cut == 3 {
		restart(3)
	}
	if flipped {
		flips, err = gm.e.Flips(p)
		must(err)
		put("flips", flips)
		*last = last.WithFlips(flips)
		must(gm.g.TakeFlips(flips))
		if cut == 4 {
			restart(4)
			if _, err := gm.e.Flips(p); !errors.Is(err, ErrState) {
				t.Fatalf("try %d: flips again after a resume that made them: %v", try, err)
			}
		}
	}
	gb, err = gm.g.GarbleChosen(choice, p)
	must(err)
	put("tables", gb.Tables)
	put("labels", gb.Labels)
	put("reply", gb.Reply)
	*last = last.WithGarbling(gb)
	o, annE, err = gm.e.Evaluate(gb)
	must(err)
	if cut == garbled {
		restart(garbled)
	}
	put("outputs", o.Labels)
	*last = last.WithOutputs(o)
	annG, err := gm.g.Finish(o)
	must(err)
	next, _, err := gm.ref.Try(gm.ref.ToMove(), p)
	must(err)
	gm.ref = next
	ann := [2]phantom.Announcement{annG, annE}
	for party := range 2 {
		gm.views[party] = append(gm.views[party], ann[party])
	}
	return ann
}

// TestMPCD52ResumeFlippedTries (MPC-D52, MPC-D53, MPC-D16, PN-D9): in games whose
// evaluator's tries come by flips, with and without the authenticated
// state, both machines are rebuilt from the record and what a session
// keeps (ResumeGarblerKept; the evaluator's resume with its try kept
// from its flips on) at every message boundary of a try by flips
// (between tries, after the reverse request, the request, the
// commitment, the choice, the flips, the garbling) and of a garbler's
// try; what they make again is what was sent, and the game goes on to
// the end exactly as its twin without a restart: every message byte for
// byte, the record, the announcements, the shares, the tries. The audit
// of the record passes at every cut (with what each party would reveal
// then: the evaluator's try by flips not before its flips) and at the
// end.
func TestMPCD52ResumeFlippedTries(t *testing.T) {
	allowTryFlips(t)
	for i, c := range []struct {
		lambda  int
		auth    bool
		garbler engine.Color
	}{{4, true, engine.White}, {2, false, engine.Black}, {4, false, engine.White}, {2, true, engine.Black}} {
		t.Run(fmt.Sprintf("lambda-%d-auth-%v-garbler-%v", c.lambda, c.auth, c.garbler), func(t *testing.T) {
			cfg := flippedConfig(5, allRules[i%3], c.garbler, c.lambda, c.auth, fmt.Sprintf("flips resume %d", i))
			seedG, seedE := testSeed("flips resume g", i), testSeed("flips resume e", i)
			// The twin without a restart.
			twin := newGameOf(t, cfg, seedG, seedE)
			lt := tryLog{}
			twin.logging(lt)
			rng := rand.New(rand.NewPCG(uint64(i), 52))
			var points []engine.Point
			var shares []circuit.RefereeState
			last := engine.NoPoint
			for len(points) < 30 && !twin.ref.PlayEnded() {
				p := randomTry(rng, twin.ref, last)
				if _, d := twin.step(p); d != "" {
					t.Fatal(d)
				}
				points = append(points, p)
				shares = append(shares, twin.e.Share())
				if p != engine.Pass {
					last = p
				}
			}
			// The same game with restarts.
			gm := newGameOf(t, cfg, seedG, seedE)
			lg := tryLog{}
			cuts := map[bool][]int{true: {-1, 0, 1, 2, 3, 4, 5}, false: {-1, 0, 1, 2, 3, 4}}
			done := map[bool]int{}
			for k, p := range points {
				flipped := cfg.flipped(cfg.PartyOf(gm.e.Public().ToMove))
				if todo := cuts[flipped]; done[flipped] < len(todo) {
					gm.tamper = nil
					cutTry(t, gm, p, todo[done[flipped]], lg)
					done[flipped]++
				} else {
					gm.logging(lg)
					if _, err := gm.play(p); err != nil {
						t.Fatalf("try %d after the restarts: %v", k, err)
					}
					gm.ref, _, _ = gm.ref.Try(gm.ref.ToMove(), p)
				}
				if !reflect.DeepEqual(gm.e.Share(), shares[k]) {
					t.Fatalf("try %d: the evaluator's share differs from its twin's", k)
				}
			}
			if done[true] < len(cuts[true]) || done[false] < len(cuts[false]) {
				t.Fatalf("cuts left: %v of %v", done, cuts)
			}
			if !reflect.DeepEqual(lg, lt) {
				for try, m := range lt {
					for what, b := range m {
						if !bytes.Equal(lg[try][what], b) {
							t.Errorf("try %d: the %s differs from its twin's", try, what)
						}
					}
				}
				t.Fatalf("the messages differ from the twin's")
			}
			// (The seed commitments are randomized: only they differ.)
			if r := twin.rec; func() bool { r.SeedCommitments = gm.rec.SeedCommitments; return !reflect.DeepEqual(gm.rec, r) }() {
				for k := range twin.rec.Tries {
					if k >= len(gm.rec.Tries) || gm.rec.Tries[k] != twin.rec.Tries[k] {
						t.Errorf("try %d: %+v, the twin's %+v", k, gm.rec.Tries[k], twin.rec.Tries[k])
					}
				}
				r1, r2 := gm.rec, twin.rec
				r1.Tries, r2.Tries = nil, nil
				t.Fatalf("the record differs from the twin's: %+v\n%+v", r1, r2)
			}
			if !reflect.DeepEqual(gm.views, twin.views) {
				t.Fatal("the announcements differ from the twin's")
			}
			if fmt.Sprint(gm.g.Tries(), gm.e.Tries()) != fmt.Sprint(twin.g.Tries(), twin.e.Tries()) {
				t.Fatalf("the tries %v %v, the twin's %v %v", gm.g.Tries(), gm.e.Tries(), twin.g.Tries(), twin.e.Tries())
			}
			if _, err := Audit(gm.rec, gm.reveals()); err != nil {
				t.Fatalf("the audit: %v", err)
			}
			t.Logf("%d tries, %d and %d restarts", len(points), done[true], done[false])
		})
	}
}

// TestMPCD52PrevFlipsCertificate (MPC-D52, MPC-D53 point 4, MPC-D29): the certificate
// against an evaluator whose share inputs are not its share carries the
// garbler's labels of the try before, which the judge opens against
// their commitment; when that try came by flips, the flips place the
// flip wires' labels, and the certificate carries the evaluator's flips
// (PrevFlips), held to the record's digest. An evaluator substituting its
// share in the try after one by flips is convicted: after its own try by
// flips legal (the garbler's try next), after it illegal (its own try
// again), and with the garbler resumed between the two tries (the flips
// of the try before kept, GarblerKept.PrevFlips, and the evidence given
// back). Other or no flips in the certificate prove nothing. An honest
// evaluator is never convicted: a garbler that flips decoding bits of
// the state outputs of garbling ĵ of the try by flips (which substitutes
// the evaluator's share) holds a certificate the judge refuses.
func TestMPCD52PrevFlipsCertificate(t *testing.T) {
	allowTryFlips(t)
	for _, c := range []struct {
		name   string
		before []engine.Point // White garbles: Black, the evaluator's player, tries first
		resume bool
		frame  bool
	}{
		{"after-a-legal-try", []engine.Point{12}, false, false},
		{"after-an-illegal-try", []engine.Point{12, 13, 13}, false, false},
		{"after-a-resume", []engine.Point{12}, true, false},
		{"honest-evaluator-framed", []engine.Point{12}, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := flippedConfig(5, engine.RulesCommon, engine.White, 4, true, "prev flips "+c.name)
			gm := newGameOf(t, cfg, testSeed("prev flips g", len(c.name)), testSeed("prev flips e", len(c.name)))
			l := tryLog{}
			gm.logging(l)
			if c.frame {
				j0 := gm.e.choose(0)
				gm.g.cheatCopy = func(try uint64, i int, g *gc.Garbled, _ *gc.Keys) {
					if try == 0 && i == j0 {
						lo := gm.g.rc.layout[circuit.Evaluator]
						for _, o := range canonicalPositions(lo.ShareOut, engine.Black) {
							g.Decoding[o] = !g.Decoding[o]
						}
					}
				}
			}
			for _, p := range c.before {
				if _, d := gm.step(p); d != "" && !c.frame {
					t.Fatal(d)
				}
			}
			at := len(gm.rec.Tries)
			if !cfg.flipped(cfg.PartyOf(engine.Black)) || l.get(uint64(at-1), "flips") == nil {
				t.Fatal("the try before did not come by flips")
			}
			if c.resume {
				tr := gm.rec.Tries[at-1]
				k := GarblerKept{BaseStart: gm.received[circuit.Garbler][0], ReverseAnswer: gm.received[circuit.Garbler][1], Tries: gm.g.Tries(),
					PrevChoice: l.get(uint64(at-1), "choice"), PrevFlips: l.get(uint64(at-1), "flips")}
				g2, err := ResumeGarblerKept(cfg, gm.seeds[0], gm.rec, k)
				if err != nil {
					t.Fatal(err)
				}
				if err := g2.ResumeAuthEvidence(tr, l.get(uint64(at-1), "request"), l.get(uint64(at-1), "commitment"), l.get(uint64(at-1), "labels")); err != nil {
					t.Fatal(err)
				}
				gm.g = g2
			}
			p := engine.Point(7)
			if !c.frame {
				flipShare(&gm.e.share, engine.White, p)
			}
			_, err := gm.play(p)
			if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the evaluator") {
				t.Fatalf("%v, want the garbler's check of the evaluator's share to fail", err)
			}
			cert := gm.g.ShareCertificate()
			if cert == nil {
				t.Fatal("no certificate")
			}
			if !bytes.Equal(cert.PrevFlips, l.get(uint64(at-1), "flips")) {
				t.Fatalf("the certificate's flips of the try before %x, sent %x", cert.PrevFlips, l.get(uint64(at-1), "flips"))
			}
			err = JudgeEvaluatorShare(gm.rec, at, *cert)
			if c.frame {
				if !errors.Is(err, ErrNotProven) {
					t.Fatalf("an honest evaluator framed: %v", err)
				}
				t.Logf("framing refused: %v", err)
				return
			}
			if err != nil {
				t.Fatalf("the cheat at try %d is not convicted: %v", at, err)
			}
			for _, bad := range [][]byte{nil, flipLast(cert.PrevFlips)} {
				forged := *cert
				forged.PrevFlips = bad
				// Refused as not the record's (other flips would also
				// fail to open the labels' commitment).
				if err := JudgeEvaluatorShare(gm.rec, at, forged); !errors.Is(err, ErrNotProven) || !strings.Contains(err.Error(), "flips of try") {
					t.Fatalf("a certificate with flips %x of the try before: %v, want not proven, not the record's", bad, err)
				}
			}
		})
	}
}

// TestMPCD52CertificateAfterResume (MPC-D52, MPC-D53, MPC-D16, MPC-D29): an
// evaluator rebuilt from the record at any message boundary before the
// garbling of its try by flips (between tries, after the reverse request,
// the request, the commitment, the choice, its flips: from its flips on
// with its try kept, and the flips made again; the messages of the try
// before given back, ResumeAuthEvidence) still convicts a cheating
// garbler: one that sends, in garbling ĵ, the committed label of the
// other value of a flip (the certificate carries the flips the record
// holds; VerifyCertificate and JudgeCertificate convict), and one that
// substitutes its share (JudgeGarblerShare convicts). Judged against the
// record cut before the garbling (at the flips), the same certificates
// prove nothing.
func TestMPCD52CertificateAfterResume(t *testing.T) {
	allowTryFlips(t)
	cfg := flippedConfig(5, engine.RulesKriegspiel, engine.White, 4, true, "certificate after resume")
	for _, cheat := range []string{"flip-label", "garbler-share"} {
		for cut := -1; cut <= 4; cut++ {
			t.Run(fmt.Sprintf("%s-cut-%d", cheat, cut), func(t *testing.T) { certificateAfterResume(t, cfg, cheat, cut) })
		}
	}
}

func certificateAfterResume(t *testing.T, cfg Config, cheat string, cut int) {
	gm := newGameOf(t, cfg, testSeed("cert resume g", cut+1), testSeed("cert resume e", cut+1))
	l := tryLog{}
	gm.logging(l)
	for _, p := range []engine.Point{0, 24} {
		if _, d := gm.step(p); d != "" {
			t.Fatal(d)
		}
	}
	gm.tamper = nil
	p := engine.Point(6)
	switch cheat {
	case "flip-label":
		gm.g.cheatSend = func(try uint64, j int, own *[]gc.Label, other *[]Digest, cp *copyGarbling) {
			w := gm.g.rc.layout[circuit.Evaluator].FlipY[0]
			in := cp.keys.Inputs[circuit.Garbler][w]
			v := 0
			if (*own)[w] == in[0] {
				v = 1
			}
			(*own)[w], (*other)[w] = in[v], cp.pairs[w][1-v]
		}
	case "garbler-share":
		flipShare(&gm.g.share, engine.Black, p)
	}
	pub := gm.e.Public()
	try := pub.Try
	share, auth, triesE := gm.e.Share(), gm.e.EncodeAuth(), gm.e.Tries()
	var rev, req, choice, flips []byte
	var kept *KeptOpening
	resume := func(sent int) {
		t.Helper()
		te := triesE
		if sent >= 4 {
			te = append(te, p)
		}
		var reverse []byte
		if sent >= 0 {
			reverse = rev
		}
		var kp *KeptOpening
		if sent >= 2 {
			kp = kept
		}
		e2, err := gm.resumeEvaluatorOf(gm.rec, te, share, auth, reverse, kp)
		if err != nil {
			t.Fatalf("cut %d: %v", sent, err)
		}
		if err := e2.ResumeAuthEvidence(gm.rec.Tries[try-1], try-1, l.get(try-1, "commitment"), l.get(try-1, "reverse"), l.get(try-1, "choice")); err != nil {
			t.Fatalf("cut %d: the evidence of the try before: %v", sent, err)
		}
		gm.e = e2
	}
	if cut == -1 {
		resume(-1)
	}
	rev, _ = gm.g.ReverseRequest()
	gm.rec.Tries = append(gm.rec.Tries, RecordReverse(rev))
	last := &gm.rec.Tries[len(gm.rec.Tries)-1]
	if err := gm.e.TakeReverse(rev); err != nil {
		t.Fatal(err)
	}
	if cut == 0 {
		resume(0)
	}
	req, _ = gm.e.Request(p)
	*last = last.WithRequest(req)
	if cut == 1 {
		resume(1)
	}
	cm, err := gm.g.Commit(req)
	if err != nil {
		t.Fatal(err)
	}
	*last = last.WithCommitment(cm)
	if choice, err = gm.e.Open(cm); err != nil {
		t.Fatal(err)
	}
	kept = gm.e.Kept()
	if cut == 2 {
		resume(2)
		choice = gm.e.AgainChoice()
	}
	*last = last.WithChoice(choice)
	if cut == 3 {
		resume(3)
	}
	if flips, err = gm.e.Flips(p); err != nil {
		t.Fatal(err)
	}
	*last = last.WithFlips(flips)
	if err := gm.g.TakeFlips(flips); err != nil {
		t.Fatal(err)
	}
	if cut == 4 {
		resume(4)
	}
	atFlips := gm.rec
	atFlips.Tries = append([]TryRecord(nil), gm.rec.Tries...)
	gb, err := gm.g.GarbleChosen(choice, p)
	if err != nil {
		t.Fatal(err)
	}
	*last = last.WithGarbling(gb)
	_, _, err = gm.e.Evaluate(gb)
	if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "the garbler") {
		t.Fatalf("%s: %v, want the garbler caught", cheat, err)
	}
	if cheat == "garbler-share" {
		c := gm.e.ShareCertificate()
		if c == nil {
			t.Fatal("no certificate")
		}
		if err := JudgeGarblerShare(gm.rec, int(try), *c); err != nil {
			t.Fatalf("the judge: %v", err)
		}
		if err := JudgeGarblerShare(atFlips, int(try), *c); !errors.Is(err, ErrNotProven) {
			t.Fatalf("judged against the record without the garbling: %v", err)
		}
		return
	}
	cert := gm.e.Certificate()
	if cert == nil || cert.What != "garbler's input labels" {
		t.Fatalf("the other value's label of a flip: certificate %+v", cert)
	}
	if !bytes.Equal(cert.Flips, flips) {
		t.Fatalf("the certificate's flips %x, sent %x", cert.Flips, flips)
	}
	if err := VerifyCertificate(cfg, *cert); err != nil {
		t.Fatalf("VerifyCertificate: %v", err)
	}
	if err := JudgeCertificate(gm.rec, int(try), *cert); err != nil {
		t.Fatalf("the judge: %v", err)
	}
	if err := JudgeCertificate(atFlips, int(try), *cert); !errors.Is(err, ErrNotProven) {
		t.Fatalf("judged against the record without the garbling: %v", err)
	}
}

// TestMPCD52GarblerKeptForms (MPC-D53 point 3): ResumeGarblerKept refuses
// a kept message of a form the game lacks: a reverse setup answer without
// the correlated input OTs, the try before's messages without the
// authenticated state, flips in a game whose tries do not come by flips.
func TestMPCD52GarblerKeptForms(t *testing.T) {
	allowTryFlips(t)
	base := Config{Size: 5, Rules: engine.RulesCommon, GarblerColor: engine.White, Game: []byte("kept forms"), Komi: 7.5, Lambda: 4, Scheme: gc.ThreeHalves}
	correlated := base
	correlated.InputOT = InputOTCorrelated
	for _, c := range []struct {
		name string
		cfg  Config
		k    GarblerKept
	}{
		{"reverse answer, no correlated OTs", base, GarblerKept{ReverseAnswer: []byte{1}}},
		{"choice before, no authenticated state", correlated, GarblerKept{PrevChoice: []byte{1}}},
		{"flips before, no authenticated state", flippedConfig(5, engine.RulesCommon, engine.White, 4, false, "kept forms"), GarblerKept{PrevFlips: []byte{1}}},
		{"flips, no tries by flips", correlated, GarblerKept{Flips: []byte{1}}},
	} {
		if _, err := ResumeGarblerKept(c.cfg, testSeed("kept forms", 0), Record{Config: c.cfg}, c.k); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", c.name, err)
		}
	}
	// The same forms empty: the garbler before the base OTs.
	if _, err := ResumeGarblerKept(correlated, testSeed("kept forms", 0), Record{Config: correlated}, GarblerKept{}); err != nil {
		t.Errorf("nothing kept before the setup: %v", err)
	}
}
