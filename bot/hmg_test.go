package bot

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/hmg"
)

// hmgGame starts a referee's game with both players' cards set.
func hmgGame(t testing.TB, size int, black, white []engine.Point) hmg.Game {
	t.Helper()
	g, err := hmg.NewGame(engine.Options{Variant: engine.VariantHMG, Size: size, Cards: len(black), CardsSet: true})
	if err != nil {
		t.Fatal(err)
	}
	if g, err = g.SetCards(engine.Black, black); err != nil {
		t.Fatal(err)
	}
	if g, err = g.SetCards(engine.White, white); err != nil {
		t.Fatal(err)
	}
	return g
}

func vertices(t testing.TB, size int, vs ...string) []engine.Point {
	t.Helper()
	var ps []engine.Point
	for _, v := range vs {
		p, err := engine.ParseVertex(size, v)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// TestHMG1HMGBotCards: the bot's cards are n points of the board, distinct
// while the good points last.
func TestHMG1HMGBotCards(t *testing.T) {
	for _, tt := range []struct{ size, n int }{{9, 3}, {19, 9}, {5, 9}, {13, 0}} {
		ps := NewHMGBot(testLevel, 1).ChooseCards(tt.size, tt.n)
		if len(ps) != tt.n {
			t.Fatalf("%d×%d: %d cards, want %d", tt.size, tt.size, len(ps), tt.n)
		}
		seen := map[engine.Point]bool{}
		for _, p := range ps {
			if p < 0 || int(p) >= tt.size*tt.size || seen[p] {
				t.Fatalf("%d×%d: cards %v", tt.size, tt.size, ps)
			}
			seen[p] = true
		}
	}
}

// TestHMG2HMG3HMGBotLegal plays games between two bots with cards: every
// action is one of LegalActions, and the games end.
func TestHMG2HMG3HMGBotLegal(t *testing.T) {
	for seed := uint64(0); seed < 3; seed++ {
		size := []int{5, 7, 9}[seed]
		bots := [3]*HMGBot{engine.Black: NewHMGBot(Level{Playouts: 40}, seed), engine.White: NewHMGBot(Level{Playouts: 40}, seed+10)}
		g := hmgGame(t, size, bots[engine.Black].ChooseCards(size, 3), bots[engine.White].ChooseCards(size, 3))
		reveals := 0
		for n := 0; !g.PlayEnded(); n++ {
			if n > 6*size*size {
				t.Fatalf("%d×%d: no end after %d actions", size, size, n)
			}
			c := g.ToMove()
			a := bots[c].ChooseAction(g, c)
			if !slices.Contains(g.LegalActions(c), a) {
				t.Fatalf("%d×%d: %s is not a legal action\n%v", size, size, a.Format(size), g.Board())
			}
			next, _, err := g.Apply(a)
			if err != nil {
				t.Fatal(err)
			}
			if a.Reveal {
				reveals++
			}
			g = next
		}
		if reveals == 0 {
			t.Errorf("%d×%d: no card revealed in the whole game", size, size)
		}
	}
}

// TestHMG5HMGBotUndoes: a card on the opponent's last stone undoes it.
func TestHMG5HMGBotUndoes(t *testing.T) {
	g := hmgGame(t, 9, vertices(t, 9, "A1", "E5"), vertices(t, 9, "J9", "J8"))
	g, _, _ = g.Play(engine.Black, vertices(t, 9, "C3")[0])
	g, _, _ = g.Play(engine.White, vertices(t, 9, "E5")[0])
	a := NewHMGBot(testLevel, 1).ChooseAction(g, engine.Black)
	if !a.Reveal || a.Point != vertices(t, 9, "E5")[0] {
		t.Errorf("action %s, want the undo black reveal 1 E5", a.Format(9))
	}
}

// TestHMG3HMGBotCaptures: a card that captures is revealed, the largest
// capture first; one that saves a chain in atari too.
func TestHMG3HMGBotCaptures(t *testing.T) {
	g := hmgGame(t, 9, vertices(t, 9, "J9", "B1"), vertices(t, 9, "J1", "J2"))
	for _, m := range []struct {
		c engine.Color
		v string
	}{{engine.Black, "C1"}, {engine.White, "A1"}, {engine.Black, "A3"}, {engine.White, "A2"}, {engine.Black, "B2"}, {engine.White, "G7"}} {
		var err error
		if g, _, err = g.Play(m.c, vertices(t, 9, m.v)[0]); err != nil {
			t.Fatal(err)
		}
	}
	// White's A1-A2 has one liberty, B1, which Black's second card holds.
	a := NewHMGBot(testLevel, 1).ChooseAction(g, engine.Black)
	if !a.Reveal || a.Card != 1 {
		t.Errorf("action %s, want black reveal 1 B1, which captures\n%v", a.Format(9), g.Board())
	}
}

// TestHMGBotHiddenInformation (HMG-1): games that differ only in the
// opponent's card points — and a peer's game, which does not know them —
// give the bot the same action (ChooseAction) and the same regular move
// (ChoosePlay, GTP's genmove) for the same seed.
func TestHMGBotHiddenInformation(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for k := 0; k < 5; k++ {
		mine := vertices(t, 9, "C3", "G7", "E5")
		theirs := [][]engine.Point{vertices(t, 9, "D4", "F6", "C7"), vertices(t, 9, "A9", "J1", "E6")}
		peer, _ := hmg.NewGame(engine.Options{Variant: engine.VariantHMG, Size: 9})
		peer, _ = peer.SetCards(engine.Black, mine)
		games := []hmg.Game{hmgGame(t, 9, mine, theirs[0]), hmgGame(t, 9, mine, theirs[1]), peer}
		// The same random regular moves in all three games.
		for i := 0; i < 2*k; i++ {
			c := games[0].ToMove()
			plays := games[0].LegalPoints(c)
			p := plays[rng.IntN(len(plays))]
			for j := range games {
				var err error
				if games[j], _, err = games[j].Play(c, p); err != nil {
					t.Fatal(err)
				}
			}
		}
		var actions []hmg.Action
		var plays []engine.Point
		for _, g := range games {
			if g.ToMove() != engine.Black {
				t.Fatal("the bot must play Black, whose cards are the same in every game")
			}
			actions = append(actions, NewHMGBot(Level{Playouts: 200}, 3).ChooseAction(g, engine.Black))
			plays = append(plays, NewHMGBot(Level{Playouts: 200}, 3).ChoosePlay(g, engine.Black))
		}
		if actions[0] != actions[1] || actions[0] != actions[2] {
			t.Errorf("position %d: actions %v", k, actions)
		}
		if plays[0] != plays[1] || plays[0] != plays[2] {
			t.Errorf("position %d: ChoosePlay %v", k, plays)
		}
	}
}
