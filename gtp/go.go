package gtp

import (
	"strconv"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
)

func init() {
	variantHandlers[engine.VariantGo] = func() Handler { return &goHandler{} }
}

// goHandler is plain Go, with GNU Go's extra commands.
type goHandler struct {
	game engine.GoGame
	// undo holds the earlier games, newest last.
	undo []engine.GoGame
	// level is genmove's bot level (zero: the server's default).
	level bot.Level
}

func (h *goHandler) Reset(o engine.Options) error {
	g, err := engine.NewGoGame(o)
	if err != nil {
		return err
	}
	h.game, h.undo = g, nil
	return nil
}

func (h *goHandler) SetKomi(k float64) { h.game = h.game.WithKomi(k) }

func (h *goHandler) SetLevel(l bot.Level) { h.level = l }

func (h *goHandler) size() int { b := h.game.Board(); return b.Size() }

func (h *goHandler) Commands() map[string]Command {
	return map[string]Command{
		"play":        h.play,
		"genmove":     h.genmove,
		"undo":        h.undoMove,
		"is_legal":    h.isLegal,
		"all_legal":   h.allLegal,
		"list_stones": h.listStones,
		"captures":    h.captures,
		"showboard":   func([]string) (string, error) { return showBoard(h.game.Board()), nil },
		"final_score": func([]string) (string, error) { return scoreText(h.game.Score(engine.Marking{})), nil },
	}
}

func (h *goHandler) play(args []string) (string, error) {
	c, p, err := colorVertexArgs(h.size(), args)
	if err != nil {
		return "", err
	}
	next, _, err := h.game.Play(c, p)
	if err != nil {
		return "", errIllegal
	}
	h.undo = append(h.undo, h.game)
	h.game = next
	return "", nil
}

func (h *goHandler) genmove(args []string) (string, error) {
	if err := wantArgs(args, 1); err != nil {
		return "", err
	}
	c, err := colorArg(args[0])
	if err != nil {
		return "", err
	}
	p := h.chooseMove(c)
	next, _, err := h.game.Play(c, p)
	if err != nil {
		return "", err
	}
	h.undo = append(h.undo, h.game)
	h.game = next
	return p.Vertex(h.size()), nil
}

// chooseMove asks the Go bot for c's move (docs/bots.md); its seed depends
// only on the position and the move number.
func (h *goHandler) chooseMove(c engine.Color) engine.Point {
	b := h.game.Board()
	return bot.NewGoBot(botLevel(h.level), botSeed(b, h.game.MoveNumber())).ChooseMove(h.game, c)
}

func (h *goHandler) undoMove(args []string) (string, error) {
	return undoLast(args, &h.game, &h.undo)
}

func (h *goHandler) isLegal(args []string) (string, error) {
	c, p, err := colorVertexArgs(h.size(), args)
	if err != nil {
		return "", err
	}
	return boolToken(h.game.Check(c, p) == nil), nil
}

func (h *goHandler) allLegal(args []string) (string, error) {
	if err := wantArgs(args, 1); err != nil {
		return "", err
	}
	c, err := colorArg(args[0])
	if err != nil {
		return "", err
	}
	return vertexList(h.size(), h.game.LegalMoves(c)), nil
}

func (h *goHandler) listStones(args []string) (string, error) {
	if err := wantArgs(args, 1); err != nil {
		return "", err
	}
	c, err := colorArg(args[0])
	if err != nil {
		return "", err
	}
	b := h.game.Board()
	return vertexList(h.size(), b.Stones(c)), nil
}

func (h *goHandler) captures(args []string) (string, error) {
	if err := wantArgs(args, 1); err != nil {
		return "", err
	}
	c, err := colorArg(args[0])
	if err != nil {
		return "", err
	}
	return strconv.Itoa(h.game.Captures(c)), nil
}
