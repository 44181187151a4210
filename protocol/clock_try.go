package protocol

import (
	"fmt"
	"time"

	"github.com/kakure/kakure/engine/clock"
)

// The clocks of a variant whose timed turns are tries that may be
// illegal (TryClocks: Phantom Go, CLK-D16, clock.go in its rules
// package): the tries of one move add up and are charged as one move
// when the move ends.

// pendingMove is the move under way of the player whose tries were
// illegal so far: its clock before the move and the think time its tries
// used.
type pendingMove struct {
	role   Role
	before clock.State
	used   time.Duration
}

// TryClocks is a variant whose timed turns are tries that may be
// illegal (Phantom Go, CLK-D16).
type TryClocks interface {
	timedVariant
	// TryMover returns the role whose move is under way, while tries are
	// being made.
	TryMover() (Role, bool)
	// TryID names the try under way.
	TryID() uint64
	// SettlesTry reports whether a message of kind from r is the one
	// that settles the other's try under way: the next message of the
	// try that the mover's opponent sends.
	SettlesTry(r Role, kind Kind) bool
}

// leftFor returns what role r has left for the move under way: its
// clock's time, less what the illegal tries of the move used (CLK-D16).
func (c *gameClocks) leftFor(r Role) time.Duration {
	if p := c.tries; p != nil && p.role == r {
		return max(0, c.Control.Left(p.before)-p.used)
	}
	return c.Control.Left(c.state[r])
}

// ExpiredFor reports whether role r's flag falls if its move under way
// takes d more.
func (c *gameClocks) ExpiredFor(r Role, d time.Duration) bool {
	if p := c.tries; p != nil && p.role == r {
		return c.Control.Expired(p.before, p.used+d)
	}
	return c.Control.Expired(c.state[r], d)
}

// usedOf returns, by role, the think time the tries of the move under way
// used (CLK-D16).
func (c *gameClocks) usedOf() [2]time.Duration {
	var u [2]time.Duration
	if p := c.tries; p != nil {
		u[p.role] = p.used
	}
	return u
}

// tryClaim is what a time-out claim by claimer is about in Phantom Go's
// play while no clock runs (CLK-D16): the other's try under way, when
// the claimer's measurement settles it past the clock or the claim
// crossed it, judged against what the move had before the try.
func (c *gameClocks) tryClaim(tc TryClocks, claimer Role) (left time.Duration, about string, ok bool) {
	flagged := claimer.Other()
	l, p := c.Last, c.tries
	if r, moving := tc.TryMover(); !moving || r != flagged || l == nil || l.Role != flagged || l.Free || p == nil || p.role != flagged {
		return 0, "", false
	}
	return max(0, c.Control.Left(l.Before)-l.Prior), fmt.Sprintf("its try in message %d", l.Seq), true
}
