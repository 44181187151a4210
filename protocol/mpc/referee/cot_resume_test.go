package referee

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
)

// TestT8ResumeCorrelatedTry (MPC-D16, MPC-D28): with both schemes, a
// checked try of the correlated input OTs is rebuilt from the record at
// every message, the reverse request included (sent = 0: only it): the
// garbler makes its reverse setup message and the reverse request again
// and commits again from the kept request, the evaluator answers the
// reverse setup again, takes the kept reverse request, requests again
// and opens the kept commitment again, byte for byte; the try then
// finishes with the plaintext referee's announcements, and the next try
// goes on the rebuilt machines. ResumeChecked* refuse such a game. The
// resumed garbler gives the reverse request ahead (once garbled) or
// between tries that the original one gives.
func TestT8ResumeCorrelatedTry(t *testing.T) {
	for _, form := range []struct {
		scheme  gc.Scheme
		auth    bool
		macBits int
	}{{gc.HalfGates, false, 0}, {gc.ThreeHalves, false, 0}, {gc.ThreeHalves, true, 0}, {gc.ThreeHalves, true, ot.KappaMAC}} {
		scheme := form.scheme
		for sent := 0; sent <= 4; sent++ {
			gm := newCOTGame(t, 5, engine.RulesCommon, engine.White, testSeed("cot resume g", sent), testSeed("cot resume e", sent), 4, scheme)
			if form.auth {
				// MPC-D29: the evaluator keeps its authentication state
				// with its share.
				gm = newAuthGame(t, 5, engine.RulesCommon, engine.White, testSeed("cot resume g", sent), testSeed("cot resume e", sent), 4, form.macBits)
			}
			var prevChoice []byte // the last complete try's choice (MPC-D30)
			gm.tamper = func(_ uint64, what string, b []byte) []byte {
				if what == "choice" {
					prevChoice = append([]byte(nil), b...)
				}
				return b
			}
			rng := rand.New(rand.NewPCG(3, uint64(sent)))
			gm.playRandom(rng, 3, nil)
			gm.tamper = nil
			tries := [2][]engine.Point{gm.g.Tries(), gm.e.Tries()}
			share := gm.e.Share()
			auth := gm.e.EncodeAuth()
			if form.auth == (auth == nil) {
				t.Fatalf("sent %d: the authentication state kept: %d bytes", sent, len(auth))
			}
			pub := gm.e.Public()
			p := engine.Point(7)
			if gm.cfg.PartyOf(pub.ToMove) == circuit.Garbler {
				tries[0] = append(tries[0], p)
			} else {
				tries[1] = append(tries[1], p)
			}
			rev, err := gm.g.ReverseRequest()
			if err != nil {
				t.Fatal(err)
			}
			if err := gm.e.TakeReverse(rev); err != nil {
				t.Fatal(err)
			}
			rec := gm.rec
			rec.Tries = append(append([]TryRecord(nil), rec.Tries...), RecordReverse(rev))
			last := &rec.Tries[len(rec.Tries)-1]
			var req []byte
			if sent >= 1 {
				if req, err = gm.e.Request(p); err != nil {
					t.Fatal(err)
				}
				*last = last.WithRequest(req)
			}
			var cm Commitment
			var choice, opened []byte
			var kept *KeptOpening
			if sent >= 2 {
				if cm, err = gm.g.Commit(req); err != nil {
					t.Fatal(err)
				}
				*last = last.WithCommitment(cm)
				if opened, err = gm.e.Open(cm); err != nil {
					t.Fatal(err)
				}
				if kept = gm.e.Kept(); kept == nil || len(kept.Labels)+len(kept.Seeds) >= len(cm.Reply) {
					t.Fatalf("sent %d: kept %+v", sent, kept)
				}
			}
			if sent >= 3 {
				choice = opened
				*last = last.WithChoice(choice)
			}
			var gb Garbling
			if sent >= 4 {
				if gb, err = gm.g.GarbleChosen(choice, p); err != nil {
					t.Fatal(err)
				}
				*last = last.WithGarbling(gb)
			}
			rG, rE := gm.received[circuit.Garbler], gm.received[circuit.Evaluator]
			if _, err := ResumeCheckedEvaluator(gm.cfg, gm.seeds[1], rE[0], rec, tries[1], share, kept); !errors.Is(err, ErrConfig) {
				t.Fatalf("ResumeCheckedEvaluator of a game of MPC-D28: %v", err)
			}
			gk := GarblerKept{BaseStart: rG[0], ReverseAnswer: rG[1], Tries: tries[0], Request: req, Choice: choice}
			if form.auth {
				if _, err := ResumeGarblerKept(gm.cfg, gm.seeds[0], rec, gk); !errors.Is(err, ErrRecord) {
					t.Fatalf("sent %d: without the choice of the last complete try: %v", sent, err)
				}
				gk.PrevChoice = prevChoice
			}
			g2, err := ResumeGarblerKept(gm.cfg, gm.seeds[0], rec, gk)
			if err != nil {
				t.Fatalf("%v sent %d: garbler: %v", scheme, sent, err)
			}
			// Once it committed again, the request shows that the
			// evaluator had them (as for the base OT answer).
			if start, again := g2.AgainReverse(); sent < 2 && (!bytes.Equal(start, rE[1]) || !bytes.Equal(again, rev)) {
				t.Fatalf("sent %d: the reverse messages are not made again", sent)
			}
			if sent >= 2 && (g2.AgainCommitment() == nil || g2.AgainCommitment().Digests() != cm.Digests()) {
				t.Fatalf("sent %d: the commitment is not made again", sent)
			}
			if sent >= 4 {
				if _, again := g2.Again(); again == nil || again.Digests() != gb.Digests() {
					t.Fatalf("sent %d: the garbling is not made again", sent)
				}
			}
			// The reverse request sent ahead (with the garbling, or made
			// once committed, MPC-D55) or between tries is the same from
			// the resumed garbler.
			switch ahead, err := g2.ReverseRequestAhead(); {
			case sent >= 2:
				want, werr := gm.g.ReverseRequestAhead()
				if err != nil || werr != nil || !bytes.Equal(ahead, want) {
					t.Fatalf("sent %d: the reverse request ahead of the resumed garbler differs (%v, %v)", sent, err, werr)
				}
			default:
				if err != nil || !bytes.Equal(ahead, rev) {
					t.Fatalf("sent %d: the reverse request between tries differs (%v)", sent, err)
				}
			}
			if sent < 4 {
				resume := func(reverse []byte) (*Evaluator, error) {
					if form.auth {
						return ResumeAuthenticatedEvaluator(gm.cfg, gm.seeds[1], rE[0], rE[1], reverse, rec, tries[1], share, auth, kept)
					}
					return ResumeCorrelatedEvaluator(gm.cfg, gm.seeds[1], rE[0], rE[1], reverse, rec, tries[1], share, kept)
				}
				if form.auth {
					if _, err := ResumeCorrelatedEvaluator(gm.cfg, gm.seeds[1], rE[0], rE[1], rev, rec, tries[1], share, kept); !errors.Is(err, ErrConfig) {
						t.Fatalf("sent %d: ResumeCorrelatedEvaluator of a game of MPC-D29: %v", sent, err)
					}
					if _, err := ResumeAuthenticatedEvaluator(gm.cfg, gm.seeds[1], rE[0], rE[1], rev, rec, tries[1], share, auth[1:], kept); !errors.Is(err, ErrRecord) {
						t.Fatalf("sent %d: an authentication state cut short: %v", sent, err)
					}
				}
				if sent >= 1 {
					if _, err := resume(nil); !errors.Is(err, ErrRecord) {
						t.Fatalf("sent %d: the reverse request not kept: %v", sent, err)
					}
				}
				keptRev := rev
				if sent == 0 {
					keptRev = nil // the garbler sends it again
				}
				e2, err := resume(keptRev)
				if err != nil {
					t.Fatalf("%v sent %d: evaluator: %v", scheme, sent, err)
				}
				if !bytes.Equal(e2.AgainReverse(), rG[1]) {
					t.Fatalf("sent %d: the reverse answer made again differs", sent)
				}
				if sent >= 1 {
					if _, again := e2.Again(); !bytes.Equal(again, req) {
						t.Fatalf("sent %d: the request made again differs", sent)
					}
				}
				if sent >= 2 && !bytes.Equal(e2.AgainChoice(), opened) {
					t.Fatalf("sent %d: the choice made again differs", sent)
				}
				gm.e = e2
			}
			gm.g = g2
			// The try finishes with the machines rebuilt.
			if sent < 1 {
				if err := gm.e.TakeReverse(rev); err != nil {
					t.Fatal(err)
				}
				if req, err = gm.e.Request(p); err != nil {
					t.Fatal(err)
				}
			}
			if sent < 2 {
				if cm, err = gm.g.Commit(req); err != nil {
					t.Fatalf("sent %d: commit: %v", sent, err)
				}
			}
			if sent < 4 {
				if sent < 2 {
					if choice, err = gm.e.Open(cm); err != nil {
						t.Fatalf("sent %d: open: %v", sent, err)
					}
				} else {
					choice = gm.e.AgainChoice()
				}
				if gb, err = gm.g.GarbleChosen(choice, p); err != nil {
					t.Fatalf("sent %d: garble: %v", sent, err)
				}
			}
			o, annE, err := gm.e.Evaluate(gb)
			if err != nil {
				t.Fatalf("sent %d: evaluate: %v", sent, err)
			}
			annG, err := gm.g.Finish(o)
			if err != nil {
				t.Fatalf("sent %d: finish: %v", sent, err)
			}
			next, out, err := gm.ref.Try(gm.ref.ToMove(), p)
			if err != nil {
				t.Fatal(err)
			}
			for party, a := range [2]phantom.Announcement{annG, annE} {
				if want := phantom.Announce(gm.cfg.Rules, 5, out, gm.cfg.ColorOf(circuit.Party(party))); a.KeyValues() != want.KeyValues() {
					t.Errorf("sent %d: the %v's player is told %q, want %q", sent, circuit.Party(party), a.KeyValues(), want.KeyValues())
				}
			}
			gm.ref = next
			gm.playRandom(rng, 2, nil)
		}
	}
}
