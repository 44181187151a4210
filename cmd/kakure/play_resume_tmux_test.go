package main

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// panePID returns the process ID of the kakure process a pane runs (the
// child of the pane's shell).
func (p *pane) panePID() int {
	p.t.Helper()
	out, err := p.srv.run("list-panes", "-t", p.name+":", "-F", "#{pane_pid}")
	if err != nil {
		p.t.Fatalf("list-panes: %v: %s", err, out)
	}
	shell := strings.TrimSpace(out)
	child, err := exec.Command("pgrep", "-P", shell).Output()
	if err != nil {
		p.t.Fatalf("pgrep -P %s: %v", shell, err)
	}
	pid, err := strconv.Atoi(strings.Fields(string(child))[0])
	if err != nil {
		p.t.Fatalf("pid %q: %v", child, err)
	}
	return pid
}

// TestPlayTmuxOffersUnfinishedBotGame: after `kakure play` is killed in the
// middle of a game against the bot, the next `kakure play` on the same home
// offers that game instead of silently starting a new one; Enter resumes it
// with its moves (issue 20, bug 8). The lobby's list tells games apart.
func TestPlayTmuxOffersUnfinishedBotGame(t *testing.T) {
	t.Parallel()
	srv := newTmux(t)
	home := filepath.Join(srv.dir, "home")
	args := []string{"play", "--home", home, "--variant", "go", "--size", "5", "--level", "1"}
	first := srv.start("first", 100, 30, args...)
	first.waitFor("a colour", 30*time.Second, colorRe.MatchString)
	screen := first.waitText("your turn")
	point := "A5"
	if boardCell(t, screen, point) != " · " {
		point = "E1"
	}
	first.play(point)
	// The player's stone and the bot's answer are saved: the bot's move
	// makes it the player's turn again.
	first.waitFor("the bot's answer", 30*time.Second, func(s string) bool {
		return (loosely(s, "Move 3 · your turn") || loosely(s, "Move 4 · your turn")) && boardCellOf(s, point) != " · "
	})
	pid := first.panePID()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The terminal stays in the UI's mode: wait for the process, not for
	// the pane's last line.
	for syscall.Kill(pid, 0) == nil {
		time.Sleep(20 * time.Millisecond)
	}

	second := srv.start("second", 100, 30, args...)
	second.waitText("You have an unfinished game:")
	if s := second.capture(); !loosely(s, "Go 5×5 · the bot") || colorRe.MatchString(s) {
		t.Fatalf("the offer does not name the game against the bot, or a game started at once:\n%s", s)
	}
	second.keys("Enter")
	resumed := second.waitFor("the resumed game", 30*time.Second, func(s string) bool { return colorRe.MatchString(s) })
	if cell := boardCellOf(resumed, point); !strings.ContainsAny(cell, "●○") {
		t.Errorf("the resumed game does not show the stone at %s (%q):\n%s", point, cell, resumed)
	}
	// The log tells the move once (UI-D42).
	resumed = second.waitText(point + ".")
	if n := strings.Count(resumed, point+"."); n != 1 {
		t.Errorf("the resumed log tells %s %d times:\n%s", point, n, resumed)
	}
}
