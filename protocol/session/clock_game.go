package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/fgorules"

	"encoding/json"
	"time"

	"github.com/kakure/kakure/engine/clock"
)

// gameClockState is what one peer measures of the clocks (CLK-D8); the
// loop goroutine owns it.
type gameClockState struct {
	// mark is when the running clock started in this peer's reckoning:
	// when its own move went out (the other's clock) or the other's move
	// came in (its own).
	mark time.Time
	// seen is the running clock mark belongs to.
	seen protocol.ClockKey
	// settleMS is what this peer's next move settles the other's last
	// move at (0: as claimed).
	settleMS int64
	// claimed is set once this peer has claimed the other's flag, until
	// the other refuses the claim (CLK-D17); claimAfter is when this peer
	// may claim again after refusals, refusals how many it had.
	claimed    bool
	claimAfter time.Time
	refusals   int
	// actAt is when the local player's action that the message under
	// way carries was taken: its think time ends there, not when its
	// program has made the message (CLK-D16).
	actAt time.Time
	// heldAt is when the local player's action was taken that its
	// program holds until the other program's steps before it are in
	// (a Phantom Go try made before the request, commitment or choice
	// it goes after, CLK-D33): its think time ends there too, so that
	// the other program's wait for its own steps is not charged to
	// this player. Moved to a clock's start when that comes after it;
	// cleared when the held action goes.
	heldAt time.Time
	// lastSent is when this peer last sent a message of the game's
	// course (no chat, adjournment or undo); origin is lastSent when the
	// running clocks started: in F-Go this peer measures the other's
	// commitment from it, and claimDue is the charge of a time-out claim
	// its settlement of that commitment calls for (CLK-D14).
	lastSent time.Time
	origin   time.Time
	claimDue int64
}

// clockResumed restarts this peer's measurement when the connection
// comes back to a game adjourned by agreement (CLK-D13).
func (g *Game) clockResumed() {
	if v, ok := g.m.Clock(); !ok || !v.Adjourned {
		return
	}
	g.mu.Lock()
	g.clk.mark = time.Now()
	g.mu.Unlock()
}

// trackClock starts this peer's measurement when another clock starts
// running; when none runs it keeps the last mark (the flagged side
// measures its think time from it when a claim comes).
func (g *Game) trackClock(now time.Time) {
	if !g.m.Timed() {
		return
	}
	k := g.m.ClockKey()
	if k.Running() && k != g.clk.seen {
		origin := g.clk.lastSent
		if origin.IsZero() {
			origin = now // resumed: the clocks run from the load (CLK-D8)
		}
		g.mu.Lock()
		g.clk.mark, g.clk.seen, g.clk.origin = now, k, origin
		if !g.clk.heldAt.IsZero() && g.clk.heldAt.Before(now) {
			// A hold from before this turn counts from its start
			// (CLK-D33): cards chosen while the other chooses, or a try
			// the player made as the view showed the turn a moment
			// before this loop started its clock.
			g.clk.heldAt = now
		}
		if g.m.ClocksTogether() {
			// A settlement is of the other's commitment of its turn
			// (CLK-D14).
			g.clk.settleMS, g.clk.claimDue = 0, 0
		}
		g.mu.Unlock()
	}
}

// stampMove writes this peer's think time and its settlement of the
// other's last move into a message of its own that ends its timed turn
// (CLK-D8): a move, or in Hidden Move Go the card commitments or a
// reveal that ends the turn (CLK-D10).
func (g *Game) stampMove(kind protocol.Kind, body any) any {
	if !kind.Timed() || !g.m.Timed() {
		return body
	}
	if g.m.ClocksTogether() {
		return g.stampChoice(kind, body)
	}
	tc, tries := g.m.Rules.(protocol.TryClocks)
	if tries && tc.SettlesTry(g.role, kind) {
		return g.stampTry(kind, body, tc)
	}
	if r, turn := g.m.ClockTurn(); !turn || r != g.role {
		return body
	}
	raw, err := json.Marshal(body)
	if err != nil || !g.m.EndsTimedTurn(kind, raw) {
		return body
	}
	now := time.Now()
	switch {
	case !g.clk.actAt.IsZero():
		now = g.clk.actAt // the player's choice, before its program made the message
	case !g.clk.heldAt.IsZero():
		now = g.clk.heldAt // the player's choice, held for the other's steps (CLK-D33)
	}
	g.clk.heldAt = time.Time{}
	think := now.Sub(g.clk.mark).Milliseconds()
	if g.m.Clocks.Adjourned {
		think = 0 // the move that ends an adjournment is not charged (CLK-D13)
	}
	charge := g.clk.settleMS
	if tries && kind != protocol.KindMove {
		charge = 0 // a try is settled by the other's next message of the try (CLK-D16)
	}
	if l := g.m.Clocks.Last; l == nil || l.Role != g.role.Other() || l.Free {
		// The other's last move is settled already: in gomoku a player
		// answers an announcement (settling it) and then, the other's
		// declaration between, announces its own turn, which settles
		// nothing (CLK-D15; the machine refuses a second settlement).
		charge = 0
	}
	return protocol.WithStamp(kind, body, think, charge)
}

// settleMove settles the other's move just applied against this peer's
// measurement from mark (CLK-D7): within the lag allowance the claim
// stands; beyond it the next own move charges the measurement minus the
// allowance, or, when that is past the other's clock, this peer claims
// the loss on time.
func (g *Game) settleMove(last *protocol.ClaimedCharge, mark, now time.Time) {
	c := g.m.Clocks
	if c == nil || c.Last == nil || c.Last == last || c.Last.Role != g.role.Other() {
		return
	}
	l := c.Last
	// A settlement is of the other's last move only: one of an earlier
	// move is not carried over to the next own move.
	g.clk.settleMS = 0
	if l.Free {
		return // the move that ended an adjournment (CLK-D13)
	}
	chargeMS, settleMS, ok := g.settledCharge(l.Claimed, now.Sub(mark))
	if !ok {
		return
	}
	if c.Control.Expired(l.Before, l.Prior+time.Duration(chargeMS)*time.Millisecond) {
		if !g.clk.claimed {
			// One claim at a time: a claim of this peer's that waits
			// for its answer already charges the move (CLK-D17).
			g.claimTimeout(chargeMS)
		}
		return
	}
	g.clk.settleMS = settleMS
}

// checkClock claims the other's loss on time once its clock ran out in
// this peer's reckoning, the lag allowance given (CLK-D9).
func (g *Game) checkClock() {
	c := g.m.Clocks
	if c == nil || g.clk.claimed || time.Now().Before(g.clk.claimAfter) {
		return
	}
	runs := g.m.ClockRuns()
	r := g.role.Other()
	if !runs[r] || runs[g.role] {
		return
	}
	from := g.clk.mark
	if g.m.ClocksTogether() {
		from = g.clk.origin // CLK-D14
	}
	charge := time.Since(from) - c.Lag
	if !c.ExpiredFor(r, charge) {
		return
	}
	g.claimTimeout((charge + time.Millisecond - 1).Milliseconds())
}

// claimTimeout sends the time-out claim.
func (g *Game) claimTimeout(chargeMS int64) {
	g.clk.claimed = true
	events, err := g.send(protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: chargeMS})
	if err != nil {
		g.svc.cfg.Logger.Error("time-out claim", "game", g.id, "err", err)
		return
	}
	g.emit(events)
	g.afterChange()
}

// claimRefused lets this peer claim again, after a pause that doubles
// with each refusal, once the other refused its claim (CLK-D17): play
// goes on, and the other's clock with it.
func (g *Game) claimRefused() {
	g.clk.claimed = false
	g.clk.refusals++
	pause := max(g.m.Clocks.Lag, 2*time.Second) << min(g.clk.refusals, 6)
	g.clk.claimAfter = time.Now().Add(pause)
}

// answerTimeout returns the refusal this peer owes a time-out claim its
// own clock does not bear out, or false when it confirms the loss
// (CLK-D9): its think time is its move's claim when the claim was about
// that move, else its measurement of the move under way.
func (g *Game) answerTimeout() (protocol.Kind, any, bool) {
	c := g.m.Clocks
	if c == nil || c.Claim == nil || c.Claim.By == g.role {
		return "", nil, false
	}
	if c.Claim.Unfounded != nil {
		// About no clock of this side's: the refusal shows it (CLK-D35).
		return protocol.KindTimeoutRefuse, protocol.TimeoutRefuseBody{ThinkMS: 0}, true
	}
	think := time.Since(g.clk.mark)
	if c.Claim.AboutLast && c.Last != nil && c.Last.Role == g.role {
		think = c.Last.Claimed
	}
	if l := c.Turn[g.role]; c.Claim.AboutLast && l != nil {
		think = l.Claimed // F-Go: its commitment of the turn (CLK-D14)
	}
	if think > c.Claim.Left {
		return "", nil, false
	}
	return protocol.KindTimeoutRefuse, protocol.TimeoutRefuseBody{ThinkMS: think.Milliseconds()}, true
}

// settledCharge settles a think time claimed against this peer's
// measurement of it (CLK-D7): ok when the claim is short by more than the
// lag allowance, with chargeMS, the measurement less the allowance in
// whole milliseconds (past the other's clock, a time-out claim's charge,
// CLK-D9), and settleMS, what this peer's message settles the claim at:
// at most the claim and the allowance, and the claim and what is left of
// this peer's budget of settlements (CLK-D34), 0 when that is nothing
// above the claim. A claim longer than measured stands, logged: an honest
// program never makes one, and it is charged as its signer's word against
// itself.
func (g *Game) settledCharge(claimed, measured time.Duration) (chargeMS, settleMS int64, ok bool) {
	c := g.m.Clocks
	charge, err := clock.Settle(claimed, measured, c.Lag)
	if err != nil {
		g.svc.cfg.Logger.Warn("think time claimed longer than measured; charged as claimed", "game", g.id, "claimed", claimed, "measured", measured)
		return 0, 0, false
	}
	chargeMS = (charge + time.Millisecond - 1).Milliseconds()
	claimedMS := claimed.Milliseconds()
	if chargeMS <= claimedMS {
		return 0, 0, false
	}
	settleMS = min(chargeMS, claimedMS+c.Lag.Milliseconds(), claimedMS+c.SettleLeft(g.role).Milliseconds())
	if settleMS <= claimedMS {
		settleMS = 0
	}
	g.svc.cfg.Logger.Info("think time under-claimed; settling at the measurement less the lag allowance, within CLK-D34's bounds", "game", g.id,
		"claimed", claimed, "measured", measured, "measured less the allowance", time.Duration(chargeMS)*time.Millisecond, "settled", time.Duration(settleMS)*time.Millisecond)
	return chargeMS, settleMS, true
}

// stampChoice writes this peer's clock times into an F-Go message
// (CLK-D14): its think time from the turn's start into a commitment made
// while its clock runs, and its settlement of the other's commitment into
// its opening.
func (g *Game) stampChoice(kind protocol.Kind, body any) any {
	switch kind {
	case fgorules.KindCommit:
		if !g.m.ClockTurns()[g.role] || g.m.Clocks.Adjourned {
			return body // not timed, or free (CLK-D13)
		}
		return protocol.WithStamp(kind, body, time.Since(g.clk.mark).Milliseconds(), 0)
	case fgorules.KindOpen:
		if g.clk.settleMS == 0 {
			return body
		}
		return protocol.WithStamp(kind, body, 0, g.clk.settleMS)
	}
	return body
}

// settleChoice settles the other's commitment just applied against this
// peer's measurement from its own message that started the turn
// (CLK-D14, CLK-D7): beyond the lag allowance this peer's opening charges
// the measurement less the allowance, or, when that is past the other's
// clock, this peer claims the loss on time once its own choice is in.
func (g *Game) settleChoice(m *protocol.Message, received time.Time) {
	c := g.m.Clocks
	l := c.Turn[g.role.Other()]
	if m.Kind != fgorules.KindCommit || l == nil || l.Seq != m.Seq || l.Role != m.From || l.Free {
		return
	}
	chargeMS, settleMS, ok := g.settledCharge(l.Claimed, received.Sub(g.clk.origin))
	if !ok {
		return
	}
	if c.Control.Expired(l.Before, time.Duration(chargeMS)*time.Millisecond) {
		g.clk.claimDue = chargeMS
		return
	}
	g.clk.settleMS = settleMS
}

// claimDueChoice sends the time-out claim that this peer's settlement of
// the other's commitment calls for (settleChoice), once its own
// commitment is in (a claim while its own clock runs would be false,
// CLK-D14). It reports whether it sent one.
func (g *Game) claimDueChoice() bool {
	if !g.m.Timed() || g.clk.claimDue == 0 || g.clk.claimed || g.m.ClockRuns()[g.role] {
		return false
	}
	if !g.m.ClocksTogether() || g.m.Phase != protocol.PhasePlay || g.m.Outcome != nil {
		return false
	}
	g.claimTimeout(g.clk.claimDue)
	return true
}

// stampTry writes the settlement of the other's try into this peer's
// settling message (CLK-D16).
func (g *Game) stampTry(kind protocol.Kind, body any, tc protocol.TryClocks) any {
	if !tc.SettlesTry(g.role, kind) || g.clk.settleMS == 0 {
		return body
	}
	charge := g.clk.settleMS
	g.clk.settleMS = 0
	return protocol.WithStamp(kind, body, 0, charge)
}
