package gtp_test

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
)

func gomokuOpts(size int) engine.Options {
	return engine.Options{Variant: engine.VariantGomoku, Size: size}
}

func TestGTPGomokuGM2Opening(t *testing.T) {
	tests := []scriptTest{
		{"GM-2 the opening piece is an x", gomokuOpts(9),
			[]string{"play o E5", "genmove o", "is_legal o E5", "all_legal o", "is_legal x pass", "play x pass", "play x E5", "list_stones x", "list_stones o"},
			[]string{"?illegal move", "?the opening piece is an x", "=0", "=", "=0", "?illegal move", "=", "=E5", "="}},
		{"GTP-GM-D1 black means x and white o", gomokuOpts(9),
			[]string{"play black E5", "play w D4", "play B C3", "list_stones X", "list_stones white", "list_stones b"},
			[]string{"=", "=", "=", "=C3 E5", "=D4", "=C3 E5"}},
	}
	runScriptTests(t, tests)
	t.Run("GM-2 genmove places the opening piece for x", func(t *testing.T) {
		got := session(t, gomokuOpts(7), "all_legal x\ngenmove x\nall_legal x\nlist_stones x\nall_legal o")
		v := strings.TrimPrefix(got[1], "=")
		want := []string{"=" + phantomAllBut(7, ""), "=" + v, "=" + phantomAllBut(7, v), "=" + v, "=" + phantomAllBut(7, v)}
		if len(v) < 2 || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("answers\n got %q\nwant %q", got, want)
		}
	})
}

func TestGTPGomokuGM4Placement(t *testing.T) {
	tests := []scriptTest{
		{"GM-4 nobody places on the revealed opening piece", gomokuOpts(9),
			[]string{"play x E5", "is_legal o E5", "play o E5", "play x E5", "all_legal o"},
			[]string{"=", "=0", "?illegal move", "?illegal move", "=" + phantomAllBut(9, "E5")}},
		{"GM-4 a piece may stand on a hidden opponent piece, not on an own one", gomokuOpts(9),
			[]string{"play x E5", "play o D4", "is_legal x D4", "play x D4", "is_legal o D4", "play o D4", "list_stones x", "list_stones o", "showboard"},
			[]string{"=", "=", "=1", "=", "=0", "?illegal move", "=D4 E5", "=D4",
				"=\n 9  . . . . . . . . .\n 8  . . . . . . . . .\n 7  . . . . . . . . .\n 6  . . . . . . . . .\n 5  . . . . X . . . .\n" +
					" 4  . . . * . . . . .\n 3  . . . . . . . . .\n 2  . . . . . . . . .\n 1  . . . . . . . . .\n    A B C D E F G H J"}},
	}
	runScriptTests(t, tests)
}

func TestGTPGomokuGM6Win(t *testing.T) {
	nine := []string{"play x A1"}
	for _, v := range []string{"B1", "C1", "D1", "E1", "F1", "G1", "H1"} {
		nine = append(nine, "play x "+v)
	}
	tests := []scriptTest{
		{"GM-6 eight in a row is one line, nine are two", gomokuOpts(9),
			append(append([]string{}, nine...), "kakure-winner", "play x J1", "kakure-winner", "play o A5", "genmove o", "is_legal o A5", "all_legal o"),
			[]string{"=", "=", "=", "=", "=", "=", "=", "=", "=none", "=", "=x", "?illegal move", "?game over", "=0", "="}},
		{"GM-6 two crossing fives win for o", gomokuOpts(9),
			[]string{"play x J9", "play o A5", "play o B5", "play o D5", "play o E5", "play o C5", "play o C3", "play o C4", "play o C6", "kakure-winner", "play o C7", "kakure-winner"},
			[]string{"=", "=", "=", "=", "=", "=", "=", "=", "=", "=none", "=", "=o"}},
	}
	runScriptTests(t, tests)
}

func TestGTPGomokuGM7Passes(t *testing.T) {
	tests := []scriptTest{
		{"GM-7 two passes in a row draw", gomokuOpts(7),
			[]string{"play x D4", "play o pass", "play x C3", "play o pass", "kakure-winner", "play x pass", "kakure-winner", "play o C3", "genmove x", "all_legal x", "is_legal x pass"},
			[]string{"=", "=", "=", "=", "=none", "=", "=none", "?illegal move", "?game over", "=", "=0"}},
	}
	runScriptTests(t, tests)
}

func TestGTPGomokuD4Undo(t *testing.T) {
	tests := []scriptTest{
		{"GTP-GM-D4 undo takes back a win and the opening", gomokuOpts(9),
			[]string{"play x A1", "play x B1", "play x C1", "play x D1", "play x E1", "play x F1", "play x G1", "play x H1", "play x J1", "kakure-winner",
				"undo", "kakure-winner", "play o J1", "list_stones o",
				"undo", "undo", "undo", "undo", "undo", "undo", "undo", "undo", "list_stones x", "undo", "undo", "list_stones x", "play o E5"},
			[]string{"=", "=", "=", "=", "=", "=", "=", "=", "=", "=x",
				"=", "=none", "=", "=J1",
				"=", "=", "=", "=", "=", "=", "=", "=", "=A1", "=", "?cannot undo", "=", "?illegal move"}},
		{"bad arguments", gomokuOpts(9),
			[]string{"play red E5", "play x Z9", "play x", "kakure-winner x", "captures x", "final_score", "boardsize 5", "boardsize 19", "known_command kakure-winner", "known_command kakure-turn"},
			[]string{"?invalid color", "?invalid coordinate", "?syntax error", "?syntax error", "?unknown command", "?unknown command", "?unacceptable size", "=", "=true", "=false"}},
	}
	runScriptTests(t, tests)
}

// TestGTPGomokuGenmoveLegal has genmove play whole games and replays its
// moves on the engine: every move must be legal, the same script gives
// the same moves, and once the game is over genmove says so.
func TestGTPGomokuGenmoveLegal(t *testing.T) {
	o := gomokuOpts(7)
	script := []string{"genmove x"}
	for i := 0; i < 60; i++ {
		script = append(script, "genmove o", "genmove x")
	}
	got := session(t, o, strings.Join(script, "\n"))
	if again := session(t, o, strings.Join(script, "\n")); strings.Join(again, "|") != strings.Join(got, "|") {
		t.Errorf("genmove is not reproducible:\n%q\n%q", got, again)
	}
	g, err := gomoku.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range got {
		if g.Over() {
			if a != "?game over" {
				t.Errorf("genmove %d after the end answered %q", i, a)
			}
			continue
		}
		if a[0] != '=' {
			t.Fatalf("genmove %d failed: %q", i, a)
		}
		p, err := engine.ParseVertex(7, a[1:])
		if err != nil {
			t.Fatalf("genmove %d answered %q: %v", i, a, err)
		}
		c := gomoku.X
		if i%2 == 1 {
			c = gomoku.O
		}
		if p == engine.Pass {
			t.Errorf("genmove %d passed while %s has legal points %v", i, gomoku.PieceName(c), g.LegalPoints(c))
		}
		if g, err = g.Play(c, p); err != nil {
			t.Fatalf("genmove %d answered illegal %q: %v", i, a, err)
		}
	}
	if !g.Over() {
		t.Errorf("120 random moves on 7×7 and no result")
	}
}
