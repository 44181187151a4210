package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/kakure/kakure/engine"
)

// testLevel is a level small enough for tests under -race.
var testLevel = Level{Playouts: 120}

// randomGoGame plays n random moves (no own eyes filled) from the empty
// board of side size.
func randomGoGame(t testing.TB, size, n int, rng *rand.Rand) engine.GoGame {
	t.Helper()
	g, err := engine.NewGoGame(engine.Options{Variant: engine.VariantGo, Size: size})
	if err != nil {
		t.Fatal(err)
	}
	r := &Random{Rand: rng}
	for i := 0; i < n && !g.PlayEnded(); i++ {
		c := g.ToMove()
		p := r.randomMove(g.Board(), c, func(p engine.Point) bool { return g.Check(c, p) == nil })
		if g, _, err = g.Play(c, p); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestGO1GO3GoBotLegal asks the Go bot for a move in random positions of
// every stage, for both colours: the move is legal by the game's rules
// (superko included) and never fills one of the mover's own eyes.
func TestGO1GO3GoBotLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	b := NewGoBot(testLevel, 3)
	for i := 0; i < 40; i++ {
		size := []int{5, 7, 9}[i%3]
		g := randomGoGame(t, size, rng.IntN(3*size*size), rng)
		for _, c := range []engine.Color{engine.Black, engine.White} {
			p := b.ChooseMove(g, c)
			if p == engine.Pass {
				continue
			}
			if err := g.Check(c, p); err != nil {
				t.Fatalf("position %d, %v: %s is illegal: %v\n%v", i, c, p.Vertex(size), err, g.Board())
			}
			board := g.Board()
			if geometryOf(size).surrounded(board.At, p, c) {
				t.Fatalf("position %d, %v: %s fills its own eye\n%v", i, c, p.Vertex(size), board)
			}
		}
	}
}

// TestGoBotDeterministic: the same seed and game give the same move.
func TestGoBotDeterministic(t *testing.T) {
	g := randomGoGame(t, 9, 20, rand.New(rand.NewPCG(5, 5)))
	a := NewGoBot(Level{Playouts: 300}, 7).ChooseMove(g, g.ToMove())
	b := NewGoBot(Level{Playouts: 300}, 7).ChooseMove(g, g.ToMove())
	if a != b {
		t.Errorf("same seed, moves %s and %s", a.Vertex(9), b.Vertex(9))
	}
}

// goFrom sets up a plain Go game on a diagram (engine.MustParseBoard rows)
// with toMove to play, by playing the stones in order with passes between.
func goFrom(t testing.TB, toMove engine.Color, rows ...string) engine.GoGame {
	t.Helper()
	b := engine.MustParseBoard(rows...)
	g, err := engine.NewGoGame(engine.Options{Variant: engine.VariantGo, Size: b.Size()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		for _, p := range b.Stones(c) {
			if g.ToMove() != c {
				g, _, _ = g.Play(g.ToMove(), engine.Pass)
			}
			if g, _, err = g.Play(c, p); err != nil {
				t.Fatalf("setting up %s: %v", p.Vertex(b.Size()), err)
			}
		}
	}
	if g.ToMove() != toMove {
		g, _, _ = g.Play(g.ToMove(), engine.Pass)
	}
	return g
}

// TestGO4GoBotPassesAndMarksDead: with only own eyes left the bot passes;
// after the opponent's pass it passes when it wins the position as it
// stands; its marking takes a lone stone inside its area as dead.
func TestGO4GoBotPassesAndMarksDead(t *testing.T) {
	onlyEyes := goFrom(t, engine.Black,
		"X X X X X",
		"X . X . X",
		"X X X X X",
		"X . X . X",
		"X X X X X")
	if p := NewGoBot(testLevel, 1).ChooseMove(onlyEyes, engine.Black); p != engine.Pass {
		t.Errorf("only eyes left: plays %s, want pass", p.Vertex(5))
	}
	won := goFrom(t, engine.Black,
		". X O . O . O",
		". X O O O O O",
		". X O . . . O",
		". X O . X . O",
		". X O . . . O",
		". X O O O O O",
		". X O . O . O")
	won, _, _ = won.Play(engine.Black, engine.Pass)
	b := NewGoBot(Level{Playouts: 400}, 2)
	board := won.Board()
	dead := b.MarkDead(board, engine.White)
	if !containsPoint(dead, engine.PointAt(7, 4, 3)) {
		t.Errorf("dead stones %s, want E4 among them", engine.FormatVertices(7, dead))
	}
	if containsPoint(dead, engine.PointAt(7, 2, 0)) || containsPoint(dead, engine.PointAt(7, 1, 0)) {
		t.Errorf("dead stones %s include a wall", engine.FormatVertices(7, dead))
	}
	if p := b.ChooseMove(won, engine.White); p != engine.Pass {
		t.Errorf("White wins as it stands after Black's pass, but plays %s", p.Vertex(7))
	}
}

// TestGoBotBeatsRandom is a cheap strength test: on 7×7 the bot at a small
// level beats the random player with either colour (komi 7.5). The real strength numbers come from kakure match.
func TestGoBotBeatsRandom(t *testing.T) {
	wins := 0
	const games = 2
	for i := 0; i < games; i++ {
		g, _ := engine.NewGoGame(engine.Options{Variant: engine.VariantGo, Size: 7})
		botColor := engine.Color(1 + i%2)
		b := NewGoBot(Level{Playouts: 200}, uint64(i))
		r := NewRandom(uint64(100 + i))
		for n := 0; !g.PlayEnded() && n < 200; n++ {
			c := g.ToMove()
			p := r.randomMove(g.Board(), c, func(p engine.Point) bool { return g.Check(c, p) == nil })
			if c == botColor {
				p = b.ChooseMove(g, c)
			}
			var err error
			if g, _, err = g.Play(c, p); err != nil {
				t.Fatal(err)
			}
		}
		board := g.Board()
		if g.Score(engine.MarkingOf(board, b.MarkDead(board, g.ToMove()))).Result().Winner == botColor {
			wins++
		}
	}
	if wins < games {
		t.Errorf("the bot won %d of %d games against the random player", wins, games)
	}
}
