package gtp

import (
	"errors"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/fgo"
	"github.com/kakure/kakure/protocol"
)

func init() {
	variantHandlers[engine.VariantFGo] = func() Handler { return &fgoHandler{} }
	viewReaders[engine.VariantFGo] = readsView(
		func(k *knownPosition, v protocol.View, vv fgorules.View) {
			k.addBoard(vv.Game.Board())
			k.legal = func(q engine.Point) error { return vv.Game.CheckChoice(v.Color, q) }
			k.public, k.resuming = true, vv.Scoring
		},
		func(h *moveHistory, _ engine.Color, vv fgorules.View) (engine.Board, bool) {
			black, white := vv.Game.LastChoices()
			return vv.Game.Board(), h.observeTurn(vv.Game.TurnNumber(), black, white)
		})
}

// fgoHandler is F-Go, simultaneous Go, seen by the referee: both choices of
// every turn (docs/gtp.md, "F-Go"). Undo takes back each play, genmove and
// kakure-turn (GTP-FG-D4). The komi is the handler's, because the game's
// options are fixed; it only matters for final_score.
type fgoHandler = handler[fgoState]

// fgoState is everything undo restores.
type fgoState struct {
	game fgo.Game
	// choice holds, for Black and White, the choice made with play or
	// genmove for the turn being chosen, or NoPoint. At most one colour
	// has a choice waiting: when the second chooses, the turn is played
	// (GTP-FG-D1).
	choice [3]engine.Point
}

func newFGoState(g fgo.Game) fgoState {
	return fgoState{game: g, choice: [3]engine.Point{engine.NoPoint, engine.NoPoint, engine.NoPoint}}
}

func (fgoState) reset(o engine.Options) (fgoState, error) {
	g, err := fgo.NewGame(o)
	if err != nil {
		return fgoState{}, err
	}
	return newFGoState(g), nil
}

func (s fgoState) size() int { return s.game.Options().Size }

func (fgoState) parseColor(arg string) (engine.Color, error) { return goColors(arg) }

// play is c's choice p (GTP-FG-D1).
func (s fgoState) play(c engine.Color, p engine.Point) (fgoState, error) { return s.choose(c, p) }

func (s fgoState) genmove(c engine.Color, level bot.Level, _ float64) (engine.Point, fgoState, error) {
	s = s.turnOf(c)
	b := s.game.Board()
	p := bot.NewFGoBot(botLevel(level), botSeed(b, 2*s.game.TurnNumber()+int(c))).ChooseFGo(s.game, c)
	next, err := s.choose(c, p)
	return p, next, err
}

func (s fgoState) legal(c engine.Color, p engine.Point) bool {
	return s.turnOf(c).game.CheckChoice(c, p) == nil
}

func (s fgoState) legalPoints(c engine.Color) []engine.Point {
	return fgoLegalPoints(s.turnOf(c).game, c)
}

func (s fgoState) stones(c engine.Color) []engine.Point { b := s.game.Board(); return b.Stones(c) }

func (s fgoState) captures(c engine.Color) (int, bool) { return s.game.Captures(c), true }

func (s fgoState) showboard() string { return showBoard(s.game.Board()) }

func (s fgoState) komi() float64 { return s.game.Options().Komi }

// withKomi: the handler keeps F-Go's komi.
func (s fgoState) withKomi(float64) fgoState { return s }

func (fgoState) commands(h handlerOf[fgoState]) map[string]Command {
	return map[string]Command{
		"final_score": func(args []string) (string, error) {
			if err := wantArgs(args, 0); err != nil {
				return "", err
			}
			return scoreText(engine.AreaScore(h.current().game.Board(), engine.Marking{}, h.scoringKomi())), nil
		},
		"kakure-turn": func(args []string) (string, error) { return fgoTurn(h, args) },
		// kakure-unavailable: the points marked unavailable (FG-2, FG-4).
		"kakure-unavailable": func(args []string) (string, error) {
			if err := wantArgs(args, 0); err != nil {
				return "", err
			}
			return "points=" + engine.FormatVertices(h.size(), h.current().game.Unavailable()), nil
		},
	}
}

// turn returns the state after the turn of the two choices, which clears
// the waiting choice.
func (s fgoState) turn(black, white engine.Point) (fgoState, fgo.TurnResult, error) {
	next, res, err := s.game.Turn(black, white)
	if err != nil {
		return s, res, err
	}
	return newFGoState(next), res, nil
}

// turnOf returns the state in which c has not chosen yet, as a move of c
// sees it (GTP-FG-D1): when c's choice is waiting, c's new move belongs to
// the next turn, so the waiting turn is played with the other colour
// passing.
func (s fgoState) turnOf(c engine.Color) fgoState {
	if s.choice[c] == engine.NoPoint {
		return s
	}
	choices := [3]engine.Point{engine.NoPoint, engine.Pass, engine.Pass}
	choices[c] = s.choice[c]
	// The waiting choice was checked on this very game, and a pass is
	// always a choice, so the turn is taken.
	next, _, _ := s.turn(choices[engine.Black], choices[engine.White])
	return next
}

// choose returns the state after c's choice p (GTP-FG-D1): the choice
// waits for the other colour's, or plays the turn with it. The choice must
// be one c may make.
func (s fgoState) choose(c engine.Color, p engine.Point) (fgoState, error) {
	s = s.turnOf(c)
	if err := s.game.CheckChoice(c, p); err != nil {
		return s, err
	}
	s.choice[c] = p
	if s.choice[c.Opponent()] == engine.NoPoint {
		return s, nil
	}
	next, _, err := s.turn(s.choice[engine.Black], s.choice[engine.White])
	return next, err
}

// fgoLegalPoints returns the points c may choose in g, in increasing order
// (a pass is always a choice and is not listed).
func fgoLegalPoints(g fgo.Game, c engine.Color) []engine.Point {
	b := g.Board()
	var ps []engine.Point
	for i := 0; i < b.Points(); i++ {
		if p := engine.Point(i); g.CheckChoice(c, p) == nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// turn is kakure-turn VERTEX_BLACK VERTEX_WHITE: one whole turn, after the
// turn of a waiting choice if there is one (GTP-FG-D3).
func fgoTurn(h handlerOf[fgoState], args []string) (string, error) {
	if err := wantArgs(args, 2); err != nil {
		return "", err
	}
	black, err := vertexArg(h.size(), args[0])
	if err != nil {
		return "", err
	}
	white, err := vertexArg(h.size(), args[1])
	if err != nil {
		return "", err
	}
	s := h.current().turnOf(engine.Black).turnOf(engine.White)
	for _, ch := range []struct {
		c engine.Color
		p engine.Point
	}{{engine.Black, black}, {engine.White, white}} {
		if err := s.game.CheckChoice(ch.c, ch.p); err != nil {
			return "", errors.New("illegal color=" + ch.c.String() + " reason=" + fgoReason(err))
		}
	}
	next, res, err := s.turn(black, white)
	if err != nil {
		return "", err
	}
	h.commit(next)
	return res.Format(h.size()), nil
}

// fgoReason names the engine's reason for refusing a choice (FG-1, FG-5)
// with the word kakure-turn answers.
func fgoReason(err error) string {
	switch {
	case errors.Is(err, engine.ErrOccupied):
		return "occupied"
	case errors.Is(err, fgo.ErrUnavailable):
		return "unavailable"
	case errors.Is(err, engine.ErrSuicide):
		return "suicide"
	}
	return "other"
}
