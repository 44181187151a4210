package ui

import (
	"fmt"

	"github.com/kakure/kakure/protocol/bridgerules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

func init() {
	variantScreens[engine.VariantBridge] = func() variantScreen { return bridgeScreen{} }
}

// bridgeScreen is Bridge Go: a public board; captures and the winning
// chain are highlighted.
type bridgeScreen struct{}

func bridgeViewOf(v any) (bridgerules.View, bool) {
	bv, ok := v.(bridgerules.View)
	return bv, ok
}

func (bridgeScreen) board(m *GameModel) BoardModel {
	v, ok := bridgeViewOf(m.View.Variant)
	if !ok {
		return NewBoardModel(m.Size(), m.Me())
	}
	bm := ModelFromBoard(v.Game.Board(), m.Me(), v.Game.LastMove())
	return bm.With(MarkHighlight, m.Effect...).With(MarkHighlight, v.WinningChain...)
}

func (bridgeScreen) panel(m *GameModel) []string {
	v, ok := bridgeViewOf(m.View.Variant)
	if !ok {
		return nil
	}
	g := v.Game
	lines := playerLines(m, g.Captures(engine.Black), g.Captures(engine.White))
	lines = append(lines, fmt.Sprintf("Self-captures: Black %d, White %d", g.SelfCaptures(engine.Black), g.SelfCaptures(engine.White)))
	switch {
	case v.Winner != engine.Empty:
		lines = append(lines, fmt.Sprintf("%s made a bridge: %s", Name(v.Winner), m.Vertices(v.WinningChain)))
	case !g.Over() && !m.Over():
		lines = append(lines, fmt.Sprintf("Move %d · %s", g.MoveNumber()+1, turnLine(m, g.ToMove())))
		lines = append(lines, "Join two opposite sides to win (BG-3)")
	}
	return lines
}

func (bridgeScreen) do(m *GameModel, c command) (protocol.Action, error) {
	v, ok := bridgeViewOf(m.View.Variant)
	if !ok || c.kind != cmdPoint {
		return nil, errNothing
	}
	if !m.May(protocol.KindMove) {
		return nil, notYourTurn(m)
	}
	if err := v.Game.Check(m.Me(), c.point); err != nil {
		return nil, moveError(err, c.point, m.Size())
	}
	return protocol.Play{Point: c.point}, nil
}

func (bridgeScreen) due(*GameModel) protocol.Action { return nil }

func (bridgeScreen) describe(m *GameModel, e protocol.Event) eventNote {
	mv, ok := e.(bridgerules.EventMoved)
	if !ok {
		return eventNote{}
	}
	r := mv.Result
	if mv.Point == engine.Pass {
		line := Name(mv.Color) + " passes."
		if r.Draw {
			line = Name(mv.Color) + " passes: two passes, a draw."
		}
		return eventNote{lines: []string{line}, frame: true, hasLast: true, last: engine.NoPoint}
	}
	line := Name(mv.Color) + " " + m.Vertex(mv.Point)
	if len(r.Captured) > 0 {
		line += ", captures " + m.Vertices(r.Captured)
	}
	if len(r.SelfCaptured) > 0 {
		line += ", loses its own " + m.Vertices(r.SelfCaptured)
	}
	if r.Winner != engine.Empty {
		line += fmt.Sprintf(": a bridge, %s wins", Name(r.Winner))
	}
	effect := append(append([]engine.Point(nil), r.Captured...), r.SelfCaptured...)
	return eventNote{lines: []string{line + "."}, frame: true, hasLast: true, last: mv.Point, effect: effect}
}

func (bridgeScreen) replayBoard(f Frame, final protocol.View, _ bool) BoardModel {
	v, ok := bridgeViewOf(f.Public)
	if !ok {
		return NewBoardModel(final.Options.Size, final.Color)
	}
	return ModelFromBoard(v.Game.Board(), final.Color, v.Game.LastMove()).With(MarkHighlight, v.WinningChain...)
}
