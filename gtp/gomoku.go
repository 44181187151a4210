package gtp

import (
	"errors"
	"strings"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
)

func init() {
	variantHandlers[engine.VariantGomoku] = func() Handler { return &gomokuHandler{} }
}

// gomokuHandler is Hidden Move Double Gomoku seen by a referee who knows
// every piece (docs/gtp.md, "Hidden Move Double Gomoku"). A move of play
// and genmove is a whole turn in which the opponent reveals nothing
// (GM-D2), so every piece after the opening stands hidden.
type gomokuHandler struct {
	game engine.GomokuGame
	// undo holds the games before each play and genmove, newest last
	// (GTP-GM-D4).
	undo []engine.GomokuGame
	// level is genmove's bot level (zero: the server's default).
	level bot.Level
}

func (h *gomokuHandler) SetLevel(l bot.Level) { h.level = l }

// errGomokuOpeningIsX is genmove's answer for O before the opening piece,
// which is X's (GM-2).
var errGomokuOpeningIsX = errors.New("the opening piece is an x")

func (h *gomokuHandler) Reset(o engine.Options) error {
	g, err := engine.NewGomokuGame(o)
	if err != nil {
		return err
	}
	h.game, h.undo = g, nil
	return nil
}

func (h *gomokuHandler) size() int { return h.game.Size() }

func (h *gomokuHandler) Commands() map[string]Command {
	return map[string]Command{
		"play":          h.play,
		"genmove":       h.genmove,
		"undo":          h.undoMove,
		"is_legal":      h.isLegal,
		"all_legal":     h.allLegal,
		"list_stones":   h.listStones,
		"showboard":     func([]string) (string, error) { return "\n" + strings.TrimRight(h.game.String(), "\n"), nil },
		"kakure-winner": h.winner,
	}
}

// gomokuPieceArg reads a colour of the gomoku commands: x or o, or the GTP
// colours, black meaning x and white o (GTP-GM-D1).
func gomokuPieceArg(s string) (engine.Color, error) {
	c, err := engine.ParseGomokuPiece(s)
	if err != nil {
		return engine.Empty, errors.New("invalid color")
	}
	return c, nil
}

// gomokuSolePieceArg reads the only argument of a command, a colour.
func gomokuSolePieceArg(args []string) (engine.Color, error) {
	if err := wantArgs(args, 1); err != nil {
		return engine.Empty, err
	}
	return gomokuPieceArg(args[0])
}

// gomokuPieceVertexArgs reads the "COLOR VERTEX" pair of play and is_legal.
func (h *gomokuHandler) gomokuPieceVertexArgs(args []string) (engine.Color, engine.Point, error) {
	if err := wantArgs(args, 2); err != nil {
		return engine.Empty, engine.NoPoint, err
	}
	c, err := gomokuPieceArg(args[0])
	if err != nil {
		return engine.Empty, engine.NoPoint, err
	}
	p, err := vertexArg(h.size(), args[1])
	if err != nil {
		return engine.Empty, engine.NoPoint, err
	}
	return c, p, nil
}

// commit makes next the current game and keeps the old one for undo.
func (h *gomokuHandler) commit(next engine.GomokuGame) {
	h.undo = append(h.undo, h.game)
	h.game = next
}

func (h *gomokuHandler) play(args []string) (string, error) {
	c, p, err := h.gomokuPieceVertexArgs(args)
	if err != nil {
		return "", err
	}
	next, err := h.game.Play(c, p)
	if err != nil {
		return "", errIllegal
	}
	h.commit(next)
	return "", nil
}

func (h *gomokuHandler) genmove(args []string) (string, error) {
	c, err := gomokuSolePieceArg(args)
	if err != nil {
		return "", err
	}
	switch {
	case h.game.Over():
		return "", errGameOver
	case h.game.Phase() == engine.GomokuPhaseOpening && c != engine.GomokuX:
		return "", errGomokuOpeningIsX
	}
	p := h.gomokuChooseMove(h.game, c)
	next, err := h.game.Play(c, p)
	if err != nil {
		return "", err
	}
	h.commit(next)
	return p.Vertex(h.size()), nil
}

// gomokuLegalPoints returns the points where play would accept a piece of
// c now, in increasing order: every point for X's opening piece, none for
// O before it, the points of GM-4 afterwards, none once the game is over.
func gomokuLegalPoints(g engine.GomokuGame, c engine.Color) []engine.Point {
	switch g.Phase() {
	case engine.GomokuPhaseOver:
		return nil
	case engine.GomokuPhaseOpening:
		if c != engine.GomokuX {
			return nil
		}
	}
	return g.LegalPoints(c)
}

// gomokuChooseMove asks the gomoku bot for c's piece, or passes when c has
// no legal point (GTP-GM-D3). The bot decides from what c may know (its
// own pieces, the revealed ones, the opponent's number of hidden pieces),
// and its seed depends only on c's pieces and the move number.
func (h *gomokuHandler) gomokuChooseMove(g engine.GomokuGame, c engine.Color) engine.Point {
	if len(gomokuLegalPoints(g, c)) == 0 {
		return engine.Pass
	}
	own := g.Pieces(c)
	p := bot.NewGomokuBot(botLevel(h.level), botSeed(own, g.MoveNumber())).ChoosePlacement(bot.GomokuKnowledgeOf(g, c))
	if p == engine.NoPoint {
		return engine.Pass
	}
	return p
}

func (h *gomokuHandler) undoMove(args []string) (string, error) {
	return undoLast(args, &h.game, &h.undo)
}

func (h *gomokuHandler) isLegal(args []string) (string, error) {
	c, p, err := h.gomokuPieceVertexArgs(args)
	if err != nil {
		return "", err
	}
	_, err = h.game.Play(c, p)
	return boolToken(err == nil), nil
}

func (h *gomokuHandler) allLegal(args []string) (string, error) {
	c, err := gomokuSolePieceArg(args)
	if err != nil {
		return "", err
	}
	return vertexList(h.size(), gomokuLegalPoints(h.game, c)), nil
}

// listStones lists c's pieces, hidden and revealed.
func (h *gomokuHandler) listStones(args []string) (string, error) {
	c, err := gomokuSolePieceArg(args)
	if err != nil {
		return "", err
	}
	b := h.game.Pieces(c)
	return vertexList(h.size(), b.Stones(c)), nil
}

// winner is kakure-winner: "x", "o" or "none" (a draw, or a game still
// going).
func (h *gomokuHandler) winner(args []string) (string, error) {
	if err := wantArgs(args, 0); err != nil {
		return "", err
	}
	return h.game.WinnerName(), nil
}
