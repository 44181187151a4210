package gtp

import (
	"errors"

	"github.com/kakure/kakure/protocol/bridgerules"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/bridge"
	"github.com/kakure/kakure/protocol"
)

func init() {
	variantHandlers[engine.VariantBridge] = func() Handler { return &bridgeHandler{} }
	viewReaders[engine.VariantBridge] = readsView(
		func(k *knownPosition, v protocol.View, vv bridgerules.View) {
			k.addBoard(vv.Game.Board())
			k.legal = func(q engine.Point) error { return vv.Game.Check(v.Color, q) }
			k.public = true
		},
		func(h *moveHistory, me engine.Color, vv bridgerules.View) (engine.Board, bool) {
			board := vv.Game.Board()
			return board, h.observeMoves(me, vv.Game.MoveNumber(), vv.Game.LastMove(), board)
		})
}

// bridgeHandler is Bridge Go (docs/gtp.md, "Bridge Go"). Bridge Go hides
// nothing, so the handler is plain Go's with the engine's Bridge rules;
// undo takes back each play and genmove (GTP-BG-D3).
type bridgeHandler = handler[bridgeState]

// bridgeState is Bridge Go's game.
type bridgeState struct{ game bridge.Game }

// errGameOver is the answer of genmove once the game has a result.
var errGameOver = errors.New("game over")

func (bridgeState) reset(o engine.Options) (bridgeState, error) {
	g, err := bridge.NewGame(o)
	return bridgeState{g}, err
}

func (s bridgeState) size() int { return s.game.Options().Size }

func (bridgeState) parseColor(arg string) (engine.Color, error) { return goColors(arg) }

func (s bridgeState) play(c engine.Color, p engine.Point) (bridgeState, error) {
	next, _, err := s.game.Play(c, p)
	return bridgeState{next}, err
}

func (s bridgeState) genmove(c engine.Color, level bot.Level, _ float64) (engine.Point, bridgeState, error) {
	if s.game.Over() {
		return engine.NoPoint, s, errGameOver
	}
	p := bot.NewBridgeBot(botLevel(level), botSeed(s.game.Board(), s.game.MoveNumber())).ChooseMove(s.game, c)
	next, err := s.play(c, p)
	return p, next, err
}

func (s bridgeState) legal(c engine.Color, p engine.Point) bool { return s.game.Check(c, p) == nil }

func (s bridgeState) legalPoints(c engine.Color) []engine.Point { return s.game.LegalPoints(c) }

func (s bridgeState) stones(c engine.Color) []engine.Point { b := s.game.Board(); return b.Stones(c) }

func (s bridgeState) captures(c engine.Color) (int, bool) { return s.game.Captures(c), true }

func (s bridgeState) showboard() string { return showBoard(s.game.Board()) }

func (s bridgeState) komi() float64 { return s.game.Options().Komi }

// withKomi: Bridge Go has no komi (BG-1).
func (s bridgeState) withKomi(float64) bridgeState { return s }

func (bridgeState) commands(h handlerOf[bridgeState]) map[string]Command {
	return map[string]Command{
		"final_score":   func(args []string) (string, error) { return h.current().finalScore(args) },
		"kakure-winner": func(args []string) (string, error) { return h.current().winner(args) },
	}
}

// finalScore answers the result of a finished game: "B+" or "W+" for a
// bridge, "0" for a draw (GTP-BG-D4). Bridge Go has no count.
func (s bridgeState) finalScore(args []string) (string, error) {
	if err := wantArgs(args, 0); err != nil {
		return "", err
	}
	r, over := s.game.Result()
	if !over {
		return "", errors.New("cannot score")
	}
	return r.String(), nil
}

// winner is kakure-winner: "black" or "white" once a bridge has won,
// "none" while the game goes on and after a draw.
func (s bridgeState) winner(args []string) (string, error) {
	if err := wantArgs(args, 0); err != nil {
		return "", err
	}
	if w := s.game.Winner(); w == engine.Black || w == engine.White {
		return w.String(), nil
	}
	return "none", nil
}
