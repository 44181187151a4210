package protocol

import (
	"fmt"

	"github.com/kakure/kakure/engine"
)

// Action is something the local player asks the game to do. The variant
// turns it into a message, checks it with the engine and sends it.
type Action interface{ IsAction() }

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

func (Play) IsAction()       {}
func (Resign) IsAction()     {}
func (Chat) IsAction()       {}
func (MarkDead) IsAction()   {}
func (AgreeScore) IsAction() {}

// SessionAction is embedded in an action that the session around the
// machine defines for itself and the machine never applies (closing a
// game, accepting an invitation): the embedding makes the type an Action.
type SessionAction struct{}

func (SessionAction) IsAction() {}

// ErrNotNow reports an action that does not fit the game's state.
var ErrNotNow = engine.ErrWrongPhase

// ActionMessage returns the kind and body of the message that role r
// sends for action a, one of the actions whose message the game's public
// state alone makes (Resign, Chat, RequestAdjourn, AcceptAdjourn,
// RequestUndo, AnswerUndo), or the error that says why r may not take it
// now. The other actions need the player's secrets and its variant's
// rules.
func (m *Machine) ActionMessage(r Role, a Action) (Kind, any, error) {
	switch a := a.(type) {
	case Resign:
		if m.Resigned != nil {
			return "", nil, fmt.Errorf("protocol: the game is already resigned: %w", engine.ErrGameOver)
		}
		return KindResign, struct{}{}, nil
	case Chat:
		return KindChat, ChatBody{Text: a.Text}, nil
	case RequestAdjourn, AcceptAdjourn:
		return m.adjournMessage(r, a)
	case RequestUndo, AnswerUndo:
		return m.undoMessage(r, a)
	}
	return "", nil, fmt.Errorf("protocol: %T has no message of the public state: %w", a, ErrNotNow)
}
