package bot

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
)

var phantomRuleSets = []engine.PhantomRules{engine.RulesCommon, engine.RulesHamburg, engine.RulesKriegspiel}

// TestPG1PG2PhantomBotTries plays games between the bot and the random
// player, and between two bots, under every rule set: the harness fails
// on any try outside the view's SensibleTries, and every announcement must
// apply to both views (PG-1, PG-2, PG-6..PG-8).
func TestPG1PG2PhantomBotTries(t *testing.T) {
	for _, rules := range phantomRuleSets {
		t.Run(string(rules), func(t *testing.T) {
			o := engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: rules}
			b := NewPhantomBot(Level{Playouts: 60}, 7.5, 1)
			w := NewPhantomBot(Level{Playouts: 60}, 7.5, 2)
			_, tries := playPhantom(t, o, [3]phantomChooser{engine.Black: b.ChooseTry, engine.White: w.ChooseTry}, 400)
			_, tries2 := playPhantom(t, o, [3]phantomChooser{engine.Black: randomPhantom(3), engine.White: w.ChooseTry}, 400)
			if tries < 10 || tries2 < 10 {
				t.Errorf("games of %d and %d tries", tries, tries2)
			}
		})
	}
}

// TestPGD3PhantomBotEyes: the bot never tries one of its certain own eyes.
func TestPGD3PhantomBotEyes(t *testing.T) {
	o := engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon}
	b := NewPhantomBot(Level{Playouts: 60}, 7.5, 5)
	checked := 0
	eyeChecking := func(v phantom.View) engine.Point {
		p := b.ChooseTry(v)
		own := func(q engine.Point) engine.Color {
			if v.At(q) == phantom.Own {
				return v.Me()
			}
			return engine.Empty
		}
		if p != engine.Pass && geometryOf(5).surrounded(own, p, v.Me()) {
			t.Fatalf("tried its own eye %s", p.Vertex(5))
		}
		checked++
		return p
	}
	playPhantom(t, o, [3]phantomChooser{engine.Black: eyeChecking, engine.White: randomPhantom(6)}, 300)
	if checked < 10 {
		t.Errorf("only %d tries checked", checked)
	}
}

// phantomViewsOf plays random tries from the start (the random player on
// both sides) and returns the referee and the views after n tries.
func phantomViewsOf(t testing.TB, o engine.Options, seed uint64, n int) (phantom.Referee, [3]phantom.View) {
	t.Helper()
	r, err := phantom.NewReferee(o)
	if err != nil {
		t.Fatal(err)
	}
	var views [3]phantom.View
	for _, c := range []engine.Color{engine.Black, engine.White} {
		views[c], _ = phantom.NewView(o, c)
	}
	players := [3]phantomChooser{engine.Black: randomPhantom(seed), engine.White: randomPhantom(seed + 1)}
	for i := 0; i < n && !r.PlayEnded(); i++ {
		c := r.ToMove()
		next, out, err := r.Try(c, players[c](views[c]))
		if err != nil {
			t.Fatal(err)
		}
		for _, to := range []engine.Color{engine.Black, engine.White} {
			if views[to], err = views[to].Apply(phantom.Announce(o.Rules, o.Size, out, to)); err != nil {
				t.Fatal(err)
			}
		}
		r = next
	}
	return r, views
}

// TestPGD3PhantomDeterminization checks the guesses of the opponent's
// stones (BOT-PG-D1) in positions of random games under every rule set:
// every chain has a liberty; the certain own stones and the known opponent
// stones are where the view says; there are as many own and opponent
// stones as the announcements say (when the free points allow); and the
// tries that failed this turn as suicide fail in the guess too.
func TestPGD3PhantomDeterminization(t *testing.T) {
	for _, rules := range phantomRuleSets {
		for seed := uint64(0); seed < 12; seed++ {
			size := 5 + 2*int(seed%3)
			o := engine.Options{Variant: engine.VariantPhantom, Size: size, Rules: rules}
			ref, views := phantomViewsOf(t, o, seed, int(seed*9)%(3*size*size))
			if ref.PlayEnded() {
				continue
			}
			me := ref.ToMove()
			v := views[me]
			f := phantomFactsOf(v)
			truth := ref.Board()
			if want := truth.Count(me.Opponent()); f.place+len(f.opp) != want && f.place < len(f.free) {
				t.Errorf("%s seed %d: %d + %d opponent stones to guess, the board has %d", rules, seed, len(f.opp), f.place, want)
			}
			b := NewPhantomBot(testLevel, 7.5, seed)
			for k := 0; k < 20; k++ {
				g := b.determinize(&f)
				for p := engine.Point(0); int(p) < g.Points(); p++ {
					switch v.At(p) {
					case phantom.Own:
						if g.At(p) != me {
							t.Fatalf("%s seed %d: own stone %s missing", rules, seed, p.Vertex(size))
						}
					case phantom.Opponent:
						if g.At(p) != me.Opponent() {
							t.Fatalf("%s seed %d: known opponent stone %s missing", rules, seed, p.Vertex(size))
						}
					}
					if g.At(p) != engine.Empty && g.Liberties(p) == 0 {
						t.Fatalf("%s seed %d: chain at %s without liberty\n%v", rules, seed, p.Vertex(size), g)
					}
				}
				if n := g.Count(me); n != len(f.own)+f.keep {
					t.Fatalf("%s seed %d: %d own stones, want %d", rules, seed, n, len(f.own)+f.keep)
				}
				for _, p := range f.suicides {
					if _, res := g.Place(p, me); !res.Suicide && k == 0 {
						t.Logf("%s seed %d: the suicide try %s is not one in the guess (allowed after %d draws)", rules, seed, p.Vertex(size), phantomSampleTries)
					}
				}
			}
		}
	}
}

// TestPGD2PhantomBotUsesFailedTries: after a try fails on an opponent
// stone, the view knows the stone, and the bot's next choices never try
// it again in the turn (PG-2: it would fail again), while the guesses keep
// the stone.
func TestPGD2PhantomBotUsesFailedTries(t *testing.T) {
	o := engine.Options{Variant: engine.VariantPhantom, Size: 7, Rules: engine.RulesCommon}
	r, _ := phantom.NewReferee(o)
	views := [3]phantom.View{}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		views[c], _ = phantom.NewView(o, c)
	}
	try := func(c engine.Color, v string) phantom.TryOutcome {
		p, _ := engine.ParseVertex(7, v)
		next, out, err := r.Try(c, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, to := range []engine.Color{engine.Black, engine.White} {
			views[to], _ = views[to].Apply(phantom.Announce(o.Rules, 7, out, to))
		}
		r = next
		return out
	}
	try(engine.Black, "C3")
	try(engine.White, "D4")
	if out := try(engine.Black, "D4"); out.Legal {
		t.Fatal("D4 is White's")
	}
	d4, _ := engine.ParseVertex(7, "D4")
	f := phantomFactsOf(views[engine.Black])
	if !slices.Contains(f.opp, d4) || f.place != 0 || f.turnFailures != 1 {
		t.Fatalf("facts after the failed try: opp %v place %d failures %d", f.opp, f.place, f.turnFailures)
	}
	b := NewPhantomBot(Level{Playouts: 200}, 7.5, 1)
	if p := b.ChooseTry(views[engine.Black]); p == d4 {
		t.Errorf("the bot tries D4 again")
	}
}

// TestPG5PhantomBotSnapbackFacts: in the snapback (engine's
// TestPG5PG6PG7PG8Snapback), Black's capture at B1 joins B2-C2, which was
// in atari, and is announced "puts White into atari and himself" (PG-5's
// capture clause, PG-D2). White's bot reads both facts from its view, and
// its guesses must then hold a black chain with one liberty (BOT-PG-D1):
// the true board passes, the board without B2 (Black's chain with two
// liberties) is drawn again.
func TestPG5PhantomBotSnapbackFacts(t *testing.T) {
	const size = 9
	for _, rules := range []engine.PhantomRules{engine.RulesCommon, engine.RulesHamburg} {
		o := engine.Options{Variant: engine.VariantPhantom, Size: size, Rules: rules}
		r, _ := phantom.NewReferee(o)
		views := [3]phantom.View{}
		for _, c := range []engine.Color{engine.Black, engine.White} {
			views[c], _ = phantom.NewView(o, c)
		}
		var last phantom.TryOutcome
		for i, v := range []string{"B2", "B3", "C2", "C3", "E2", "D3", "E1", "D2", "J9", "A2", "H9", "A1", "J8", "C1", "D1", "G7", "B1"} {
			p, _ := engine.ParseVertex(size, v)
			next, out, err := r.Try(r.ToMove(), p)
			if err != nil || !out.Legal {
				t.Fatalf("%s: try %d %s: %+v %v", rules, i, v, out, err)
			}
			for _, to := range []engine.Color{engine.Black, engine.White} {
				if views[to], err = views[to].Apply(phantom.Announce(rules, size, out, to)); err != nil {
					t.Fatal(err)
				}
			}
			r, last = next, out
		}
		if len(last.Captured) != 1 || !last.AtariOpponent || !last.AtariSelf {
			t.Fatalf("%s: B1 gave %+v, want a capture, White and himself into atari", rules, last)
		}
		f := phantomFactsOf(views[engine.White])
		if !f.meInAtari || !f.oppInAtari {
			t.Fatalf("%s: White's facts: me in atari %v, Black in atari %v; want both", rules, f.meInAtari, f.oppInAtari)
		}
		b := NewPhantomBot(testLevel, 7.5, 1)
		setGuess := func(g engine.Board) {
			b.det.reset(size)
			for p := engine.Point(0); int(p) < g.Points(); p++ {
				b.det.cells[p] = g.At(p)
			}
		}
		truth := r.Board()
		setGuess(truth)
		if !b.consistent(&f) {
			t.Errorf("%s: the true board is not consistent with White's facts\n%v", rules, truth)
		}
		b2, _ := engine.ParseVertex(size, "B2")
		wrong := truth
		wrong.Set(b2, engine.Empty)
		setGuess(wrong)
		if b.consistent(&f) {
			t.Errorf("%s: a guess without a black chain in atari passes \"and himself\"\n%v", rules, wrong)
		}
	}
}

// TestPhantomBotHiddenInformation: two games that differ only in where
// White played, with the same announcements to Black, give Black the same
// view, and the bot the same try for the same seed. (The bot's input is
// the view, so it cannot do otherwise; the test shows that the view is
// all it needs.)
func TestPhantomBotHiddenInformation(t *testing.T) {
	o := engine.Options{Variant: engine.VariantPhantom, Size: 9, Rules: engine.RulesCommon}
	play := func(whites []string) phantom.View {
		r, _ := phantom.NewReferee(o)
		v, _ := phantom.NewView(o, engine.Black)
		for i, w := range whites {
			for _, m := range []struct {
				c engine.Color
				v string
			}{{engine.Black, []string{"C3", "G7", "C7"}[i]}, {engine.White, w}} {
				p, _ := engine.ParseVertex(9, m.v)
				next, out, err := r.Try(m.c, p)
				if err != nil || !out.Legal {
					t.Fatalf("%s: %v %+v", m.v, err, out)
				}
				if v, err = v.Apply(phantom.Announce(o.Rules, 9, out, engine.Black)); err != nil {
					t.Fatal(err)
				}
				r = next
			}
		}
		return v
	}
	a := play([]string{"E5", "D6", "F3"})
	b := play([]string{"G3", "E4", "B8"})
	for p := engine.Point(0); p < 81; p++ {
		if a.At(p) != b.At(p) {
			t.Fatalf("views differ at %s", p.Vertex(9))
		}
	}
	ta := NewPhantomBot(Level{Playouts: 300}, 7.5, 9).ChooseTry(a)
	tb := NewPhantomBot(Level{Playouts: 300}, 7.5, 9).ChooseTry(b)
	if ta != tb {
		t.Errorf("same view, tries %s and %s", ta.Vertex(9), tb.Vertex(9))
	}
}

// TestPhantomBotBeatsRandom is a cheap strength test on 7×7: the bot wins
// most of a few games against the random player.
func TestPhantomBotBeatsRandom(t *testing.T) {
	wins := 0
	const games = 3
	for i := 0; i < games; i++ {
		o := engine.Options{Variant: engine.VariantPhantom, Size: 7, Rules: phantomRuleSets[i%3]}
		botColor := engine.Color(1 + i%2)
		var players [3]phantomChooser
		players[botColor] = NewPhantomBot(Level{Playouts: 150}, 7.5, uint64(i)).ChooseTry
		players[botColor.Opponent()] = randomPhantom(uint64(50 + i))
		r, _ := playPhantom(t, o, players, 600)
		if r.Score(engine.Marking{}).Result().Winner == botColor {
			wins++
		}
	}
	if wins < games-1 {
		t.Errorf("the bot won %d of %d games against the random player", wins, games)
	}
}

// FuzzPhantomDeterminization: for random games and rule sets, every guess
// keeps each chain a liberty and the view's certain stones.
func FuzzPhantomDeterminization(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint8(30))
	f.Add(uint64(7), uint8(1), uint8(60))
	f.Add(uint64(9), uint8(2), uint8(80))
	f.Fuzz(func(t *testing.T, seed uint64, rules, n uint8) {
		o := engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: phantomRuleSets[int(rules)%3]}
		ref, views := phantomViewsOf(t, o, seed, int(n))
		if ref.PlayEnded() {
			return
		}
		me := ref.ToMove()
		f := phantomFactsOf(views[me])
		b := &PhantomBot{rng: rand.New(rand.NewPCG(seed, 1)), raveEquivalence: phantomRAVEEquivalence}
		g := b.determinize(&f)
		for p := engine.Point(0); int(p) < g.Points(); p++ {
			if g.At(p) != engine.Empty && g.Liberties(p) == 0 {
				t.Fatalf("chain at %s without liberty", p.Vertex(5))
			}
			if views[me].At(p) == phantom.Own && g.At(p) != me {
				t.Fatalf("own stone %s missing", p.Vertex(5))
			}
		}
	})
}

// TestBOTPGD9PhantomBudget: from the default level up the Phantom Go bot
// spends 10/3 of the level's playouts; the beginner levels keep theirs,
// and failed tries still shrink the budget (BOT-PG-D4).
func TestBOTPGD9PhantomBudget(t *testing.T) {
	for _, tt := range []struct {
		level, failures, want int
	}{
		{1, 0, Levels[1].Playouts},
		{2, 0, Levels[2].Playouts},
		{3, 0, Levels[3].Playouts * 10 / 3},
		{4, 0, Levels[4].Playouts * 10 / 3},
		{3, 1, Levels[3].Playouts * 10 / 3 / 2},
	} {
		b := NewPhantomBot(Levels[tt.level], 7.5, 1)
		if got := b.budget(phantomFacts{size: 9, turnFailures: tt.failures}); got != tt.want {
			t.Errorf("level %d, %d failed tries: budget %d, want %d", tt.level, tt.failures, got, tt.want)
		}
	}
}
