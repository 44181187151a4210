package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/hmg"
	"github.com/kakure/kakure/protocol"
)

func init() {
	variantScreens[engine.VariantHMG] = func() variantScreen { return hmgScreen{} }
}

// hmgScreen is Hidden Move Go: the player chooses its cards before move
// 1, reveals them as part of a turn (the reveal key), sees its own cards
// on the board in brackets and in the cards panel, and the opponent's only
// once revealed or opened at the end.
type hmgScreen struct{}

func hmgViewOf(v any) (hmgrules.View, bool) {
	hv, ok := v.(hmgrules.View)
	return hv, ok
}

func (hmgScreen) scoring(v hmgrules.View) scoringView {
	return scoringView{active: v.Stage == hmgrules.StageScoring, hasProposal: v.HasProposal,
		proposer: v.Proposer, proposal: v.Proposal, board: v.Game.Board(), count: v.Game.Score,
		resumeKind: protocol.KindMove}
}

// hiddenCards lays the cards still hidden over a board (UI-D12): the
// player's own (bm.Me's) as its stone in brackets, and the opponent's,
// once known, as the opponent's stone in brackets. A card on a point
// where a stone stands is left to the cards panel: brackets around that
// stone would read as the stone's own.
func hiddenCards(bm BoardModel, mine, theirs []hmg.Card) BoardModel {
	for _, c := range mine {
		if !c.Revealed && bm.At(c.Point).Stone == engine.Empty {
			bm = bm.With(MarkPending, c.Point)
		}
	}
	for _, c := range theirs {
		if !c.Revealed && bm.OnBoard(c.Point) && bm.Points[c.Point].Stone == engine.Empty && !bm.Points[c.Point].Has(MarkPending) {
			bm.Points[c.Point] = PointMark{Stone: bm.Me.Opponent(), Marks: bm.Points[c.Point].Marks | MarkPending}
		}
	}
	return bm
}

func (s hmgScreen) board(m *GameModel) BoardModel {
	v, ok := hmgViewOf(m.View.Variant)
	if !ok {
		return NewBoardModel(m.Size(), m.Me())
	}
	bm := ModelFromBoard(v.Game.Board(), m.Me(), m.Last).With(MarkHighlight, m.Effect...)
	if v.Stage == hmgrules.StageCards && !v.CardsChosen {
		return bm.With(MarkPending, m.Local.Cards...)
	}
	bm = hiddenCards(bm, v.MyCards, v.OpponentCards)
	return s.scoring(v).overlay(m, bm)
}

func (s hmgScreen) panel(m *GameModel) []string {
	v, ok := hmgViewOf(m.View.Variant)
	if !ok {
		return nil
	}
	g := v.Game
	lines := playerLines(m, g.Captures(engine.Black), g.Captures(engine.White))
	n := m.View.Options.Cards
	switch {
	case v.Stage == hmgrules.StageCards && !v.CardsChosen:
		lines = append(lines, fmt.Sprintf("Choose your %s: Enter on a point", hiddenMoves(n)))
		chosen := "none yet"
		if len(m.Local.Cards) > 0 {
			chosen = m.Vertices(m.Local.Cards)
		}
		lines = append(lines, fmt.Sprintf("Chosen: %s (%d of %d)", chosen, len(m.Local.Cards), n))
		if len(m.Local.Cards) == n {
			lines = append(lines, "^D sends them · ^U takes the last back")
		} else if len(m.Local.Cards) > 0 {
			lines = append(lines, "^U takes the last back")
		}
		return lines
	case v.Stage == hmgrules.StageCards:
		lines = append(lines, "Waiting for the commitments to the hidden moves")
	case v.Stage == hmgrules.StagePlay && !m.Over():
		turn := turnLine(m, g.ToMove())
		if g.ToMove() == m.Me() && len(g.RevealableCards(m.Me())) > 0 {
			turn += ": ^V reveals, or play"
		}
		lines = append(lines, fmt.Sprintf("Turn %d · %s", g.Turns()+1, turn))
	case v.Stage == hmgrules.StageOpen:
		lines = append(lines, "Opening the unused hidden moves")
	}
	if n > 0 {
		lines = append(lines, "Your hidden moves: "+cardList(m, v.MyCards))
		lines = append(lines, fmt.Sprintf("%s's: %s", Name(m.Me().Opponent()), opponentCardList(m, v.OpponentCards)))
	}
	return append(lines, s.scoring(v).panel(m)...)
}

// cardList writes the player's cards: "1 D4 · 2 E5 played".
func cardList(m *GameModel, cards []hmg.Card) string {
	if len(cards) == 0 {
		return "none"
	}
	parts := make([]string, len(cards))
	for i, c := range cards {
		parts[i] = fmt.Sprintf("%d %s", i+1, m.Vertex(c.Point))
		if c.Revealed {
			parts[i] += " played"
		}
	}
	return strings.Join(parts, " · ")
}

// opponentCardList writes what the player knows of the opponent's cards:
// how many are hidden, and the points of the revealed or opened ones.
func opponentCardList(m *GameModel, cards []hmg.Card) string {
	var known []string
	hidden := 0
	for i, c := range cards {
		switch {
		case c.Revealed:
			known = append(known, fmt.Sprintf("%d %s played", i+1, m.Vertex(c.Point)))
		case c.Point != engine.NoPoint:
			known = append(known, fmt.Sprintf("%d %s unused", i+1, m.Vertex(c.Point)))
		default:
			hidden++
		}
	}
	if hidden > 0 {
		known = append(known, fmt.Sprintf("%d hidden", hidden))
	}
	if len(known) == 0 {
		return "none"
	}
	return strings.Join(known, " · ")
}

func (s hmgScreen) do(m *GameModel, c command) (protocol.Action, error) {
	v, ok := hmgViewOf(m.View.Variant)
	if !ok {
		return nil, errNothing
	}
	if v.Stage == hmgrules.StageCards {
		return s.chooseCards(m, v, c)
	}
	if a, handled, err := s.scoring(v).do(m, c); handled || err != nil {
		return a, err
	}
	g, me := v.Game, m.Me()
	switch c.kind {
	case cmdPoint:
		if !m.May(protocol.KindMove) {
			return nil, notYourTurn(m)
		}
		if c.point == engine.Pass && !g.CanPass(me) {
			return nil, errors.New("a pass here would repeat an earlier position (HMG-6): play a stone")
		}
		if c.point != engine.Pass {
			if err := g.CheckPlay(me, c.point); err != nil {
				return nil, moveError(err, c.point, m.Size())
			}
		}
		return protocol.Play{Point: c.point}, nil
	case cmdReveal:
		if !m.May(hmgrules.KindReveal) {
			return nil, notYourTurn(m)
		}
		if !slices.Contains(g.RevealableCards(me), c.card) {
			return nil, fmt.Errorf("hidden move %d cannot be revealed now (HMG-3)", c.card+1)
		}
		return hmgrules.Reveal{Card: c.card}, nil
	}
	return nil, errNothing
}

// chooseCards handles the commands of the card choice (HMG-1).
func (hmgScreen) chooseCards(m *GameModel, v hmgrules.View, c command) (protocol.Action, error) {
	n := m.View.Options.Cards
	if v.CardsChosen {
		return nil, errors.New("your hidden moves are chosen: waiting for the commitments")
	}
	switch c.kind {
	case cmdPoint:
		if c.point == engine.Pass {
			return nil, errors.New("choose the points of your hidden moves first")
		}
		if len(m.Local.Cards) >= n {
			return nil, fmt.Errorf("all %s are chosen: ^D sends them, ^U takes the last back", hiddenMoves(n))
		}
		m.Local.Cards = append(m.Local.Cards, c.point)
		return nil, nil
	case cmdTakeBack:
		if len(m.Local.Cards) == 0 {
			return nil, errNothing
		}
		m.Local.Cards = m.Local.Cards[:len(m.Local.Cards)-1]
		return nil, nil
	case cmdConfirm:
		if len(m.Local.Cards) != n {
			return nil, fmt.Errorf("choose %d more first", n-len(m.Local.Cards))
		}
		return hmgrules.SetCards{Points: slices.Clone(m.Local.Cards)}, nil
	}
	return nil, errNothing
}

func (hmgScreen) revealable(m *GameModel) []cardChoice {
	v, ok := hmgViewOf(m.View.Variant)
	if !ok || !m.May(hmgrules.KindReveal) {
		return nil
	}
	var cs []cardChoice
	for _, i := range v.Game.RevealableCards(m.Me()) {
		if i < len(v.MyCards) {
			cs = append(cs, cardChoice{Card: i, Point: v.MyCards[i].Point})
		}
	}
	return cs
}

func (hmgScreen) due(*GameModel) protocol.Action { return nil }

func (hmgScreen) describe(m *GameModel, e protocol.Event) eventNote {
	switch e := e.(type) {
	case protocol.EventMoved:
		return describeMove(m, e)
	case hmgrules.EventCardsCommitted:
		n := m.View.Options.Cards
		if e.Color == m.Me() {
			return eventNote{lines: []string{fmt.Sprintf("You are committed to your %s.", hiddenMoves(n))}}
		}
		return eventNote{lines: []string{fmt.Sprintf("%s is committed to %s.", Name(e.Color), hiddenMoves(n))}}
	case hmgrules.EventRevealed:
		return describeReveal(m, e)
	case hmgrules.EventCardsOpened:
		return eventNote{lines: []string{fmt.Sprintf("%s's hidden moves were: %s.", Name(e.Color), m.Vertices(e.Points))}, frame: true}
	}
	return eventNote{}
}

// describeReveal describes a revealed card, and an undo (HMG-5) so that
// both players understand what happened.
func describeReveal(m *GameModel, e hmgrules.EventRevealed) eventNote {
	who, v := Name(e.Color), m.Vertex(e.Point)
	line := fmt.Sprintf("%s reveals hidden move %d at %s", who, e.Card+1, v)
	if e.Undo {
		victim := Name(e.Color.Opponent())
		line = fmt.Sprintf("%s reveals hidden move %d at %s, on %s's last stone: %s's move %s is undone (HMG-5)",
			who, e.Card+1, v, victim, victim, v)
		if len(e.Restored) > 0 {
			line += fmt.Sprintf(", %s's %s come back", who, m.Vertices(e.Restored))
		}
	}
	if len(e.Captured) > 0 {
		line += ", captures " + m.Vertices(e.Captured)
	}
	if e.Undo {
		line += fmt.Sprintf("; %s's turn ends", who)
	}
	effect := append(append([]engine.Point{e.Point}, e.Captured...), e.Restored...)
	return eventNote{lines: []string{line + "."}, frame: true, hasLast: true, last: e.Point, effect: effect}
}

func (hmgScreen) replayBoard(f Frame, final protocol.View, full bool) BoardModel {
	pv, ok := hmgViewOf(f.Public)
	fv, fok := hmgViewOf(final.Variant)
	if !ok || !fok {
		return NewBoardModel(final.Options.Size, final.Color)
	}
	me := final.Color
	bm := ModelFromBoard(pv.Game.Board(), me, f.Last)
	// The cards still hidden at that moment, with the points the player
	// knows now: its own always, the opponent's once opened at the end.
	hiddenThen := func(now, then []hmg.Card) []hmg.Card {
		var cs []hmg.Card
		for i, c := range now {
			if i < len(then) && !then[i].Revealed && c.Point != engine.NoPoint {
				cs = append(cs, hmg.Card{Point: c.Point})
			}
		}
		return cs
	}
	mine := hiddenThen(fv.MyCards, pv.Game.Cards(me))
	var theirs []hmg.Card
	if full {
		theirs = hiddenThen(fv.OpponentCards, pv.Game.Cards(me.Opponent()))
	}
	return hiddenCards(bm, mine, theirs)
}

// hiddenMoves writes a number of hidden moves: "1 hidden move", "3 hidden
// moves".
func hiddenMoves(n int) string {
	if n == 1 {
		return "1 hidden move"
	}
	return fmt.Sprintf("%d hidden moves", n)
}
