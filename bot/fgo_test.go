package bot

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/fgo"
)

// randomFGoGame plays n random turns of F-Go.
func randomFGoGame(t testing.TB, size, n int, rng *rand.Rand) fgo.Game {
	t.Helper()
	g, err := fgo.NewGame(engine.Options{Variant: engine.VariantFGo, Size: size})
	if err != nil {
		t.Fatal(err)
	}
	r := &Random{Rand: rng}
	for i := 0; i < n && !g.PlayEnded(); i++ {
		var ch [3]engine.Point
		for _, c := range []engine.Color{engine.Black, engine.White} {
			ch[c] = r.randomMove(g.Board(), c, func(p engine.Point) bool { return g.CheckChoice(c, p) == nil })
		}
		if g, _, err = g.Turn(ch[engine.Black], ch[engine.White]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestFG1FGoBotChoices asks the bot for both colours' choices in random
// positions: each is a choice CheckChoice accepts (FG-1, FG-5), and the
// mixes are probability distributions.
func TestFG1FGoBotChoices(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	b := NewFGoBot(Level{Playouts: 200}, 1)
	for i := 0; i < 12; i++ {
		size := []int{5, 7}[i%2]
		g := randomFGoGame(t, size, rng.IntN(2*size*size), rng)
		for _, c := range []engine.Color{engine.Black, engine.White} {
			p := b.ChooseFGo(g, c)
			if err := g.CheckChoice(c, p); err != nil {
				t.Fatalf("position %d, %v: choice %s refused: %v", i, c, p.Vertex(size), err)
			}
		}
		for _, mix := range [][]float64{b.last.mixBlack, b.last.mixWhite} {
			sum := 0.0
			for _, x := range mix {
				if x < 0 {
					t.Fatalf("negative weight in %v", mix)
				}
				sum += x
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("mix %v sums to %v", mix, sum)
			}
		}
	}
}

// TestFGoMatrixGame checks the solver: matching pennies is mixed half and
// half with value ½; a dominant choice is played purely.
func TestFGoMatrixGame(t *testing.T) {
	rows, cols, v := solveMatrixGame([][]float64{{1, 0}, {0, 1}}, 4000)
	if math.Abs(rows[0]-0.5) > 0.05 || math.Abs(cols[0]-0.5) > 0.05 || math.Abs(v-0.5) > 0.05 {
		t.Errorf("matching pennies: %v %v %v", rows, cols, v)
	}
	rows, cols, v = solveMatrixGame([][]float64{{0.9, 0.8}, {0.4, 0.3}}, 2000)
	if rows[0] != 1 || cols[1] != 1 || math.Abs(v-0.8) > 1e-9 {
		t.Errorf("dominant choices: %v %v %v", rows, cols, v)
	}
}

// TestFG2FGoBotMixesContestedPoints: on an empty board the best points are
// the same for both players, and the bot mixes over several of them.
func TestFG2FGoBotMixesContestedPoints(t *testing.T) {
	g, _ := fgo.NewGame(engine.Options{Variant: engine.VariantFGo, Size: 7})
	b := NewFGoBot(Level{Playouts: 2000}, 1)
	b.ChooseFGo(g, engine.Black)
	support := 0
	for _, x := range b.last.mixBlack {
		if x > 0 {
			support++
		}
	}
	if support < 2 {
		t.Errorf("mix %v over %v: one choice only", b.last.mixBlack, b.last.black)
	}
}

// TestFG7FGoBotOffers: the bot declines an offer that gives its opponent
// a free stone while it passes, accepts the same offer the other way
// round, and refuses malformed offers.
func TestFG7FGoBotOffers(t *testing.T) {
	g, _ := fgo.NewGame(engine.Options{Variant: engine.VariantFGo, Size: 7})
	b := NewFGoBot(Level{Playouts: 3000}, 1)
	center := engine.PointAt(7, 3, 3)
	if b.AcceptOffer(g, engine.White, fgo.Offer{From: engine.Black, IfYouPlay: engine.Pass, IPlay: center}) {
		t.Error("White accepts to pass while Black takes the centre")
	}
	if !b.AcceptOffer(g, engine.Black, fgo.Offer{From: engine.White, IfYouPlay: center, IPlay: engine.Pass}) {
		t.Error("Black declines to take the centre while White passes")
	}
	if b.AcceptOffer(g, engine.White, fgo.Offer{From: engine.White, IfYouPlay: engine.Pass, IPlay: center}) {
		t.Error("White accepts its own offer")
	}
	if b.AcceptOffer(g, engine.White, fgo.Offer{From: engine.Black, IfYouPlay: center, IPlay: center}) {
		t.Error("White accepts a collision")
	}
}

// TestFGoBotBeatsRandom: a cheap strength test on 5×5.
func TestFGoBotBeatsRandom(t *testing.T) {
	wins := 0
	const games = 2
	for i := 0; i < games; i++ {
		g, _ := fgo.NewGame(engine.Options{Variant: engine.VariantFGo, Size: 5})
		b := NewFGoBot(Level{Playouts: 300}, uint64(i))
		r := NewRandom(uint64(i))
		botColor := engine.Color(1 + i%2)
		for n := 0; !g.PlayEnded() && n < 100; n++ {
			var ch [3]engine.Point
			for _, c := range []engine.Color{engine.Black, engine.White} {
				if c == botColor {
					ch[c] = b.ChooseFGo(g, c)
				} else {
					ch[c] = r.randomMove(g.Board(), c, func(p engine.Point) bool { return g.CheckChoice(c, p) == nil })
				}
			}
			var err error
			if g, _, err = g.Turn(ch[engine.Black], ch[engine.White]); err != nil {
				t.Fatal(err)
			}
		}
		if g.Score(engine.Marking{}).Result().Winner == botColor {
			wins++
		}
	}
	if wins < games {
		t.Errorf("the bot won %d of %d games against the random player", wins, games)
	}
}
