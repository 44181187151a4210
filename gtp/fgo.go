package gtp

import (
	"errors"
	"strconv"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
)

func init() {
	variantHandlers[engine.VariantFGo] = func() Handler { return &fgoHandler{} }
}

// fgoHandler is F-Go, simultaneous Go, seen by the referee: both choices of
// every turn (docs/gtp.md, "F-Go").
type fgoHandler struct {
	state fgoState
	// undo holds the states before each play, genmove and kakure-turn,
	// newest last (GTP-FG-D4).
	undo []fgoState
	// komi is kept here because the game's options are fixed; it only
	// matters for final_score.
	komi float64
	// level is genmove's bot level (zero: the server's default).
	level bot.Level
}

func (h *fgoHandler) SetLevel(l bot.Level) { h.level = l }

// fgoState is everything undo restores.
type fgoState struct {
	game engine.FGoGame
	// choice holds, for Black and White, the choice made with play or
	// genmove for the turn being chosen, or NoPoint. At most one colour
	// has a choice waiting: when the second chooses, the turn is played
	// (GTP-FG-D1).
	choice [3]engine.Point
}

func newFGoState(g engine.FGoGame) fgoState {
	return fgoState{game: g, choice: [3]engine.Point{engine.NoPoint, engine.NoPoint, engine.NoPoint}}
}

func (h *fgoHandler) Reset(o engine.Options) error {
	g, err := engine.NewFGoGame(o)
	if err != nil {
		return err
	}
	h.state, h.undo, h.komi = newFGoState(g), nil, g.Options().Komi
	return nil
}

func (h *fgoHandler) SetKomi(k float64) { h.komi = k }

func (h *fgoHandler) size() int { return h.state.game.Options().Size }

func (h *fgoHandler) Commands() map[string]Command {
	return map[string]Command{
		"play":               h.play,
		"genmove":            h.genmove,
		"undo":               h.undoCommand,
		"is_legal":           h.isLegal,
		"all_legal":          h.allLegal,
		"list_stones":        h.listStones,
		"captures":           h.captures,
		"showboard":          func([]string) (string, error) { return showBoard(h.state.game.Board()), nil },
		"final_score":        h.finalScore,
		"kakure-turn":        h.turn,
		"kakure-unavailable": h.unavailable,
	}
}

// turn returns the state after the turn of the two choices, which clears
// the waiting choice.
func (s fgoState) turn(black, white engine.Point) (fgoState, engine.FGoTurnResult, error) {
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

// commit makes next the current state and keeps the old one for undo.
func (h *fgoHandler) commit(next fgoState) {
	h.undo = append(h.undo, h.state)
	h.state = next
}

func (h *fgoHandler) play(args []string) (string, error) {
	c, p, err := colorVertexArgs(h.size(), args)
	if err != nil {
		return "", err
	}
	next, err := h.state.choose(c, p)
	if err != nil {
		return "", errIllegal
	}
	h.commit(next)
	return "", nil
}

func (h *fgoHandler) genmove(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	s := h.state.turnOf(c)
	b := s.game.Board()
	p := bot.NewFGoBot(botLevel(h.level), botSeed(b, 2*s.game.TurnNumber()+int(c))).ChooseFGo(s.game, c)
	next, err := s.choose(c, p)
	if err != nil {
		return "", err
	}
	h.commit(next)
	return p.Vertex(h.size()), nil
}

// fgoLegalPoints returns the points c may choose in g, in increasing order
// (a pass is always a choice and is not listed).
func fgoLegalPoints(g engine.FGoGame, c engine.Color) []engine.Point {
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
func (h *fgoHandler) turn(args []string) (string, error) {
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
	s := h.state.turnOf(engine.Black).turnOf(engine.White)
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
	case errors.Is(err, engine.ErrFGoUnavailable):
		return "unavailable"
	case errors.Is(err, engine.ErrSuicide):
		return "suicide"
	}
	return "other"
}

// unavailable is kakure-unavailable: the points marked unavailable
// (FG-2, FG-4).
func (h *fgoHandler) unavailable(args []string) (string, error) {
	if err := wantArgs(args, 0); err != nil {
		return "", err
	}
	return "points=" + engine.FormatVertices(h.size(), h.state.game.Unavailable()), nil
}

func (h *fgoHandler) undoCommand(args []string) (string, error) {
	return undoLast(args, &h.state, &h.undo)
}

func (h *fgoHandler) isLegal(args []string) (string, error) {
	c, p, err := colorVertexArgs(h.size(), args)
	if err != nil {
		return "", err
	}
	return boolToken(h.state.turnOf(c).game.CheckChoice(c, p) == nil), nil
}

func (h *fgoHandler) allLegal(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	return vertexList(h.size(), fgoLegalPoints(h.state.turnOf(c).game, c)), nil
}

func (h *fgoHandler) listStones(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	b := h.state.game.Board()
	return vertexList(h.size(), b.Stones(c)), nil
}

func (h *fgoHandler) captures(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	return strconv.Itoa(h.state.game.Captures(c)), nil
}

func (h *fgoHandler) finalScore(args []string) (string, error) {
	if err := wantArgs(args, 0); err != nil {
		return "", err
	}
	return scoreText(engine.AreaScore(h.state.game.Board(), engine.Marking{}, h.komi)), nil
}
