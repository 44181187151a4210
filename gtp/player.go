package gtp

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// EnginePlayer is a [bot.Player] that asks a GTP engine (GNU Go, say) for
// its moves, on the stones its side knows: before each move it sets up
// the engine's board afresh (boardsize, clear_board, komi, one play per
// known stone) and asks genmove (GTP-D1, docs/gtp.md). In Phantom Go the
// known stones are its own and the opponent stones its announcements
// revealed; in Hidden Move Go the public board and its own unrevealed
// card stones; in gomoku its own pieces and the opponent's revealed ones.
//
// Every decision that is not a move (cards, reveals, the dead-stone
// agreement, gomoku's lines and answers) is the fallback player's; so is
// a move when the engine fails, answers a point that is not empty on the
// known board, or answers again the move that just failed (GTP-D2).
type EnginePlayer struct {
	client   *Client
	fallback bot.Player

	// Moves counts the engine's moves played, Fallbacks the moves the
	// fallback made in its place, by reason ("engine error", "no pass
	// here", "occupied", "failed before"); Err is the engine's last error.
	Moves     int
	Fallbacks map[string]int
	Err       error

	asked    int
	lastKey  string
	lastMove engine.Point
}

// NewEnginePlayer returns a player that asks the engine behind c, with
// fallback for everything else.
func NewEnginePlayer(c *Client, fallback bot.Player) *EnginePlayer {
	return &EnginePlayer{client: c, fallback: fallback, lastMove: engine.NoPoint, Fallbacks: map[string]int{}}
}

// knownPosition is what a player knows of the board: the stones of each
// colour on it.
type knownPosition struct {
	size   int
	komi   float64
	me     engine.Color
	stones [2][]engine.Point // by colour: Black, White
}

func (k *knownPosition) add(c engine.Color, ps ...engine.Point) {
	if c == engine.Black || c == engine.White {
		k.stones[c-engine.Black] = append(k.stones[c-engine.Black], ps...)
	}
}

func (k *knownPosition) addBoard(b engine.Board) {
	k.add(engine.Black, b.Stones(engine.Black)...)
	k.add(engine.White, b.Stones(engine.White)...)
}

// occupied reports whether p holds a known stone.
func (k *knownPosition) occupied(p engine.Point) bool {
	for _, ps := range k.stones {
		for _, q := range ps {
			if q == p {
				return true
			}
		}
	}
	return false
}

// key identifies the position, to tell a move that failed (the position
// did not change) from a new one.
func (k *knownPosition) key() string {
	return fmt.Sprint(k.stones)
}

// knownPositionOf reads the known stones from a view; ok is false for a
// view it does not know.
func knownPositionOf(v protocol.View) (knownPosition, bool) {
	k := knownPosition{size: v.Options.Size, komi: v.Options.Komi, me: v.Color}
	switch vv := v.Variant.(type) {
	case protocol.GoView:
		k.addBoard(vv.Game.Board())
	case protocol.FGoView:
		k.addBoard(vv.Game.Board())
	case protocol.BridgeView:
		k.addBoard(vv.Game.Board())
	case protocol.HMGView:
		board := vv.Game.Board()
		k.addBoard(board)
		for _, card := range vv.MyCards {
			if !card.Revealed && board.OnBoard(card.Point) && board.At(card.Point) == engine.Empty {
				k.add(v.Color, card.Point)
			}
		}
	case protocol.PhantomNetView:
		if vv.Revealed {
			k.addBoard(vv.Referee.Board())
			break
		}
		me := vv.Own.Me()
		k.add(me, vv.Own.OwnStones()...)
		k.add(me, vv.Own.UncertainStones()...)
		k.add(me.Opponent(), vv.Own.OpponentStones()...)
		// A try that failed in this turn most likely hit a hidden
		// stone: the engine sees one there (GTP-D3).
		if sensible := vv.Own.SensibleTries(); sensible != nil {
			for q := engine.Point(0); int(q) < k.size*k.size; q++ {
				if vv.Own.At(q) == engine.PhantomUnknown && !slices.Contains(sensible, q) {
					k.add(me.Opponent(), q)
				}
			}
		}
	case protocol.GomokuView:
		k.me = vv.Game.Me()
		k.size = vv.Game.Size()
		own, theirs := vv.Game.OwnPieces(), vv.Game.OpponentPieces()
		k.add(k.me, own.Stones(k.me)...)
		k.add(k.me.Opponent(), theirs.Stones(k.me.Opponent())...)
	default:
		return knownPosition{}, false
	}
	return k, true
}

// Choose implements bot.Player.
func (p *EnginePlayer) Choose(v protocol.View) protocol.Action {
	a := p.fallback.Choose(v)
	var move func(engine.Point) protocol.Action
	passAllowed := true
	switch a.(type) {
	case protocol.Play:
		move = func(q engine.Point) protocol.Action { return protocol.Play{Point: q} }
	case protocol.GomokuPlace:
		move = func(q engine.Point) protocol.Action { return protocol.GomokuPlace{Point: q} }
		passAllowed = false
	default:
		return a
	}
	k, ok := knownPositionOf(v)
	// A bound on the engine's moves, so that a game ends even if the
	// engine never passes: two per point, then the fallback's choices.
	if !ok || p.asked >= 2*k.size*k.size {
		return a
	}
	p.asked++
	q, resign, err := p.genmove(k)
	reason := ""
	switch {
	case err != nil:
		p.Err = err
		reason = "engine error"
	case resign:
		p.Moves++
		return protocol.Resign{}
	case q == engine.Pass && !passAllowed:
		reason = "no pass here" // gomoku: the fallback's point
	case q != engine.Pass && k.occupied(q):
		reason = "occupied"
	case q != engine.Pass && q == p.lastMove && k.key() == p.lastKey:
		// The same move in the same position: it failed (an illegal
		// move the view cannot explain), so it must not be asked
		// again. A pass never fails, and the position a pass leaves
		// may well be the same at the next turn.
		reason = "failed before"
	default:
		p.lastKey, p.lastMove = k.key(), q
		p.Moves++
		return move(q)
	}
	p.Fallbacks[reason]++
	return a
}

// genmove sets the engine's board to k and asks for a move of k.me. It
// returns resign true when the engine resigns.
func (p *EnginePlayer) genmove(k knownPosition) (engine.Point, bool, error) {
	setup := []string{"boardsize " + strconv.Itoa(k.size), "clear_board", "komi " + strconv.FormatFloat(k.komi, 'f', -1, 64)}
	for _, cmd := range setup {
		if _, err := p.client.Send(cmd); err != nil {
			return engine.NoPoint, false, err
		}
	}
	for i, c := range []engine.Color{engine.Black, engine.White} {
		for _, q := range k.stones[i] {
			// A stone the engine refuses (it would not fit its rules) is
			// left out: the engine still answers for the rest.
			if _, err := p.client.Send("play " + c.String() + " " + q.Vertex(k.size)); err != nil {
				if _, refused := err.(*CommandError); !refused {
					return engine.NoPoint, false, err
				}
			}
		}
	}
	answer, err := p.client.Send("genmove " + k.me.String())
	if err != nil {
		return engine.NoPoint, false, err
	}
	answer = strings.TrimSpace(answer)
	if strings.EqualFold(answer, "resign") {
		return engine.NoPoint, true, nil
	}
	q, err := engine.ParseVertex(k.size, answer)
	if err != nil {
		return engine.NoPoint, false, fmt.Errorf("%w: genmove answered %q: %v", ErrEngine, answer, err)
	}
	return q, false, nil
}
