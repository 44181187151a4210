package referee

// The evaluator's try by flips (MPC-D52): its try bits are random bits
// of its seed, taken by OT with its share before its player plays, and
// the flips d = try XOR r, sent in the clear once it has; the garbler's
// labels of the flips (circuit inputs of its own, committed in value
// order) follow.

import (
	"encoding/binary"
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// labelTryFlip draws the evaluator's random try bits r of a try from its
// seed (index: the try).
const labelTryFlip = "kakure/phantom/pvc/try-flip"

// flipsHeader is the start of a Flips message: 'P' 1 'F' try:u64.
const flipsHeader = 3 + 8

// flipRandom returns the evaluator's random try bits of try (2·CoordBits).
func (e *Evaluator) flipRandom(try uint64) []bool {
	return e.seed.Stream(labelTryFlip, try).Bools(2 * e.rc.layout[circuit.Evaluator].CoordBits)
}

// Flips returns the message of the evaluator's player's try in a game
// whose evaluator's tries come by flips (MPC-D52): 'P' 1 'F' try:u64 and
// the flips d = try XOR r, one byte each. It is sent once the choice of
// the try went (after Open) and before the garbling comes; try is a point
// of the board or engine.Pass. An error leaves the machine as it was.
func (e *Evaluator) Flips(try engine.Point) ([]byte, error) {
	if err := e.check(phaseWaiting); err != nil {
		return nil, err
	}
	cur := e.cur
	switch {
	case !e.cfg.flipped(cur.mover):
		return nil, fmt.Errorf("%w: flips of a try that does not come by flips", ErrState)
	case cur.checked == nil || cur.checked.commitment == nil:
		return nil, fmt.Errorf("%w: flips before the commitment of try %d was opened", ErrState, e.pub.Try)
	case cur.flips != nil:
		return nil, fmt.Errorf("%w: the flips of try %d went already", ErrState, e.pub.Try)
	}
	x, err := e.rc.layout[cur.mover].TryBits(try)
	if err != nil {
		return nil, fmt.Errorf("referee: the evaluator's try: %w", err)
	}
	r := e.flipRandom(e.pub.Try)
	d := make([]bool, len(x))
	for i := range x {
		d[i] = x[i] != r[i]
	}
	msg := marshalFlips(e.pub.Try, d)
	cur.flips, cur.flipsMsg, cur.try = d, msg, try
	e.tries = append(e.tries, try)
	return msg, nil
}

// marshalFlips returns the Flips message of try with flips d.
func marshalFlips(try uint64, d []bool) []byte {
	msg := make([]byte, flipsHeader, flipsHeader+len(d))
	copy(msg, "P\x01F")
	binary.BigEndian.PutUint64(msg[3:], try)
	for _, b := range d {
		msg = append(msg, byte(b2int(b)))
	}
	return msg
}

// parseFlips returns the flips of a Flips message of try with n flips.
func parseFlips(msg []byte, try uint64, n int) ([]bool, error) {
	if len(msg) != flipsHeader+n || string(msg[:3]) != "P\x01F" {
		return nil, fmt.Errorf("%w: flips of %d bytes", ErrMessage, len(msg))
	}
	if t := binary.BigEndian.Uint64(msg[3:]); t != try {
		return nil, fmt.Errorf("%w: flips of try %d, expected %d", ErrMessage, t, try)
	}
	d := make([]bool, n)
	for i, b := range msg[flipsHeader:] {
		if b > 1 {
			return nil, fmt.Errorf("%w: a flip of %d", ErrMessage, b)
		}
		d[i] = b == 1
	}
	return d, nil
}

// TakeFlips takes the evaluator's Flips of the try under way, in a game
// whose evaluator's tries come by flips, once the garbler committed to
// the try: [Garbler.GarbleChosen] then gives the flips' labels. A
// malformed message leaves the machine as it was.
func (g *Garbler) TakeFlips(msg []byte) error {
	if err := g.check(phaseCommitted); err != nil {
		return err
	}
	st := g.committed
	if !g.cfg.flipped(st.mover) {
		return fmt.Errorf("%w: flips of a try that does not come by flips", ErrState)
	}
	if st.flips != nil {
		return fmt.Errorf("%w: the flips of try %d came already", ErrMessage, st.try)
	}
	d, err := parseFlips(msg, st.try, 2*g.rc.layout[st.mover].CoordBits)
	if err != nil {
		return err
	}
	st.flips = d
	return nil
}
