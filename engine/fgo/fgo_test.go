package fgo

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kakure/kakure/engine"
)

// testGame returns an F-Go game on the position of the diagram, with
// that position as the only earlier one.
func testGame(t testing.TB, suicide engine.SuicideRule, rows ...string) Game {
	t.Helper()
	g, err := NewGame(engine.Options{Size: len(rows), Suicide: suicide})
	if err != nil {
		t.Fatal(err)
	}
	g.board = engine.MustParseBoard(rows...)
	g.history = (*engine.PositionHistory)(nil).Push(g.board)
	return g
}

func point(t testing.TB, size int, v string) engine.Point {
	t.Helper()
	p, err := engine.ParseVertex(size, v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// points reads a vertex list with engine.ParseVertexList, failing t on
// a bad one.
func points(t testing.TB, size int, list string) []engine.Point {
	t.Helper()
	ps, err := engine.ParseVertexList(size, list)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// turnStep is one turn and what it must do. For a refused turn only err
// is checked, and the game must not change.
type turnStep struct {
	black, white string
	err          error
	kind         TurnKind
	removed      string
	unavailable  string
}

// play runs the steps from g and returns the game after them.
func playSteps(t *testing.T, g Game, steps []turnStep) Game {
	t.Helper()
	size := g.board.Size()
	for i, s := range steps {
		b, w := point(t, size, s.black), point(t, size, s.white)
		before := g
		next, res, err := g.Turn(b, w)
		if !errors.Is(err, s.err) || (s.err != nil && err == nil) {
			t.Fatalf("turn %d (%s, %s): err %v, want %v", i+1, s.black, s.white, err, s.err)
		}
		if g.board != before.board || g.unavailable != before.unavailable {
			t.Fatalf("turn %d: Turn changed the receiver", i+1)
		}
		if err != nil {
			if next.board != g.board || next.TurnNumber() != g.TurnNumber() || next.unavailable != g.unavailable {
				t.Fatalf("turn %d: a refused turn changed the game", i+1)
			}
			continue
		}
		if res.Kind != s.kind {
			t.Fatalf("turn %d (%s, %s): %v, want %v\n%s", i+1, s.black, s.white, res.Kind, s.kind, next.Board())
		}
		if want := points(t, size, s.removed); !slices.Equal(res.Removed, want) {
			t.Errorf("turn %d: removed %s, want %s", i+1, engine.FormatVertices(size, res.Removed), engine.FormatVertices(size, want))
		}
		want := points(t, size, s.unavailable)
		if !slices.Equal(res.Unavailable, want) || !slices.Equal(next.Unavailable(), want) {
			t.Errorf("turn %d: unavailable %s (game %s), want %s", i+1,
				engine.FormatVertices(size, res.Unavailable), engine.FormatVertices(size, next.Unavailable()), engine.FormatVertices(size, want))
		}
		if res.Kind != Played && next.board != g.board {
			t.Errorf("turn %d: a %v turn changed the board", i+1, res.Kind)
		}
		if next.TurnNumber() != g.TurnNumber()+1 {
			t.Errorf("turn %d: turn number %d after %d", i+1, next.TurnNumber(), g.TurnNumber())
		}
		g = next
	}
	return g
}

func TestFG1(t *testing.T) {
	rows := []string{".....", ".....", "..X..", ".....", "....."}
	g := testGame(t, engine.SuicideNZ, rows...)
	// A collision on D4 marks it unavailable.
	g, _, err := g.Turn(point(t, 5, "D4"), point(t, 5, "D4"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		c    engine.Color
		p    engine.Point
		err  error
	}{
		{name: "FG-1 an empty point", c: engine.Black, p: point(t, 5, "B2")},
		{name: "FG-1 a pass", c: engine.White, p: engine.Pass},
		{name: "FG-1 an occupied point", c: engine.White, p: point(t, 5, "C3"), err: engine.ErrOccupied},
		{name: "FG-1 an occupied point, own stone", c: engine.Black, p: point(t, 5, "C3"), err: engine.ErrOccupied},
		{name: "FG-1 a point marked unavailable", c: engine.Black, p: point(t, 5, "D4"), err: ErrUnavailable},
		{name: "FG-1 a point marked unavailable, for White too", c: engine.White, p: point(t, 5, "D4"), err: ErrUnavailable},
		{name: "FG-1 a point off the board", c: engine.Black, p: 25, err: engine.ErrOffBoard},
		{name: "FG-1 NoPoint is no choice", c: engine.Black, p: engine.NoPoint, err: engine.ErrOffBoard},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := g.CheckChoice(tt.c, tt.p)
			if !errors.Is(err, tt.err) || (tt.err != nil && err == nil) {
				t.Fatalf("CheckChoice(%v, %d): %v, want %v", tt.c, tt.p, err, tt.err)
			}
			// Turn refuses the same choices, for either player.
			b, w := tt.p, point(t, 5, "A5")
			if tt.c == engine.White {
				b, w = w, b
			}
			next, _, err := g.Turn(b, w)
			if !errors.Is(err, tt.err) || (tt.err != nil && err == nil) {
				t.Fatalf("Turn: %v, want %v", err, tt.err)
			}
			if err != nil && (next.board != g.board || next.TurnNumber() != g.TurnNumber()) {
				t.Fatalf("a refused turn changed the game")
			}
		})
	}
	if err := g.CheckChoice(engine.Empty, point(t, 5, "B2")); err == nil {
		t.Errorf("FG-1 a choice for Empty was accepted")
	}
	if _, err := NewGame(engine.Options{Variant: engine.VariantBridge}); !errors.Is(err, engine.ErrBadOptions) {
		t.Errorf("FG-1 F-Go game with variant bridge: err %v, want ErrBadOptions", err)
	}
}

func TestFG2(t *testing.T) {
	tests := []struct {
		name  string
		steps []turnStep
	}{
		{
			name: "FG-2 a collision plays nothing and marks the point",
			steps: []turnStep{
				{black: "C3", white: "C3", kind: Collision, unavailable: "C3"},
			},
		},
		{
			name: "FG-2 a marked point may not be chosen by either player",
			steps: []turnStep{
				{black: "C3", white: "C3", kind: Collision, unavailable: "C3"},
				{black: "C3", white: "D4", err: ErrUnavailable},
				{black: "D4", white: "C3", err: ErrUnavailable},
			},
		},
		{
			name: "FG-2 marks add up while no stone is played",
			steps: []turnStep{
				{black: "C3", white: "C3", kind: Collision, unavailable: "C3"},
				{black: "B2", white: "B2", kind: Collision, unavailable: "B2,C3"},
			},
		},
		{
			name: "FG-2 marks are cleared by a turn that plays one stone",
			steps: []turnStep{
				{black: "C3", white: "C3", kind: Collision, unavailable: "C3"},
				{black: "pass", white: "D4", kind: Played, unavailable: "-"},
				{black: "C3", white: "B2", kind: Played},
			},
		},
		{
			name: "FG-2 marks are cleared by a turn that plays two stones",
			steps: []turnStep{
				{black: "C3", white: "C3", kind: Collision, unavailable: "C3"},
				{black: "B2", white: "D4", kind: Played, unavailable: "-"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGame(engine.Options{Size: 5})
			if err != nil {
				t.Fatal(err)
			}
			playSteps(t, g, tt.steps)
		})
	}
}

func TestFG3(t *testing.T) {
	tests := []struct {
		name         string
		rows         []string
		black, white string
		removed      string
		after        []string
	}{
		{
			name:  "FG-3 both new stones capture",
			rows:  []string{"...OX", ".....", ".....", ".....", "OX..."},
			black: "A2", white: "E4", removed: "A1,E5",
			after: []string{"...O.", "....O", ".....", "X....", ".X..."},
		},
		{
			name:  "FG-3 a new stone without liberty survives as step 2 removes the stone around it",
			rows:  []string{".....", ".....", ".....", "XO...", "O.O.."},
			black: "B1", white: "E5", removed: "A1",
			after: []string{"....O", ".....", ".....", "XO...", ".XO.."},
		},
		{
			name:  "FG-3 step 3 removes a new stone still without liberty",
			rows:  []string{".....", ".....", ".....", "O....", ".O..."},
			black: "A1", white: "E5", removed: "A1",
			after: []string{"....O", ".....", ".....", "O....", ".O..."},
		},
		{
			name:  "FG-3 step 3 removes the whole chain of the new stone",
			rows:  []string{".....", ".....", ".....", "OO...", "X.O.."},
			black: "B1", white: "E5", removed: "A1,B1",
			after: []string{"....O", ".....", ".....", "OO...", "..O.."},
		},
		{
			name:  "FG-3 the stones take each other's last liberty; White's captures in step 2 and lives, Black's goes in step 3",
			rows:  []string{".....", ".....", ".....", ".OXO.", "O..XO"},
			black: "B1", white: "C1", removed: "B1,D1",
			after: []string{".....", ".....", ".....", ".OXO.", "O.O.O"},
		},
		{
			name:  "FG-3 chains joined to a new stone wait for step 3, where both go",
			rows:  []string{".....", ".....", "XO...", ".XO..", "O.O.."},
			black: "B1", white: "A2", removed: "A1,B1,A2,B2",
			after: []string{".....", ".....", "XO...", "..O..", "..O.."},
		},
		{
			name:  "FG-3 step 2 removes touching chains of both colours together",
			rows:  []string{".....", ".....", ".....", ".OX..", ".XO.."},
			black: "D1", white: "A1", removed: "B1,C1",
			after: []string{".....", ".....", ".....", ".OX..", "O..X."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := testGame(t, engine.SuicideNZ, tt.rows...)
			size := len(tt.rows)
			b, w := point(t, size, tt.black), point(t, size, tt.white)
			next, res, err := g.Turn(b, w)
			if err != nil {
				t.Fatal(err)
			}
			if res.Kind != Played {
				t.Fatalf("kind %v, want played", res.Kind)
			}
			if want := points(t, size, tt.removed); !slices.Equal(res.Removed, want) {
				t.Errorf("removed %s, want %s", engine.FormatVertices(size, res.Removed), engine.FormatVertices(size, want))
			}
			if want := engine.MustParseBoard(tt.after...); next.Board() != want {
				t.Errorf("position after:\n%swant:\n%s", next.Board(), want)
			}
			if got := res.Format(size); got != "played removed="+engine.FormatVertices(size, points(t, size, tt.removed)) {
				t.Errorf("Format: %q", got)
			}
			// Simultaneity: the same turn with the colours swapped gives the
			// swapped result.
			sg := testGame(t, engine.SuicideNZ, tt.rows...)
			sg.board = swapColors(sg.board)
			sg.history = (*engine.PositionHistory)(nil).Push(sg.board)
			snext, sres, err := sg.Turn(w, b)
			if err != nil || !slices.Equal(sres.Removed, res.Removed) || snext.Board() != swapColors(next.Board()) {
				t.Errorf("colour-swapped turn: %v %v\n%s", err, sres, snext.Board())
			}
			// Captures count the stones of the other colour removed.
			var removedOf [3]int
			for _, p := range res.Removed {
				if g.board.At(p) != engine.Empty {
					removedOf[g.board.At(p)]++
				} else if p == b {
					removedOf[engine.Black]++
				} else {
					removedOf[engine.White]++
				}
			}
			if next.Captures(engine.Black) != removedOf[engine.White] || next.Captures(engine.White) != removedOf[engine.Black] {
				t.Errorf("captures %d/%d, want %d/%d", next.Captures(engine.Black), next.Captures(engine.White), removedOf[engine.White], removedOf[engine.Black])
			}
		})
	}
}

// koRows is a ko (White B3 in atari at C3) with a black suicide point at E1.
var koRows = []string{
	".....",
	".XO..",
	"XO.O.",
	".XO.O",
	"...O.",
}

func TestFG4(t *testing.T) {
	tests := []struct {
		name  string
		steps []turnStep
	}{
		{
			name: "FG-4 Decision: retaking the ko at once is void and marks the point",
			steps: []turnStep{
				{black: "C3", white: "pass", kind: Played, removed: "B3"},
				{black: "pass", white: "B3", kind: Superko, unavailable: "B3"},
				{black: "pass", white: "B3", err: ErrUnavailable},
				{black: "A5", white: "E5", kind: Played, unavailable: "-"},
				{black: "pass", white: "B3", kind: Played, removed: "C3"},
			},
		},
		{
			name: "FG-4 Decision: each stone point of a void turn is marked",
			steps: []turnStep{
				{black: "C3", white: "pass", kind: Played, removed: "B3"},
				{black: "E1", white: "B3", kind: Superko, unavailable: "B3,E1"},
			},
		},
		{
			name: "FG-4 a stone removed alone while the other passes repeats the position",
			steps: []turnStep{
				{black: "E1", white: "pass", kind: Superko, unavailable: "E1"},
				{black: "pass", white: "A5", kind: Played, unavailable: "-"},
				{black: "E1", white: "A4", kind: Played, removed: "E1"},
			},
		},
		{
			name: "FG-4 marks of a void turn add to those of a collision",
			steps: []turnStep{
				{black: "A5", white: "A5", kind: Collision, unavailable: "A5"},
				{black: "E1", white: "pass", kind: Superko, unavailable: "A5,E1"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			playSteps(t, testGame(t, engine.SuicideNZ, koRows...), tt.steps)
		})
	}
}

func TestFG5(t *testing.T) {
	tests := []struct {
		name         string
		suicide      engine.SuicideRule
		rows         []string
		black, white string
		err          error
		kind         TurnKind
		removed      string
	}{
		{
			name: "FG-5 nz: a suicide point may be chosen and the stone is removed",
			rows: koRows, black: "E1", white: "A5", kind: Played, removed: "E1",
		},
		{
			name: "FG-5 forbid: a point where the stone alone is suicide is refused",
			rows: koRows, suicide: engine.SuicideForbid, black: "E1", white: "A5", err: engine.ErrSuicide,
		},
		{
			name: "FG-5 forbid: the point is refused even when the other passes",
			rows: koRows, suicide: engine.SuicideForbid, black: "E1", white: "pass", err: engine.ErrSuicide,
		},
		{
			name: "FG-5 forbid: a point that is suicide for Black only is open to White",
			rows: koRows, suicide: engine.SuicideForbid, black: "A5", white: "E1", kind: Played,
		},
		{
			name: "FG-5 forbid: a point that captures is no suicide",
			rows: koRows, suicide: engine.SuicideForbid, black: "C3", white: "A5", kind: Played, removed: "B3",
		},
		{
			name:    "FG-5 forbid: a stone left without liberty by the other's stone is still removed",
			suicide: engine.SuicideForbid,
			rows:    []string{".....", ".....", ".....", ".OXO.", "O..XO"},
			black:   "B1", white: "C1", kind: Played, removed: "B1,D1",
		},
		{
			name:    "FG-5 forbid: a chain joined to a suicide point counts as suicide",
			suicide: engine.SuicideForbid,
			rows:    []string{".....", ".....", ".....", "OO...", "X.O.."},
			black:   "B1", white: "E5", err: engine.ErrSuicide,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := testGame(t, tt.suicide, tt.rows...)
			size := len(tt.rows)
			playSteps(t, g, []turnStep{{black: tt.black, white: tt.white, err: tt.err, kind: tt.kind, removed: tt.removed}})
			if tt.err != nil {
				if err := g.CheckChoice(engine.Black, point(t, size, tt.black)); !errors.Is(err, tt.err) {
					t.Errorf("CheckChoice: %v, want %v", err, tt.err)
				}
			}
		})
	}
}

func TestFG6(t *testing.T) {
	g, err := NewGame(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if o := g.Options(); o.Size != 9 || o.Komi != 0 || o.Suicide != engine.SuicideNZ || o.Variant != engine.VariantFGo {
		t.Errorf("FG-6 defaults: %+v, want 9x9, komi 0, nz", o)
	}

	// Black builds column B and White column D on 5×5, then both pass.
	g, err = NewGame(engine.Options{Size: 5})
	if err != nil {
		t.Fatal(err)
	}
	for row := 1; row <= 5; row++ {
		var res TurnResult
		g, res, err = g.Turn(point(t, 5, "B"+string(rune('0'+row))), point(t, 5, "D"+string(rune('0'+row))))
		if err != nil || res.Kind != Played || res.PlayEnded {
			t.Fatalf("turn %d: %v %+v", row, err, res)
		}
	}
	next, res, err := g.Turn(engine.Pass, point(t, 5, "C1"))
	if err != nil || next.PlayEnded() || res.PlayEnded {
		t.Errorf("FG-6 one pass ended play: %v %+v", err, res)
	}
	ended, res, err := g.Turn(engine.Pass, engine.Pass)
	if err != nil || res.Kind != Played || !res.PlayEnded || !ended.PlayEnded() || res.Format(5) != "played removed=-" {
		t.Fatalf("FG-6 both passed: %v %+v ended %v", err, res, ended.PlayEnded())
	}
	s := ended.Score(engine.Marking{})
	if s.Black != 10 || s.White != 10 || s.Result().String() != "0" {
		t.Errorf("FG-6 area score %v–%v %v, want a 10–10 draw", s.Black, s.White, s.Result())
	}
	komi, err := NewGame(engine.Options{Size: 5, Komi: 0.5, KomiSet: true})
	if err != nil {
		t.Fatal(err)
	}
	komi.board = ended.board
	if r := komi.Score(engine.Marking{}).Result(); r.String() != "W+0.5" {
		t.Errorf("FG-6 komi 0.5: %v, want W+0.5", r)
	}
	// FG-D: a turn after the end resumes play.
	resumed, _, err := ended.Turn(point(t, 5, "C1"), engine.Pass)
	if err != nil || resumed.PlayEnded() {
		t.Errorf("FG-6 a turn after the end: %v, play ended %v", err, resumed.PlayEnded())
	}
}

func TestFG7(t *testing.T) {
	ko := testGame(t, engine.SuicideNZ, koRows...)
	afterTake, _, err := ko.Turn(point(t, 5, "C3"), engine.Pass)
	if err != nil {
		t.Fatal(err)
	}
	collided, _, err := ko.Turn(point(t, 5, "A5"), point(t, 5, "A5"))
	if err != nil {
		t.Fatal(err)
	}
	forbid := testGame(t, engine.SuicideForbid, koRows...)
	tests := []struct {
		name         string
		g            Game
		offer        Offer
		err          error
		black, white string // the turn the offer stands for
		removed      string
	}{
		{
			name:  "FG-7 Black offers: if you play D5 I play C3",
			g:     ko,
			offer: Offer{From: engine.Black, IfYouPlay: point(t, 5, "D5"), IPlay: point(t, 5, "C3")},
			black: "C3", white: "D5", removed: "B3",
		},
		{
			name:  "FG-7 White offers: if you play A5 I play E1",
			g:     ko,
			offer: Offer{From: engine.White, IfYouPlay: point(t, 5, "A5"), IPlay: point(t, 5, "E1")},
			black: "A5", white: "E1",
		},
		{
			name:  "FG-7 an offer may hold a pass",
			g:     ko,
			offer: Offer{From: engine.White, IfYouPlay: engine.Pass, IPlay: point(t, 5, "C3")},
			black: "pass", white: "C3",
		},
		{
			name:  "FG-7 both passing may be agreed",
			g:     ko,
			offer: Offer{From: engine.Black, IfYouPlay: engine.Pass, IPlay: engine.Pass},
			black: "pass", white: "pass",
		},
		{
			name:  "FG-7 an offer must come from a player",
			g:     ko,
			offer: Offer{From: engine.Empty, IfYouPlay: point(t, 5, "D5"), IPlay: point(t, 5, "C3")},
			err:   ErrBadOffer,
		},
		{
			name:  "FG-7 an offer on an occupied point",
			g:     ko,
			offer: Offer{From: engine.Black, IfYouPlay: point(t, 5, "B3"), IPlay: point(t, 5, "C3")},
			err:   engine.ErrOccupied,
		},
		{
			name:  "FG-7 an offer on an unavailable point",
			g:     collided,
			offer: Offer{From: engine.Black, IfYouPlay: point(t, 5, "D5"), IPlay: point(t, 5, "A5")},
			err:   ErrUnavailable,
		},
		{
			name:  "FG-7 an offer of a collision is refused",
			g:     ko,
			offer: Offer{From: engine.Black, IfYouPlay: point(t, 5, "C3"), IPlay: point(t, 5, "C3")},
			err:   ErrBadOffer,
		},
		{
			name:  "FG-7 an offer of a void superko turn is refused",
			g:     afterTake,
			offer: Offer{From: engine.White, IfYouPlay: engine.Pass, IPlay: point(t, 5, "B3")},
			err:   engine.ErrSuperko,
		},
		{
			name:  "FG-7 an offer of a forbidden suicide is refused",
			g:     forbid,
			offer: Offer{From: engine.White, IfYouPlay: point(t, 5, "E1"), IPlay: point(t, 5, "A5")},
			err:   engine.ErrSuicide,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.g.CheckOffer(tt.offer)
			next, res, aerr := tt.g.AcceptOffer(tt.offer)
			if tt.err != nil {
				if !errors.Is(err, tt.err) || !errors.Is(err, ErrBadOffer) || !errors.Is(aerr, tt.err) {
					t.Fatalf("CheckOffer %v, AcceptOffer %v; want %v", err, aerr, tt.err)
				}
				if next.board != tt.g.board || next.TurnNumber() != tt.g.TurnNumber() {
					t.Fatalf("a refused offer changed the game")
				}
				return
			}
			if err != nil || aerr != nil {
				t.Fatalf("CheckOffer %v, AcceptOffer %v", err, aerr)
			}
			b, w := tt.offer.Choices()
			if b != point(t, 5, tt.black) || w != point(t, 5, tt.white) {
				t.Errorf("choices %s %s, want %s %s", b.Vertex(5), w.Vertex(5), tt.black, tt.white)
			}
			want, wantRes, err := tt.g.Turn(b, w)
			if err != nil {
				t.Fatal(err)
			}
			if next.board != want.board || res.Kind != Played || !slices.Equal(res.Removed, wantRes.Removed) ||
				!slices.Equal(res.Removed, points(t, 5, tt.removed)) {
				t.Errorf("accepted offer played %+v\n%s", res, next.Board())
			}
		})
	}
}

// FuzzFGoInvariants plays the turns the input spells and checks after
// each: a turn is refused exactly when a choice is; a played turn leaves
// every chain with a liberty, no marks, no repeated position and the
// stones counted right; a collision and a void turn change no stone; a
// turn with one stone is plain Go with suicide allowed; the game played
// with colours swapped gives the swapped results.
func FuzzFGoInvariants(f *testing.F) {
	f.Add([]byte{0, 0, 12, 12, 12, 13, 7, 17, 11, 8, 6, 16, 18, 2, 25, 25})
	f.Add([]byte{0, 1, 12, 6, 7, 11, 13, 17, 8, 16, 18, 1, 0, 2, 10, 25, 5, 25, 0, 25})
	f.Add([]byte{4, 0, 40, 41, 31, 49, 39, 32, 50, 30, 48, 22, 30, 81, 40, 81, 81, 81})
	f.Add([]byte{1, 1, 0, 1, 7, 2, 6, 13, 12, 8, 14, 3, 1, 36, 0, 36, 7, 36})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 || len(data) > 1000 {
			return
		}
		size := 5 + int(data[0])%5
		rule := engine.SuicideNZ
		if data[1]%2 == 1 {
			rule = engine.SuicideForbid
		}
		g, err := NewGame(engine.Options{Size: size, Suicide: rule})
		if err != nil {
			t.Fatal(err)
		}
		sg := g // the same game with colours swapped
		seen := map[engine.Board]bool{g.board: true}
		choice := func(x byte) engine.Point {
			p := engine.Point(int(x) % (size*size + 1))
			if int(p) == size*size {
				return engine.Pass
			}
			return p
		}
		for i := 2; i+1 < len(data); i += 2 {
			b, w := choice(data[i]), choice(data[i+1])
			before := g
			next, res, err := g.Turn(b, w)
			snext, sres, serr := sg.Turn(w, b)
			if (err != nil) != (g.CheckChoice(engine.Black, b) != nil || g.CheckChoice(engine.White, w) != nil) {
				t.Fatalf("turn %s %s: err %v disagrees with CheckChoice", b.Vertex(size), w.Vertex(size), err)
			}
			if (err == nil) != (serr == nil) {
				t.Fatalf("turn %s %s: err %v, colour-swapped %v", b.Vertex(size), w.Vertex(size), err, serr)
			}
			if g.board != before.board || g.unavailable != before.unavailable {
				t.Fatal("Turn changed the receiver")
			}
			if err != nil {
				continue
			}
			if res.Kind != sres.Kind || !slices.Equal(res.Removed, sres.Removed) || snext.board != swapColors(next.board) ||
				next.unavailable != snext.unavailable {
				t.Fatalf("colour-swapped turn differs: %+v %+v\n%s%s", res, sres, next.board, snext.board)
			}
			g, sg = next, snext
			switch res.Kind {
			case Collision, Superko:
				if g.board != before.board {
					t.Fatalf("%v turn changed the board", res.Kind)
				}
				for _, p := range []engine.Point{b, w} {
					if p != engine.Pass && !g.IsUnavailable(p) {
						t.Fatalf("%v turn left %s available", res.Kind, p.Vertex(size))
					}
				}
				continue
			}
			if b == engine.Pass && w == engine.Pass {
				if !g.PlayEnded() || g.board != before.board {
					t.Fatal("two passes did not end play, or changed the board")
				}
				continue
			}
			if len(g.Unavailable()) != 0 {
				t.Fatalf("marks left after a played turn: %v", g.Unavailable())
			}
			placed := 0
			for _, p := range []engine.Point{b, w} {
				if p != engine.Pass {
					placed++
				}
			}
			nb := g.board
			if n := nb.Count(engine.Black) + nb.Count(engine.White); n != before.board.Count(engine.Black)+before.board.Count(engine.White)+placed-len(res.Removed) {
				t.Fatalf("stones not conserved: %+v\n%s", res, nb)
			}
			for q := 0; q < nb.Points(); q++ {
				if nb.At(engine.Point(q)) != engine.Empty && !nb.HasLiberty(engine.Point(q)) {
					t.Fatalf("chain without liberty at %s\n%s", engine.Point(q).Vertex(size), nb)
				}
			}
			if seen[nb] {
				t.Fatalf("position repeats\n%s", nb)
			}
			seen[nb] = true
			if placed == 1 {
				// One stone: GO-1, with a suicide removing the chain.
				p, c := b, engine.Black
				if b == engine.Pass {
					p, c = w, engine.White
				}
				want, pr := before.board.Place(p, c)
				if pr.Suicide {
					want = before.board
					want.Set(p, c)
					stones, _ := want.Chain(p)
					for _, s := range stones {
						want.Set(s, engine.Empty)
					}
				}
				if want != nb {
					t.Fatalf("one stone at %s: got\n%swant\n%s", p.Vertex(size), nb, want)
				}
			}
		}
	})
}

// randomChoice picks a point c may choose, or a pass now and then.
func randomChoice(g Game, c engine.Color, r *rand.Rand) engine.Point {
	n := g.board.Points()
	if r.IntN(50) == 0 {
		return engine.Pass
	}
	for try := 0; try < 4*n; try++ {
		p := engine.Point(r.IntN(n))
		if g.board.At(p) == engine.Empty && g.CheckChoice(c, p) == nil {
			return p
		}
	}
	return engine.Pass
}

// BenchmarkFGoTurn19 measures F-Go turns on 19×19: random choices for both
// players from a random position after 75 turns, starting again from it
// after 100 turns or when play ends. Collisions and void turns count as
// turns.
func BenchmarkFGoTurn19(b *testing.B) {
	r := rand.New(rand.NewPCG(19, 19))
	start, err := NewGame(engine.Options{Size: 19})
	if err != nil {
		b.Fatal(err)
	}
	for start.TurnNumber() < 75 {
		start, _, _ = start.Turn(randomChoice(start, engine.Black, r), randomChoice(start, engine.White, r))
	}
	g := start
	b.ResetTimer()
	for b.Loop() {
		if g.PlayEnded() || g.TurnNumber() >= start.TurnNumber()+100 {
			g = start
		}
		g, _, _ = g.Turn(randomChoice(g, engine.Black, r), randomChoice(g, engine.White, r))
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "turns/s")
}

// swapColors returns b with Black and White exchanged.
func swapColors(b engine.Board) engine.Board {
	for i := 0; i < b.Points(); i++ {
		b.Set(engine.Point(i), b.At(engine.Point(i)).Opponent())
	}
	return b
}
