package bot

import (
	"testing"

	"github.com/kakure/kakure/engine"
)

// TestBOTD3MoGoPatterns: the 3×3 patterns of the priors (BOT-D3) match a
// hane and a cut in every orientation and for either colour, and do not
// match a point of the empty board or one far from the stones.
func TestBOTD3MoGoPatterns(t *testing.T) {
	board := func(black, white []string) func(engine.Point) engine.Color {
		b, _ := engine.NewBoard(9)
		for _, p := range vertices(t, 9, black...) {
			b.Set(p, engine.Black)
		}
		for _, p := range vertices(t, 9, white...) {
			b.Set(p, engine.White)
		}
		return b.At
	}
	for _, tc := range []struct {
		name         string
		black, white []string
		move         string
		want         bool
	}{
		{"empty board", nil, nil, "E5", false},
		{"far from the stones", []string{"C3"}, []string{"D3"}, "G7", false},
		// X at D5, O at E5 (north of the move E4... ) : enclosing hane
		// "XOX / ... / ???" with the move below O.
		{"enclosing hane", []string{"D6", "F6"}, []string{"E6"}, "E5", true},
		{"enclosing hane, colours swapped", []string{"E6"}, []string{"D6", "F6"}, "E5", true},
		{"enclosing hane, rotated", []string{"D4", "D6"}, []string{"D5"}, "E5", true},
		{"peeped cut", []string{"D6", "F5"}, []string{"E6", "D5"}, "E5", true},
		{"side: block side cut", []string{"E2", "D1"}, []string{"D2", "F1"}, "E1", true},
	} {
		if got := matchesPattern(9, board(tc.black, tc.white), vertices(t, 9, tc.move)[0]); got != tc.want {
			t.Errorf("%s: match %v, want %v", tc.name, got, tc.want)
		}
	}
}
