package gtp

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/protocol"
)

func init() {
	variantHandlers[engine.VariantGomoku] = func() Handler { return &gomokuHandler{} }
	viewReaders[engine.VariantGomoku] = readsView(
		func(k *knownPosition, _ protocol.View, vv gomokurules.View) {
			k.me = vv.Game.Me()
			k.size = vv.Game.Size()
			own, theirs := vv.Game.OwnPieces(), vv.Game.OpponentPieces()
			k.add(k.me, own.Stones(k.me)...)
			k.add(k.me.Opponent(), theirs.Stones(k.me.Opponent())...)
			legal := vv.Game.LegalPoints()
			k.legal = func(q engine.Point) error {
				if q != engine.Pass && !slices.Contains(legal, q) {
					return fmt.Errorf("not a legal point (GM-4)")
				}
				return nil
			}
		},
		noMoveHistory[gomokurules.View])
}

// gomokuHandler is Hidden Move Double Gomoku seen by a referee who knows
// every piece (docs/gtp.md, "Hidden Move Double Gomoku"). A move of play
// and genmove is a whole turn in which the opponent reveals nothing
// (GM-D2), so every piece after the opening stands hidden; undo takes
// back each play and genmove (GTP-GM-D4).
type gomokuHandler = handler[gomokuState]

// gomokuState is the gomoku game.
type gomokuState struct{ game gomoku.Game }

// errGomokuOpeningIsX is genmove's answer for O before the opening piece,
// which is X's (GM-2).
var errGomokuOpeningIsX = errors.New("the opening piece is an x")

func (gomokuState) reset(o engine.Options) (gomokuState, error) {
	g, err := gomoku.NewGame(o)
	return gomokuState{g}, err
}

func (s gomokuState) size() int { return s.game.Size() }

func (gomokuState) parseColor(arg string) (engine.Color, error) { return gomokuPieceArg(arg) }

func (s gomokuState) play(c engine.Color, p engine.Point) (gomokuState, error) {
	next, err := s.game.Play(c, p)
	return gomokuState{next}, err
}

func (s gomokuState) genmove(c engine.Color, level bot.Level, _ float64) (engine.Point, gomokuState, error) {
	switch {
	case s.game.Over():
		return engine.NoPoint, s, errGameOver
	case s.game.Phase() == gomoku.PhaseOpening && c != gomoku.X:
		return engine.NoPoint, s, errGomokuOpeningIsX
	}
	p := gomokuChooseMove(s.game, c, level)
	next, err := s.play(c, p)
	return p, next, err
}

func (s gomokuState) legal(c engine.Color, p engine.Point) bool {
	_, err := s.game.Play(c, p)
	return err == nil
}

func (s gomokuState) legalPoints(c engine.Color) []engine.Point { return gomokuLegalPoints(s.game, c) }

// stones lists c's pieces, hidden and revealed.
func (s gomokuState) stones(c engine.Color) []engine.Point { b := s.game.Pieces(c); return b.Stones(c) }

// captures: gomoku captures nothing and has no captures command.
func (gomokuState) captures(engine.Color) (int, bool) { return 0, false }

func (s gomokuState) showboard() string { return "\n" + strings.TrimRight(s.game.String(), "\n") }

func (s gomokuState) komi() float64 { return 0 }

// withKomi: gomoku has no komi.
func (s gomokuState) withKomi(float64) gomokuState { return s }

func (gomokuState) commands(h handlerOf[gomokuState]) map[string]Command {
	return map[string]Command{
		// kakure-winner: "x", "o" or "none" (a draw, or a game still
		// going).
		"kakure-winner": func(args []string) (string, error) {
			if err := wantArgs(args, 0); err != nil {
				return "", err
			}
			return h.current().game.WinnerName(), nil
		},
	}
}

// gomokuPieceArg reads a colour of the gomoku commands: x or o, or the GTP
// colours, black meaning x and white o (GTP-GM-D1).
func gomokuPieceArg(s string) (engine.Color, error) {
	c, err := gomoku.ParsePiece(s)
	if err != nil {
		return engine.Empty, errors.New("invalid color")
	}
	return c, nil
}

// gomokuLegalPoints returns the points where play would accept a piece of
// c now, in increasing order: every point for X's opening piece, none for
// O before it, the points of GM-4 afterwards, none once the game is over.
func gomokuLegalPoints(g gomoku.Game, c engine.Color) []engine.Point {
	switch g.Phase() {
	case gomoku.PhaseOver:
		return nil
	case gomoku.PhaseOpening:
		if c != gomoku.X {
			return nil
		}
	}
	return g.LegalPoints(c)
}

// gomokuChooseMove asks the gomoku bot for c's piece, or passes when c has
// no legal point (GTP-GM-D3). The bot decides from what c may know (its
// own pieces, the revealed ones, the opponent's number of hidden pieces),
// and its seed depends only on c's pieces and the move number.
func gomokuChooseMove(g gomoku.Game, c engine.Color, level bot.Level) engine.Point {
	if len(gomokuLegalPoints(g, c)) == 0 {
		return engine.Pass
	}
	own := g.Pieces(c)
	p := bot.NewGomokuBot(botLevel(level), botSeed(own, g.MoveNumber())).ChoosePlacement(bot.GomokuKnowledgeOf(g, c))
	if p == engine.NoPoint {
		return engine.Pass
	}
	return p
}
