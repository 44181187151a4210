package protocol

import (
	"errors"
	"fmt"

	"github.com/kakure/kakure/engine"
)

// Kinds of an adjournment by agreement (CLK-D13).
const (
	// KindAdjournRequest asks the other player to stop both clocks.
	KindAdjournRequest Kind = "adjourn-request"
	// KindAdjournAccept agrees: both clocks stop until the game resumes.
	KindAdjournAccept Kind = "adjourn-accept"
)

// RequestAdjourn asks the opponent to adjourn the game: both clocks stop
// once it agrees (CLK-D13).
type RequestAdjourn struct{}

// AcceptAdjourn agrees to the opponent's request to adjourn.
type AcceptAdjourn struct{}

func (RequestAdjourn) IsAction() {}
func (AcceptAdjourn) IsAction()  {}

// EventAdjournRequested: By asks to adjourn the game.
type EventAdjournRequested struct{ By Role }

// EventAdjournAgreed: both players agreed to adjourn; the clocks stop.
type EventAdjournAgreed struct{}

func (EventAdjournRequested) IsEvent() {}
func (EventAdjournAgreed) IsEvent()    {}

// ErrNoClock is the local refusal of a clock action in a game without a
// time control.
var ErrNoClock = errors.New("protocol: the game has no clock")

// applyAdjourn judges a request to adjourn or its acceptance (CLK-D13):
// either player may ask while a clock runs; the other's acceptance stops
// both clocks until the next move, whose think time the mover measures
// from the moment the game resumed.
func (m *Machine) applyAdjourn(msg *Message) ([]Event, error) {
	if err := DecodeBody(msg.Body, &struct{}{}); err != nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%v", err)
	}
	c := m.Clocks
	if c == nil {
		return nil, NewViolation(msg.From, msg.Seq, "T-10", "%s in a game without a clock", msg.Kind)
	}
	if msg.Kind == KindAdjournAccept && c.adjournBy == nil && c.lapsed && c.lapsedRole == msg.From.Other() && msg.Ack < int64(c.lapsedSeq) {
		// The request lapsed with the requester's move, which the
		// acceptance had not seen: the two crossed, and the acceptance
		// changes nothing (CLK-D13), as on the accepter's machine.
		return nil, nil
	}
	if _, turn := m.ClockTurn(); !turn || c.Adjourned {
		if msg.Kind == KindAdjournRequest && c.Adjourned {
			return nil, nil // already adjourned: a request that crossed the acceptance
		}
		return nil, NewViolation(msg.From, msg.Seq, "T-3", "%s when no clock runs", msg.Kind)
	}
	switch msg.Kind {
	case KindAdjournRequest:
		if l := c.Last; l != nil && l.Role == msg.From.Other() && int64(l.Seq) > msg.Ack {
			// It crossed the other's move, which lets a request lapse
			// when it comes after it (REC-D15).
			return nil, nil
		}
		if c.adjournBy != nil && *c.adjournBy == msg.From.Other() && msg.Ack < int64(c.requestSeq) {
			// Two requests that crossed: both players asked, so both
			// agreed (REC-D15).
			// The invitee's request counts as the acceptance, in either
			// order.
			c.acceptRole, c.acceptSeq = Invitee, c.requestSeq
			if msg.From == Invitee {
				c.acceptSeq = msg.Seq
			}
			c.adjournBy, c.Adjourned = nil, true
			return []Event{EventAdjournAgreed{}, EventClock{Clocks: c.state}}, nil
		}
		if c.adjournBy != nil {
			return nil, nil // one request stands: a repeat
		}
		by := msg.From
		c.adjournBy, c.requestSeq = &by, msg.Seq
		return []Event{EventAdjournRequested{By: msg.From}}, nil
	default:
		if c.adjournBy == nil || *c.adjournBy != msg.From.Other() {
			return nil, NewViolation(msg.From, msg.Seq, "T-3", "accepts an adjournment the other did not ask for")
		}
		c.adjournBy, c.Adjourned = nil, true
		c.acceptRole, c.acceptSeq = msg.From, msg.Seq
		return []Event{EventAdjournAgreed{}, EventClock{Clocks: c.state}}, nil
	}
}

// adjournMessage returns the message of role r's adjournment action a.
func (m *Machine) adjournMessage(r Role, a Action) (Kind, any, error) {
	c := m.Clocks
	if c == nil {
		return "", nil, ErrNoClock
	}
	if _, turn := m.ClockTurn(); !turn || c.Adjourned {
		return "", nil, fmt.Errorf("protocol: no clock runs now: %w", engine.ErrWrongPhase)
	}
	if _, ok := a.(AcceptAdjourn); ok {
		if c.adjournBy == nil || *c.adjournBy == r {
			return "", nil, fmt.Errorf("protocol: the opponent did not ask to adjourn: %w", engine.ErrWrongPhase)
		}
		return KindAdjournAccept, struct{}{}, nil
	}
	return KindAdjournRequest, struct{}{}, nil
}
