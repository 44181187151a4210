package bridgerules

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/bridge"
)

func init() {
	protocol.Register(protocol.VariantEntry{
		Variant: engine.VariantBridge,
		NewRules: func(m *protocol.Machine) (protocol.VariantRules, error) {
			g, err := bridge.NewGame(m.Options)
			if err != nil {
				return nil, err
			}
			return &Rules{m: m, Game: g}, nil
		},
		BroadcastMove: func(k protocol.Kind) bool { return k == protocol.KindMove },
	})
}

// EventMoved: a Bridge Go move (or a pass, Point == engine.Pass)
// was played; Result says what it captured, what it self-captured and
// whether it won.
type EventMoved struct {
	Color  engine.Color
	Point  engine.Point
	Result bridge.MoveResult
}

func (EventMoved) IsEvent() {}

// Rules is the public state machine of a game of Bridge Go.
type Rules struct {
	m    *protocol.Machine
	Game bridge.Game
	// prev holds the game before each move and movers who made it, for
	// undo (UNDO-D1).
	prev   []bridge.Game
	movers []protocol.Role
}

// LastMove implements undoer: nothing is taken back once the game is
// over.
func (g *Rules) LastMove() (int, protocol.Role, bool) {
	n := len(g.prev)
	if n == 0 || g.Game.Over() {
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

// View is what a player of Bridge Go sees: everything.
type View struct {
	Game bridge.Game
	// Winner is the player who made a bridge, Empty while the game goes
	// on and after a draw.
	Winner engine.Color
	// WinningChain lists the stones of the winning bridge, in increasing
	// order (nil without a winner), for the UI to highlight.
	WinningChain []engine.Point
}

func (g *Rules) View(protocol.Role) protocol.VariantView {
	return View{Game: g.Game, Winner: g.Game.Winner(), WinningChain: g.Game.WinningChain()}
}

func (g *Rules) Expected() (protocol.Role, []protocol.Kind, bool) {
	if g.Game.Over() {
		return protocol.Inviter, nil, true
	}
	return g.m.RoleOf(g.Game.ToMove()), []protocol.Kind{protocol.KindMove}, false
}

// TurnRule names the rule a Bridge Go move out of turn breaks: players
// alternate (BG-1).
func (g *Rules) TurnRule() string { return "BG-1" }

func (g *Rules) Apply(from protocol.Role, seq uint64, kind protocol.Kind, body json.RawMessage) ([]protocol.Event, error) {
	if kind != protocol.KindMove {
		return nil, protocol.NewViolation(from, seq, "T-3", "unexpected %s", kind)
	}
	var mb protocol.MoveBody
	if err := protocol.DecodeBody(body, &mb); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	p, err := protocol.ParseBodyPoint(g.m.Options.Size, mb.Point)
	if err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	c := g.m.Colors[from]
	if c != g.Game.ToMove() {
		// The machine checked the role already; this guards the engine,
		// which does not enforce the turn.
		return nil, protocol.NewViolation(from, seq, "BG-1", "%s moves out of turn", c)
	}
	next, res, err := g.Game.Play(c, p)
	if err != nil {
		return nil, protocol.NewViolation(from, seq, ruleOfError(err), "illegal move %s: %v", mb.Point, err)
	}
	g.prev, g.movers = append(g.prev, g.Game), append(g.movers, from)
	g.Game = next
	return []protocol.Event{EventMoved{Color: c, Point: p, Result: res}}, nil
}

func (g *Rules) Result() engine.Result {
	r, _ := g.Game.Result()
	return r
}

// ruleOfError names the rule an illegal Bridge Go move broke: a
// repeated position breaks BG-4; a stone on an occupied point or off the
// board breaks BG-1, which places stones on the empty points of the board
// (BG-N2).
func ruleOfError(err error) string {
	if errors.Is(err, engine.ErrSuperko) {
		return "BG-4"
	}
	return "BG-1"
}

// Progress implements [VariantView]: the moves played.
func (vv View) Progress() string { return fmt.Sprintf("move %d", vv.Game.MoveNumber()) }

// OpponentJustPassed implements [VariantView]: the last move was a pass.
func (vv View) OpponentJustPassed(engine.Color) bool {
	return vv.Game.LastMove() == engine.Pass && vv.Game.MoveNumber() > 0
}

// IsVariantView marks View as a [VariantView].
func (View) IsVariantView() {}
