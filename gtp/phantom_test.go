package gtp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/gtp"
)

// scriptTest is one GTP script and the answers it must get, in the form
// session returns them ("=D4", "?illegal move").
type scriptTest struct {
	name   string
	opts   engine.Options
	script []string
	want   []string
}

func runScriptTests(t *testing.T, tests []scriptTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := session(t, tt.opts, strings.Join(tt.script, "\n"))
			if len(got) != len(tt.want) {
				t.Fatalf("%d answers, want %d:\n got %q\nwant %q", len(got), len(tt.want), got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("%s\n got %q\nwant %q", tt.script[i], got[i], tt.want[i])
				}
			}
		})
	}
}

func phantomOpts(rules engine.PhantomRules, size int) engine.Options {
	return engine.Options{Variant: engine.VariantPhantom, Rules: rules, Size: size}
}

// phantomKo is a 9×9 sequence after which Black's C2 takes the ko at B2
// (PG-4), with White to move:
//
//	3 X O .
//	2 X . X O      (after C2 took B2)
//	1 X X O .
//	  A B C D
var phantomKo = []string{
	"play b A2", "play w C3", "play b B3", "play w C1", "play b B1", "play w D2", "play b H8", "play w B2",
}

func TestGTPPhantomPG2PG4Tries(t *testing.T) {
	common := phantomOpts(engine.RulesCommon, 9)
	tests := []scriptTest{
		{"PG-2 occupied-opponent, same player tries again", common,
			[]string{"play b D4", "kakure-try w D4", "kakure-try w E5", "list_stones white", "list_stones black"},
			[]string{"=", "=illegal reason=occupied-opponent", "=legal captured=- atari-opponent=0 atari-self=0", "=E5", "=D4"}},
		{"PG-2 occupied-own", common,
			[]string{"play b D4", "play w pass", "kakure-try b D4", "kakure-try b D5"},
			[]string{"=", "=", "=illegal reason=occupied-own", "=legal captured=- atari-opponent=0 atari-self=0"}},
		{"PG-2 suicide in the corner", common,
			[]string{"play b B1", "play w pass", "play b A2", "kakure-try w A1", "play w A1", "is_legal w A1", "is_legal b A1"},
			[]string{"=", "=", "=", "=illegal reason=suicide", "?illegal move", "=0", "=1"}},
		{"PG-4 ko, and PG-5 atari facts of the capture", common,
			append(append([]string{}, phantomKo...), "kakure-try b C2", "kakure-try w B2", "is_legal w B2", "play w B2", "play w E5", "play b E6", "play w B2", "captures white", "captures black"),
			[]string{"=", "=", "=", "=", "=", "=", "=", "=",
				"=legal captured=B2 atari-opponent=1 atari-self=1", "=illegal reason=ko", "=0", "?illegal move", "=", "=", "=", "=1", "=1"}},
		{"PG-1 a pass is a legal try", common,
			[]string{"kakure-try b pass", "kakure-announce w", "kakure-try w pass", "kakure-announce b"},
			[]string{"=legal captured=- atari-opponent=0 atari-self=0", "=event=pass mover=black", "=legal captured=- atari-opponent=0 atari-self=0", "=event=pass mover=white"}},
		{"bad arguments", common,
			[]string{"kakure-try b", "kakure-try red D4", "kakure-try b Z9", "kakure-try b D10", "kakure-announce", "kakure-announce b", "play b D4 D5"},
			[]string{"?syntax error", "?invalid color", "?invalid coordinate", "?invalid coordinate", "?syntax error", "?no try yet", "?syntax error"}},
	}
	runScriptTests(t, tests)
}

// phantomSnapback sets up the snapback of engine's
// TestPG5PG6PG7PG8Snapback on 9×9 (Black to move; three black stones on
// the top right only pass the turn):
//
//	3 . O O O .
//	2 O X X O X
//	1 O . O . X
//	  A B C D E
var phantomSnapback = []string{
	"play b B2", "play w B3", "play b C2", "play w C3", "play b E2", "play w D3", "play b E1", "play w D2",
	"play b J9", "play w A2", "play b H9", "play w A1", "play b J8", "play w C1",
}

// TestGTPPhantomPG5Snapback: Black's capture at B1 joins B2-C2, which was
// in atari, and leaves it in atari: by PG-5 (capture clause, PG-D2) the
// try's answer and both announcements say atari-self=1.
func TestGTPPhantomPG5Snapback(t *testing.T) {
	script := append(append([]string{}, phantomSnapback...),
		"kakure-try b D1", "kakure-try w G7", "kakure-try b B1", "kakure-announce b", "kakure-announce w", "kakure-try w C1")
	head := make([]string, len(phantomSnapback))
	for i := range head {
		head[i] = "="
	}
	tests := []scriptTest{
		{"PG-5 snapback, common", phantomOpts(engine.RulesCommon, 9), script, append(head[:len(head):len(head)],
			"=legal captured=- atari-opponent=1 atari-self=0",
			"=legal captured=- atari-opponent=0 atari-self=0",
			"=legal captured=C1 atari-opponent=1 atari-self=1",
			"=event=moved mover=black point=B1 capture-count=1 captured=C1 atari-opponent=1 atari-self=1",
			"=event=moved mover=black capture-count=1 captured=C1 atari-opponent=1 atari-self=1",
			"=legal captured=B1,B2,C2 atari-opponent=0 atari-self=0")},
		{"PG-5 snapback, hamburg", phantomOpts(engine.RulesHamburg, 9), script, append(head[:len(head):len(head)],
			"=legal captured=- atari-opponent=1 atari-self=0",
			"=legal captured=- atari-opponent=0 atari-self=0",
			"=legal captured=C1 atari-opponent=1 atari-self=1",
			"=event=moved mover=black point=B1 capture-count=1 atari-opponent=1 atari-self=1",
			"=event=moved mover=black capture-count=1 atari-opponent=1 atari-self=1",
			"=legal captured=B1,B2,C2 atari-opponent=0 atari-self=0")},
	}
	runScriptTests(t, tests)
}

// TestGTPPhantomPG6PG7PG8Announce checks kakure-announce for the same tries
// under each rule set (PG-D1's table): a capture of A1 by B1, then White's
// suicide at A1.
func TestGTPPhantomPG6PG7PG8Announce(t *testing.T) {
	script := []string{"play b B2", "play w A1", "play b A2", "play w G7", "play b B1",
		"kakure-announce b", "kakure-announce w", "kakure-try w A1", "kakure-announce w", "kakure-announce b"}
	head := []string{"=", "=", "=", "=", "="}
	tests := []scriptTest{
		{"PG-6 common", phantomOpts(engine.RulesCommon, 9), script, append(head[:5:5],
			"=event=moved mover=black point=B1 capture-count=1 captured=A1 atari-opponent=0 atari-self=0",
			"=event=moved mover=black capture-count=1 captured=A1 atari-opponent=0 atari-self=0",
			"=illegal reason=suicide",
			"=event=illegal mover=white point=A1 reason=suicide",
			"=event=illegal mover=white")},
		{"PG-7 hamburg", phantomOpts(engine.RulesHamburg, 9), script, append(head[:5:5],
			"=event=moved mover=black point=B1 capture-count=1 atari-opponent=0 atari-self=0",
			"=event=moved mover=black capture-count=1 atari-opponent=0 atari-self=0",
			"=illegal reason=suicide",
			"=event=illegal mover=white point=A1 reason=suicide",
			"=event=illegal mover=white reason=suicide")},
		{"PG-8 kriegspiel", phantomOpts(engine.RulesKriegspiel, 9), script, append(head[:5:5],
			"=event=moved mover=black point=B1 capture-count=1",
			"=event=moved mover=black capture-count=1 captured=A1",
			"=illegal reason=suicide",
			"=event=illegal mover=white point=A1 reason=suicide",
			"=event=illegal mover=white")},
	}
	runScriptTests(t, tests)
}

func TestGTPPhantomD1D2Turns(t *testing.T) {
	common := phantomOpts(engine.RulesCommon, 9)
	tests := []scriptTest{
		{"GTP-PG-D1 white first: black passes before", common,
			[]string{"play w D4", "list_stones white", "kakure-announce b", "play w D5", "list_stones white"},
			[]string{"=", "=D4", "=event=moved mover=white capture-count=0 captured=- atari-opponent=0 atari-self=0", "=", "=D4 D5"}},
		{"GTP-PG-D1 an illegal play makes no pass", common,
			[]string{"play b D4", "play b D4", "kakure-announce w", "undo", "undo"},
			[]string{"=", "?illegal move", "=event=moved mover=black capture-count=0 captured=- atari-opponent=0 atari-self=0", "=", "?cannot undo"}},
		{"GTP-PG-D1 the inserted pass clears the ko", common,
			append(append([]string{}, phantomKo...), "play b C2", "is_legal w B2", "play b H7", "play w B2", "list_stones black"),
			[]string{"=", "=", "=", "=", "=", "=", "=", "=", "=", "=0", "=", "=", "=B1 A2 B3 H7 H8"}},
		{"PG-4 all_legal leaves out the ko and suicide; GTP-PG-D1 the other colour after a pass", common,
			append(append([]string{}, phantomKo...), "play b C2", "all_legal w", "all_legal b"),
			[]string{"=", "=", "=", "=", "=", "=", "=", "=", "=",
				"=" + phantomAllBut(9, "A1 B1 C1 A2 B2 C2 D2 B3 C3 H8"),
				"=" + phantomAllBut(9, "B1 C1 A2 C2 D2 B3 C3 H8")}},
		{"GTP-PG-D2 play resumes after two passes", common,
			[]string{"play b pass", "play w pass", "play w D4", "kakure-announce b", "play b pass", "play b pass", "kakure-announce w"},
			[]string{"=", "=", "=", "=event=moved mover=white capture-count=0 captured=- atari-opponent=0 atari-self=0", "=", "=", "=event=pass mover=black"}},
	}
	runScriptTests(t, tests)
}

// phantomAllBut lists every point of a board of side size in increasing
// order, without the given vertices.
func phantomAllBut(size int, occupied string) string {
	skip := map[string]bool{}
	for _, v := range strings.Fields(occupied) {
		skip[v] = true
	}
	var vs []string
	for i := 0; i < size*size; i++ {
		if v := engine.Point(i).Vertex(size); !skip[v] {
			vs = append(vs, v)
		}
	}
	return strings.Join(vs, " ")
}

func TestGTPPhantomD4Undo(t *testing.T) {
	common := phantomOpts(engine.RulesCommon, 9)
	tests := []scriptTest{
		{"GTP-PG-D4 undo of a capture gives the stone and the announcement back", common,
			[]string{"play b C3", "play w D3", "play b D4", "play w G7", "play b D2", "play w C7", "play b E3",
				"captures black", "undo", "captures black", "list_stones white", "kakure-announce b", "kakure-try b E3", "captures black"},
			[]string{"=", "=", "=", "=", "=", "=", "=", "=1", "=", "=0", "=D3 C7 G7",
				"=event=moved mover=white capture-count=0 captured=- atari-opponent=0 atari-self=0",
				"=legal captured=D3 atari-opponent=0 atari-self=0", "=1"}},
		{"GTP-PG-D4 undo of an illegal try", common,
			[]string{"play b D4", "kakure-try w D4", "kakure-announce b", "undo", "kakure-announce b", "undo", "kakure-announce b", "undo"},
			[]string{"=", "=illegal reason=occupied-opponent", "=event=illegal mover=white", "=",
				"=event=moved mover=black point=D4 capture-count=0 captured=- atari-opponent=0 atari-self=0", "=", "?no try yet", "?cannot undo"}},
		{"GTP-PG-D4 clear_board empties the undo list", common,
			[]string{"play b D4", "clear_board", "undo", "list_stones black", "kakure-announce b"},
			[]string{"=", "=", "?cannot undo", "=", "?no try yet"}},
	}
	runScriptTests(t, tests)
}

func TestGTPPhantomD5GNUGoCommands(t *testing.T) {
	tests := []scriptTest{
		{"GTP-PG-D5 final_score counts the whole board with the current komi", phantomOpts(engine.RulesHamburg, 5),
			[]string{"play b C3", "final_score", "komi 30.5", "final_score", "komi 0", "play w pass", "final_score", "boardsize 7", "final_score"},
			[]string{"=", "=B+17.5", "=", "=W+5.5", "=", "=", "=B+25", "=", "=0"}},
		{"GTP-PG-D5 commands a phantom handler knows", phantomOpts(engine.RulesCommon, 5),
			[]string{"known_command kakure-try", "known_command kakure-announce", "known_command undo", "known_command kakure-reveal"},
			[]string{"=true", "=true", "=true", "=false"}},
		{"GTP-PG-D5 showboard", phantomOpts(engine.RulesCommon, 5),
			[]string{"play b A1", "play w E5", "showboard"},
			[]string{"=", "=", "=\n    A B C D E\n 5  . . . . O  5\n 4  . . . . .  4\n 3  . . . . .  3\n 2  . . . . .  2\n 1  X . . . .  1\n    A B C D E"}},
	}
	runScriptTests(t, tests)
}

// TestGTPPhantomGenmoveLegal has genmove play whole games and replays its
// moves on the engine's referee: every try must be legal. Two sessions
// give the same moves.
func TestGTPPhantomGenmoveLegal(t *testing.T) {
	o := phantomOpts(engine.RulesCommon, 5)
	var script []string
	for i := 0; i < 40; i++ {
		script = append(script, "genmove b", "genmove w")
	}
	got := session(t, o, strings.Join(script, "\n"))
	if again := session(t, o, strings.Join(script, "\n")); strings.Join(again, "|") != strings.Join(got, "|") {
		t.Errorf("genmove is not reproducible:\n%q\n%q", got, again)
	}
	r, err := phantom.NewReferee(o)
	if err != nil {
		t.Fatal(err)
	}
	stones := 0
	for i, a := range got {
		if a[0] != '=' {
			t.Fatalf("genmove %d failed: %q", i, a)
		}
		p, err := engine.ParseVertex(5, a[1:])
		if err != nil {
			t.Fatalf("genmove %d answered %q: %v", i, a, err)
		}
		if r.PlayEnded() {
			r, _ = r.Resume(r.ToMove())
		}
		next, out, err := r.Try(r.ToMove(), p)
		if err != nil || !out.Legal {
			t.Fatalf("genmove %d answered %q, not a legal try: %v %+v", i, a, err, out)
		}
		if p != engine.Pass {
			stones++
			if b := r.Board(); isEye(b, p, r.ToMove()) {
				t.Errorf("genmove %d filled its own eye at %s", i, a[1:])
			}
		}
		r = next
	}
	if stones < 10 {
		t.Errorf("genmove placed only %d stones in 80 moves", stones)
	}
}

// isEye reports whether every neighbour of p holds a stone of c.
func isEye(b engine.Board, p engine.Point, c engine.Color) bool {
	ns, n := b.Neighbors(p)
	for _, q := range ns[:n] {
		if b.At(q) != c {
			return false
		}
	}
	return true
}

// FuzzGTPSessions drives the Phantom Go and Hidden Move Go handlers with
// random command sequences: every command gets exactly one well-formed
// answer, and undoing every move that was accepted gives back the empty
// board.
func FuzzGTPSessions(f *testing.F) {
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b"), false)
	f.Add([]byte("\x10\x21\x32\x43\x54\x65\x76\x87\x98\xa9\xba\xcb\xdc\xed\xfe"), true)
	f.Add([]byte("\x05\x15\x25\x35\x45\x55\x65\x75\x85\x95\xa5\xb5"), true)
	f.Fuzz(func(t *testing.T, data []byte, hmg bool) {
		if len(data) > 200 {
			data = data[:200]
		}
		o := phantomOpts(engine.RulesHamburg, 5)
		if hmg {
			o = engine.Options{Variant: engine.VariantHMG, Size: 5, Cards: 2}
		}
		srv, err := gtp.NewServer(o)
		if err != nil {
			t.Fatal(err)
		}
		var script []string
		if hmg {
			script = append(script, "kakure-cards b C3 C3", "kakure-cards w B2 D4")
		}
		colors := []string{"b", "w"}
		for i, d := range data {
			c := colors[i%2]
			v := engine.Point(int(d>>3) % 26).Vertex(5)
			if int(d>>3)%26 == 25 {
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
				if hmg {
					script = append(script, fmt.Sprintf("kakure-reveal %s %d", c, d>>6))
				} else {
					script = append(script, "kakure-try "+c+" "+v)
				}
			case 6:
				script = append(script, "all_legal "+c, "captures "+c)
			case 7:
				script = append(script, "final_score")
				if !hmg {
					script = append(script, "kakure-announce "+c)
				}
			}
		}
		for i := 0; i < len(data)+2; i++ {
			script = append(script, "undo")
		}
		script = append(script, "list_stones b", "list_stones w")
		var out strings.Builder
		if err := srv.Serve(strings.NewReader(strings.Join(script, "\n")+"\n"), &out); err != nil {
			t.Fatal(err)
		}
		answers := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
		if len(answers) != len(script) {
			t.Fatalf("%d answers to %d commands", len(answers), len(script))
		}
		for i, a := range answers {
			if a == "" || (a[0] != '=' && a[0] != '?') || strings.Contains(a, "\n") {
				t.Fatalf("%s: answer %q", script[i], a)
			}
		}
		if got := answers[len(answers)-2:]; got[0] != "=" || got[1] != "=" {
			t.Errorf("stones left after undoing everything: %q", got)
		}
	})
}
