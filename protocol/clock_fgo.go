package protocol

import (
	"time"

	"github.com/kakure/kakure/commit"
)

// F-Go under a clock (docs/clocks.md, CLK-D14): both clocks run during a
// turn, each until its player's commitment goes; the openings settle the
// other's think time.

// fgoCommitBody is the body of KindFGoCommit: a commitBody that, in a game
// with a time control, carries the committer's think time for the turn
// (CLK-D14). Without a clock, or for a choice that is not timed, it is
// exactly a commitBody.
type fgoCommitBody struct {
	Commitment commit.Commitment `json:"commitment"`
	ThinkMS    int64             `json:"think_ms,omitempty"`
}

// fgoOpenBody is the body of KindFGoOpen: an openBody that, in a game with
// a time control, may carry the opener's settlement of the other's
// commitment of the turn (CLK-D14, CLK-D7). Without it, it is exactly an
// openBody.
type fgoOpenBody struct {
	Opening  commit.Opening `json:"opening"`
	ChargeMS int64          `json:"charge_ms,omitempty"`
}

// earlyChooser is a variant in which a player other than the one
// Expected names may send a message of kind now: under a clock, F-Go's
// second player commits without waiting for the first (CLK-D14).
type earlyChooser interface {
	choosesEarly(r Role, kind Kind) bool
}

// timedFGo reports whether the game runs under a clock (CLK-D14).
func (g *fgoRules) timedFGo() bool { return g.m.clk != nil }

// choosesEarly reports whether role r may commit although the first
// player has not (CLK-D14): under a clock, the second player of a turn
// that has no commitment yet. Both clocks run, so neither waits for the
// other to choose.
func (g *fgoRules) choosesEarly(r Role, kind Kind) bool {
	if !g.timedFGo() || kind != KindFGoCommit || g.score.active || g.score.agreed || g.m.Outcome != nil || g.m.resigned != nil {
		return false
	}
	t := &g.turn
	return r == g.firstRole().Other() && t.commits[r] == nil && t.commits[r.Other()] == nil && t.offer == nil
}

// clockRoles tells by role whether its clock runs: in play, until its
// commitment of the turn is in (CLK-D14). No clock runs while the dead
// stones are marked (CLK-D10).
func (g *fgoRules) clockRoles() [2]bool {
	var runs [2]bool
	if g.score.active || g.score.agreed {
		return runs
	}
	for r := range runs {
		runs[r] = g.turn.commits[r] == nil
	}
	return runs
}

// clockTurnID names the turn under way.
func (g *fgoRules) clockTurnID() int { return g.game.TurnNumber() }

func (g *fgoRules) choiceKind() Kind    { return KindFGoCommit }
func (g *fgoRules) settleKind() Kind    { return KindFGoOpen }
func (g *fgoRules) settled(r Role) bool { return g.turn.opened[r] }

// stampChoice writes this peer's clock times into an F-Go message
// (CLK-D14): its think time from the turn's start into a commitment made
// while its clock runs, and its settlement of the other's commitment into
// its opening.
func (g *Game) stampChoice(kind Kind, body any) any {
	switch kind {
	case KindFGoCommit:
		if !g.m.clockTurns()[g.role] || g.m.clk.adjourned {
			return body // not timed, or free (CLK-D13)
		}
		return withStamp(kind, body, time.Since(g.clk.mark).Milliseconds(), 0)
	case KindFGoOpen:
		if g.clk.settleMS == 0 {
			return body
		}
		return withStamp(kind, body, 0, g.clk.settleMS)
	}
	return body
}

// settleChoice settles the other's commitment just applied against this
// peer's measurement from its own message that started the turn
// (CLK-D14, CLK-D7): beyond the lag allowance this peer's opening charges
// the measurement less the allowance, or, when that is past the other's
// clock, this peer claims the loss on time once its own choice is in.
func (g *Game) settleChoice(m *Message, received time.Time) {
	c := g.m.clk
	l := c.turn[g.role.Other()]
	if m.Kind != KindFGoCommit || l == nil || l.seq != m.Seq || l.role != m.From || l.free {
		return
	}
	chargeMS, ok := g.settledCharge(l.claimed, received.Sub(g.clk.origin))
	if !ok {
		return
	}
	if c.control.Expired(l.before, time.Duration(chargeMS)*time.Millisecond) {
		g.clk.claimDue = chargeMS
		return
	}
	g.clk.settleMS = chargeMS
}

// claimDueChoice sends the time-out claim that this peer's settlement of
// the other's commitment calls for (settleChoice), once its own
// commitment is in (a claim while its own clock runs would be false,
// CLK-D14). It reports whether it sent one.
func (g *Game) claimDueChoice() bool {
	if g.m.clk == nil || g.clk.claimDue == 0 || g.clk.claimed || g.m.clockRuns()[g.role] {
		return false
	}
	if _, ok := g.m.variant.(simultaneousClocks); !ok || g.m.Phase != PhasePlay || g.m.Outcome != nil {
		return false
	}
	g.claimTimeout(g.clk.claimDue)
	return true
}
