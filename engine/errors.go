package engine

import "errors"

// Reasons a move or action is refused. Variants wrap them with context;
// test for them with errors.Is.
var (
	ErrOccupied    = errors.New("engine: point is occupied")
	ErrSuicide     = errors.New("engine: suicide")
	ErrKo          = errors.New("engine: ko")
	ErrSuperko     = errors.New("engine: position repeats an earlier one (superko)")
	ErrOffBoard    = errors.New("engine: point is not on the board")
	ErrNotYourTurn = errors.New("engine: not this player's turn")
	ErrGameOver    = errors.New("engine: the game is over")
	ErrWrongPhase  = errors.New("engine: action not allowed now")
)
