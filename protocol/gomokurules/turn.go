package gomokurules

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
)

// The messages of a turn of play of Hidden Move Double Gomoku (GM-2..GM-7)
// as the public side checks them: the opening and the choice of side, then
// each turn's commitment or pass, the announced line, the answer, the
// reveal and the declaration. rules.go holds the messages' forms,
// the state and the dispatch; audit.go the openings at the
// end and the audit.

func (g *Rules) applyOpening(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var b PointBody
	if err := protocol.DecodeBody(body, &b); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	p, err := protocol.ParseBodyPoint(g.size, b.Point)
	if err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "opening piece: %v", err)
	}
	if p == engine.Pass {
		return nil, protocol.NewViolation(from, seq, "GM-2", "the opening piece is a pass")
	}
	g.opening = p
	g.points[p].revealedAt = 0
	g.Phase = gomoku.PhaseChooseSide
	return g.logged(from, gomoku.Event{Kind: gomoku.EventOpening, Point: p}), nil
}

func (g *Rules) applySide(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var b SideBody
	if err := protocol.DecodeBody(body, &b); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	var side engine.Color
	switch b.Side {
	case "x":
		side = gomoku.X
	case "o":
		side = gomoku.O
	default:
		return nil, protocol.NewViolation(from, seq, "GM-2", "chose side %q (want x or o)", b.Side)
	}
	g.choice = side
	x := g.roleOf(gomoku.X)
	g.points[g.opening].piece[x] = 0
	g.shown[x] = 1
	// The first turn is O's (GM-2).
	g.Move, g.mover = 0, x
	g.nextTurn()
	events := g.logged(from, gomoku.Event{Kind: gomoku.EventSide, Side: side})
	return append(events, protocol.EventColors{Colors: [2]engine.Color{g.colorOf(protocol.Inviter), g.colorOf(protocol.Invitee)}}), nil
}

// nextTurn starts the next turn, of the other role.
func (g *Rules) nextTurn() {
	g.Move++
	g.mover = g.mover.Other()
	g.Phase = gomoku.PhaseCommit
	g.cur = gomokuTurn{Mover: g.mover, point: engine.NoPoint}
}

// finish ends the turn in progress with outcome.
func (g *Rules) finish(outcome gomoku.Outcome) {
	g.cur.Outcome = outcome
	g.Turns = append(g.Turns, g.cur)
}

// end ends the game on the board; the openings of GM-8 follow.
func (g *Rules) end(r engine.Result) {
	g.board = r
	g.Phase = gomoku.PhaseOver
}

func (g *Rules) applyCommit(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var b protocol.CommitBody
	if err := protocol.DecodeBody(body, &b); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	g.cur.commitment = b.Commitment
	g.Phase = gomoku.PhaseAnnounce
	return g.logged(from, gomoku.Event{Kind: gomoku.EventCommit}), nil
}

func (g *Rules) applyPass(from protocol.Role, seq uint64, kind protocol.Kind, body json.RawMessage) ([]protocol.Event, error) {
	if err := protocol.DecodeBody(body, &PassBody{}); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	if kind == KindNoLegalPoint {
		// Only the mover can know it; the audit checks it (GM-7).
		g.cur.noLegal = true
		g.finish(gomoku.Stuck)
		g.end(engine.Result{By: engine.ByDraw})
		return g.logged(from, gomoku.Event{Kind: gomoku.EventNoLegalPoint}), nil
	}
	g.cur.pass = true
	g.finish(gomoku.Passed)
	g.passes++
	if g.passes >= 2 {
		g.end(engine.Result{By: engine.ByDraw})
	} else {
		g.nextTurn()
	}
	return g.logged(from, gomoku.Event{Kind: gomoku.EventPass}), nil
}

func (g *Rules) applyAnnounce(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var b LineBody
	if err := protocol.DecodeBody(body, &b); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	l := gomoku.Line{Index: b.Index}
	switch b.Line {
	case "row":
		l.Kind = gomoku.Row
	case "column":
		l.Kind = gomoku.Column
	}
	if !l.Valid(g.size) {
		return nil, protocol.NewViolation(from, seq, "GM-3", "announced %s %d, no row or column of the board", b.Line, b.Index)
	}
	g.cur.line = l
	g.Phase = gomoku.PhaseRespond
	return g.logged(from, gomoku.Event{Kind: gomoku.EventAnnounce, Line: l}), nil
}

// openPoint checks the opening o of the commitment c of turn move, made by
// role r, and returns the point it holds: a mismatch breaks T-5, a value
// that is no point of the board GM-3.
func (g *Rules) openPoint(r protocol.Role, seq uint64, move int, c commit.Commitment, o commit.Opening) (engine.Point, error) {
	if err := commit.Verify(c, PieceDomain, g.m.Game[:], uint8(r), uint32(move), o); err != nil {
		return engine.NoPoint, &protocol.Violation{Accused: r, Rule: "T-5", Seq: int64(seq),
			Detail: fmt.Sprintf("the opening of move %d does not match its commitment", move), Err: err}
	}
	p, err := protocol.ParseBodyPoint(g.size, string(o.Value))
	if err != nil || p == engine.Pass {
		return engine.NoPoint, protocol.NewViolation(r, seq, "GM-3", "the commitment of move %d holds %q, no point of the board", move, o.Value)
	}
	return p, nil
}

// openHidden checks the opening of a hidden piece of role r, opened in
// answer to an announcement or in a win claim, and records it. badRef is
// the rule broken by opening a turn that left no hidden piece of r
// (GM-3 in an answer, GM-6 in a claim); where reports a point that is not
// where this opening may be (outside the announced line, off the claimed
// lines). The caller has copied g.turns.
func (g *Rules) openHidden(r protocol.Role, seq uint64, o PieceOpening, badRef string, where func(engine.Point) error) (engine.Point, error) {
	k := o.Move
	var t *gomokuTurn
	switch {
	case k >= 1 && k <= len(g.Turns) && g.Turns[k-1].Mover == r &&
		g.Turns[k-1].Outcome == gomoku.PlacedHidden && g.Turns[k-1].point == engine.NoPoint:
		t = &g.Turns[k-1]
	case k == g.Move && g.Phase == gomoku.PhaseDeclare && g.cur.Mover == r &&
		g.cur.Outcome == gomoku.PlacedHidden && g.cur.point == engine.NoPoint:
		t = &g.cur
	default:
		return engine.NoPoint, protocol.NewViolation(r, seq, badRef, "opened move %d, which placed no hidden piece of its own", k)
	}
	p, err := g.openPoint(r, seq, k, t.commitment, o.Opening)
	if err != nil {
		return p, err
	}
	if err := where(p); err != nil {
		return p, err
	}
	v := p.Vertex(g.size)
	switch {
	case !t.line.Contains(g.size, p):
		return p, protocol.NewViolation(r, seq, "GM-3", "move %d announced %s for a piece at %s", k, t.line.Format(g.size), v)
	case int(g.points[p].revealedAt) < k:
		return p, protocol.NewViolation(r, seq, "GM-4", "move %d placed a piece on %s, revealed in move %d", k, v, g.points[p].revealedAt)
	case g.points[p].piece[r] >= 0:
		j := int(g.points[p].piece[r])
		return p, protocol.NewViolation(r, seq, "GM-4", "placed a piece on %s, where it had one already (moves %d and %d)", v, min(j, k), max(j, k))
	}
	g.points[p].piece[r] = int16(k)
	g.points[p].revealedAt = min(g.points[p].revealedAt, int16(g.Move))
	g.hidden[r]--
	g.shown[r]++
	t.point = p
	return p, nil
}

func (g *Rules) applyResponse(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var b OpeningsBody
	if err := protocol.DecodeBody(body, &b); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	if len(b.Openings) > 0 {
		g.Turns = slices.Clone(g.Turns)
	}
	line := g.cur.line
	inLine := func(p engine.Point) error {
		if !line.Contains(g.size, p) {
			return protocol.NewViolation(from, seq, "GM-3", "revealed %s, outside the announced %s", p.Vertex(g.size), line.Format(g.size))
		}
		return nil
	}
	revealed := make([]engine.Point, 0, len(b.Openings))
	openings := make([]gomoku.Opening, 0, len(b.Openings))
	for _, o := range b.Openings {
		p, err := g.openHidden(from, seq, o, "GM-3", inLine)
		if err != nil {
			return nil, err
		}
		revealed = append(revealed, p)
		openings = append(openings, gomoku.Opening{Move: o.Move, Point: p})
	}
	slices.Sort(revealed)
	g.cur.revealed = revealed
	if len(revealed) > 0 {
		g.Phase = gomoku.PhaseReveal
	} else {
		g.cur.Outcome = gomoku.PlacedHidden
		g.hidden[g.mover]++
		g.Phase = gomoku.PhaseDeclare
	}
	return g.logged(from, gomoku.Event{Kind: gomoku.EventResponse, Openings: openings}), nil
}

func (g *Rules) applyReveal(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var b protocol.OpenBody
	if err := protocol.DecodeBody(body, &b); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	p, err := g.openPoint(from, seq, g.Move, g.cur.commitment, b.Opening)
	if err != nil {
		return nil, err
	}
	v := p.Vertex(g.size)
	if !g.cur.line.Contains(g.size, p) {
		return nil, protocol.NewViolation(from, seq, "GM-3", "committed to %s and announced %s", v, g.cur.line.Format(g.size))
	}
	if at := int(g.points[p].revealedAt); at < g.Move {
		return nil, protocol.NewViolation(from, seq, "GM-4", "committed to %s, revealed in move %d", v, at)
	}
	g.cur.point = p
	events := g.logged(from, gomoku.Event{Kind: gomoku.EventReveal, Point: p})
	if slices.Contains(g.cur.revealed, p) {
		g.finish(gomoku.Failed)
		g.passes = 0
		g.nextTurn()
		return events, nil
	}
	g.points[p].piece[from] = int16(g.Move)
	g.points[p].revealedAt = int16(g.Move)
	g.shown[from]++
	g.cur.Outcome = gomoku.PlacedRevealed
	g.Phase = gomoku.PhaseDeclare
	return events, nil
}

// parseFive reads a window of five.
func parseFive(size int, b FiveBody) (gomoku.Five, error) {
	p, err := protocol.ParseBodyPoint(size, b.Start)
	if err != nil {
		return gomoku.Five{}, err
	}
	for _, d := range []gomoku.Direction{gomoku.Horizontal, gomoku.Vertical, gomoku.Diagonal, gomoku.AntiDiagonal} {
		if d.String() == b.Dir {
			return gomoku.Five{Start: p, Dir: d}, nil
		}
	}
	return gomoku.Five{}, fmt.Errorf("bad direction %q", b.Dir)
}

// BodyOfFive writes a window of five.
func BodyOfFive(size int, f gomoku.Five) FiveBody {
	return FiveBody{Start: f.Start.Vertex(size), Dir: f.Dir.String()}
}

// known returns a board with role r's known pieces in its colour.
func (g *Rules) known(r protocol.Role) engine.Board {
	b, _ := engine.NewBoard(g.size)
	c := g.colorOf(r)
	for p := engine.Point(0); int(p) < g.size*g.size; p++ {
		if g.points[p].piece[r] >= 0 {
			b.Set(p, c)
		}
	}
	return b
}

func (g *Rules) applyDeclare(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var b DeclareBody
	if err := protocol.DecodeBody(body, &b); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	d := gomoku.Declaration{Five: b.Five, Claim: b.Claim}
	switch {
	case !b.Claim && (len(b.Lines) > 0 || len(b.Openings) > 0):
		return nil, protocol.NewViolation(from, seq, "T-10", "a declaration without a claim names lines or opens pieces")
	case b.Claim && len(b.Lines) != 2:
		return nil, protocol.NewViolation(from, seq, "T-10", "a win claim names %d lines (want 2)", len(b.Lines))
	}
	for i, lb := range b.Lines {
		f, err := parseFive(g.size, lb)
		if err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "claimed line %d: %v", i+1, err)
		}
		d.Lines[i] = f
	}
	if n := g.hidden[from] + g.shown[from]; n > g.size*g.size {
		return nil, protocol.NewViolation(from, seq, "GM-4", "has %d pieces on %d points", n, g.size*g.size)
	}
	var openings []gomoku.Opening
	if d.Claim {
		var onLines [engine.MaxPoints]bool
		for i, f := range d.Lines {
			ps, ok := f.Points(g.size)
			if !ok {
				return nil, protocol.NewViolation(from, seq, "GM-6", "false win claim: line %d (%s) is not a window of five of the board", i+1, f.Format(g.size))
			}
			for _, p := range ps {
				onLines[p] = true
			}
		}
		if n := d.Lines[0].Shared(g.size, d.Lines[1]); n > 1 {
			return nil, protocol.NewViolation(from, seq, "GM-6", "false win claim: %s and %s share %d pieces", d.Lines[0].Format(g.size), d.Lines[1].Format(g.size), n)
		}
		if len(b.Openings) > 0 {
			g.Turns = slices.Clone(g.Turns)
		}
		onClaim := func(p engine.Point) error {
			if !onLines[p] {
				return protocol.NewViolation(from, seq, "GM-6", "opened %s, not on the claimed lines", p.Vertex(g.size))
			}
			return nil
		}
		for _, o := range b.Openings {
			p, err := g.openHidden(from, seq, o, "GM-6", onClaim)
			if err != nil {
				return nil, err
			}
			openings = append(openings, gomoku.Opening{Move: o.Move, Point: p})
		}
		if err := gomoku.CheckDoubleFive(g.known(from), g.colorOf(from), d.Lines); err != nil {
			return nil, protocol.NewViolation(from, seq, "GM-6", "false win claim: %v", err)
		}
	}
	switch {
	case d.Five && g.five[from]:
		return nil, protocol.NewViolation(from, seq, "GM-5", "announced five again (its first five came earlier)")
	case !d.Five && !g.five[from] && gomoku.HasFive(g.known(from), g.colorOf(from)):
		return nil, protocol.NewViolation(from, seq, "GM-5", "has a line of five of revealed pieces and never announced five")
	}
	g.five[from] = g.five[from] || d.Five
	g.cur.declaration = d
	g.finish(g.cur.Outcome)
	g.passes = 0
	if d.Claim {
		g.end(engine.Result{Winner: g.colorOf(from), By: engine.ByWin})
	} else {
		g.nextTurn()
	}
	return g.logged(from, gomoku.Event{Kind: gomoku.EventDeclare, Declaration: d, Openings: openings}), nil
}
