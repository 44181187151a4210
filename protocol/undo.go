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
// about: its number, counting from 1 (passes count), and how many moves
// from it on are taken back: absent (0) for that move alone (UNDO-D1), 2
// for the requester's move and the opponent's answer to it (UNDO-D3).
// No other count is valid, so that one request has one encoding.
type UndoBody struct {
	Move  int `json:"move"`
	Moves int `json:"moves,omitempty"`
}

// count returns how many moves the body takes back.
func (b UndoBody) count() int { return max(b.Moves, 1) }

// RequestUndo asks the opponent to let the local player take back its
// last move (plain Go and Bridge Go): before the opponent moved, that
// move alone (UNDO-D1); once the opponent answered it, that move and the
// answer (UNDO-D3), as a game against a bot needs.
type RequestUndo struct{}

// AnswerUndo answers the opponent's undo request: Accept takes the move
// back in both programs.
type AnswerUndo struct{ Accept bool }

func (RequestUndo) IsAction() {}
func (AnswerUndo) IsAction()  {}

// EventUndoRequested: By asks to take back its move number Move and, when
// Moves is 2, the opponent's answer to it, move Move+1 (UNDO-D3).
type EventUndoRequested struct {
	By    Role
	Move  int
	Moves int
}

// EventUndone: move number Move, By's, was taken back with the
// opponent's signed acceptance, and with it the opponent's move Move+1
// when Moves is 2 (UNDO-D3).
type EventUndone struct {
	By    Role
	Move  int
	Moves int
}

// EventUndoDeclined: the opponent of By refused its request, or moved
// instead of answering.
type EventUndoDeclined struct{ By Role }

func (EventUndoRequested) IsEvent() {}
func (EventUndone) IsEvent()        {}
func (EventUndoDeclined) IsEvent()  {}

// undoer is a variantRules whose moves can be taken back (UNDO-D1).
type undoer interface {
	// LastMove returns the number of moves played and the role that
	// played the last one; ok is false when no move may be taken back
	// now (no move yet, the count under way, the game over).
	LastMove() (n int, by Role, ok bool)
	// MoverOf returns the role that played move number i (1 ≤ i ≤ n).
	MoverOf(i int) Role
	// Undo takes back the last move.
	Undo()
}

// ErrNoUndo is the polite refusal of an undo in a variant with hidden
// information, where taking a move back would reveal it.
var ErrNoUndo = fmt.Errorf("protocol: no undo in this variant: taking a move back would reveal what is hidden: %w", ErrNotNow)

// pendingUndo is an undo request waiting for its answer: by asks to
// take back moves from move on (1 or 2 of them).
type pendingUndo struct {
	By    Role
	Move  int
	Moves int
}

// isUndoKind reports the kinds of the undo request.
func isUndoKind(k Kind) bool {
	return k == KindUndoRequest || k == KindUndoAccept || k == KindUndoDecline
}

// applyUndo judges an undo request or answer (UNDO-D1, UNDO-D3). A
// request of a move that is not the sender's last, sent before it saw the
// other's newer move (its ack is below the other's last message), crossed
// that move and is kept without effect; so is an answer to a request a
// move already cancelled.
func (m *Machine) applyUndo(msg *Message) ([]Event, error) {
	var b UndoBody
	if err := DecodeBody(msg.Body, &b); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	if b.Moves != 0 && b.Moves != 2 {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%s of %d moves: only 2, or none for one", msg.Kind, b.Moves)
	}
	u, ok := m.Rules.(undoer)
	if m.Phase != PhasePlay || !ok || m.Resigned != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-3", "%s in %s during %s", msg.Kind, m.Options.Variant, m.Phase)
	}
	crossed := msg.Ack < m.lastSeq(msg.From.Other())
	switch msg.Kind {
	case KindUndoRequest:
		n, _, can := u.LastMove()
		if m.Undo != nil || !can || !undoable(u, n, msg.From, b) {
			if crossed {
				return nil, nil
			}
			return nil, NewViolation(msg.From, msg.Seq, "T-3", "undo request of %s, which is not its last move (nor that and the answer to it; %d moves played)",
				movesNamed(b), n)
		}
		m.Undo = &pendingUndo{By: msg.From, Move: b.Move, Moves: b.count()}
		return []Event{EventUndoRequested{By: msg.From, Move: b.Move, Moves: b.count()}}, nil
	}
	if m.Undo == nil || m.Undo.By != msg.From.Other() || m.Undo.Move != b.Move || m.Undo.Moves != b.count() {
		return nil, NewViolation(msg.From, msg.Seq, "T-3", "%s of %s, which no request of the other asks", msg.Kind, movesNamed(b))
	}
	p := m.Undo
	m.Undo = nil
	if msg.Kind == KindUndoDecline {
		return []Event{EventUndoDeclined{By: p.By}}, nil
	}
	for range p.Moves {
		u.Undo()
	}
	return []Event{EventUndone{By: p.By, Move: p.Move, Moves: p.Moves}}, nil
}

// undoable reports whether player by may ask to take back what b names
// when n moves were played: its last move n (UNDO-D1), or its move n-1
// and the other's answer n (UNDO-D3).
func undoable(u undoer, n int, by Role, b UndoBody) bool {
	switch b.count() {
	case 1:
		return n >= 1 && b.Move == n && u.MoverOf(n) == by
	case 2:
		return n >= 2 && b.Move == n-1 && u.MoverOf(n-1) == by && u.MoverOf(n) == by.Other()
	}
	return false
}

// movesNamed writes the moves b names: "move 7", "moves 7 and 8".
func movesNamed(b UndoBody) string {
	if b.count() == 2 {
		return fmt.Sprintf("moves %d and %d", b.Move, b.Move+1)
	}
	return fmt.Sprintf("move %d", b.Move)
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

// undoMessage makes the message of role r's undo action a.
func (m *Machine) undoMessage(r Role, a Action) (Kind, any, error) {
	u, ok := m.Rules.(undoer)
	if !ok {
		if d, err := engine.LookupDescriptor(m.Options.Variant); m.Rules == nil || err != nil || d.Undo {
			return "", nil, fmt.Errorf("protocol: no undo now: %w", ErrNotNow)
		}
		return "", nil, ErrNoUndo
	}
	if m.Phase != PhasePlay || m.Resigned != nil {
		return "", nil, fmt.Errorf("protocol: no undo during %s: %w", m.Phase, ErrNotNow)
	}
	switch a := a.(type) {
	case RequestUndo:
		n, _, can := u.LastMove()
		switch {
		case m.Undo != nil:
			return "", nil, fmt.Errorf("protocol: a request to take back a move waits for its answer: %w", ErrNotNow)
		case !can || n == 0:
			return "", nil, fmt.Errorf("protocol: no move to take back now: %w", ErrNotNow)
		case undoable(u, n, r, UndoBody{Move: n}):
			return KindUndoRequest, UndoBody{Move: n}, nil
		case undoable(u, n, r, UndoBody{Move: n - 1, Moves: 2}):
			return KindUndoRequest, UndoBody{Move: n - 1, Moves: 2}, nil
		}
		return "", nil, fmt.Errorf("protocol: you may take back only your last move and the answer to it: %w", ErrNotNow)
	case AnswerUndo:
		if m.Undo == nil || m.Undo.By == r {
			return "", nil, fmt.Errorf("protocol: no undo request to answer: %w", ErrNotNow)
		}
		b := UndoBody{Move: m.Undo.Move}
		if m.Undo.Moves == 2 {
			b.Moves = 2
		}
		if a.Accept {
			return KindUndoAccept, b, nil
		}
		return KindUndoDecline, b, nil
	}
	return "", nil, fmt.Errorf("protocol: %T: %w", a, ErrNotNow)
}
