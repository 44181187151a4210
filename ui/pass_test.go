package ui

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/fgo"
	"github.com/kakure/kakure/protocol"
)

// TestUID38PassAsksFirst (issue 34 item 3): in plain Go a pass in the
// opening (fewer moves than the board's side) and a pass after the
// opponent's, which ends play, ask first: n keeps playing and sends
// nothing, y passes; a pass in the middle game goes at once. F-Go's pass
// choice asks in the opening too. The count says "1 stone".
func TestUID38PassAsksFirst(t *testing.T) {
	for _, c := range []struct {
		name  string
		moves []string
		want  string // in the question; "" for none
	}{
		{"opening", []string{"C3", "D4"}, "Pass after 2 moves? So early a pass gives White a free move, and if White passes too, play ends."},
		// Wider than 80 columns: the whole question shows, wrapped.
		{"ends play", []string{"C3", "D4", "E5", "F6", "G7", "C7", "G3", "B2", "H8", "pass"}, "White passed: your pass ends play and the count begins (dead stones, then the score)."},
		{"middle game", []string{"C3", "D4", "E5", "F6", "G7", "C7", "G3", "B2", "H8", "J9"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := &fakeGame{view: goView(t, 9, c.moves...)}
			s := g.screen(t)
			press(s, "p\n")
			if c.want == "" {
				if s.dialog != nil || g.played(9) != "play pass" {
					t.Fatalf("a pass in the middle game: dialog %v, sent %q", s.dialog != nil, g.played(9))
				}
				return
			}
			if s.dialog == nil || len(g.actions) != 0 {
				t.Fatalf("the pass asked nothing (sent %q)", g.played(9))
			}
			if text := drawScreen(t, s, 80, 24); !loosely(text, c.want) || !loosely(text, "y passes · n or Esc keeps playing") {
				t.Errorf("the question does not say %q:\n%s", c.want, text)
			}
			press(s, "n")
			if s.dialog != nil || len(g.actions) != 0 {
				t.Fatalf("n: dialog %v, sent %q", s.dialog != nil, g.played(9))
			}
			press(s, "p\ny")
			if got := g.played(9); got != "play pass" {
				t.Errorf("y sent %q, want the pass", got)
			}
		})
	}
	t.Run("fgo", func(t *testing.T) {
		game, err := fgo.NewGame(options(t, engine.VariantFGo, 5))
		if err != nil {
			t.Fatal(err)
		}
		g := &fakeGame{view: fgoView(t, game, true, false, false, engine.NoPoint)}
		s := g.screen(t)
		press(s, "p\n")
		if s.dialog == nil {
			t.Fatal("F-Go's pass in the opening asked nothing")
		}
		press(s, "y")
		if !s.Model().Local.HasChoice || s.Model().Local.Choice != engine.Pass {
			t.Errorf("y did not choose the pass: %+v", s.Model().Local)
		}
	})
	t.Run("plural", func(t *testing.T) {
		lines := strings.Join(countLines(engine.Score{Black: 1, BlackStones: 1, White: 9.5, WhiteStones: 2, Komi: 7.5}, engine.VariantGo), "\n")
		if !strings.Contains(lines, "Black 1: 1 stone, 0 territory") || !strings.Contains(lines, "White 9.5: 2 stones") {
			t.Errorf("count lines:\n%s", lines)
		}
	})
}

// TestUID41HMGCountShowsUnusedHiddenMoves (issue 34 item 7): the count of
// Hidden Move Go lists the points each player gets for the opponent's
// unused hidden moves (HMG-7), so that the parts add up to the total: in
// the recorded game White left two cards unused, worth 2 to Black. The
// replay's end shows the agreed count too, as plain Go's does (GO-5).
func TestUID41HMGCountShowsUnusedHiddenMoves(t *testing.T) {
	s, g := newRecordScreen(t, "hmg", protocol.Inviter)
	g.until(t, s, func() bool {
		hv, ok := s.Model().View.Variant.(hmgrules.View)
		return ok && hv.Stage == hmgrules.StageScoring
	})
	if text := drawScreen(t, s, 120, 40); !loosely(text, "for White's unused hidden moves") {
		t.Errorf("the count under way does not list White's unused hidden moves:\n%s", text)
	}
	for g.next(s) {
	}
	_, sc, ok := s.finalCount()
	if !ok {
		t.Fatal("the recorded game did not end by the count")
	}
	lines := countLines(sc, engine.VariantHMG)
	if !strings.Contains(lines[0], ", 2 for White's unused hidden moves") {
		t.Errorf("Black's count does not list White's two unused hidden moves: %q", lines[0])
	}
	if strings.Contains(lines[1], "unused") {
		t.Errorf("White's count lists unused hidden moves Black had none of: %q", lines[1])
	}
	if text := drawScreen(t, s, 120, 40); !loosely(text, lines[0]) {
		t.Errorf("the replay's end does not show %q:\n%s", lines[0], text)
	}
}
