package protocol

import "github.com/kakure/kakure/engine"

// View is what the local player may see of a game at one moment.
type View struct {
	Role    Role
	Color   engine.Color
	Options engine.Options
	Phase   Phase
	// MyTurn is true when the local player is expected to act; Kinds are
	// the messages it may send.
	MyTurn bool
	Kinds  []Kind
	// Variant is the variant's own view: gorules.View for plain Go, and so on;
	// nil before the game has one.
	Variant VariantView
	Outcome *Outcome
	Chat    []ChatLine
	// Adjourned is true while the connection to the other peer is down.
	Adjourned bool
	// Names are the players' display names by role, as the invitation
	// and the acceptance carry them ("" for none). Untrusted text: show
	// a name only escaped and beside the peer ID (UI-D30).
	Names [2]string
	// UndoMove is the move an undo request waiting for its answer asks to
	// take back (0 for none), UndoBy the role that asked (UNDO-D1), and
	// UndoMoves how many moves from UndoMove on (1, or 2 with the
	// opponent's answer: UNDO-D3).
	UndoMove  int
	UndoBy    Role
	UndoMoves int
	// Clock is the game's clocks, nil without a time control (CLK-D8).
	Clock *ClockView
}

// PrivateViewer is a variantPlayer that adds what only this peer knows
// (its hidden choice, its cards) to the public view of its variant. It is
// called with the game's lock held, possibly from another goroutine than
// the game's loop.
type PrivateViewer interface {
	PrivateView(m *Machine, me Role, public VariantView) VariantView
}

// VariantView is a variant's own part of a [View]: the view type of the
// variant's rules package (ARCH-D3), which marks itself one with
// IsVariantView, as an [Action] and an [Event] do. What the layers above ask of every variant's view is a method here, so
// that they need no type switch over the views (issue 33) and a new
// variant's view that lacks one does not compile.
type VariantView interface {
	// IsVariantView marks the type as a variant's view.
	IsVariantView()
	// Progress says how far the game has come for people (MATCH-D4):
	// "move 57", "turn 12" where a turn is what a player counts (Hidden
	// Move Go, F-Go), "move 60, 200 tries" in Phantom Go.
	Progress() string
	// OpponentJustPassed reports whether the other side's last move, as
	// this view of player me (of colour me) shows it, was a pass that a
	// pass may answer to stop: false outside play proper (dead stones
	// being agreed, cards being chosen) and in a variant without passes.
	OpponentJustPassed(me engine.Color) bool
}
