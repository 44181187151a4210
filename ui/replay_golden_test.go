package ui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
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
				fmt.Fprintf(&b, "%d %q last=%s try=%t\n", i, f.Caption, f.Last.Vertex(s.Model().Size()), f.Try)
			}
			fmt.Fprintf(&b, "\nlog:\n%s\n", strings.Join(s.Model().Log, "\n"))
			fmt.Fprintf(&b, "\nscreen:\n%s\n", drawScreen(t, s, 80, 24))
			golden := filepath.Join("testdata", "golden", name+".replay.txt")
			if updating() {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (write it with -update)", err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("the replay of %s differs from %s (-update writes it anew after a deliberate change):\n%s", name, golden, firstLineDiff(got, string(want)))
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

// firstLineDiff shows the first line where got and want differ.
func firstLineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got  %q\n want %q", i+1, gl, wl)
		}
	}
	return ""
}
