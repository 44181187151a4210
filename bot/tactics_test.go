package bot

import (
	"testing"

	"github.com/kakure/kakure/engine"
)

// TestTacticsPriors checks the tactical priors of the Go search (BOT-D3)
// on one position:
//
//	5 . O X . .
//	4 O X . . .
//	3 X . . . .
//	2 . . O X .
//	1 . . X O .
func TestTacticsPriors(t *testing.T) {
	b := engine.MustParseBoard(
		". O X . .",
		"O X . . .",
		"X . . . .",
		". . O X .",
		". . X O .",
	)
	pb := engine.NewPlayoutBoard(b, engine.Black, engine.NoPoint)
	var tc tactics
	tc.load(pb, geometryOf(5))
	tests := []struct {
		name   string
		c      engine.Color
		vertex string
		want   float64
	}{
		{"capture two stones", engine.Black, "A5", priorCapture + 2*0.02},
		{"capture one stone", engine.Black, "E1", priorCapture + 0.02},
		{"save the chain in atari", engine.Black, "B1", priorEscape},
		{"atari", engine.Black, "B2", priorAtari},
		{"self-atari", engine.White, "E1", priorSelfAtari},
		{"a plain move", engine.Black, "D5", priorPlain},
		{"a plain move of White", engine.White, "D4", priorPlain},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, _ := engine.ParseVertex(5, tt.vertex)
			if got := tc.prior(p, tt.c, false, false); got != tt.want {
				t.Errorf("%v %s: prior %v, want %v", tt.c, tt.vertex, got, tt.want)
			}
		})
	}
	// In the opening, the first and second lines are discouraged on 9×9.
	var open tactics
	open.load(engine.NewPlayoutBoard(engine.MustParseBoard(
		". . . . . . . . .", ". . . . . . . . .", ". . . . . . . . .",
		". . . . . . . . .", ". . . . X . . . .", ". . . . . . . . .",
		". . . . . . . . .", ". . . . . . . . .", ". . . . . . . . ."), engine.White, engine.NoPoint), geometryOf(9))
	for v, want := range map[string]float64{"A5": priorFirstLine, "B5": priorSecondLine, "C5": priorPlain} {
		p, _ := engine.ParseVertex(9, v)
		if got := open.prior(p, engine.White, true, false); got != want {
			t.Errorf("opening %s: prior %v, want %v", v, got, want)
		}
	}
}
