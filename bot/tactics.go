package bot

import "github.com/kakure/kakure/engine"

// tactics knows the chains of a position and their liberties, enough to
// tell the tactical meaning of a move: does it capture, save a chain in
// atari, give atari, or put its own chain into atari. The Go search uses
// it for the priors of the moves it adds to its tree (BOT-D3). It is
// reused between positions.
type tactics struct {
	geo   *geometry
	cells [engine.MaxPoints]engine.Color
	// chain is the chain id of each stone (its index in chains).
	chain  [engine.MaxPoints]int16
	chains []tacticsChain
	seen   [engine.MaxPoints]uint32
	stamp  uint32
	stack  [engine.MaxPoints]engine.Point
}

// tacticsChain is one chain: its size, its number of liberties (counted up
// to 3) and, when it has at most 2, which they are.
type tacticsChain struct {
	stones int
	libs   int
	lib    [2]engine.Point
}

// load reads the position of pb.
func (t *tactics) load(pb *engine.PlayoutBoard, geo *geometry) {
	t.geo = geo
	t.chains = t.chains[:0]
	for p := engine.Point(0); int(p) < geo.points; p++ {
		t.cells[p] = pb.At(p)
		t.chain[p] = -1
	}
	for p := engine.Point(0); int(p) < geo.points; p++ {
		c := t.cells[p]
		if c == engine.Empty || t.chain[p] >= 0 {
			continue
		}
		id := int16(len(t.chains))
		var ch tacticsChain
		t.stamp++
		if t.stamp == 0 {
			clear(t.seen[:])
			t.stamp = 1
		}
		t.chain[p] = id
		t.stack[0] = p
		top := 1
		for top > 0 {
			top--
			q := t.stack[top]
			ch.stones++
			for _, r := range geo.neighbors(q) {
				switch t.cells[r] {
				case engine.Empty:
					if t.seen[r] != t.stamp {
						t.seen[r] = t.stamp
						if ch.libs < 2 {
							ch.lib[ch.libs] = r
						}
						ch.libs = min(ch.libs+1, 3)
					}
				case c:
					if t.chain[r] < 0 {
						t.chain[r] = id
						t.stack[top] = r
						top++
					}
				}
			}
		}
		t.chains = append(t.chains, ch)
	}
}

// The priors of the tactical kinds of move, as win rates.
const (
	priorCapture    = 0.85
	priorEscape     = 0.75
	priorAtari      = 0.6
	priorSelfAtari  = 0.1
	priorFirstLine  = 0.25
	priorSecondLine = 0.4
	priorPass       = 0.3
	priorPlain      = 0.5
	priorPattern    = 0.65
)

// prior returns the prior win rate of c's move at the empty point m.
func (t *tactics) prior(m engine.Point, c engine.Color, opening, patterns bool) float64 {
	opp := c.Opponent()
	captures, escapes, ataris := 0, false, false
	// The new chain's liberties: m's empty neighbours and those of the
	// joined chains, counted up to 2, m excepted.
	var libs [2]engine.Point
	nlibs := 0
	addLib := func(p engine.Point) {
		if p == m || nlibs >= 2 || (nlibs == 1 && libs[0] == p) {
			return
		}
		libs[nlibs] = p
		nlibs++
	}
	var counted [4]int16
	nc := 0
	for _, q := range t.geo.neighbors(m) {
		switch t.cells[q] {
		case engine.Empty:
			addLib(q)
		case opp, c:
			id := t.chain[q]
			dup := false
			for _, k := range counted[:nc] {
				dup = dup || k == id
			}
			if dup {
				continue
			}
			counted[nc] = id
			nc++
			ch := &t.chains[id]
			if t.cells[q] == opp {
				switch ch.libs {
				case 1:
					captures += ch.stones
				case 2:
					ataris = true
				}
				continue
			}
			if ch.libs >= 3 {
				nlibs = 2
				continue
			}
			if ch.libs == 1 {
				escapes = true
			}
			for _, l := range ch.lib[:ch.libs] {
				addLib(l)
			}
		}
	}
	switch {
	case captures > 0:
		return min(0.95, priorCapture+0.02*float64(captures))
	case nlibs <= 1:
		return priorSelfAtari
	case escapes:
		return priorEscape
	case ataris:
		return priorAtari
	}
	if patterns && matchesPattern(t.geo.size, func(p engine.Point) engine.Color { return t.cells[p] }, m) {
		return priorPattern
	}
	if opening && t.geo.size >= 7 && t.geo.line[m] == 0 {
		return priorFirstLine
	}
	if opening && t.geo.size >= 9 && t.geo.line[m] == 1 {
		return priorSecondLine
	}
	return priorPlain
}
