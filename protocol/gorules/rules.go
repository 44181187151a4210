package gorules

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/engine"
)

func init() {
	protocol.Register(protocol.VariantEntry{
		Variant: engine.VariantGo,
		NewRules: func(m *protocol.Machine) (protocol.VariantRules, error) {
			g, err := engine.NewGoGame(m.Options)
			if err != nil {
				return nil, err
			}
			return &Rules{m: m, Game: g}, nil
		},
		BroadcastMove: func(k protocol.Kind) bool { return k == protocol.KindMove },
	})
}

// Rules is plain Go over the network: moves in turn, then GO-4 scoring.
type Rules struct {
	m     *protocol.Machine
	Game  engine.GoGame
	Score protocol.Scoring
	// prev holds the game before each move and movers who made it, for
	// undo (UNDO-D1).
	prev   []engine.GoGame
	movers []protocol.Role
}

// LastMove implements undoer: no move is taken back during the count.
func (g *Rules) LastMove() (int, protocol.Role, bool) {
	n := len(g.prev)
	if n == 0 || g.Score.Active || g.Score.Agreed {
		return n, protocol.Inviter, false
	}
	return n, g.movers[n-1], true
}

// MoverOf implements undoer.
func (g *Rules) MoverOf(i int) protocol.Role { return g.movers[i-1] }

// Undo implements undoer.
func (g *Rules) Undo() {
	n := len(g.prev)
	g.Game, g.prev, g.movers = g.prev[n-1], g.prev[:n-1], g.movers[:n-1]
}

// View is what a player of plain Go sees: everything.
type View struct {
	Game engine.GoGame
	// Scoring is true while dead stones are being marked; Proposal is the
	// marking on the table and Proposer who made it.
	Scoring     bool
	HasProposal bool
	Proposer    protocol.Role
	Proposal    []engine.Point
}

func (g *Rules) View(protocol.Role) protocol.VariantView {
	b := g.Game.Board()
	return View{Game: g.Game, Scoring: g.Score.Active, HasProposal: g.Score.HasProposal,
		Proposer: g.Score.Proposer, Proposal: g.Score.Proposal.Dead(b)}
}

func (g *Rules) Expected() (protocol.Role, []protocol.Kind, bool) {
	if g.Score.Agreed {
		return protocol.Inviter, nil, true
	}
	toMove := g.m.RoleOf(g.Game.ToMove())
	if g.Score.Active {
		r, k := g.Score.Expected(toMove)
		if r != toMove {
			// Only the player to move may resume play with a move.
			k = slices.DeleteFunc(slices.Clone(k), func(k protocol.Kind) bool { return k == protocol.KindMove })
		}
		return r, k, false
	}
	return toMove, []protocol.Kind{protocol.KindMove}, false
}

func (g *Rules) Apply(from protocol.Role, seq uint64, kind protocol.Kind, body json.RawMessage) ([]protocol.Event, error) {
	if kind != protocol.KindMove {
		return g.Score.Apply(g.Game.Board(), from, seq, kind, body)
	}
	var mb protocol.MoveBody
	if err := protocol.DecodeBody(body, &mb); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	b := g.Game.Board()
	p, err := protocol.ParseBodyPoint(b.Size(), mb.Point)
	if err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	resumed := g.Score.Active
	if resumed && p == engine.Pass {
		return nil, protocol.NewViolation(from, seq, "GO-4", "resumes play with a pass")
	}
	c := g.m.Colors[from]
	if c != g.Game.ToMove() {
		return nil, protocol.NewViolation(from, seq, "T-3", "move out of turn: %s is to play", g.Game.ToMove())
	}
	next, captured, err := g.Game.Play(c, p)
	if err != nil {
		return nil, protocol.NewViolation(from, seq, ruleOfGoError(err), "illegal move %s: %v", mb.Point, err)
	}
	g.prev, g.movers = append(g.prev, g.Game), append(g.movers, from)
	g.Game = next
	var events []protocol.Event
	if resumed {
		g.Score = protocol.Scoring{}
		events = append(events, protocol.EventResumed{By: from})
	}
	events = append(events, protocol.EventMoved{Color: c, Point: p, Captured: captured})
	if g.Game.PlayEnded() {
		g.Score.Start()
		events = append(events, protocol.EventPhase{Phase: "scoring"})
	}
	return events, nil
}

func (g *Rules) Result() engine.Result { return g.Game.Score(g.Score.Proposal).Result() }

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
func (vv View) Progress() string { return fmt.Sprintf("move %d", vv.Game.MoveNumber()) }

// OpponentJustPassed implements [VariantView]: the last move was a pass,
// outside the dead-stone agreement.
func (vv View) OpponentJustPassed(engine.Color) bool {
	return !vv.Scoring && vv.Game.LastMove() == engine.Pass && vv.Game.MoveNumber() > 0
}

// IsVariantView marks View as a [VariantView].
func (View) IsVariantView() {}
