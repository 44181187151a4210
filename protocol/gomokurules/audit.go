package gomokurules

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
)

// The end of a game of Hidden Move Double Gomoku: the openings of every
// remaining commitment once play is over or a player resigned (GM-8,
// GM-D23) and the audit of the whole game on them.

// openingsDue is what is expected once play is over (GM-8) or resigned
// (GM-D23): each role's openings, the inviter's first.
func (g *Rules) openingsDue() (protocol.Role, []protocol.Kind, bool) {
	for _, r := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
		if !g.opened[r] {
			return r, []protocol.Kind{KindOpenAll}, false
		}
	}
	return protocol.Inviter, nil, true
}

// AuditAfterResign has both players open their commitments and the game
// audited after a resignation during play (GM-D23); a resignation before
// the sides are chosen (nothing hidden yet) or once play is over (the
// openings under way) ends the game at once.
func (g *Rules) AuditAfterResign(protocol.Role) ([]protocol.Event, bool) {
	switch g.Phase {
	case gomoku.PhaseOpening, gomoku.PhaseChooseSide, gomoku.PhaseOver:
		return nil, false
	}
	g.Resigned = true
	return nil, true
}

// SuspendResign has the rules judge a message as the game stood before
// the resignation (a message that crossed it).
func (g *Rules) SuspendResign(on bool) { g.suspended = on }

// CurPending reports whether role r's commitment of the turn under way is
// still closed: r committed in this turn and its point was not revealed.
// After a resignation r's openings must open it (GM-D23).
func (g *Rules) CurPending(r protocol.Role) bool {
	switch g.Phase {
	case gomoku.PhaseAnnounce, gomoku.PhaseRespond, gomoku.PhaseReveal, gomoku.PhaseDeclare:
		return g.cur.Mover == r && g.cur.point == engine.NoPoint
	}
	return false
}

// AuditViolation returns the violation the audit at the end found (GM-8),
// or nil.
func (g *Rules) AuditViolation() *protocol.Violation { return g.violation }

// Closed returns the turns of role r whose commitment is still closed.
func (g *Rules) Closed(r protocol.Role) []int {
	var ks []int
	for i, t := range g.Turns {
		if t.Mover == r && !t.pass && !t.noLegal && t.point == engine.NoPoint {
			ks = append(ks, i+1)
		}
	}
	return ks
}

func (g *Rules) applyOpenAll(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var b OpeningsBody
	if err := protocol.DecodeBody(body, &b); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	g.Turns = slices.Clone(g.Turns)
	openings := make([]gomoku.Opening, 0, len(b.Openings))
	curDue := g.Resigned && g.CurPending(from)
	for _, o := range b.Openings {
		k := o.Move
		if curDue && k == g.Move && g.curPoint == engine.NoPoint {
			// The turn under way at a resignation (GM-D23): its point is
			// checked at the audit, once every point is known.
			p, err := g.openPoint(from, seq, k, g.cur.commitment, o.Opening)
			if err != nil {
				return nil, err
			}
			g.curPoint = p
			openings = append(openings, gomoku.Opening{Move: k, Point: p})
			continue
		}
		if k < 1 || k > len(g.Turns) || g.Turns[k-1].Mover != from || g.Turns[k-1].pass || g.Turns[k-1].noLegal || g.Turns[k-1].point != engine.NoPoint {
			return nil, protocol.NewViolation(from, seq, "GM-8", "opened move %d, which is no closed commitment of its own", k)
		}
		p, err := g.openPoint(from, seq, k, g.Turns[k-1].commitment, o.Opening)
		if err != nil {
			return nil, err
		}
		g.Turns[k-1].point = p
		openings = append(openings, gomoku.Opening{Move: k, Point: p})
	}
	if left := g.Closed(from); len(left) > 0 {
		return nil, protocol.NewViolation(from, seq, "GM-8", "did not open the commitment of move %d", left[0])
	}
	if curDue && g.curPoint == engine.NoPoint {
		return nil, protocol.NewViolation(from, seq, "GM-8", "did not open the commitment of move %d, under way at the resignation", g.Move)
	}
	g.opened[from] = true
	events := []protocol.Event{EventOpened{From: from, Openings: openings}}
	if !g.opened[from.Other()] {
		return events, nil
	}
	rec := g.gomokuRecord()
	err := gomoku.Audit(rec)
	if err == nil {
		err = g.auditTurnUnderWay()
	}
	var gv gomoku.Violation
	switch {
	case err == nil:
	case errors.As(err, &gv):
		g.audit = &gv
		g.violation = &protocol.Violation{Accused: g.roleOf(gv.Player), Rule: gv.Rule, Seq: -1, Detail: "audit: " + gv.Error(), Err: gv}
	default:
		// The machine builds only records that are games; this cannot
		// happen, but if it did the record would prove nothing.
		return nil, protocol.NewViolation(from, seq, "GM-8", "the game does not audit: %v", err)
	}
	g.Record = &rec
	events = append(events, EventAudited{Record: rec, Violation: g.audit})
	if g.violation != nil {
		events = append(events, protocol.EventViolation{Violation: g.violation})
	}
	return events, nil
}

// auditTurnUnderWay checks the commitment of the turn a resignation cut
// short (GM-D23), once every point is known: the point must lie in the
// line its mover announced (GM-3), and not on a point revealed before
// this turn nor on a piece of its own (GM-4). The turn is not in the
// record: it placed nothing for good, and its mover never declared.
func (g *Rules) auditTurnUnderWay() error {
	p := g.curPoint
	if !g.Resigned || p == engine.NoPoint {
		return nil
	}
	r, k := g.cur.Mover, g.Move
	bad := func(rule, format string, args ...any) error {
		return gomoku.Violation{Player: g.colorOf(r), Rule: rule, Move: k, Detail: fmt.Sprintf(format, args...)}
	}
	v := p.Vertex(g.size)
	if g.Phase != gomoku.PhaseAnnounce && !g.cur.line.Contains(g.size, p) {
		return bad("GM-3", "committed to %s and announced %s (the turn under way at the resignation)", v, g.cur.line.Format(g.size))
	}
	if at := int(g.points[p].revealedAt); at < k {
		return bad("GM-4", "committed to %s, revealed in move %d (the turn under way at the resignation)", v, at)
	}
	own := g.colorOf(r) == gomoku.X && p == g.opening
	for j, t := range g.Turns {
		own = own || t.Mover == r && t.point == p && (t.Outcome == gomoku.PlacedHidden || t.Outcome == gomoku.PlacedRevealed) && j+1 < k
	}
	if own {
		return bad("GM-4", "committed to %s, where it has a piece already (the turn under way at the resignation)", v)
	}
	return nil
}

// gomokuRecord returns the record of the game with every commitment
// opened, for the audit.
func (g *Rules) gomokuRecord() gomoku.Record {
	rec := gomoku.Record{Size: g.size, Opening: g.opening, InviteeChoice: g.choice, Turns: make([]gomoku.Turn, len(g.Turns))}
	for i, t := range g.Turns {
		rec.Turns[i] = gomoku.Turn{Pass: t.pass, NoLegalPoint: t.noLegal, Point: t.point, Line: t.line,
			Revealed: slices.Clone(t.revealed), Declaration: t.declaration}
	}
	return rec
}
