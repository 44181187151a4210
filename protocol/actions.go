package protocol

import "github.com/kakure/kakure/engine"

// Action is something the local player asks the game to do. The variant
// turns it into a message, checks it with the engine and sends it.
type Action interface{ action() }

// Play plays a stone at Point, or passes (engine.Pass).
type Play struct{ Point engine.Point }

// Resign gives up the game (GO-6).
type Resign struct{}

// Chat sends a line of text to the opponent.
type Chat struct{ Text string }

// MarkDead proposes a set of dead stones at the end of play (GO-4); each
// point stands for its whole chain.
type MarkDead struct{ Dead []engine.Point }

// AgreeScore accepts the marking the opponent proposed.
type AgreeScore struct{}

func (Play) action()       {}
func (Resign) action()     {}
func (Chat) action()       {}
func (MarkDead) action()   {}
func (AgreeScore) action() {}

// SessionAction is embedded in an action that the session around the
// machine defines for itself and the machine never applies (closing a
// game, accepting an invitation): the embedding makes the type an Action.
type SessionAction struct{}

func (SessionAction) action() {}

// ErrNotNow reports an action that does not fit the game's state.
var ErrNotNow = engine.ErrWrongPhase
