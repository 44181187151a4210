package sgfexport

import (
	"slices"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/engine/sgf"
)

// gomokuSGF writes a finished gomoku game from its opened record: the X
// opening piece as AB in the root, then a node per turn with the
// properties of docs/sgf.md (AL the announced line, GR the pieces revealed
// in answer, GX a failed placement, FV "five", WC a win claim). Pieces that
// stayed hidden appear at their turn: the record is written after every
// commitment was opened.
func gomokuSGF(root *sgf.Node, rec gomoku.Record, size int) []sgf.Node {
	if rec.Opening >= 0 {
		root.AddPoints("AB", size, rec.Opening)
	}
	var nodes []sgf.Node
	for i, t := range rec.Turns {
		mover := gomoku.X
		if (i+1)%2 == 1 {
			mover = gomoku.O // O moves first (GM-2)
		}
		var n sgf.Node
		failed := !t.Pass && !t.NoLegalPoint && slices.Contains(t.Revealed, t.Point)
		switch {
		case t.Pass || t.NoLegalPoint:
			n.AddMove(size, sgf.Move{Color: mover, Point: engine.Pass})
		case failed:
			n.Add("TO", sgf.ColorValue(mover))
		default:
			n.AddMove(size, sgf.Move{Color: mover, Point: t.Point})
		}
		if !t.Pass && !t.NoLegalPoint {
			n.Add(sgf.PropLineAnnounced, sgf.LineValue(size, sgf.Line{Column: t.Line.Kind == gomoku.Column, Index: t.Line.Index}))
			n.AddPoints(sgf.PropPiecesRevealed, size, t.Revealed...)
		}
		if failed {
			n.AddPoints(sgf.PropFailedPlacement, size, t.Point)
		}
		if t.Five {
			n.Add(sgf.PropFiveAnnounced, "")
		}
		if t.Claim {
			var ps []engine.Point
			for _, f := range t.Lines {
				if pts, ok := f.Points(size); ok {
					ps = append(ps, pts[:]...)
				}
			}
			n.AddPoints(sgf.PropWinClaim, size, ps...)
		}
		nodes = append(nodes, n)
	}
	return nodes
}
