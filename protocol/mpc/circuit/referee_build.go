package circuit

// The building of the referee circuit of [RefereeCircuit], one step of
// the try at a time (referee.go has the layout it fills). The steps add
// their gates in the order of the circuit whose garblings the referee's
// known answers pin (protocol/mpc/referee/testdata/kat.txt): a step
// moved, or gates made in another order, make another circuit.

import (
	"fmt"
	"math/bits"

	"github.com/kakure/kakure/engine"
)

// The four directions, as column and row offsets.
var refereeDirs = [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} // west, east, south, north

// statePlanes are the wires of one state, seen from the mover.
type statePlanes struct {
	own, opp, ko []Wire
	label        [][]Wire
}

func splitState(ws []Wire, n, labelBits int) statePlanes {
	sp := statePositions(0, n, labelBits)
	st := statePlanes{own: make([]Wire, n), opp: make([]Wire, n), ko: make([]Wire, n), label: make([][]Wire, n)}
	for p := range n {
		st.own[p] = ws[sp.Own[p]]
		st.opp[p] = ws[sp.Opp[p]]
		st.ko[p] = ws[sp.Ko[p]]
		st.label[p] = make([]Wire, labelBits)
		for k := range labelBits {
			st.label[p][k] = ws[sp.Label[p][k]]
		}
	}
	return st
}

// refereeBuild is what the steps of buildReferee share: the builder, the
// layout they fill, the board and the rules.
type refereeBuild struct {
	b *Builder
	l *RefereeLayout
	// s is the board's side, n its number of points, nl the width of a
	// group label.
	s, n, nl int
	rules    engine.PhantomRules
	mover    Party
	flaws    refereeFlaws
	// tellsAtari says whether the rules announce PG-5's atari facts.
	tellsAtari bool
	// maskIndex is the next mask bit of the garbler for an output of
	// its own (emit).
	maskIndex int
}

// tryWires are the mover's try, decoded.
type tryWires struct {
	// hx and hy are the one-hot column and row, h the one-hot point
	// (all zero on a pass).
	hx, hy, h []Wire
	// isPoint is a try of a point of the board, pass its negation.
	isPoint, pass Wire
	// moveIndex is the try's point index in binary: the label of the
	// chain a move makes.
	moveIndex []Wire
}

// aroundTry are the state's planes read at the try and at its four
// neighbours (by refereeDirs).
type aroundTry struct {
	occOwn, occOpp Wire
	nbOwn, nbOpp   [4]Wire
	nbLabel        [4][]Wire
	// atKo is the try at the ko point.
	atKo Wire
}

// neighbourChains are the chains next to the try, one per direction.
type neighbourChains struct {
	// ref[d] is the label of the neighbour in direction d, or all ones
	// when it is empty or off the board; inChain[d][q] says that point q
	// is in its chain.
	ref     [4][]Wire
	inChain [4][]Wire
	// first[d] is false when an earlier direction sees the same chain.
	first [4]Wire
}

// tryCaptures are the liberties of the neighbour chains and what the try
// captures if it is played.
type tryCaptures struct {
	// freeNotTry are the empty points other than the try.
	freeNotTry []Wire
	// oneLib[d] is the chain of direction d with one liberty left (only
	// when the rules tell ataris); captured[d] an opponent chain with
	// none, wasInAtari[d] one of the mover's with none but the try.
	oneLib, captured, wasInAtari [4]Wire
	// capRaw are the stones captured, inAny the points of every
	// neighbour chain.
	capRaw, inAny []Wire
	// count is the number of stones captured, countIsOne count == 1.
	count      []Wire
	countIsOne Wire
}

// moverChain is the mover's chain after the move: the try and the
// mover's chains it touches, with its liberties after the captures.
type moverChain struct {
	chain                    []Wire
	anyLibAfter, oneLibAfter Wire
}

// tryVerdict is the referee's judgement of the try (PG-2, PG-4).
type tryVerdict struct {
	// moved is a legal move (not a pass), legal a legal move or a pass.
	moved, legal Wire
	// reason is phantom.TryReason in binary, 0 unless illegal.
	reason [3]Wire
	// update says that the board changes (moved, unless a flaw).
	update Wire
}

// buildReferee builds the circuit of [RefereeCircuit] and its layout, or
// in another form that of [RefereeCircuitOf]; flaws
// (tests only) are deliberate bugs. The steps follow the plaintext
// referee: the inputs, the whole state, the try, the points around it,
// the chains next to it, their captures, the mover's chain, the verdict,
// the ataris, the next state; then the announcement and the next state's
// share as outputs.
func buildReferee(size int, rules engine.PhantomRules, mover Party, form RefereeForm, flaws refereeFlaws) (*RefereeLayout, *Circuit, error) {
	if err := checkRefereeParams(size, rules, mover); err != nil {
		return nil, nil, err
	}
	if form.TryFlips && mover != Evaluator {
		return nil, nil, fmt.Errorf("circuit: flips of the garbler's try (only the evaluator's try comes flipped, MPC-D52)")
	}
	rb := newRefereeBuild(size, rules, mover, form, flaws)
	shares, try, stateMask := rb.inputs()
	st, stone, empty := rb.joinShares(shares)
	tw := rb.decodeTry(try)
	at := rb.readAroundTry(st, tw)
	nc := rb.findNeighbourChains(st, stone, at)
	cp := rb.findCaptures(empty, tw, at, nc)
	mc := rb.findMoverChain(st, tw, cp)
	cp.count, cp.countIsOne = rb.countCaptures(cp) // after the mover's chain: the gates' order
	v := rb.judgeTry(tw, at, cp, mc)
	atariOpponent, atariSelf := rb.atariFacts(at, cp, mc, v)
	next, capOut := rb.nextState(st, tw, at, cp, mc, v)
	rb.emitAnnouncement(tw, v, cp, atariOpponent, atariSelf, capOut)
	rb.emitNextShare(next, stateMask)
	return rb.finish()
}

// checkRefereeParams checks the board size, the rule set and the mover
// of a referee circuit.
func checkRefereeParams(size int, rules engine.PhantomRules, mover Party) error {
	if size < engine.MinSize || size > engine.MaxSize {
		return fmt.Errorf("circuit: Phantom Go board size %d (allowed %d to %d): %w", size, engine.MinSize, engine.MaxSize, engine.ErrBadOptions)
	}
	switch rules {
	case engine.RulesCommon, engine.RulesHamburg, engine.RulesKriegspiel:
	default:
		return fmt.Errorf("circuit: unknown Phantom rule set %q: %w", rules, engine.ErrBadOptions)
	}
	if mover != Garbler && mover != Evaluator {
		return fmt.Errorf("circuit: the mover is %v, not the garbler or the evaluator", mover)
	}
	return nil
}

// newRefereeBuild starts the layout of the circuit (the sizes of its
// parts) and its builder.
func newRefereeBuild(size int, rules engine.PhantomRules, mover Party, form RefereeForm, flaws refereeFlaws) *refereeBuild {
	s, n := size, size*size
	nl := RefereeLabelBits(size)
	l := &RefereeLayout{
		Size: s, Points: n, Rules: rules, MoverParty: mover,
		LabelBits: nl, CoordBits: bits.Len(uint(s)), CountBits: bits.Len(uint(n)),
		StateBits:     n * (3 + nl),
		AtariOpponent: -1, AtariSelf: -1,
		MasksInDecoding: form.MasksInDecoding,
		TryFlips:        form.TryFlips,
	}
	return &refereeBuild{b: NewBuilder(), l: l, s: s, n: n, nl: nl, rules: rules, mover: mover, flaws: flaws,
		tellsAtari: rules != engine.RulesKriegspiel, maskIndex: l.StateBits}
}

// inputs makes the circuit's inputs and writes their positions in the
// layout: each party's share of the state, the mover's try after the
// mover's share (with TryFlips, the evaluator's random bits, XORed with
// the garbler's flips after the garbler's share), then, unless the masks
// go into the decoding bits, the garbler's mask of the next state.
func (rb *refereeBuild) inputs() (shares [2]statePlanes, try []Wire, stateMask statePlanes) {
	b, l, n, nl, mover := rb.b, rb.l, rb.n, rb.nl, rb.mover
	for _, party := range []Party{Garbler, Evaluator} {
		base := b.NumInputs(party)
		shares[party] = splitState(b.Inputs(party, l.StateBits), n, nl)
		l.ShareIn[party] = statePositions(base, n, nl)
		if party == mover {
			base := b.NumInputs(party)
			try = b.Inputs(party, 2*l.CoordBits)
			for i := range l.CoordBits {
				l.TryX = append(l.TryX, base+i)
				l.TryY = append(l.TryY, base+l.CoordBits+i)
			}
		}
	}
	if l.TryFlips {
		base := b.NumInputs(Garbler)
		flips := b.Inputs(Garbler, 2*l.CoordBits)
		for i := range l.CoordBits {
			l.FlipX = append(l.FlipX, base+i)
			l.FlipY = append(l.FlipY, base+l.CoordBits+i)
		}
		for i := range try {
			try[i] = b.XOR(try[i], flips[i])
		}
	}
	l.StateMask = statePositions(0, n, nl)
	if !l.MasksInDecoding {
		maskBase := b.NumInputs(Garbler)
		stateMask = splitState(b.Inputs(Garbler, l.StateBits), n, nl)
		for i := range l.StateBits {
			l.MaskIn = append(l.MaskIn, maskBase+i)
		}
	}
	return shares, try, stateMask
}

// joinShares returns the whole state, from the two shares, and the
// points that hold a stone of either colour and the empty ones.
func (rb *refereeBuild) joinShares(shares [2]statePlanes) (st statePlanes, stone, empty []Wire) {
	b, n, nl := rb.b, rb.n, rb.nl
	st.own, st.opp, st.ko, st.label = make([]Wire, n), make([]Wire, n), make([]Wire, n), make([][]Wire, n)
	for p := range n {
		st.own[p] = b.XOR(shares[0].own[p], shares[1].own[p])
		st.opp[p] = b.XOR(shares[0].opp[p], shares[1].opp[p])
		st.ko[p] = b.XOR(shares[0].ko[p], shares[1].ko[p])
		st.label[p] = make([]Wire, nl)
		for k := range nl {
			st.label[p][k] = b.XOR(shares[0].label[p][k], shares[1].label[p][k])
		}
	}
	stone = make([]Wire, n) // own and opp never both hold: OR is XOR, free
	empty = make([]Wire, n)
	for p := range n {
		stone[p] = b.XOR(st.own[p], st.opp[p])
		empty[p] = b.NOT(stone[p])
	}
	return st, stone, empty
}

// decodeTry decodes the try: one-hot column and row, never trusted from
// the mover (a column or row off the board is a pass), the one-hot
// point and its index.
func (rb *refereeBuild) decodeTry(try []Wire) tryWires {
	b, l, s, n, nl := rb.b, rb.l, rb.s, rb.n, rb.nl
	tx, ty := try[:l.CoordBits], try[l.CoordBits:]
	hx, hy := b.Decode(tx, s), b.Decode(ty, s)
	isPoint := b.AND(b.LessConst(tx, uint64(s)), b.LessConst(ty, uint64(s)))
	pass := b.NOT(isPoint)
	h := make([]Wire, n)
	for p := range n {
		h[p] = b.AND(hx[p%s], hy[p/s])
	}
	// The index of the try in binary, free from the one-hot vector.
	moveIndex := make([]Wire, nl)
	for k := range nl {
		var ws []Wire
		for p := range n {
			if p>>uint(k)&1 == 1 {
				ws = append(ws, h[p])
			}
		}
		moveIndex[k] = b.XorAll(ws)
	}
	return tryWires{hx: hx, hy: hy, h: h, isPoint: isPoint, pass: pass, moveIndex: moveIndex}
}

// readAroundTry reads the stones and the labels at the try and at its
// four neighbours, and whether the try is at the ko point.
func (rb *refereeBuild) readAroundTry(st statePlanes, tw tryWires) aroundTry {
	b, s, n, nl := rb.b, rb.s, rb.n, rb.nl
	hx, hy, h := tw.hx, tw.hy, tw.h
	// Reading a plane at the try and at its four neighbours: select the
	// row (and the rows above and below) with the row one-hot, then the
	// column with the column one-hot.
	rowRead := func(plane []Wire, dy int) []Wire {
		r := make([]Wire, s)
		for x := range s {
			acc := b.Zero()
			for y := range s {
				if yy := y + dy; yy >= 0 && yy < s {
					acc = b.XOR(acc, b.AND(hy[y], plane[yy*s+x]))
				}
			}
			r[x] = acc
		}
		return r
	}
	colRead := func(row []Wire, dx int) Wire {
		acc := b.Zero()
		for x := range s {
			if xx := x + dx; xx >= 0 && xx < s {
				acc = b.XOR(acc, b.AND(hx[x], row[xx]))
			}
		}
		return acc
	}
	around := func(plane []Wire) (at Wire, nb [4]Wire) {
		rows := [3][]Wire{rowRead(plane, -1), rowRead(plane, 0), rowRead(plane, 1)} // by dy+1
		at = colRead(rows[1], 0)
		for d, dir := range refereeDirs {
			nb[d] = colRead(rows[dir[1]+1], dir[0])
		}
		return at, nb
	}
	var at aroundTry
	at.occOwn, at.nbOwn = around(st.own)
	at.occOpp, at.nbOpp = around(st.opp)
	for d := range at.nbLabel {
		at.nbLabel[d] = make([]Wire, nl)
	}
	for k := range nl {
		plane := make([]Wire, n)
		for p := range n {
			plane[p] = st.label[p][k]
		}
		_, nb := around(plane)
		for d := range nb {
			at.nbLabel[d][k] = nb[d]
		}
	}
	at.atKo = b.InnerProduct(h, st.ko)
	return at
}

// findNeighbourChains finds the chains next to the try: a chain is the
// stones whose label is the neighbour's (gated on the stone, PG-3: a
// captured point keeps its stale label), each counted from the first
// direction that sees it.
func (rb *refereeBuild) findNeighbourChains(st statePlanes, stone []Wire, at aroundTry) neighbourChains {
	b, n, nl, flaws := rb.b, rb.n, rb.nl, rb.flaws
	nbOwn, nbOpp, nbLabel := at.nbOwn, at.nbOpp, at.nbLabel
	// The chains next to the try. ref[d] is the label of the neighbour in
	// direction d, or all ones (no point's index) when it is empty or off
	// the board, so that nothing matches it.
	var nbStone [4]Wire
	var ref [4][]Wire
	var inChain [4][]Wire
	for d := range 4 {
		nbStone[d] = b.XOR(nbOwn[d], nbOpp[d])
		ref[d] = make([]Wire, nl)
		for k := range nl {
			ref[d][k] = b.OR(nbLabel[d][k], b.NOT(nbStone[d]))
		}
		inChain[d] = make([]Wire, n)
		for q := range n {
			terms := make([]Wire, 0, nl+1)
			if !flaws.noStoneGate {
				// A captured point keeps its stale label: gate on the stone.
				terms = append(terms, stone[q])
			}
			for k := range nl {
				terms = append(terms, b.XNOR(st.label[q][k], ref[d][k]))
			}
			inChain[d][q] = b.AndAll(terms)
		}
	}
	// The same chain may touch the try from several sides: first[d] is
	// false when an earlier direction sees the same chain.
	var first [4]Wire
	for d := range 4 {
		var same []Wire
		for e := range d {
			same = append(same, b.Equal(ref[d], ref[e]))
		}
		first[d] = b.NOT(b.OrAll(same))
		if flaws.noDedupe {
			first[d] = b.One()
		}
	}
	return neighbourChains{ref: ref, inChain: inChain, first: first}
}

// neighbours returns the points next to point p.
func (rb *refereeBuild) neighbours(p int) []int {
	s := rb.s
	x, y := p%s, p/s
	var ns []int
	for _, dir := range refereeDirs {
		if xx, yy := x+dir[0], y+dir[1]; xx >= 0 && xx < s && yy >= 0 && yy < s {
			ns = append(ns, yy*s+xx)
		}
	}
	return ns
}

// libertySet returns the points of free that touch a point of set.
func (rb *refereeBuild) libertySet(set, free []Wire) []Wire {
	b, n := rb.b, rb.n
	libs := make([]Wire, n)
	for r := range n {
		var touch []Wire
		for _, q := range rb.neighbours(r) {
			touch = append(touch, set[q])
		}
		libs[r] = b.AND(free[r], b.OrAll(touch))
	}
	return libs
}

// findCaptures counts the liberties of the chains next to the try, the
// try point excluded, and finds the opponent chains the try captures
// (those with none left) and the mover's that were in atari.
func (rb *refereeBuild) findCaptures(empty []Wire, tw tryWires, at aroundTry, nc neighbourChains) tryCaptures {
	b, n, tellsAtari := rb.b, rb.n, rb.tellsAtari
	h, nbOwn, nbOpp, inChain, first := tw.h, at.nbOwn, at.nbOpp, nc.inChain, nc.first
	// Liberties of the neighbour chains, the try point excluded. For an
	// opponent chain these are its liberties after the move (captures
	// never give liberties to the opponent); for one of the mover's, its
	// liberties before the move other than the try.
	freeNotTry := make([]Wire, n)
	for r := range n {
		freeNotTry[r] = b.AND(empty[r], b.NOT(h[r]))
	}
	var anyLib, oneLib [4]Wire
	for d := range 4 {
		libs := rb.libertySet(inChain[d], freeNotTry)
		if tellsAtari {
			a, m := b.AnyMany(libs)
			anyLib[d], oneLib[d] = a, b.AND(a, b.NOT(m))
		} else {
			anyLib[d] = b.OrAll(libs)
		}
	}
	var captured, wasInAtari [4]Wire
	for d := range 4 {
		captured[d] = b.AND(nbOpp[d], b.NOT(anyLib[d]))
		wasInAtari[d] = b.AND(nbOwn[d], b.NOT(anyLib[d]))
	}
	capRaw := make([]Wire, n) // the stones the try captures if it is played
	inAny := make([]Wire, n)
	for q := range n {
		var capt, in []Wire
		for d := range 4 {
			capt = append(capt, b.AND(b.AND(captured[d], first[d]), inChain[d][q]))
			in = append(in, inChain[d][q])
		}
		capRaw[q] = b.XorAll(capt) // each captured chain counted once
		inAny[q] = b.OrAll(in)
	}
	return tryCaptures{freeNotTry: freeNotTry, oneLib: oneLib, captured: captured, wasInAtari: wasInAtari, capRaw: capRaw, inAny: inAny}
}

// findMoverChain finds the mover's chain if the try is played, and
// whether it has liberties after the captures, and exactly one.
func (rb *refereeBuild) findMoverChain(st statePlanes, tw tryWires, cp tryCaptures) moverChain {
	b, n, flaws := rb.b, rb.n, rb.flaws
	h, inAny, freeNotTry, capRaw := tw.h, cp.inAny, cp.freeNotTry, cp.capRaw
	// The mover's chain after the move: the try and the mover's chains it
	// touches, and its liberties after the captures.
	chain := make([]Wire, n)
	for q := range n {
		chain[q] = b.XOR(h[q], b.AND(inAny[q], st.own[q]))
	}
	freeAfter := make([]Wire, n)
	for r := range n {
		freeAfter[r] = b.XOR(freeNotTry[r], capRaw[r])
		if flaws.suicideBeforeCaptures {
			freeAfter[r] = freeNotTry[r]
		}
	}
	anyLibAfter, manyLibAfter := b.AnyMany(rb.libertySet(chain, freeAfter))
	oneLibAfter := b.AND(anyLibAfter, b.NOT(manyLibAfter))
	return moverChain{chain: chain, anyLibAfter: anyLibAfter, oneLibAfter: oneLibAfter}
}

// countCaptures counts the stones the try captures, and says whether it
// is exactly one (ko, PG-4).
func (rb *refereeBuild) countCaptures(cp tryCaptures) (count []Wire, countIsOne Wire) {
	b, capRaw := rb.b, cp.capRaw
	count = b.PopCount(capRaw)
	countIsOne = b.EqualConst(count, 1)
	return count, countIsOne
}

// judgeTry judges the try: a pass, a legal move, or illegal and why.
func (rb *refereeBuild) judgeTry(tw tryWires, at aroundTry, cp tryCaptures, mc moverChain) tryVerdict {
	b, flaws := rb.b, rb.flaws
	isPoint, pass, occOwn, occOpp, atKo, countIsOne, anyLibAfter := tw.isPoint, tw.pass, at.occOwn, at.occOpp, at.atKo, cp.countIsOne, mc.anyLibAfter
	// Legality and reason (PG-2, PG-4), first that applies: occupied by
	// the mover, by the opponent, ko, suicide.
	emptyAt := b.XOR(isPoint, b.XOR(occOwn, occOpp))
	isKo := b.AND(emptyAt, b.AND(atKo, countIsOne))
	isSuicide := b.AND(emptyAt, b.NOT(anyLibAfter)) // a capture always leaves a liberty, so never with ko
	moved := b.AND(b.AND(emptyAt, b.NOT(isKo)), anyLibAfter)
	legal := b.XOR(pass, moved)
	reason := [3]Wire{b.XOR(occOwn, isSuicide), b.XOR(occOpp, isSuicide), isKo} // phantom.TryReason 1..4
	update := moved
	if flaws.ungatedUpdate {
		update = emptyAt
	}
	return tryVerdict{moved: moved, legal: legal, reason: reason, update: update}
}

// atariFacts returns PG-5's facts of a move: it puts an opponent chain
// in atari (atariOpponent), and it puts the mover's own chain in atari
// (atariSelf).
func (rb *refereeBuild) atariFacts(at aroundTry, cp tryCaptures, mc moverChain, v tryVerdict) (Wire, Wire) {
	b, flaws := rb.b, rb.flaws
	nbOpp, oneLib, wasInAtari, captured, oneLibAfter, moved := at.nbOpp, cp.oneLib, cp.wasInAtari, cp.captured, mc.oneLibAfter, v.moved
	// PG-5. "and himself": the mover's chain has one liberty after the
	// move, and the move captured or no joined chain was in atari before.
	var putsInAtari, joinedInAtari, capturesChain []Wire
	for d := range 4 {
		putsInAtari = append(putsInAtari, b.AND(nbOpp[d], oneLib[d]))
		joinedInAtari = append(joinedInAtari, wasInAtari[d])
		capturesChain = append(capturesChain, captured[d])
	}
	atariOpponent := b.AND(moved, b.OrAll(putsInAtari))
	joinedAtariNoCapture := b.AND(b.OrAll(joinedInAtari), b.NOT(b.OrAll(capturesChain)))
	if flaws.selfAtariWithoutCaptureClause {
		joinedAtariNoCapture = b.OrAll(joinedInAtari)
	}
	atariSelf := b.AND(moved, b.AND(oneLibAfter, b.NOT(joinedAtariNoCapture)))
	return atariOpponent, atariSelf
}

// nextState returns the state after the try and the points captured
// (capOut, none unless the board changes): the stones, the ko point, and
// the chain the move makes labelled with the try's index.
func (rb *refereeBuild) nextState(st statePlanes, tw tryWires, at aroundTry, cp tryCaptures, mc moverChain, v tryVerdict) (next statePlanes, capOut []Wire) {
	b, n := rb.b, rb.n
	h, moveIndex, nbOwn, capRaw, countIsOne := tw.h, tw.moveIndex, at.nbOwn, cp.capRaw, cp.countIsOne
	chain, oneLibAfter, moved, legal, update := mc.chain, mc.oneLibAfter, v.moved, v.legal, v.update
	var ownNeighbour []Wire
	for d := range 4 {
		ownNeighbour = append(ownNeighbour, nbOwn[d])
	}
	// The next state. PG-4: a single stone that captured exactly one stone
	// and has exactly one liberty makes the captured point the ko point;
	// any move or pass clears it, an illegal try keeps it.
	setsKo := b.AND(moved, b.AND(countIsOne, b.AND(b.NOT(b.OrAll(ownNeighbour)), oneLibAfter)))
	next = statePlanes{own: make([]Wire, n), opp: make([]Wire, n), ko: make([]Wire, n), label: make([][]Wire, n)}
	capOut = make([]Wire, n)
	for p := range n {
		capOut[p] = b.AND(update, capRaw[p])
		next.own[p] = b.XOR(st.own[p], b.AND(update, h[p]))
		next.opp[p] = b.XOR(st.opp[p], capOut[p])
		next.ko[p] = b.XOR(b.AND(setsKo, capRaw[p]), b.AND(b.NOT(legal), st.ko[p]))
		relabel := b.AND(update, chain[p])
		next.label[p] = b.MuxWord(relabel, moveIndex, st.label[p])
	}
	return next, capOut
}

// emit makes w the next output, readable by r; an output for the
// garbler alone takes the garbler's next mask bit (XORed into it here,
// or, with the masks in the decoding bits, by the garbler there). It
// returns the output's index.
func (rb *refereeBuild) emit(w Wire, to Recipient) int {
	b, l := rb.b, rb.l
	m := -1
	if to == RecipientGarbler {
		m = rb.maskIndex
		rb.maskIndex++
		if !l.MasksInDecoding {
			mw := b.Inputs(Garbler, 1)[0]
			l.MaskIn = append(l.MaskIn, b.NumInputs(Garbler)-1)
			w = b.XOR(w, mw)
		}
	}
	l.Recipient = append(l.Recipient, to)
	l.OutputMask = append(l.OutputMask, m)
	return b.Outputs(w)
}

// private returns the recipient of a fact for the mover's player
// (toMover) or for its opponent's.
func (rb *refereeBuild) private(toMover bool) Recipient {
	if (rb.mover == Garbler) == toMover {
		return RecipientGarbler
	}
	return RecipientEvaluator
}

// emitAnnouncement makes the outputs of the announcement (PG-6..PG-8),
// each for whom the rules tell it: pass and legal, the reason, the
// number of captures, the ataris, the points captured.
func (rb *refereeBuild) emitAnnouncement(tw tryWires, v tryVerdict, cp tryCaptures, atariOpponent, atariSelf Wire, capOut []Wire) {
	b, l, n, rules, tellsAtari := rb.b, rb.l, rb.n, rb.rules, rb.tellsAtari
	pass, legal, reason, moved, count := tw.pass, v.legal, v.reason, v.moved, cp.count
	l.Pass = rb.emit(pass, RecipientBoth)
	l.Legal = rb.emit(legal, RecipientBoth)
	reasonTo := rb.private(true)
	if rules == engine.RulesHamburg {
		reasonTo = RecipientBoth
	}
	for i := range reason {
		l.Reason[i] = rb.emit(reason[i], reasonTo)
	}
	for _, c := range count {
		l.CaptureCount = append(l.CaptureCount, rb.emit(b.AND(moved, c), RecipientBoth))
	}
	if tellsAtari {
		l.AtariOpponent = rb.emit(atariOpponent, RecipientBoth)
		l.AtariSelf = rb.emit(atariSelf, RecipientBoth)
	}
	switch rules {
	case engine.RulesCommon:
		for p := range n {
			l.Captured = append(l.Captured, rb.emit(capOut[p], RecipientBoth))
		}
	case engine.RulesKriegspiel:
		to := rb.private(false)
		for p := range n {
			l.Captured = append(l.Captured, rb.emit(capOut[p], to))
		}
	}
}

// emitNextShare makes the last outputs, the evaluator's share of the
// next state: the next state XOR the garbler's state mask (in the
// circuit, or with the masks in the decoding bits, there).
func (rb *refereeBuild) emitNextShare(next, stateMask statePlanes) {
	b, l, n, nl := rb.b, rb.l, rb.n, rb.nl
	l.ShareOut = statePositions(b.NumOutputs(), n, nl)
	sm := statePositions(0, n, nl)
	outState := make([]Wire, l.StateBits)
	for p := range n {
		outState[sm.Own[p]] = next.own[p]
		outState[sm.Opp[p]] = next.opp[p]
		outState[sm.Ko[p]] = next.ko[p]
		for k := range nl {
			outState[sm.Label[p][k]] = next.label[p][k]
		}
	}
	if l.MasksInDecoding {
		for i := range outState {
			l.Recipient = append(l.Recipient, RecipientEvaluator)
			l.OutputMask = append(l.OutputMask, i)
			b.Outputs(outState[i])
		}
	} else {
		maskState := make([]Wire, l.StateBits)
		for p := range n {
			maskState[sm.Own[p]] = stateMask.own[p]
			maskState[sm.Opp[p]] = stateMask.opp[p]
			maskState[sm.Ko[p]] = stateMask.ko[p]
			for k := range nl {
				maskState[sm.Label[p][k]] = stateMask.label[p][k]
			}
		}
		for i := range outState {
			l.Recipient = append(l.Recipient, RecipientEvaluator)
			l.OutputMask = append(l.OutputMask, i)
			b.Outputs(b.XOR(outState[i], maskState[i]))
		}
	}
}

// finish completes the layout (the number of mask bits and of inputs)
// and builds the circuit.
func (rb *refereeBuild) finish() (*RefereeLayout, *Circuit, error) {
	b, l := rb.b, rb.l
	l.Masks = rb.maskIndex
	l.NumInputs = [2]int{b.NumInputs(Garbler), b.NumInputs(Evaluator)}
	return l, b.Build(), nil
}
