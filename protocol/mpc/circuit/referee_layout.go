package circuit

import (
	"errors"
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
)

// ErrBadOutput reports referee circuit outputs that no honest run gives:
// a pass and an illegal try at once, an unknown reason, a captured list
// that does not fit its count, and the like.
var ErrBadOutput = errors.New("circuit: bad referee output")

// MaskBits returns the number of the garbler's mask bits: len(MaskIn),
// or with MasksInDecoding the bits it XORs into the decoding bits.
func (l *RefereeLayout) MaskBits() int { return l.Masks }

// MaskOutputs returns the outputs as the evaluator decodes them from the
// circuit's outputs and the garbler's mask bits: with MasksInDecoding
// (MPC-D27) output i XOR mask bit OutputMask[i] where there is one, as
// the garbler's flipped decoding bits give it; otherwise the outputs as
// they are (the circuit masked them).
func (l *RefereeLayout) MaskOutputs(outputs, mask []bool) ([]bool, error) {
	if len(outputs) != len(l.Recipient) {
		return nil, fmt.Errorf("%w: %d output bits, the circuit has %d", ErrBadOutput, len(outputs), len(l.Recipient))
	}
	out := append([]bool(nil), outputs...)
	if !l.MasksInDecoding {
		return out, nil
	}
	if len(mask) != l.MaskBits() {
		return nil, fmt.Errorf("%w: %d mask bits, the layout has %d", ErrInputLength, len(mask), l.MaskBits())
	}
	for i, m := range l.OutputMask {
		if m >= 0 {
			out[i] = out[i] != mask[m]
		}
	}
	return out, nil
}

// moverSide returns the colours of Own and Opp for a try by mover.
func moverSide(mover engine.Color) (own, opp engine.Color, err error) {
	if mover != engine.Black && mover != engine.White {
		return 0, 0, fmt.Errorf("circuit: the mover is %v, not black or white", mover)
	}
	return mover, mover.Opponent(), nil
}

// playerOf returns the colour of party's player when mover tries.
func (l *RefereeLayout) playerOf(party Party, mover engine.Color) engine.Color {
	if party == l.MoverParty {
		return mover
	}
	return mover.Opponent()
}

// Inputs returns the input bits of party for a try by the player of colour
// mover: party's state share, the try (party == MoverParty only; a point
// of the board or engine.Pass; ignored otherwise) and the garbler's mask
// bits (Garbler only: MaskBits fresh random bits; nil for the evaluator).
// With MasksInDecoding the mask bits are not inputs: the garbler's are
// checked for their number and not placed.
func (l *RefereeLayout) Inputs(party Party, mover engine.Color, share RefereeState, try engine.Point, mask []bool) ([]bool, error) {
	if party != Garbler && party != Evaluator {
		return nil, fmt.Errorf("circuit: inputs of %v", party)
	}
	own, _, err := moverSide(mover)
	if err != nil {
		return nil, err
	}
	if err := share.checkShape(); err != nil {
		return nil, err
	}
	if share.Size != l.Size {
		return nil, fmt.Errorf("%w: a share of side %d for a circuit of side %d", ErrBadState, share.Size, l.Size)
	}
	in := make([]bool, l.NumInputs[party])
	ownStones, oppStones := share.Black, share.White
	if own == engine.White {
		ownStones, oppStones = share.White, share.Black
	}
	sp := l.ShareIn[party]
	for p := range l.Points {
		in[sp.Own[p]] = ownStones[p]
		in[sp.Opp[p]] = oppStones[p]
		in[sp.Ko[p]] = share.Ko[p]
		for k, at := range sp.Label[p] {
			in[at] = share.Label[p]>>uint(k)&1 == 1
		}
	}
	if party == l.MoverParty {
		bits, err := l.TryBits(try)
		if err != nil {
			return nil, err
		}
		if err := l.PlaceTry(in, bits); err != nil {
			return nil, err
		}
	}
	switch {
	case party == Garbler && len(mask) != l.MaskBits():
		return nil, fmt.Errorf("%w: the garbler gives %d mask bits, the circuit takes %d", ErrInputLength, len(mask), l.MaskBits())
	case party == Evaluator && len(mask) != 0:
		return nil, fmt.Errorf("%w: the evaluator gives no mask bits", ErrInputLength)
	}
	for i, at := range l.MaskIn {
		if party == Garbler {
			in[at] = mask[i]
		}
	}
	return in, nil
}

// TryBits returns the bits of try as the circuit reads them, column then
// row, CoordBits each, least significant first; a pass is (Size, Size).
func (l *RefereeLayout) TryBits(try engine.Point) ([]bool, error) {
	x, y := l.Size, l.Size
	switch {
	case try == engine.Pass:
	case try >= 0 && int(try) < l.Points:
		x, y = try.XY(l.Size)
	default:
		return nil, fmt.Errorf("circuit: try at %d is not a point of a %d×%d board nor a pass: %w", try, l.Size, l.Size, engine.ErrOffBoard)
	}
	bits := make([]bool, 2*l.CoordBits)
	for i := range l.CoordBits {
		bits[i] = x>>uint(i)&1 == 1
		bits[l.CoordBits+i] = y>>uint(i)&1 == 1
	}
	return bits, nil
}

// PlaceTry writes bits (2·CoordBits, as TryBits gives them) at the
// mover's try inputs TryX, TryY of in, the mover's input vector: its try,
// or with TryFlips the evaluator's random bits r (MPC-D52).
func (l *RefereeLayout) PlaceTry(in, bits []bool) error {
	return l.place(in, l.MoverParty, bits, l.TryX, l.TryY)
}

// PlaceFlips writes the flips d (2·CoordBits, try bits XOR the
// evaluator's random bits) at the garbler's inputs FlipX, FlipY of in,
// the garbler's input vector (TryFlips only, MPC-D52).
func (l *RefereeLayout) PlaceFlips(in, flips []bool) error {
	if !l.TryFlips {
		return fmt.Errorf("circuit: flips for a circuit without them")
	}
	return l.place(in, Garbler, flips, l.FlipX, l.FlipY)
}

func (l *RefereeLayout) place(in []bool, party Party, bits []bool, xs, ys []int) error {
	if len(in) != l.NumInputs[party] {
		return fmt.Errorf("%w: %d input bits of the %v, the circuit takes %d", ErrInputLength, len(in), party, l.NumInputs[party])
	}
	if len(bits) != 2*l.CoordBits {
		return fmt.Errorf("%w: %d try bits, the circuit takes %d", ErrInputLength, len(bits), 2*l.CoordBits)
	}
	for i := range l.CoordBits {
		in[xs[i]] = bits[i]
		in[ys[i]] = bits[l.CoordBits+i]
	}
	return nil
}

// VisibleOutputs returns the positions of the outputs party may read: for
// the evaluator all of them, for the garbler those for both and those for
// the garbler, which the evaluator forwards to it.
func (l *RefereeLayout) VisibleOutputs(party Party) []int {
	var vis []int
	for i, r := range l.Recipient {
		if party == Evaluator || r != RecipientEvaluator {
			vis = append(vis, i)
		}
	}
	return vis
}

// NextShare returns party's share of the state after the try of mover: the
// garbler's is its StateMask bits (mask, as given to Inputs; outputs is
// not read), the evaluator's the NextShare outputs (mask is not read).
func (l *RefereeLayout) NextShare(party Party, mover engine.Color, outputs, mask []bool) (RefereeState, error) {
	own, _, err := moverSide(mover)
	if err != nil {
		return RefereeState{}, err
	}
	var src []bool
	var sp StatePositions
	switch party {
	case Garbler:
		src, sp = mask, l.StateMask
		if len(mask) != l.MaskBits() {
			return RefereeState{}, fmt.Errorf("%w: %d mask bits, the circuit takes %d", ErrInputLength, len(mask), l.MaskBits())
		}
	case Evaluator:
		src, sp = outputs, l.ShareOut
		if len(outputs) != len(l.Recipient) {
			return RefereeState{}, fmt.Errorf("%w: %d output bits, the circuit has %d", ErrBadOutput, len(outputs), len(l.Recipient))
		}
	default:
		return RefereeState{}, fmt.Errorf("circuit: next share of %v", party)
	}
	st := EmptyRefereeState(l.Size)
	ownStones, oppStones := st.Black, st.White
	if own == engine.White {
		ownStones, oppStones = st.White, st.Black
	}
	for p := range l.Points {
		ownStones[p] = src[sp.Own[p]]
		oppStones[p] = src[sp.Opp[p]]
		st.Ko[p] = src[sp.Ko[p]]
		for k, at := range sp.Label[p] {
			if src[at] {
				st.Label[p] |= 1 << uint(k)
			}
		}
	}
	return st, nil
}

// Announcement returns what the player of party is told of the try of
// mover at try (the mover's own try, known to the mover's program; not
// read for the opponent), built from the circuit outputs party has
// (positions outside VisibleOutputs(party) are not read) and, for the
// garbler, its mask bits. The evaluator's outputs are the masked ones it
// decodes (MaskOutputs); the garbler's are those its labels give: masked
// by the circuit, or with MasksInDecoding the unmasked ones. The result equals phantom.Announce for that
// player; outputs that no honest run gives are an error wrapping
// ErrBadOutput or phantom.ErrBadAnnouncement.
func (l *RefereeLayout) Announcement(party Party, mover engine.Color, try engine.Point, outputs, mask []bool) (phantom.Announcement, error) {
	if _, _, err := moverSide(mover); err != nil {
		return phantom.Announcement{}, err
	}
	if party != Garbler && party != Evaluator {
		return phantom.Announcement{}, fmt.Errorf("circuit: announcement for %v", party)
	}
	if len(outputs) != len(l.Recipient) {
		return phantom.Announcement{}, fmt.Errorf("%w: %d output bits, the circuit has %d", ErrBadOutput, len(outputs), len(l.Recipient))
	}
	if party == Garbler && len(mask) != l.MaskBits() {
		return phantom.Announcement{}, fmt.Errorf("%w: %d mask bits, the circuit takes %d", ErrInputLength, len(mask), l.MaskBits())
	}
	read := func(i int) bool {
		v := outputs[i]
		switch l.Recipient[i] {
		case RecipientGarbler:
			if party != Garbler {
				panic("circuit: reading a garbler's output for the evaluator")
			}
			if !l.MasksInDecoding {
				// With MasksInDecoding the garbler reads the unmasked
				// output from its label (MPC-D27).
				v = v != mask[l.OutputMask[i]]
			}
		case RecipientEvaluator:
			if party != Evaluator {
				panic("circuit: reading an evaluator's output for the garbler")
			}
		}
		return v
	}
	to := l.playerOf(party, mover)
	mine := to == mover
	a := phantom.Announcement{Rules: l.Rules, Size: l.Size, Mover: mover, To: to, Point: engine.NoPoint}
	pass, legal := read(l.Pass), read(l.Legal)
	if mine && pass != (try == engine.Pass) {
		return phantom.Announcement{}, fmt.Errorf("%w: the try was %s and the circuit says pass=%v", ErrBadOutput, try.Vertex(l.Size), pass)
	}
	switch {
	case pass:
		if !legal {
			return phantom.Announcement{}, fmt.Errorf("%w: an illegal pass", ErrBadOutput)
		}
		a.Event = phantom.Passed
	case !legal:
		a.Event = phantom.Illegal
		if mine {
			a.Point = try
		}
		if mine || l.Rules == engine.RulesHamburg {
			r := 0
			for i, at := range l.Reason {
				if read(at) {
					r |= 1 << uint(i)
				}
			}
			if r == int(phantom.TryNoReason) || r > int(phantom.TryKo) {
				return phantom.Announcement{}, fmt.Errorf("%w: reason %d for an illegal try", ErrBadOutput, r)
			}
			a.Reason = phantom.TryReason(r)
		}
	default:
		a.Event = phantom.Moved
		if mine {
			a.Point = try
		}
		for i, at := range l.CaptureCount {
			if read(at) {
				a.Captures |= 1 << uint(i)
			}
		}
		if a.CapturedPointsKnown() {
			for p, at := range l.Captured {
				if read(at) {
					a.Captured = append(a.Captured, engine.Point(p))
				}
			}
		}
		if a.TellsAtari() {
			a.AtariOpponent, a.AtariSelf = read(l.AtariOpponent), read(l.AtariSelf)
		}
	}
	if err := a.Validate(); err != nil {
		return phantom.Announcement{}, err
	}
	return a, nil
}
