package gtp_test

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/bridge"
)

func bridgeOpts(size int) engine.Options {
	return engine.Options{Variant: engine.VariantBridge, Size: size}
}

// bridgeCorner is a 5×5 sequence after which White's chain A2 B2 B1 has
// only A1 left, a liberty that reaches the south and west sides only, and
// Black is about to take its last external liberty at C1:
//
//	3 X X . .
//	2 O O X .
//	1 . O . .
//	  A B C D
var bridgeCorner = []string{"play w A2", "play w B2", "play w B1", "play b A3", "play b B3", "play b C2"}

func TestGTPBridgeBG3CaptureAndWin(t *testing.T) {
	tests := []scriptTest{
		{"BG-3 a chain without external liberty is captured", bridgeOpts(5),
			append(append([]string{}, bridgeCorner...), "is_legal b C1", "play b C1", "captures black", "captures white", "list_stones white", "list_stones black"),
			[]string{"=", "=", "=", "=", "=", "=", "=1", "=", "=3", "=0", "=", "=C1 C2 A3 B3"}},
		{"BG-3 a bridge wins, and the game is over", bridgeOpts(5),
			[]string{"play b C1", "play w A1", "play b C2", "play w A2", "play b C3", "play w A3", "play b C4", "kakure-winner", "final_score",
				"play w A4", "play b C5", "kakure-winner", "final_score", "play w A5", "genmove w", "is_legal w A5", "all_legal w", "play w pass"},
			[]string{"=", "=", "=", "=", "=", "=", "=", "=none", "?cannot score",
				"=", "=", "=black", "=B+", "?illegal move", "?game over", "=0", "=", "?illegal move"}},
		{"BG-3 white bridges east to west", bridgeOpts(5),
			[]string{"play w A3", "play w B3", "play w C3", "play w D3", "play w E3", "kakure-winner", "final_score"},
			[]string{"=", "=", "=", "=", "=", "=white", "=W+"}},
	}
	runScriptTests(t, tests)
}

func TestGTPBridgeBG1BG4PassesAndSuperko(t *testing.T) {
	tests := []scriptTest{
		{"BG-1 two passes draw", bridgeOpts(7),
			[]string{"play b D4", "play w pass", "play b pass", "kakure-winner", "final_score", "play w E5", "genmove b", "undo", "play w E5", "kakure-winner", "final_score"},
			[]string{"=", "=", "=", "=none", "=0", "?illegal move", "?game over", "=", "=", "=none", "?cannot score"}},
		{"BG-1 a move between passes keeps the game going", bridgeOpts(7),
			[]string{"play b pass", "play w D4", "play b pass", "kakure-winner", "final_score"},
			[]string{"=", "=", "=", "=none", "?cannot score"}},
		{"BG-4 a self-capture that repeats the position is refused", bridgeOpts(5),
			append(append([]string{}, bridgeCorner...), "play b C1", "play w A2", "play w B2", "is_legal w B1", "play w B1", "is_legal b A1", "play b A1", "list_stones white"),
			[]string{"=", "=", "=", "=", "=", "=", "=", "=", "=", "=0", "?illegal move", "=0", "?illegal move", "=A2 B2"}},
	}
	runScriptTests(t, tests)
}

func TestGTPBridgeD3Undo(t *testing.T) {
	tests := []scriptTest{
		{"GTP-BG-D3 undo takes back a win and a capture", bridgeOpts(5),
			append(append([]string{}, bridgeCorner...), "play b C1", "play b C3", "play b C4", "play b C5", "kakure-winner",
				"undo", "kakure-winner", "undo", "undo", "undo", "captures black", "list_stones white", "undo", "undo", "undo", "undo", "undo", "undo", "undo", "undo"),
			[]string{"=", "=", "=", "=", "=", "=", "=", "=", "=", "=", "=black",
				"=", "=none", "=", "=", "=", "=0", "=B1 A2 B2", "=", "=", "=", "=", "=", "=", "?cannot undo", "?cannot undo"}},
		{"GTP-BG-D3 clear_board empties the undo list", bridgeOpts(5),
			[]string{"play b C3", "clear_board", "undo", "list_stones black"},
			[]string{"=", "=", "?cannot undo", "="}},
		{"GTP-BG-D4 komi is accepted and plays no part", bridgeOpts(5),
			[]string{"komi 6.5", "play b pass", "play w pass", "final_score"},
			[]string{"=", "=", "=", "=0"}},
		{"bad arguments", bridgeOpts(5),
			[]string{"play x C3", "play b Z9", "kakure-winner b", "genmove", "boardsize 4", "boardsize 19", "known_command kakure-winner", "known_command kakure-turn"},
			[]string{"?invalid color", "?invalid coordinate", "?syntax error", "?syntax error", "?unacceptable size", "=", "=true", "=false"}},
	}
	runScriptTests(t, tests)
}

// TestGTPBridgeGenmoveLegal has genmove play whole games and replays its
// moves on the engine: every move must be legal, the same script gives
// the same moves, and once the game is over genmove says so.
func TestGTPBridgeGenmoveLegal(t *testing.T) {
	o := bridgeOpts(5)
	var script []string
	for i := 0; i < 40; i++ {
		script = append(script, "genmove b", "genmove w")
	}
	got := session(t, o, strings.Join(script, "\n"))
	if again := session(t, o, strings.Join(script, "\n")); strings.Join(again, "|") != strings.Join(got, "|") {
		t.Errorf("genmove is not reproducible:\n%q\n%q", got, again)
	}
	g, err := bridge.NewGame(o)
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
		p, err := engine.ParseVertex(5, a[1:])
		if err != nil {
			t.Fatalf("genmove %d answered %q: %v", i, a, err)
		}
		c := engine.Black
		if i%2 == 1 {
			c = engine.White
		}
		if p == engine.Pass && len(g.LegalPoints(c)) > 0 {
			t.Errorf("genmove %d passed with legal points left", i)
		}
		if g, _, err = g.Play(c, p); err != nil {
			t.Fatalf("genmove %d answered illegal %q: %v", i, a, err)
		}
	}
	if !g.Over() {
		t.Errorf("80 random moves on 5×5 and no result")
	}
}
