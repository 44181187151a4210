package gtp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/fgo"
	"github.com/kakure/kakure/gtp"
)

func fgoOpts(size int, suicide engine.SuicideRule) engine.Options {
	return engine.Options{Variant: engine.VariantFGo, Size: size, Suicide: suicide}
}

func TestGTPFGoFG1FG2Choices(t *testing.T) {
	o := fgoOpts(7, "")
	tests := []scriptTest{
		{"FG-1 the turn is played when both have chosen", o,
			[]string{"play b D4", "list_stones b", "play w E5", "list_stones b", "list_stones w"},
			[]string{"=", "=", "=", "=D4", "=E5"}},
		{"FG-1 an occupied point is no choice", o,
			[]string{"kakure-turn D4 pass", "kakure-turn pass D4", "is_legal w D4", "play w D4", "kakure-turn D4 E5"},
			[]string{"=played removed=-", "?illegal color=white reason=occupied", "=0", "?illegal move", "?illegal color=black reason=occupied"}},
		{"FG-2 a collision plays nothing and marks the point", o,
			[]string{"play b D4", "play w D4", "list_stones b", "kakure-unavailable", "is_legal b D4", "is_legal w D4", "play b D4",
				"kakure-turn D4 E5", "kakure-turn E5 E5", "kakure-unavailable", "all_legal b"},
			[]string{"=", "=", "=", "=points=D4", "=0", "=0", "?illegal move",
				"?illegal color=black reason=unavailable", "=collision", "=points=D4,E5", "=" + phantomAllBut(7, "D4 E5")}},
		{"FG-2 marks are cleared by a turn that plays a stone", o,
			[]string{"kakure-turn D4 D4", "kakure-turn pass pass", "kakure-unavailable", "kakure-turn pass C3", "kakure-unavailable", "is_legal b D4"},
			[]string{"=collision", "=played removed=-", "=points=D4", "=played removed=-", "=points=-", "=1"}},
	}
	runScriptTests(t, tests)
}

func TestGTPFGoFG3FG4Turns(t *testing.T) {
	o := fgoOpts(5, "")
	tests := []scriptTest{
		{"FG-3 a capture", o,
			[]string{"kakure-turn B1 A1", "kakure-turn A2 pass", "captures black", "list_stones w"},
			[]string{"=played removed=-", "=played removed=A1", "=1", "="}},
		{"FG-3 both stones of a turn capture", o,
			[]string{"kakure-turn A2 A1", "kakure-turn E5 D5", "kakure-turn B1 E4", "captures black", "captures white", "list_stones b", "list_stones w"},
			[]string{"=played removed=-", "=played removed=-", "=played removed=A1,E5", "=1", "=1", "=B1 A2", "=E4 D5"}},
		{"FG-3 step 3 removes a stone without liberty (FG-5 nz)", o,
			[]string{"kakure-turn pass A2", "kakure-turn pass B1", "kakure-turn A1 E5", "captures white", "list_stones b"},
			[]string{"=played removed=-", "=played removed=-", "=played removed=A1", "=1", "="}},
		{"FG-4 two stones that kill each other repeat the position: void", o,
			[]string{"kakure-turn C1 A2", "kakure-turn B2 pass", "kakure-turn A1 B1", "kakure-unavailable", "list_stones b", "list_stones w", "is_legal b A1", "is_legal w B1"},
			[]string{"=played removed=-", "=played removed=-", "=superko", "=points=A1,B1", "=C1 B2", "=A2", "=0", "=0"}},
		{"FG-4 a lone suicide repeats the position: void", o,
			[]string{"kakure-turn B1 pass", "kakure-turn A2 pass", "kakure-turn pass A1", "kakure-unavailable", "list_stones w"},
			[]string{"=played removed=-", "=played removed=-", "=superko", "=points=A1", "="}},
		{"FG-5 forbid refuses a suicide choice", fgoOpts(5, engine.SuicideForbid),
			[]string{"kakure-turn B1 pass", "kakure-turn A2 pass", "is_legal w A1", "kakure-turn pass A1", "play w A1", "is_legal b A1", "kakure-turn A1 pass"},
			[]string{"=played removed=-", "=played removed=-", "=0", "?illegal color=white reason=suicide", "?illegal move", "=1", "=played removed=-"}},
		{"FG-6 two passes end play, a turn resumes it", fgoOpts(5, ""),
			[]string{"kakure-turn C3 pass", "kakure-turn pass pass", "final_score", "komi 5.5", "final_score", "kakure-turn pass C4", "list_stones w"},
			[]string{"=played removed=-", "=played removed=-", "=B+25", "=", "=B+19.5", "=played removed=-", "=C4"}},
	}
	runScriptTests(t, tests)
}

func TestGTPFGoD1D3Turns(t *testing.T) {
	o := fgoOpts(7, "")
	tests := []scriptTest{
		{"GTP-FG-D1 the same colour twice: the other passed in between", o,
			[]string{"play b D4", "play b E5", "list_stones b", "play w E5", "list_stones b", "list_stones w", "kakure-unavailable"},
			[]string{"=", "=", "=D4", "=", "=D4", "=", "=points=E5"}},
		{"GTP-FG-D1 is_legal and all_legal after a choice of the same colour", o,
			[]string{"play b C3", "is_legal b C3", "is_legal w C3", "all_legal b", "list_stones b"},
			[]string{"=", "=0", "=1", "=" + phantomAllBut(7, "C3"), "="}},
		{"GTP-FG-D1 an illegal choice changes nothing", o,
			[]string{"play b D4", "play w E5", "play b C3", "play b E5", "play w C3", "list_stones b", "list_stones w", "kakure-unavailable"},
			[]string{"=", "=", "=", "?illegal move", "=", "=D4", "=E5", "=points=C3"}},
		{"GTP-FG-D3 kakure-turn after a waiting choice", o,
			[]string{"play w C3", "kakure-turn D5 pass", "list_stones b", "list_stones w"},
			[]string{"=", "=played removed=-", "=D5", "=C3"}},
		{"GTP-FG-D3 a refused kakure-turn does not play the waiting choice", o,
			[]string{"play b C3", "kakure-turn C3 D4", "list_stones b", "play w C3", "kakure-unavailable"},
			[]string{"=", "?illegal color=black reason=occupied", "=", "=", "=points=C3"}},
	}
	runScriptTests(t, tests)
}

func TestGTPFGoD4Undo(t *testing.T) {
	o := fgoOpts(7, "")
	tests := []scriptTest{
		{"GTP-FG-D4 undo takes back one command: a turn, then a choice", o,
			[]string{"play b D4", "play w E5", "undo", "list_stones b", "play w D4", "kakure-unavailable", "undo", "undo", "play w D4", "list_stones w", "undo", "undo", "undo"},
			[]string{"=", "=", "=", "=", "=", "=points=D4", "=", "=", "=", "=", "=", "?cannot undo", "?cannot undo"}},
		{"GTP-FG-D4 undo of kakure-turn gives the marks back", o,
			[]string{"kakure-turn D4 D4", "kakure-turn C3 E5", "kakure-unavailable", "undo", "kakure-unavailable", "list_stones b", "clear_board", "undo", "kakure-unavailable"},
			[]string{"=collision", "=played removed=-", "=points=-", "=", "=points=D4", "=", "=", "?cannot undo", "=points=-"}},
		{"bad arguments", o,
			[]string{"kakure-turn D4", "kakure-turn D4 Z9", "kakure-turn x D4", "kakure-unavailable D4", "play x D4", "boardsize 4", "known_command kakure-turn", "known_command kakure-winner"},
			[]string{"?syntax error", "?invalid coordinate", "?invalid coordinate", "?syntax error", "?invalid color", "?unacceptable size", "=true", "=false"}},
	}
	runScriptTests(t, tests)
}

// TestGTPFGoGenmoveLegal has genmove choose for both colours, turn after
// turn, and replays the turns on the engine: every choice must be legal
// and the same script gives the same choices. The two colours must not
// collide at every turn.
func TestGTPFGoGenmoveLegal(t *testing.T) {
	o := fgoOpts(5, "")
	var script []string
	for i := 0; i < 40; i++ {
		script = append(script, "genmove b", "genmove w")
	}
	got := session(t, o, strings.Join(script, "\n"))
	if again := session(t, o, strings.Join(script, "\n")); strings.Join(again, "|") != strings.Join(got, "|") {
		t.Errorf("genmove is not reproducible:\n%q\n%q", got, again)
	}
	g, err := fgo.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	played := 0
	for i := 0; i+1 < len(got); i += 2 {
		var choices [2]engine.Point
		for j, a := range got[i : i+2] {
			if a[0] != '=' {
				t.Fatalf("genmove %d failed: %q", i+j, a)
			}
			if choices[j], err = engine.ParseVertex(5, a[1:]); err != nil {
				t.Fatalf("genmove %d answered %q: %v", i+j, a, err)
			}
		}
		next, res, err := g.Turn(choices[0], choices[1])
		if err != nil {
			t.Fatalf("turn %d: genmove chose %q, %q: %v", i/2, got[i], got[i+1], err)
		}
		for j, p := range choices {
			if b := g.Board(); p != engine.Pass && isEye(b, p, engine.Color(j+1)) {
				t.Errorf("turn %d: genmove filled its own eye at %s", i/2, p.Vertex(5))
			}
		}
		if res.Kind == fgo.Played && !res.PlayEnded {
			played++
		}
		g = next
	}
	if played < 10 {
		t.Errorf("only %d of 40 turns played a stone", played)
	}
}

// FuzzGTPFGoBridgeGomokuSessions drives the F-Go, Bridge Go and gomoku
// handlers with random command sequences: every command gets exactly one
// well-formed answer, and undoing every accepted move gives back the empty
// board (and, in F-Go, no mark and no waiting choice).
func FuzzGTPFGoBridgeGomokuSessions(f *testing.F) {
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b"), uint8(0))
	f.Add([]byte("\x10\x21\x32\x43\x54\x65\x76\x87\x98\xa9\xba\xcb\xdc\xed\xfe"), uint8(1))
	f.Add([]byte("\x05\x15\x25\x35\x45\x55\x65\x75\x85\x95\xa5\xb5"), uint8(2))
	f.Add([]byte("\x00\x08\x10\x18\x20\x28\x30\x38\x40\x48\x50\x58\x60\x68"), uint8(0))
	f.Add([]byte("\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02\x02"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, variant uint8) {
		if len(data) > 200 {
			data = data[:200]
		}
		size := 5
		o := fgoOpts(size, "")
		colors := []string{"b", "w"}
		switch variant % 3 {
		case 1:
			o = bridgeOpts(size)
		case 2:
			size = 7
			o = gomokuOpts(size)
			colors = []string{"x", "o"}
		}
		srv, err := gtp.NewServer(o)
		if err != nil {
			t.Fatal(err)
		}
		npoints := size*size + 1
		var script []string
		for i, d := range data {
			c := colors[i%2]
			v := engine.Point(int(d>>3) % npoints).Vertex(size)
			if int(d>>3)%npoints == size*size {
				v = "pass"
			}
			switch d & 7 {
			case 0, 1:
				script = append(script, "play "+c+" "+v)
			case 2:
				script = append(script, "genmove "+c)
			case 3:
				script = append(script, "undo")
			case 4:
				script = append(script, "is_legal "+c+" "+v)
			case 5:
				if variant%3 == 0 {
					w := engine.Point(int(d) % npoints).Vertex(size)
					if int(d)%npoints == size*size {
						w = "pass"
					}
					script = append(script, fmt.Sprintf("kakure-turn %s %s", v, w))
				} else {
					script = append(script, "kakure-winner")
				}
			case 6:
				script = append(script, "all_legal "+c, "list_stones "+c)
			case 7:
				script = append(script, "showboard")
				if variant%3 == 0 {
					script = append(script, "kakure-unavailable", "final_score")
				}
			}
		}
		for i := 0; i < len(data)+2; i++ {
			script = append(script, "undo")
		}
		script = append(script, "list_stones "+colors[0], "list_stones "+colors[1])
		if variant%3 == 0 {
			// A waiting choice would be played by a second choice of
			// the same colour.
			script = append(script, "play b pass", "play b pass", "list_stones b", "list_stones w", "kakure-unavailable")
		}
		var out strings.Builder
		if err := srv.Serve(strings.NewReader(strings.Join(script, "\n")+"\n"), &out); err != nil {
			t.Fatal(err)
		}
		answers := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
		if len(answers) != len(script) {
			t.Fatalf("%d answers to %d commands", len(answers), len(script))
		}
		for i, a := range answers {
			if a == "" || (a[0] != '=' && a[0] != '?') || (strings.Contains(a, "\n") && script[i] != "showboard") {
				t.Fatalf("%s: answer %q", script[i], a)
			}
		}
		want := []string{"=", "="}
		if variant%3 == 0 {
			want = []string{"=", "=", "=", "=", "=", "=", "= points=-"}
		}
		if got := answers[len(answers)-len(want):]; strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("after undoing everything: %q, want %q", got, want)
		}
	})
}
