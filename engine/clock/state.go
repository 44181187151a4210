package clock

import (
	"errors"
	"fmt"
	"time"
)

// State is one player's clock between two of its moves. It is a value:
// Charge returns the next state and leaves its argument alone.
type State struct {
	// Main is the main time left.
	Main time.Duration
	// Periods is the number of Japanese byo-yomi periods left, the one in
	// use included.
	Periods int
	// Overtime reports a Canadian clock whose main time is used up.
	Overtime bool
	// Block is the time left in the current Canadian block (Overtime).
	Block time.Duration
	// Stones is the number of stones still to be played in the current
	// Canadian block (Overtime).
	Stones int
	// Flagged reports a clock that ran out: the player lost on time.
	Flagged bool
	// Moves is the number of moves charged to this clock.
	Moves int
}

// Start returns a player's clock at the start of the game.
func (c Control) Start() State {
	return State{Main: c.Main, Periods: c.Periods}
}

// Left returns the time the player has for the move now being thought
// about, counted from the move's start: the main time, with the current
// increment-free byo-yomi periods or Canadian block after it (CLK-D4). The
// flag falls once the think time is more than Left. Without a time control
// Left is the largest duration.
func (c Control) Left(s State) time.Duration {
	if s.Flagged {
		return 0
	}
	switch c.Kind {
	case Absolute, Fischer:
		return s.Main
	case Japanese:
		return s.Main + time.Duration(s.Periods)*c.Period
	case Canadian:
		if s.Overtime {
			return s.Block
		}
		return s.Main + c.Period
	}
	return time.Duration(1<<63 - 1)
}

// Expired reports whether a move thought about for think would make the
// flag fall: think is more than Left (CLK-D4; a move made at exactly the
// last moment is in time).
func (c Control) Expired(s State, think time.Duration) bool {
	return c.Kind != None && (s.Flagged || think > c.Left(s))
}

// ErrNegative reports a negative think time.
var ErrNegative = errors.New("clock: negative think time")

// Charge charges one move thought about for think to the clock s and
// returns the clock after the move (CLK-D4, CLK-D5): the main time is used
// first, then the byo-yomi periods or the Canadian block; the Fischer
// increment is added after a move made in time; a Japanese period is kept
// by a move made within it and starts again in full; a Canadian block
// starts again in full when its stones are played. A move that took more
// than Left makes the flag fall: the state is Flagged with no time left.
// Without a time control the clock only counts moves.
func (c Control) Charge(s State, think time.Duration) (State, error) {
	if think < 0 {
		return s, fmt.Errorf("%w: %v", ErrNegative, think)
	}
	if s.Flagged {
		return s, nil
	}
	s.Moves++
	if c.Kind == None {
		return s, nil
	}
	if c.Expired(s, think) {
		return State{Flagged: true, Moves: s.Moves}, nil
	}
	mainWasUsedUp := s.Main == 0
	// What of think the main time does not cover.
	over := think - s.Main
	if over <= 0 {
		s.Main -= think
		over = 0
	} else {
		s.Main = 0
	}
	switch c.Kind {
	case Fischer:
		s.Main += c.Increment
	case Japanese:
		if over > 0 {
			// Periods used up: a move made at exactly the end of a period
			// keeps it.
			s.Periods -= int((over - 1) / c.Period)
		}
	case Canadian:
		if !s.Overtime && (over > 0 || mainWasUsedUp) {
			// The move that used up the main time is the block's first.
			s.Overtime, s.Block, s.Stones = true, c.Period, c.Stones
		}
		if s.Overtime {
			s.Block -= over
			s.Stones--
			if s.Stones == 0 {
				s.Block, s.Stones = c.Period, c.Stones
			}
		}
	}
	return s, nil
}

// ErrClaimTooLong reports a think time claimed longer than the receiver
// measured it: the sender cannot have thought longer than it took its
// message to arrive (CLK-D7).
var ErrClaimTooLong = errors.New("clock: think time claimed longer than measured")

// Settle decides the think time charged for one move (CLK-D7): claimed is
// what the mover says it thought, measured what the receiver measured
// from its own last message sent to the move received, allowance the lag
// forgiven per move. A claim longer than measured is refused; a shorter
// one is charged as claimed when the difference is within the allowance,
// else the receiver charges its measurement minus the allowance.
func Settle(claimed, measured, allowance time.Duration) (time.Duration, error) {
	if claimed < 0 || measured < 0 || allowance < 0 {
		return 0, fmt.Errorf("%w: claimed %v, measured %v, allowance %v", ErrNegative, claimed, measured, allowance)
	}
	if claimed > measured {
		return 0, fmt.Errorf("%w: claimed %v, measured %v", ErrClaimTooLong, claimed, measured)
	}
	if measured-claimed <= allowance {
		return claimed, nil
	}
	return measured - allowance, nil
}

// Budget returns how long a player may think about its next move so that,
// spending the same on each of movesLeft more moves, it does not lose on
// time (CLK-D11): a share of the main time, plus most of a Fischer
// increment, or most of a byo-yomi period or of a Canadian block's share
// a stone once the main time is spent. margin is kept back from every
// budget for the network and the program's own work. Without a time
// control Budget is 0: no limit.
func (c Control) Budget(s State, movesLeft int, margin time.Duration) time.Duration {
	if c.Kind == None {
		return 0
	}
	movesLeft = max(movesLeft, 10)
	share := s.Main / time.Duration(movesLeft)
	var b time.Duration
	switch c.Kind {
	case Absolute:
		b = share
	case Fischer:
		b = share + c.Increment*3/4
	case Japanese:
		// A period is not lost by a move made within it.
		b = max(share, c.Period*3/4)
		if s.Main > 0 && s.Main < b {
			b = s.Main + c.Period*3/4
		}
	case Canadian:
		stones := c.Stones
		block := c.Period
		if s.Overtime {
			stones, block = s.Stones, s.Block
		}
		perStone := block * 3 / 4 / time.Duration(stones)
		if s.Overtime {
			b = perStone
		} else {
			b = max(share, perStone)
		}
	}
	b = min(b-margin, c.Left(s)/2-margin)
	return max(b, 50*time.Millisecond)
}
