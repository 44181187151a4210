package circuit

import (
	"fmt"
	"math/bits"

	"github.com/kakure/kakure/engine"
)

// Recipient says who may read an output bit of the referee circuit.
type Recipient uint8

// The recipients of an output bit. The evaluator decodes every output of
// the garbled circuit; it keeps what is for it, and forwards to the
// garbler (preferably as output labels, which the evaluator cannot forge)
// what is for both and what is for the garbler.
const (
	// RecipientBoth: a fact both players are told, in the clear.
	RecipientBoth Recipient = iota
	// RecipientGarbler: a fact only the garbler's player is told. The bit
	// is XORed with a random mask bit of the garbler ([RefereeLayout.OutputMask]),
	// so the evaluator, who decodes it, learns nothing.
	RecipientGarbler
	// RecipientEvaluator: only the evaluator's player is told; the
	// evaluator never forwards it. The next state share is of this kind: it
	// is masked with the garbler's next share.
	RecipientEvaluator
)

// String returns "both", "garbler" or "evaluator".
func (r Recipient) String() string {
	switch r {
	case RecipientBoth:
		return "both"
	case RecipientGarbler:
		return "garbler"
	case RecipientEvaluator:
		return "evaluator"
	}
	return fmt.Sprintf("Recipient(%d)", uint8(r))
}

// StatePositions locates the bits of one referee state in a bit vector:
// each entry is an index into that vector. The state is seen from the
// mover of the try: Own are the mover's stones and Opp the opponent's
// ([RefereeLayout.Inputs] and [RefereeLayout.NextShare] turn Black and
// White into Own and Opp and back).
type StatePositions struct {
	// Own and Opp are indexed by point (y*size+x).
	Own, Opp []int
	// Label[p] are the RefereeLabelBits bits of point p's label, least
	// significant first.
	Label [][]int
	// Ko is indexed by point.
	Ko []int
}

// statePositions returns the positions of a state stored from base on, in
// the order Own (per point), Opp, Label (point-major, low bit first), Ko.
func statePositions(base, n, labelBits int) StatePositions {
	sp := StatePositions{Own: make([]int, n), Opp: make([]int, n), Label: make([][]int, n), Ko: make([]int, n)}
	for p := range n {
		sp.Own[p] = base + p
		sp.Opp[p] = base + n + p
		sp.Label[p] = make([]int, labelBits)
		for k := range labelBits {
			sp.Label[p][k] = base + 2*n + p*labelBits + k
		}
		sp.Ko[p] = base + 2*n + n*labelBits + p
	}
	return sp
}

// RefereeLayout says where everything is in the inputs and outputs of a
// Phantom Go referee circuit built by [RefereeCircuit], who may read each
// output, and how output bits are masked.
//
// Inputs of party P are positions in Circuit.Inputs[P] (the input bit
// vector P gives): in this order,
//
//  1. ShareIn[P]: P's XOR share of the state ([RefereeState]), seen from
//     the mover (both parties);
//  2. TryX, TryY: the mover's try, column and row of CoordBits bits each,
//     least significant first (MoverParty only). A column or row of Size or
//     more is a pass; [RefereeLayout.Inputs] writes a pass as (Size, Size);
//  3. MaskIn: the garbler's mask bits, fresh random bits for every try
//     (Garbler only). Mask bit i is at MaskIn[i]. The first StateBits are
//     the garbler's next state share (StateMask locates them in the mask
//     vector); the rest mask the outputs for the garbler. A layout with
//     MasksInDecoding has no mask inputs: the garbler XORs its mask bits
//     into the decoding bits instead (MPC-D27).
//
// Outputs are positions in Circuit.Outputs: the announcement fields, then
// the evaluator's next state share ShareOut = next state XOR the
// garbler's StateMask. After a try the garbler's next share is its
// StateMask bits and the evaluator's is ShareOut ([RefereeLayout.NextShare]
// reads both): a fresh sharing of the next state, which is the same state
// after an illegal try, re-randomized.
//
// Announcement fields (PG-6..PG-8, PG-D1; Recipient gives each bit's
// reader):
//
//	Pass, Legal      both                 event: pass / illegal (!Legal) / moved
//	Reason[0..2]     mover; both (hamburg) the phantom.TryReason value, 0 if legal or pass
//	CaptureCount     both                 number of stones captured, 0 unless moved
//	AtariOpponent,   both (common,        PG-5 facts, false unless moved;
//	AtariSelf        hamburg)             -1 under kriegspiel (no such output)
//	Captured[p]      both (common);       captured points; nil under hamburg
//	                 opponent (kriegspiel)
//
// A bit for one player only is for the garbler or the evaluator depending
// on MoverParty; a bit for the garbler is XORed with its own mask bit
// (OutputMask), so the evaluator may decode every output.
type RefereeLayout struct {
	Size   int
	Points int
	Rules  engine.PhantomRules
	// MoverParty is the party whose player makes the try.
	MoverParty Party
	// LabelBits is the width of a group label, CoordBits of a try
	// coordinate, CountBits of CaptureCount.
	LabelBits, CoordBits, CountBits int
	// StateBits is the number of bits of one state: Points*(3+LabelBits).
	StateBits int
	// NumInputs[P] is len(Circuit.Inputs[P]).
	NumInputs [2]int

	// Inputs.
	ShareIn    [2]StatePositions
	TryX, TryY []int
	MaskIn     []int
	StateMask  StatePositions

	// Outputs.
	Pass, Legal   int
	Reason        [3]int
	CaptureCount  []int
	AtariOpponent int
	AtariSelf     int
	Captured      []int
	ShareOut      StatePositions
	// Recipient[i] says who may read output i; OutputMask[i] is the index
	// in the garbler's mask vector of the bit XORed into output i, or -1.
	Recipient  []Recipient
	OutputMask []int
	// MasksInDecoding says where the garbler's mask bits go (MPC-D27):
	// false, they are circuit inputs (MaskIn) XORed into the outputs they
	// mask; true, the circuit has no mask inputs (MaskIn is empty), its
	// outputs are unmasked, and the garbler XORs mask bit OutputMask[i]
	// into the decoding bit of output i instead, so that the evaluator
	// decodes the same masked bit ([RefereeLayout.MaskOutputs]).
	MasksInDecoding bool
	// Masks is the number of the garbler's mask bits: StateBits, then one
	// per output for the garbler.
	Masks int
}

// refereeFlaws are deliberate bugs, each one of the pitfalls of the design
// notes, for tests that prove their scenario catches it. The zero value is
// the correct circuit.
type refereeFlaws struct {
	// noStoneGate compares labels without checking that the point holds a
	// stone, so stale labels of captured points join chains.
	noStoneGate bool
	// suicideBeforeCaptures judges the mover's liberties before removing
	// the captured stones.
	suicideBeforeCaptures bool
	// ungatedUpdate updates the board on every try at an empty point, legal
	// or not.
	ungatedUpdate bool
	// noDedupe takes a chain that touches the try on two sides twice.
	noDedupe bool
	// selfAtariWithoutCaptureClause computes "and himself" by the PG-5 of
	// old: never when the move joined a chain in atari, even if it captured.
	selfAtariWithoutCaptureClause bool
}

// RefereeCircuit builds the circuit of one Phantom Go try on a board of
// side size under rules, with the try made by the player of party mover,
// and its layout. It matches [phantom.Referee.Try] and
// [phantom.Announce] bit for bit (trust.md T-9): see RefereeLayout
// for the inputs, the outputs and who reads what.
//
// The circuit keeps a group label per point instead of searching chains: a
// chain next to the try is the set of stones whose label equals the
// neighbour's. On a legal move the chain made by the new stone is
// relabelled with the new stone's index. Both boards, the labels and the
// ko point stay XOR-shared; the whose-turn and pass count are public and
// kept outside.
func RefereeCircuit(size int, rules engine.PhantomRules, mover Party) (*RefereeLayout, *Circuit, error) {
	return buildReferee(size, rules, mover, false, refereeFlaws{})
}

// RefereeCircuitMasksInDecoding is RefereeCircuit with the garbler's mask
// bits moved out of the circuit into the decoding bits (MPC-D27): the
// circuit has no mask inputs and outputs every bit unmasked; the layout
// has MasksInDecoding set and OutputMask says which mask bit the garbler
// XORs into the decoding bit of each output.
func RefereeCircuitMasksInDecoding(size int, rules engine.PhantomRules, mover Party) (*RefereeLayout, *Circuit, error) {
	return buildReferee(size, rules, mover, true, refereeFlaws{})
}

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

func buildReferee(size int, rules engine.PhantomRules, mover Party, masksInDecoding bool, flaws refereeFlaws) (*RefereeLayout, *Circuit, error) {
	if size < engine.MinSize || size > engine.MaxSize {
		return nil, nil, fmt.Errorf("circuit: Phantom Go board size %d (allowed %d to %d): %w", size, engine.MinSize, engine.MaxSize, engine.ErrBadOptions)
	}
	switch rules {
	case engine.RulesCommon, engine.RulesHamburg, engine.RulesKriegspiel:
	default:
		return nil, nil, fmt.Errorf("circuit: unknown Phantom rule set %q: %w", rules, engine.ErrBadOptions)
	}
	if mover != Garbler && mover != Evaluator {
		return nil, nil, fmt.Errorf("circuit: the mover is %v, not the garbler or the evaluator", mover)
	}
	s, n := size, size*size
	nl := RefereeLabelBits(size)
	l := &RefereeLayout{
		Size: s, Points: n, Rules: rules, MoverParty: mover,
		LabelBits: nl, CoordBits: bits.Len(uint(s)), CountBits: bits.Len(uint(n)),
		StateBits:     n * (3 + nl),
		AtariOpponent: -1, AtariSelf: -1,
	}
	b := NewBuilder()

	// Inputs.
	var shares [2]statePlanes
	var try []Wire
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
	l.MasksInDecoding = masksInDecoding
	l.StateMask = statePositions(0, n, nl)
	var stateMask statePlanes
	if !l.MasksInDecoding {
		maskBase := b.NumInputs(Garbler)
		stateMask = splitState(b.Inputs(Garbler, l.StateBits), n, nl)
		for i := range l.StateBits {
			l.MaskIn = append(l.MaskIn, maskBase+i)
		}
	}

	// The whole state, from the two shares.
	var st statePlanes
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
	stone := make([]Wire, n) // own and opp never both hold: OR is XOR, free
	empty := make([]Wire, n)
	for p := range n {
		stone[p] = b.XOR(st.own[p], st.opp[p])
		empty[p] = b.NOT(stone[p])
	}

	// The try: one-hot column and row, never trusted from the mover.
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
	occOwn, nbOwn := around(st.own)
	occOpp, nbOpp := around(st.opp)
	var nbLabel [4][]Wire
	for d := range nbLabel {
		nbLabel[d] = make([]Wire, nl)
	}
	for k := range nl {
		plane := make([]Wire, n)
		for p := range n {
			plane[p] = st.label[p][k]
		}
		_, nb := around(plane)
		for d := range nb {
			nbLabel[d][k] = nb[d]
		}
	}
	atKo := b.InnerProduct(h, st.ko)

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

	neighbours := func(p int) []int {
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
	libertySet := func(set, free []Wire) []Wire {
		libs := make([]Wire, n)
		for r := range n {
			var touch []Wire
			for _, q := range neighbours(r) {
				touch = append(touch, set[q])
			}
			libs[r] = b.AND(free[r], b.OrAll(touch))
		}
		return libs
	}

	// Liberties of the neighbour chains, the try point excluded. For an
	// opponent chain these are its liberties after the move (captures
	// never give liberties to the opponent); for one of the mover's, its
	// liberties before the move other than the try.
	freeNotTry := make([]Wire, n)
	for r := range n {
		freeNotTry[r] = b.AND(empty[r], b.NOT(h[r]))
	}
	tellsAtari := rules != engine.RulesKriegspiel
	var anyLib, oneLib [4]Wire
	for d := range 4 {
		libs := libertySet(inChain[d], freeNotTry)
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
	anyLibAfter, manyLibAfter := b.AnyMany(libertySet(chain, freeAfter))
	oneLibAfter := b.AND(anyLibAfter, b.NOT(manyLibAfter))
	count := b.PopCount(capRaw)
	countIsOne := b.EqualConst(count, 1)

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

	// PG-5. "and himself": the mover's chain has one liberty after the
	// move, and the move captured or no joined chain was in atari before.
	var putsInAtari, joinedInAtari, capturesChain, ownNeighbour []Wire
	for d := range 4 {
		putsInAtari = append(putsInAtari, b.AND(nbOpp[d], oneLib[d]))
		joinedInAtari = append(joinedInAtari, wasInAtari[d])
		capturesChain = append(capturesChain, captured[d])
		ownNeighbour = append(ownNeighbour, nbOwn[d])
	}
	atariOpponent := b.AND(moved, b.OrAll(putsInAtari))
	joinedAtariNoCapture := b.AND(b.OrAll(joinedInAtari), b.NOT(b.OrAll(capturesChain)))
	if flaws.selfAtariWithoutCaptureClause {
		joinedAtariNoCapture = b.OrAll(joinedInAtari)
	}
	atariSelf := b.AND(moved, b.AND(oneLibAfter, b.NOT(joinedAtariNoCapture)))

	// The next state. PG-4: a single stone that captured exactly one stone
	// and has exactly one liberty makes the captured point the ko point;
	// any move or pass clears it, an illegal try keeps it.
	setsKo := b.AND(moved, b.AND(countIsOne, b.AND(b.NOT(b.OrAll(ownNeighbour)), oneLibAfter)))
	next := statePlanes{own: make([]Wire, n), opp: make([]Wire, n), ko: make([]Wire, n), label: make([][]Wire, n)}
	capOut := make([]Wire, n)
	for p := range n {
		capOut[p] = b.AND(update, capRaw[p])
		next.own[p] = b.XOR(st.own[p], b.AND(update, h[p]))
		next.opp[p] = b.XOR(st.opp[p], capOut[p])
		next.ko[p] = b.XOR(b.AND(setsKo, capRaw[p]), b.AND(b.NOT(legal), st.ko[p]))
		relabel := b.AND(update, chain[p])
		next.label[p] = b.MuxWord(relabel, moveIndex, st.label[p])
	}

	// Outputs.
	maskIndex := l.StateBits
	emit := func(w Wire, r Recipient) int {
		m := -1
		if r == RecipientGarbler {
			m = maskIndex
			maskIndex++
			if !l.MasksInDecoding {
				mw := b.Inputs(Garbler, 1)[0]
				l.MaskIn = append(l.MaskIn, b.NumInputs(Garbler)-1)
				w = b.XOR(w, mw)
			}
		}
		l.Recipient = append(l.Recipient, r)
		l.OutputMask = append(l.OutputMask, m)
		return b.Outputs(w)
	}
	private := func(toMover bool) Recipient {
		if (mover == Garbler) == toMover {
			return RecipientGarbler
		}
		return RecipientEvaluator
	}
	l.Pass = emit(pass, RecipientBoth)
	l.Legal = emit(legal, RecipientBoth)
	reasonTo := private(true)
	if rules == engine.RulesHamburg {
		reasonTo = RecipientBoth
	}
	for i := range reason {
		l.Reason[i] = emit(reason[i], reasonTo)
	}
	for _, c := range count {
		l.CaptureCount = append(l.CaptureCount, emit(b.AND(moved, c), RecipientBoth))
	}
	if tellsAtari {
		l.AtariOpponent = emit(atariOpponent, RecipientBoth)
		l.AtariSelf = emit(atariSelf, RecipientBoth)
	}
	switch rules {
	case engine.RulesCommon:
		for p := range n {
			l.Captured = append(l.Captured, emit(capOut[p], RecipientBoth))
		}
	case engine.RulesKriegspiel:
		to := private(false)
		for p := range n {
			l.Captured = append(l.Captured, emit(capOut[p], to))
		}
	}
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
	l.Masks = maskIndex
	l.NumInputs = [2]int{b.NumInputs(Garbler), b.NumInputs(Evaluator)}
	return l, b.Build(), nil
}
