package ui

import (
	"fmt"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

func init() {
	variantScreens[engine.VariantGo] = func() variantScreen { return goScreen{} }
}

// goScreen is plain Go: a public board, moves in turn, GO-4 scoring.
type goScreen struct{}

func goViewOf(v any) (gorules.View, bool) {
	gv, ok := v.(gorules.View)
	return gv, ok
}

func (goScreen) scoring(v gorules.View) scoringView {
	return scoringView{active: v.Scoring, hasProposal: v.HasProposal, proposer: v.Proposer,
		proposal: v.Proposal, board: v.Game.Board(), count: v.Game.Score, resumeKind: protocol.KindMove}
}

func (s goScreen) board(m *GameModel) BoardModel {
	v, ok := goViewOf(m.View.Variant)
	if !ok {
		return NewBoardModel(m.Size(), m.Me())
	}
	bm := ModelFromBoard(v.Game.Board(), m.Me(), v.Game.LastMove())
	return s.scoring(v).overlay(m, bm.With(MarkHighlight, m.Effect...))
}

func (s goScreen) panel(m *GameModel) []string {
	v, ok := goViewOf(m.View.Variant)
	if !ok {
		return nil
	}
	lines := playerLines(m, v.Game.Captures(engine.Black), v.Game.Captures(engine.White))
	if !v.Scoring && !m.Over() {
		lines = append(lines, fmt.Sprintf("Move %d · %s", v.Game.MoveNumber()+1, turnLine(m, v.Game.ToMove())))
	}
	return append(lines, s.scoring(v).panel(m)...)
}

func (s goScreen) do(m *GameModel, c command) (protocol.Action, error) {
	v, ok := goViewOf(m.View.Variant)
	if !ok {
		return nil, errNothing
	}
	if a, handled, err := s.scoring(v).do(m, c); handled || err != nil {
		return a, err
	}
	if c.kind != cmdPoint {
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

func (goScreen) due(*GameModel) protocol.Action { return nil }

func (goScreen) describe(m *GameModel, e protocol.Event) eventNote {
	if mv, ok := e.(protocol.EventMoved); ok {
		return describeMove(m, mv)
	}
	return eventNote{}
}

func (s goScreen) replayBoard(f Frame, final protocol.View, _ bool) BoardModel {
	v, ok := goViewOf(f.Public)
	if !ok {
		return NewBoardModel(final.Options.Size, final.Color)
	}
	bm := ModelFromGoView(v, final.Color)
	if v.Scoring || v.HasProposal {
		// The count: the marking on the table (the agreed one at the
		// end) and the territory it gives.
		bm = territory(bm.With(MarkHighlight, v.Proposal...), v.Game.Score(engine.MarkingOf(v.Game.Board(), v.Proposal)))
	}
	return bm
}

// describeMove describes a stone played or a pass.
func describeMove(m *GameModel, mv protocol.EventMoved) eventNote {
	if mv.Point == engine.Pass {
		return eventNote{lines: []string{Name(mv.Color) + " passes."}, frame: true, hasLast: true, last: engine.NoPoint}
	}
	line := Name(mv.Color) + " " + m.Vertex(mv.Point)
	if len(mv.Captured) > 0 {
		line += fmt.Sprintf(", captures %s", m.Vertices(mv.Captured))
	}
	return eventNote{lines: []string{line + "."}, frame: true, hasLast: true, last: mv.Point, effect: mv.Captured}
}

// playerLines returns the two lines of the players: colour, who, and how
// many stones each captured.
func playerLines(m *GameModel, capBlack, capWhite int) []string {
	var lines []string
	for _, c := range []engine.Color{engine.Black, engine.White} {
		who := m.OpponentLabel()
		if c == m.Me() {
			who = "you"
		}
		n := capBlack
		if c == engine.White {
			n = capWhite
		}
		lines = append(lines, fmt.Sprintf("%s %-5s %-12s captures %d", stoneGlyph(c), Name(c), who, n))
	}
	return lines
}

// turnLine says whose turn it is.
func turnLine(m *GameModel, toMove engine.Color) string {
	if toMove == m.Me() {
		return "your turn"
	}
	return Name(toMove) + " to play"
}

// notYourTurn is the error of a move out of turn.
func notYourTurn(m *GameModel) error {
	if m.Over() {
		return fmt.Errorf("the game is over")
	}
	if m.View.Phase != protocol.PhasePlay {
		return fmt.Errorf("the game has not started")
	}
	return fmt.Errorf("not your turn: waiting for %s", m.RoleName(m.View.Role.Other()))
}
