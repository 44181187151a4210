package ui_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/ui"
	"github.com/rivo/tview"
)

// drawBoard draws b filling a simulated w×h screen and returns the screen.
func drawBoard(t *testing.T, b *ui.Board, w, h int) tcell.SimulationScreen {
	t.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Fini)
	s.SetSize(w, h)
	b.SetRect(0, 0, w, h)
	b.Draw(s)
	s.Show()
	return s
}

// cellAt returns the character and style of the screen cell (x, y).
func cellAt(s tcell.SimulationScreen, x, y int) (rune, tcell.Style) {
	cells, w, _ := s.GetContents()
	c := cells[y*w+x]
	if len(c.Runes) == 0 {
		return ' ', c.Style
	}
	return c.Runes[0], c.Style
}

// screenText returns the screen as lines of text, without trailing blanks
// at the ends of lines and of the screen.
func screenText(s tcell.SimulationScreen) string {
	cells, w, h := s.GetContents()
	lines := make([]string, h)
	for y := range h {
		var sb strings.Builder
		for x := range w {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				sb.WriteByte(' ')
				continue
			}
			sb.WriteString(string(c.Runes))
		}
		lines[y] = strings.TrimRight(sb.String(), " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
}

// vertex returns the point named by a GTP vertex on a board of side n.
func vertex(t *testing.T, n int, v string) engine.Point {
	t.Helper()
	p, err := engine.ParseVertex(n, v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// compactCell returns the screen cell of vertex v when a board of side n
// is drawn at (0, 0) in its natural size: two columns per point after the
// row numbers, one line per row after the column letters.
func compactCell(t *testing.T, n int, v string) (x, y int) {
	t.Helper()
	px, py := vertex(t, n, v).XY(n)
	return 4 + 2*px, 1 + (n - 1 - py)
}

// drawNatural draws b at (0, 0) in its natural size.
func drawNatural(t *testing.T, b *ui.Board) tcell.SimulationScreen {
	t.Helper()
	w, h := b.NaturalSize()
	return drawBoard(t, b, w, h)
}

// keys sends keys to b: a string of runes, with "\n" for Enter, "\b" for
// Backspace and "\x1b" for Esc.
func keys(b *ui.Board, s string) {
	h := b.InputHandler()
	for _, r := range s {
		var ev *tcell.EventKey
		switch r {
		case '\n':
			ev = tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone)
		case '\b':
			ev = tcell.NewEventKey(tcell.KeyBackspace2, 0, tcell.ModNone)
		case '\x1b':
			ev = tcell.NewEventKey(tcell.KeyEsc, 0, tcell.ModNone)
		default:
			ev = tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone)
		}
		h(ev, func(tview.Primitive) {})
	}
}

// key sends one special key to b.
func key(b *ui.Board, k tcell.Key) {
	b.InputHandler()(tcell.NewEventKey(k, 0, tcell.ModNone), func(tview.Primitive) {})
}

// playRecorder records the plays and notes a board reports.
type playRecorder struct {
	plays []engine.Point
	notes []string
}

func recordPlays(b *ui.Board) *playRecorder {
	r := &playRecorder{}
	b.SetPlayFunc(func(p engine.Point) { r.plays = append(r.plays, p) })
	b.SetNoteFunc(func(p engine.Point, on bool) {
		r.notes = append(r.notes, fmt.Sprintf("%s %v", p.Vertex(b.Model().Size), on))
	})
	return r
}

// played returns the recorded plays as vertices.
func (r *playRecorder) played(n int) string { return engine.FormatVertices(n, r.plays) }
