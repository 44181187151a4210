package engine

// PositionHistory is a persistent list of the whole-board positions at the
// end of earlier turns, for positional superko (GO-3, HMG-6, FG-4, BG-4).
// Pushing returns a new list and never changes the old one, so game values
// that share a history stay independent. The nil *PositionHistory is the
// empty history: (*PositionHistory)(nil).Push(b) starts one.
type PositionHistory struct {
	board Board
	hash  uint64
	prev  *PositionHistory
	len   int
}

// Push returns the history with b added.
func (h *PositionHistory) Push(b Board) *PositionHistory {
	n := 1
	if h != nil {
		n = h.len + 1
	}
	return &PositionHistory{board: b, hash: b.Hash(), prev: h, len: n}
}

// Contains reports whether b is one of the positions of the history. Hashes
// are compared first and whole boards on a match, so the answer is exact.
func (h *PositionHistory) Contains(b Board) bool {
	return h.ContainsHashed(b, b.Hash())
}

// ContainsHashed is Contains for a board whose hash (b.Hash()) is already
// known, for instance updated with [StoneKey] rather than recomputed.
func (h *PositionHistory) ContainsHashed(b Board, hash uint64) bool {
	for e := h; e != nil; e = e.prev {
		if e.hash == hash && e.board == b {
			return true
		}
	}
	return false
}
