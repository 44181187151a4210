package protocol

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kakure/kakure/engine"
)

// BroadcastDelay is the delay the players agree on in the signed
// invitation before what their programs publish for spectators reaches
// them (docs/spectators.md SPEC-D10): a publication is held until Moves
// moves followed its message and Seconds seconds passed, both when both
// are set. The zero value is no delay.
type BroadcastDelay struct {
	Moves   int `json:"moves,omitempty"`
	Seconds int `json:"seconds,omitempty"`
}

// The bounds of a broadcast delay (SPEC-D10).
const (
	maxBroadcastMoves   = 1000
	maxBroadcastSeconds = 24 * 60 * 60
)

// IsZero tells whether d is no delay.
func (d BroadcastDelay) IsZero() bool { return d.Moves == 0 && d.Seconds == 0 }

// Check tells whether d is within its bounds.
func (d BroadcastDelay) Check() error {
	if d.Moves < 0 || d.Moves > maxBroadcastMoves {
		return fmt.Errorf("a broadcast delay of %d moves (0 to %d)", d.Moves, maxBroadcastMoves)
	}
	if d.Seconds < 0 || d.Seconds > maxBroadcastSeconds {
		return fmt.Errorf("a broadcast delay of %d seconds (0 to %d)", d.Seconds, maxBroadcastSeconds)
	}
	return nil
}

// Duration returns the delay's time part.
func (d BroadcastDelay) Duration() time.Duration { return time.Duration(d.Seconds) * time.Second }

// Covers tells whether d delays at least as much as least, in moves and
// in time: what a program that asks for least accepts (SPEC-D12).
func (d BroadcastDelay) Covers(least BroadcastDelay) bool {
	return d.Moves >= least.Moves && d.Seconds >= least.Seconds
}

// String writes d in the syntax ParseBroadcastDelay reads: "off",
// "20moves", "10m0s" or "20moves,10m0s".
func (d BroadcastDelay) String() string {
	var parts []string
	if d.Moves > 0 {
		parts = append(parts, fmt.Sprintf("%dmoves", d.Moves))
	}
	if d.Seconds > 0 {
		parts = append(parts, d.Duration().String())
	}
	if len(parts) == 0 {
		return "off"
	}
	return strings.Join(parts, ",")
}

// Describe writes d for a person: "no broadcast delay", "a broadcast
// delay of 20 moves and 10m0s".
func (d BroadcastDelay) Describe() string {
	var parts []string
	if d.Moves == 1 {
		parts = append(parts, "1 move")
	} else if d.Moves > 0 {
		parts = append(parts, fmt.Sprintf("%d moves", d.Moves))
	}
	if d.Seconds > 0 {
		parts = append(parts, d.Duration().String())
	}
	if len(parts) == 0 {
		return "no broadcast delay"
	}
	return "a broadcast delay of " + strings.Join(parts, " and ")
}

// ParseBroadcastDelay reads a broadcast delay as `kakure play
// --broadcast-delay` takes it (SPEC-D12): "off" (or "0"), a number of
// moves ("20moves", "1move"), a duration of whole seconds ("10m",
// "90s", "1h30m"), or both separated by a comma ("20moves,10m"): the
// publication then waits for both.
func ParseBroadcastDelay(s string) (BroadcastDelay, error) {
	var d BroadcastDelay
	s = strings.TrimSpace(s)
	if s == "off" || s == "0" {
		return d, nil
	}
	if s == "" {
		return d, fmt.Errorf("an empty broadcast delay: want off, 20moves, 10m or 20moves,10m")
	}
	haveMoves, haveTime := false, false
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if n, ok := strings.CutSuffix(part, "moves"); ok || strings.HasSuffix(part, "move") {
			if !ok {
				n = strings.TrimSuffix(part, "move")
			}
			if haveMoves {
				return d, fmt.Errorf("broadcast delay %q: moves given twice", s)
			}
			v, err := strconv.Atoi(strings.TrimSpace(n))
			if err != nil || v <= 0 {
				return d, fmt.Errorf("broadcast delay %q: %q is not a positive number of moves", s, part)
			}
			d.Moves, haveMoves = v, true
			continue
		}
		if haveTime {
			return d, fmt.Errorf("broadcast delay %q: a time given twice", s)
		}
		t, err := time.ParseDuration(part)
		if err != nil {
			return d, fmt.Errorf("broadcast delay %q: %q is neither moves (20moves) nor a duration (10m): %w", s, part, err)
		}
		if t <= 0 || t%time.Second != 0 {
			return d, fmt.Errorf("broadcast delay %q: %s is not a positive whole number of seconds", s, t)
		}
		if t > maxBroadcastSeconds*time.Second {
			return d, fmt.Errorf("broadcast delay %q: %s is over %s", s, t, maxBroadcastSeconds*time.Second)
		}
		d.Seconds, haveTime = int(t/time.Second), true
	}
	if err := d.Check(); err != nil {
		return BroadcastDelay{}, fmt.Errorf("broadcast delay %q: %w", s, err)
	}
	return d, nil
}

// broadcastMoveKinds tells, per variant, which kinds of message are
// moves for the broadcast delay (SPEC-D11): one player's turn played (a
// move, a hidden move's card, a gomoku placement or pass, an F-Go choice
// or a bargain played), and in Phantom Go one try, counted at its
// outputs (one message of each try, whoever tried). Register fills it
// from each variant's entry (VariantEntry.BroadcastMove, ARCH-D3), which
// must give one; the completeness test names a variant without an entry.
var broadcastMoveKinds = map[engine.Variant]func(Kind) bool{}

// BroadcastMove tells whether a message of kind k is a move of a game of
// variant v for the broadcast delay (broadcastMoveKinds). The kind is in
// the header of every published message, so a spectator counts the
// moves as the publisher does.
func BroadcastMove(v engine.Variant, k Kind) bool {
	f, ok := broadcastMoveKinds[v]
	return ok && f(k)
}

// TurnCount is how the listing of live games counts a game's turns from
// its moves for the broadcast delay (SPEC-D14, SPEC-D40).
type TurnCount uint8

// The ways of counting turns.
const (
	// TurnEachMove: every move is one turn (one player's).
	TurnEachMove TurnCount = iota
	// TurnInviterMove: both players move in each turn (F-Go's
	// choices): the inviter's move counts the turn once.
	TurnInviterMove
	// TurnAnnounced: the moves are withheld and each has a public
	// announcement (Phantom Go's tries, one announcement a try): the
	// announcements count the turns, not the headers.
	TurnAnnounced
)

// turnCounts says, beside broadcastMoveKinds, how a variant's turns are
// counted from its moves where it is not TurnEachMove (the default, so
// that a new variant's listing counts its moves).
var turnCounts = map[engine.Variant]TurnCount{}

// BroadcastTurn tells whether a published message or header of kind k
// from role from is one turn of a game of variant v, as the listing of
// live games counts them (SPEC-D14, SPEC-D40): a move for the broadcast
// delay (BroadcastMove), counted once a turn (turnCounts). So the
// listing and the delay count the same moves: a change to which kinds
// are moves changes both. A variant whose moves are counted by their
// announcements (Phantom Go) has no turn in its headers.
func BroadcastTurn(v engine.Variant, from Role, k Kind) bool {
	if !BroadcastMove(v, k) {
		return false
	}
	switch turnCounts[v] {
	case TurnInviterMove:
		return from == Inviter
	case TurnAnnounced:
		return false
	}
	return true
}

// BroadcastMoves counts the moves for the broadcast delay along a
// transcript, one message after another (SPEC-D11): the publisher
// counts them as it releases, the spectator as it takes and again over
// the record, with this one count so that both count alike.
type BroadcastMoves struct {
	// upTo[i] counts the moves at positions 0..i; at are their
	// positions, in order.
	upTo []int
	at   []uint64
}

// Add counts the next message, of kind k in a game of variant v.
func (c *BroadcastMoves) Add(v engine.Variant, k Kind) {
	n := c.Total()
	if BroadcastMove(v, k) {
		n++
		c.at = append(c.at, uint64(len(c.upTo)))
	}
	c.upTo = append(c.upTo, n)
}

// Len is the number of messages counted.
func (c *BroadcastMoves) Len() int { return len(c.upTo) }

// Total is the number of moves among them.
func (c *BroadcastMoves) Total() int {
	if len(c.upTo) == 0 {
		return 0
	}
	return c.upTo[len(c.upTo)-1]
}

// UpTo is the number of moves at positions 0..pos (pos < Len).
func (c *BroadcastMoves) UpTo(pos uint64) int { return c.upTo[pos] }

// Since is the number of moves after position after, up to the last
// message counted; after -1 counts them all.
func (c *BroadcastMoves) Since(after int) int {
	if after < 0 {
		return c.Total()
	}
	return c.Total() - c.upTo[after]
}

// MoveAt returns the position of move i (from 0): in Phantom Go, try
// i's outputs.
func (c *BroadcastMoves) MoveAt(i int) (uint64, bool) {
	if i < 0 || i >= len(c.at) {
		return 0, false
	}
	return c.at[i], true
}
