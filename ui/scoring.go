package ui

import (
	"errors"
	"fmt"
	"strconv"

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

// overlay highlights the stones the shown marking holds dead.
func (s scoringView) overlay(m *GameModel, bm BoardModel) BoardModel {
	if !s.active {
		return bm
	}
	return bm.With(MarkHighlight, s.dead(m)...)
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
	sc := s.count(engine.MarkingOf(s.board, dead))
	lines = append(lines, fmt.Sprintf("Count: Black %s, White %s → %s",
		formatPoints(sc.Black), formatPoints(sc.White), sc.Result()))
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
