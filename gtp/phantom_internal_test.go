package gtp

import (
	"testing"

	"github.com/kakure/kakure/engine"
)

// TestGTPPhantomD1D2TurnState looks at the referee behind the commands:
// the pass a command of the colour not to move makes first (GTP-PG-D1),
// and the resumption after two passes (GTP-PG-D2).
func TestGTPPhantomD1D2TurnState(t *testing.T) {
	tests := []struct {
		name       string
		commands   [][]string
		toMove     engine.Color
		passes     int
		undoLength int
	}{
		{"GTP-PG-D1 an illegal kakure-try of the colour not to move keeps its pass",
			[][]string{{"play", "b", "D4"}, {"kakure-try", "b", "D4"}}, engine.Black, 1, 2},
		{"GTP-PG-D1 an illegal play drops its pass",
			[][]string{{"play", "b", "D4"}, {"play", "b", "D4"}}, engine.White, 0, 1},
		{"GTP-PG-D1 genmove of the colour not to move",
			[][]string{{"play", "b", "D4"}, {"genmove", "b"}}, engine.White, 0, 2},
		{"GTP-PG-D1 is_legal changes nothing",
			[][]string{{"play", "b", "D4"}, {"is_legal", "b", "E5"}, {"all_legal", "b"}}, engine.White, 0, 1},
		{"GTP-PG-D2 a pass after two passes resumes play",
			[][]string{{"play", "b", "pass"}, {"play", "w", "pass"}, {"play", "w", "pass"}}, engine.Black, 1, 3},
		{"GTP-PG-D1 the inserted pass ends play, the command resumes it",
			[][]string{{"play", "b", "pass"}, {"play", "b", "pass"}}, engine.White, 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &phantomHandler{}
			if err := h.Reset(engine.Options{Variant: engine.VariantPhantom, Size: 9}); err != nil {
				t.Fatal(err)
			}
			for _, c := range tt.commands {
				if _, err := h.Commands()[c[0]](c[1:]); err != nil && c[0] != "play" {
					t.Fatalf("%v: %v", c, err)
				}
			}
			r := h.state.ref
			if r.ToMove() != tt.toMove || r.Passes() != tt.passes || len(h.undo) != tt.undoLength {
				t.Errorf("%v to move, %d passes, %d undo steps; want %v, %d, %d",
					r.ToMove(), r.Passes(), len(h.undo), tt.toMove, tt.passes, tt.undoLength)
			}
		})
	}
}
