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

// TestBOTFGD7PassesWhenItsMovesChangeNothing (issue 34 item 4): White
// passed last turn. Black, which loses the board as it stands by 0.5
// and whose only choices lie in its own territory (White's two eyes are
// suicide for it), passes instead of filling its territory turn after
// turn (with resignation off: a lost game may also be resigned). After
// Black's pass, White, which wins as it stands, passes too.
func TestBOTFGD7PassesWhenItsMovesChangeNothing(t *testing.T) {
	o := engine.Options{Variant: engine.VariantFGo, Size: 5, Komi: 5.5, KomiSet: true}
	g, err := fgo.NewGame(o)
	if err != nil {
		t.Fatal(err)
	}
	v := func(s string) engine.Point {
		p, err := engine.ParseVertex(5, s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	turn := func(black, white string) {
		t.Helper()
		if g, _, err = g.Turn(v(black), v(white)); err != nil {
			t.Fatalf("%s %s: %v", black, white, err)
		}
	}
	for _, row := range []string{"1", "2", "3", "4", "5"} {
		turn("C"+row, "D"+row)
	}
	turn("pass", "E1")
	turn("pass", "E3")
	turn("A1", "E5")
	turn("B1", "pass")
	if sc := g.Score(engine.Marking{}); sc.Result().Winner != engine.White || sc.White-sc.Black != 0.5 {
		t.Fatalf("the position: %v, want White to win by 0.5 as it stands", sc.Result())
	}
	for seed := range uint64(10) {
		b := NewFGoBot(Level{Playouts: 200, NoResign: true}, seed)
		if p, _ := b.ChooseFGoOrResign(g, engine.Black); p != engine.Pass {
			t.Errorf("seed %d: Black chose %s after White's pass, with only its own territory to fill", seed, p.Vertex(5))
		}
	}
	// Another board: White's wall on column C, Black's on B; Black
	// passed while White filled E5.
	if g, err = fgo.NewGame(o); err != nil {
		t.Fatal(err)
	}
	for _, row := range []string{"1", "2", "3", "4", "5"} {
		turn("B"+row, "C"+row)
	}
	turn("pass", "E5")
	for seed := range uint64(10) {
		// Even when the level does not pass early (BOT-D6), as the Go
		// bot after the opponent's pass (BOT-D5).
		b := NewFGoBot(Level{Playouts: 200, NoEarlyPass: true}, seed)
		if p, _ := b.ChooseFGoOrResign(g, engine.White); p != engine.Pass {
			t.Errorf("seed %d: White, ahead, chose %s after Black's pass", seed, p.Vertex(5))
		}
	}
}
