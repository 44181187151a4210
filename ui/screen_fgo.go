package ui

import (
	"errors"
	"fmt"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/fgo"
	"github.com/kakure/kakure/protocol"
)

func init() {
	variantScreens[engine.VariantFGo] = func() variantScreen { return fgoScreen{} }
}

// fgoScreen is F-Go, simultaneous Go: the player chooses a point (shown
// in brackets), confirms it (Enter on it again, or ^D) or takes it back
// (^U) before confirming; the screen waits for the opponent, then shows
// both choices together as the last moves. Unavailable points are marked.
// The commitment order of the protocol (one player commits first) stays
// out of sight: a choice confirmed early goes when the protocol lets it
// (UI-D11).
type fgoScreen struct{}

func fgoViewOf(v any) (fgorules.View, bool) {
	fv, ok := v.(fgorules.View)
	return fv, ok
}

func (fgoScreen) scoring(v fgorules.View) scoringView {
	return scoringView{active: v.Scoring, hasProposal: v.HasProposal, proposer: v.Proposer,
		proposal: v.Proposal, board: v.Game.Board(), count: v.Game.Score, resumeKind: fgorules.KindCommit}
}

// lastChoices marks both choices of a turn as last moves.
func lastChoices(bm BoardModel, t *fgo.TurnResult) BoardModel {
	if t == nil {
		return bm
	}
	return bm.With(MarkLast, t.Black, t.White)
}

// myChoice returns the player's choice this turn: sent, or prepared.
func myChoice(m *GameModel, v fgorules.View) (engine.Point, bool) {
	if v.Committed && v.MyChoice != engine.NoPoint {
		return v.MyChoice, true
	}
	if m.Local.HasChoice {
		return m.Local.Choice, true
	}
	return engine.NoPoint, false
}

func (s fgoScreen) board(m *GameModel) BoardModel {
	v, ok := fgoViewOf(m.View.Variant)
	if !ok {
		return NewBoardModel(m.Size(), m.Me())
	}
	bm := ModelFromBoard(v.Game.Board(), m.Me(), engine.NoPoint)
	bm = lastChoices(bm, v.LastTurn).With(MarkUnavailable, v.Unavailable...).With(MarkHighlight, m.Effect...)
	if p, ok := myChoice(m, v); ok && !m.Over() {
		bm = bm.With(MarkPending, p)
	}
	return s.scoring(v).overlay(m, bm)
}

func (s fgoScreen) panel(m *GameModel) []string {
	v, ok := fgoViewOf(m.View.Variant)
	if !ok {
		return nil
	}
	g := v.Game
	lines := playerLines(m, g.Captures(engine.Black), g.Captures(engine.White))
	if t := v.LastTurn; t != nil {
		lines = append(lines, fmt.Sprintf("Last turn: Black %s · White %s: %s", m.Vertex(t.Black), m.Vertex(t.White), turnKindWords(t.Kind)))
	}
	if len(v.Unavailable) > 0 {
		lines = append(lines, "Unavailable: "+m.Vertices(v.Unavailable))
	}
	if !v.Scoring && !m.Over() {
		lines = append(lines, fmt.Sprintf("Turn %d · both choose at once", g.TurnNumber()+1))
		lines = append(lines, s.choiceLine(m, v))
		if o := v.Offer; o != nil && o.From != m.Me() {
			lines = append(lines, fmt.Sprintf("%s offers: if you play %s, %s plays %s (^A accepts)",
				Name(o.From), m.Vertex(o.IfYouPlay), Name(o.From), m.Vertex(o.IPlay)))
		}
	}
	return append(lines, s.scoring(v).panel(m)...)
}

// choiceLine says where the player's choice of this turn stands.
func (fgoScreen) choiceLine(m *GameModel, v fgorules.View) string {
	opp := Name(m.Me().Opponent())
	switch {
	case v.Committed:
		if v.OpponentCommitted {
			return fmt.Sprintf("You chose %s; both chose: revealing", m.Vertex(v.MyChoice))
		}
		return fmt.Sprintf("You chose %s · waiting for %s", m.Vertex(v.MyChoice), opp)
	case m.Local.Confirmed:
		return fmt.Sprintf("You chose %s · waiting for %s", m.Vertex(m.Local.Choice), opp)
	case m.Local.HasChoice:
		return fmt.Sprintf("Your choice: %s (not sent) · Enter on it again or ^D confirms, ^U takes it back", m.Vertex(m.Local.Choice))
	case v.OpponentCommitted:
		return opp + " has chosen · your choice? (Enter on a point, p Enter to pass)"
	}
	return "Your choice? (Enter on a point, p Enter to pass)"
}

// turnKindWords says what a turn did.
func turnKindWords(k fgo.TurnKind) string {
	switch k {
	case fgo.Collision:
		return "the same point, no stone"
	case fgo.Superko:
		return "void (superko)"
	}
	return "played"
}

func (s fgoScreen) do(m *GameModel, c command) (protocol.Action, error) {
	v, ok := fgoViewOf(m.View.Variant)
	if !ok {
		return nil, errNothing
	}
	if c.kind == cmdAccept && v.Offer != nil && !v.Scoring {
		if !m.May(fgorules.KindAccept) {
			return nil, errors.New("there is no offer to accept")
		}
		return fgorules.AcceptOffer{}, nil
	}
	if a, handled, err := s.scoring(v).do(m, c); handled || err != nil {
		return a, err
	}
	if m.Over() {
		return nil, errors.New("the game is over")
	}
	sent := v.Committed || m.Local.Confirmed
	switch c.kind {
	case cmdPoint:
		if sent {
			return nil, errors.New("your choice is confirmed: wait for the turn")
		}
		if m.Local.HasChoice && m.Local.Choice == c.point {
			return s.confirm(m)
		}
		if err := v.Game.CheckChoice(m.Me(), c.point); err != nil {
			if errors.Is(err, fgo.ErrUnavailable) {
				return nil, fmt.Errorf("%s is unavailable this turn", m.Vertex(c.point))
			}
			return nil, moveError(err, c.point, m.Size())
		}
		if v.Scoring && c.point == engine.Pass {
			return nil, errors.New("play resumes with a stone, not a pass")
		}
		m.Local.HasChoice, m.Local.Choice = true, c.point
		return nil, nil
	case cmdConfirm:
		if sent {
			return nil, errors.New("your choice is already confirmed")
		}
		if !m.Local.HasChoice {
			return nil, errors.New("choose a point first (Enter), or p Enter to pass")
		}
		return s.confirm(m)
	case cmdTakeBack:
		if sent {
			return nil, errors.New("a confirmed choice cannot be taken back")
		}
		if !m.Local.HasChoice {
			return nil, errNothing
		}
		m.Local.HasChoice, m.Local.Choice = false, engine.NoPoint
		return nil, nil
	}
	return nil, errNothing
}

// confirm sends the prepared choice, or keeps it confirmed until the
// protocol lets it go.
func (fgoScreen) confirm(m *GameModel) (protocol.Action, error) {
	m.Local.Confirmed = true
	if m.May(fgorules.KindCommit) {
		m.Local.Sending = true
		return protocol.Play{Point: m.Local.Choice}, nil
	}
	return nil, nil
}

func (fgoScreen) due(m *GameModel) protocol.Action {
	if m.Local.Confirmed && !m.Local.Sending && m.May(fgorules.KindCommit) {
		m.Local.Sending = true
		return protocol.Play{Point: m.Local.Choice}
	}
	return nil
}

func (fgoScreen) describe(m *GameModel, e protocol.Event) eventNote {
	switch e := e.(type) {
	case fgorules.EventCommitted:
		if e.By == m.View.Role {
			return eventNote{}
		}
		return eventNote{lines: []string{m.RoleName(e.By) + " has chosen."}}
	case fgorules.EventOffered:
		o := e.Offer
		return eventNote{lines: []string{fmt.Sprintf("%s offers: if %s plays %s, %s plays %s.",
			Name(o.From), Name(o.From.Opponent()), m.Vertex(o.IfYouPlay), Name(o.From), m.Vertex(o.IPlay))}}
	case fgorules.EventDeclined:
		return eventNote{lines: []string{m.RoleName(e.By) + " declines the offer."}}
	case fgorules.EventTurn:
		return describeFGoTurn(m, e)
	}
	return eventNote{}
}

// describeFGoTurn shows both choices of a turn together.
func describeFGoTurn(m *GameModel, e fgorules.EventTurn) eventNote {
	r := e.Result
	line := fmt.Sprintf("Black %s, White %s", m.Vertex(r.Black), m.Vertex(r.White))
	if e.Accepted {
		line += " (an accepted offer)"
	}
	switch {
	case r.PlayEnded:
		line += ": both pass, play ends"
	case r.Kind == fgo.Collision:
		line += fmt.Sprintf(": the same point, no stone; %s unavailable", m.Vertices(r.Unavailable))
	case r.Kind == fgo.Superko:
		line += fmt.Sprintf(": it would repeat a position, void; %s unavailable", m.Vertices(r.Unavailable))
	case len(r.Removed) > 0:
		line += ", removes " + m.Vertices(r.Removed)
	}
	return eventNote{lines: []string{line + "."}, frame: true, effect: r.Removed}
}

func (fgoScreen) replayBoard(f Frame, final protocol.View, _ bool) BoardModel {
	v, ok := fgoViewOf(f.Public)
	if !ok {
		return NewBoardModel(final.Options.Size, final.Color)
	}
	bm := ModelFromBoard(v.Game.Board(), final.Color, engine.NoPoint)
	return lastChoices(bm, v.LastTurn).With(MarkUnavailable, v.Unavailable...)
}
