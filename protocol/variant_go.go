package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/kakure/kakure/engine"
)

func init() {
	Register(VariantEntry{
		Variant: engine.VariantGo,
		NewRules: func(m *Machine) (VariantRules, error) {
			g, err := engine.NewGoGame(m.Options)
			if err != nil {
				return nil, err
			}
			return &GoRules{m: m, Game: g}, nil
		},
		BroadcastMove: func(k Kind) bool { return k == KindMove },
	})
}

// GoRules is plain Go over the network: moves in turn, then GO-4 scoring.
type GoRules struct {
	m     *Machine
	Game  engine.GoGame
	Score Scoring
	// prev holds the game before each move and movers who made it, for
	// undo (UNDO-D1).
	prev   []engine.GoGame
	movers []Role
}

// LastMove implements undoer: no move is taken back during the count.
func (g *GoRules) LastMove() (int, Role, bool) {
	n := len(g.prev)
	if n == 0 || g.Score.Active || g.Score.Agreed {
		return n, Inviter, false
	}
	return n, g.movers[n-1], true
}

// MoverOf implements undoer.
func (g *GoRules) MoverOf(i int) Role { return g.movers[i-1] }

// Undo implements undoer.
func (g *GoRules) Undo() {
	n := len(g.prev)
	g.Game, g.prev, g.movers = g.prev[n-1], g.prev[:n-1], g.movers[:n-1]
}

// GoView is what a player of plain Go sees: everything.
type GoView struct {
	Game engine.GoGame
	// Scoring is true while dead stones are being marked; Proposal is the
	// marking on the table and Proposer who made it.
	Scoring     bool
	HasProposal bool
	Proposer    Role
	Proposal    []engine.Point
}

func (g *GoRules) View(Role) VariantView {
	b := g.Game.Board()
	return GoView{Game: g.Game, Scoring: g.Score.Active, HasProposal: g.Score.HasProposal,
		Proposer: g.Score.Proposer, Proposal: g.Score.Proposal.Dead(b)}
}

func (g *GoRules) Expected() (Role, []Kind, bool) {
	if g.Score.Agreed {
		return Inviter, nil, true
	}
	toMove := g.m.RoleOf(g.Game.ToMove())
	if g.Score.Active {
		r, k := g.Score.Expected(toMove)
		if r != toMove {
			// Only the player to move may resume play with a move.
			k = slices.DeleteFunc(slices.Clone(k), func(k Kind) bool { return k == KindMove })
		}
		return r, k, false
	}
	return toMove, []Kind{KindMove}, false
}

func (g *GoRules) Apply(from Role, seq uint64, kind Kind, body json.RawMessage) ([]Event, error) {
	if kind != KindMove {
		return g.Score.Apply(g.Game.Board(), from, seq, kind, body)
	}
	var mb MoveBody
	if err := DecodeBody(body, &mb); err != nil {
		return nil, NewViolation(from, seq, "T-10", "%v", err)
	}
	b := g.Game.Board()
	p, err := ParseBodyPoint(b.Size(), mb.Point)
	if err != nil {
		return nil, NewViolation(from, seq, "T-10", "%v", err)
	}
	resumed := g.Score.Active
	if resumed && p == engine.Pass {
		return nil, NewViolation(from, seq, "GO-4", "resumes play with a pass")
	}
	c := g.m.Colors[from]
	if c != g.Game.ToMove() {
		return nil, NewViolation(from, seq, "T-3", "move out of turn: %s is to play", g.Game.ToMove())
	}
	next, captured, err := g.Game.Play(c, p)
	if err != nil {
		return nil, NewViolation(from, seq, ruleOfGoError(err), "illegal move %s: %v", mb.Point, err)
	}
	g.prev, g.movers = append(g.prev, g.Game), append(g.movers, from)
	g.Game = next
	var events []Event
	if resumed {
		g.Score = Scoring{}
		events = append(events, EventResumed{By: from})
	}
	events = append(events, EventMoved{Color: c, Point: p, Captured: captured})
	if g.Game.PlayEnded() {
		g.Score.Start()
		events = append(events, EventPhase{Phase: "scoring"})
	}
	return events, nil
}

func (g *GoRules) Result() engine.Result { return g.Game.Score(g.Score.Proposal).Result() }

// ruleOfGoError names the rule id an illegal plain-Go move broke.
func ruleOfGoError(err error) string {
	switch {
	case errors.Is(err, engine.ErrSuicide):
		return "GO-2"
	case errors.Is(err, engine.ErrSuperko):
		return "GO-3"
	}
	return "GO-1"
}

// Progress implements [VariantView]: the moves played.
func (vv GoView) Progress() string { return fmt.Sprintf("move %d", vv.Game.MoveNumber()) }

// OpponentJustPassed implements [VariantView]: the last move was a pass,
// outside the dead-stone agreement.
func (vv GoView) OpponentJustPassed(engine.Color) bool {
	return !vv.Scoring && vv.Game.LastMove() == engine.Pass && vv.Game.MoveNumber() > 0
}

// IsVariantView marks GoView as a [VariantView].
func (GoView) IsVariantView() {}
