package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var (
	// reLobbyID finds this peer's ID in the lobby.
	reLobbyID = regexp.MustCompile(`You: (12D3KooW\w+)`)
	// reShownCode finds the invite code the host dialog shows.
	reShownCode = regexp.MustCompile(`\s([a-z]{3,6}-[a-z]{3,6}-[a-z]{3,6})\s`)
)

// TestPlayTmuxInviteCode plays by invite code between two `kakure play`
// processes and a `kakure relay` on loopback: A hosts a code (^O), B
// joins (^E) by typing it in capitals with spaces, B sees A's peer ID
// before A accepts, A sees B's in the invitation; a move is played and
// both game screens show the connection's kind (direct: the relay is on
// loopback, so A's record holds its loopback address) and the other's
// peer ID. A third program, with no relay, cannot host a code and says
// why.
func TestPlayTmuxInviteCode(t *testing.T) {
	t.Parallel()
	srv := newTmux(t)
	dir := srv.dir
	relay := startKakure(t, "relay", "--home", filepath.Join(dir, "relay"), "--listen", "/ip4/127.0.0.1/tcp/0")
	relayAddr := relay.waitLine(t, regexp.MustCompile(`^\s+(/ip4/127\.0\.0\.1/tcp/\d+/p2p/\S+)`), 20*time.Second)[1]
	common := []string{"play", "--lobby", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-mdns", "--relay", relayAddr,
		"--variant", "go", "--size", "5"}
	a := srv.start("a", 100, 30, append(common, "--home", filepath.Join(dir, "a"))...)
	b := srv.start("b", 100, 30, append(common, "--home", filepath.Join(dir, "b"))...)
	// C has no relay: ^O says so, and how to give one.
	c := srv.start("c", 100, 30, "play", "--lobby", "--listen", "/ip4/127.0.0.1/tcp/0", "--no-mdns", "--home", filepath.Join(dir, "c"))
	idA := reLobbyID.FindStringSubmatch(a.waitFor("A's peer ID", 20*time.Second, reLobbyID.MatchString))[1]
	idB := reLobbyID.FindStringSubmatch(b.waitFor("B's peer ID", 20*time.Second, reLobbyID.MatchString))[1]

	start := time.Now()
	a.keys("C-o")
	screen := a.waitText("Esc withdraws the code")
	m := reShownCode.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no code on the host's screen:\n%s", screen)
	}
	code := m[1]
	if !loosely(screen, idA) {
		t.Errorf("the host dialog does not show A's peer ID %s:\n%s", idA, screen)
	}
	t.Logf("code %s shown %.2fs after ^O", code, time.Since(start).Seconds())

	b.keys("C-e")
	b.waitText("Join with a code")
	typed := time.Now()
	b.keys("="+strings.ToUpper(strings.ReplaceAll(code, "-", " ")), "Enter")
	b.waitText("Host's peer ID: " + idA)
	invited := a.waitText("invites you to a game:")
	if !loosely(invited, "Peer ID: "+idB) {
		t.Errorf("the invitation does not show B's peer ID %s:\n%s", idB, invited)
	}
	t.Logf("invitation on the host's screen %.2fs after the code was typed", time.Since(typed).Seconds())
	a.keys("y")

	var black, white *pane
	for _, p := range []*pane{a, b} {
		if colorRe.FindStringSubmatch(p.waitFor("a colour", 20*time.Second, colorRe.MatchString))[1] == "Black" {
			black = p
		} else {
			white = p
		}
	}
	if black == nil || white == nil {
		t.Fatal("both players have the same colour")
	}
	black.play("C3")
	white.waitText("Black C3.")
	t.Logf("first move shown %.2fs after the code was typed", time.Since(typed).Seconds())
	for _, p := range []struct {
		pane  *pane
		other string
	}{{a, idB}, {b, idA}} {
		s := p.pane.waitText("Connection: direct")
		if !loosely(s, "Opponent's peer ID: "+p.other) {
			t.Errorf("%s does not show the opponent's peer ID %s:\n%s", p.pane.name, p.other, s)
		}
	}
	c.waitText("kakure — lobby")
	c.keys("C-o")
	c.waitText("No code: No relay configured and the DHT is off")
	c.keys("Escape")
	c.waitFor("the dialog closed", 10*time.Second, func(s string) bool { return !strings.Contains(s, "No code:") })

	// The code was withdrawn when the game started: the relay no longer
	// knows it.
	lost := startKakure(t, "bot", "--home", filepath.Join(dir, "late"), "--listen", "/ip4/127.0.0.1/tcp/0",
		"--relay", relayAddr, "--join", code)
	lost.waitLine(t, regexp.MustCompile(`nobody hosts the code`), 20*time.Second)
}
