package ui

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// TestUNDOD3UndoWordsNameThePoints (UI-D36, issue 34 items 1 and 12): the
// undo dialog and the log name the points of the moves a request takes
// back, the move and the answer when there are two (UNDO-D3); y accepts;
// the take-back says who plays next; a request that lapsed under the
// opponent's move says so and that ^K asks for both; a long message wraps
// under the board instead of being cut at 80 columns.
func TestUNDOD3UndoWordsNameThePoints(t *testing.T) {
	g := &fakeGame{view: goView(t, 9)}
	s := g.screen(t)
	moves := []struct {
		c engine.Color
		v string
	}{{engine.Black, "C3"}, {engine.White, "D4"}, {engine.Black, "E5"}}
	var played []string
	for _, mv := range moves {
		played = append(played, mv.v)
		v := goView(t, 9, played...)
		g.view = v
		s.Apply(protocol.EventMoved{Color: mv.c, Point: vtx(t, 9, mv.v)}, v)
	}
	white := g.view.Role.Other()
	s.Apply(protocol.EventUndoRequested{By: white, Move: 2, Moves: 2}, g.view)
	text := drawScreen(t, s, 80, 24)
	for _, want := range []string{"asks to take back", "moves 2 and 3 (White D4, Black E5)", "its move and your answer", "y lets both be taken back"} {
		if !loosely(text, want) {
			t.Errorf("the undo dialog does not say %q:\n%s", want, text)
		}
	}
	press(s, "y")
	if got := g.played(9); got != "answerundo" {
		t.Errorf("y sent %q, want the acceptance", got)
	}
	g.clear()
	v := goView(t, 9, "C3")
	g.view = v
	s.Apply(protocol.EventUndone{By: white, Move: 2, Moves: 2}, v)
	log := strings.Join(s.Model().Log, "\n")
	if want := "Moves 2 and 3 (White D4, Black E5) are taken back: White to play."; !strings.Contains(log, want) {
		t.Errorf("the log does not say %q:\n%s", want, log)
	}
	if want := "White asks to take back moves 2 and 3 (White D4, Black E5), the move and the answer."; !strings.Contains(log, want) {
		t.Errorf("the log does not say %q:\n%s", want, log)
	}
	// White plays D4 again, Black E5 and asks at once; White moves first.
	for _, mv := range []struct {
		c engine.Color
		v string
	}{{engine.White, "D4"}, {engine.Black, "E5"}} {
		played := append([]string{"C3"}, "D4")
		if mv.v == "E5" {
			played = append(played, "E5")
		}
		v := goView(t, 9, played...)
		g.view = v
		s.Apply(protocol.EventMoved{Color: mv.c, Point: vtx(t, 9, mv.v)}, v)
	}
	s.Apply(protocol.EventUndoRequested{By: g.view.Role, Move: 3, Moves: 1}, g.view)
	if want := "Black asks to take back move 3 (Black E5)."; !strings.Contains(strings.Join(s.Model().Log, "\n"), want) {
		t.Errorf("the log does not say %q:\n%s", want, strings.Join(s.Model().Log, "\n"))
	}
	v = goView(t, 9, "C3", "D4", "E5", "F6")
	g.view = v
	s.Apply(protocol.EventMoved{Color: engine.White, Point: vtx(t, 9, "F6")}, v)
	s.Apply(protocol.EventUndoDeclined{By: g.view.Role}, v)
	if want := "White moved before answering: your request lapsed. ^K asks to take back your move and the answer."; !strings.Contains(strings.Join(s.Model().Log, "\n"), want) {
		t.Errorf("the log does not say %q:\n%s", want, strings.Join(s.Model().Log, "\n"))
	}
	s.Model().Message = "you may take back only your last move and the answer to it, and not while a request waits for its answer"
	s.render()
	if text := drawScreen(t, s, 80, 24); !loosely(text, s.Model().Message) {
		t.Errorf("a long message is cut at 80 columns:\n%s", text)
	}
}

// TestUID45ChatNamesThePlayer (issue 34 item 12): the chat shows the
// opponent's name beside its short peer ID, not its colour; the player's
// own lines are "you".
func TestUID45ChatNamesThePlayer(t *testing.T) {
	v := goView(t, 9)
	v.Names[v.Role.Other()] = "Alice"
	v.Chat = []protocol.ChatLine{{From: v.Role.Other(), Text: "good luck"}, {From: v.Role, Text: "you too"}}
	g := &fakeGame{view: v}
	s := g.screen(t)
	text := drawScreen(t, s, 100, 30)
	want := "Alice (" + ShortPeer(g.Peer().String()) + "): good luck"
	if !loosely(text, want) || !loosely(text, "you: you too") {
		t.Errorf("the chat does not show %q and the player's own line:\n%s", want, text)
	}
	if loosely(text, "White: good luck") {
		t.Errorf("the chat names the opponent by colour:\n%s", text)
	}
}
