package gtp

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/hmg"
	"github.com/kakure/kakure/protocol"
)

func init() {
	variantHandlers[engine.VariantHMG] = func() Handler { return &hmgHandler{} }
	viewReaders[engine.VariantHMG] = readsView(
		func(k *knownPosition, v protocol.View, vv hmgrules.View) {
			board := vv.Game.Board()
			k.addBoard(board)
			k.resuming = vv.Stage == hmgrules.StageScoring
			k.legal = func(q engine.Point) error {
				if q == engine.Pass {
					if !vv.Game.CanPass(v.Color) {
						return fmt.Errorf("a pass would repeat a position (HMG-6)")
					}
					return nil
				}
				return vv.Game.CheckPlay(v.Color, q)
			}
			for _, card := range vv.MyCards {
				if !card.Revealed && board.OnBoard(card.Point) && board.At(card.Point) == engine.Empty {
					k.add(v.Color, card.Point)
				}
			}
		},
		noMoveHistory[hmgrules.View])
}

// hmgHandler is Hidden Move Go with both players' cards known (docs/gtp.md,
// "Hidden Move Go"); undo takes back each play, genmove and kakure-reveal
// (GTP-HMG-D4).
type hmgHandler = handler[hmgState]

// hmgState is the Hidden Move Go game; it keeps its komi.
type hmgState struct{ game hmg.Game }

func (hmgState) reset(o engine.Options) (hmgState, error) {
	g, err := hmg.NewGame(o)
	return hmgState{g}, err
}

func (s hmgState) size() int { return s.game.Options().Size }

func (hmgState) parseColor(arg string) (engine.Color, error) { return goColors(arg) }

func (s hmgState) play(c engine.Color, p engine.Point) (hmgState, error) {
	g, err := hmgTurnOf(s.game, c)
	if err != nil {
		return s, err
	}
	next, _, err := g.Play(c, p)
	return hmgState{next}, err
}

func (s hmgState) genmove(c engine.Color, level bot.Level, _ float64) (engine.Point, hmgState, error) {
	g, err := hmgTurnOf(s.game, c)
	if err != nil {
		return engine.NoPoint, s, err
	}
	p := bot.NewHMGBot(botLevel(level), botSeed(g.Board(), g.Turns())).ChoosePlay(g, c)
	next, _, err := g.Play(c, p)
	return p, hmgState{next}, err
}

func (s hmgState) legal(c engine.Color, p engine.Point) bool {
	g, err := hmgTurnOf(s.game, c)
	return err == nil && g.CheckPlay(c, p) == nil
}

func (s hmgState) legalPoints(c engine.Color) []engine.Point {
	g, err := hmgTurnOf(s.game, c)
	if err != nil {
		return nil
	}
	return g.LegalPoints(c)
}

func (s hmgState) stones(c engine.Color) []engine.Point { b := s.game.Board(); return b.Stones(c) }

func (s hmgState) captures(c engine.Color) (int, bool) { return s.game.Captures(c), true }

func (s hmgState) showboard() string { return showBoard(s.game.Board()) }

func (s hmgState) komi() float64 { return s.game.Options().Komi }

func (s hmgState) withKomi(k float64) hmgState { return hmgState{s.game.WithKomi(k)} }

func (hmgState) commands(h handlerOf[hmgState]) map[string]Command {
	return map[string]Command{
		// final_score counts the board by area and adds the passing
		// stones of the cards not revealed (HMG-7, HMG-D9).
		"final_score": func(args []string) (string, error) {
			if err := wantArgs(args, 0); err != nil {
				return "", err
			}
			return scoreText(h.current().game.Score(engine.Marking{})), nil
		},
		"kakure-cards":  func(args []string) (string, error) { return hmgCards(h, args) },
		"kakure-reveal": func(args []string) (string, error) { return hmgReveal(h, args) },
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
func hmgTurnOf(g hmg.Game, c engine.Color) (hmg.Game, error) {
	if g.ToMove() == c {
		return g, nil
	}
	next, _, err := g.Play(c.Opponent(), engine.Pass)
	if err != nil {
		return g, errHMGNoTurn
	}
	return next, nil
}

// cards is kakure-cards COLOR V1 V2 …: the points of COLOR's cards, in
// order, before the first action of the game (HMG-1, HMG-D1).
func hmgCards(h handlerOf[hmgState], args []string) (string, error) {
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
	next, err := h.current().game.SetCards(c, points)
	switch {
	case errors.Is(err, engine.ErrWrongPhase):
		return "", errors.New("cards are set before the first move")
	case err != nil:
		return "", fmt.Errorf("%d cards given, the game has %d per player", len(points), h.current().game.Options().Cards)
	}
	h.replace(hmgState{next})
	return "", nil
}

// reveal is kakure-reveal COLOR INDEX, the card counted from 1 in the order
// kakure-cards gave.
func hmgReveal(h handlerOf[hmgState], args []string) (string, error) {
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
	cards := h.current().game.Cards(c)
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
	g, err := hmgTurnOf(h.current().game, c)
	if err != nil {
		return "", hmgIllegal("not-your-turn")
	}
	next, res, err := g.Reveal(c, n-1, card.Point)
	if err != nil {
		return "", hmgIllegal(hmgRevealReason(err))
	}
	h.commit(hmgState{next})
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
		{hmg.ErrRevealNotLastStone, "not-last-stone"},
		{hmg.ErrRevealAfterReveal, "after-reveal"},
		{engine.ErrSuicide, "suicide"},
		{engine.ErrSuperko, "superko"},
		{hmg.ErrCardRevealed, "revealed"},
		{hmg.ErrNoSuchCard, "no-such-card"},
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
