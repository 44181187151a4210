package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/ui"
)

// requireNetns checks that this system lets the test build network
// namespaces with the tools given (ip is always needed): root, the tools
// installed, `ip netns add` permitted. Where it cannot, the test fails
// when CI is set (CI installs the tools and runs as root) and is skipped
// with the reason otherwise.
func requireNetns(t *testing.T, tools ...string) {
	t.Helper()
	skip := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("CI") != "" {
			t.Fatalf(format, args...)
		}
		t.Skipf(format, args...)
	}
	if testing.Short() {
		t.Skip("starts real processes in network namespaces")
	}
	if os.Geteuid() != 0 {
		skip("network namespaces need root (CI runs as root)")
	}
	for _, tool := range append([]string{"ip"}, tools...) {
		if _, err := exec.LookPath(tool); err != nil {
			skip("%s is not installed (apt-get install iproute2 iptables tmux; CI does)", tool)
		}
	}
	var suffix [4]byte
	rand.Read(suffix[:])
	probe := "kkprobe" + hex.EncodeToString(suffix[:])
	if out, err := exec.Command("ip", "netns", "add", probe).CombinedOutput(); err != nil {
		skip("network namespaces are not permitted here: ip netns add: %v: %s", err, out)
	}
	exec.Command("ip", "netns", "del", probe).Run()
}

// lanLab is a LAN in a box: two namespaces, a and b, each with one
// interface on a bridge in a third namespace, and nothing else. Multicast
// (mDNS) crosses the bridge and stays in the namespaces.
//
//	a eth0 10.0.9.2/24 ── br0 (namespace br) ── b eth0 10.0.9.3/24
type lanLab struct {
	netnsLab
	br string
}

// newLANLab builds the LAN (see requireNetns for when it cannot).
func newLANLab(t *testing.T) *lanLab {
	t.Helper()
	requireNetns(t)
	var suffix [4]byte
	rand.Read(suffix[:])
	id := hex.EncodeToString(suffix[:])
	l := &lanLab{netnsLab: netnsLab{t: t, a: "kklana" + id, b: "kklanb" + id}, br: "kklanbr" + id}
	testenv.Reap(t, func() {
		for _, ns := range []string{l.br, l.a, l.b} {
			exec.Command("ip", "netns", "del", ns).Run()
		}
	})
	for _, ns := range []string{l.br, l.a, l.b} {
		l.run("ip", "netns", "add", ns)
		l.run("ip", "-n", ns, "link", "set", "lo", "up")
	}
	l.run("ip", "-n", l.br, "link", "add", "br0", "type", "bridge")
	l.run("ip", "-n", l.br, "link", "set", "br0", "up")
	for i, ns := range []string{l.a, l.b} {
		port := fmt.Sprintf("p%d", i+1)
		l.run("ip", "link", "add", "eth0", "netns", ns, "type", "veth", "peer", "name", port, "netns", l.br)
		l.run("ip", "-n", l.br, "link", "set", port, "master", "br0", "up")
		l.run("ip", "-n", ns, "addr", "add", fmt.Sprintf("10.0.9.%d/24", i+2), "dev", "eth0")
		l.run("ip", "-n", ns, "link", "set", "eth0", "up")
	}
	return l
}

// startIn runs `kakure ARGS` in namespace ns in a new session of w×h
// cells, as start does.
func (s *tmuxServer) startIn(ns, name string, w, h int, args ...string) *pane {
	s.t.Helper()
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = "'" + a + "'"
	}
	cmd := fmt.Sprintf("ip netns exec %s env KAKURE_BE_BINARY=1 TERM=xterm-256color '%s' -test.run='^$' -- %s; echo kakure exited $?; sleep 600",
		ns, os.Args[0], strings.Join(quoted, " "))
	if out, err := s.run("new-session", "-d", "-s", name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), cmd); err != nil {
		s.t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	return &pane{t: s.t, srv: s, name: name}
}

var (
	reBotPeerID   = regexp.MustCompile(`^peer ID: (12D3KooW\S+)`)
	reBotAccepted = regexp.MustCompile(`^game (\S+) accepted from (\S+): (\S+)`)
	reTries       = regexp.MustCompile(`(\d+) tries`)
)

// triesShown returns the count of tries a Phantom Go screen shows, -1 if
// none.
func triesShown(screen string) int {
	m := reTries.FindStringSubmatch(screen)
	if m == nil {
		return -1
	}
	var n int
	fmt.Sscan(m[1], &n)
	return n
}

// TestLANInviteByMDNS plays on a LAN of two namespaces: a headless peer
// (`kakure bot --mdns`) in one, a lobby (`kakure play --lobby`, mDNS on
// by default) in tmux in the other. The lobby lists the bot among the
// peers on the LAN; ^P and Enter invite it, with nothing typed, to Phantom
// Go 5×5 (common rules); a try is played, the lobby's player resigns, and
// both records verify (T-13) with the same result. Then the bot exits,
// and leaves the lobby's list at once (NET-D25).
func TestLANInviteByMDNS(t *testing.T) {
	t.Parallel()
	l := newLANLab(t)
	srv := newTmux(t)
	dir := srv.dir
	listen := []string{"--listen", "/ip4/0.0.0.0/tcp/0", "--listen", "/ip4/0.0.0.0/udp/0/quic-v1"}
	started := time.Now()
	bot := startKakureIn(t, l.b, append([]string{"bot", "--mdns", "--home", filepath.Join(dir, "bot"), "--seed", "3"}, listen...)...)
	botID := bot.waitLine(t, reBotPeerID, 20*time.Second)[1]
	lobby := srv.startIn(l.a, "lobby", 120, 30, append([]string{"play", "--lobby", "--home", filepath.Join(dir, "lobby"),
		"--variant", "phantom", "--size", "5", "--rules", "common"}, listen...)...)
	lobby.waitText("kakure — lobby")
	short := ui.ShortPeer(botID)
	lobby.waitFor("the bot among the peers on the LAN", 30*time.Second, func(s string) bool { return strings.Contains(s, short) })
	t.Logf("bot listed in the lobby %.2fs after it started", time.Since(started).Seconds())

	lobby.keys("C-p", "Enter")
	accepted := bot.waitLine(t, reBotAccepted, 30*time.Second)
	if accepted[3] != "phantom" {
		t.Errorf("the bot accepted %s, want phantom", accepted[3])
	}
	screen := lobby.waitFor("a colour", 30*time.Second, colorRe.MatchString)
	if !loosely(screen, "Phantom Go 5×5") {
		t.Errorf("the game is not Phantom Go 5×5:\n%s", screen)
	}
	me := colorRe.FindStringSubmatch(screen)[1]
	other := map[string]string{"Black": "White", "White": "Black"}[me]
	before := triesShown(lobby.waitText("Your try:"))
	lobby.play("C3")
	lobby.waitFor("the answer to C3", 30*time.Second, func(s string) bool {
		return loosely(s, "Your try:") && triesShown(s) > before
	})
	lobby.keys("C-r")
	lobby.waitText("Resign this game?")
	lobby.keys("y")
	lobby.waitText("Result: " + other + " wins by resignation")

	res := bot.waitLine(t, reGameResult, 30*time.Second)
	if res[1] != accepted[1] {
		t.Fatalf("the bot reports game %s, accepted %s", res[1], accepted[1])
	}
	records, _ := filepath.Glob(filepath.Join(dir, "lobby", "games", res[1]+".record.json"))
	if len(records) != 1 {
		t.Fatalf("the lobby saved no record of game %s", res[1])
	}
	for who, path := range map[string]string{"bot": res[3], "lobby": records[0]} {
		tr, err := session.LoadTranscript(path)
		if err != nil {
			t.Fatal(err)
		}
		rep := protocol.Verify(tr)
		if rep.Violation != nil || rep.Outcome == nil || rep.Outcome.Result.String() != res[2] {
			t.Errorf("the %s's record does not verify to %s: %+v", who, res[2], rep)
		}
	}

	// The bot exits: its goodbye takes it off the lobby's list at once
	// (NET-D25), not an hour later.
	// Its line in the LAN list: the short ID and its LAN address (the
	// games list names it by its short ID too).
	listed := short + " /ip4/10.0.9.3/"
	lobby.keys("q")
	lobby.waitFor("the lobby, the bot listed", 30*time.Second, func(s string) bool {
		return strings.Contains(s, "kakure — lobby") && strings.Contains(s, listed)
	})
	bot.cmd.Process.Signal(os.Interrupt)
	exited := time.Now()
	lobby.waitFor("the bot off the list", 15*time.Second, func(s string) bool { return !strings.Contains(s, listed) })
	t.Logf("the bot left the lobby's list %.2fs after it was stopped", time.Since(exited).Seconds())
}

// TestNETD27LANBotsPlayEachOther plays bots against each other on a LAN
// of two namespaces with nothing typed but flags (NET-D27, issue 37):
//
//  1. `kakure bot --mdns --invite-lan` invites a plain `kakure bot
//     --mdns` it found (at once or after the grace, as their peer IDs
//     fall), plays one game and exits;
//  2. two `kakure bot --mdns --invite-lan` play exactly one game: the one
//     with the lower peer ID invites, the other accepts, and both exit;
//  3. `kakure bot --mdns --invite PEERID` reaches a bot by its bare peer
//     ID, found by mDNS.
//
// Each game's records agree and verify (T-13).
func TestNETD27LANBotsPlayEachOther(t *testing.T) {
	t.Parallel()
	l := newLANLab(t)
	dir := t.TempDir()
	common := []string{"--mdns", "--listen", "/ip4/0.0.0.0/tcp/0", "--listen", "/ip4/0.0.0.0/udp/0/quic-v1"}
	game := []string{"--variant", "go", "--size", "5"}
	reStarted := regexp.MustCompile(`^game (\S+) started with (\S+)`)
	bot := func(ns, home string, args ...string) *process {
		return startKakureIn(t, ns, slices.Concat([]string{"bot", "--home", filepath.Join(dir, home)}, common, args)...)
	}
	exited := func(who string, p *process) {
		t.Helper()
		select {
		case <-p.done:
		case <-time.After(testenv.Duration(30 * time.Second)):
			t.Fatalf("the %s did not exit after its game:\n%s", who, p.output())
		}
		if code := p.cmd.ProcessState.ExitCode(); code != 0 {
			t.Errorf("the %s exited with status %d:\n%s", who, code, p.output())
		}
	}
	stop := func(p *process) {
		p.cmd.Process.Signal(os.Interrupt)
		<-p.done // its goodbye is sent: the next bots do not find it
	}

	// 1. An inviting bot and an accepting one.
	acceptor := bot(l.b, "acceptor", "--seed", "1")
	acceptorID := acceptor.waitLine(t, reBotPeerID, 20*time.Second)[1]
	inviter := bot(l.a, "inviter", append([]string{"--seed", "2", "--invite-lan"}, game...)...)
	started := inviter.waitLine(t, reStarted, 60*time.Second)
	if started[2] != acceptorID {
		t.Fatalf("the --invite-lan bot invited %s, want the bot on the LAN %s", started[2], acceptorID)
	}
	if acc := acceptor.waitLine(t, reBotAccepted, 30*time.Second); acc[1] != started[1] {
		t.Fatalf("the bot on the LAN accepted game %s, the inviter started %s", acc[1], started[1])
	}
	resultsAgree(t, inviter.waitLine(t, reGameResult, 120*time.Second), acceptor.waitLine(t, reGameResult, 60*time.Second))
	exited("--invite-lan bot", inviter)
	stop(acceptor)

	// 2. Two --invite-lan bots: one game, the lower peer ID invites.
	x := bot(l.a, "x", append([]string{"--seed", "3", "--invite-lan"}, game...)...)
	y := bot(l.b, "y", append([]string{"--seed", "4", "--invite-lan"}, game...)...)
	xID := x.waitLine(t, reBotPeerID, 20*time.Second)[1]
	yID := y.waitLine(t, reBotPeerID, 20*time.Second)[1]
	lower, higher, higherID := x, y, yID
	if yID < xID {
		lower, higher, higherID = y, x, xID
	}
	started = lower.waitLine(t, reStarted, 60*time.Second)
	if started[2] != higherID {
		t.Fatalf("the lower peer ID invited %s, want %s", started[2], higherID)
	}
	if acc := higher.waitLine(t, reBotAccepted, 30*time.Second); acc[1] != started[1] {
		t.Fatalf("the higher peer ID accepted game %s, the lower started %s", acc[1], started[1])
	}
	resultsAgree(t, lower.waitLine(t, reGameResult, 120*time.Second), higher.waitLine(t, reGameResult, 60*time.Second))
	exited("lower --invite-lan bot", lower)
	exited("higher --invite-lan bot", higher)
	if higher.has(reStarted) || lower.has(reBotAccepted) {
		t.Errorf("the higher peer ID invited too:\nlower:\n%s\nhigher:\n%s", lower.output(), higher.output())
	}

	// 3. A bare peer ID, found by mDNS.
	acceptor = bot(l.b, "acceptor2", "--seed", "5")
	acceptorID = acceptor.waitLine(t, reBotPeerID, 20*time.Second)[1]
	inviter = bot(l.a, "inviter2", append([]string{"--seed", "6", "--invite", acceptorID}, game...)...)
	started = inviter.waitLine(t, reStarted, 60*time.Second)
	if started[2] != acceptorID {
		t.Fatalf("--invite %s started a game with %s", acceptorID, started[2])
	}
	resultsAgree(t, inviter.waitLine(t, reGameResult, 120*time.Second), acceptor.waitLine(t, reGameResult, 60*time.Second))
	exited("--invite PEERID bot", inviter)
	stop(acceptor)
}
