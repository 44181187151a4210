package hmg

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kakure/kakure/engine"
)

// logEntry is one action of a random game with what it did.
type logEntry struct {
	action Action
	result ActionResult // with copies of the slices
	board  engine.Board
	toMove engine.Color
}

// sameResult compares two action results.
func sameResult(a, b ActionResult) bool {
	return a.Undo == b.Undo && a.TurnEnded == b.TurnEnded &&
		slices.Equal(a.Captured, b.Captured) && slices.Equal(a.Restored, b.Restored)
}

// chainsLive checks that every chain on b has a liberty.
func chainsLive(t *testing.T, b engine.Board) {
	t.Helper()
	for i := 0; i < b.Points(); i++ {
		if b.At(engine.Point(i)) != engine.Empty && !b.HasLiberty(engine.Point(i)) {
			t.Fatalf("chain at %s has no liberty:\n%v", engine.Point(i).Vertex(b.Size()), b)
		}
	}
}

// randomGame plays a random game from seed and checks the invariants
// after every action. It returns the log and the final game.
func randomGame(t *testing.T, seed uint64, size, ncards int) ([]logEntry, Game, [2][]engine.Point) {
	rng := rand.New(rand.NewPCG(seed, 0x6b616b757265))
	g, err := NewGame(engine.Options{Size: size, Cards: ncards, CardsSet: true})
	if err != nil {
		t.Fatal(err)
	}
	var cards [2][]engine.Point
	for i, c := range []engine.Color{engine.Black, engine.White} {
		for range ncards {
			cards[i] = append(cards[i], engine.Point(rng.IntN(size*size)))
		}
		if g, err = g.SetCards(c, cards[i]); err != nil {
			t.Fatal(err)
		}
	}
	// Stone ledger per colour: placed by plays, revealed, lost to
	// captures, restored by undos, removed by undos.
	var placed, revealed, lost, restored, undone, captures [3]int
	// An independent superko record: end positions of turns with a reveal
	// or a play, and the board just before the last play.
	ends := []engine.Board{g.Board()}
	var beforeLastPlay engine.Board
	var lastPlayCaptured []engine.Point
	turnRevealed := false
	var log []logEntry
	for step := 0; step < 250 && !g.PlayEnded(); step++ {
		c := g.ToMove()
		acts := g.LegalActions(c)
		if len(acts) == 0 {
			t.Fatalf("step %d: no legal action for %s\n%v", step, c, g.Board())
		}
		if other := g.LegalActions(c.Opponent()); other != nil {
			t.Fatalf("actions listed for the player not to move: %v", other)
		}
		// Cross-check the lists against Play and Reveal on every point
		// and card.
		plays := g.LegalPoints(c)
		for i := 0; i < size*size; i++ {
			p := engine.Point(i)
			if err := g.CheckPlay(c, p); (err == nil) != slices.Contains(plays, p) {
				t.Fatalf("step %d: %s play %s: CheckPlay %v, listed %v", step, c, p.Vertex(size), err, slices.Contains(plays, p))
			}
		}
		if err := g.CheckPlay(c, engine.Pass); (err == nil) != g.CanPass(c) {
			t.Fatalf("step %d: pass: CheckPlay %v, CanPass %v", step, err, g.CanPass(c))
		}
		listed := g.RevealableCards(c)
		for i, card := range g.Cards(c) {
			err := g.CheckReveal(c, i, card.Point)
			same := slices.ContainsFunc(listed, func(j int) bool { return g.Cards(c)[j].Point == card.Point })
			if (err == nil) != (same && !card.Revealed) {
				t.Fatalf("step %d: %s reveal card %d at %s: %v, listed %v", step, c, i, card.Point.Vertex(size), err, same)
			}
		}
		// Choose: an undo when one is possible, mostly; passes rarely
		// while the game is young.
		a := acts[rng.IntN(len(acts))]
		var undos, reveals []Action
		for _, x := range acts {
			if x.Reveal && x.Point == g.LastStone(c.Opponent()) {
				undos = append(undos, x)
			} else if x.Reveal {
				reveals = append(reveals, x)
			}
		}
		switch r := rng.IntN(10); {
		case len(undos) > 0 && r < 8:
			a = undos[0]
		case len(reveals) > 0 && r < 3:
			a = reveals[rng.IntN(len(reveals))]
		case a.Point == engine.Pass && !a.Reveal && step < 150 && len(acts) > 1 && r < 8:
			a = acts[rng.IntN(len(acts)-1)]
		}
		prev, prevBoard := g, g.Board()
		next, res, err := g.Apply(a)
		if err != nil {
			t.Fatalf("step %d: listed action %s: %v", step, a.Format(size), err)
		}
		if prev.Board() != prevBoard {
			t.Fatalf("step %d: Apply changed its receiver", step)
		}
		opp := c.Opponent()
		switch {
		case res.Undo:
			restored[c] += len(res.Restored)
			undone[opp]++
			captures[opp] -= len(res.Restored)
			revealed[c]++
		case a.Reveal:
			revealed[c]++
		case a.Point != engine.Pass:
			placed[c]++
			beforeLastPlay = prevBoard
			lastPlayCaptured = slices.Clone(res.Captured)
		}
		if res.Undo && !slices.Equal(res.Restored, lastPlayCaptured) {
			t.Fatalf("step %d: restored %v, the undone move captured %v", step, res.Restored, lastPlayCaptured)
		}
		lost[opp] += len(res.Captured)
		captures[c] += len(res.Captured)
		kept := ActionResult{Captured: slices.Clone(res.Captured), Undo: res.Undo, Restored: slices.Clone(res.Restored), TurnEnded: res.TurnEnded}
		// Write over the results: the game must own its own copies, or the
		// replays below would see another game.
		for i := range res.Captured {
			res.Captured[i] = engine.Pass
		}
		for i := range res.Restored {
			res.Restored[i] = engine.Pass
		}
		g = next
		log = append(log, logEntry{action: a, result: kept, board: g.Board(), toMove: g.ToMove()})

		// Invariants.
		b := g.Board()
		chainsLive(t, b)
		for _, col := range []engine.Color{engine.Black, engine.White} {
			want := placed[col] + revealed[col] - lost[col] + restored[col] - undone[col]
			if b.Count(col) != want {
				t.Fatalf("step %d: %d %s stones, ledger says %d (placed %d revealed %d lost %d restored %d undone %d)",
					step, b.Count(col), col, want, placed[col], revealed[col], lost[col], restored[col], undone[col])
			}
			if g.Captures(col) != captures[col] {
				t.Fatalf("step %d: Captures(%s) = %d, want %d", step, col, g.Captures(col), captures[col])
			}
		}
		if a.Reveal {
			turnRevealed = true
		}
		if res.TurnEnded {
			if res.Undo {
				ends = ends[:len(ends)-1]
				ends = append(ends, beforeLastPlay)
			}
			if res.Undo || turnRevealed || a.Point != engine.Pass {
				if slices.Contains(ends, b) {
					t.Fatalf("step %d: the turn ends on an earlier position:\n%v", step, b)
				}
				ends = append(ends, b)
			}
			turnRevealed = false
		}
	}
	return log, g, cards
}

// replay replays log in a game that knows the cards of the colours in
// known only, and checks that every position comes back.
func replay(t *testing.T, log []logEntry, final Game, cards [2][]engine.Point, known ...engine.Color) {
	t.Helper()
	size := final.board.Size()
	g, err := NewGame(final.Options())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range known {
		if g, err = g.SetCards(c, cards[c-1]); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range log {
		next, res, err := g.Apply(e.action)
		if err != nil {
			t.Fatalf("replay %v, action %d %s: %v", known, i, e.action.Format(size), err)
		}
		if next.Board() != e.board || next.ToMove() != e.toMove || !sameResult(res, e.result) {
			t.Fatalf("replay %v, action %d %s: another position or result", known, i, e.action.Format(size))
		}
		g = next
	}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if g.UnusedCards(c) != final.UnusedCards(c) || g.Captures(c) != final.Captures(c) {
			t.Errorf("replay %v: %s has %d unused cards and %d captures, want %d and %d",
				known, c, g.UnusedCards(c), g.Captures(c), final.UnusedCards(c), final.Captures(c))
		}
	}
	if g.Score(engine.Marking{}) != final.Score(engine.Marking{}) {
		t.Errorf("replay %v: another score", known)
	}
}

// FuzzHMGRandomGame plays random games with random cards, reveals, undos
// and plays, and checks the invariants: every chain has a liberty, the
// stone ledger balances, no turn with a reveal or a play ends on an
// earlier position, the lists of legal actions agree with the actions, and
// replaying the log reproduces every position, whether the replaying game
// knows both players' cards or only one player's.
func FuzzHMGRandomGame(f *testing.F) {
	for i := range uint64(8) {
		f.Add(i, uint8(i%3), uint8(3+i))
	}
	f.Add(uint64(100), uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, seed uint64, sizeByte, cardsByte uint8) {
		size := engine.MinSize + int(sizeByte%3)
		ncards := int(cardsByte % (MaxCards + 1))
		log, final, cards := randomGame(t, seed, size, ncards)
		replay(t, log, final, cards, engine.Black, engine.White)
		replay(t, log, final, cards, engine.Black)
		replay(t, log, final, cards, engine.White)
		s := final.Score(engine.Marking{})
		area := engine.AreaScore(final.Board(), engine.Marking{}, final.Options().Komi)
		if s.Black != area.Black+float64(final.UnusedCards(engine.White)) || s.White != area.White+float64(final.UnusedCards(engine.Black)) {
			t.Errorf("score %v/%v, area %v/%v, unused %d/%d", s.Black, s.White, area.Black, area.White, final.UnusedCards(engine.Black), final.UnusedCards(engine.White))
		}
	})
}

// TestHMGRandomGamesHaveUndos makes sure the random games of the fuzz
// test reach the cases they are meant to check.
func TestHMGRandomGamesHaveUndos(t *testing.T) {
	counts := map[string]int{}
	for seed := range uint64(8) {
		log, _, _ := randomGame(t, seed, engine.MinSize+int(seed%3), (3+int(seed))%10)
		for _, e := range log {
			switch {
			case e.result.Undo:
				counts["undo"]++
			case e.action.Reveal:
				counts["reveal"]++
			}
		}
	}
	if counts["undo"] == 0 || counts["reveal"] == 0 {
		t.Errorf("random games: %v, want undos and reveals", counts)
	}
	t.Log(fmt.Sprint(counts))
}

func BenchmarkHMGLegalActions(b *testing.B) {
	g, err := NewGame(engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 150 {
		plays := g.LegalPoints(g.ToMove())
		if g, _, err = g.Play(g.ToMove(), plays[rng.IntN(len(plays))]); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		_ = g.LegalActions(g.ToMove())
	}
}
