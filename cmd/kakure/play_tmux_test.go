package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/ui"
)

// The end-to-end tests of `kakure play` run the program in tmux panes:
// the test binary stands in for kakure (KAKURE_BE_BINARY), keys go in with
// send-keys and the screens come back with capture-pane. Each test has its
// own tmux server (a socket in its temporary directory).

// tmuxServer is a tmux server of one test; dir holds its socket and the
// homes of the processes it runs.
type tmuxServer struct {
	t    *testing.T
	sock string
	dir  string
}

// newTmux starts nothing yet: the server starts with its first session.
// Without tmux the test is skipped, except in CI, which installs it.
func newTmux(t *testing.T) *tmuxServer {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		testenv.Missing(t, "tmux is not installed")
	}
	// Socket paths are short on some systems: keep it under /tmp.
	dir, err := os.MkdirTemp("", "kt")
	if err != nil {
		t.Fatal(err)
	}
	s := &tmuxServer{t: t, sock: filepath.Join(dir, "s"), dir: dir}
	// Cleanups run last first: the directory (and the server's socket in
	// it) goes after the server has been killed through that socket.
	t.Cleanup(func() {
		// The processes may write their last saves while they exit.
		for i := 0; i < 50 && os.RemoveAll(dir) != nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	// The server and the programs in its panes end with the test, and
	// also when go test times out (testenv.Reap): each pane's process
	// group is killed too, should one outlive the server's SIGHUP.
	testenv.Reap(t, func() {
		panes, _ := exec.Command("tmux", "-S", s.sock, "list-panes", "-a", "-F", "#{pane_pid}").Output()
		exec.Command("tmux", "-S", s.sock, "kill-server").Run()
		for _, f := range strings.Fields(string(panes)) {
			if pid, err := strconv.Atoi(f); err == nil && pid > 1 {
				syscall.Kill(-pid, syscall.SIGKILL)
			}
		}
	})
	return s
}

func (s *tmuxServer) run(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-S", s.sock}, args...)...).CombinedOutput()
	return string(out), err
}

// pane is one kakure process in a tmux session.
type pane struct {
	t      *testing.T
	srv    *tmuxServer
	name   string
	screen string // the last capture
}

// start runs `kakure ARGS` in a new session of w×h cells. When the
// program exits, the pane prints "kakure exited N" and stays.
func (s *tmuxServer) start(name string, w, h int, args ...string) *pane {
	s.t.Helper()
	return s.startTerm(name, w, h, "xterm-256color", args...)
}

// startTerm is start with TERM=term.
func (s *tmuxServer) startTerm(name string, w, h int, term string, args ...string) *pane {
	s.t.Helper()
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = "'" + a + "'"
	}
	cmd := fmt.Sprintf("env KAKURE_BE_BINARY=1 TERM=%s '%s' -test.run='^$' -- %s; echo kakure exited $?; sleep 600",
		term, os.Args[0], strings.Join(quoted, " "))
	if out, err := s.run("new-session", "-d", "-s", name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), cmd); err != nil {
		s.t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	return &pane{t: s.t, srv: s, name: name}
}

// capture returns what the pane shows now.
func (p *pane) capture() string {
	out, err := p.srv.run("capture-pane", "-p", "-t", p.name+":")
	if err != nil {
		p.t.Fatalf("capture-pane %s: %v: %s", p.name, err, out)
	}
	p.screen = out
	return out
}

// keys sends tmux key names ("Enter", "C-d", "Tab") or, with a leading
// "=", literal text.
func (p *pane) keys(keys ...string) {
	p.t.Helper()
	for _, k := range keys {
		args := []string{"send-keys", "-t", p.name + ":"}
		if strings.HasPrefix(k, "=") {
			args = append(args, "-l", k[1:])
		} else {
			args = append(args, k)
		}
		if out, err := p.srv.run(args...); err != nil {
			p.t.Fatalf("send-keys %q: %v: %s", k, err, out)
		}
	}
}

// redrawSettle is how long waitFor lets a redraw finish before taking the
// screen it returns.
const redrawSettle = 100 * time.Millisecond

// waitFor polls the pane until cond holds of its screen, and returns the
// screen; after timeout (stretched by testenv.Duration) the test fails
// showing the screen.
func (p *pane) waitFor(what string, timeout time.Duration, cond func(screen string) bool) string {
	p.t.Helper()
	timeout = testenv.Duration(timeout)
	deadline := time.Now().Add(timeout)
	for {
		s := p.capture()
		if cond(s) {
			// A capture can catch the pane in the middle of a redraw:
			// tmux has applied the first part of the program's output
			// and not the rest (an invitation's first lines drawn, its
			// peer ID not yet). The screen returned, which
			// callers read further, is taken again once the redraw is
			// through, and must still meet cond.
			time.Sleep(redrawSettle)
			if s = p.capture(); cond(s) {
				return s
			}
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: no %s within %s; the screen:\n%s", p.name, what, timeout, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitText waits until the pane shows text (spaces and line breaks
// compared loosely: the panel wraps).
func (p *pane) waitText(text string) string {
	p.t.Helper()
	return p.waitFor(fmt.Sprintf("%q", text), 30*time.Second, func(s string) bool { return loosely(s, text) })
}

// loosely reports whether screen shows text, whatever the spaces and line
// breaks between its words.
func loosely(screen, text string) bool {
	return strings.Contains(strings.Join(strings.Fields(screen), " "), strings.Join(strings.Fields(text), " "))
}

// boardCell returns what the board of a screen shows at a vertex: the
// point's glyph with the cells either side ("[●]", " · ", "(○)"). The board
// is the block under the first line of column letters.
func boardCell(t *testing.T, screen, vertex string) string {
	t.Helper()
	cell := boardCellOf(screen, vertex)
	if cell == "" {
		t.Fatalf("no point %s on the board of the screen:\n%s", vertex, screen)
	}
	return cell
}

// boardCellOf is boardCell, or "" when the screen has no such point.
func boardCellOf(screen, vertex string) string {
	lines := strings.Split(screen, "\n")
	col, row := vertex[:1], vertex[1:]
	for i, l := range lines {
		rs := []rune(l)
		ax := strings.Index(l, " A ")
		if ax < 0 || !strings.Contains(l, " B ") || strings.TrimSpace(l[:ax]) != "" {
			continue
		}
		// Column x of each letter, in runes (the line is ASCII up to the
		// letters).
		x := -1
		for j, r := range rs {
			if string(r) == col && (j == 0 || rs[j-1] == ' ') && (j+1 >= len(rs) || rs[j+1] == ' ') {
				x = j
				break
			}
		}
		if x < 0 {
			return ""
		}
		for _, rl := range lines[i+1:] {
			r := []rune(rl)
			if len(r) <= x+1 || x < 2 {
				continue
			}
			if strings.TrimSpace(string(r[:ax])) == row {
				return string(r[x-1 : x+2])
			}
		}
		return ""
	}
	return ""
}

// addrRe finds this peer's loopback address in the lobby.
var addrRe = regexp.MustCompile(`/ip4/127\.0\.0\.1/tcp/\d+/p2p/\w+`)

// colorRe finds the player's colour in a game screen's title.
var colorRe = regexp.MustCompile(`you: (Black|White)`)

// twoPlayers starts two lobbies on loopback without mDNS, A with the game
// options args; A invites B by the address B's lobby shows, B accepts.
// It returns the panes of Black and White once both games started.
func twoPlayers(t *testing.T, args ...string) (black, white *pane) {
	t.Helper()
	return twoPlayersSetUp(t, nil, nil, args...)
}

// twoPlayersSetUp is twoPlayers where setUp, when not nil, is first
// called with the directory of the homes (A's is dir/a, B's dir/b), and
// invited, when not nil, with B's screen showing the invitation.
func twoPlayersSetUp(t *testing.T, setUp func(dir string), invited func(screen string), args ...string) (black, white *pane) {
	t.Helper()
	srv := newTmux(t)
	dir := srv.dir
	if setUp != nil {
		setUp(dir)
	}
	common := []string{"play", "--lobby", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-mdns"}
	b := srv.start("b", 200, 30, append(common, "--home", filepath.Join(dir, "b"))...)
	a := srv.start("a", 100, 30, append(append(common, "--home", filepath.Join(dir, "a")), args...)...)
	addr := addrRe.FindString(b.waitFor("an address", 20*time.Second, func(s string) bool { return addrRe.MatchString(s) }))
	a.waitText("kakure — lobby")
	a.keys("="+addr, "Enter")
	screen := b.waitText("invites you to a game:")
	if invited != nil {
		invited(screen)
	}
	b.keys("y")
	var colors [2]string
	for i, p := range []*pane{a, b} {
		colors[i] = colorRe.FindStringSubmatch(p.waitFor("a colour", 20*time.Second, colorRe.MatchString))[1]
	}
	if colors[0] == colors[1] {
		t.Fatalf("both players are %s", colors[0])
	}
	if colors[0] == "Black" {
		return a, b
	}
	return b, a
}

// play types a point (or "pass") and Enter. A pass in the opening, or
// one that ends play, asks first (UI-D38): y confirms it.
func (p *pane) play(v string) {
	p.t.Helper()
	if v == "pass" {
		// The "p" is drawn as the pass's hint before the Enter goes:
		// sent together, a capture could come before either key is
		// drawn, see no hint and miss the question that follows.
		p.keys("p")
		p.waitFor("the pass's hint", 15*time.Second, func(s string) bool { return loosely(s, "p Enter: pass") })
		p.keys("Enter")
		// The Enter clears the typed "p" and, when the pass asks, opens
		// the question in the same draw.
		s := p.waitFor("the pass sent or asked", 15*time.Second, func(s string) bool { return !loosely(s, "p Enter: pass") })
		if loosely(s, "y passes · n or Esc keeps playing") {
			p.keys("y")
		}
		return
	}
	p.keys("="+strings.ToLower(v), "Enter")
}

// agreeCount ends the count: the player whose turn it is proposes no dead
// stones, the other accepts.
func agreeCount(t *testing.T, black, white *pane) {
	t.Helper()
	const may = "^D proposes the marking"
	var proposer, other *pane
	black.waitFor("the count", 15*time.Second, func(s string) bool {
		if loosely(s, may) {
			proposer, other = black, white
			return true
		}
		if loosely(white.capture(), may) {
			proposer, other = white, black
			return true
		}
		return false
	})
	proposer.keys("C-d")
	other.waitText("^A accepts it")
	other.keys("C-a")
}

// TestPlayTmuxGo plays plain Go 5×5 between two `kakure play` processes
// by keystrokes to the result: two stones, two passes, the count.
func TestPlayTmuxGo(t *testing.T) {
	t.Parallel()
	black, white := twoPlayers(t, "--variant", "go", "--size", "5")
	black.play("C3")
	white.waitText("Black C3.")
	white.play("D3")
	black.waitText("White D3.")
	black.waitCell("D3", "(○)")
	black.play("pass")
	white.waitText("Black passes.")
	white.play("pass")
	agreeCount(t, black, white)
	for _, p := range []*pane{black, white} {
		p.waitText("Result: White wins by 7.5 points (W+7.5)")
		p.waitText("accepts the marking.")
	}
}

// TestPlayTmuxBot starts `kakure play` with no arguments: a game of
// Phantom Go 9×9 (common rules, the evaluator's tries by flips: UI-D50)
// against the bot on a second host in the same process, through the
// secure referee. A try, the game left (^Q) and resumed from the lobby
// (^G), another try, a resignation, then q to the lobby and ^Q out;
// nothing but the UI was written to the terminal.
func TestPlayTmuxBot(t *testing.T) {
	t.Parallel()
	srv := newTmux(t)
	home := filepath.Join(srv.dir, "home")
	p := srv.start("bot", 80, 24, "--home", home)
	screen := p.waitFor("a colour", 20*time.Second, colorRe.MatchString)
	// By flips: kakure's default where they apply (UI-D50).
	if !loosely(screen, "Phantom Go 9×9, komi 7.5, common rules, try flips") {
		t.Errorf("the first game is not Phantom Go 9×9 under the common rules by flips:\n%s", screen)
	}
	me := colorRe.FindStringSubmatch(screen)[1]
	bot := map[string]string{"Black": "White", "White": "Black"}[me]
	triesRe := regexp.MustCompile(`(\d+) tr(?:y|ies)\b`)
	tries := func(s string) int {
		m := triesRe.FindStringSubmatch(s)
		if m == nil {
			return -1
		}
		var n int
		fmt.Sscan(m[1], &n)
		return n
	}
	// try plays a point and waits for the referee's answer and the bot's
	// try: the count of tries goes up by two at least, or by one after
	// an illegal try.
	try := func(v string) {
		t.Helper()
		s := p.waitText("Your try:")
		before := tries(s)
		p.play(v)
		p.waitFor("the answer to "+v, 30*time.Second, func(s string) bool {
			return loosely(s, "Your try:") && tries(s) > before
		})
	}
	try("E5")
	p.keys("C-q")
	p.waitText("Leave this game?")
	p.keys("y")
	p.waitText("Games (^G)")
	p.waitText("Phantom Go 9×9 · the bot")
	p.keys("C-g", "Enter")
	p.waitText("(E5)") // the log of the game so far: the try at E5
	try("C7")
	p.keys("C-r")
	p.waitText("Resign this game?")
	p.keys("y")
	p.waitText("Result: " + bot + " wins by resignation")
	// The seeds are revealed and audited after the resignation too
	// (PN-D13): the replay opens at the end in the full view, which shows
	// the bot's stones, unknown to the player during the game (issue 20,
	// bug 4: it used to show only the player's own).
	botGlyph := map[string]string{"Black": string(ui.UnicodeGlyphs.Black), "White": string(ui.UnicodeGlyphs.White)}[bot]
	p.waitFor("the bot's stones in the full view", 30*time.Second, func(s string) bool {
		if !loosely(s, "the full view") {
			return false
		}
		for _, col := range "ABCDEFGHJ" {
			for row := 1; row <= 9; row++ {
				if strings.Contains(boardCellOf(s, fmt.Sprintf("%c%d", col, row)), botGlyph) {
					return true
				}
			}
		}
		return false
	})
	p.keys("Home")
	p.waitText("Replay 0/")
	p.keys("q")
	p.waitText("kakure — lobby")
	// The finished game is listed with its result and opens into its
	// replay (issue 20: finished games in the lobby).
	p.waitText(bot[:1] + "+R, you lost")
	// At 80×24 the form's buttons are on the screen (UI-D43).
	p.waitText("Play the bot")
	p.keys("C-g", "Enter")
	p.waitText("Result: " + bot + " wins by resignation")
	p.keys("q")
	p.waitText("kakure — lobby")
	p.keys("C-q")
	screen = p.waitText("kakure exited 0")
	for _, stray := range []string{"level=", "WARN", "ERROR", "panic", "goroutine"} {
		if strings.Contains(screen, stray) {
			t.Errorf("the terminal shows %q:\n%s", stray, screen)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "kakure.log")); err != nil {
		t.Errorf("no log file: %v", err)
	}
	// `kakure verify` says ok with the resignation on both records, the
	// player's and the bot's, audit and all (PN-D13).
	for _, dir := range []string{filepath.Join(home, "games"), filepath.Join(home, "bot", "games")} {
		records, _ := filepath.Glob(filepath.Join(dir, "*.record.json"))
		if len(records) != 1 {
			t.Fatalf("%s holds %d records, want 1", dir, len(records))
		}
		var stdout, stderr strings.Builder
		if status := run(&environment{stdout: &stdout, stderr: &stderr}, []string{"verify", records[0]}); status != 0 ||
			!strings.Contains(stdout.String(), "by resignation") && !strings.Contains(stdout.String(), "+R") {
			t.Errorf("kakure verify %s: status %d:\n%s%s", records[0], status, stdout.String(), stderr.String())
		} else {
			t.Logf("kakure verify %s:\n%s", strings.TrimPrefix(dir, home), stdout.String())
		}
	}
}

// TestPlayTmuxNames: each player chose a display name once (`kakure id
// --name`); the invitation and the acceptance carry them signed, and each
// side shows the other's, made safe and always beside the short peer ID
// (UI-D30): in B's invitation dialog, then in both games' headers. A's
// name tries tview markup ("[red]"), which shows as plain text.
func TestPlayTmuxNames(t *testing.T) {
	t.Parallel()
	var ids [2]string
	black, white := twoPlayersSetUp(t, func(dir string) {
		for i, name := range []string{"Alice [red]Liddell", "Bob"} {
			var stdout, stderr strings.Builder
			env := &environment{stdout: &stdout, stderr: &stderr}
			home := filepath.Join(dir, []string{"a", "b"}[i])
			if status := run(env, []string{"id", "--home", home, "--name", name, "--listen", "/ip4/127.0.0.1/tcp/0"}); status != 0 {
				t.Fatalf("kakure id --name: status %d: %s", status, stderr.String())
			}
			first, _, _ := strings.Cut(stdout.String(), "\n")
			ids[i] = strings.TrimPrefix(first, "peer ID: ")
			if !strings.Contains(stdout.String(), "name: "+name) {
				t.Errorf("kakure id does not print the name:\n%s", stdout.String())
			}
		}
	}, func(screen string) {
		if want := "Alice (red)Liddell (" + ui.ShortPeer(ids[0]) + ") invites you to a game:"; !loosely(screen, want) {
			t.Errorf("the invitation dialog does not show %q:\n%s", want, screen)
		}
	}, "--variant", "go", "--size", "5")
	a, b := black, white
	if a.name != "a" {
		a, b = white, black
	}
	alice := "Alice (red)Liddell (" + ui.ShortPeer(ids[0]) + ")"
	bob := "Bob (" + ui.ShortPeer(ids[1]) + ")"
	a.waitText("vs " + bob)
	b.waitText("vs " + alice)
	if strings.Contains(b.capture(), "[red]") {
		t.Errorf("the name's markup reached the screen raw:\n%s", b.screen)
	}
}

// TestPlayTmuxUndo: in plain Go, Black plays C3 and asks (^K) to take it
// back; White's screen asks, y lets it: C3 is empty on both screens and
// Black plays again (UNDO-D1). Then White's own request is refused (n).
func TestPlayTmuxUndo(t *testing.T) {
	t.Parallel()
	black, white := twoPlayers(t, "--variant", "go", "--size", "5")
	black.play("C3")
	white.waitText("Black C3.")
	black.keys("C-k")
	white.waitText("asks to take back")
	white.waitText("move 1 (Black C3).")
	white.waitText("y lets the move be taken back")
	white.keys("y")
	for _, p := range []*pane{black, white} {
		p.waitText("Move 1 (Black C3) is taken back: Black to play.")
		p.waitFor("C3 empty", 10*time.Second, func(s string) bool {
			return !strings.Contains(boardCellOf(s, "C3"), string(ui.UnicodeGlyphs.Black))
		})
	}
	black.play("D3")
	white.waitText("Black D3.")
	white.play("C3")
	black.waitText("White C3.")
	white.keys("C-k")
	black.waitText("asks to take back")
	black.waitText("move 2 (White C3).")
	black.keys("n")
	white.waitText("request to take back a move is refused.")
	white.waitCell("C3", "(○)")
}

// TestPlayTmuxUndoAgainstTheBot (UNDO-D3, UNDO-D4, issue 34 item 1): at
// 80×24 against the bot, ^K after the bot answered takes back the
// player's move and the answer; C3, ^K in one burst takes back C3, or C3
// and the answer when the answer came first (when it lapsed under the
// answer, the log says so and ^K again takes back both). Each time the
// board is empty and it is the player's turn.
func TestPlayTmuxUndoAgainstTheBot(t *testing.T) {
	t.Parallel()
	srv := newTmux(t)
	p := srv.start("bot", 80, 24, "play", "--home", filepath.Join(srv.dir, "home"), "--variant", "go", "--size", "9",
		"--level", "1", "--color", "black")
	p.waitText("your turn")
	empty := func(s string) bool { return !strings.ContainsAny(boardArea(s), "●○") }
	p.play("E3")
	p.waitFor("the bot's answer", 30*time.Second, func(s string) bool {
		return loosely(s, "Move 3 · your turn") && strings.ContainsRune(boardArea(s), '○')
	})
	p.keys("C-k")
	p.waitText("are taken back: Black to play.")
	p.waitFor("the empty board", 15*time.Second, func(s string) bool { return empty(s) && loosely(s, "Move 1 · your turn") })

	// The burst: C3, then ^K at once. The bot accepts the request of C3
	// before answering; or its answer came first, and the request (made
	// after it, the keys being handled in order) takes back both; or the
	// request lapsed under the answer, and ^K again takes back both.
	p.keys("=c3", "Enter", "C-k")
	done := func(s string) bool {
		return loosely(panelOf(s), "Move 1 (Black C3) is taken back") || regexp.MustCompile(`\(Black C3, White [A-J]\d\) are taken back`).MatchString(strings.Join(strings.Fields(panelOf(s)), " "))
	}
	s := p.waitFor("the answer to ^K", 30*time.Second, func(s string) bool {
		return done(s) || loosely(panelOf(s), "^K asks to take back your move and the answer")
	})
	if !done(s) {
		t.Logf("the request lapsed under the bot's answer:\n%s", s)
		p.waitText("Move 3 · your turn")
		p.keys("C-k")
		p.waitFor("both taken back", 30*time.Second, done)
	}
	p.waitFor("the empty board", 15*time.Second, func(s string) bool { return empty(s) && loosely(s, "Move 1 · your turn") })
}

// panelOf returns the part of a game screen right of the board: each line
// from the column where the log's header starts, so that the panel's
// wrapped lines read on without the board's rows between them.
func panelOf(screen string) string {
	lines := strings.Split(screen, "\n")
	x := -1
	for _, l := range lines {
		if i := strings.Index(l, "── log"); i >= 0 {
			x = len([]rune(l[:i]))
			break
		}
	}
	if x < 0 {
		return screen
	}
	for i, l := range lines {
		r := []rune(l)
		lines[i] = string(r[min(x, len(r)):])
	}
	return strings.Join(lines, "\n")
}

// boardArea returns the lines of a screen's board: from the first line of
// column letters to the second, only the board's columns (the panel to
// their right is cut off).
func boardArea(screen string) string {
	lines := strings.Split(screen, "\n")
	var out []string
	in, width := false, 0
	for _, l := range lines {
		if i := strings.Index(l, " A "); i >= 0 && strings.Contains(l, " B ") && strings.TrimSpace(l[:i]) == "" {
			if in {
				break
			}
			// The board ends with its last column letter and the row
			// numbers after it; the panel starts further right.
			rs, last, gap := []rune(l), 0, 0
			for j := len([]rune(l[:i])) + 1; j < len(rs) && gap <= 3; j++ {
				if rs[j] == ' ' {
					gap++
					continue
				}
				last, gap = j, 0
			}
			in, width = true, last+5
			continue
		}
		if in {
			r := []rune(l)
			out = append(out, string(r[:min(len(r), width)]))
		}
	}
	return strings.Join(out, "\n")
}

// TestPlayTmuxWindowTitle (UI-D24, UI-D39, issue 34 item 5): inside
// tmux (TERM=tmux-256color, whose terminfo entry has no title sequence
// tcell reads) the window title still says that it is the player's move:
// tmux's pane_title takes it.
func TestPlayTmuxWindowTitle(t *testing.T) {
	t.Parallel()
	if err := exec.Command("infocmp", "tmux-256color").Run(); err != nil {
		testenv.Missing(t, "no terminfo entry for tmux-256color")
	}
	srv := newTmux(t)
	p := srv.startTerm("title", 80, 24, "tmux-256color", "play", "--home", filepath.Join(srv.dir, "home"),
		"--variant", "go", "--size", "9", "--level", "1", "--color", "black")
	p.waitText("your turn")
	title := ""
	deadline := time.Now().Add(testenv.Duration(15 * time.Second))
	for time.Now().Before(deadline) {
		out, err := srv.run("display-message", "-p", "-t", p.name+":", "#{pane_title}")
		if err != nil {
			t.Fatalf("display-message: %v: %s", err, out)
		}
		if title = strings.TrimSpace(out); strings.HasPrefix(title, "kakure · your move") {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("the pane's title is %q, want it to say kakure · your move", title)
}
