package engine

import (
	"strings"
	"testing"
)

// boardFromRows builds a board from rows of '.', 'X' (Black) and 'O'
// (White), the top row first.
func boardFromRows(t *testing.T, rows ...string) Board {
	t.Helper()
	b, err := NewBoard(len(rows))
	if err != nil {
		t.Fatal(err)
	}
	for y, row := range rows {
		for x, c := range strings.ReplaceAll(row, " ", "") {
			switch c {
			case 'X':
				b.Set(PointAt(len(rows), x, y), Black)
			case 'O':
				b.Set(PointAt(len(rows), x, y), White)
			}
		}
	}
	return b
}

// TestUID35EstimateScore: the estimate on request (UI-D35) counts every
// stone as it stands and gives an empty point to the strictly nearer
// colour; points as near to both count for nobody; komi goes to White.
func TestUID35EstimateScore(t *testing.T) {
	for _, tt := range []struct {
		name                 string
		rows                 []string
		komi                 float64
		blackTer, whiteTer   int
		blackStones, whiteSt int
	}{
		{"empty board", []string{".....", ".....", ".....", ".....", "....."}, 6.5, 0, 0, 0, 0},
		{"one stone takes the board", []string{".....", ".....", "..X..", ".....", "....."}, 0, 24, 0, 1, 0},
		{"a wall splits the board", []string{
			".X.O.",
			".X.O.",
			".X.O.",
			".X.O.",
			".X.O.",
		}, 0.5, 5, 5, 5, 5},
		{"facing stones leave a neutral middle", []string{
			".....",
			".....",
			"X...O",
			".....",
			".....",
		}, 0, 9, 9, 1, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := EstimateScore(boardFromRows(t, tt.rows...), tt.komi)
			if s.BlackTerritory != tt.blackTer || s.WhiteTerritory != tt.whiteTer || s.BlackStones != tt.blackStones || s.WhiteStones != tt.whiteSt {
				t.Errorf("territory %d/%d stones %d/%d, want %d/%d and %d/%d", s.BlackTerritory, s.WhiteTerritory, s.BlackStones, s.WhiteStones,
					tt.blackTer, tt.whiteTer, tt.blackStones, tt.whiteSt)
			}
			if s.Black != float64(s.BlackStones+s.BlackTerritory) || s.White != float64(s.WhiteStones+s.WhiteTerritory)+tt.komi || s.Komi != tt.komi {
				t.Errorf("totals %v/%v with komi %v: not stones + territory (+ komi for White)", s.Black, s.White, s.Komi)
			}
			owned := 0
			for p := Point(0); int(p) < len(tt.rows)*len(tt.rows); p++ {
				if s.Owner[p] != Empty {
					owned++
				}
			}
			if owned != s.BlackStones+s.WhiteStones+s.BlackTerritory+s.WhiteTerritory {
				t.Errorf("%d points owned, want the %d counted", owned, s.BlackStones+s.WhiteStones+s.BlackTerritory+s.WhiteTerritory)
			}
		})
	}
}
