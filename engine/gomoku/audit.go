package gomoku

import (
	"errors"
	"fmt"

	"github.com/kakure/kakure/engine"
)

// Record is a whole game of Hidden Move Double Gomoku with every
// commitment opened: what the audit of GM-8 checks. Turns[k-1] is turn k;
// turns alternate, O first. [View.Record] builds one at the end.
type Record struct {
	// Size is the board side (0 means the default, 9).
	Size int
	// Opening is the X opening piece, placed by the inviting player.
	Opening engine.Point
	// InviteeChoice is the side the invited player chose, X or O; the
	// inviting player has the other.
	InviteeChoice engine.Color
	Turns         []Turn
}

// Replay replays a record through [Game] and returns the final
// game. The first rule broken, in the order of play, stops the replay: the
// error is then a Violation naming the player at fault and the turn,
// and the game is the one before that turn. A record that is not a game at
// all (a bad size or side, turns after the end) gives another error.
//
// The record may end with a declaration of no legal point at the moment
// the player to move had none (GM-7), or stop there without it; playing on
// instead is a violation of GM-7.
func Replay(rec Record) (Game, error) {
	g, err := NewGame(engine.Options{Variant: engine.VariantGomoku, Size: rec.Size})
	if err != nil {
		return g, fmt.Errorf("gomoku: record: %w", err)
	}
	if rec.InviteeChoice != X && rec.InviteeChoice != O {
		return g, fmt.Errorf("gomoku: record: the invited player chose %v (want x or o): %w", rec.InviteeChoice, ErrRule)
	}
	g, err = g.PlaceOpening(rec.Opening)
	if err != nil {
		var v Violation
		if errors.As(err, &v) {
			v.Player = rec.InviteeChoice.Opponent() // the inviting player
			return g, v
		}
		return g, err
	}
	for i, t := range rec.Turns {
		if g.Over() {
			switch {
			case g.Stuck() && t.NoLegalPoint && i == len(rec.Turns)-1:
				return g, nil
			case g.Stuck() && !t.NoLegalPoint:
				return g, Violation{Player: g.ToMove(), Rule: "GM-7", Move: g.MoveNumber(), Detail: "had no legal point and played on"}
			}
			return g, fmt.Errorf("gomoku: record: turn %d after the end of the game: %w", i+1, engine.ErrGameOver)
		}
		next, _, err := g.Turn(t)
		if err != nil {
			return g, err
		}
		g = next
	}
	return g, nil
}

// Audit audits a finished game (GM-8): every announced row or column
// contained its committed point, every answer revealed real hidden pieces
// of that line, no piece went onto a revealed point or the mover's own
// piece, every first five was announced when due and no other five, every
// win claim was true, and every declaration of no legal point was true. It
// returns nil, or the first violation as a Violation (the player at
// fault loses, [Violation.Result]), or an error for a record that is
// not a game.
func Audit(rec Record) error {
	_, err := Replay(rec)
	return err
}
