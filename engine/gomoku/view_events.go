package gomoku

// A player's view, its seats, openings, events and turn notes: what the
// two views of a game exchange. Moved from view.go.
import (
	"fmt"

	"github.com/kakure/kakure/engine"
)

// Seat says which side of the invitation a player is on (GM-2):
// colours come only after the invited player has chosen.
type Seat uint8

// The seats.
const (
	// Inviter places the X opening piece.
	Inviter Seat = iota + 1
	// Invitee then chooses to be X or O.
	Invitee
)

// String returns "inviter" or "invitee".
func (s Seat) String() string {
	switch s {
	case Inviter:
		return "inviter"
	case Invitee:
		return "invitee"
	}
	return fmt.Sprintf("GomokuSeat(%d)", uint8(s))
}

// Opening is the opening of one commitment: the piece that turn Move
// placed stands on Point. Hidden pieces are revealed this way, in answer to
// an announced line (GM-3) or in a win claim (GM-6); the protocol checks the
// commitment, the engine checks the point against the rules.
type Opening struct {
	Move  int
	Point engine.Point
}

// EventKind names what a player did, as its opponent is told.
type EventKind uint8

// The events, one per action of [View].
const (
	// EventOpening: the X opening piece, at Point.
	EventOpening EventKind = iota + 1
	// EventSide: the invited player chose Side (X or O).
	EventSide
	// EventCommit: the mover committed to a point; the commitment
	// itself travels in the protocol, the point stays secret.
	EventCommit
	// EventPass: the mover passed.
	EventPass
	// EventNoLegalPoint: the mover has no legal point; draw (GM-7).
	EventNoLegalPoint
	// EventAnnounce: the mover announced Line.
	EventAnnounce
	// EventResponse: the opponent revealed the pieces in Openings
	// (possibly none).
	EventResponse
	// EventReveal: the mover revealed its committed point, Point.
	EventReveal
	// EventDeclare: the mover's Declaration after a placement; for a
	// claim, Openings reveal the still hidden pieces of the two lines.
	EventDeclare
)

// String returns the event's name.
func (k EventKind) String() string {
	switch k {
	case EventOpening:
		return "opening"
	case EventSide:
		return "side"
	case EventCommit:
		return "commit"
	case EventPass:
		return "pass"
	case EventNoLegalPoint:
		return "no-legal-point"
	case EventAnnounce:
		return "announce"
	case EventResponse:
		return "response"
	case EventReveal:
		return "reveal"
	case EventDeclare:
		return "declare"
	}
	return fmt.Sprintf("GomokuEventKind(%d)", uint8(k))
}

// Event is what a player's action tells the opponent: the actions of
// [View] return one, and the opponent's view takes it in
// [View.Observe]. Only the fields of its Kind are used.
type Event struct {
	Kind        EventKind
	Point       engine.Point
	Side        engine.Color
	Line        Line
	Openings    []Opening
	Declaration Declaration
}

// TurnNote is one finished turn as a player knows it. Turn.Point is
// NoPoint for an opponent's piece that is still hidden.
type TurnNote struct {
	Mover   engine.Color
	Turn    Turn
	Outcome Outcome
}
