package protocol

import (
	"fmt"

	"github.com/kakure/kakure/engine"
)

// Kinds of the undo request (UNDO-D1, docs/rules/undo.md): plain Go and Bridge
// Go only.
const (
	KindUndoRequest Kind = "undo-request"
	KindUndoAccept  Kind = "undo-accept"
	KindUndoDecline Kind = "undo-decline"
)

// UndoBody names the move an undo request, acceptance or refusal is
// about: its number, counting from 1 (passes count).
type UndoBody struct {
	Move int `json:"move"`
}

// RequestUndo asks the opponent to let the local player take back its
// last move (plain Go and Bridge Go).
type RequestUndo struct{}

// AnswerUndo answers the opponent's undo request: Accept takes the move
// back in both programs.
type AnswerUndo struct{ Accept bool }

func (RequestUndo) action() {}
func (AnswerUndo) action()  {}

// EventUndoRequested: By asks to take back its move number Move.
type EventUndoRequested struct {
	By   Role
	Move int
}

// EventUndone: move number Move, By's, was taken back with the
// opponent's signed acceptance.
type EventUndone struct {
	By   Role
	Move int
}

// EventUndoDeclined: the opponent of By refused its request, or moved
// instead of answering.
type EventUndoDeclined struct{ By Role }

func (EventUndoRequested) event() {}
func (EventUndone) event()        {}
func (EventUndoDeclined) event()  {}

// undoer is a variantRules whose moves can be taken back (UNDO-D1).
type undoer interface {
	// lastMove returns the number of moves played and the role that
	// played the last one; ok is false when no move may be taken back
	// now (no move yet, the count under way, the game over).
	lastMove() (n int, by Role, ok bool)
	// undo takes back the last move.
	undo()
}

// ErrNoUndo is the polite refusal of an undo in a variant with hidden
// information, where taking a move back would reveal it.
var ErrNoUndo = fmt.Errorf("protocol: no undo in this variant: taking a move back would reveal what is hidden: %w", ErrNotNow)

// pendingUndo is an undo request waiting for its answer.
type pendingUndo struct {
	by   Role
	move int
}

// isUndoKind reports the kinds of the undo request.
func isUndoKind(k Kind) bool {
	return k == KindUndoRequest || k == KindUndoAccept || k == KindUndoDecline
}

// applyUndo judges an undo request or answer (UNDO-D1). A request of a
// move that is not the sender's last, sent before it saw the other's
// newer move (its ack is below the other's last message), crossed that
// move and is kept without effect; so is an answer to a request a move
// already cancelled.
func (m *Machine) applyUndo(msg *Message) ([]Event, error) {
	var b UndoBody
	if err := decodeBody(msg.Body, &b); err != nil {
		return nil, violation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	u, ok := m.variant.(undoer)
	if m.Phase != PhasePlay || !ok || m.resigned != nil {
		return nil, violation(msg.From, msg.Seq, "T-3", "%s in %s during %s", msg.Kind, m.Options.Variant, m.Phase)
	}
	crossed := msg.Ack < m.lastSeq(msg.From.Other())
	switch msg.Kind {
	case KindUndoRequest:
		n, by, can := u.lastMove()
		if m.undo != nil || !can || by != msg.From || b.Move != n {
			if crossed {
				return nil, nil
			}
			return nil, violation(msg.From, msg.Seq, "T-3", "undo request of move %d, which is not its last move (%d moves played)", b.Move, n)
		}
		m.undo = &pendingUndo{by: msg.From, move: n}
		return []Event{EventUndoRequested{By: msg.From, Move: n}}, nil
	}
	if m.undo == nil || m.undo.by != msg.From.Other() || m.undo.move != b.Move {
		return nil, violation(msg.From, msg.Seq, "T-3", "%s of move %d, which no request of the other asks", msg.Kind, b.Move)
	}
	p := m.undo
	m.undo = nil
	if msg.Kind == KindUndoDecline {
		return []Event{EventUndoDeclined{By: p.by}}, nil
	}
	u.undo()
	return []Event{EventUndone{By: p.by, Move: p.move}}, nil
}

// lastSeq returns the sequence number of role r's last message the
// machine took, or -1.
func (m *Machine) lastSeq(r Role) int64 {
	for i := len(m.history) - 1; i >= 0; i-- {
		if m.history[i].From == r {
			return int64(m.history[i].Seq)
		}
	}
	return -1
}

// undoMessage makes the message of an undo action.
func (g *Game) undoMessage(a Action) (Kind, any, error) {
	u, ok := g.m.variant.(undoer)
	if !ok {
		if d, err := engine.LookupDescriptor(g.m.Options.Variant); g.m.variant == nil || err != nil || d.Undo {
			return "", nil, fmt.Errorf("protocol: no undo now: %w", ErrNotNow)
		}
		return "", nil, ErrNoUndo
	}
	if g.m.Phase != PhasePlay || g.m.resigned != nil {
		return "", nil, fmt.Errorf("protocol: no undo during %s: %w", g.m.Phase, ErrNotNow)
	}
	switch a := a.(type) {
	case RequestUndo:
		n, by, can := u.lastMove()
		if g.m.undo != nil || !can || by != g.role {
			return "", nil, fmt.Errorf("protocol: only the player who moved last may ask to take it back, before the opponent moves: %w", ErrNotNow)
		}
		return KindUndoRequest, UndoBody{Move: n}, nil
	case AnswerUndo:
		if g.m.undo == nil || g.m.undo.by == g.role {
			return "", nil, fmt.Errorf("protocol: no undo request to answer: %w", ErrNotNow)
		}
		if a.Accept {
			return KindUndoAccept, UndoBody{Move: g.m.undo.move}, nil
		}
		return KindUndoDecline, UndoBody{Move: g.m.undo.move}, nil
	}
	return "", nil, fmt.Errorf("protocol: %T: %w", a, ErrNotNow)
}
