package ui

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// scoringView is the dead-stone agreement of GO-4 as a variant's view
// shows it; plain Go, Hidden Move Go and F-Go share it (UI-D10).
type scoringView struct {
	active      bool
	hasProposal bool
	proposer    protocol.Role
	proposal    []engine.Point
	board       engine.Board
	// count scores the board with the given marking.
	count func(engine.Marking) engine.Score
	// resumeKind is the message that resumes play (a move, or an F-Go
	// commitment).
	resumeKind protocol.Kind
}

// dead returns the marking the board shows: the player's own while it
// edits one, else the proposal on the table.
func (s scoringView) dead(m *GameModel) []engine.Point {
	if m.Local.Marking {
		return m.Local.Dead
	}
	if s.hasProposal {
		return s.proposal
	}
	return nil
}

// overlay highlights the stones the shown marking holds dead and marks
// the territory the count gives each colour with that marking.
func (s scoringView) overlay(m *GameModel, bm BoardModel) BoardModel {
	if !s.active {
		return bm
	}
	dead := s.dead(m)
	return territory(bm.With(MarkHighlight, dead...), s.count(engine.MarkingOf(s.board, dead)))
}

// territory marks on bm the points sc counts for each colour that hold no
// living stone: empty points and dead stones' points.
func territory(bm BoardModel, sc engine.Score) BoardModel {
	for p := engine.Point(0); bm.OnBoard(p); p++ {
		if bm.Points[p].Stone != engine.Empty && !bm.Points[p].Has(MarkHighlight) {
			continue
		}
		switch sc.Owner[p] {
		case engine.Black:
			bm.Points[p].Marks |= MarkTerritoryBlack
		case engine.White:
			bm.Points[p].Marks |= MarkTerritoryWhite
		}
	}
	return bm
}

// final returns the marking on the table and the count it gives, once
// the count is under way with a marking (the agreed one at the end).
func (s scoringView) final() ([]engine.Point, engine.Score, bool) {
	if !s.active || !s.hasProposal {
		return nil, engine.Score{}, false
	}
	return s.proposal, s.count(engine.MarkingOf(s.board, s.proposal)), true
}

// counter is a variant screen whose games end by a count: finalCount
// returns the marking and the count of the view v, as final.
type counter interface {
	finalCount(v protocol.View) ([]engine.Point, engine.Score, bool)
}

func (s goScreen) finalCount(v protocol.View) ([]engine.Point, engine.Score, bool) {
	if gv, ok := goViewOf(v.Variant); ok {
		return s.scoring(gv).final()
	}
	return nil, engine.Score{}, false
}

func (s hmgScreen) finalCount(v protocol.View) ([]engine.Point, engine.Score, bool) {
	if hv, ok := hmgViewOf(v.Variant); ok {
		sv := s.scoring(hv)
		// The agreed marking stays after the count, while the unused
		// hidden moves are opened and once the game is done.
		sv.active = sv.active || hv.Stage == hmgrules.StageOpen || hv.Stage == hmgrules.StageDone
		return sv.final()
	}
	return nil, engine.Score{}, false
}

func (s fgoScreen) finalCount(v protocol.View) ([]engine.Point, engine.Score, bool) {
	if fv, ok := fgoViewOf(v.Variant); ok {
		return s.scoring(fv).final()
	}
	return nil, engine.Score{}, false
}

func (s *phantomScreen) finalCount(v protocol.View) ([]engine.Point, engine.Score, bool) {
	if pv, ok := phantomViewOf(v.Variant); ok {
		return s.scoring(pv).final()
	}
	return nil, engine.Score{}, false
}

// estimator is a variant screen whose board is public: estimate returns
// the score estimate of view v's board (UI-D35).
type estimator interface {
	estimate(v protocol.View) (engine.Score, bool)
}

func (s goScreen) estimate(v protocol.View) (engine.Score, bool) {
	gv, ok := goViewOf(v.Variant)
	if !ok {
		return engine.Score{}, false
	}
	return engine.EstimateScore(gv.Game.Board(), v.Options.Komi), true
}

func (s fgoScreen) estimate(v protocol.View) (engine.Score, bool) {
	fv, ok := fgoViewOf(v.Variant)
	if !ok {
		return engine.Score{}, false
	}
	return engine.EstimateScore(fv.Game.Board(), v.Options.Komi), true
}

// estimateLines write an estimate as countLines writes a count, with
// "area" for the empty points it gives each colour.
func estimateLines(sc engine.Score) []string {
	return scoreLines(sc, "area", "Estimate", "")
}

// countLines write a count of variant v with what it is made of: stones,
// territory, komi (GO-5) and Hidden Move Go's points for the opponent's
// unused hidden moves (HMG-7), then the result it gives.
func countLines(sc engine.Score, v engine.Variant) []string {
	return scoreLines(sc, "territory", "Count", v)
}

// scoreLines write score sc as each colour's points, stones, empty points
// (named by empties), White's komi and the points that are none of those
// (UI-D41: Hidden Move Go's unused hidden moves), then the result under
// label.
func scoreLines(sc engine.Score, empties, label string, v engine.Variant) []string {
	line := func(c engine.Color, points float64, n, area int, komi float64) string {
		s := fmt.Sprintf("%s %s: %s, %d %s", Name(c), formatPoints(points), stones(n), area, empties)
		if komi != 0 {
			s += ", komi " + formatPoints(komi)
		}
		if rest := points - float64(n+area) - komi; rest != 0 {
			if v == engine.VariantHMG {
				s += fmt.Sprintf(", %s for %s's unused hidden moves", formatPoints(rest), Name(c.Opponent()))
			} else {
				s += ", " + formatPoints(rest) + " more"
			}
		}
		return s
	}
	return []string{
		line(engine.Black, sc.Black, sc.BlackStones, sc.BlackTerritory, 0),
		line(engine.White, sc.White, sc.WhiteStones, sc.WhiteTerritory, sc.Komi),
		label + " → " + sc.Result().String(),
	}
}

// do carries out a command during the scoring; handled is false for a
// command the variant carries out itself (a point while resuming).
func (s scoringView) do(m *GameModel, c command) (a protocol.Action, handled bool, err error) {
	if !s.active {
		return nil, false, nil
	}
	switch c.kind {
	case cmdPoint:
		if m.Local.Resuming {
			return nil, false, nil
		}
		if c.point == engine.Pass {
			return nil, true, errors.New("play has stopped: mark dead stones, or ^P to resume play")
		}
		if s.board.At(c.point) == engine.Empty {
			return nil, true, fmt.Errorf("no stone at %s: choose a stone of a dead chain", m.Vertex(c.point))
		}
		mk := engine.MarkingOf(s.board, s.dead(m)).Toggle(s.board, c.point)
		m.Local.Marking, m.Local.Dead = true, mk.Dead(s.board)
		return nil, true, nil
	case cmdConfirm:
		if !m.May(protocol.KindMark) {
			return nil, true, errors.New("wait: the opponent is answering the marking")
		}
		return protocol.MarkDead{Dead: s.dead(m)}, true, nil
	case cmdAccept:
		if !s.hasProposal || s.proposer == m.View.Role || !m.May(protocol.KindAgree) {
			return nil, true, errors.New("there is no marking of the opponent to accept")
		}
		return protocol.AgreeScore{}, true, nil
	case cmdTakeBack:
		if !m.Local.Marking && !m.Local.Resuming {
			return nil, true, errNothing
		}
		m.Local.Marking, m.Local.Dead, m.Local.Resuming = false, nil, false
		return nil, true, nil
	case cmdResume:
		if !m.May(s.resumeKind) {
			return nil, true, errors.New("only the player to move may resume play")
		}
		m.Local.Resuming = !m.Local.Resuming
		return nil, true, nil
	}
	return nil, false, nil
}

// panel returns the scoring lines of the side panel.
func (s scoringView) panel(m *GameModel) []string {
	if !s.active || m.Over() {
		return nil
	}
	lines := []string{"Scoring (GO-4): mark dead chains"}
	dead := s.dead(m)
	switch {
	case m.Local.Resuming:
		lines = append(lines, "Resuming: play a stone (^U: back to marking)")
	case m.Local.Marking:
		lines = append(lines, fmt.Sprintf("Your marking: %s", deadList(m, dead)))
	case s.hasProposal:
		lines = append(lines, fmt.Sprintf("%s's marking: %s", m.RoleName(s.proposer), deadList(m, dead)))
	default:
		lines = append(lines, "No marking yet")
	}
	lines = append(lines, countLines(s.count(engine.MarkingOf(s.board, dead)), m.View.Options.Variant)...)
	switch {
	case m.Local.Resuming:
	case s.hasProposal && s.proposer != m.View.Role && m.May(protocol.KindAgree):
		lines = append(lines, "^A accepts it · Enter marks · ^D proposes yours")
	case m.May(protocol.KindMark):
		lines = append(lines, "Enter marks a chain · ^D proposes the marking")
	default:
		lines = append(lines, "Waiting for "+m.RoleName(m.View.Role.Other()))
	}
	if m.May(s.resumeKind) && !m.Local.Resuming {
		lines = append(lines, "^P resumes play")
	}
	return lines
}

// deadList writes a marking: its stones, or "none".
func deadList(m *GameModel, dead []engine.Point) string {
	if len(dead) == 0 {
		return "no dead stones"
	}
	return m.Vertices(dead)
}

// formatPoints writes a count without trailing zeros.
func formatPoints(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
