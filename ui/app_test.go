package ui_test

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/ui"
	"github.com/rivo/tview"
)

// TestUID4InApplication runs the board in a tview application on a
// simulated screen: typed keys and mouse clicks go through tview's own
// event loop and mouse routing.
func TestUID4InApplication(t *testing.T) {
	s := tcell.NewSimulationScreen("UTF-8")
	app := tview.NewApplication().SetScreen(s).EnableMouse(true)
	s.SetSize(25, 12) // the natural size of 9×9: the compact layout at (0, 0)
	plays := make(chan engine.Point, 8)
	b := ui.NewBoard().SetModel(ui.NewBoardModel(9, engine.Black))
	b.SetPlayFunc(func(p engine.Point) { plays <- p })
	app.SetRoot(b, true).SetFocus(b)
	done := make(chan error, 1)
	go func() { done <- app.Run() }()
	defer func() {
		app.Stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	next := func() string {
		t.Helper()
		select {
		case p := <-plays:
			return p.Vertex(9)
		case <-time.After(testenv.Duration(10 * time.Second)):
			t.Fatalf("no play within %s", testenv.Duration(10*time.Second))
		}
		return ""
	}

	for _, r := range "d4" {
		s.InjectKey(tcell.KeyRune, r, tcell.ModNone)
	}
	s.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	if got := next(); got != "D4" {
		t.Errorf("typed d4 played %s", got)
	}

	// G7 is at (4+2*6, 1+9-1-6) = (16, 3): a click selects, a second plays.
	for range 2 {
		s.InjectMouse(16, 3, tcell.Button1, tcell.ModNone)
		s.InjectMouse(16, 3, tcell.ButtonNone, tcell.ModNone)
	}
	if got := next(); got != "G7" {
		t.Errorf("two clicks played %s", got)
	}
	s.InjectKey(tcell.KeyRune, 'p', tcell.ModNone)
	s.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	if got := next(); got != "pass" {
		t.Errorf("p Enter played %s", got)
	}
}
