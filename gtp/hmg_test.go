package gtp_test

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/hmg"
)

func hmgOpts(size, cards int) engine.Options {
	return engine.Options{Variant: engine.VariantHMG, Size: size, Cards: cards, CardsSet: true}
}

func TestGTPHMG1Cards(t *testing.T) {
	o := hmgOpts(9, 2)
	tests := []scriptTest{
		{"HMG-1 cards set, replaced, then kept from the first move on", o,
			[]string{"kakure-cards b A1 A1", "kakure-cards b C3 D4", "play b E5", "kakure-cards b A1 A2", "kakure-reveal b 1", "list_stones b"},
			[]string{"=", "=", "=", "?cards are set before the first move", "=revealed captured=- undo=0 restored=-", "=C3 E5"}},
		{"HMG-1 the wrong number of cards", o,
			[]string{"kakure-cards b C3", "kakure-cards w C3 D4 E5", "kakure-cards", "kakure-cards red C3 D4"},
			[]string{"?1 cards given, the game has 2 per player", "?3 cards given, the game has 2 per player", "?syntax error", "?invalid color"}},
		{"HMG-1 a card is a point of the board", o,
			[]string{"kakure-cards b C3 pass", "kakure-cards b C3 K10", "kakure-cards b C3 C3"},
			[]string{"?invalid coordinate", "?invalid coordinate", "="}},
		{"HMG-1 no cards", hmgOpts(9, 0),
			[]string{"kakure-cards b", "kakure-reveal b 1", "final_score"},
			[]string{"=", "?illegal reason=no-such-card", "=W+7.5"}},
		{"GTP-HMG-D2 clear_board forgets the cards", o,
			[]string{"kakure-cards b C3 D4", "clear_board", "kakure-reveal b 1", "kakure-cards b C3 D4", "kakure-reveal b 1"},
			[]string{"=", "=", "?illegal reason=unknown-card", "=", "=revealed captured=- undo=0 restored=-"}},
		{"GTP-HMG-D4 undoing every move allows kakure-cards again", o,
			[]string{"kakure-cards b C3 D4", "play b E5", "undo", "kakure-cards b F6 F6", "kakure-reveal b 2", "list_stones b"},
			[]string{"=", "=", "=", "=", "=revealed captured=- undo=0 restored=-", "=F6"}},
	}
	runScriptTests(t, tests)
}

func TestGTPHMG3Reveal(t *testing.T) {
	o := hmgOpts(9, 3)
	cards := []string{"kakure-cards b E5 D4 J9", "kakure-cards w E5 E6 F5"}
	script := func(cmds ...string) []string { return append(append([]string{}, cards...), cmds...) }
	ok := func(answers ...string) []string { return append([]string{"=", "="}, answers...) }
	tests := []scriptTest{
		{"HMG-3 reveal onto an empty point, the turn goes on", o,
			script("kakure-reveal b 1", "kakure-reveal b 3", "play b A1", "list_stones b"),
			ok("=revealed captured=- undo=0 restored=-", "=revealed captured=- undo=0 restored=-", "=", "=A1 E5 J9")},
		{"HMG-3 a card is revealed once", o,
			script("kakure-reveal b 1", "kakure-reveal b 1"),
			ok("=revealed captured=- undo=0 restored=-", "?illegal reason=revealed")},
		{"HMG-3 case 3 own stone", o,
			script("play b D4", "play w A1", "kakure-reveal b 2"),
			ok("=", "=", "?illegal reason=occupied-own")},
		{"HMG-3 case 1 not the last stone", o,
			script("play b A2", "play w E5", "play b A3", "play w A5", "kakure-reveal b 1"),
			ok("=", "=", "=", "=", "?illegal reason=not-last-stone")},
		{"HMG-3 case 2 the last stone after a reveal", o,
			script("play b A2", "play w D4", "kakure-reveal b 1", "kakure-reveal b 2", "play b pass"),
			ok("=", "=", "=revealed captured=- undo=0 restored=-", "?illegal reason=after-reveal", "=")},
		{"HMG-3 case 4 suicide", o,
			script("play b A1", "play w J8", "play b A2", "play w H9", "kakure-reveal b 3"),
			ok("=", "=", "=", "=", "?illegal reason=suicide")},
		{"HMG-3 card numbers count from 1", o,
			script("kakure-reveal b 0", "kakure-reveal b 4", "kakure-reveal b one", "kakure-reveal b", "kakure-reveal b 1 2"),
			ok("?illegal reason=no-such-card", "?illegal reason=no-such-card", "?syntax error", "?syntax error", "?syntax error")},
		{"HMG-3 a reveal that captures", o,
			script("play b F6", "play w D5", "play b G5", "play w E4", "play b F4", "play w F5", "kakure-reveal b 1", "captures black"),
			ok("=", "=", "=", "=", "=", "=", "=revealed captured=F5 undo=0 restored=-", "=1")},
	}
	runScriptTests(t, tests)
}

func TestGTPHMG5Undo(t *testing.T) {
	o := hmgOpts(9, 2)
	tests := []scriptTest{
		{"HMG-5 a reveal onto the last stone undoes it and restores its captures", o,
			[]string{"kakure-cards b C3 B1", "kakure-cards w A2 E5", "play b B1", "play w A1", "play b A2", "captures b",
				"kakure-reveal w 1", "captures b", "list_stones w", "list_stones b", "play w C1", "kakure-reveal w 2", "list_stones w"},
			[]string{"=", "=", "=", "=", "=", "=1", "=revealed captured=- undo=1 restored=A1", "=0", "=A1 A2", "=B1",
				"=", "=revealed captured=- undo=0 restored=-", "=A1 C1 A2 E5"}},
		{"HMG-5 the undoing stone captures", o,
			[]string{"kakure-cards b A2 A2", "kakure-cards w C5 C5", "play b B1", "play w A1", "play b E5", "play w A2",
				"kakure-reveal b 1", "list_stones w", "captures b", "kakure-reveal b 2"},
			[]string{"=", "=", "=", "=", "=", "=", "=revealed captured=A1 undo=1 restored=-", "=", "=1", "?illegal reason=occupied-own"}},
	}
	runScriptTests(t, tests)
}

func TestGTPHMGD1Turns(t *testing.T) {
	o := hmgOpts(9, 2)
	cards := []string{"kakure-cards b C3 D4", "kakure-cards w D4 E5"}
	tests := []scriptTest{
		{"GTP-HMG-D1 white first: black passes, so white's stone is a last stone", o,
			append(cards, "play w D4", "kakure-reveal b 2", "list_stones w", "list_stones b"),
			[]string{"=", "=", "=", "=revealed captured=- undo=1 restored=-", "=", "=D4"}},
		{"GTP-HMG-D1 playing twice: the passed turn leaves no last stone", o,
			append(cards, "play b D4", "play b F6", "kakure-reveal w 1"),
			[]string{"=", "=", "=", "=", "?illegal reason=not-last-stone"}},
		{"GTP-HMG-D1 a reveal of the colour not to move", o,
			append(cards, "play b A1", "kakure-reveal b 1", "list_stones b", "play w E5", "kakure-reveal w 2"),
			[]string{"=", "=", "=", "=revealed captured=- undo=0 restored=-", "=A1 C3", "=", "?illegal reason=occupied-own"}},
		{"GTP-HMG-D1 an illegal play makes no pass", o,
			append(cards, "play b D4", "play b D4", "undo", "undo"),
			[]string{"=", "=", "=", "?illegal move", "=", "?cannot undo"}},
		{"GTP-HMG-D1 the colour to move revealed into a repeated position and may not pass", hmgOpts(9, 1),
			[]string{"kakure-cards b C2", "kakure-cards w E5", "play b A2", "play w C3", "play b B3", "play w C1", "play b B1", "play w D2",
				"play b C2", "play w B2", "kakure-reveal b 1", "play b pass", "play w E5", "kakure-reveal w 1", "genmove w",
				"is_legal w E5", "all_legal w", "is_legal b E5", "genmove b", "kakure-reveal w 1"},
			[]string{"=", "=", "=", "=", "=", "=", "=", "=", "=", "=", "=revealed captured=B2 undo=0 restored=-", "?illegal move",
				"?illegal move", "?illegal reason=not-your-turn", "?not your turn", "=0", "=", "=1", "=G3", "=revealed captured=- undo=0 restored=-"}},
		{"GTP-HMG-D1 play goes on after two passes", o,
			append(cards, "play b pass", "play w pass", "play w D5", "list_stones w"),
			[]string{"=", "=", "=", "=", "=", "=D5"}},
	}
	runScriptTests(t, tests)
}

func TestGTPHMGD4Undo(t *testing.T) {
	o := hmgOpts(9, 2)
	tests := []scriptTest{
		{"GTP-HMG-D4 one reveal at a time", o,
			[]string{"kakure-cards b C3 D4", "kakure-reveal b 1", "kakure-reveal b 2", "play b pass", "undo", "undo",
				"list_stones b", "kakure-reveal b 2", "undo", "undo", "list_stones b", "undo"},
			[]string{"=", "=revealed captured=- undo=0 restored=-", "=revealed captured=- undo=0 restored=-", "=", "=", "=",
				"=C3", "=revealed captured=- undo=0 restored=-", "=", "=", "=", "?cannot undo"}},
		{"GTP-HMG-D4 undo of an undo", o,
			[]string{"kakure-cards w D4 D4", "play b D4", "kakure-reveal w 1", "undo", "list_stones b", "kakure-reveal w 2", "list_stones w"},
			[]string{"=", "=", "=revealed captured=- undo=1 restored=-", "=", "=D4", "=revealed captured=- undo=1 restored=-", "=D4"}},
	}
	runScriptTests(t, tests)
}

func TestGTPHMGD5GNUGoCommands(t *testing.T) {
	tests := []scriptTest{
		{"HMG-7 final_score adds the passing stones of unused cards", hmgOpts(5, 2),
			[]string{"kakure-cards b C3 C3", "final_score", "kakure-reveal b 1", "play b pass", "final_score", "komi 0.5", "final_score"},
			[]string{"=", "=W+7.5", "=revealed captured=- undo=0 restored=-", "=", "=B+18.5", "=", "=B+25.5"}},
		{"HMG-6 superko in is_legal and all_legal", hmgOpts(5, 0),
			[]string{"play b B1", "play w C1", "play b A2", "play w B2", "play b C2", "play w D1", "play b E5", "play w A1",
				"is_legal b B1", "all_legal b", "play b B1", "play b E4", "play w E3", "is_legal b B1"},
			[]string{"=", "=", "=", "=", "=", "=", "=", "=", "=0", "=" + hmgAllBut(5, "A1 B1 C1 D1 A2 B2 C2 E5"), "?illegal move", "=", "=", "=1"}},
		{"GTP-HMG-D5 commands a hmg handler knows", hmgOpts(5, 2),
			[]string{"known_command kakure-cards", "known_command kakure-reveal", "known_command undo", "known_command kakure-try"},
			[]string{"=true", "=true", "=true", "=false"}},
	}
	runScriptTests(t, tests)
}

func hmgAllBut(size int, vs string) string { return phantomAllBut(size, vs) }

// TestGTPHMGGenmoveLegal has genmove play games, with reveals in between,
// and replays them on the engine.
func TestGTPHMGGenmoveLegal(t *testing.T) {
	o := hmgOpts(5, 2)
	script := []string{"kakure-cards b C3 B4", "kakure-cards w D2 C3"}
	for i := 0; i < 30; i++ {
		script = append(script, "genmove b", "genmove w")
	}
	got := session(t, o, strings.Join(script, "\n"))
	g, err := hmg.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range got[2:] {
		if a[0] != '=' {
			t.Fatalf("genmove %d failed: %q", i, a)
		}
		p, err := engine.ParseVertex(5, a[1:])
		if err != nil {
			t.Fatalf("genmove %d answered %q: %v", i, a, err)
		}
		if g, _, err = g.Play(g.ToMove(), p); err != nil {
			t.Fatalf("genmove %d answered %q, illegal: %v", i, a, err)
		}
	}
	if g.Turns() != 60 {
		t.Errorf("%d turns, want 60", g.Turns())
	}
}
