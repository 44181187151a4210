package bot

import (
	"testing"

	"github.com/kakure/kakure/engine"

	"github.com/kakure/kakure/engine/fgo"
	"github.com/kakure/kakure/engine/phantom"
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
	g, err := fgo.NewGame(engine.Options{Variant: engine.VariantFGo, Size: 7, Komi: 7.5, KomiSet: true})
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
func phantomSettled(t *testing.T, whiteLearns bool) phantom.View {
	t.Helper()
	black, white := settledColumns(t)
	var moves []engine.Point
	for i := range black {
		moves = append(moves, black[i], white[i])
	}
	moves = append(moves, white...)
	if whiteLearns {
		moves = append(append(moves, engine.Pass), black...)
	}
	toMove, views := tryPhantom7(t, moves, func(i int, p engine.Point) bool { return i < 2*len(black) || p == engine.Pass })
	return views[toMove]
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

// tryPhantom7 tries moves in turn in a Phantom Go game on 7×7 under
// common rules, komi 7.5, failing t unless try i of point p is legal
// exactly when legal(i, p) says so. It returns the colour to try next and
// each colour's view.
func tryPhantom7(t *testing.T, moves []engine.Point, legal func(i int, p engine.Point) bool) (engine.Color, map[engine.Color]phantom.View) {
	t.Helper()
	o := engine.Options{Variant: engine.VariantPhantom, Size: 7, Rules: engine.RulesCommon, Komi: 7.5, KomiSet: true}
	ref, err := phantom.NewReferee(o)
	if err != nil {
		t.Fatal(err)
	}
	views := map[engine.Color]phantom.View{}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if views[c], err = phantom.NewView(o, c); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range moves {
		var out phantom.TryOutcome
		if ref, out, err = ref.Try(ref.ToMove(), p); err != nil || out.Legal != legal(i, p) {
			t.Fatalf("try %s: %v %+v", p.Vertex(7), err, out)
		}
		for c, v := range views {
			if views[c], err = v.Apply(phantom.Announce(o.Rules, 7, out, c)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return ref.ToMove(), views
}

// phantomWalled plays, on 7×7 under common rules, Black's stones (White
// passing) and, last, White's wall F1–F7 alternating with Black's last
// seven stones, so that White's last action is a move; whiteInside, if
// not "", is a White stone played first, Black passing. When
// blackLearns, Black then tries White's stones in vain, which shows it
// every one of them. It returns Black's view.
func phantomWalled(t *testing.T, black []engine.Point, whiteInside string, blackLearns bool) phantom.View {
	t.Helper()
	_, white := settledColumns(t)
	var moves, learn []engine.Point
	if whiteInside != "" {
		inside := vertices(t, 7, whiteInside)
		moves = append(moves, engine.Pass, inside[0])
		learn = inside
	}
	learn = append(learn, white...)
	k := len(black) - len(white)
	for _, p := range black[:k] {
		moves = append(moves, p, engine.Pass)
	}
	for i, p := range black[k:] {
		moves = append(moves, p, white[i])
	}
	legal := len(moves)
	if blackLearns {
		moves = append(moves, learn...)
	}
	toMove, views := tryPhantom7(t, moves, func(i int, _ engine.Point) bool { return i < legal })
	if toMove != engine.Black {
		t.Fatal("Black should be to try")
	}
	return views[engine.Black]
}

// blackStones returns the points of columns A–E of 7×7 but the given
// ones, column E last.
func blackStones(t *testing.T, but ...string) []engine.Point {
	t.Helper()
	skip := map[engine.Point]bool{}
	for _, p := range vertices(t, 7, but...) {
		skip[p] = true
	}
	var ps []engine.Point
	for _, col := range "ABCDE" {
		for row := 1; row <= 7; row++ {
			if p := vertices(t, 7, string(col)+string(rune('0'+row)))[0]; !skip[p] {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// TestBOTPGD8PhantomBotPassesOnTheWorstCase (BOT-PG-D8, PG-9): Black,
// whose stones fill columns A–E but for two single-point eyes (B2, B6),
// passes although it has never seen White's 7 stones: with every point
// it is unsure of given to White it still has 35 points and wins by 13.5
// (BOT-PG-D7 does not judge with 7 stones unseen, and the pass is no
// candidate of the search). With large regions (A1–D3, A5–D7 behind
// E1–E7 and A4–D4) the 7 unseen stones may stand in them, the worst case
// is a loss, and it tries on; once its tries have found all of White's
// stones, those regions are safe and the worst case is again a win by
// 13.5. pass=late turns the rule off.
func TestBOTPGD8PhantomBotPassesOnTheWorstCase(t *testing.T) {
	level := withFlags(Levels[2], true, false)
	eyes := phantomWalled(t, blackStones(t, "B2", "B6"), "", false)
	f := phantomFactsOf(eyes)
	if f.place != 7 {
		t.Fatalf("White stones of unknown place: %d, want 7", f.place)
	}
	if lead := phantomWorstLead(eyes, &f, 7.5); lead != 13.5 {
		t.Errorf("worst-case lead with two eyes: %v, want 13.5", lead)
	}
	if p, _ := NewPhantomBot(level, 7.5, 1).ChooseTryOrResign(eyes); p != engine.Pass {
		t.Errorf("Black, winning in the worst case, tries %s, want a pass", p.Vertex(7))
	}
	if p, _ := NewPhantomBot(withFlags(level, true, true), 7.5, 1).ChooseTryOrResign(eyes); p == engine.Pass {
		t.Errorf("with pass=late the bot passes while it has tries")
	}

	var walls []engine.Point
	walls = append(walls, vertices(t, 7, "A4", "B4", "C4", "D4")...)
	walls = append(walls, vertices(t, 7, "E1", "E2", "E3", "E4", "E5", "E6", "E7")...)
	unknown := phantomWalled(t, walls, "", false)
	f = phantomFactsOf(unknown)
	if lead := phantomWorstLead(unknown, &f, 7.5); lead >= passLeadMargin {
		t.Errorf("worst-case lead with 7 White stones unseen: %v, want a loss", lead)
	}
	for seed := uint64(1); seed <= 3; seed++ {
		if p, _ := NewPhantomBot(level, 7.5, seed).ChooseTryOrResign(unknown); p == engine.Pass {
			t.Errorf("seed %d: Black passes with 7 White stones unseen that may stand in its regions", seed)
		}
	}
	known := phantomWalled(t, walls, "", true)
	f = phantomFactsOf(known)
	if lead := phantomWorstLead(known, &f, 7.5); lead != 13.5 {
		t.Errorf("worst-case lead with White's stones found: %v, want 13.5", lead)
	}
	// A known White stone at C6 in the middle of Black's region B6, C6,
	// D6, C5, C7: every other point of it is next to Black's chain, so
	// White can never have an eye there.
	plus := phantomWalled(t, blackStones(t, "B2", "B6", "C6", "D6", "C5", "C7"), "C6", true)
	f = phantomFactsOf(plus)
	if lead := phantomWorstLead(plus, &f, 7.5); lead != 13.5 {
		t.Errorf("worst-case lead with a known White stone in Black's region: %v, want 13.5", lead)
	}
}
