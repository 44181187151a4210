package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// progressRe reads a progress line of kakure match (MATCH-D4).
var progressRe = regexp.MustCompile(`(?m)^progress: game 1: (move|turn) (\d+)(?:, (\d+) tries)?, [0-9][0-9.hmµn]*s$`)

// TestMATCHD4ProgressLines (MATCH-D4): kakure match prints progress lines
// during a game, before its result line: moves (turns in Hidden Move Go)
// that never go down, and in Phantom Go the tries, never fewer than the
// moves; --progress 0 prints none.
func TestMATCHD4ProgressLines(t *testing.T) {
	// Its own homes and games, nothing of the process's changed, no
	// real time measured: it runs beside the tests that wait
	// (kakureParallel), not before them (issue 32).
	t.Parallel()
	for _, c := range []struct {
		args  []string
		word  string
		tries bool
	}{
		{[]string{"--variant", "phantom", "--size", "5", "--black", "bot:1", "--white", "bot:1", "--lambda", "1"}, "move", true},
		{[]string{"--variant", "go", "--size", "5", "--black", "bot:1", "--white", "bot:1"}, "move", false},
		{[]string{"--variant", "hmg", "--size", "7", "--cards", "2", "--black", "bot:1", "--white", "bot:1"}, "turn", false},
	} {
		t.Run(c.args[1], func(t *testing.T) {
			t.Parallel()
			code, out := runCommand(t, append([]string{"match", "--games", "1", "--out", t.TempDir(), "--progress", "5ms"}, c.args...)...)
			if code != 0 {
				t.Fatalf("match exited %d:\n%s", code, out)
			}
			lines := progressRe.FindAllStringSubmatch(out, -1)
			if len(lines) == 0 {
				t.Fatalf("no progress line:\n%s", out)
			}
			if strings.Index(out, "progress: ") > strings.Index(out, "\ngame 1: ") {
				t.Errorf("the first progress line comes after the result:\n%s", out)
			}
			last := -1
			for _, l := range lines {
				n, _ := strconv.Atoi(l[2])
				if l[1] != c.word || n < last {
					t.Errorf("progress line %q after %d %ss, want %ss that never go down", l[0], last, c.word, c.word)
				}
				last = n
				if tries, _ := strconv.Atoi(l[3]); c.tries != (l[3] != "") || c.tries && tries < n {
					t.Errorf("progress line %q: tries shown %v, want %v, and never fewer than the moves", l[0], l[3] != "", c.tries)
				}
			}
			if strings.Contains(out[strings.LastIndex(out, "\ngame 1: "):], "progress: ") {
				t.Errorf("a progress line after the result:\n%s", out)
			}
		})
	}
	code, out := runCommand(t, "match", "--games", "1", "--out", t.TempDir(), "--progress", "0", "--variant", "phantom", "--size", "5", "--black", "bot:1", "--white", "bot:1", "--lambda", "1")
	if code != 0 || strings.Contains(out, "progress:") {
		t.Errorf("--progress 0: exit %d, output:\n%s", code, out)
	}
}
