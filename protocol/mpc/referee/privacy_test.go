package referee

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"reflect"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
)

// privacyTries are two games of 9×9 that differ only in where the
// garbler's player (Black) puts its stones; the evaluator's player
// (White) plays the same tries in both and is told the same things:
// moves, an illegal try on an own stone (the reason is the same in both
// games), passes. No stone touches another.
var privacyTries = [2][]engine.Point{
	{pt(1, 1), pt(4, 4), pt(1, 4), pt(4, 7), pt(1, 1), pt(1, 7), pt(4, 1), engine.Pass, engine.Pass},
	{pt(7, 1), pt(4, 4), pt(7, 4), pt(4, 7), pt(7, 1), pt(7, 7), pt(4, 1), engine.Pass, engine.Pass},
}

func pt(x, y int) engine.Point { return engine.PointAt(x, y, 9) }

// tryInputs is what went into the circuit in one try.
type tryInputs struct {
	in [2][]bool
	// outputs are the outputs as the evaluator decodes them; mask the
	// garbler's mask bits.
	outputs []bool
	mask    []bool
}

// TestPrivacyEvaluatorLearnsNothingOfHiddenStones records every byte the
// evaluator receives in two games that differ only in the garbler's
// player's unseen stones and compares the two transcripts (T-7).
//
// The garbler's mask bits are uniform and fresh for every try. For every
// mask of game A there is exactly one mask of game B (mask ⊕ d, d fixed
// by the two games) under which everything the evaluator decodes is the
// same in both games: its next share (the state XOR the garbler's mask)
// and the outputs masked for the garbler's player. The test plays game B
// with that mask and the same seeds otherwise, and checks that:
//
//   - the evaluator's player is told the same things and its share is the
//     same after every try;
//   - every byte the evaluator receives is the same in both games (base
//     OT, garbled tables and decoding bits, OT replies), except the labels
//     of the garbler's own inputs where its input bits differ (its try,
//     its share, its masks), and there the two labels differ by exactly
//     the garbler's secret Δ: the evaluator holds one random label per
//     wire and never the other, so it cannot tell which value it stands
//     for (the garbling hides it);
//   - the garbler receives the same bytes too (the evaluator's requests
//     and the output labels it forwards).
//
// Since mask ↦ mask ⊕ d is a bijection on uniform masks, the evaluator's
// view has the same distribution in both games; the only difference left
// is in labels whose meaning only Δ gives away.
//
// In a checked game (λ = 4, T-8(b)) the same holds of every byte of the
// five-message try: the commitments to the λ garblings and the OT reply
// (the seeds of the opened garblings, which the evaluator garbles again)
// are the same bytes in both games, and in garbling ĵ's labels message a
// garbler input whose bit differs shows the label off by Δ_ĵ and the hash
// of the other label, the two swapped: nothing but Δ_ĵ, which the
// evaluator never holds, tells them apart.
//
// Both garbling schemes (MPC-D26): with three-halves as with half-gates.
// With three-halves the masks are in the decoding bits (MPC-D27): the
// masks of game B are again those that make everything the evaluator
// decodes the same, and are XORed into garbling ĵ's decoding bits; the
// opened garblings, made from their seeds, are the same bytes in both
// games. What differs then, besides the labels of the garbler's inputs
// as above, is the decoding bit of a masked output whose value differs
// between the games, and the evaluator's label of that output, off by Δ:
// the colour of the label and the decoding bit flip together, and the
// evaluator decodes the same bit. checkDecodingMaskPrivacy checks those
// differences (and the commitment to garbling ĵ's tables, the hash of
// the tables message the evaluator receives).
//
// With the correlated input OTs (MPC-D28) too: the reverse setup and
// requests, the H(K_i) in the commitments and the corrections of every
// garbling are functions of the garbler's seed and the evaluator's
// requests alone, the same bytes in both games.
func TestPrivacyEvaluatorLearnsNothingOfHiddenStones(t *testing.T) {
	type run struct {
		rules  engine.PhantomRules
		lambda int
		scheme gc.Scheme
		form   InputOT
	}
	runs := []run{{engine.RulesCommon, 0, gc.HalfGates, 0}, {engine.RulesHamburg, 0, gc.HalfGates, 0}, {engine.RulesKriegspiel, 0, gc.HalfGates, 0}, {engine.RulesHamburg, 4, gc.HalfGates, 0},
		{engine.RulesKriegspiel, 0, gc.ThreeHalves, 0}, {engine.RulesHamburg, 4, gc.ThreeHalves, 0},
		{engine.RulesHamburg, 4, gc.HalfGates, InputOTCorrelated}, {engine.RulesKriegspiel, 4, gc.ThreeHalves, InputOTCorrelated}}
	for _, r := range runs {
		rules := r.rules
		name := fmt.Sprintf("%s-lambda-%d", rules, r.lambda)
		if r.scheme != gc.HalfGates {
			name += "-" + r.scheme.String()
		}
		if r.form != InputOTExtension {
			name += "-" + r.form.String()
		}
		t.Run(name, func(t *testing.T) {
			seedG, seedE := testSeed("privacy g", 0), testSeed("privacy e", 0)
			var games [2]*testGame
			var inputs [2][]tryInputs
			for k := range games {
				gm := newGameOf(t, Config{Size: 9, Rules: rules, GarblerColor: engine.Black, Game: []byte(fmt.Sprintf("test game 9x9 %s", rules)), Komi: 7.5, Lambda: r.lambda, Scheme: r.scheme, InputOT: r.form}, seedG, seedE)
				games[k] = gm
				var garblerTry engine.Point
				couple := func(try uint64, mask []bool) {
					mover := gm.cfg.PartyOf(gm.g.pub.ToMove)
					l, c := gm.g.rc.layout[mover], gm.g.rc.circuit[mover]
					ti := evalTry(t, l, c, gm, mover, garblerTry, mask)
					if k == 1 {
						// Couple: choose the mask that makes every masked
						// output what the evaluator decoded in game A.
						a := inputs[0][try]
						for i, m := range l.OutputMask {
							if m >= 0 && a.outputs[i] != ti.outputs[i] {
								mask[m] = !mask[m]
							}
						}
						ti = evalTry(t, l, c, gm, mover, garblerTry, mask)
					}
					inputs[k] = append(inputs[k], ti)
				}
				if gm.cfg.masksInDecoding() {
					gm.g.coupleMask = func(try uint64, i int, mask []bool) {
						// Only garbling ĵ is evaluated; the opened ones
						// stay the ones their seeds give.
						if !gm.cfg.Checked() || i == gm.e.choose(try) {
							couple(try, mask)
						}
					}
				} else {
					plain := gm.g.maskFor
					gm.g.maskFor = func(try uint64, n int) []bool {
						mask := plain(try, n)
						couple(try, mask)
						return mask
					}
				}
				for _, p := range privacyTries[k] {
					garblerTry = p
					if _, err := gm.play(p); err != nil {
						t.Fatal(err)
					}
				}
				if !gm.g.Public().Ended() {
					t.Fatal("the game did not end")
				}
			}
			a, b := games[0], games[1]
			if reflect.DeepEqual(a.g.Tries(), b.g.Tries()) {
				t.Fatal("the garbler's tries are the same in both games")
			}
			if !reflect.DeepEqual(a.views[circuit.Evaluator], b.views[circuit.Evaluator]) {
				t.Fatalf("the evaluator's player is told different things:\n%v\n%v", a.views[1], b.views[1])
			}
			if reflect.DeepEqual(a.views[circuit.Garbler], b.views[circuit.Garbler]) {
				t.Fatal("the games are the same for the garbler's player too")
			}
			if !reflect.DeepEqual(a.e.Share(), b.e.Share()) {
				t.Fatal("the evaluator's final shares differ")
			}
			if a.cfg.masksInDecoding() {
				checkDecodingMaskPrivacy(t, a, b, inputs)
			} else if !reflect.DeepEqual(a.received[circuit.Garbler], b.received[circuit.Garbler]) {
				t.Fatal("the garbler received different bytes")
			}
			ra, rb := a.received[circuit.Evaluator], b.received[circuit.Evaluator]
			if len(ra) != len(rb) {
				t.Fatalf("%d and %d messages", len(ra), len(rb))
			}
			deltaOf := func(try int) gc.Label {
				if a.cfg.Checked() {
					seeds := ggmLevels(a.g.seed.Derive(labelPVCRoot, uint64(try)), a.cfg.depth())[a.cfg.depth()]
					d, err := gc.NewDelta(seeds[a.e.choose(uint64(try))].Stream(labelPVCDelta))
					if err != nil {
						t.Fatal(err)
					}
					return d
				}
				d, err := tryDelta(a.g.seed, uint64(try))
				if err != nil {
					t.Fatal(err)
				}
				return d
			}
			pl := privacyLayoutOf(a.cfg)
			differing := 0
			for i := range ra {
				if bytes.Equal(ra[i], rb[i]) {
					continue
				}
				try := (i - pl.pre) / pl.perTry
				part := (i - pl.pre) % pl.perTry
				if a.cfg.masksInDecoding() && i >= pl.pre && (part == pl.tablesAt || part == pl.commitAt) {
					continue // checkDecodingMaskPrivacy
				}
				if i < pl.pre || part != pl.labelsAt {
					t.Fatalf("message %d (try %d, part %d) differs", i, try, part)
				}
				in := [2][]bool{inputs[0][try].in[circuit.Garbler], inputs[1][try].in[circuit.Garbler]}
				var la, lb []gc.Label
				var oa, ob []Digest
				var err error
				if a.cfg.Checked() {
					if la, oa, err = parseCheckedLabels(ra[i], len(in[0])); err != nil {
						t.Fatal(err)
					}
					if lb, ob, err = parseCheckedLabels(rb[i], len(in[1])); err != nil {
						t.Fatal(err)
					}
				} else {
					if la, err = gc.ParseLabels(ra[i], len(in[0])); err != nil {
						t.Fatal(err)
					}
					if lb, err = gc.ParseLabels(rb[i], len(in[1])); err != nil {
						t.Fatal(err)
					}
				}
				for w := range la {
					switch {
					case in[0][w] == in[1][w] && la[w] != lb[w]:
						t.Fatalf("try %d: the label of the garbler's input %d differs, its bit does not", try, w)
					case in[0][w] == in[1][w] && oa != nil && oa[w] != ob[w]:
						t.Fatalf("try %d: the other label's hash of the garbler's input %d differs, its bit does not", try, w)
					case in[0][w] != in[1][w] && la[w].Xor(lb[w]) != deltaOf(try):
						t.Fatalf("try %d: the labels of the garbler's input %d differ by more than Δ", try, w)
					case in[0][w] != in[1][w] && oa != nil && (oa[w] != labelHash(a.cfg, uint64(try), a.e.choose(uint64(try)), w, lb[w]) ||
						ob[w] != labelHash(a.cfg, uint64(try), a.e.choose(uint64(try)), w, la[w])):
						t.Fatalf("try %d: the other labels' hashes of the garbler's input %d are not swapped", try, w)
					case in[0][w] != in[1][w]:
						differing++
					}
				}
			}
			if differing == 0 {
				t.Fatal("no label differs: the games were not different")
			}
			t.Logf("%d messages, %d bytes received by the evaluator; identical but for %d labels of the garbler's inputs, each off by Δ",
				len(ra), totalBytes(ra), differing)
		})
	}
}

// evalTry computes in the clear what the circuit of the try under way of
// gm gives with the garbler's mask.
func evalTry(t *testing.T, l *circuit.RefereeLayout, c *circuit.Circuit, gm *testGame, mover circuit.Party, garblerTry engine.Point, mask []bool) tryInputs {
	t.Helper()
	col := gm.g.pub.ToMove
	in0, err := l.Inputs(circuit.Garbler, col, gm.g.share, garblerTry, mask)
	if err != nil {
		t.Fatal(err)
	}
	evTry := engine.NoPoint
	if mover == circuit.Evaluator && len(gm.e.tries) > 0 {
		evTry = gm.e.tries[len(gm.e.tries)-1]
	}
	in1, err := l.Inputs(circuit.Evaluator, col, gm.e.share, evTry, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Eval(in0, in1)
	if err != nil {
		t.Fatal(err)
	}
	if out, err = l.MaskOutputs(out, mask); err != nil {
		t.Fatal(err)
	}
	return tryInputs{in: [2][]bool{in0, in1}, outputs: out, mask: append([]bool(nil), mask...)}
}

// checkDecodingMaskPrivacy checks, for two coupled games a and b whose
// masks are in the decoding bits (MPC-D27), the messages that differ
// because of it: in every garbling the evaluator evaluates, the tables
// are the same and a decoding bit differs exactly where the two masks
// differ, at a masked output; in a checked game the commitment differs
// only in garbling ĵ's tables hash, which is the hash of the tables
// message received; the output labels the evaluator forwards differ only
// at outputs for the garbler, by Δ, where the masks differ; the rest of
// what the garbler receives is the same.
func checkDecodingMaskPrivacy(t *testing.T, a, b *testGame, inputs [2][]tryInputs) {
	t.Helper()
	pl := privacyLayoutOf(a.cfg)
	perTry, tablesAt, pre := pl.perTry, pl.tablesAt, pl.pre
	gPerTry, outAt, gPre := pl.gPerTry, pl.outAt, pl.gPre
	ra, rb := a.received[circuit.Evaluator], b.received[circuit.Evaluator]
	ga, gb := a.received[circuit.Garbler], b.received[circuit.Garbler]
	if len(ga) != len(gb) || len(ra) != len(rb) {
		t.Fatalf("%d and %d messages to the garbler, %d and %d to the evaluator", len(ga), len(gb), len(ra), len(rb))
	}
	flipped, forwarded := 0, 0
	for try := range len(inputs[0]) {
		mover := a.g.movers[try]
		l := a.g.rc.layout[mover]
		ma, mb := inputs[0][try].mask, inputs[1][try].mask
		j := a.e.choose(uint64(try))
		var delta gc.Label
		var err error
		if a.cfg.Checked() {
			seeds := ggmLevels(a.g.seed.Derive(labelPVCRoot, uint64(try)), a.cfg.depth())[a.cfg.depth()]
			delta, err = gc.NewDelta(seeds[j].Stream(labelPVCDelta))
		} else {
			delta, err = tryDelta(a.g.seed, uint64(try))
		}
		if err != nil {
			t.Fatal(err)
		}
		ta, tb := ra[pre+try*perTry+tablesAt], rb[pre+try*perTry+tablesAt]
		pa, err := gc.ParseGarbled(ta)
		if err != nil {
			t.Fatal(err)
		}
		pb, err := gc.ParseGarbled(tb)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(pa.Tables, pb.Tables) || pa.Instance != pb.Instance {
			t.Fatalf("try %d: the garbled tables differ", try)
		}
		for i, m := range l.OutputMask {
			masked := m >= 0 && ma[m] != mb[m]
			if (pa.Decoding[i] != pb.Decoding[i]) != masked {
				t.Fatalf("try %d: decoding bit %d differs: %v, the masks differ there: %v", try, i, pa.Decoding[i] != pb.Decoding[i], masked)
			}
			if masked {
				flipped++
			}
		}
		if a.cfg.Checked() {
			ca, cb := ra[pre+try*perTry+pl.commitAt], rb[pre+try*perTry+pl.commitAt]
			at := commitHeader + j*pl.entry + sha256.Size
			if !bytes.Equal(ca[:at], cb[:at]) || !bytes.Equal(ca[at+sha256.Size:], cb[at+sha256.Size:]) {
				t.Fatalf("try %d: the commitments differ elsewhere than in garbling %d's tables hash", try, j)
			}
			if Digest(ca[at:at+sha256.Size]) != Sum(ta) || Digest(cb[at:at+sha256.Size]) != Sum(tb) {
				t.Fatalf("try %d: the tables hash of garbling %d is not that of the tables received", try, j)
			}
		}
		for k := range gPerTry {
			at := gPre + try*gPerTry + k
			if k == outAt {
				continue
			}
			if !bytes.Equal(ga[at], gb[at]) {
				t.Fatalf("try %d: the garbler received different bytes in message %d", try, k)
			}
		}
		vis := l.VisibleOutputs(circuit.Garbler)
		la, err := gc.ParseLabels(ga[gPre+try*gPerTry+outAt], len(vis))
		if err != nil {
			t.Fatal(err)
		}
		lb, err := gc.ParseLabels(gb[gPre+try*gPerTry+outAt], len(vis))
		if err != nil {
			t.Fatal(err)
		}
		for k, i := range vis {
			m := l.OutputMask[i]
			masked := m >= 0 && ma[m] != mb[m]
			switch {
			case !masked && la[k] != lb[k]:
				t.Fatalf("try %d: forwarded label of output %d differs, its mask does not", try, i)
			case masked && la[k].Xor(lb[k]) != delta:
				t.Fatalf("try %d: forwarded labels of output %d differ by other than Δ", try, i)
			case masked:
				forwarded++
			}
		}
	}
	for k := range gPre {
		if !bytes.Equal(ga[k], gb[k]) {
			t.Fatal("the garbler received different setup messages")
		}
	}
	if flipped == 0 {
		t.Fatal("no decoding bit differs: the masks were not coupled")
	}
	t.Logf("masks in the decoding bits: %d decoding bits flipped with their masks, %d forwarded labels off by Δ", flipped, forwarded)
}

// privacyLayout is where the messages of a test game of cfg sit in what
// each party receives: the evaluator's setup messages (pre), then per
// try perTry messages, the commitments at commitAt (-1: none), the
// tables at tablesAt, the garbler's labels at labelsAt; the garbler's
// setup messages (gPre), then per try gPerTry, the forwarded output
// labels at outAt; entry is the size of a garbling's commitment entry.
type privacyLayout struct {
	pre, perTry, commitAt, tablesAt, labelsAt int
	gPre, gPerTry, outAt                      int
	entry                                     int
}

func privacyLayoutOf(cfg Config) privacyLayout {
	switch {
	case cfg.correlated():
		// (reverse request, commitments, corrections and seed reply,
		// tables, labels, header), after the base OT and the reverse
		// setup; the garbler: (request, choice, outputs, bits).
		return privacyLayout{2, 6, 1, 3, 4, 2, 4, 2, commitEntryCOT}
	case cfg.Checked():
		// (commitments, OT reply, tables, labels, header).
		return privacyLayout{1, 5, 0, 2, 3, 1, 4, 2, commitEntry}
	}
	// (tables, labels, OT reply); the garbler: (request, outputs, bits).
	return privacyLayout{1, 3, -1, 0, 1, 1, 3, 1, commitEntry}
}

func totalBytes(ms [][]byte) int {
	n := 0
	for _, m := range ms {
		n += len(m)
	}
	return n
}
