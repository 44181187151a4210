package bot

import (
	"testing"

	"github.com/kakure/kakure/engine"
)

// settledColumns are the walls of a settled 7×7 game: Black holds columns
// A–E (35 points), White F–G (14), so that Black wins by 13.5 at komi 7.5
// and no move changes that.
func settledColumns(t *testing.T) (black, white []engine.Point) {
	t.Helper()
	for row := 1; row <= 7; row++ {
		black = append(black, vertices(t, 7, "E"+string(rune('0'+row)))...)
		white = append(white, vertices(t, 7, "F"+string(rune('0'+row)))...)
	}
	return black, white
}

// withFlags returns l with BOT-D6's judgements turned off as told.
func withFlags(l Level, noResign, noEarlyPass bool) Level {
	l.NoResign, l.NoEarlyPass = noResign, noEarlyPass
	return l
}

// TestBOTD6GoBotPassesAndResigns (BOT-D6, GO-4): in a settled game the Go
// bot passes as the winner, without waiting for the opponent's pass, and
// resigns as the loser; with pass=late it plays on, with resign=off it
// does not resign.
func TestBOTD6GoBotPassesAndResigns(t *testing.T) {
	black, white := settledColumns(t)
	g, err := engine.NewGoGame(engine.Options{Variant: engine.VariantGo, Size: 7, Komi: 7.5, KomiSet: true})
	if err != nil {
		t.Fatal(err)
	}
	if g, err = g.WithSetup(black, white); err != nil {
		t.Fatal(err)
	}
	level := Levels[2]
	if p, resign := NewGoBot(level, 1).ChooseMoveOrResign(g, engine.Black); p != engine.Pass || resign {
		t.Errorf("the winner in a settled game: %s (resign %v), want a pass", p.Vertex(7), resign)
	}
	if p, _ := NewGoBot(withFlags(level, false, true), 1).ChooseMoveOrResign(g, engine.Black); p == engine.Pass {
		t.Errorf("with pass=late the bot passes while it has moves")
	}
	if g, _, err = g.Play(engine.Black, engine.Pass); err != nil {
		t.Fatal(err)
	}
	if _, resign := NewGoBot(level, 1).ChooseMoveOrResign(g, engine.White); !resign {
		t.Errorf("the loser of a settled game does not resign")
	}
	if p, resign := NewGoBot(withFlags(level, true, false), 1).ChooseMoveOrResign(g, engine.White); resign || g.Check(engine.White, p) != nil {
		t.Errorf("with resign=off: %s resign %v, want a legal move", p.Vertex(7), resign)
	}
}

// TestBOTD6FGoBotPassesAndResigns (BOT-D6, BOT-FG-D6, FG-6): the same
// settled game reached by F-Go turns: Black passes, White resigns, from
// the turn's matrix game; the flags turn both off.
func TestBOTD6FGoBotPassesAndResigns(t *testing.T) {
	black, white := settledColumns(t)
	g, err := engine.NewFGoGame(engine.Options{Variant: engine.VariantFGo, Size: 7, Komi: 7.5, KomiSet: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := range black {
		if g, _, err = g.Turn(black[i], white[i]); err != nil {
			t.Fatal(err)
		}
	}
	level := Levels[2]
	if p, resign := NewFGoBot(level, 1).ChooseFGoOrResign(g, engine.Black); p != engine.Pass || resign {
		t.Errorf("the winner in a settled game: %s (resign %v), want a pass", p.Vertex(7), resign)
	}
	if p, _ := NewFGoBot(withFlags(level, false, true), 1).ChooseFGoOrResign(g, engine.Black); p == engine.Pass {
		t.Errorf("with pass=late the bot passes while it has moves")
	}
	if _, resign := NewFGoBot(level, 1).ChooseFGoOrResign(g, engine.White); !resign {
		t.Errorf("the loser of a settled game does not resign")
	}
	if p, resign := NewFGoBot(withFlags(level, true, false), 1).ChooseFGoOrResign(g, engine.White); resign || g.CheckChoice(engine.White, p) != nil && p != engine.Pass {
		t.Errorf("with resign=off: %s resign %v, want a choice", p.Vertex(7), resign)
	}
}

// phantomSettled plays the settled game in Phantom Go (common rules), each
// colour trying its wall; then Black tries White's wall in vain, which
// shows it to Black (PG-2), and, when whiteLearns, passes, and White
// tries Black's wall in vain. It returns the view of the player to try.
func phantomSettled(t *testing.T, whiteLearns bool) engine.PhantomView {
	t.Helper()
	black, white := settledColumns(t)
	o := engine.Options{Variant: engine.VariantPhantom, Size: 7, Rules: engine.RulesCommon, Komi: 7.5, KomiSet: true}
	ref, err := engine.NewPhantomReferee(o)
	if err != nil {
		t.Fatal(err)
	}
	views := map[engine.Color]engine.PhantomView{}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if views[c], err = engine.NewPhantomView(o, c); err != nil {
			t.Fatal(err)
		}
	}
	var moves []engine.Point
	for i := range black {
		moves = append(moves, black[i], white[i])
	}
	moves = append(moves, white...)
	if whiteLearns {
		moves = append(append(moves, engine.Pass), black...)
	}
	for i, p := range moves {
		var out engine.TryOutcome
		if ref, out, err = ref.Try(ref.ToMove(), p); err != nil || out.Legal != (i < 2*len(black) || p == engine.Pass) {
			t.Fatalf("try %s: %v %+v", p.Vertex(7), err, out)
		}
		for c, v := range views {
			if views[c], err = v.Apply(engine.PhantomAnnounce(o.Rules, 7, out, c)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return views[ref.ToMove()]
}

// TestBOTD6PhantomBotPasses (BOT-D6, BOT-PG-D7): Black, who knows its own
// wall and, from its failed tries, White's, judges from its determinized
// samples that the settled game is won and passes; with pass=late it
// tries on.
func TestBOTD6PhantomBotPasses(t *testing.T) {
	v := phantomSettled(t, false)
	if v.Me() != engine.Black {
		t.Fatal("Black should be to try")
	}
	level := Levels[2]
	if p, resign := NewPhantomBot(level, 7.5, 1).ChooseTryOrResign(v); p != engine.Pass || resign {
		t.Errorf("the winner in a settled game: %s (resign %v), want a pass", p.Vertex(7), resign)
	}
	if p, _ := NewPhantomBot(withFlags(level, false, true), 7.5, 1).ChooseTryOrResign(v); p == engine.Pass {
		t.Errorf("with pass=late the bot passes while it has tries")
	}
}

// TestBOTD6PhantomBotResigns (BOT-D6, BOT-PG-D7): White, who has found
// Black's wall with its failed tries, judges from its samples that the
// settled game is lost by 21.5 points and resigns; with resign=off it
// tries on.
func TestBOTD6PhantomBotResigns(t *testing.T) {
	v := phantomSettled(t, true)
	if v.Me() != engine.White {
		t.Fatal("White should be to try")
	}
	level := Levels[2]
	if p, resign := NewPhantomBot(level, 7.5, 1).ChooseTryOrResign(v); !resign {
		t.Errorf("the loser of a settled game tries %s, want a resignation", p.Vertex(7))
	}
	if _, resign := NewPhantomBot(withFlags(level, true, false), 7.5, 1).ChooseTryOrResign(v); resign {
		t.Errorf("with resign=off the bot resigns")
	}
}
