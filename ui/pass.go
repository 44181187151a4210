package ui

import (
	"fmt"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol"
)

// A pass that ends play, or one in the opening, asks first (UI-D38): a
// stray p Enter must not end a game. passWarner is a variantScreen that
// says when: passQuestion returns the dialog's lines, or nil when the
// pass goes at once (or would be refused anyway, which the variant's do
// then says).
type passWarner interface {
	passQuestion(m *GameModel) []string
}

// passQuestion writes the question of a pass: ends says what a second
// pass does when the opponent passed last ("" when it did not), moves is
// how many moves were played (a pass before the board's side of them is
// in the opening).
func passQuestion(m *GameModel, ends string, moves int) []string {
	opp := m.Name(m.Me().Opponent())
	switch {
	case ends != "":
		return []string{fmt.Sprintf("%s passed: your pass %s.", opp, ends), "", "y passes · n or Esc keeps playing"}
	case moves < m.Size():
		return []string{fmt.Sprintf("Pass after %s? So early a pass gives %s a free move, and if %s passes too, play ends.", plural(moves, "move", "moves"), opp, opp),
			"", "y passes · n or Esc keeps playing"}
	}
	return nil
}

// endsByCount is what a second pass does in the variants with a count.
const endsByCount = "ends play and the count begins (dead stones, then the score)"

func (goScreen) passQuestion(m *GameModel) []string {
	v, ok := goViewOf(m.View.Variant)
	if !ok || v.Scoring || !m.May(protocol.KindMove) {
		return nil
	}
	ends := ""
	if v.Game.Passes() > 0 {
		ends = endsByCount
	}
	return passQuestion(m, ends, v.Game.MoveNumber())
}

func (hmgScreen) passQuestion(m *GameModel) []string {
	v, ok := hmgViewOf(m.View.Variant)
	if !ok || v.Stage != hmgrules.StagePlay || !m.May(protocol.KindMove) || !v.Game.CanPass(m.Me()) {
		return nil
	}
	ends := ""
	if v.Game.Passes() > 0 {
		ends = endsByCount
	}
	return passQuestion(m, ends, v.Game.Turns())
}

func (bridgeScreen) passQuestion(m *GameModel) []string {
	v, ok := bridgeViewOf(m.View.Variant)
	if !ok || !m.May(protocol.KindMove) {
		return nil
	}
	ends := ""
	if v.Game.Passes() > 0 {
		ends = "ends the game: a draw"
	}
	return passQuestion(m, ends, v.Game.MoveNumber())
}

func (s *phantomScreen) passQuestion(m *GameModel) []string {
	v, ok := phantomViewOf(m.View.Variant)
	if !ok {
		return nil
	}
	switch {
	case v.Stage == phantomrules.StagePlay && v.MyTry:
		ends := ""
		if v.Passes > 0 {
			ends = "ends play: both reveal their tries, the board is audited and counted"
		}
		moves := 0
		for _, a := range v.Own.Log() {
			if a.Event == phantom.Moved || a.Event == phantom.Passed {
				moves++
			}
		}
		return passQuestion(m, ends, moves)
	case v.Stage == phantomrules.StageOpen && !v.Scoring && m.May(protocol.KindMove) && v.Referee.Passes() > 0:
		return passQuestion(m, endsByCount, m.Size())
	}
	return nil
}

func (fgoScreen) passQuestion(m *GameModel) []string {
	v, ok := fgoViewOf(m.View.Variant)
	if !ok || v.Scoring || v.Committed || m.Local.Confirmed || m.Over() {
		return nil
	}
	// Both choose at once: a pass ends play only if the other passes in
	// the same turn, which nobody knows before; the opening still asks.
	return passQuestion(m, "", 2*v.Game.TurnNumber())
}

func (s *gomokuScreen) passQuestion(m *GameModel) []string {
	gv, ok := gomokuViewOf(m.View.Variant)
	if !ok || gv.Game.Size() == 0 || !gv.Game.MyTurn() || gv.Game.Phase() != gomoku.PhaseCommit || m.View.Phase != protocol.PhasePlay {
		return nil
	}
	ends := ""
	if h := gv.Game.History(); len(h) > 0 && h[len(h)-1].Turn.Pass {
		ends = "ends the game: a draw (GM-7)"
	}
	return passQuestion(m, ends, gv.Game.MoveNumber()-1)
}

// askPass asks before the pass c when the variant says it deserves a
// question; it reports whether it asked (the command then waits for y).
func (s *GameScreen) askPass(c command) bool {
	w, ok := s.variant.(passWarner)
	if !ok || c.kind != cmdPoint || c.point != engine.Pass || s.model.Local.Resuming {
		return false
	}
	q := w.passQuestion(s.model)
	if q == nil {
		return false
	}
	s.ask("Pass", q, func() { s.run(c) })
	return true
}
