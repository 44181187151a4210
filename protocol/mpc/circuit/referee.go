package circuit

import (
	"fmt"

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
//     With TryFlips (MPC-D52) the evaluator's try bits at TryX, TryY
//     are random bits r, and the try is r XOR the flips d, garbler
//     inputs at FlipX, FlipY (after the garbler's share): the evaluator
//     sends d = try XOR r once its player has chosen, and the garbler
//     gives d's labels;
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
	// FlipX, FlipY are the garbler's inputs of the flips of the
	// evaluator's try (TryFlips only): the try's column bit i is
	// TryX[i] XOR FlipX[i] (MPC-D52).
	FlipX, FlipY []int
	MaskIn       []int
	StateMask    StatePositions

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
	// TryFlips says that the evaluator's try comes as random bits and
	// the garbler's flips of them (MPC-D52): MoverParty is the
	// evaluator, and FlipX, FlipY are set.
	TryFlips bool
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
	return buildReferee(size, rules, mover, RefereeForm{}, refereeFlaws{})
}

// RefereeForm chooses among the forms of the referee circuit that
// compute the same try: where the garbler's masks go (MPC-D27) and
// whether the evaluator's try comes flipped (MPC-D52).
type RefereeForm struct {
	// MasksInDecoding: see RefereeLayout.MasksInDecoding.
	MasksInDecoding bool
	// TryFlips: see RefereeLayout.TryFlips. It changes only the
	// circuits of the evaluator's tries; [RefereeCircuitOf] ignores it
	// for the garbler's.
	TryFlips bool
}

// RefereeCircuitOf is RefereeCircuit in the given form.
func RefereeCircuitOf(size int, rules engine.PhantomRules, mover Party, form RefereeForm) (*RefereeLayout, *Circuit, error) {
	if mover != Evaluator {
		form.TryFlips = false
	}
	return buildReferee(size, rules, mover, form, refereeFlaws{})
}

// RefereeCircuitMasksInDecoding is RefereeCircuit with the garbler's mask
// bits moved out of the circuit into the decoding bits (MPC-D27): the
// circuit has no mask inputs and outputs every bit unmasked; the layout
// has MasksInDecoding set and OutputMask says which mask bit the garbler
// XORs into the decoding bit of each output.
func RefereeCircuitMasksInDecoding(size int, rules engine.PhantomRules, mover Party) (*RefereeLayout, *Circuit, error) {
	return buildReferee(size, rules, mover, RefereeForm{MasksInDecoding: true}, refereeFlaws{})
}
