package engine

// positionHistory is a persistent list of the whole-board positions at the
// end of earlier turns, for positional superko (GO-3, HMG-6, FG-4, BG-4).
// Pushing returns a new list and never changes the old one, so game values
// that share a history stay independent.
type positionHistory struct {
	board Board
	hash  uint64
	prev  *positionHistory
	len   int
}

// push returns the history with b added.
func (h *positionHistory) push(b Board) *positionHistory {
	n := 1
	if h != nil {
		n = h.len + 1
	}
	return &positionHistory{board: b, hash: b.Hash(), prev: h, len: n}
}

// contains reports whether b is one of the positions of the history. Hashes
// are compared first and whole boards on a match, so the answer is exact.
func (h *positionHistory) contains(b Board) bool {
	hash := b.Hash()
	for e := h; e != nil; e = e.prev {
		if e.hash == hash && e.board == b {
			return true
		}
	}
	return false
}
