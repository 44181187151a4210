package protocol

import "github.com/kakure/kakure/engine"

// Event is something that happened in a game, delivered to the game's
// caller (a user interface or a bot). After any event the caller may read
// a fresh view of the game.
type Event interface{ IsEvent() }

// EventInvited: the invitation named these options.
type EventInvited struct{ Options engine.Options }

// EventDeclined: the invitee declined.
type EventDeclined struct{ Reason string }

// EventPhase: the game entered a new phase.
type EventPhase struct{ Phase Phase }

// EventColors: the coin toss gave each role its colour.
type EventColors struct{ Colors [2]engine.Color }

// EventMoved: a stone was played (or a pass, Point == engine.Pass).
type EventMoved struct {
	Color    engine.Color
	Point    engine.Point
	Captured []engine.Point
}

// EventScoring: play stopped and dead stones are being marked; Dead is the
// marking proposed by Proposer.
type EventScoring struct {
	Proposer Role
	Dead     []engine.Point
}

// EventResumed: a player resumed play during scoring.
type EventResumed struct{ By Role }

// EventResigned: a player resigned.
type EventResigned struct{ Role Role }

// EventChat: a chat line.
type EventChat struct {
	From Role
	Text string
}

// EventEnded: the game is decided.
type EventEnded struct{ Outcome Outcome }

// EventAnnouncement is a line of text the rules announce to this player
// (variants with announcements use it).
type EventAnnouncement struct{ Text string }

// EventViolation: the other peer broke a rule; the game ends with it
// losing (T-12).
type EventViolation struct{ Violation *Violation }

// EventReport: a violation report was judged (T-13). A report that ends
// the game is followed by EventEnded; one that ends nothing (it proved
// nothing once the result was fixed, or during an end audit) is all.
type EventReport struct{ Judgement Judgement }

// EventAdjourned: the other peer stopped answering; the game is saved and
// can be resumed (T-11).
type EventAdjourned struct{ Reason string }

func (EventInvited) IsEvent()      {}
func (EventDeclined) IsEvent()     {}
func (EventPhase) IsEvent()        {}
func (EventColors) IsEvent()       {}
func (EventMoved) IsEvent()        {}
func (EventScoring) IsEvent()      {}
func (EventResumed) IsEvent()      {}
func (EventResigned) IsEvent()     {}
func (EventChat) IsEvent()         {}
func (EventEnded) IsEvent()        {}
func (EventAnnouncement) IsEvent() {}
func (EventViolation) IsEvent()    {}
func (EventAdjourned) IsEvent()    {}
func (EventReport) IsEvent()       {}

// SessionEvent is embedded in an event that the session around the
// machine reports of itself rather than of a message the machine applied
// (input of the other peer dropped): the embedding makes the type an
// Event.
type SessionEvent struct{}

func (SessionEvent) IsEvent() {}
