package ui

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/protocol"
)

// linesBack reads "N lines back" from the log's header on a screen, or -1.
func linesBack(text string) int {
	m := regexp.MustCompile(`log: (\d+) lines back`).FindStringSubmatch(text)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// panelText returns the part of a game screen's text right of the board:
// each line from the column where the log's header starts.
func panelText(text string) string {
	lines := strings.Split(text, "\n")
	x := -1
	for _, l := range lines {
		if i := strings.Index(l, "── log"); i >= 0 {
			x = len([]rune(l[:i]))
			break
		}
	}
	if x < 0 {
		return text
	}
	for i, l := range lines {
		r := []rune(l)
		lines[i] = string(r[min(x, len(r)):])
	}
	return strings.Join(lines, "\n")
}

// TestUID40LogScrollsWrappedAt80x24 (issue 34 item 6): at 80×24 the first
// PgUp scrolls the Phantom Go log back a page (the header says how many
// lines back, more than none) and the log stays wrapped while scrolled:
// the long announcements read whole, not cut at the panel's edge.
func TestUID40LogScrollsWrappedAt80x24(t *testing.T) {
	s, g := newRecordScreen(t, "phantom", protocol.Inviter)
	for range 60 {
		g.next(s)
	}
	before := drawScreen(t, s, 80, 24)
	pressKey(s, tcell.KeyPgUp)
	text := drawScreen(t, s, 80, 24)
	if n := linesBack(text); n <= 0 {
		t.Fatalf("the first PgUp: %d lines back:\n%s", n, text)
	}
	if text == before {
		t.Fatalf("the first PgUp moved nothing:\n%s", text)
	}
	var long []string
	for _, l := range s.Model().Log {
		if len(l) > 45 {
			long = append(long, l)
		}
	}
	if len(long) == 0 {
		t.Fatal("no long line in the log")
	}
	checked := 0
	for range 10 {
		for _, l := range long {
			head, panel := l[:32], panelText(text)
			if i := strings.Index(panel, head); i >= 0 {
				// A line whose start shows on the log's last row goes on
				// below it.
				if j := strings.Index(panel[i:], "── chat"); j < 0 || !strings.Contains(panel[i:i+j], "\n") || strings.Count(panel[i:i+j], "\n") < 2 {
					continue
				}
				checked++
				if !loosely(panel, l) {
					t.Fatalf("a log line is cut while scrolled back: %q\n%s", l, text)
				}
			}
		}
		pressKey(s, tcell.KeyPgUp)
		text = drawScreen(t, s, 80, 24)
	}
	if checked == 0 {
		t.Fatalf("no long line was seen while scrolling back:\n%s", text)
	}
}
