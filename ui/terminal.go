package ui

import (
	"os"
	"runtime"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
	"github.com/mattn/go-runewidth"
)

// The window title (UI-D24) inside tmux and GNU screen: their terminfo
// entries (tmux-256color, screen-256color) have no title sequence that
// tcell reads, so tcell set none and the title never changed. The
// application's screen uses the entry with one added (UI-D39).

// tmuxTitle sets the title of a tmux pane (pane_title, OSC 2); screenTitle
// sets it in tmux and, with the window title sequence ESC k, in GNU screen
// (TERM=screen* is both screen's and older tmux's default).
const (
	tmuxTitle   = "\x1b]2;%p1%s\x1b\\"
	screenTitle = "\x1b]2;%p1%s\x1b\\\x1bk%p1%s\x1b\\"
)

// withWindowTitle returns ti with a window title sequence when it has none
// and term is tmux's or screen's; otherwise ti itself.
func withWindowTitle(ti *terminfo.Terminfo, term string) *terminfo.Terminfo {
	if ti == nil || ti.SetWindowTitle != "" {
		return ti
	}
	var seq string
	switch {
	case strings.HasPrefix(term, "tmux"):
		seq = tmuxTitle
	case strings.HasPrefix(term, "screen"):
		seq = screenTitle
	default:
		return ti
	}
	c := *ti
	c.SetWindowTitle = seq
	return &c
}

// terminalScreen returns the terminal's screen as tcell makes it, with
// the window title sequence withWindowTitle adds, sending only the cells
// that changed (diffScreen).
func terminalScreen() (tcell.Screen, error) {
	s, err := tcellScreen()
	if err != nil {
		return nil, err
	}
	return newDiffScreen(s), nil
}

// tcellScreen returns tcell's screen of the terminal, with the window
// title sequence withWindowTitle adds.
func tcellScreen() (tcell.Screen, error) {
	term := os.Getenv("TERM")
	if runtime.GOOS == "windows" {
		return tcell.NewScreen()
	}
	ti, err := tcell.LookupTerminfo(term)
	if err != nil {
		return tcell.NewScreen()
	}
	if t := withWindowTitle(ti, term); t != ti {
		return tcell.NewTerminfoScreenFromTtyTerminfo(nil, t)
	}
	return tcell.NewScreen()
}

// diffScreen sends the terminal only the cells a frame changed (UI-D46).
// tcell 2.8 marks dirty every cell whose content a write changes from the
// content before that write, not from what the terminal shows; tview
// clears the screen before each frame and its text views fill their area
// before writing the text, so every cell of text changed twice a frame
// and was sent again, the whole screen on each clock tick (2–3 KB at
// 80×24; tcell fixed it later, gdamore/tcell#1025). diffScreen keeps the
// frame in a buffer of its own, from Clear to Show, and writes each cell
// to tcell once, at Show, with its final content: a cell the frame left as
// the terminal shows it stays clean.
type diffScreen struct {
	tcell.Screen
	// frame holds the cells of the frame under way (w×h); framing is
	// true between Clear and Show.
	frame   []frameCell
	w, h    int
	framing bool
}

// frameCell is one cell of a frame.
type frameCell struct {
	main  rune
	comb  []rune
	style tcell.Style
}

// newDiffScreen wraps s.
func newDiffScreen(s tcell.Screen) *diffScreen { return &diffScreen{Screen: s} }

// Clear starts a frame of spaces.
func (d *diffScreen) Clear() { d.Fill(' ', tcell.StyleDefault) }

// Fill starts a frame filled with r in style.
func (d *diffScreen) Fill(r rune, style tcell.Style) {
	d.w, d.h = d.Screen.Size()
	if len(d.frame) != d.w*d.h {
		d.frame = make([]frameCell, d.w*d.h)
	}
	for i := range d.frame {
		d.frame[i] = frameCell{main: r, style: style}
	}
	d.framing = true
}

// SetContent writes a cell of the frame (of tcell's screen when no frame
// is under way).
func (d *diffScreen) SetContent(x, y int, primary rune, combining []rune, style tcell.Style) {
	if !d.framing {
		d.Screen.SetContent(x, y, primary, combining, style)
		return
	}
	if x >= 0 && y >= 0 && x < d.w && y < d.h {
		d.frame[y*d.w+x] = frameCell{main: primary, comb: combining, style: style}
	}
}

// SetCell writes a cell as SetContent does.
func (d *diffScreen) SetCell(x, y int, style tcell.Style, ch ...rune) {
	if len(ch) > 0 {
		d.SetContent(x, y, ch[0], ch[1:], style)
	} else {
		d.SetContent(x, y, ' ', nil, style)
	}
}

// GetContent reads a cell of the frame under way.
func (d *diffScreen) GetContent(x, y int) (rune, []rune, tcell.Style, int) {
	if !d.framing || x < 0 || y < 0 || x >= d.w || y >= d.h {
		return d.Screen.GetContent(x, y)
	}
	c := d.frame[y*d.w+x]
	return c.main, c.comb, c.style, max(runewidth.RuneWidth(c.main), 1)
}

// Show writes the frame to tcell's screen, then shows it.
func (d *diffScreen) Show() {
	d.flush()
	d.Screen.Show()
}

// Sync writes the frame to tcell's screen, then redraws the whole
// terminal.
func (d *diffScreen) Sync() {
	d.flush()
	d.Screen.Sync()
}

// flush writes each cell of the frame to tcell's screen once.
func (d *diffScreen) flush() {
	if !d.framing {
		return
	}
	d.framing = false
	if w, h := d.Screen.Size(); w != d.w || h != d.h {
		return // resized meanwhile: the next frame is drawn for the new size
	}
	for i, c := range d.frame {
		d.Screen.SetContent(i%d.w, i/d.w, c.main, c.comb, c.style)
	}
}
