package protocol

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/bridge"
)

// Bridge Go over the network (BG-1..BG-5): the board is public, the
// players alternate moves (KindMove, a GTP vertex or "pass"), Black
// first. The machine enforces the turn (the engine's Play does not,
// BG-D5): a move out of turn breaks BG-1. A bridge ends the game with a
// win (ByWin), two passes in a row with a draw (ByDraw); there is no
// scoring phase.

func init() {
	Register(VariantEntry{
		Variant: engine.VariantBridge,
		NewRules: func(m *Machine) (VariantRules, error) {
			g, err := bridge.NewGame(m.Options)
			if err != nil {
				return nil, err
			}
			return &BridgeRules{m: m, Game: g}, nil
		},
		BroadcastMove: func(k Kind) bool { return k == KindMove },
	})
}

// EventBridgeMoved: a Bridge Go move (or a pass, Point == engine.Pass)
// was played; Result says what it captured, what it self-captured and
// whether it won.
type EventBridgeMoved struct {
	Color  engine.Color
	Point  engine.Point
	Result bridge.MoveResult
}

func (EventBridgeMoved) IsEvent() {}

// BridgeRules is the public state machine of a game of Bridge Go.
type BridgeRules struct {
	m    *Machine
	Game bridge.Game
	// prev holds the game before each move and movers who made it, for
	// undo (UNDO-D1).
	prev   []bridge.Game
	movers []Role
}

// LastMove implements undoer: nothing is taken back once the game is
// over.
func (g *BridgeRules) LastMove() (int, Role, bool) {
	n := len(g.prev)
	if n == 0 || g.Game.Over() {
		return n, Inviter, false
	}
	return n, g.movers[n-1], true
}

// MoverOf implements undoer.
func (g *BridgeRules) MoverOf(i int) Role { return g.movers[i-1] }

// Undo implements undoer.
func (g *BridgeRules) Undo() {
	n := len(g.prev)
	g.Game, g.prev, g.movers = g.prev[n-1], g.prev[:n-1], g.movers[:n-1]
}

// BridgeView is what a player of Bridge Go sees: everything.
type BridgeView struct {
	Game bridge.Game
	// Winner is the player who made a bridge, Empty while the game goes
	// on and after a draw.
	Winner engine.Color
	// WinningChain lists the stones of the winning bridge, in increasing
	// order (nil without a winner), for the UI to highlight.
	WinningChain []engine.Point
}

func (g *BridgeRules) View(Role) VariantView {
	return BridgeView{Game: g.Game, Winner: g.Game.Winner(), WinningChain: g.Game.WinningChain()}
}

func (g *BridgeRules) Expected() (Role, []Kind, bool) {
	if g.Game.Over() {
		return Inviter, nil, true
	}
	return g.m.RoleOf(g.Game.ToMove()), []Kind{KindMove}, false
}

// TurnRule names the rule a Bridge Go move out of turn breaks: players
// alternate (BG-1).
func (g *BridgeRules) TurnRule() string { return "BG-1" }

func (g *BridgeRules) Apply(from Role, seq uint64, kind Kind, body json.RawMessage) ([]Event, error) {
	if kind != KindMove {
		return nil, NewViolation(from, seq, "T-3", "unexpected %s", kind)
	}
	var mb MoveBody
	if err := DecodeBody(body, &mb); err != nil {
		return nil, NewViolation(from, seq, "T-10", "%v", err)
	}
	p, err := ParseBodyPoint(g.m.Options.Size, mb.Point)
	if err != nil {
		return nil, NewViolation(from, seq, "T-10", "%v", err)
	}
	c := g.m.Colors[from]
	if c != g.Game.ToMove() {
		// The machine checked the role already; this guards the engine,
		// which does not enforce the turn.
		return nil, NewViolation(from, seq, "BG-1", "%s moves out of turn", c)
	}
	next, res, err := g.Game.Play(c, p)
	if err != nil {
		return nil, NewViolation(from, seq, ruleOfBridgeError(err), "illegal move %s: %v", mb.Point, err)
	}
	g.prev, g.movers = append(g.prev, g.Game), append(g.movers, from)
	g.Game = next
	return []Event{EventBridgeMoved{Color: c, Point: p, Result: res}}, nil
}

func (g *BridgeRules) Result() engine.Result {
	r, _ := g.Game.Result()
	return r
}

// ruleOfBridgeError names the rule an illegal Bridge Go move broke: a
// repeated position breaks BG-4; a stone on an occupied point or off the
// board breaks BG-1, which places stones on the empty points of the board
// (BG-N2).
func ruleOfBridgeError(err error) string {
	if errors.Is(err, engine.ErrSuperko) {
		return "BG-4"
	}
	return "BG-1"
}

// Progress implements [VariantView]: the moves played.
func (vv BridgeView) Progress() string { return fmt.Sprintf("move %d", vv.Game.MoveNumber()) }

// OpponentJustPassed implements [VariantView]: the last move was a pass.
func (vv BridgeView) OpponentJustPassed(engine.Color) bool {
	return vv.Game.LastMove() == engine.Pass && vv.Game.MoveNumber() > 0
}

// IsVariantView marks BridgeView as a [VariantView].
func (BridgeView) IsVariantView() {}
