package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waitCell waits until the pane's board shows want at vertex.
func (p *pane) waitCell(vertex, want string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf("%q at %s", want, vertex), 15*time.Second, func(s string) bool {
		return loosely(s, "A B") && boardCell(p.t, s, vertex) == want
	})
}

// watchHidden watches a pane from now until the returned function is
// called: at no capture may the board show anything at vertex, where the
// other player holds something hidden. The stop function fails the test if
// it ever did, and says how many captures were checked.
func (p *pane) watchHidden(vertex, what string) (stop func()) {
	p.t.Helper()
	done := make(chan struct{})
	result := make(chan string, 1)
	go func() {
		seen, bad, last := 0, "", false
		for {
			select {
			case <-done:
				// One more look, so that every watch looks at least once.
				last = true
			case <-time.After(30 * time.Millisecond):
			}
			if last && seen > 0 {
				result <- bad
				return
			}
			out, err := p.srv.run("capture-pane", "-p", "-t", p.name+":")
			if err != nil || !strings.Contains(out, " A ") || !strings.Contains(out, " B ") {
				if last {
					result <- fmt.Sprintf("%s: no board to check at %s:\n%s", p.name, vertex, out)
					return
				}
				continue
			}
			if cell := boardCellOf(out, vertex); cell != "" && !showsNoStone(cell) && bad == "" {
				bad = fmt.Sprintf("%s showed %q at %s, where %s is hidden:\n%s", p.name, cell, vertex, what, out)
			}
			seen++
		}
	}()
	return func() {
		p.t.Helper()
		close(done)
		if bad := <-result; bad != "" {
			p.t.Error(bad)
		}
	}
}

// showsNoStone reports whether a board cell shows no stone: an empty point,
// a star point, an empty point the count gives to a colour (UI-D26), or
// one of gomoku's announced line (UI-D37).
func showsNoStone(cell string) bool {
	switch strings.TrimSpace(cell) {
	case "·", "+", "▪", "▫", "─", "│":
		return true
	}
	return false
}

// hiddenFrom checks that a screen shows nothing at a vertex where the
// other player holds something hidden: an empty point, no bracket.
func hiddenFrom(t *testing.T, p *pane, vertex, what string) {
	t.Helper()
	if got := boardCell(t, p.capture(), vertex); !showsNoStone(got) {
		t.Errorf("%s's screen shows %q at %s, where %s is hidden:\n%s", p.name, got, vertex, what, p.screen)
	}
}

// TestPlayTmuxHMG plays Hidden Move Go 5×5 with one hidden move each to
// the result: the cards chosen by keys, a reveal, passes, the count, the
// unused card opened at the end. Neither screen shows the other's card
// before the rules reveal it.
func TestPlayTmuxHMG(t *testing.T) {
	t.Parallel()
	black, white := twoPlayers(t, "--variant", "hmg", "--size", "5", "--cards", "1")
	for _, p := range []*pane{black, white} {
		p.waitText("Choose your 1 hidden move")
	}
	black.play("A1")
	black.keys("C-d")
	stopWhite := white.watchHidden("A1", "Black's card")
	stopBlack := black.watchHidden("E5", "White's card")
	white.play("E5")
	white.keys("C-d")
	black.waitText("Turn 1 · your turn: ^V reveals, or play")
	white.waitText("You are committed to your 1 hidden move.")
	black.waitCell("A1", "[●]")
	white.waitCell("E5", "[○]")
	hiddenFrom(t, white, "A1", "Black's card")
	hiddenFrom(t, black, "E5", "White's card")
	if !loosely(black.screen, "White's: 1 hidden") || !loosely(white.screen, "Black's: 1 hidden") {
		t.Errorf("the panels do not count the opponent's hidden moves:\n%s\n%s", black.screen, white.screen)
	}

	black.keys("C-v")
	black.waitText("Reveal which hidden move?")
	stopWhite()
	// A bare Enter reveals nothing: the reveal cannot be taken back.
	black.keys("Enter")
	black.keys("1")
	black.waitText("reveal 1 at A1: Enter confirms")
	if loosely(white.capture(), "Black reveals hidden move") {
		t.Fatalf("a bare Enter revealed a hidden move:\n%s", white.screen)
	}
	black.keys("Enter")
	white.waitText("Black reveals hidden move 1 at A1.")
	white.waitCell("A1", "(●)")
	black.play("C3")
	white.waitText("Black C3.")
	white.play("pass")
	black.waitText("White passes.")
	hiddenFrom(t, black, "E5", "White's card")
	black.play("pass")
	// The card stays hidden through the count, but it is opened as soon as
	// the marking is accepted, before agreeCount returns: stop watching
	// while it is still hidden.
	black.waitText("White passes.")
	hiddenFrom(t, black, "E5", "White's card")
	stopBlack()
	agreeCount(t, black, white)
	for _, p := range []*pane{black, white} {
		p.waitText("Result: Black wins")
	}
	// The full reveal: White's unused card is opened to Black.
	black.waitText("White's hidden moves were: E5.")
	black.waitCell("E5", "[○]")
}

// TestPlayTmuxFGo plays F-Go 5×5 to the result: a choice taken back, a
// choice confirmed while the other thinks, both choices shown together,
// both pass, the count. The other's choice never shows before the turn.
func TestPlayTmuxFGo(t *testing.T) {
	t.Parallel()
	black, white := twoPlayers(t, "--variant", "fgo", "--size", "5")
	black.waitText("Your choice?")
	stopWhite := white.watchHidden("C3", "Black's choice")
	black.play("C3")
	black.waitText("Your choice: C3 (not sent)")
	black.waitCell("C3", "[●]")
	black.keys("C-u")
	black.waitText("Your choice?")
	black.play("C3")
	black.play("C3")
	black.waitText("You chose C3 · waiting for White")
	white.waitText("Black has chosen")
	hiddenFrom(t, white, "C3", "Black's choice")
	stopBlack := black.watchHidden("D3", "White's choice")
	white.play("D3")
	hiddenFrom(t, black, "D3", "White's choice")
	stopWhite()
	stopBlack()
	white.keys("C-d")
	for _, p := range []*pane{black, white} {
		p.waitText("Black C3, White D3.")
		p.waitCell("C3", "(●)")
		p.waitCell("D3", "(○)")
	}
	white.play("pass")
	white.keys("C-d")
	black.play("pass")
	black.keys("C-d")
	black.waitText("Black pass, White pass: both pass, play ends.")
	agreeCount(t, black, white)
	for _, p := range []*pane{black, white} {
		p.waitText("Result: a draw (0)")
	}
}

// TestPlayTmuxBridge plays Bridge Go 5×5 to a bridge: Black builds the C
// column while White plays on the E column; the last stone wins.
func TestPlayTmuxBridge(t *testing.T) {
	t.Parallel()
	black, white := twoPlayers(t, "--variant", "bridge", "--size", "5")
	for i := 1; i <= 5; i++ {
		black.play(fmt.Sprintf("C%d", i))
		if i == 5 {
			break
		}
		white.waitText(fmt.Sprintf("Black C%d.", i))
		white.play(fmt.Sprintf("E%d", i))
		black.waitText(fmt.Sprintf("White E%d.", i))
	}
	for _, p := range []*pane{black, white} {
		p.waitText("Black C5: a bridge, Black wins.")
		p.waitText("Result: Black wins (B+)")
		p.waitText("Black made a bridge: C1 C2 C3 C4 C5")
	}
}

// TestPlayTmuxGomoku plays Hidden Move Double Gomoku 7×7 to the result:
// the opening piece, the side, a hidden piece, a line announced and
// answered by revealing that piece, two passes (a draw, GM-7) and the
// audit. The hidden piece shows on the other screen only once revealed.
func TestPlayTmuxGomoku(t *testing.T) {
	t.Parallel()
	srv := newTmux(t)
	common := []string{"play", "--lobby", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-mdns"}
	b := srv.start("b", 200, 30, append(common, "--home", filepath.Join(srv.dir, "b"))...)
	a := srv.start("a", 100, 30, append(common, "--home", filepath.Join(srv.dir, "a"), "--variant", "gomoku", "--size", "7")...)
	addr := addrRe.FindString(b.waitFor("an address", 20*time.Second, func(s string) bool { return addrRe.MatchString(s) }))
	a.waitText("kakure — lobby")
	a.keys("="+addr, "Enter")
	b.waitText("invites you to a game:")
	b.keys("y")

	// The inviter (a) places the X opening piece; b chooses O.
	a.waitText("Place the X opening piece")
	a.play("D4")
	b.waitText("The X opening piece is at D4. Your side?")
	b.keys("o")
	x, o := a, b
	o.waitText("Turn 1 · your turn")
	stopX := x.watchHidden("A1", "O's hidden piece")
	o.play("A1")
	o.waitText("you committed to A1. Announce:")
	o.keys("r")
	x.waitText("O's piece is placed.")
	hiddenFrom(t, x, "A1", "O's hidden piece")
	o.waitCell("A1", "[O]")

	// X commits to G1 and announces row 1: O reveals A1.
	x.waitText("Turn 2 · your turn")
	x.play("G1")
	x.waitText("you committed to G1. Announce:")
	x.keys("r")
	o.waitText("Your hidden pieces there: A1")
	hiddenFrom(t, o, "G1", "X's committed point")
	o.play("A1")
	o.waitText("Selected: A1")
	stopX()
	o.keys("C-d")
	x.waitText("O reveals A1.")
	x.waitText("X's piece at G1 stands revealed.")
	x.waitCell("A1", " O ")

	o.waitText("Turn 3 · your turn")
	o.play("pass")
	x.waitText("Turn 4 · your turn")
	x.play("pass")
	for _, p := range []*pane{x, o} {
		p.waitText("The audit of every hidden piece passed (GM-8).")
		p.waitText("Result: a draw (0)")
	}
}

// TestPlayTmuxPhantom plays Phantom Go 5×5 under the common rules through
// the secure referee to the result: a stone each, an illegal try onto the
// other's stone (announced, tried again), two passes, the audit, the
// count. Neither screen shows the other's stones before the audit reveals
// the board. The game is by flips, kakure's default (UI-D50): the lobby's
// form starts with "Try flips" checked, and the invitation says so.
func TestPlayTmuxPhantom(t *testing.T) {
	t.Parallel()
	black, white := twoPlayersSetUp(t, nil, func(screen string) {
		if !loosely(screen, "common rules, try flips") {
			t.Errorf("the invitation of a default Phantom Go game is not by flips (UI-D50):\n%s", screen)
		}
	}, "--variant", "phantom", "--size", "5", "--rules", "common")
	black.waitText("Your try:")
	stopWhite := white.watchHidden("C3", "Black's stone")
	black.play("C3")
	white.waitText("Black has moved")
	stopBlack := black.watchHidden("D3", "White's stone")
	white.waitText("Your try:")
	white.play("D3")
	black.waitText("White has moved")
	black.waitText("Your try:")
	stopBlack()
	black.play("D3")
	black.waitText("Black tries: Illegal move")
	white.waitText("Black tries: Illegal move")
	black.waitText("Your try:")
	black.play("C2")
	white.waitText("Your try:")
	white.play("pass")
	black.waitText("White passes")
	black.waitText("Your try:")
	stopWhite()
	black.play("pass")
	for _, p := range []*pane{black, white} {
		p.waitFor("the audit", 60*time.Second, func(s string) bool {
			return loosely(s, "The audit passed: the whole board is revealed.")
		})
	}
	black.waitCell("D3", " ○ ")
	white.waitCell("C3", " ● ")
	agreeCount(t, black, white)
	for _, p := range []*pane{black, white} {
		p.waitText("Result: White wins by 6.5 points (W+6.5)")
	}
}
