package gomoku

// How a view takes the other player's events (Observe) and checks what
// they open and declare. Moved from view.go.
import (
	"fmt"
	"slices"

	"github.com/kakure/kakure/engine"
)

// Observe takes in the opponent's action. It returns the next view, or:
//   - for an event that is malformed or not due now, the receiver unchanged
//     and an error wrapping ErrWrongPhase, ErrNotYourTurn, ErrGameOver,
//     ErrOffBoard or ErrRule (T-10);
//   - for an event that proves the opponent broke a rule (a revealed point
//     outside the announced line, a line that did not contain its point, a
//     piece on a revealed point, a false claim, a five announced twice …),
//     the finished view, which the opponent has lost (GM-8), and the
//     Violation.
func (v View) Observe(e Event) (View, error) {
	if v.phase == PhaseOver {
		return v, fmt.Errorf("gomoku: %s event: %w", e.Kind, engine.ErrGameOver)
	}
	if v.MyTurn() {
		return v, fmt.Errorf("gomoku: %s event while this player must act: %w", e.Kind, engine.ErrNotYourTurn)
	}
	if v.move >= maxMove {
		return v, fmt.Errorf("gomoku: %s event: game longer than %d turns: %w", e.Kind, maxMove, ErrRule)
	}
	if eventPhase(e.Kind) != v.phase {
		return v, fmt.Errorf("gomoku: %s event in the %s phase: %w", e.Kind, v.phase, engine.ErrWrongPhase)
	}
	switch e.Kind {
	case EventOpening:
		if !v.onBoard(e.Point) {
			return v, fmt.Errorf("gomoku: opening piece at %d: %w", e.Point, engine.ErrOffBoard)
		}
		v.placeOpening(e.Point)
		return v, nil
	case EventSide:
		if e.Side != X && e.Side != O {
			return v, fmt.Errorf("gomoku: side %v chosen (want x or o): %w", e.Side, ErrRule)
		}
		v.takeSides(e.Side)
		return v, nil
	case EventCommit:
		v.phase = PhaseAnnounce
		return v, nil
	case EventPass:
		v.pass()
		return v, nil
	case EventNoLegalPoint:
		v.stuck()
		return v, nil
	case EventAnnounce:
		if !e.Line.Valid(v.size) {
			return v, fmt.Errorf("gomoku: announced %s: %w", e.Line.Format(v.size), ErrRule)
		}
		v.cur.Line = e.Line
		v.phase = PhaseRespond
		return v, nil
	case EventResponse:
		return v.observeResponse(e.Openings)
	case EventReveal:
		return v.observeReveal(e.Point)
	}
	return v.observeDeclare(e.Declaration, e.Openings)
}

// eventPhase returns the phase in which an event of kind k is due.
func eventPhase(k EventKind) Phase {
	switch k {
	case EventOpening:
		return PhaseOpening
	case EventSide:
		return PhaseChooseSide
	case EventCommit, EventPass, EventNoLegalPoint:
		return PhaseCommit
	case EventAnnounce:
		return PhaseAnnounce
	case EventResponse:
		return PhaseRespond
	case EventReveal:
		return PhaseReveal
	case EventDeclare:
		return PhaseDeclare
	}
	return 0
}

// violationAt returns a violation of the opponent at turn move.
func (v *View) violationAt(move int, rule, format string, args ...any) Violation {
	return Violation{Player: v.me.Opponent(), Rule: rule, Move: move, Detail: fmt.Sprintf(format, args...)}
}

// openOpponentPiece checks the opening o of a hidden opponent piece against
// what this view knows, and records it. badRef is the rule a reference to
// no hidden piece breaks (GM-3 in a response, GM-6 in a claim).
func (v *View) openOpponentPiece(o Opening, badRef string) (Violation, bool) {
	k, p := o.Move, o.Point
	var line Line
	switch {
	case k >= 1 && k < v.move && v.notes[k-1].Mover != v.me && v.notes[k-1].Outcome == PlacedHidden && v.notes[k-1].Turn.Point == engine.NoPoint:
		line = v.notes[k-1].Turn.Line
	case k == v.move && v.phase == PhaseDeclare && v.curOutcome == PlacedHidden && v.cur.Point == engine.NoPoint:
		line = v.cur.Line
	default:
		return v.violationAt(v.move, badRef, "opened move %d at %s, which placed no hidden piece of its own", k, p.Vertex(v.size)), true
	}
	if !line.Contains(v.size, p) {
		return v.violationAt(k, "GM-3", "announced %s for a piece at %s", line.Format(v.size), p.Vertex(v.size)), true
	}
	if at := v.points[p].revealedAt; at < int16(k) {
		return v.violationAt(k, "GM-4", "placed a piece on %s, revealed in move %d", p.Vertex(v.size), at), true
	}
	if j := int(v.points[p].theirs); j >= 0 {
		return v.violationAt(max(j, k), "GM-4", "placed a piece on %s, where it had one already (moves %d and %d)", p.Vertex(v.size), min(j, k), max(j, k)), true
	}
	v.points[p].theirs = int16(k)
	v.points[p].revealedAt = min(v.points[p].revealedAt, int16(v.move))
	v.oppHidden--
	v.oppShown++
	if k < v.move {
		v.notes = slices.Clone(v.notes)
		v.notes[k-1].Turn.Point = p
	} else {
		v.cur.Point = p
	}
	return Violation{}, false
}

// checkOpponentCount catches an opponent with more pieces than points:
// some two stand on one point (GM-4).
func (v *View) checkOpponentCount() (Violation, bool) {
	if v.oppHidden+v.oppShown > v.size*v.size {
		return v.violationAt(v.move, "GM-4", "has %d pieces on %d points", v.oppHidden+v.oppShown, v.size*v.size), true
	}
	return Violation{}, false
}

func (v View) observeResponse(openings []Opening) (View, error) {
	for _, o := range openings {
		if !v.onBoard(o.Point) {
			return v, fmt.Errorf("gomoku: response opens move %d at %d: %w", o.Move, o.Point, engine.ErrOffBoard)
		}
	}
	next := v
	revealed := make([]engine.Point, 0, len(openings))
	for _, o := range openings {
		if !next.cur.Line.Contains(next.size, o.Point) {
			viol := next.violationAt(next.move, "GM-3", "revealed %s, outside the announced %s", o.Point.Vertex(next.size), next.cur.Line.Format(next.size))
			return v.forfeit(viol), viol
		}
		if viol, bad := next.openOpponentPiece(o, "GM-3"); bad {
			return v.forfeit(viol), viol
		}
		revealed = append(revealed, o.Point)
	}
	slices.Sort(revealed)
	next.cur.Revealed = revealed
	if len(revealed) > 0 {
		next.phase = PhaseReveal
		return next, nil
	}
	p := next.cur.Point
	next.points[p].mine = int16(next.move)
	next.own.Set(p, next.me)
	next.curOutcome = PlacedHidden
	next.phase = PhaseDeclare
	return next, nil
}

func (v View) observeReveal(p engine.Point) (View, error) {
	if !v.onBoard(p) {
		return v, fmt.Errorf("gomoku: revealed point %d: %w", p, engine.ErrOffBoard)
	}
	if !v.cur.Line.Contains(v.size, p) {
		viol := v.violationAt(v.move, "GM-3", "committed to %s and announced %s", p.Vertex(v.size), v.cur.Line.Format(v.size))
		return v.forfeit(viol), viol
	}
	if at := v.points[p].revealedAt; at < int16(v.move) {
		viol := v.violationAt(v.move, "GM-4", "committed to %s, revealed in move %d", p.Vertex(v.size), at)
		viol.Err = engine.ErrOccupied
		return v.forfeit(viol), viol
	}
	next := v
	next.cur.Point = p
	if slices.Contains(next.cur.Revealed, p) {
		next.addNote(TurnNote{Mover: next.mover, Turn: next.cur, Outcome: Failed})
		next.passes = 0
		next.nextTurn()
		return next, nil
	}
	next.points[p].theirs = int16(next.move)
	next.points[p].revealedAt = int16(next.move)
	next.oppShown++
	next.curOutcome = PlacedRevealed
	next.phase = PhaseDeclare
	return next, nil
}

func (v View) observeDeclare(d Declaration, openings []Opening) (View, error) {
	if !d.Claim {
		if len(openings) > 0 {
			return v, fmt.Errorf("gomoku: declaration opens pieces without a claim: %w", ErrRule)
		}
		d.Lines = [2]Five{}
	}
	for _, o := range openings {
		if !v.onBoard(o.Point) {
			return v, fmt.Errorf("gomoku: claim opens move %d at %d: %w", o.Move, o.Point, engine.ErrOffBoard)
		}
	}
	next := v
	opp := next.me.Opponent()
	if viol, bad := next.checkOpponentCount(); bad {
		return v.forfeit(viol), viol
	}
	if d.Claim {
		var onLines [engine.MaxPoints]bool
		for i, f := range d.Lines {
			ps, ok := f.Points(next.size)
			if !ok {
				viol := next.violationAt(next.move, "GM-6", "false win claim: line %d (%s) is not a window of five of the board", i+1, f.Format(next.size))
				return v.forfeit(viol), viol
			}
			for _, p := range ps {
				onLines[p] = true
			}
		}
		if n := d.Lines[0].Shared(next.size, d.Lines[1]); n > 1 {
			viol := next.violationAt(next.move, "GM-6", "false win claim: %s and %s share %d pieces", d.Lines[0].Format(next.size), d.Lines[1].Format(next.size), n)
			return v.forfeit(viol), viol
		}
		for _, o := range openings {
			if !onLines[o.Point] {
				viol := next.violationAt(next.move, "GM-6", "opened %s, not on the claimed lines", o.Point.Vertex(next.size))
				return v.forfeit(viol), viol
			}
			if viol, bad := next.openOpponentPiece(o, "GM-6"); bad {
				return v.forfeit(viol), viol
			}
		}
		if err := CheckDoubleFive(next.OpponentPieces(), opp, d.Lines); err != nil {
			viol := next.violationAt(next.move, "GM-6", "false win claim: %v", err)
			return v.forfeit(viol), viol
		}
	}
	switch {
	case d.Five && next.oppFive:
		viol := next.violationAt(next.move, "GM-5", "announced five again (its first five came earlier)")
		return v.forfeit(viol), viol
	case !d.Five && !next.oppFive && HasFive(next.OpponentPieces(), opp):
		viol := next.violationAt(next.move, "GM-5", "has a line of five of revealed pieces and never announced five")
		return v.forfeit(viol), viol
	}
	next.oppFive = next.oppFive || d.Five
	next.cur.Declaration = d
	next.addNote(TurnNote{Mover: opp, Turn: next.cur, Outcome: next.curOutcome})
	next.passes = 0
	if d.Claim {
		next.end(engine.Result{Winner: opp, By: engine.ByWin})
	} else {
		next.nextTurn()
	}
	return next, nil
}
