package ui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
)

// TestGoldenReplays plays the recorded game of every variant
// (testdata/VARIANT.record.json) through the inviter's game screen and
// compares its replay (UI-D16, UI-D27: the positions of the game, move by move)
// with testdata/golden/VARIANT.replay.txt: each position's caption, the
// log, and the last position drawn at 80×24 in the full view. -update
// writes the golden files anew after a deliberate change.
func TestGoldenReplays(t *testing.T) {
	for _, v := range engine.Variants {
		name := string(v)
		t.Run(name, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join("testdata", name+".record.json")); err != nil {
				t.Fatalf("variant %s has no recorded game for the UI: %v", v, err)
			}
			s, g := newRecordScreen(t, name, protocol.Inviter)
			for g.next(s) {
			}
			if s.review == nil {
				t.Fatal("the game is over but the screen is not the replay")
			}
			var b strings.Builder
			for i, f := range s.review.frames {
				fmt.Fprintf(&b, "%d %q last=%s try=%t", i, f.Caption, f.Last.Vertex(s.Model().Size()), f.Try)
				if f.Point != engine.NoPoint {
					// Told by the record at the end (pointNamer).
					fmt.Fprintf(&b, " point=%s by %s", f.Point.Vertex(s.Model().Size()), s.Model().Name(f.Mover))
				}
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "\nlog:\n%s\n", strings.Join(s.Model().Log, "\n"))
			fmt.Fprintf(&b, "\nscreen:\n%s\n", drawScreen(t, s, 80, 24))
			golden := filepath.Join("testdata", "golden", name+".replay.txt")
			if err := testenv.CheckGolden(golden, b.String(), updating()); err != nil {
				t.Error(err)
			}
		})
	}
}

// updating reports -update, the flag docs_test.go defines (its package,
// ui_test, is built into the same test binary).
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}
