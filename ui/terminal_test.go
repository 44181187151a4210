package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2/terminfo"
)

// TestUID39WindowTitleInTmuxAndScreen (issue 34 item 5): the terminfo
// entries of tmux and screen have no title sequence tcell reads; the
// application's screen adds OSC 2 (and screen's ESC k), and leaves the
// entries that have one, and other terminals, as they are.
func TestUID39WindowTitleInTmuxAndScreen(t *testing.T) {
	for _, c := range []struct {
		term, have, want string
	}{
		{"tmux-256color", "", tmuxTitle},
		{"tmux", "", tmuxTitle},
		{"screen-256color", "", screenTitle},
		{"screen.xterm-256color", "", screenTitle},
		{"tmux-256color", "\x1b]0;%p1%s\x07", "\x1b]0;%p1%s\x07"},
		{"xterm-256color", "", ""},
		{"vt100", "", ""},
	} {
		ti := &terminfo.Terminfo{Name: c.term, SetWindowTitle: c.have}
		got := withWindowTitle(ti, c.term)
		if got.SetWindowTitle != c.want {
			t.Errorf("%s with %q: title sequence %q, want %q", c.term, c.have, got.SetWindowTitle, c.want)
		}
		if ti.SetWindowTitle != c.have {
			t.Errorf("%s: the shared entry was changed", c.term)
		}
	}
	if got := (&terminfo.Terminfo{}).TParm(tmuxTitle, "kakure · your move"); got != "\x1b]2;kakure · your move\x1b\\" {
		t.Errorf("tmux title: %q", got)
	}
	if got := (&terminfo.Terminfo{}).TParm(screenTitle, "kakure"); got != "\x1b]2;kakure\x1b\\\x1bkkakure\x1b\\" {
		t.Errorf("screen title: %q", got)
	}
}
