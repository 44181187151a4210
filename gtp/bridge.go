package gtp

import (
	"errors"
	"strconv"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
)

func init() {
	variantHandlers[engine.VariantBridge] = func() Handler { return &bridgeHandler{} }
}

// bridgeHandler is Bridge Go (docs/gtp.md, "Bridge Go"). Bridge Go hides
// nothing, so the handler is plain Go's with the engine's Bridge rules.
type bridgeHandler struct {
	game engine.BridgeGame
	// undo holds the games before each play and genmove, newest last
	// (GTP-BG-D3).
	undo []engine.BridgeGame
	// level is genmove's bot level (zero: the server's default).
	level bot.Level
}

func (h *bridgeHandler) SetLevel(l bot.Level) { h.level = l }

// errGameOver is the answer of genmove once the game has a result.
var errGameOver = errors.New("game over")

func (h *bridgeHandler) Reset(o engine.Options) error {
	g, err := engine.NewBridgeGame(o)
	if err != nil {
		return err
	}
	h.game, h.undo = g, nil
	return nil
}

func (h *bridgeHandler) size() int { return h.game.Options().Size }

func (h *bridgeHandler) Commands() map[string]Command {
	return map[string]Command{
		"play":          h.play,
		"genmove":       h.genmove,
		"undo":          h.undoMove,
		"is_legal":      h.isLegal,
		"all_legal":     h.allLegal,
		"list_stones":   h.listStones,
		"captures":      h.captures,
		"showboard":     func([]string) (string, error) { return showBoard(h.game.Board()), nil },
		"final_score":   h.finalScore,
		"kakure-winner": h.winner,
	}
}

// commit makes next the current game and keeps the old one for undo.
func (h *bridgeHandler) commit(next engine.BridgeGame) {
	h.undo = append(h.undo, h.game)
	h.game = next
}

func (h *bridgeHandler) play(args []string) (string, error) {
	c, p, err := colorVertexArgs(h.size(), args)
	if err != nil {
		return "", err
	}
	next, _, err := h.game.Play(c, p)
	if err != nil {
		return "", errIllegal
	}
	h.commit(next)
	return "", nil
}

func (h *bridgeHandler) genmove(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	if h.game.Over() {
		return "", errGameOver
	}
	p := bot.NewBridgeBot(botLevel(h.level), botSeed(h.game.Board(), h.game.MoveNumber())).ChooseMove(h.game, c)
	next, _, err := h.game.Play(c, p)
	if err != nil {
		return "", err
	}
	h.commit(next)
	return p.Vertex(h.size()), nil
}

func (h *bridgeHandler) undoMove(args []string) (string, error) {
	return undoLast(args, &h.game, &h.undo)
}

func (h *bridgeHandler) isLegal(args []string) (string, error) {
	c, p, err := colorVertexArgs(h.size(), args)
	if err != nil {
		return "", err
	}
	return boolToken(h.game.Check(c, p) == nil), nil
}

func (h *bridgeHandler) allLegal(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	return vertexList(h.size(), h.game.LegalMoves(c)), nil
}

func (h *bridgeHandler) listStones(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	b := h.game.Board()
	return vertexList(h.size(), b.Stones(c)), nil
}

func (h *bridgeHandler) captures(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	return strconv.Itoa(h.game.Captures(c)), nil
}

// finalScore answers the result of a finished game: "B+" or "W+" for a
// bridge, "0" for a draw (GTP-BG-D4). Bridge Go has no count.
func (h *bridgeHandler) finalScore(args []string) (string, error) {
	if err := wantArgs(args, 0); err != nil {
		return "", err
	}
	r, over := h.game.Result()
	if !over {
		return "", errors.New("cannot score")
	}
	return r.String(), nil
}

// winner is kakure-winner: "black" or "white" once a bridge has won,
// "none" while the game goes on and after a draw.
func (h *bridgeHandler) winner(args []string) (string, error) {
	if err := wantArgs(args, 0); err != nil {
		return "", err
	}
	if w := h.game.Winner(); w == engine.Black || w == engine.White {
		return w.String(), nil
	}
	return "none", nil
}
