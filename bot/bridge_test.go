package bot

import (
	"math/rand/v2"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/bridge"
)

// randomBridgeGame plays n random Bridge Go moves (fewer if the game ends).
func randomBridgeGame(t testing.TB, size, n int, rng *rand.Rand) bridge.Game {
	t.Helper()
	g, err := bridge.NewGame(engine.Options{Variant: engine.VariantBridge, Size: size})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		moves := g.LegalPoints(g.ToMove())
		if len(moves) == 0 {
			break
		}
		next, _, err := g.Play(g.ToMove(), moves[rng.IntN(len(moves))])
		if err != nil {
			t.Fatal(err)
		}
		if next.Over() {
			break
		}
		g = next
	}
	return g
}

// TestBG1BG4BridgeBotLegal: in random positions the bot's move is legal
// for either colour (superko included, BG-4).
func TestBG1BG4BridgeBotLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	b := NewBridgeBot(Level{Playouts: 200}, 1)
	for i := 0; i < 15; i++ {
		size := []int{5, 7}[i%2]
		g := randomBridgeGame(t, size, rng.IntN(size*size), rng)
		for _, c := range []engine.Color{engine.Black, engine.White} {
			p := b.ChooseMove(g, c)
			if err := g.Check(c, p); err != nil {
				t.Fatalf("position %d, %v: %s illegal: %v\n%v", i, c, p.Vertex(size), err, g.Board())
			}
		}
	}
}

// bridgeFrom sets up a Bridge Go game on a diagram (the bots are asked
// for a given colour, whoever is to move).
func bridgeFrom(t testing.TB, rows ...string) bridge.Game {
	t.Helper()
	b := engine.MustParseBoard(rows...)
	g, err := bridge.NewGame(engine.Options{Variant: engine.VariantBridge, Size: b.Size()})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		for _, p := range b.Stones(c) {
			if g, _, err = g.Play(c, p); err != nil {
				t.Fatalf("setting up %s: %v", p.Vertex(b.Size()), err)
			}
		}
	}
	if g.Board() != b {
		t.Fatalf("set-up position differs:\n%v", g.Board())
	}
	return g
}

// TestBG3BridgeBotTactics: the bot completes its own bridge at once
// (BOT-BG-D1) and otherwise stops the opponent's (BOT-BG-D2).
func TestBG3BridgeBotTactics(t *testing.T) {
	rows := []string{
		". . X . . . .",
		". . X . . . .",
		". . X . . . .",
		". . . . . . .",
		". . X . O O O",
		". . X . . . .",
		". . X . . . .",
	}
	g := bridgeFrom(t, rows...)
	if p := NewBridgeBot(Level{Playouts: 100}, 1).ChooseMove(g, engine.White); p.Vertex(7) != "C4" {
		t.Errorf("White plays %s, want C4 to stop Black's bridge", p.Vertex(7))
	}
	if p := NewBridgeBot(Level{Playouts: 100}, 1).ChooseMove(g, engine.Black); p.Vertex(7) != "C4" {
		t.Errorf("Black plays %s, want the winning C4", p.Vertex(7))
	}
}

// TestBridgeBotBeatsRandom: a cheap strength test on 7×7.
func TestBridgeBotBeatsRandom(t *testing.T) {
	wins := 0
	const games = 2
	for i := 0; i < games; i++ {
		g, _ := bridge.NewGame(engine.Options{Variant: engine.VariantBridge, Size: 7})
		b := NewBridgeBot(Level{Playouts: 300}, uint64(i))
		rng := rand.New(rand.NewPCG(uint64(i), 1))
		botColor := engine.Color(1 + i%2)
		for n := 0; !g.Over() && n < 200; n++ {
			c := g.ToMove()
			var p engine.Point
			if c == botColor {
				p = b.ChooseMove(g, c)
			} else if moves := g.LegalPoints(c); len(moves) > 0 {
				p = moves[rng.IntN(len(moves))]
			} else {
				p = engine.Pass
			}
			var err error
			if g, _, err = g.Play(c, p); err != nil {
				t.Fatal(err)
			}
		}
		if g.Winner() == botColor {
			wins++
		}
	}
	if wins < games {
		t.Errorf("the bot won %d of %d games against the random player", wins, games)
	}
}
