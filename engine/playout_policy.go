package engine

import "math/rand/v2"

// PolicyPlayout plays the game on to its end as [PlayoutBoard.RandomPlayout]
// does, with the tactical playout policy of the strong Monte-Carlo Go
// programs (Pachi, Fuego; PO-D6 in docs/playout.md) instead of uniform
// moves. Each move answers the last one, in this order, the first that
// applies: capture the last stone's chain when it is in atari; save an
// own chain next to the last stone that it put in atari, by capturing a
// chain in atari around it or by extending when that gives two liberties
// or more; give atari to the last stone's chain when it has two liberties
// and the atari stone keeps two. Otherwise the move is drawn as in
// RandomPlayout, except that a move which would leave a chain of two or
// more stones in atari without capturing is drawn again. It returns the
// number of moves played, passes included; the same rng state gives the
// same playout.
func (pb *PlayoutBoard) PolicyPlayout(rng *rand.Rand) int {
	return pb.PolicyPlayoutFirst(rng, nil)
}

// PolicyPlayoutFirst is PolicyPlayout that also records, when first is
// not nil, the colour of the first stone the playout played at each point
// (left as it is where the playout played none): what the
// all-moves-as-first values of a search (RAVE) count.
func (pb *PlayoutBoard) PolicyPlayoutFirst(rng *rand.Rand, first *[MaxPoints]Color) int {
	limit := PlayoutMoveCap * pb.size * pb.size
	played := 0
	for pb.passes < 2 && played < limit {
		c := pb.toMove
		if !pb.playPolicyMove(rng) && !pb.playRandomSafeMove(rng) {
			pb.Pass()
		} else if first != nil {
			if p := pb.geo.toPoint[pb.last]; first[p] == Empty {
				first[p] = c
			}
		}
		played++
	}
	return played
}

// playoutLibs collects up to len(out) distinct liberties of the chain of
// the stone at cell i, skipping the cell skip, and returns how many.
func (pb *PlayoutBoard) playoutLibs(i int16, skip int16, out []int16) int {
	s := int16(pb.stride)
	n := 0
	q := i
	for {
		for _, r := range [4]int16{q - s, q - 1, q + 1, q + s} {
			if pb.cells[r&playoutMask] != Empty || r == skip {
				continue
			}
			dup := false
			for _, o := range out[:n] {
				if o == r {
					dup = true
					break
				}
			}
			if !dup {
				out[n] = r
				n++
				if n == len(out) {
					return n
				}
			}
		}
		q = pb.nextStone[q&playoutMask]
		if q == i {
			return n
		}
	}
}

// libsAfter returns the liberties (counted up to 3) of c's chain after a
// stone of c at the empty cell i, and whether the stone captures.
func (pb *PlayoutBoard) libsAfter(i int16, c Color) (libs int, captures bool) {
	s := int16(pb.stride)
	var seen [3]int16
	n := 0
	add := func(r int16) {
		if r == i || n == len(seen) {
			return
		}
		for _, o := range seen[:n] {
			if o == r {
				return
			}
		}
		seen[n] = r
		n++
	}
	for _, q := range [4]int16{i - s, i - 1, i + 1, i + s} {
		switch d := pb.cells[q&playoutMask]; {
		case d == Empty:
			add(q)
		case d == c:
			var ls [4]int16
			k := pb.playoutLibs(q, i, ls[:])
			for _, r := range ls[:k] {
				add(r)
			}
		case d == c.Opponent():
			var ls [2]int16
			if pb.playoutLibs(q, 0, ls[:]) == 1 {
				captures = true
			}
		}
	}
	return n, captures
}

// playPolicyMove plays the policy's answer to the last move (PO-D6) and
// reports whether there was one.
func (pb *PlayoutBoard) playPolicyMove(rng *rand.Rand) bool {
	last := pb.last
	if last == 0 {
		return false
	}
	c := pb.toMove
	s := int16(pb.stride)
	var cands [8]int16
	n := 0
	try := func(i int16) {
		if n < len(cands) && i != 0 && pb.legal(i, c) {
			cands[n] = i
			n++
		}
	}
	pick := func() bool {
		if n == 0 {
			return false
		}
		pb.place(cands[int(uint64(rng.Uint32())*uint64(n)>>32)], c)
		return true
	}
	// Capture the last stone's chain.
	var ls [2]int16
	lastLibs := pb.playoutLibs(last, 0, ls[:])
	if lastLibs == 1 {
		try(ls[0])
		if pick() {
			return true
		}
	}
	// Save own chains next to the last stone.
	for _, q := range [4]int16{last - s, last - 1, last + 1, last + s} {
		if pb.cells[q&playoutMask] != c {
			continue
		}
		var own [2]int16
		if pb.playoutLibs(q, 0, own[:]) != 1 {
			continue
		}
		// Capture an opponent chain in atari that touches it.
		st := q
		for {
			for _, r := range [4]int16{st - s, st - 1, st + 1, st + s} {
				if pb.cells[r&playoutMask] == c.Opponent() {
					var ol [2]int16
					if pb.playoutLibs(r, 0, ol[:]) == 1 {
						try(ol[0])
					}
				}
			}
			st = pb.nextStone[st&playoutMask]
			if st == q {
				break
			}
		}
		// Extend, if that breathes.
		if libs, capt := pb.libsAfter(own[0], c); libs >= 2 || capt {
			try(own[0])
		}
	}
	if pick() {
		return true
	}
	// Atari on the last stone's chain, from a stone that keeps two
	// liberties.
	if lastLibs == 2 {
		for _, l := range ls {
			if libs, capt := pb.libsAfter(l, c); libs >= 2 || capt {
				try(l)
			}
		}
		if pick() {
			return true
		}
	}
	return false
}

// playRandomSafeMove is playRandomMove that draws again a move leaving a
// chain of two or more stones in atari without capturing (a self-atari the
// strong programs' policies avoid).
func (pb *PlayoutBoard) playRandomSafeMove(rng *rand.Rand) bool {
	c := pb.toMove
	s := int16(pb.stride)
	for n := pb.nEmpty; n > 0; n-- {
		k := int(uint64(rng.Uint32()) * uint64(n) >> 32)
		i := pb.empty[k]
		if pb.fitForPlayout(i, c) {
			if libs, capt := pb.libsAfter(i, c); libs == 1 && !capt {
				joins := false
				for _, q := range [4]int16{i - s, i - 1, i + 1, i + s} {
					if pb.cells[q&playoutMask] == c {
						joins = true
					}
				}
				if joins {
					pb.swapEmpty(k, n-1)
					continue
				}
			}
			pb.place(i, c)
			return true
		}
		pb.swapEmpty(k, n-1)
	}
	// Only self-ataris are left: play one as RandomPlayout would.
	return pb.playRandomMove(rng)
}
