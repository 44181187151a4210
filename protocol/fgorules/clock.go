package fgorules

import (
	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/protocol"
)

// F-Go under a clock (docs/clocks.md, CLK-D14): both clocks run during a
// turn, each until its player's commitment goes; the openings settle the
// other's think time.

// CommitBody is the body of KindCommit: a commitBody that, in a game
// with a time control, carries the committer's think time for the turn
// (CLK-D14). Without a clock, or for a choice that is not timed, it is
// exactly a commitBody.
type CommitBody struct {
	Commitment commit.Commitment `json:"commitment"`
	ThinkMS    int64             `json:"think_ms,omitempty"`
}

// OpenBody is the body of KindOpen: an openBody that, in a game with
// a time control, may carry the opener's settlement of the other's
// commitment of the turn (CLK-D14, CLK-D7). Without it, it is exactly an
// openBody.
type OpenBody struct {
	Opening  commit.Opening `json:"opening"`
	ChargeMS int64          `json:"charge_ms,omitempty"`
}

// timedFGo reports whether the game runs under a clock (CLK-D14).
func (g *Rules) timedFGo() bool { return g.m.Clocks != nil }

// ChoosesEarly reports whether role r may commit although the first
// player has not (CLK-D14): under a clock, the second player of a turn
// that has no commitment yet. Both clocks run, so neither waits for the
// other to choose.
func (g *Rules) ChoosesEarly(r protocol.Role, kind protocol.Kind) bool {
	if !g.timedFGo() || kind != KindCommit || g.Score.Active || g.Score.Agreed || g.m.Outcome != nil || g.m.Resigned != nil {
		return false
	}
	t := &g.turn
	return r == g.FirstRole().Other() && t.commits[r] == nil && t.commits[r.Other()] == nil && t.offer == nil
}

// ClockRoles tells by role whether its clock runs: in play, until its
// commitment of the turn is in (CLK-D14). No clock runs while the dead
// stones are marked (CLK-D10).
func (g *Rules) ClockRoles() [2]bool {
	var runs [2]bool
	if g.Score.Active || g.Score.Agreed {
		return runs
	}
	for r := range runs {
		runs[r] = g.turn.commits[r] == nil
	}
	return runs
}

// ClockTurnID names the turn under way.
func (g *Rules) ClockTurnID() int { return g.Game.TurnNumber() }

func (g *Rules) ChoiceKind() protocol.Kind    { return KindCommit }
func (g *Rules) SettleKind() protocol.Kind    { return KindOpen }
func (g *Rules) Settled(r protocol.Role) bool { return g.turn.opened[r] }

// The clock stamp of its bodies (CLK-D8, clock_stamp.go):
// a commitment carries the think time, an opening the settlement
// (CLK-D14); stamped, they are the F-Go forms of the bodies.

// Stamp writes the clock stamp CommitBody carries (CLK-D8).
func (b CommitBody) Stamp(_ protocol.Kind, think, _ int64) any {
	b.ThinkMS = think
	return b
}

// Stamp writes the clock stamp OpenBody carries (CLK-D8).
func (b OpenBody) Stamp(_ protocol.Kind, _, charge int64) any {
	b.ChargeMS = charge
	return b
}
