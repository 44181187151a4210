package circuit

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/kakure/kakure/engine"
)

// ErrBadState reports a referee state that is not the state of a game.
var ErrBadState = errors.New("circuit: bad referee state")

// RefereeState is the state the Phantom Go referee circuit keeps between
// tries ([RefereeCircuit]), as one party's XOR share or, the two shares
// XORed with [RefereeState.Xor], as the state itself. Per point p (the
// engine's numbering, y*size+x):
//
//   - Black[p], White[p]: a stone of that colour (never both);
//   - Label[p]: a group label of [RefereeLabelBits] bits. All stones of a
//     chain carry the same label, the index of one of the chain's own
//     stones, so two chains never share a label. Chains never split, so a
//     move only has to give the chain it makes the label of the new stone.
//     The label of an empty point is stale and means nothing;
//   - Ko[p]: the simple-ko point of PG-4 (at most one, always empty).
//
// The whose-turn and pass count of [phantom.Referee] are public in a
// game (every try is announced to both players) and are kept by each
// program, not here. A RefereeState owns its slices; methods return new
// values and never change the receiver.
type RefereeState struct {
	Size  int
	Black []bool
	White []bool
	Label []uint16
	Ko    []bool
}

// RefereeLabelBits returns the width of a group label on a board of side
// size: the bits of size*size, so that the all-ones label is never the
// index of a point.
func RefereeLabelBits(size int) int { return bits.Len(uint(size * size)) }

// EmptyRefereeState returns the state of an empty board without ko. Two
// empty states are the shares both parties start a game with.
func EmptyRefereeState(size int) RefereeState {
	n := size * size
	return RefereeState{
		Size:  size,
		Black: make([]bool, n),
		White: make([]bool, n),
		Label: make([]uint16, n),
		Ko:    make([]bool, n),
	}
}

// NewRefereeState returns the state of the position b with the ko point ko
// (or engine.NoPoint): each chain is labelled with its smallest point
// index. It is for positions set up by hand and for tests; a game starts
// from [EmptyRefereeState].
func NewRefereeState(b engine.Board, ko engine.Point) (RefereeState, error) {
	size := b.Size()
	if size < engine.MinSize || size > engine.MaxSize {
		return RefereeState{}, fmt.Errorf("%w: board size %d", ErrBadState, size)
	}
	s := EmptyRefereeState(size)
	n := size * size
	labelled := make([]bool, n)
	for p := range n {
		switch b.At(engine.Point(p)) {
		case engine.Black:
			s.Black[p] = true
		case engine.White:
			s.White[p] = true
		default:
			continue
		}
		if labelled[p] {
			continue
		}
		stones, _ := b.Chain(engine.Point(p))
		for _, q := range stones {
			s.Label[q] = uint16(p) // p is the smallest: points are visited in order
			labelled[q] = true
		}
	}
	if ko != engine.NoPoint {
		if !b.OnBoard(ko) || b.At(ko) != engine.Empty {
			return RefereeState{}, fmt.Errorf("%w: ko at %d is not an empty point", ErrBadState, ko)
		}
		s.Ko[ko] = true
	}
	return s, nil
}

// Clone returns a copy of s that shares no slice with it.
func (s RefereeState) Clone() RefereeState {
	return RefereeState{
		Size:  s.Size,
		Black: append([]bool(nil), s.Black...),
		White: append([]bool(nil), s.White...),
		Label: append([]uint16(nil), s.Label...),
		Ko:    append([]bool(nil), s.Ko...),
	}
}

// Xor returns s XOR t, bit by bit: the state from two shares, or a share
// from the state and the other share.
func (s RefereeState) Xor(t RefereeState) (RefereeState, error) {
	if err := s.checkShape(); err != nil {
		return RefereeState{}, err
	}
	if err := t.checkShape(); err != nil {
		return RefereeState{}, err
	}
	if s.Size != t.Size {
		return RefereeState{}, fmt.Errorf("%w: XOR of states of sides %d and %d", ErrBadState, s.Size, t.Size)
	}
	r := s.Clone()
	for p := range r.Black {
		r.Black[p] = r.Black[p] != t.Black[p]
		r.White[p] = r.White[p] != t.White[p]
		r.Label[p] ^= t.Label[p]
		r.Ko[p] = r.Ko[p] != t.Ko[p]
	}
	return r, nil
}

// checkShape reports slices of the wrong length or labels too wide.
func (s RefereeState) checkShape() error {
	if s.Size < engine.MinSize || s.Size > engine.MaxSize {
		return fmt.Errorf("%w: board size %d", ErrBadState, s.Size)
	}
	n := s.Size * s.Size
	if len(s.Black) != n || len(s.White) != n || len(s.Label) != n || len(s.Ko) != n {
		return fmt.Errorf("%w: a state of side %d needs %d points in each field", ErrBadState, s.Size, n)
	}
	limit := uint16(1) << uint(RefereeLabelBits(s.Size))
	for p, l := range s.Label {
		if l >= limit {
			return fmt.Errorf("%w: label %d at point %d is wider than %d bits", ErrBadState, l, p, RefereeLabelBits(s.Size))
		}
	}
	return nil
}

// Board returns the position of a whole state (not a share). It is an
// error for a point to be both black and white.
func (s RefereeState) Board() (engine.Board, error) {
	if err := s.checkShape(); err != nil {
		return engine.Board{}, err
	}
	b, err := engine.NewBoard(s.Size)
	if err != nil {
		return engine.Board{}, err
	}
	for p := range s.Black {
		switch {
		case s.Black[p] && s.White[p]:
			return engine.Board{}, fmt.Errorf("%w: point %s is both black and white", ErrBadState, engine.Point(p).Vertex(s.Size))
		case s.Black[p]:
			b.Set(engine.Point(p), engine.Black)
		case s.White[p]:
			b.Set(engine.Point(p), engine.White)
		}
	}
	return b, nil
}

// KoPoint returns the ko point of a whole state, or engine.NoPoint. It is
// an error for more than one point to be marked.
func (s RefereeState) KoPoint() (engine.Point, error) {
	if err := s.checkShape(); err != nil {
		return engine.NoPoint, err
	}
	ko := engine.NoPoint
	for p, k := range s.Ko {
		if !k {
			continue
		}
		if ko != engine.NoPoint {
			return engine.NoPoint, fmt.Errorf("%w: two ko points, %s and %s", ErrBadState, ko.Vertex(s.Size), engine.Point(p).Vertex(s.Size))
		}
		ko = engine.Point(p)
	}
	return ko, nil
}

// Validate returns nil if s is a whole state the circuit can work on: no
// point both black and white, no chain without a liberty, each chain's
// stones all labelled with the index of one of its own stones, at most one
// ko point and that one empty. Otherwise an error wrapping ErrBadState.
func (s RefereeState) Validate() error {
	b, err := s.Board()
	if err != nil {
		return err
	}
	ko, err := s.KoPoint()
	if err != nil {
		return err
	}
	if ko != engine.NoPoint && b.At(ko) != engine.Empty {
		return fmt.Errorf("%w: the ko point %s holds a stone", ErrBadState, ko.Vertex(s.Size))
	}
	n := s.Size * s.Size
	done := make([]bool, n)
	for p := range n {
		if done[p] || b.At(engine.Point(p)) == engine.Empty {
			continue
		}
		stones, libs := b.Chain(engine.Point(p))
		if len(libs) == 0 {
			return fmt.Errorf("%w: the chain at %s has no liberty", ErrBadState, engine.Point(p).Vertex(s.Size))
		}
		label := s.Label[p]
		own := false
		for _, q := range stones {
			done[q] = true
			if s.Label[q] != label {
				return fmt.Errorf("%w: the chain at %s has labels %d and %d", ErrBadState, engine.Point(p).Vertex(s.Size), label, s.Label[q])
			}
			own = own || int(q) == int(label)
		}
		if !own {
			return fmt.Errorf("%w: the chain at %s has label %d, not one of its stones", ErrBadState, engine.Point(p).Vertex(s.Size), label)
		}
	}
	return nil
}
