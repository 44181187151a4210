package ui

import (
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/gorules"
)

// Mark is a set of marks a point shows besides its stone.
type Mark uint16

// The marks. Which variant sets which is said with each; the widget draws
// them the same in every variant (docs/ui.md).
const (
	// MarkUncertain: one of the player's stones that may have been
	// captured (Phantom Go under hamburg, PG-7).
	MarkUncertain Mark = 1 << iota
	// MarkLearnt: an opponent stone the player knows of only through an
	// announcement (Phantom Go, a revealed hidden move).
	MarkLearnt
	// MarkNote: the player's private note, set and cleared with the note
	// key; never sent anywhere.
	MarkNote
	// MarkUnavailable: no one may play here now (F-Go).
	MarkUnavailable
	// MarkPending: the player's choice, not yet resolved (F-Go's
	// simultaneous move, a hidden move waiting for its turn).
	MarkPending
	// MarkHighlight: a point to look at: Bridge Go's winning chain,
	// captured stones, stones proposed dead.
	MarkHighlight
	// MarkLast: a further last move, drawn like [BoardModel.LastMove]
	// (F-Go resolves both players' choices at once).
	MarkLast
	// MarkBoth: both players have a piece here (gomoku's hidden pieces
	// may share a point, GM-4); drawn with [Glyphs].Both, not as the
	// stone of one of them.
	MarkBoth
	// MarkTerritoryBlack and MarkTerritoryWhite: an empty point (or a
	// dead stone's) that the count gives to Black or White (GO-5), drawn
	// on an empty point with [Glyphs].BlackTerritory or WhiteTerritory.
	MarkTerritoryBlack
	MarkTerritoryWhite
	// MarkRowAnnounced and MarkColumnAnnounced: a point of the row or
	// the column announced this turn (gomoku, GM-3), drawn on an empty
	// point with [Glyphs].Row or Column.
	MarkRowAnnounced
	MarkColumnAnnounced
)

// PointMark is what the board shows at one point: a stone (engine.Empty
// for none) and marks.
type PointMark struct {
	Stone engine.Color
	Marks Mark
}

// Has reports whether the point carries every mark of m.
func (pm PointMark) Has(m Mark) bool { return pm.Marks&m == m }

// BoardModel is everything the [Board] widget draws, as a value: built by
// the small pure functions below from what the game lets the player see,
// and never from a game object inside the widget.
type BoardModel struct {
	// Size is the board side (5 to 19).
	Size int
	// Me is the colour of the local player (engine.Empty for an
	// onlooker); a pending choice shows a stone of this colour.
	Me engine.Color
	// Points holds the points 0 to Size*Size-1, numbered as engine.Point.
	Points [engine.MaxPoints]PointMark
	// LastMove is the last stone played, or engine.NoPoint.
	LastMove engine.Point
	// Cursor is the point under the cursor, or engine.NoPoint to keep the
	// widget's cursor where it is (see [Board.SetModel]).
	Cursor engine.Point
}

// NewBoardModel returns an empty board of side size for player me.
func NewBoardModel(size int, me engine.Color) BoardModel {
	return BoardModel{Size: size, Me: me, LastMove: engine.NoPoint, Cursor: engine.NoPoint}
}

// Valid reports whether the widget can draw the model: a side of 5 to 19.
func (m BoardModel) Valid() bool { return m.Size >= engine.MinSize && m.Size <= engine.MaxSize }

// OnBoard reports whether p is a point of the board (of none when the
// model is not valid).
func (m BoardModel) OnBoard(p engine.Point) bool {
	return m.Valid() && p >= 0 && int(p) < m.Size*m.Size
}

// At returns what the board shows at p (nothing off the board).
func (m BoardModel) At(p engine.Point) PointMark {
	if !m.OnBoard(p) {
		return PointMark{}
	}
	return m.Points[p]
}

// IsLast reports whether p is drawn as a last move.
func (m BoardModel) IsLast(p engine.Point) bool {
	return m.OnBoard(p) && (p == m.LastMove || m.Points[p].Has(MarkLast))
}

// With returns a copy of m with mark added at each of ps; points off the
// board are ignored. Variants use it to lay their marks over a board.
func (m BoardModel) With(mark Mark, ps ...engine.Point) BoardModel {
	for _, p := range ps {
		if m.OnBoard(p) {
			m.Points[p].Marks |= mark
		}
	}
	return m
}

// Without returns a copy of m with mark removed at each of ps.
func (m BoardModel) Without(mark Mark, ps ...engine.Point) BoardModel {
	for _, p := range ps {
		if m.OnBoard(p) {
			m.Points[p].Marks &^= mark
		}
	}
	return m
}

// Notes returns the points carrying the player's private note, in order.
func (m BoardModel) Notes() []engine.Point {
	var ps []engine.Point
	for p := engine.Point(0); m.OnBoard(p); p++ {
		if m.Points[p].Has(MarkNote) {
			ps = append(ps, p)
		}
	}
	return ps
}

// ModelFromBoard returns the model of a position that the player sees
// whole (plain Go, Bridge Go, F-Go, a finished game): every stone as it
// stands, and last as the last move (engine.NoPoint for none).
func ModelFromBoard(b engine.Board, me engine.Color, last engine.Point) BoardModel {
	m := NewBoardModel(b.Size(), me)
	for p := engine.Point(0); int(p) < b.Points(); p++ {
		m.Points[p].Stone = b.At(p)
	}
	if b.OnBoard(last) {
		m.LastMove = last
	}
	return m
}

// ModelFromGoView returns the model of plain Go as protocol shows it to
// player me. While dead stones are being marked, the proposed ones are
// highlighted (UI-D6).
func ModelFromGoView(v gorules.View, me engine.Color) BoardModel {
	m := ModelFromBoard(v.Game.Board(), me, v.Game.LastMove())
	if v.Scoring && v.HasProposal {
		m = m.With(MarkHighlight, v.Proposal...)
	}
	return m
}

// ModelFromPhantomView returns the model of what a Phantom Go player
// knows: its own stones, the ones that may have been captured
// (MarkUncertain), and the opponent stones it learnt (MarkLearnt).
func ModelFromPhantomView(v phantom.View) BoardModel {
	me := v.Me()
	m := NewBoardModel(v.Size(), me)
	for p := engine.Point(0); int(p) < v.Size()*v.Size(); p++ {
		switch v.At(p) {
		case phantom.Own:
			m.Points[p] = PointMark{Stone: me}
		case phantom.OwnUncertain:
			m.Points[p] = PointMark{Stone: me, Marks: MarkUncertain}
		case phantom.Opponent:
			m.Points[p] = PointMark{Stone: me.Opponent(), Marks: MarkLearnt}
		case phantom.OpponentUncertain:
			m.Points[p] = PointMark{Stone: me.Opponent(), Marks: MarkLearnt | MarkUncertain}
		}
	}
	return m
}

// StarPoints returns the star points (hoshi) of a board of side size, in
// point order (UI-D5): none below 7; the four corner points on the third
// line up to 12 and on the fourth line from 13; the centre of odd boards
// from 9; the four side points of odd boards from 15.
func StarPoints(size int) []engine.Point {
	if size < 7 || size > engine.MaxSize {
		return nil
	}
	near := 2
	if size >= 13 {
		near = 3
	}
	far, mid := size-1-near, size/2
	lines := []int{near, far}
	if size%2 == 1 && size >= 15 {
		lines = []int{near, mid, far}
	}
	var star [engine.MaxPoints]bool
	for _, y := range lines {
		for _, x := range lines {
			star[engine.PointAt(size, x, y)] = true
		}
	}
	if size%2 == 1 && size >= 9 {
		star[engine.PointAt(size, mid, mid)] = true
	}
	var ps []engine.Point
	for p := range size * size {
		if star[p] {
			ps = append(ps, engine.Point(p))
		}
	}
	return ps
}
