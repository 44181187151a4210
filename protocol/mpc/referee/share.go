package referee

import (
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// EncodeShare writes a share (a party's secret, for its own resume file)
// as bits, eight per byte: per point black, white, ko, then the label's
// bits, least significant first.
func EncodeShare(s circuit.RefereeState) []byte {
	lb := circuit.RefereeLabelBits(s.Size)
	n := len(s.Black)
	out := make([]byte, (n*(3+lb)+7)/8)
	i := 0
	put := func(b bool) {
		if b {
			out[i/8] |= 1 << (i % 8)
		}
		i++
	}
	for p := range n {
		put(s.Black[p])
		put(s.White[p])
		put(s.Ko[p])
		for k := range lb {
			put(s.Label[p]>>uint(k)&1 == 1)
		}
	}
	return out
}

// DecodeShare reads what EncodeShare wrote for a board of side size.
func DecodeShare(size int, b []byte) (circuit.RefereeState, error) {
	s := circuit.EmptyRefereeState(size)
	lb := circuit.RefereeLabelBits(size)
	n := len(s.Black)
	if len(b) != (n*(3+lb)+7)/8 {
		return circuit.RefereeState{}, fmt.Errorf("%w: a share of %d bytes for side %d", ErrMessage, len(b), size)
	}
	i := 0
	get := func() bool {
		v := b[i/8]>>(i%8)&1 == 1
		i++
		return v
	}
	for p := range n {
		s.Black[p], s.White[p], s.Ko[p] = get(), get(), get()
		for k := range lb {
			if get() {
				s.Label[p] |= 1 << uint(k)
			}
		}
	}
	return s, nil
}
