package engine

import (
	"fmt"
	"math/rand/v2"
)

// PlayoutBoard is a mutable Go board for random playouts: the Monte-Carlo
// bots of every Go variant play thousands of games to the end from a
// position and count them. It exists for speed only and breaks the rule that
// game states are values: its methods have pointer receivers and change the
// board in place, assigning a PlayoutBoard copies about 6 kB, and no game
// state should hold one. [Board] and [GoGame] stay the reference: the tests
// play random games on both and compare them after every move.
//
// The rules are those of plain Go without superko: captures as in GO-1,
// suicide illegal (GO-2), and simple ko as PG-4 defines it (PO-D1). The
// player to move alternates; Pass and Play change it, and a move after two
// passes simply goes on. The decisions PO-D1..PO-D5 are in docs/playout.md.
//
// Inside, the board has a frame of border points around it, so that the
// four neighbours of a point are always at fixed offsets; chains are
// circular lists of stones with a pseudo-liberty count (the number of
// stone–empty adjacencies, zero exactly when the chain has no liberty); the
// empty points are kept in a list for drawing random moves. Nothing
// allocates after construction.
type PlayoutBoard struct {
	geo    *playoutGeometry
	size   int
	stride int // size+1: one border column serves as both left and right edge
	toMove Color
	ko     int16 // index of the simple-ko point, 0 (a border index) for none
	passes int
	// last is the cell of the last stone played, 0 after a pass or a
	// reset (the policy of PolicyPlayout answers it).
	last int16
	// captures counts the stones each colour has captured.
	captures [3]int

	cells [playoutArray]Color
	// chain is the chain id of each stone: the index of one of its stones.
	chain [playoutArray]int16
	// nextStone links the stones of a chain in a circle.
	nextStone [playoutArray]int16
	// libs and stones are indexed by chain id.
	libs   [playoutArray]int16
	stones [playoutArray]int16
	// empty lists the empty points; emptyAt is the position of each in it.
	empty   [MaxPoints]int16
	emptyAt [playoutArray]int16
	nEmpty  int
}

// playoutBorderColor marks the frame around the board in PlayoutBoard.cells.
const playoutBorderColor Color = 3

// playoutCells is the number of cells of the framed 19×19 board: rows 0 and
// size+1 are border, column 0 of each row is the border between the last
// point of a row and the first of the next, and one more cell keeps the
// diagonal of the top-right point inside the array.
const playoutCells = (MaxSize+2)*(MaxSize+1) + 1

// playoutArray is the length of the cell arrays of PlayoutBoard: the power
// of two above playoutCells, so that indexing with playoutMask needs no
// bounds check in the hot loops.
const (
	playoutArray = 512
	playoutMask  = playoutArray - 1
)

// PlayoutMoveCap is how many moves (passes included), per point of the
// board, one call of [PlayoutBoard.RandomPlayout] plays at most (PO-D3).
const PlayoutMoveCap = 3

// playoutGeometry maps the points of a board of one side to the framed
// indices of PlayoutBoard and back.
type playoutGeometry struct {
	size    int
	toIndex [MaxPoints]int16
	toPoint [playoutCells]Point // NoPoint for border cells
}

// playoutGeometries holds the geometry of every board side. It is filled
// once by init and only read afterwards.
var playoutGeometries [MaxSize + 1]playoutGeometry

func init() {
	for size := 1; size <= MaxSize; size++ {
		g := &playoutGeometries[size]
		g.size = size
		for i := range g.toPoint {
			g.toPoint[i] = NoPoint
		}
		stride := size + 1
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				p := PointAt(size, x, y)
				i := (y+1)*stride + x + 1
				g.toIndex[p] = int16(i)
				g.toPoint[i] = p
			}
		}
	}
}

// NewPlayoutBoard returns a playout board holding b with toMove (Black or
// White) to play. ko is the point toMove may not take back by capturing a
// single stone (simple ko, PG-4), or NoPoint; a ko that is not an empty
// point of b is ignored. b should be a position of play, every chain with a
// liberty; what happens to a chain without one is unspecified. It panics on a zero Board or a toMove that is not a player, which are
// programming errors.
func NewPlayoutBoard(b Board, toMove Color, ko Point) *PlayoutBoard {
	pb := new(PlayoutBoard)
	pb.Reset(b, toMove, ko)
	return pb
}

// Reset makes the board hold b with toMove to play and the simple-ko point
// ko, as [NewPlayoutBoard] does, without allocating. The capture counts and
// the passes start at zero.
func (pb *PlayoutBoard) Reset(b Board, toMove Color, ko Point) {
	size := b.Size()
	if size < 1 || size > MaxSize {
		panic(fmt.Sprintf("engine: playout board of side %d", size))
	}
	if toMove != Black && toMove != White {
		panic(fmt.Sprintf("engine: playout board with %v to move", toMove))
	}
	g := &playoutGeometries[size]
	pb.geo = g
	pb.size = size
	pb.stride = size + 1
	pb.toMove = toMove
	pb.passes = 0
	pb.last = 0
	pb.captures = [3]int{}
	pb.nEmpty = 0
	cells := (size+2)*pb.stride + 1
	for i := 0; i < cells; i++ {
		pb.cells[i&playoutMask] = playoutBorderColor
	}
	n := size * size
	for p := 0; p < n; p++ {
		i := g.toIndex[p]
		c := b.cells[p]
		pb.cells[i&playoutMask] = c
		if c == Empty {
			pb.addEmpty(i)
			continue
		}
		pb.chain[i&playoutMask] = i
		pb.nextStone[i&playoutMask] = i
		pb.stones[i&playoutMask] = 1
		pb.libs[i&playoutMask] = 0
	}
	s := int16(pb.stride)
	for p := 0; p < n; p++ {
		i := g.toIndex[p]
		c := pb.cells[i&playoutMask]
		if c == Empty {
			continue
		}
		for _, q := range [4]int16{i - s, i - 1, i + 1, i + s} {
			if pb.cells[q&playoutMask] == Empty {
				pb.libs[(pb.chain[i&playoutMask])&playoutMask]++
			}
		}
		// Join with the neighbours already seen (south and west); the
		// pseudo-liberty counts add up.
		for _, q := range [2]int16{i - s, i - 1} {
			if pb.cells[q&playoutMask] == c && pb.chain[q&playoutMask] != pb.chain[i&playoutMask] {
				pb.merge(pb.chain[q&playoutMask], pb.chain[i&playoutMask])
			}
		}
	}
	pb.ko = 0
	if b.OnBoard(ko) && b.cells[ko] == Empty {
		pb.ko = g.toIndex[ko]
	}
}

// CopyFrom makes pb a copy of src without allocating, so that a bot can
// start many playouts from one position cheaply.
func (pb *PlayoutBoard) CopyFrom(src *PlayoutBoard) { *pb = *src }

// Size returns the side of the board.
func (pb *PlayoutBoard) Size() int { return pb.size }

// ToMove returns the player whose turn it is.
func (pb *PlayoutBoard) ToMove() Color { return pb.toMove }

// Ko returns the point the player to move may not take back by capturing a
// single stone (PG-4), or NoPoint.
func (pb *PlayoutBoard) Ko() Point {
	if pb.ko == 0 {
		return NoPoint
	}
	return pb.geo.toPoint[pb.ko]
}

// Passes returns the number of consecutive passes that ended the last turns.
func (pb *PlayoutBoard) Passes() int { return pb.passes }

// Captures returns how many stones c has captured since the board was made
// or reset.
func (pb *PlayoutBoard) Captures(c Color) int {
	if c != Black && c != White {
		return 0
	}
	return pb.captures[c]
}

// At returns the colour at p, Empty for a point off the board.
func (pb *PlayoutBoard) At(p Point) Color {
	if p < 0 || int(p) >= pb.size*pb.size {
		return Empty
	}
	return pb.cells[(pb.geo.toIndex[p])&playoutMask]
}

// Board returns the position as a [Board] value.
func (pb *PlayoutBoard) Board() Board {
	b := Board{size: uint8(pb.size)}
	for p := 0; p < pb.size*pb.size; p++ {
		b.cells[p] = pb.cells[(pb.geo.toIndex[p])&playoutMask]
	}
	return b
}

// IsLegal reports whether the player to move may play p now: Pass always,
// a point if it is empty, is not a suicide (GO-2) and does not take back a
// simple ko (PG-4). Superko is not checked.
func (pb *PlayoutBoard) IsLegal(p Point) bool {
	if p == Pass {
		return true
	}
	if p < 0 || int(p) >= pb.size*pb.size {
		return false
	}
	return pb.legal(pb.geo.toIndex[p], pb.toMove)
}

// Play plays p (a point or Pass) for the player to move and reports whether
// it was legal; an illegal move changes nothing. Captures follow GO-1.
func (pb *PlayoutBoard) Play(p Point) bool {
	if p == Pass {
		pb.Pass()
		return true
	}
	if p < 0 || int(p) >= pb.size*pb.size {
		return false
	}
	i := pb.geo.toIndex[p]
	if !pb.legal(i, pb.toMove) {
		return false
	}
	pb.place(i, pb.toMove)
	return true
}

// Pass passes for the player to move.
func (pb *PlayoutBoard) Pass() {
	pb.passes++
	pb.last = 0
	pb.ko = 0
	pb.toMove = pb.toMove.Opponent()
}

// RandomPlayout plays the game on to its end and returns the number of moves
// it played, passes included. Each move is drawn uniformly from the legal
// points of the player to move that are not one of that player's own eyes
// (PO-D2); a player with no such point passes. Play stops after two
// consecutive passes or after [PlayoutMoveCap] moves per point of the board
// (PO-D3). The same rng state gives the same playout.
func (pb *PlayoutBoard) RandomPlayout(rng *rand.Rand) int {
	limit := PlayoutMoveCap * pb.size * pb.size
	played := 0
	for pb.passes < 2 && played < limit {
		if !pb.playRandomMove(rng) {
			pb.Pass()
		}
		played++
	}
	return played
}

// ScoreArea returns Black's area score minus White's, komi counted for
// White: stones plus empty regions bordered by one colour only, as
// [AreaScore] counts with no dead stones (GO-5). On a finished playout the
// only empty points left are mostly single-point eyes, so this is the usual
// playout count (PO-D4).
func (pb *PlayoutBoard) ScoreArea(komi float64) float64 {
	var seen [playoutCells]bool
	var stack [MaxPoints]int16
	s := int16(pb.stride)
	score := 0
	first := int16(pb.stride + 1)
	last := int16(pb.size*pb.stride + pb.size)
	for i := first; i <= last; i++ {
		switch pb.cells[i&playoutMask] {
		case Black:
			score++
		case White:
			score--
		case Empty:
			if seen[i] {
				continue
			}
			// Most empty points of a finished playout are single-point
			// regions; a flood fill handles the others.
			var touches [4]bool
			seen[i] = true
			stack[0] = i
			top, size := 1, 0
			for top > 0 {
				top--
				q := stack[top]
				size++
				for _, r := range [4]int16{q - s, q - 1, q + 1, q + s} {
					c := pb.cells[r&playoutMask]
					if c == Empty {
						if !seen[r] {
							seen[r] = true
							stack[top] = r
							top++
						}
					} else {
						touches[c] = true
					}
				}
			}
			switch {
			case touches[Black] && !touches[White]:
				score += size
			case touches[White] && !touches[Black]:
				score -= size
			}
		}
	}
	return float64(score) - komi
}

// addEmpty appends i to the list of empty points.
func (pb *PlayoutBoard) addEmpty(i int16) {
	pb.empty[pb.nEmpty] = i
	pb.emptyAt[i&playoutMask] = int16(pb.nEmpty)
	pb.nEmpty++
}

// removeEmpty takes i out of the list of empty points.
func (pb *PlayoutBoard) removeEmpty(i int16) {
	k := pb.emptyAt[i&playoutMask]
	pb.nEmpty--
	lastPoint := pb.empty[pb.nEmpty]
	pb.empty[k] = lastPoint
	pb.emptyAt[lastPoint&playoutMask] = k
}

// swapEmpty exchanges the entries j and k of the list of empty points.
func (pb *PlayoutBoard) swapEmpty(j, k int) {
	a, b := pb.empty[j], pb.empty[k]
	pb.empty[j], pb.empty[k] = b, a
	pb.emptyAt[a&playoutMask], pb.emptyAt[b&playoutMask] = int16(k), int16(j)
}

// neighbourColours returns the colours around cell i as a bit set: bit c
// is set when a neighbour has colour c (Empty, Black, White or the border).
func (pb *PlayoutBoard) neighbourColours(i int16) uint8 {
	s := int16(pb.stride)
	return 1<<pb.cells[(i-s)&playoutMask] | 1<<pb.cells[(i-1)&playoutMask] | 1<<pb.cells[(i+1)&playoutMask] | 1<<pb.cells[(i+s)&playoutMask]
}

// legal reports whether c may play at cell i.
func (pb *PlayoutBoard) legal(i int16, c Color) bool {
	if pb.cells[i&playoutMask] != Empty {
		return false
	}
	if pb.neighbourColours(i)&(1<<Empty) != 0 && i != pb.ko {
		return true
	}
	return pb.legalByChains(i, c)
}

// legalByChains is legal for an empty cell without the shortcut of an empty
// neighbour: it looks at the chains around i. A chain keeps a liberty after
// a stone at i when its pseudo-liberties outnumber its adjacencies to i,
// and is captured when they are equal.
func (pb *PlayoutBoard) legalByChains(i int16, c Color) bool {
	s := int16(pb.stride)
	ns := [4]int16{i - s, i - 1, i + 1, i + s}
	if i != pb.ko {
		// The first chain that breathes or dies settles it. A chain with
		// more than four pseudo-liberties keeps one whatever i touches.
		for _, q := range ns {
			d := pb.cells[q&playoutMask]
			if d == Empty {
				return true
			}
			if d == playoutBorderColor {
				continue
			}
			ch := pb.chain[q&playoutMask]
			libs := int(pb.libs[ch&playoutMask])
			if libs > 4 {
				if d == c {
					return true
				}
				continue
			}
			adjacent := 0
			for _, r := range ns {
				if pb.cells[r&playoutMask] == d && pb.chain[r&playoutMask] == ch {
					adjacent++
				}
			}
			if d == c && libs > adjacent || d != c && libs == adjacent {
				return true
			}
		}
		return false
	}
	// At the ko point, count the stones captured (PG-4).
	// chains holds the chain id of each neighbour stone, 0 (a border
	// index, never an id) for an empty or border neighbour.
	var chains [4]int16
	for k, q := range ns {
		if d := pb.cells[q&playoutMask]; d == Black || d == White {
			chains[k] = pb.chain[q&playoutMask]
		}
	}
	breathes := false
	captured := 0
	for k, q := range ns {
		d := pb.cells[q&playoutMask]
		if d == Empty {
			breathes = true
			continue
		}
		ch := chains[k]
		if ch == 0 {
			continue
		}
		adjacent, first := 0, true
		for j, other := range chains {
			if other == ch {
				adjacent++
				first = first && j >= k
			}
		}
		libs := int(pb.libs[ch&playoutMask])
		switch {
		case d == c && libs > adjacent:
			breathes = true
		case d != c && libs == adjacent && first:
			captured += int(pb.stones[ch&playoutMask])
		}
	}
	if captured == 1 {
		return false
	}
	return breathes || captured > 0
}

// fitForPlayout reports whether the empty cell i is a move the playout
// policy may draw for c: legal and not one of c's own eyes (PO-D2).
func (pb *PlayoutBoard) fitForPlayout(i int16, c Color) bool {
	around := pb.neighbourColours(i)
	if around&(1<<Empty) != 0 {
		// An empty neighbour: no eye, and legal unless ko may forbid it.
		return i != pb.ko || pb.legalByChains(i, c)
	}
	if around&(1<<c.Opponent()) == 0 && pb.eyeDiagonals(i, c) {
		return false
	}
	return pb.legalByChains(i, c)
}

// place puts a stone of c, the player to move, at i, which must be legal,
// removes the opponent chains left without liberties (GO-1) and sets the
// simple-ko point (PG-4).
func (pb *PlayoutBoard) place(i int16, c Color) {
	opp := c.Opponent()
	s := int16(pb.stride)
	pb.removeEmpty(i)
	pb.cells[i&playoutMask] = c
	pb.chain[i&playoutMask] = i
	pb.nextStone[i&playoutMask] = i
	pb.stones[i&playoutMask] = 1
	pb.libs[i&playoutMask] = 0
	captured, emptyAround := 0, int16(0)
	var capturedAt int16
	for _, q := range [4]int16{i - s, i - 1, i + 1, i + s} {
		switch pb.cells[q&playoutMask] {
		case Empty:
			emptyAround++
		case c:
			ch := pb.chain[q&playoutMask]
			pb.libs[ch&playoutMask]--
			if ch != pb.chain[i&playoutMask] {
				pb.merge(ch, pb.chain[i&playoutMask])
			}
		case opp:
			// A chain touching i several times reaches zero only at its
			// last adjacency, so a removed chain is never met again here.
			ch := pb.chain[q&playoutMask]
			pb.libs[ch&playoutMask]--
			if pb.libs[ch&playoutMask] == 0 {
				captured += int(pb.stones[ch&playoutMask])
				capturedAt = q
				pb.removeChain(ch, c)
			}
		}
	}
	// The pseudo-liberties of the new stone, added last: counts add up
	// through merges, so it does not matter which chain id i has now.
	ch := pb.chain[i&playoutMask]
	pb.libs[ch&playoutMask] += emptyAround
	pb.captures[c] += captured
	pb.passes = 0
	pb.last = i
	pb.toMove = opp
	pb.ko = 0
	if captured == 1 && pb.stones[ch&playoutMask] == 1 && pb.libs[ch&playoutMask] == 1 {
		pb.ko = capturedAt
	}
}

// merge joins the chains a and b, relabelling the smaller one.
func (pb *PlayoutBoard) merge(a, b int16) {
	if pb.stones[a&playoutMask] < pb.stones[b&playoutMask] {
		a, b = b, a
	}
	q := b
	for {
		pb.chain[q&playoutMask] = a
		q = pb.nextStone[q&playoutMask]
		if q == b {
			break
		}
	}
	pb.nextStone[a&playoutMask], pb.nextStone[b&playoutMask] = pb.nextStone[b&playoutMask], pb.nextStone[a&playoutMask]
	pb.libs[a&playoutMask] += pb.libs[b&playoutMask]
	pb.stones[a&playoutMask] += pb.stones[b&playoutMask]
}

// removeChain empties the chain ch, captured by capturer, and gives the
// capturer's chains around it their pseudo-liberties back.
func (pb *PlayoutBoard) removeChain(ch int16, capturer Color) {
	s := int16(pb.stride)
	q := ch
	for {
		pb.cells[q&playoutMask] = Empty
		pb.addEmpty(q)
		for _, r := range [4]int16{q - s, q - 1, q + 1, q + s} {
			if pb.cells[r&playoutMask] == capturer {
				pb.libs[(pb.chain[r&playoutMask])&playoutMask]++
			}
		}
		q = pb.nextStone[q&playoutMask]
		if q == ch {
			break
		}
	}
}

// ownEye reports whether the empty cell i is an eye of c for the playout
// policy (PO-D2): every neighbour is c or the edge, and the opponent holds
// at most one diagonal point, none when i is on the edge.
func (pb *PlayoutBoard) ownEye(i int16, c Color) bool {
	return pb.neighbourColours(i)&^(1<<c|1<<playoutBorderColor) == 0 && pb.eyeDiagonals(i, c)
}

// eyeDiagonals is the diagonal half of ownEye.
func (pb *PlayoutBoard) eyeDiagonals(i int16, c Color) bool {
	s := int16(pb.stride)
	opp := c.Opponent()
	a, b, d, e := pb.cells[(i-s-1)&playoutMask], pb.cells[(i-s+1)&playoutMask], pb.cells[(i+s-1)&playoutMask], pb.cells[(i+s+1)&playoutMask]
	taken := playoutB2i(a == opp) + playoutB2i(b == opp) + playoutB2i(d == opp) + playoutB2i(e == opp)
	if a == playoutBorderColor || b == playoutBorderColor || d == playoutBorderColor || e == playoutBorderColor {
		return taken == 0
	}
	return taken < 2
}

// playoutB2i is 1 for true and 0 for false.
func playoutB2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// playRandomMove plays a point drawn uniformly from the legal moves of the
// player to move that do not fill one of its own eyes, and reports whether
// there was one. Points found unfit are moved to the end of the list of
// empty points so that each is drawn at most once.
func (pb *PlayoutBoard) playRandomMove(rng *rand.Rand) bool {
	c := pb.toMove
	for n := pb.nEmpty; n > 0; n-- {
		// Lemire's multiply-shift: uniform enough for n <= 361 and
		// cheaper than IntN (PO-D5).
		k := int(uint64(rng.Uint32()) * uint64(n) >> 32)
		i := pb.empty[k]
		if pb.fitForPlayout(i, c) {
			pb.place(i, c)
			return true
		}
		pb.swapEmpty(k, n-1)
	}
	return false
}
