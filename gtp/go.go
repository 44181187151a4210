package gtp

import (
	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/gorules"
)

func init() {
	variantHandlers[engine.VariantGo] = func() Handler { return &goHandler{} }
	viewReaders[engine.VariantGo] = readsView(
		func(k *knownPosition, v protocol.View, vv gorules.View) {
			k.addBoard(vv.Game.Board())
			k.legal = func(q engine.Point) error { return vv.Game.Check(v.Color, q) }
			k.public, k.resuming = true, vv.Scoring
		},
		func(h *moveHistory, me engine.Color, vv gorules.View) (engine.Board, bool) {
			board := vv.Game.Board()
			return board, h.observeMoves(me, vv.Game.MoveNumber(), vv.Game.LastMove(), board)
		})
}

// goHandler is plain Go, with GNU Go's extra commands.
type goHandler = handler[goState]

// goState is plain Go's game; it keeps its komi.
type goState struct{ game engine.GoGame }

func (goState) reset(o engine.Options) (goState, error) {
	g, err := engine.NewGoGame(o)
	return goState{g}, err
}

func (s goState) size() int { b := s.game.Board(); return b.Size() }

func (goState) parseColor(arg string) (engine.Color, error) { return goColors(arg) }

func (s goState) play(c engine.Color, p engine.Point) (goState, error) {
	next, _, err := s.game.Play(c, p)
	return goState{next}, err
}

// genmove asks the Go bot for c's move (docs/bots.md); its seed depends
// only on the position and the move number.
func (s goState) genmove(c engine.Color, level bot.Level, _ float64) (engine.Point, goState, error) {
	b := s.game.Board()
	p := bot.NewGoBot(botLevel(level), botSeed(b, s.game.MoveNumber())).ChooseMove(s.game, c)
	next, err := s.play(c, p)
	return p, next, err
}

func (s goState) legal(c engine.Color, p engine.Point) bool { return s.game.Check(c, p) == nil }

func (s goState) legalPoints(c engine.Color) []engine.Point { return s.game.LegalPoints(c) }

func (s goState) stones(c engine.Color) []engine.Point { b := s.game.Board(); return b.Stones(c) }

func (s goState) captures(c engine.Color) (int, bool) { return s.game.Captures(c), true }

func (s goState) showboard() string { return showBoard(s.game.Board()) }

func (s goState) komi() float64 { return s.game.Options().Komi }

func (s goState) withKomi(k float64) goState { return goState{s.game.WithKomi(k)} }

func (goState) commands(h handlerOf[goState]) map[string]Command {
	return map[string]Command{
		"final_score": func([]string) (string, error) { return scoreText(h.current().game.Score(engine.Marking{})), nil },
	}
}
