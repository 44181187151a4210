package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// The cut tests (NET-D14 in docs/internet.md) cut a link mid-game with
// iptables DROP rules and restore it; the game must resume by itself and
// both records verify (T-11, T-13).

var (
	reGameStarted = regexp.MustCompile(`^game (\S+) started with (\S+)`)
	reLANQUICAddr = regexp.MustCompile(`^\s+(/ip4/10\.0\.9\.3/udp/\d+/quic-v1/p2p/\S+)`)
	reResumed     = regexp.MustCompile(`^resumed: game (\S+) after ([0-9.]+)s adjourned: (\S+)`)
)

// cutLink is a link the test cuts and restores with iptables DROP rules.
type cutLink struct {
	l    *netnsLab
	ns   string
	cut  [][]string // iptables arguments that insert the DROP rules
	undo [][]string // and those that delete them
}

// natUplinkCut cuts everything nat forwards (its player's whole uplink:
// to the relay and to the other player) and everything addressed to the
// NAT itself from the wan side.
func natUplinkCut(l *netnsLab, nat string) *cutLink {
	return &cutLink{l: l, ns: nat,
		cut:  [][]string{{"-I", "FORWARD", "1", "-j", "DROP"}},
		undo: [][]string{{"-D", "FORWARD", "-j", "DROP"}}}
}

// hostCut cuts a host's eth0 both ways.
func hostCut(l *netnsLab, ns string) *cutLink {
	return &cutLink{l: l, ns: ns,
		cut:  [][]string{{"-I", "INPUT", "1", "-i", "eth0", "-j", "DROP"}, {"-I", "OUTPUT", "1", "-o", "eth0", "-j", "DROP"}},
		undo: [][]string{{"-D", "INPUT", "-i", "eth0", "-j", "DROP"}, {"-D", "OUTPUT", "-o", "eth0", "-j", "DROP"}}}
}

func (c *cutLink) apply(rules [][]string) {
	for _, r := range rules {
		c.l.in(c.ns, append([]string{"iptables"}, r...)...)
	}
}

// recordSize returns the size of a game's record, 0 if there is none yet.
func recordSize(home, id string) int64 {
	fi, err := os.Stat(filepath.Join(home, "games", id+".record.json"))
	if err != nil {
		return 0
	}
	return fi.Size()
}

// cutGame is one game of the cut tests: its players and homes.
type cutGame struct {
	guest, host         *process
	guestHome, hostHome string
}

// cutAndResume waits for the game to be under way, cuts the link for
// cutFor, restores it and returns how long after the restore the game
// made progress again (the guest's record grew) and the guest's
// resumption line. It fails the test if the game does not resume within
// resumeWithin.
func cutAndResume(t *testing.T, g cutGame, link *cutLink, cutFor, resumeWithin time.Duration) (progress time.Duration, resumed []string) {
	t.Helper()
	started := g.guest.waitLine(t, reGameStarted, 60*time.Second)
	id := started[1]
	// Under way: a few more messages in the guest's record.
	deadline := testenv.Deadline(30 * time.Second)
	before := recordSize(g.guestHome, id)
	for recordSize(g.guestHome, id) < before+4000 {
		if time.Now().After(deadline) {
			t.Fatalf("game %s made no progress before the cut", id)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if g.guest.has(reGameResult) {
		t.Fatal("the game ended before the cut: nothing to resume")
	}
	link.apply(link.cut)
	cutAt := time.Now()
	time.Sleep(cutFor)
	size := recordSize(g.guestHome, id)
	link.apply(link.undo)
	restored := time.Now()
	t.Logf("link cut for %s (%s)", restored.Sub(cutAt).Round(time.Millisecond), strings.Join(link.cut[0], " "))
	deadline = restored.Add(resumeWithin)
	for recordSize(g.guestHome, id) == size && !g.guest.has(reGameResult) {
		if time.Now().After(deadline) {
			t.Fatalf("game %s made no progress within %s of the link's restore; guest:\n%s\nhost:\n%s",
				id, resumeWithin, g.guest.output(), g.host.output())
		}
		time.Sleep(50 * time.Millisecond)
	}
	progress = time.Since(restored)
	resumed = g.guest.lastLine(reResumed)
	return progress, resumed
}

// finishAndVerify waits for both results, checks they agree and that both
// records verify (T-13).
func finishAndVerify(t *testing.T, g cutGame) {
	t.Helper()
	resGuest := g.guest.waitLine(t, reGameResult, 180*time.Second)
	resHost := g.host.waitLine(t, reGameResult, 60*time.Second)
	resultsAgree(t, resGuest, resHost)
}

// resultsAgree checks that the guest's and the host's result lines
// (reGameResult) agree and that both records verify with that result
// (T-13).
func resultsAgree(t *testing.T, resGuest, resHost []string) {
	t.Helper()
	if resGuest[1] != resHost[1] || resGuest[2] != resHost[2] {
		t.Fatalf("the players disagree: guest %q, host %q", resGuest[0], resHost[0])
	}
	for _, res := range [][]string{resGuest, resHost} {
		tr, err := session.LoadTranscript(res[3])
		if err != nil {
			t.Fatal(err)
		}
		if rep := protocol.Verify(tr); rep.Violation != nil || rep.Outcome == nil || rep.Outcome.Result.String() != res[2] {
			t.Errorf("record %s does not verify: %+v", res[3], rep)
		}
	}
}

// cutBotLevel makes the bots slow enough (150 ms a move) that a game
// (cutSize) lasts well beyond the cuts: the level-1 bot, which then waits
// (BOT-D8) rather than searching for 150 ms, which took 18 s of CPU in
// TestCutResumesThroughNATs alone.
const cutBotLevel = "1,wait=150ms"

// TestCutResumesDirect: two hosts on a LAN, the guest invites the host
// at its LAN QUIC address (a direct connection); mid-game the guest's
// link is cut (iptables DROP both ways) for 10 s and restored, then, in
// the full tier, for 35 s (QUIC gives the connection up after 30 s idle:
// the guest must redial). The game must resume by itself each time and both records
// verify (T-11, T-13).
func TestCutResumesDirect(t *testing.T) {
	if raceEnabled {
		// Real-time cuts: they run without -race (go test ./... and the
		// full tier), where the race detector does not multiply them.
		t.Skip("the namespace cut tests run without -race")
	}
	// Each builds its own namespaces: the tests run side by side,
	// mostly waiting on cuts and on slow bots.
	t.Parallel()
	requireNetns(t, "iptables")
	l := newLANLab(t)
	dir := t.TempDir()
	g := cutGame{guestHome: filepath.Join(dir, "guest"), hostHome: filepath.Join(dir, "host")}
	listen := []string{"--listen", "/ip4/0.0.0.0/tcp/0", "--listen", "/ip4/0.0.0.0/udp/0/quic-v1", "--level", cutBotLevel}
	g.host = startKakureIn(t, l.b, append([]string{"bot", "--home", g.hostHome, "--seed", "1"}, listen...)...)
	addr := g.host.waitLine(t, reLANQUICAddr, 20*time.Second)[1]
	g.guest = startKakureIn(t, l.a, append([]string{"bot", "--home", g.guestHome, "--seed", "2", "--invite", addr,
		"--variant", "go", "--size", cutSize()}, listen...)...)
	cuts(t, g, hostCut(&l.netnsLab, l.a), "direct")
	finishAndVerify(t, g)
}

// cuts cuts the link twice in one game: for 10 s (the connections
// survive: QUIC's idle timeout is 30 s), then for longCut (35 s in the
// full tier), long enough for every connection to die, so that the
// players must redial (NET-D14). It logs
// the time from each restore to the game's next progress, and the
// guest's reconnection lines.
func cuts(t *testing.T, g cutGame, link *cutLink, kind string) {
	t.Helper()
	for i, d := range []time.Duration{10 * time.Second, longCut()} {
		if d == 0 {
			continue
		}
		before := len(g.guest.lines)
		progress, resumed := cutAndResume(t, g, link, d, 90*time.Second)
		t.Logf("%s, cut %d for %s: the game went on %.1fs after the restore; %v", kind, i+1, d, progress.Seconds(), resumed)
		g.guest.mu.Lock()
		for _, line := range g.guest.lines[before:] {
			if strings.HasPrefix(line, "adjourned:") || strings.HasPrefix(line, "connection: game") || strings.HasPrefix(line, "resumed:") {
				t.Logf("  guest: %s", line)
			}
		}
		g.guest.mu.Unlock()
		if resumed != nil && resumed[3] != kind && kind != "hole-punched" {
			t.Errorf("resumed on a %s connection, want %s", resumed[3], kind)
		}
	}
}

// longCut is the second cut's length: KAKURE_CUT_LONG if set (0: none),
// else 35 s in the full tier (KAKURE_TEST_FULL=1) and none by default,
// where the 10 s cut alone runs.
func longCut() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("KAKURE_CUT_LONG")); err == nil || os.Getenv("KAKURE_CUT_LONG") == "0" {
		return d
	}
	if !testenv.Full() {
		return 0
	}
	return 35 * time.Second
}

// TestCutResumesThroughNATs: the two players of TestInternetPlay (each
// behind its own NAT, a relay on the public side), met by invite code;
// mid-game the host's NAT forwards nothing for 10 s. Over a hole-punched
// connection (both NATs port-preserving) and over a relayed one (the
// guest's NAT symmetric) the game must resume by itself and both records
// verify (T-11, T-13).
func TestCutResumesThroughNATs(t *testing.T) {
	if raceEnabled {
		// Real-time cuts: they run without -race (go test ./... and the
		// full tier), where the race detector does not multiply them.
		t.Skip("the namespace cut tests run without -race")
	}
	// Each builds its own namespaces: the tests run side by side,
	// mostly waiting on cuts and on slow bots.
	t.Parallel()
	requireNetns(t, "iptables") // fails in CI where it cannot run
	l := newNetnsLab(t)
	dir := t.TempDir()
	relay := startKakureIn(t, l.pub, "relay", "--home", filepath.Join(dir, "relay"),
		"--listen", "/ip4/"+labRelayIP+"/tcp/4747", "--listen", "/ip4/"+labRelayIP+"/udp/4747/quic-v1", "--stats", "1s")
	relayAddr := relay.waitLine(t, reRelayAddr, 20*time.Second)[1]
	for i, tt := range []struct {
		name      string
		symmetric bool
		want      string
	}{
		{"hole-punched", false, "hole-punched"},
		{"relayed behind a symmetric NAT", true, "relayed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.symmetric {
				l.symmetricNAT(l.nat2)
			}
			g := cutGame{guestHome: filepath.Join(dir, fmt.Sprint("guest", i)), hostHome: filepath.Join(dir, fmt.Sprint("host", i))}
			listen := []string{"--listen", "/ip4/0.0.0.0/udp/0/quic-v1", "--listen", "/ip4/0.0.0.0/tcp/0", "--relay", relayAddr, "--level", cutBotLevel}
			g.host = startKakureIn(t, l.a, append([]string{"bot", "--home", g.hostHome, "--seed", "1", "--host-invite"}, listen...)...)
			code := g.host.waitLine(t, reCode, 20*time.Second)[1]
			g.guest = startKakureIn(t, l.b, append([]string{"bot", "--home", g.guestHome, "--seed", "2",
				"--join", code, "--variant", cutVariant(), "--size", cutSize()}, listen...)...)
			if joined := g.guest.waitLine(t, reJoined, 30*time.Second); joined[3] != tt.want {
				t.Fatalf("joined on a %s connection, want %s", joined[3], tt.want)
			}
			cuts(t, g, natUplinkCut(l, l.nat1), tt.want)
			finishAndVerify(t, g)
		})
	}
}

// cutSize is the board of the cut games: 7×7 by default, where the 10 s
// cut alone runs (fewer moves of the slow bots to compute), 9×9 in the
// full tier, whose game must outlast the 35 s cut as well.
func cutSize() string {
	return fmt.Sprint(testenv.Size(7, 9))
}

func cutVariant() string {
	if v := os.Getenv("KAKURE_CUT_VARIANT"); v != "" {
		return v
	}
	return "go"
}
