package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

// setupPoints parses a space-separated list of GTP vertices on 5×5.
func setupPoints(t *testing.T, list string) []engine.Point {
	t.Helper()
	var ps []engine.Point
	for _, v := range strings.Fields(list) {
		p, err := engine.ParseVertex(5, v)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// TestSGFD6WithSetup checks GoGame.WithSetup (decision SGF-D6 of
// docs/sgf.md): stones placed before the first move, never capturing.
func TestSGFD6WithSetup(t *testing.T) {
	tests := []struct {
		Name         string
		Black, White string
		Err          error
		Board        []string
	}{
		{
			Name: "handicap stones", Black: "B2 D4",
			Board: []string{".....", "...X.", ".....", ".X...", "....."},
		},
		{
			Name: "both colours, a chain in atari is allowed", Black: "A2 B1", White: "B2 A3",
			Board: []string{".....", ".....", "O....", "XO...", ".X..."},
		},
		{Name: "point listed twice", Black: "C3 C3", Err: engine.ErrOccupied},
		{Name: "point of both colours", Black: "C3", White: "C3", Err: engine.ErrOccupied},
		{Name: "chain without a liberty", Black: "A1", White: "A2 B1", Err: engine.ErrSuicide},
		{Name: "surrounded group", Black: "A1 B1", White: "A2 B2 C1", Err: engine.ErrSuicide},
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			g, err := engine.NewGoGame(engine.Options{Size: 5})
			if err != nil {
				t.Fatal(err)
			}
			got, err := g.WithSetup(setupPoints(t, tt.Black), setupPoints(t, tt.White))
			if tt.Err != nil {
				if !errors.Is(err, tt.Err) {
					t.Fatalf("error %v, want %v", err, tt.Err)
				}
				if got.Board() != g.Board() {
					t.Errorf("a refused setup changed the board")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := engine.MustParseBoard(tt.Board...); got.Board() != want {
				t.Errorf("board\n%v\nwant\n%v", got.Board(), want)
			}
			if got.ToMove() != engine.Black || got.MoveNumber() != 0 {
				t.Errorf("setup changed the turn: %v to move after %d moves", got.ToMove(), got.MoveNumber())
			}
		})
	}
}

func TestSGFD6WithSetupRules(t *testing.T) {
	g, err := engine.NewGoGame(engine.Options{Size: 5})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.WithSetup([]engine.Point{25}, nil); !errors.Is(err, engine.ErrOffBoard) {
		t.Errorf("off-board setup: %v", err)
	}
	played, _, err := g.Play(engine.Black, setupPoints(t, "C3")[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := played.WithSetup(setupPoints(t, "A1"), nil); !errors.Is(err, engine.ErrWrongPhase) {
		t.Errorf("setup after a move: %v", err)
	}
	// The setup position is the start of the superko history: White
	// capturing into a position equal to it is refused.
	s, err := g.WithSetup(setupPoints(t, "B3 C4 C2"), setupPoints(t, "E3 D4 D2"))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err = s.Play(engine.Black, setupPoints(t, "D3")[0])
	if err != nil {
		t.Fatal(err)
	}
	s, _, err = s.Play(engine.White, setupPoints(t, "C3")[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Play(engine.Black, setupPoints(t, "D3")[0]); !errors.Is(err, engine.ErrSuperko) {
		t.Errorf("ko recapture after setup: %v", err)
	}
}
