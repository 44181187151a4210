package ui

import (
	"os"
	"runtime"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
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
// the window title sequence withWindowTitle adds.
func terminalScreen() (tcell.Screen, error) {
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
