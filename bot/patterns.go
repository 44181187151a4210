package bot

import "github.com/kakure/kakure/engine"

// The 3×3 patterns of MoGo (Gelly, Wang, Munos, Teytaud, "Modification of
// UCT with patterns in Monte-Carlo Go", 2006), as Pachi and Michi write
// them: the centre is the move, X and O the two colours (either way
// round), x "not X" (empty, O or off the board), o "not O", . empty, #
// off the board, ? anything. A move that matches one, in any rotation or
// reflection, gets the prior priorPattern (BOT-D3): hane, cuts and the
// edge moves that strong players answer with.
var mogoPatterns = [][3]string{
	{"XOX", "...", "???"}, // hane: enclosing hane
	{"XO.", "...", "?.?"}, // hane: non-cutting hane
	{"XO?", "X..", "x.?"}, // hane: magari
	{".O.", "X..", "..."}, // katatsuke or diagonal attachment
	{"XO?", "O.o", "?o?"}, // cut1: unprotected cut
	{"XO?", "O.X", "???"}, // cut1: peeped cut
	{"?X?", "O.O", "ooo"}, // cut2
	{"OX?", "o.O", "???"}, // cut keima
	{"X.?", "O.?", "##?"}, // side: chase
	{"OX?", "X.O", "###"}, // side: block side cut
	{"?X?", "x.O", "###"}, // side: block side connection
	{"?XO", "x.x", "###"}, // side: sagari
	{"?OX", "X.O", "###"}, // side: cut
}

// The states of a neighbour in a pattern code: two bits each.
const (
	patEmpty = 0
	patBlack = 1
	patWhite = 2
	patEdge  = 3
)

// patternTable[code] is true when the 8 neighbours whose states code packs
// (patternOrder) match a MoGo pattern.
var patternTable = func() (table [1 << 16]bool) {
	for _, pat := range mogoPatterns {
		grid := [3][3]byte{}
		for y := 0; y < 3; y++ {
			for x := 0; x < 3; x++ {
				grid[y][x] = pat[y][x]
			}
		}
		for sym := 0; sym < 8; sym++ {
			g := grid
			if sym&1 != 0 { // reflect left-right
				for y := 0; y < 3; y++ {
					g[y][0], g[y][2] = g[y][2], g[y][0]
				}
			}
			if sym&2 != 0 { // reflect top-bottom
				g[0], g[2] = g[2], g[0]
			}
			if sym&4 != 0 { // transpose
				for y := 0; y < 3; y++ {
					for x := y + 1; x < 3; x++ {
						g[y][x], g[x][y] = g[x][y], g[y][x]
					}
				}
			}
			for _, swap := range []bool{false, true} {
				expandPattern(&table, g, swap, 0, 0)
			}
		}
	}
	return table
}()

// patternOrder lists the 8 neighbours (dx, dy) in the order of a code's
// two-bit fields.
var patternOrder = [8][2]int{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}

// expandPattern marks every code that the pattern g matches, from the k-th
// neighbour on, code holding the states chosen so far; swap exchanges the
// colours X and O.
func expandPattern(table *[1 << 16]bool, g [3][3]byte, swap bool, k int, code int) {
	if k == len(patternOrder) {
		table[code] = true
		return
	}
	d := patternOrder[k]
	ch := g[d[1]+1][d[0]+1]
	x, o := byte(patBlack), byte(patWhite)
	if swap {
		x, o = o, x
	}
	var states []byte
	switch ch {
	case 'X':
		states = []byte{x}
	case 'O':
		states = []byte{o}
	case 'x':
		states = []byte{patEmpty, o, patEdge}
	case 'o':
		states = []byte{patEmpty, x, patEdge}
	case '.':
		states = []byte{patEmpty}
	case '#':
		states = []byte{patEdge}
	default: // '?'
		states = []byte{patEmpty, patBlack, patWhite, patEdge}
	}
	for _, st := range states {
		expandPattern(table, g, swap, k+1, code|int(st)<<(2*k))
	}
}

// matchesPattern reports whether the empty point m of a board of side
// size, whose colours at reads, matches a MoGo pattern.
func matchesPattern(size int, at func(engine.Point) engine.Color, m engine.Point) bool {
	x0, y0 := int(m)%size, int(m)/size
	code := 0
	for k, d := range patternOrder {
		x, y := x0+d[0], y0+d[1]
		st := patEdge
		if x >= 0 && x < size && y >= 0 && y < size {
			switch at(engine.Point(y*size + x)) {
			case engine.Black:
				st = patBlack
			case engine.White:
				st = patWhite
			default:
				st = patEmpty
			}
		}
		code |= st << (2 * k)
	}
	return patternTable[code]
}
