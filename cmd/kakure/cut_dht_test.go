package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/node"
)

// cutDHTFor is how long TestNETD28CutResumesDHT cuts the host's uplink:
// KAKURE_CUT_DHT (a Go duration), 60 s by default, twice QUIC's idle
// timeout: every connection dies, the host's reservations on the public
// relays with them.
func cutDHTFor() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("KAKURE_CUT_DHT")); err == nil && d > 0 {
		return d
	}
	return 60 * time.Second
}

// TestNETD28CutResumesDHT: two players behind port-preserving NATs met
// by a code on the lab's public DHT, with no kakure relay anywhere: the
// game is hole-punched. Mid-game the host's NAT forwards nothing for
// 60 s, so every connection dies. When the link is back both sides
// redial at their steady pace, each at the other's addresses kept from
// the lost connections (NET-D28), and the game must go on within 10 s
// (stretched by testenv) of the restore, then finish with both records
// verifying (T-11, T-13). Issue 37 measured 60–83 s before NET-D28.
func TestNETD28CutResumesDHT(t *testing.T) {
	testenv.SkipUnlessFull(t, "a 60 s cut of a game met on the DHT")
	if raceEnabled {
		t.Skip("the namespace cut tests run in the pass without -race")
	}
	t.Parallel() // its own namespaces, mostly waiting on the cut
	requireNetns(t, "iptables")
	l := newNetnsLab(t)
	dir := t.TempDir()
	if d := os.Getenv("KAKURE_TEST_DIR"); d != "" {
		dir = d
	}
	bootstrap := startPublicNodes(t, l)
	listen := []string{"--listen", "/ip4/0.0.0.0/udp/0/quic-v1", "--listen", "/ip4/0.0.0.0/tcp/0", "--level", cutBotLevel}
	dhtOn := []string{node.DHTEnv + "=" + node.DHTOn}
	g := cutGame{guestHome: dhtHome(t, filepath.Join(dir, "guest"), bootstrap), hostHome: dhtHome(t, filepath.Join(dir, "host"), bootstrap)}
	g.host = startKakureInEnv(t, dhtOn, l.a, append([]string{"bot", "--home", g.hostHome, "--seed", "1", "--host-invite"}, listen...)...)
	code := g.host.waitLine(t, reCode, 60*time.Second)[1]
	g.guest = startKakureInEnv(t, dhtOn, l.b, append([]string{"bot", "--home", g.guestHome, "--seed", "2",
		"--join", code, "--variant", "go", "--size", "9"}, listen...)...)
	// Not relayed: the cut is of a direct game, hole-punched or direct
	// (NET-D43).
	if joined := g.guest.waitLine(t, reJoined, 60*time.Second); !throughTheNATs(joined[3]) {
		t.Fatalf("joined on a %s connection, want hole-punched (or direct)", joined[3])
	} else {
		t.Logf("joined on a %s connection", joined[3])
	}
	hostBefore, guestBefore := len(g.host.lines), len(g.guest.lines)
	progress, resumed := cutAndResume(t, g, natUplinkCut(l, l.nat1), cutDHTFor(), testenv.Duration(10*time.Second))
	t.Logf("DHT, no kakure relay, cut for %s: the game went on %.1fs after the restore; %v", cutDHTFor(), progress.Seconds(), resumed)
	for _, side := range []struct {
		name   string
		p      *process
		before int
	}{{"guest", g.guest, guestBefore}, {"host", g.host, hostBefore}} {
		side.p.mu.Lock()
		for _, line := range side.p.lines[side.before:] {
			if strings.HasPrefix(line, "adjourned:") || strings.HasPrefix(line, "connection: game") || strings.HasPrefix(line, "resumed:") {
				t.Logf("  %s: %s", side.name, line)
			}
		}
		side.p.mu.Unlock()
	}
	finishAndVerify(t, g)
	if os.Getenv("KAKURE_TEST_DIR") != "" {
		for _, home := range []string{g.guestHome, g.hostHome} {
			logRedials(t, home)
		}
	}
}

// logRedials logs the reconnection lines of a home's kakure.log.
func logRedials(t *testing.T, home string) {
	f, err := os.Open(filepath.Join(home, node.LogFileName))
	if err != nil {
		t.Log(err)
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := sc.Text(); strings.Contains(line, "msg=lost") || strings.Contains(line, "redial") || strings.Contains(line, "reconnected") {
			t.Logf("  %s: %s", filepath.Base(home), line)
		}
	}
}
