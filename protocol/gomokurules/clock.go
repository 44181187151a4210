package gomokurules

import (
	"encoding/json"

	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/engine/gomoku"
)

// Hidden Move Double Gomoku under a clock (docs/clocks.md, CLK-D15): the
// opening piece, the side choice, each turn's commitment and announcement
// and the opponent's answer are their player's time; the reveal, the
// declaration and the openings at the end are the program's.

// PassBody is the body of KindPass and of
// KindNoLegalPoint: empty, but for the clock's part of a pass in a
// game with a time control (CLK-D15).
type PassBody struct {
	ThinkMS  int64 `json:"think_ms,omitempty"`
	ChargeMS int64 `json:"charge_ms,omitempty"`
}

// TimedTurn returns the role whose turn the clock times (CLK-D15): the
// inviter placing the opening piece, the invitee choosing its side, the
// mover from the start of its turn to its announcement (its commitment
// within), the opponent answering the announcement. No clock runs while
// the programs reveal, declare or open, nor after a resignation.
func (g *Rules) TimedTurn() (protocol.Role, bool) {
	if g.Resigned && !g.suspended {
		return protocol.Inviter, false
	}
	switch g.Phase {
	case gomoku.PhaseOpening:
		return protocol.Inviter, true
	case gomoku.PhaseChooseSide:
		return protocol.Invitee, true
	case gomoku.PhaseCommit, gomoku.PhaseAnnounce:
		return g.mover, true
	case gomoku.PhaseRespond:
		return g.mover.Other(), true
	}
	return protocol.Inviter, false
}

// EndsTimedTurn reports whether a message ends its player's timed turn
// (CLK-D15): the opening piece, the side choice, a pass, an announcement
// (the commitment before it does not: the announcement claims the whole
// turn) and an answer to one.
func (g *Rules) EndsTimedTurn(kind protocol.Kind, _ json.RawMessage) bool {
	if g.Resigned && !g.suspended {
		return false
	}
	switch kind {
	case KindOpening:
		return g.Phase == gomoku.PhaseOpening
	case KindSide:
		return g.Phase == gomoku.PhaseChooseSide
	case KindPass:
		return g.Phase == gomoku.PhaseCommit
	case KindAnnounce:
		return g.Phase == gomoku.PhaseAnnounce
	case KindResponse:
		return g.Phase == gomoku.PhaseRespond
	}
	return false
}
