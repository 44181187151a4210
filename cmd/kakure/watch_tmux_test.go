package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/session"
)

// TestWatchTmuxScreen: `kakure watch` on a terminal opens the spectator
// screen (UI-D48): a live game between two `kakure bot` processes on
// loopback, watched from a tmux pane, shows its stones on the board and
// its verified events in the log, then the record's check and kakure
// verify's verdict; q closes the screen, which leaves the verdict on the
// terminal, and the command exits 0 (SPEC-3, SPEC-4).
func TestWatchTmuxScreen(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts real processes")
	}
	srv := newTmux(t)
	dir := t.TempDir()
	host := startKakure(t, "bot", "--home", filepath.Join(dir, "host"), "--listen", anyLoopbackPort, "--seed", "1")
	hostID := host.waitLine(t, reBotPeerID, 20*time.Second)[1]
	hostAddr := host.listenAddr(t) + "/p2p/" + hostID
	recordPath := filepath.Join(dir, "watched.record.json")
	watcher := srv.start("watch", 120, 40, "watch", "--addr", hostAddr, "--listen", anyLoopbackPort,
		"--home", filepath.Join(dir, "spectator"), "--out", recordPath, hostID)
	// The game starts as soon as the screen is up: a spectator whose
	// subscription reaches the host after the game began takes the game
	// from its first publication seen and the beginning from the
	// backlog (SPEC-D33, SPEC-D8).
	watcher.waitText("Watching the next game of " + hostID[:6])
	guest := startKakure(t, "bot", "--home", filepath.Join(dir, "guest"), "--listen", anyLoopbackPort, "--seed", "2",
		"--invite", hostAddr, "--variant", "go", "--size", "5")
	game := guest.waitLine(t, regexp.MustCompile(`^game (\S+) started with (\S+)`), 30*time.Second)[1]
	screen := watcher.waitFor("a stone on the board", 60*time.Second, func(s string) bool {
		return strings.ContainsAny(boardArea(s), "●○")
	})
	if !loosely(screen, "[verified] ") {
		t.Errorf("the spectator screen shows no verified event:\n%s", screen)
	}
	guest.waitLine(t, reGameResult, 120*time.Second)
	screen = watcher.waitFor("the verdict", 60*time.Second, func(s string) bool {
		return loosely(s, "over: the record checked") && loosely(s, "[verdict] ok: result")
	})
	if !strings.ContainsAny(boardArea(screen), "●○") {
		t.Errorf("after the end the board shows no stone:\n%s", screen)
	}
	if loosely(screen, "REFUSED") {
		t.Errorf("the spectator refused a publication of an honest game:\n%s", screen)
	}
	if !loosely(screen, "Watching Go · game "+game[:8]) {
		t.Errorf("the title does not name the game %s:\n%s", game, screen)
	}
	// The log scrolls back to the game's first events.
	watcher.keys("PgUp", "PgUp", "PgUp", "PgUp", "PgUp", "PgUp")
	screen = watcher.waitText("[verified] inviter 0 invite")
	if !loosely(screen, "[verified] invitee 0 accept") {
		t.Errorf("the log scrolled back does not show the acceptance:\n%s", screen)
	}
	// Review: Home shows the empty board of the start.
	watcher.keys("Home")
	watcher.waitFor("the start of the game", 10*time.Second, func(s string) bool {
		return boardArea(s) != "" && !strings.ContainsAny(boardArea(s), "●○")
	})
	watcher.keys("q")
	screen = watcher.waitText("kakure exited 0")
	if !loosely(screen, "[verdict] ok: result") {
		t.Errorf("the verdict is not left on the terminal:\n%s", screen)
	}
	tr, err := session.LoadTranscript(recordPath)
	if err != nil || tr.Game.String() != game {
		t.Errorf("the record written (%v) is not the game's %s", err, game)
	}
}
