package sgfexport

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/bridgerules"
	"github.com/kakure/kakure/protocol/fgorules"
	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/sgf"

	"github.com/kakure/kakure/engine/fgo"
	"github.com/kakure/kakure/engine/phantom"
)

// SGF writers of the variants whose events are not plain moves
// (docs/sgf.md): Bridge Go moves with BW on the winning move, F-Go turns
// with both moves in one node (FC a collision, FR a void superko turn, FU
// the unavailable points), Hidden Move Go reveals as nodes of their own
// with TO and HR (HU when the reveal undid the opponent's last move).
func init() {
	sgfEventWriters = append(sgfEventWriters, bridgeSGFNode, fgoSGFNode, hmgSGFNode)
}

func bridgeSGFNode(e protocol.Event, size int) (sgf.Node, bool) {
	mv, ok := e.(bridgerules.EventMoved)
	if !ok {
		return sgf.Node{}, false
	}
	var n sgf.Node
	n.AddMove(size, sgf.Move{Color: mv.Color, Point: mv.Point})
	if mv.Result.Winner != engine.Empty && len(mv.Result.WinningChain) > 0 {
		n.AddPoints(sgf.PropBridge, size, mv.Result.WinningChain...)
	}
	return n, true
}

func fgoSGFNode(e protocol.Event, size int) (sgf.Node, bool) {
	t, ok := e.(fgorules.EventTurn)
	if !ok {
		return sgf.Node{}, false
	}
	r := t.Result
	var n sgf.Node
	switch r.Kind {
	case fgo.Collision:
		n.AddPoints(sgf.PropCollision, size, r.Black)
	case fgo.Superko:
		n.Add(sgf.PropVoidTurn, sgf.ChoiceValue(size, engine.Black, r.Black), sgf.ChoiceValue(size, engine.White, r.White))
	default:
		n.AddMove(size, sgf.Move{Color: engine.Black, Point: r.Black})
		n.AddMove(size, sgf.Move{Color: engine.White, Point: r.White})
	}
	if len(r.Unavailable) > 0 {
		n.AddPoints(sgf.PropUnavailable, size, r.Unavailable...)
	}
	return n, true
}

func hmgSGFNode(e protocol.Event, size int) (sgf.Node, bool) {
	r, ok := e.(hmgrules.EventRevealed)
	if !ok {
		return sgf.Node{}, false
	}
	var n sgf.Node
	n.Add("TO", sgf.ColorValue(r.Color))
	n.Add(sgf.PropCardReveal, sgf.CardValue(size, r.Card+1, r.Point))
	if r.Undo {
		n.Add(sgf.PropUndo, "")
	}
	return n, true
}

// phantomSGF writes the audited tries of a Phantom Go game (PN-D5): one
// node per move or pass, with the player's illegal tries before it (XT)
// and their reasons (XR), as the whole game is known once audited.
func phantomSGF(outcomes []phantom.TryOutcome, size int) []sgf.Node {
	reasons := map[phantom.TryReason]string{phantom.TryOccupiedOpponent: sgf.ReasonOpponentStone,
		phantom.TryOccupiedOwn: sgf.ReasonOwnStone, phantom.TrySuicide: sgf.ReasonSuicide, phantom.TryKo: sgf.ReasonKo}
	var nodes []sgf.Node
	var tries []engine.Point
	var why []sgf.Value
	for _, o := range outcomes {
		if !o.Legal {
			tries = append(tries, o.Point)
			why = append(why, sgf.Value(reasons[o.Reason]))
			continue
		}
		var n sgf.Node
		n.AddMove(size, sgf.Move{Color: o.Mover, Point: o.Point})
		if len(tries) > 0 {
			n.AddPoints(sgf.PropIllegalTry, size, tries...)
			n.Add(sgf.PropIllegalReason, why...)
		}
		nodes = append(nodes, n)
		tries, why = nil, nil
	}
	return nodes
}
