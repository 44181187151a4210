package gtp

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
)

func init() {
	variantHandlers[engine.VariantHMG] = func() Handler { return &hmgHandler{} }
}

// hmgHandler is Hidden Move Go with both players' cards known (docs/gtp.md,
// "Hidden Move Go").
type hmgHandler struct {
	game engine.HMGGame
	// undo holds the games before each play, genmove and kakure-reveal,
	// newest last (GTP-HMG-D4).
	undo []engine.HMGGame
	// level is genmove's bot level (zero: the server's default).
	level bot.Level
}

func (h *hmgHandler) SetLevel(l bot.Level) { h.level = l }

func (h *hmgHandler) Reset(o engine.Options) error {
	g, err := engine.NewHMGGame(o)
	if err != nil {
		return err
	}
	h.game, h.undo = g, nil
	return nil
}

func (h *hmgHandler) SetKomi(k float64) { h.game = h.game.WithKomi(k) }

func (h *hmgHandler) size() int { return h.game.Options().Size }

func (h *hmgHandler) Commands() map[string]Command {
	return map[string]Command{
		"play":          h.play,
		"genmove":       h.genmove,
		"undo":          h.undoAction,
		"is_legal":      h.isLegal,
		"all_legal":     h.allLegal,
		"list_stones":   h.listStones,
		"captures":      h.captures,
		"showboard":     func([]string) (string, error) { return showBoard(h.game.Board()), nil },
		"final_score":   h.finalScore,
		"kakure-cards":  h.cards,
		"kakure-reveal": h.reveal,
	}
}

// errHMGNoTurn is the answer when the colour to move has revealed cards in
// its turn and may not end it with a pass, so that the other colour cannot
// be given the turn (GTP-HMG-D1).
var errHMGNoTurn = errors.New("not your turn")

// hmgTurnOf returns g with c to move, as a command by c sees it
// (GTP-HMG-D1): when the other colour is to move, it passes first. That
// pass is refused only after reveals that left a repeated position
// (HMG-D5).
func hmgTurnOf(g engine.HMGGame, c engine.Color) (engine.HMGGame, error) {
	if g.ToMove() == c {
		return g, nil
	}
	next, _, err := g.Play(c.Opponent(), engine.Pass)
	if err != nil {
		return g, errHMGNoTurn
	}
	return next, nil
}

// commit makes next the current game and keeps the old one for undo.
func (h *hmgHandler) commit(next engine.HMGGame) {
	h.undo = append(h.undo, h.game)
	h.game = next
}

func (h *hmgHandler) play(args []string) (string, error) {
	c, p, err := colorVertexArgs(h.size(), args)
	if err != nil {
		return "", err
	}
	g, err := hmgTurnOf(h.game, c)
	if err != nil {
		return "", errIllegal
	}
	next, _, err := g.Play(c, p)
	if err != nil {
		return "", errIllegal
	}
	h.commit(next)
	return "", nil
}

func (h *hmgHandler) genmove(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	g, err := hmgTurnOf(h.game, c)
	if err != nil {
		return "", err
	}
	p := bot.NewHMGBot(botLevel(h.level), botSeed(g.Board(), g.Turns())).ChoosePlay(g, c)
	next, _, err := g.Play(c, p)
	if err != nil {
		return "", err
	}
	h.commit(next)
	return p.Vertex(h.size()), nil
}

func (h *hmgHandler) undoAction(args []string) (string, error) {
	return undoLast(args, &h.game, &h.undo)
}

func (h *hmgHandler) isLegal(args []string) (string, error) {
	c, p, err := colorVertexArgs(h.size(), args)
	if err != nil {
		return "", err
	}
	g, err := hmgTurnOf(h.game, c)
	return boolToken(err == nil && g.CheckPlay(c, p) == nil), nil
}

func (h *hmgHandler) allLegal(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	g, err := hmgTurnOf(h.game, c)
	if err != nil {
		return "", nil
	}
	return vertexList(h.size(), g.LegalPlays(c)), nil
}

func (h *hmgHandler) listStones(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	b := h.game.Board()
	return vertexList(h.size(), b.Stones(c)), nil
}

func (h *hmgHandler) captures(args []string) (string, error) {
	c, err := soleColorArg(args)
	if err != nil {
		return "", err
	}
	return strconv.Itoa(h.game.Captures(c)), nil
}

// finalScore counts the board by area and adds the passing stones of the
// cards not revealed (HMG-7, HMG-D9).
func (h *hmgHandler) finalScore(args []string) (string, error) {
	if err := wantArgs(args, 0); err != nil {
		return "", err
	}
	return scoreText(h.game.Score(engine.Marking{})), nil
}

// cards is kakure-cards COLOR V1 V2 …: the points of COLOR's cards, in
// order, before the first action of the game (HMG-1, HMG-D1).
func (h *hmgHandler) cards(args []string) (string, error) {
	if len(args) < 1 {
		return "", errSyntax
	}
	c, err := colorArg(args[0])
	if err != nil {
		return "", err
	}
	points := make([]engine.Point, 0, len(args)-1)
	for _, a := range args[1:] {
		p, err := vertexArg(h.size(), a)
		if err != nil || p == engine.Pass {
			return "", errors.New("invalid coordinate")
		}
		points = append(points, p)
	}
	next, err := h.game.SetCards(c, points)
	switch {
	case errors.Is(err, engine.ErrWrongPhase):
		return "", errors.New("cards are set before the first move")
	case err != nil:
		return "", fmt.Errorf("%d cards given, the game has %d per player", len(points), h.game.Options().Cards)
	}
	h.game = next
	return "", nil
}

// reveal is kakure-reveal COLOR INDEX, the card counted from 1 in the order
// kakure-cards gave.
func (h *hmgHandler) reveal(args []string) (string, error) {
	if err := wantArgs(args, 2); err != nil {
		return "", err
	}
	c, err := colorArg(args[0])
	if err != nil {
		return "", err
	}
	n, err := strconv.Atoi(args[1])
	if err != nil {
		return "", errSyntax
	}
	cards := h.game.Cards(c)
	if n < 1 || n > len(cards) {
		return "", hmgIllegal("no-such-card")
	}
	card := cards[n-1]
	switch {
	case card.Revealed:
		return "", hmgIllegal("revealed")
	case card.Point == engine.NoPoint:
		return "", hmgIllegal("unknown-card")
	}
	g, err := hmgTurnOf(h.game, c)
	if err != nil {
		return "", hmgIllegal("not-your-turn")
	}
	next, res, err := g.Reveal(c, n-1, card.Point)
	if err != nil {
		return "", hmgIllegal(hmgRevealReason(err))
	}
	h.commit(next)
	return "revealed captured=" + hmgVertices(h.size(), res.Captured) +
		" undo=" + boolToken(res.Undo) +
		" restored=" + hmgVertices(h.size(), res.Restored), nil
}

// hmgIllegal is the failure answer of an illegal reveal.
func hmgIllegal(reason string) error { return errors.New("illegal reason=" + reason) }

// hmgRevealReason names the engine's reason for refusing a reveal
// (HMG-3, HMG-D4) with the word kakure-reveal answers.
func hmgRevealReason(err error) string {
	for _, r := range []struct {
		err  error
		word string
	}{
		{engine.ErrOccupied, "occupied-own"},
		{engine.ErrRevealNotLastStone, "not-last-stone"},
		{engine.ErrRevealAfterReveal, "after-reveal"},
		{engine.ErrSuicide, "suicide"},
		{engine.ErrSuperko, "superko"},
		{engine.ErrCardRevealed, "revealed"},
		{engine.ErrNoSuchCard, "no-such-card"},
	} {
		if errors.Is(err, r.err) {
			return r.word
		}
	}
	return "other"
}

// hmgVertices writes points as a kakure list, in increasing order.
func hmgVertices(size int, ps []engine.Point) string {
	return engine.FormatVertices(size, slices.Sorted(slices.Values(ps)))
}
