package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestT16SecondProgramOnOneHome: a second kakure program on the home of a
// running one exits with a message that names the running one, and
// `kakure id` on that home prints the running program's peer ID instead of
// starting a second node under its key.
func TestT16SecondProgramOnOneHome(t *testing.T) {
	home := t.TempDir()
	first := startKakure(t, "bot", "--home", home, "--listen", "/ip4/127.0.0.1/tcp/0")
	id := first.waitLine(t, regexp.MustCompile(`^peer ID: (\S+)`), 20*time.Second)[1]

	status, out := runCommand(t, "bot", "--home", home, "--listen", "/ip4/127.0.0.1/tcp/0")
	if status == 0 {
		t.Fatalf("T-16: a second `kakure bot` on a running program's home exited 0:\n%s", out)
	}
	pid := strconv.Itoa(first.cmd.Process.Pid)
	if !strings.Contains(out, "in use") || !strings.Contains(out, "pid "+pid) || !strings.Contains(out, "kakure") {
		t.Errorf("T-16: the second program's message should say the home is in use by pid %s:\n%s", pid, out)
	}

	status, out = runCommand(t, "id", "--home", home, "--listen", "/ip4/127.0.0.1/tcp/0")
	if status != 0 || !strings.Contains(out, "peer ID: "+id) {
		t.Errorf("`kakure id` on a running program's home (status %d) should print its peer ID %s:\n%s", status, id, out)
	}
}
