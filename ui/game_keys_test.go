package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/protocol/bridgerules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/libp2p/go-libp2p/core/peer"
)

// fakeGame is a game whose view a test sets; the actions are recorded.
type fakeGame struct {
	view    protocol.View
	actions []protocol.Action
}

func (g *fakeGame) ID() protocol.GameID { return protocol.GameID{1, 2, 3, 4} }
func (g *fakeGame) Peer() peer.ID {
	return peer.ID("12D3KooWOpponentPeerIDxxxxxxxxxxxxxxxxxxxxxxxxxxQa")
}
func (g *fakeGame) View() protocol.View                { return g.view }
func (g *fakeGame) Do(a protocol.Action) error         { g.actions = append(g.actions, a); return nil }
func (g *fakeGame) Events() <-chan protocol.Event      { return nil }
func (g *fakeGame) Transcript() *protocol.Transcript   { return &protocol.Transcript{} }
func (g *fakeGame) Close()                             {}
func (g *fakeGame) played(n int) string                { return actionsText(n, g.actions) }
func (g *fakeGame) clear()                             { g.actions = nil }
func (g *fakeGame) screen(t *testing.T) *GameScreen    { return newFakeScreen(t, g) }
func (g *fakeGame) set(s *GameScreen, v protocol.View) { g.view = v; s.Apply(protocol.EventPhase{}, v) }

// newFakeScreen returns the screen of g; an action's answer is the view
// the test set.
func newFakeScreen(t *testing.T, g *fakeGame) *GameScreen {
	t.Helper()
	var s *GameScreen
	s = NewGameScreen(g, func(a protocol.Action) {
		err := g.Do(a)
		s.ActionDone(a, err, g.view)
	}, nil)
	return s
}

// options returns normalized options of variant v on a board of side n.
func options(t *testing.T, v engine.Variant, n int) engine.Options {
	t.Helper()
	o, err := engine.Options{Variant: v, Size: n}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// goView returns Black's view of a plain-Go game after the moves, each a
// vertex or "pass", Black first.
func goView(t *testing.T, n int, moves ...string) protocol.View {
	t.Helper()
	o := options(t, engine.VariantGo, n)
	g, err := engine.NewGoGame(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range moves {
		if g, _, err = g.Play(g.ToMove(), vtx(t, n, mv)); err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
	}
	v := protocol.View{Role: protocol.Inviter, Color: engine.Black, Options: o, Phase: protocol.PhasePlay,
		Variant: gorules.View{Game: g, Scoring: g.PlayEnded()}}
	if g.PlayEnded() {
		v.MyTurn, v.Kinds = g.ToMove() == engine.Black, []protocol.Kind{protocol.KindMark, protocol.KindMove}
	} else {
		v.MyTurn, v.Kinds = g.ToMove() == engine.Black, []protocol.Kind{protocol.KindMove}
	}
	return v
}

// TestUID8GameKeys checks the game screen's keys on plain Go: typed points
// and passes go to the board and become moves, control keys are the
// screen's, the chat line takes every key while it is open.
func TestUID8GameKeys(t *testing.T) {
	g := &fakeGame{view: goView(t, 9)}
	s := g.screen(t)
	press(s, "d4\n")
	press(s, "p\n")
	// A pass in the opening asks first (UI-D38).
	if s.dialog == nil {
		t.Fatal("a pass in the opening asked nothing")
	}
	press(s, "y")
	if got, want := g.played(9), "play D4; play pass"; got != want {
		t.Errorf("played %q, want %q", got, want)
	}

	g.clear()
	g.set(s, goView(t, 9, "D4"))
	press(s, "e5\n")
	if len(g.actions) != 0 || !strings.Contains(s.Model().Message, "not your turn: waiting for White") {
		t.Errorf("out of turn: actions %q, message %q", g.played(9), s.Model().Message)
	}
	g.set(s, goView(t, 9, "D4", "E5"))
	press(s, "d4\n")
	if len(g.actions) != 0 || s.Model().Message != "D4 is occupied" {
		t.Errorf("occupied: actions %q, message %q", g.played(9), s.Model().Message)
	}
	if text := drawScreen(t, s, 80, 24); !strings.Contains(text, "D4 is occupied") {
		t.Errorf("the refusal is not on the screen:\n%s", text)
	}

	// Resign asks first: n keeps playing, y resigns.
	press(s, "\x12")
	if s.dialog == nil || !strings.Contains(drawScreen(t, s, 80, 24), "Resign this game?") {
		t.Fatal("^R asked nothing")
	}
	press(s, "n")
	press(s, "\x12y")
	if got := g.played(9); got != "resign" {
		t.Errorf("^R n, ^R y sent %q, want one resignation", got)
	}

	// Chat: letters and Enter go to the chat line, not to the board.
	g.clear()
	press(s, "\td4 hello\n\x1b")
	if got := g.played(9); got != "chat d4 hello" {
		t.Errorf("chat sent %q", got)
	}
	press(s, "c3\n")
	if got := g.played(9); got != "chat d4 hello; play C3" {
		t.Errorf("after Esc the board plays again: %q", got)
	}
}

// TestUID9HelpFromKeyTables checks that the help screen shows the key
// tables that handle the keys.
func TestUID9HelpFromKeyTables(t *testing.T) {
	g := &fakeGame{view: goView(t, 9)}
	s := g.screen(t)
	press(s, "?")
	if s.dialog == nil {
		t.Fatal("? opened no help")
	}
	text := drawScreen(t, s, 120, 60)
	board, play, review := s.Keys()
	for _, table := range []KeyTable{board, play, review} {
		if err := table.Check(); err != nil {
			t.Error(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(table.Help()), "\n") {
			if !strings.Contains(text, strings.TrimSpace(line)) {
				t.Errorf("help lacks %q:\n%s", line, text)
			}
		}
	}
	press(s, "\x1b")
	if s.dialog != nil {
		t.Error("Esc did not close the help")
	}
}

// TestGO4ScoringScreen checks the scoring of plain Go on the screen: Enter
// marks a whole chain dead, the count follows, ^D proposes the marking, ^A
// accepts the opponent's, ^P resumes play.
func TestGO4ScoringScreen(t *testing.T) {
	moves := []string{"C3", "G7", "D3", "G6", "E3", "G5", "pass", "pass"}
	v := goView(t, 9, moves...)
	g := &fakeGame{view: v}
	s := g.screen(t)
	gv := v.Variant.(gorules.View)
	b := gv.Game.Board()
	press(s, "g7\n")
	dead := engine.MarkingOf(b, []engine.Point{vtx(t, 9, "G7")})
	if got, want := s.Model().Local.Dead, dead.Dead(b); engine.FormatVertices(9, got) != engine.FormatVertices(9, want) {
		t.Fatalf("marked %v, want the chain %v", engine.FormatVertices(9, got), engine.FormatVertices(9, want))
	}
	for _, p := range dead.Dead(b) {
		if !s.Board().Model().At(p).Has(MarkHighlight) {
			t.Errorf("%s marked dead is not highlighted", p.Vertex(9))
		}
	}
	sc := gv.Game.Score(dead)
	text := strings.Join(strings.Fields(drawScreen(t, s, 100, 30)), " ")
	for _, want := range []string{
		fmt.Sprintf("Black %s: %d stones, %d territory", formatPoints(sc.Black), sc.BlackStones, sc.BlackTerritory),
		fmt.Sprintf("White %s: %d stones, %d territory, komi 7.5", formatPoints(sc.White), sc.WhiteStones, sc.WhiteTerritory),
		"Count → " + sc.Result().String(),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("screen lacks %q:\n%s", want, text)
		}
	}
	// The territory the marking gives: the dead chain's points are
	// Black's, and drawn so; Black's stones are stones, not territory.
	bm := s.Board().Model()
	territory := 0
	for p := engine.Point(0); bm.OnBoard(p); p++ {
		pm := bm.At(p)
		switch {
		case sc.Owner[p] == engine.Black && b.At(p) == engine.Empty && !pm.Has(MarkTerritoryBlack):
			t.Errorf("%s is Black's territory and not marked so", p.Vertex(9))
		case pm.Has(MarkTerritoryBlack) && sc.Owner[p] != engine.Black:
			t.Errorf("%s is marked Black's territory; the count gives it to %v", p.Vertex(9), sc.Owner[p])
		case pm.Has(MarkTerritoryBlack) && b.At(p) == engine.Black:
			t.Errorf("%s, a living black stone, is marked territory", p.Vertex(9))
		case pm.Has(MarkTerritoryBlack):
			territory++
		}
	}
	if territory != sc.BlackTerritory {
		t.Errorf("%d points marked Black's territory, the count has %d", territory, sc.BlackTerritory)
	}
	press(s, "\x04")
	if got := g.played(9); got != "mark G5,G6,G7" {
		t.Errorf("^D sent %q", got)
	}

	// The opponent's proposal: ^A accepts it.
	g.clear()
	v.Variant = gorules.View{Game: gv.Game, Scoring: true, HasProposal: true, Proposer: protocol.Invitee,
		Proposal: []engine.Point{vtx(t, 9, "G5"), vtx(t, 9, "G6"), vtx(t, 9, "G7")}}
	v.Kinds = []protocol.Kind{protocol.KindAgree, protocol.KindMark, protocol.KindMove}
	g.set(s, v)
	press(s, "\x01")
	if got := g.played(9); got != "agree" {
		t.Errorf("^A sent %q", got)
	}
	// ^P resumes: the next point is played, not marked.
	g.clear()
	press(s, "\x10h8\n")
	if got := g.played(9); got != "play H8" {
		t.Errorf("^P then h8 sent %q", got)
	}
}

// TestBG3BridgeHighlights checks that the winning chain of the recorded
// Bridge Go game is highlighted at the end, and the captures of a move
// until the next.
func TestBG3BridgeHighlights(t *testing.T) {
	s, g := newRecordScreen(t, "bridge", protocol.Inviter)
	var captured []engine.Point
	g.until(t, s, func() bool {
		for _, e := range g.steps[g.at-1].events {
			if mv, ok := e.(bridgerules.EventMoved); ok && len(mv.Result.Captured) > 0 {
				captured = mv.Result.Captured
				return true
			}
		}
		return false
	})
	for _, p := range captured {
		if !s.Board().Model().At(p).Has(MarkHighlight) {
			t.Errorf("captured %s not highlighted", p.Vertex(5))
		}
	}
	for g.next(s) {
	}
	bv := s.Model().View.Variant.(bridgerules.View)
	if len(bv.WinningChain) == 0 {
		t.Fatal("the record has no winning chain")
	}
	for _, p := range bv.WinningChain {
		if !s.Board().Model().At(p).Has(MarkHighlight) {
			t.Errorf("winning chain stone %s not highlighted", p.Vertex(5))
		}
	}
}
