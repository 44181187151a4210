package bot

import "github.com/kakure/kakure/engine"

// detBoard is a scratch board on which the hidden-information bots build
// determinizations: guesses of the whole position consistent with what
// their side knows. It only needs to place stones and count liberties; it
// is reused, and stamps its flood fills instead of clearing arrays.
type detBoard struct {
	geo   *geometry
	cells [engine.MaxPoints]engine.Color
	seen  [engine.MaxPoints]uint32
	stamp uint32
	stack [engine.MaxPoints]engine.Point
}

// reset empties the board and sets its side.
func (d *detBoard) reset(size int) {
	d.geo = geometryOf(size)
	clear(d.cells[:d.geo.points])
}

// nextStamp starts a new flood fill.
func (d *detBoard) nextStamp() uint32 {
	d.stamp++
	if d.stamp == 0 {
		clear(d.seen[:])
		d.stamp = 1
	}
	return d.stamp
}

// liberties counts the liberties of the chain at p (a stone), stopping
// once it has found limit of them.
func (d *detBoard) liberties(p engine.Point, limit int) int {
	c := d.cells[p]
	st := d.nextStamp()
	d.seen[p] = st
	d.stack[0] = p
	top, libs := 1, 0
	for top > 0 {
		top--
		q := d.stack[top]
		for _, r := range d.geo.neighbors(q) {
			if d.seen[r] == st {
				continue
			}
			switch d.cells[r] {
			case engine.Empty:
				d.seen[r] = st
				libs++
				if libs >= limit {
					return libs
				}
			case c:
				d.seen[r] = st
				d.stack[top] = r
				top++
			}
		}
	}
	return libs
}

// canAddQuietly reports whether a stone of c on the empty point p keeps a
// liberty for every chain: its own (joined) chain and every chain next to
// it. Such a stone captures nothing and is no suicide, so adding it leaves
// a position of play.
func (d *detBoard) canAddQuietly(p engine.Point, c engine.Color) bool {
	d.cells[p] = c
	ok := true
	for _, q := range d.geo.neighbors(p) {
		if d.cells[q] != engine.Empty && d.liberties(q, 1) == 0 {
			ok = false
			break
		}
	}
	if ok && d.liberties(p, 1) == 0 {
		ok = false
	}
	d.cells[p] = engine.Empty
	return ok
}

// hasChainWithOneLiberty reports whether some chain of c has exactly one
// liberty.
func (d *detBoard) hasChainWithOneLiberty(c engine.Color) bool {
	var done [engine.MaxPoints]bool
	for p := engine.Point(0); int(p) < d.geo.points; p++ {
		if d.cells[p] != c || done[p] {
			continue
		}
		// Fill the whole chain, marking its stones done and counting its
		// liberties.
		st := d.nextStamp()
		d.seen[p] = st
		done[p] = true
		d.stack[0] = p
		top, libs := 1, 0
		for top > 0 {
			top--
			q := d.stack[top]
			for _, r := range d.geo.neighbors(q) {
				if d.seen[r] == st {
					continue
				}
				switch d.cells[r] {
				case engine.Empty:
					d.seen[r] = st
					libs++
				case c:
					d.seen[r] = st
					done[r] = true
					d.stack[top] = r
					top++
				}
			}
		}
		if libs == 1 {
			return true
		}
	}
	return false
}

// board returns the position as an engine.Board.
func (d *detBoard) board() engine.Board {
	b, _ := engine.NewBoard(d.geo.size)
	for p := engine.Point(0); int(p) < d.geo.points; p++ {
		if c := d.cells[p]; c != engine.Empty {
			b.Set(p, c)
		}
	}
	return b
}
