package main

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kakure/kakure/internal/testenv"
)

// TestTmuxServerEndsWithItsTest: the tmux server a test starts (newTmux)
// and the programs in its panes are gone once the test has ended, its
// directory and socket removed after them, so that tmux tests leave
// nothing running (issue 32: removing the socket first left the server
// and its panes running for good).
func TestTmuxServerEndsWithItsTest(t *testing.T) {
	// Its own tmux server: it runs beside the tests that wait
	// (kakureParallel), not before them (issue 32).
	t.Parallel()
	var server, pane int
	t.Run("starts", func(t *testing.T) {
		srv := newTmux(t)
		if out, err := srv.run("new-session", "-d", "-s", "x", "sleep 600"); err != nil {
			t.Fatalf("tmux new-session: %v: %s", err, out)
		}
		for what, format := range map[*int]string{&server: "#{pid}", &pane: "#{pane_pid}"} {
			out, err := srv.run("display-message", "-p", "-t", "x", format)
			if err != nil {
				t.Fatalf("tmux display-message: %v: %s", err, out)
			}
			if *what, err = strconv.Atoi(strings.TrimSpace(out)); err != nil {
				t.Fatalf("tmux display-message %s: %q", format, out)
			}
		}
	})
	if server == 0 || pane == 0 {
		t.Fatal("the tmux server did not start")
	}
	for _, p := range []struct {
		name string
		pid  int
	}{{"the tmux server", server}, {"the program in its pane", pane}} {
		for deadline := testenv.Deadline(5 * time.Second); syscall.Kill(p.pid, 0) == nil; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				syscall.Kill(p.pid, syscall.SIGKILL)
				t.Fatalf("%s (pid %d) still runs after its test ended", p.name, p.pid)
			}
		}
	}
}
