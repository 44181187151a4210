package gtp_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/gtp"
	"github.com/kakure/kakure/protocol"
)

// fixedPlayer is a fallback that always gives the same action.
type fixedPlayer struct {
	action protocol.Action
	asked  int
}

func (f *fixedPlayer) Choose(protocol.View) protocol.Action { f.asked++; return f.action }

// phantomBlackView plays a Phantom Go 5×5 game (common rules) with a
// referee and returns Black's view when Black has just failed a try at A1,
// a suicide: Black owns C3, C4 and D2; White has A2 and B1, which the
// suicide told Black, and E5, which Black never saw.
func phantomBlackView(t *testing.T) protocol.View {
	t.Helper()
	o := engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon, Komi: 0.5}
	ref, err := phantom.NewReferee(o)
	if err != nil {
		t.Fatal(err)
	}
	black, err := phantom.NewView(o, engine.Black)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"C3", "A2", "C4", "B1", "D2", "E5", "A1"} {
		p, err := engine.ParseVertex(5, v)
		if err != nil {
			t.Fatal(err)
		}
		var out phantom.TryOutcome
		if ref, out, err = ref.Try(ref.ToMove(), p); err != nil {
			t.Fatalf("try %s: %v", v, err)
		}
		if black, err = black.Apply(phantom.Announce(o.Rules, 5, out, engine.Black)); err != nil {
			t.Fatalf("Black's view after %s: %v", v, err)
		}
	}
	if ref.ToMove() != engine.Black {
		t.Fatalf("%v to move, want Black after its failed try", ref.ToMove())
	}
	return protocol.View{Color: engine.Black, Options: o, MyTurn: true,
		Variant: phantomrules.View{Stage: phantomrules.StagePlay, Own: black, MyTry: true}}
}

// engineWithLog starts the answering test engine and returns the file
// where it logs the commands it receives.
func engineWithLog(t *testing.T, answer string) (*gtp.Client, func() []string) {
	t.Helper()
	log := filepath.Join(t.TempDir(), "commands")
	t.Setenv("KAKURE_TEST_ENGINE_LOG", log)
	c := startTestEngine(t, "answer:"+answer)
	return c, func() []string {
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(string(data)), "\n")
	}
}

// TestGTPD1EngineSeesOnlyKnownStones: before genmove the engine is given
// the side's own stones, the opponent's stones its announcements told,
// and a stone where its try failed in this turn (GTP-D3), never the
// opponent's hidden stones (PG-2: a player sees only its own stones).
func TestGTPD1EngineSeesOnlyKnownStones(t *testing.T) {
	c, commands := engineWithLog(t, "E1")
	fallback := &fixedPlayer{action: protocol.Play{Point: 3}}
	p := gtp.NewEnginePlayer(c, fallback)
	a := p.Choose(phantomBlackView(t))
	if got, ok := a.(protocol.Play); !ok || got.Point.Vertex(5) != "E1" {
		t.Fatalf("action %#v, want the engine's E1", a)
	}
	if p.Moves != 1 || len(p.Fallbacks) != 0 {
		t.Errorf("moves %d, fallbacks %v; want 1 and none", p.Moves, p.Fallbacks)
	}
	got := commands()
	for _, want := range []string{"boardsize 5", "clear_board", "komi 0.5", "play black C3", "play black C4", "play black D2",
		"play white A2", "play white B1", "play white A1", "genmove black"} {
		if !slices.Contains(got, want) {
			t.Errorf("the engine was not sent %q: %q", want, got)
		}
	}
	for _, cmd := range got {
		if strings.Contains(cmd, "E5") {
			t.Errorf("the engine was told of White's hidden stone: %q", cmd)
		}
	}
}

// TestGTPD2Fallbacks: non-moves are the fallback's; so is a move when the
// engine answers an occupied point, garbage, or the move that just
// failed; a resignation is passed on.
func TestGTPD2Fallbacks(t *testing.T) {
	view := phantomBlackView(t)
	fallbackMove := protocol.Play{Point: 3}

	t.Run("not a move", func(t *testing.T) {
		c, commands := engineWithLog(t, "A1")
		p := gtp.NewEnginePlayer(c, &fixedPlayer{action: protocol.MarkDead{}})
		if a := p.Choose(view); !isMarkDead(a) {
			t.Errorf("action %#v, want the fallback's MarkDead", a)
		}
		c.Send("name") // so that the log has a line
		if got := commands(); slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "genmove") }) {
			t.Errorf("the engine was asked for a move: %q", got)
		}
	})
	for _, tc := range []struct{ answer, reason string }{
		{"C3", "occupied"},      // Black's own stone
		{"B1", "occupied"},      // a White stone the suicide told
		{"A1", "occupied"},      // the try that failed (GTP-D3)
		{"Z99", "engine error"}, // not a vertex
	} {
		t.Run(tc.answer, func(t *testing.T) {
			c, _ := engineWithLog(t, tc.answer)
			p := gtp.NewEnginePlayer(c, &fixedPlayer{action: fallbackMove})
			if a := p.Choose(view); a != fallbackMove {
				t.Errorf("action %#v, want the fallback's %v", a, fallbackMove)
			}
			if p.Fallbacks[tc.reason] != 1 || p.Moves != 0 {
				t.Errorf("fallbacks %v moves %d, want one %q", p.Fallbacks, p.Moves, tc.reason)
			}
		})
	}
	t.Run("failed before", func(t *testing.T) {
		c, _ := engineWithLog(t, "B5")
		p := gtp.NewEnginePlayer(c, &fixedPlayer{action: fallbackMove})
		if a, ok := p.Choose(view).(protocol.Play); !ok || a.Point.Vertex(5) != "B5" {
			t.Fatalf("first action %#v, want B5", a)
		}
		// The same view again: A1 did not change it, so it failed.
		if a := p.Choose(view); a != fallbackMove {
			t.Errorf("second action %#v, want the fallback's", a)
		}
		if p.Fallbacks["failed before"] != 1 {
			t.Errorf("fallbacks %v", p.Fallbacks)
		}
	})
	t.Run("pass twice", func(t *testing.T) {
		c, _ := engineWithLog(t, "pass")
		p := gtp.NewEnginePlayer(c, &fixedPlayer{action: fallbackMove})
		for i := 0; i < 2; i++ {
			if a := p.Choose(view); a != (protocol.Play{Point: engine.Pass}) {
				t.Errorf("action %d: %#v, want the engine's pass", i, a)
			}
		}
	})
	t.Run("resign", func(t *testing.T) {
		c, _ := engineWithLog(t, "resign")
		p := gtp.NewEnginePlayer(c, &fixedPlayer{action: fallbackMove})
		if a := p.Choose(view); a != (protocol.Resign{}) {
			t.Errorf("action %#v, want Resign", a)
		}
	})
	t.Run("engine gone", func(t *testing.T) {
		c, _ := engineWithLog(t, "A1")
		c.Close()
		p := gtp.NewEnginePlayer(c, &fixedPlayer{action: fallbackMove})
		if a := p.Choose(view); a != fallbackMove || p.Err == nil {
			t.Errorf("action %#v, err %v; want the fallback's move and the error", a, p.Err)
		}
	})
}

// TestGTPD6ResignOnError: with ResignOnError an engine that exits,
// refuses genmove, answers something that is not a move or stays silent
// past MoveTimeout resigns (Err says why), where the fallback would have
// moved (GTP-D2); a move kakure refuses is still the fallback's.
func TestGTPD6ResignOnError(t *testing.T) {
	view := phantomBlackView(t)
	fallbackMove := protocol.Play{Point: 3}
	for _, tc := range []struct{ mode, want string }{
		{"exit", "the engine exited"},
		{"refuse", "genmove black: cannot play"},
		{"answer:Z99", `genmove answered "Z99"`},
		{"silent", "genmove black: no answer within"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			c := startTestEngine(t, tc.mode)
			p := gtp.NewEnginePlayer(c, &fixedPlayer{action: fallbackMove})
			p.ResignOnError = true
			p.MoveTimeout = 300 * time.Millisecond
			start := time.Now()
			if a := p.Choose(view); a != (protocol.Resign{}) {
				t.Errorf("action %#v, want Resign", a)
			}
			if p.Err == nil || !strings.Contains(p.Err.Error(), tc.want) {
				t.Errorf("Err %v, want it to say %q", p.Err, tc.want)
			}
			if waited := time.Since(start); waited > 30*time.Second {
				t.Errorf("Choose took %v", waited)
			}
		})
	}
	t.Run("refused move", func(t *testing.T) {
		c, _ := engineWithLog(t, "C3") // Black's own stone
		p := gtp.NewEnginePlayer(c, &fixedPlayer{action: fallbackMove})
		p.ResignOnError = true
		if a := p.Choose(view); a != fallbackMove || p.Err != nil {
			t.Errorf("action %#v, err %v; want the fallback's move", a, p.Err)
		}
	})
	t.Run("context", func(t *testing.T) {
		c := startTestEngine(t, "silent")
		p := gtp.NewEnginePlayer(c, &fixedPlayer{action: fallbackMove})
		p.ResignOnError = true
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(200*time.Millisecond, func() { cancel(errors.New("the game ended (W+T)")) })
		p.Context = ctx
		if a := p.Choose(view); a != (protocol.Resign{}) || p.Err == nil || !strings.Contains(p.Err.Error(), "the game ended (W+T)") {
			t.Errorf("action %#v, err %v; want Resign after the game's end", a, p.Err)
		}
	})
}

func isMarkDead(a protocol.Action) bool { _, ok := a.(protocol.MarkDead); return ok }

// gnugoOrSkip starts GNU Go at level 1, or skips the test where it is not
// installed.
func gnugoOrSkip(t *testing.T) *gtp.Client {
	t.Helper()
	const gnugo = "/usr/games/gnugo"
	if _, err := os.Stat(gnugo); err != nil {
		t.Skip("GNU Go is not installed (apt-get install gnugo)")
	}
	c, err := gtp.StartClient(gnugo + " --mode gtp --level 1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// koFight plays a 5×5 game of Go up to a ko: Black took at D3, White
// passed, Black played C1, and White has just taken back at C3. Black may
// not retake at D3 now (GO-3), and it is the only move that is not
// filling its own area. views are Black's views at each of its turns, and
// blackMoves the moves Black played after each.
func koFight(t *testing.T) (views []protocol.View, blackMoves []engine.Point) {
	t.Helper()
	o := engine.Options{Variant: engine.VariantGo, Size: 5, Komi: 0.5, KomiSet: true}
	g, err := engine.NewGoGame(o)
	if err != nil {
		t.Fatal(err)
	}
	seq := strings.Fields("B2 D1 B1 D2 B3 D4 B4 D5 B5 E3 C2 C3 C4 pass D3 pass C1 C3")
	for i, vertex := range seq {
		q, err := engine.ParseVertex(5, vertex)
		if err != nil {
			t.Fatal(err)
		}
		c := engine.Black
		if i%2 == 1 {
			c = engine.White
		} else {
			views = append(views, protocol.View{Color: engine.Black, Options: o, MyTurn: true, Variant: gorules.View{Game: g}})
			blackMoves = append(blackMoves, q)
		}
		if g, _, err = g.Play(c, q); err != nil {
			t.Fatalf("move %d %s: %v", i+1, vertex, err)
		}
	}
	return append(views, protocol.View{Color: engine.Black, Options: o, MyTurn: true, Variant: gorules.View{Game: g}}), blackMoves
}

// TestGTPD1GNUGoKnowsTheKo (GTP-D1, GO-3): in plain Go the engine is given
// the game's moves, so GNU Go, asked for Black's move just after White
// took a ko back, knows that the retake is illegal and answers a legal
// move (C5), whatever Black played before (its moves here are the test's,
// not the engine's). Set up from the stones alone, as before, GNU Go
// answers the retake D3: kakure refuses it and the fallback moves instead
// (GTP-D2), so that the game goes on either way.
func TestGTPD1GNUGoKnowsTheKo(t *testing.T) {
	views, _ := koFight(t)
	d3, _ := engine.ParseVertex(5, "D3")
	last := views[len(views)-1]
	game := last.Variant.(gorules.View).Game
	if game.Check(engine.Black, d3) == nil {
		t.Fatal("the test's position has no ko at D3")
	}

	withHistory := gtp.NewEnginePlayer(gnugoOrSkip(t), &fixedPlayer{action: protocol.Play{Point: engine.Pass}})
	for _, v := range views[:len(views)-1] {
		withHistory.Choose(v)
	}
	refusedBefore := withHistory.Refused["illegal"] + withHistory.Refused["occupied"]
	a, ok := withHistory.Choose(last).(protocol.Play)
	if !ok || a.Point == engine.Pass || game.Check(engine.Black, a.Point) != nil {
		t.Fatalf("with the history: %#v, want a legal move of the engine's", a)
	}
	if n := withHistory.Refused["illegal"] + withHistory.Refused["occupied"]; n != refusedBefore {
		t.Errorf("with the history the engine's answer was refused (%v)", withHistory.Refused)
	}
	t.Logf("with the history GNU Go answers %s", a.Point.Vertex(5))

	// The same views, the engine's board set up from the stones of each.
	setUp := gtp.NewEnginePlayer(gnugoOrSkip(t), &fixedPlayer{action: protocol.Play{Point: engine.Pass}})
	gtp.SetNoHistory(setUp)
	for _, v := range views[:len(views)-1] {
		setUp.Choose(v)
	}
	illegalBefore, fallbacksBefore := setUp.Refused["illegal"], setUp.Fallbacks["illegal"]
	b, ok := setUp.Choose(last).(protocol.Play)
	if !ok || game.Check(engine.Black, b.Point) != nil {
		t.Fatalf("from the stones: %#v is not legal: the game would abort", b)
	}
	if setUp.Refused["illegal"]-illegalBefore != 1 || setUp.Fallbacks["illegal"]-fallbacksBefore != 1 || b.Point != engine.Pass {
		t.Errorf("from the stones: refused %v, fallbacks %v, move %v; want GNU Go's D3 refused and the fallback's pass", setUp.Refused, setUp.Fallbacks, b.Point)
	}
}
