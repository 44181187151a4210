package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/protocol"
)

// replayTo steps the replay from its start to position i with "." and
// returns the board shown.
func replayTo(s *GameScreen, i int) BoardModel {
	pressKey(s, tcell.KeyHome)
	for range i {
		press(s, ".")
	}
	return s.Board().Model()
}

// TestPG9ReplayNamesEachTry (UI-D37, issue 34 item 2): after the Phantom
// Go audit the replay marks each try: in the full view the stone played is
// the last move (in parentheses) and an illegal try is highlighted, the
// opponent's as well as the player's; in the player's own view only its
// own tries are marked (the other's were unknown then). The move list
// (g) names the opponent's points the reveal told, its own as its
// announcements did, and is wide enough for the words.
func TestPG9ReplayNamesEachTry(t *testing.T) {
	s, g := newRecordScreen(t, "phantom", protocol.Inviter)
	for g.next(s) {
	}
	r := s.review
	if r == nil || len(r.frames) < 11 {
		t.Fatal("no replay")
	}
	n := s.Model().Size()
	// Position 1: Black's (the bot's) first try, A5; position 2 the
	// player's (White's) C5; position 10 White's illegal try at E5.
	if bm := replayTo(s, 1); bm.LastMove != vtx(t, n, "A5") {
		t.Errorf("full view, Black's first try: last move %s, want A5", bm.LastMove.Vertex(n))
	}
	if bm := replayTo(s, 10); !bm.At(vtx(t, n, "E5")).Has(MarkHighlight) {
		t.Errorf("full view, White's illegal try at E5 is not highlighted")
	}
	press(s, "v") // the player's own view
	if bm := replayTo(s, 1); bm.OnBoard(bm.LastMove) {
		t.Errorf("own view, Black's try: last move %s, want none (unknown then)", bm.LastMove.Vertex(n))
	}
	if bm := replayTo(s, 2); bm.LastMove != vtx(t, n, "C5") {
		t.Errorf("own view, White's try: last move %s, want C5", bm.LastMove.Vertex(n))
	}
	pressKey(s, tcell.KeyHome)
	press(s, "g")
	text := drawScreen(t, s, 80, 24)
	for _, want := range []string{"1  A5 · Black has moved", "2  White has moved (C5)", "3  E5 · Black has moved",
		"8  White has moved (A4); White puts Black into atari and himself", "✗  White tries: Illegal move (E5): already an opponent's stone"} {
		if !strings.Contains(text, want) {
			t.Errorf("the move list does not show %q:\n%s", want, text)
		}
	}
}

// TestGM8GomokuReplayAndOpenings (UI-D37, issue 34 items 2 and 11): in
// the recorded gomoku game, the board marks the line announced this turn
// (─ on its empty points) while it is answered; once the player opened
// its hidden pieces at the end, they are in brackets no more and the
// panel says so; the replay marks each turn's piece as the last move (the
// opponent's in the full view only) and its list names the points; its
// last position, after both openings, brackets nothing.
func TestGM8GomokuReplayAndOpenings(t *testing.T) {
	s, g := newRecordScreen(t, "gomoku", protocol.Inviter)
	g.until(t, s, gomokuPhase(s, gomoku.PhaseRespond, nil))
	gv := s.Model().View.Variant.(gomokurules.View)
	line, bm := gv.Game.Announced(), s.Board().Model()
	marked := 0
	for i := range bm.Size {
		p := engine.PointAt(bm.Size, i, line.Index)
		if line.Kind == gomoku.Column {
			p = engine.PointAt(bm.Size, line.Index, i)
		}
		if bm.At(p).Has(MarkRowAnnounced) || bm.At(p).Has(MarkColumnAnnounced) {
			marked++
		}
	}
	if marked != bm.Size {
		t.Errorf("the announced %s: %d of its %d points marked", lineName(bm.Size, line), marked, bm.Size)
	}
	// The player (X, the inviter) opens its pieces at the end.
	g.until(t, s, func() bool {
		return strings.Contains(strings.Join(s.Model().Log, "\n"), "X opens its hidden pieces")
	})
	if gv := s.Model().View.Variant.(gomokurules.View); gv.Record != nil {
		t.Fatal("the audit came with X's opening: nothing to see between them")
	}
	{
		bm := s.Board().Model()
		for p := engine.Point(0); bm.OnBoard(p); p++ {
			if bm.At(p).Has(MarkPending) {
				t.Errorf("after X opened its pieces, %s is still drawn hidden", p.Vertex(bm.Size))
				break
			}
		}
		if text := drawScreen(t, s, 100, 30); !loosely(text, "pieces, all open") {
			t.Errorf("the panel does not say the pieces are open:\n%s", text)
		}
	}
	for g.next(s) {
	}
	r := s.review
	if r == nil {
		t.Fatal("no replay")
	}
	n := s.Model().Size()
	if bm := replayTo(s, 1); bm.LastMove != vtx(t, n, "D6") {
		t.Errorf("full view, O's first piece: last move %s, want D6", bm.LastMove.Vertex(n))
	}
	{
		bm := replayTo(s, len(r.frames)-1)
		for p := engine.Point(0); bm.OnBoard(p); p++ {
			if bm.At(p).Has(MarkPending) {
				t.Errorf("the last position, after both openings, draws %s hidden", p.Vertex(n))
				break
			}
		}
	}
	press(s, "v")
	if bm := replayTo(s, 1); bm.OnBoard(bm.LastMove) {
		t.Errorf("own view, O's piece: last move %s, want none", bm.LastMove.Vertex(n))
	}
	if bm := replayTo(s, 2); bm.LastMove != vtx(t, n, "E6") {
		t.Errorf("own view, X's piece: last move %s, want E6", bm.LastMove.Vertex(n))
	}
	pressKey(s, tcell.KeyHome)
	press(s, "g")
	text := drawScreen(t, s, 80, 24)
	for _, want := range []string{"1  D6 · O's piece is placed.", "2  E6 · X's piece is placed."} {
		if !strings.Contains(text, want) {
			t.Errorf("the move list does not show %q:\n%s", want, text)
		}
	}
}

// TestUID44PerhapsCapturedReadsApart (issue 34 item 10): under hamburg a
// stone of the player's that a capture told by its count may have taken
// is drawn '?', which no stone reads as, and the panel says how many of
// them the counts of the captures say are gone. The recorded game (5×5,
// hamburg, the player White) has such a moment: checked against the
// referee's board, the number taken is exact.
func TestUID44PerhapsCapturedReadsApart(t *testing.T) {
	s, g := newRecordScreen(t, "phantom", protocol.Inviter)
	truthAt := g.phantomTruth(t)
	seen, partial := 0, 0
	for g.next(s) {
		pv, ok := s.Model().View.Variant.(phantomrules.View)
		if !ok || pv.Revealed || pv.Own.Size() == 0 {
			continue
		}
		uncertain := pv.Own.UncertainStones()
		if len(uncertain) == 0 {
			continue
		}
		seen++
		text := drawScreen(t, s, 100, 30)
		bm := s.Board().Model()
		for _, p := range uncertain {
			if !bm.At(p).Has(MarkUncertain) {
				t.Fatalf("%s, perhaps captured, is not marked", p.Vertex(5))
			}
		}
		if strings.ContainsRune(text, '◌') {
			t.Fatalf("a stone perhaps captured is drawn as a circle:\n%s", text)
		}
		// The referee's board after the same tries: how many of the
		// uncertain points hold no stone of the player's.
		gone := 0
		truth := truthAt(len(pv.Own.Log()))
		for _, p := range uncertain {
			if truth.At(p) != s.Model().Me() {
				gone++
			}
		}
		if got := takenUncertain(pv.Own); got != gone {
			t.Fatalf("after %d tries: %d of %d perhaps captured said taken, the referee's board has %d gone", len(pv.Own.Log()), got, len(uncertain), gone)
		}
		if gone > 0 && gone < len(uncertain) {
			partial++
			if !loosely(text, fmt.Sprintf("%d perhaps captured (%d of them taken)", len(uncertain), gone)) {
				t.Fatalf("the panel does not say how many are taken:\n%s", text)
			}
		}
	}
	if seen == 0 || partial == 0 {
		t.Fatalf("the recorded game has %d positions with stones perhaps captured, %d with some of them taken", seen, partial)
	}
}

// phantomTruth returns the referee's board of the recorded Phantom Go game
// after its first n tries, from the tries both players revealed at the end.
func (g *recordGame) phantomTruth(t *testing.T) func(n int) engine.Board {
	t.Helper()
	m := protocol.NewMachine(g.tr.Game)
	var o engine.Options
	var colors [2]engine.Color
	for i := range g.tr.Messages {
		if _, err := m.Apply(&g.tr.Messages[i]); err != nil {
			break
		}
		if m.Colors[0] != engine.Empty {
			o, colors = m.Options, m.Colors
			break
		}
	}
	p := newPhantomPrivate(t, g.tr, o, colors, g.role)
	return func(n int) engine.Board {
		ref, next := p.ref, [2]int{}
		for range n {
			c := ref.ToMove()
			r := 0
			if colors[1] == c {
				r = 1
			}
			var err error
			if ref, _, err = ref.Try(c, p.tries[r][next[r]]); err != nil {
				t.Fatal(err)
			}
			next[r]++
		}
		return ref.Board()
	}
}
