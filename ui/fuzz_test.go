package ui_test

import (
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/ui"
	"github.com/rivo/tview"
)

// FuzzUIBoardInput feeds the board any keys and clicks: it never panics,
// its cursor stays on the board, it plays only points of the board or a
// pass, its typed line stays short, and its notes are exactly the ones it
// reported.
func FuzzUIBoardInput(f *testing.F) {
	for _, seed := range []string{"d4\n", "k10\n", "m5\x1bm", "p\n", "hjkl  ", "z99\b\b\n", "\x00\x01\x02", "pass\n"} {
		f.Add(uint8(19), []byte(seed))
		f.Add(uint8(9), []byte(seed))
	}
	f.Fuzz(func(t *testing.T, size uint8, input []byte) {
		n := engine.MinSize + int(size)%(engine.MaxSize-engine.MinSize+1)
		b := ui.NewBoard().SetModel(ui.NewBoardModel(n, engine.Black))
		w, h := b.NaturalSize()
		b.SetRect(0, 0, w, h)
		notes := map[engine.Point]bool{}
		b.SetNoteFunc(func(p engine.Point, on bool) { notes[p] = on })
		b.SetPlayFunc(func(p engine.Point) {
			if p != engine.Pass && (p < 0 || int(p) >= n*n) {
				t.Fatalf("played %d on %d×%d", p, n, n)
			}
		})
		for i := 0; i < len(input); i++ {
			c := input[i]
			switch {
			case c < 8 && i+2 < len(input):
				// A click: action, x, y.
				action := []tview.MouseAction{tview.MouseLeftClick, tview.MouseLeftDoubleClick, tview.MouseRightClick, tview.MouseLeftDown}[c%4]
				x, y := int(input[i+1])%(w+4)-2, int(input[i+2])%(h+4)-2
				b.MouseHandler()(action, tcell.NewEventMouse(x, y, tcell.Button1, tcell.ModNone), func(tview.Primitive) {})
				i += 2
			case c == '\n':
				key(b, tcell.KeyEnter)
			case c == '\b':
				key(b, tcell.KeyBackspace2)
			case c == 0x1b:
				key(b, tcell.KeyEsc)
			case c >= 0x80:
				key(b, []tcell.Key{tcell.KeyLeft, tcell.KeyRight, tcell.KeyUp, tcell.KeyDown}[c%4])
			default:
				keys(b, string(rune(c)))
			}
			if m := b.Model(); !m.OnBoard(m.Cursor) {
				t.Fatalf("cursor %d off the %d×%d board", m.Cursor, n, n)
			}
			if len(b.Typed()) > 4 {
				t.Fatalf("typed %q", b.Typed())
			}
		}
		var want []engine.Point
		for p := engine.Point(0); int(p) < n*n; p++ {
			if notes[p] {
				want = append(want, p)
			}
		}
		if got := b.Model().Notes(); engine.FormatVertices(n, got) != engine.FormatVertices(n, want) {
			t.Fatalf("notes %v, reported %v", got, want)
		}
	})
}
