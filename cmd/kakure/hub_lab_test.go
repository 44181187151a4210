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
	"github.com/kakure/kakure/node"
)

// TestNETD26HubLab: a club's own meeting point. One `kakure relay` on the
// lab's public side is the only bootstrap peer of two homes behind NATs,
// which configure no relay and reach no other DHT node (NET-D26): the host
// gets a code on the relay's DHT and a reservation on the relay, found
// there; the guest, typing it, finds the host through the relay's DHT and
// the game is played, hole-punched behind two port-preserving NATs and
// relayed through the hub behind a symmetric one; both records verify. A
// second relay on the hub's address refuses to start.
func TestNETD26HubLab(t *testing.T) {
	testenv.SkipUnlessFull(t, "a hub in the namespace lab")
	if raceEnabled {
		t.Skip("the namespace tests run in the pass without -race")
	}
	l := newNetnsLab(t)
	dir := t.TempDir()
	listenHub := []string{"--listen", "/ip4/" + labRelayIP + "/udp/4747/quic-v1", "--listen", "/ip4/" + labRelayIP + "/tcp/4747"}
	hub := startKakureIn(t, l.pub, append([]string{"relay", "--home", filepath.Join(dir, "hub"), "--stats", "100ms"}, listenHub...)...)
	hubAddr := hub.waitLine(t, reRelayAddr, 20*time.Second)[1]
	if snippet := hub.waitLine(t, regexp.MustCompile(`^\s+(\{"relays":.*"bootstrap":.*\})$`), 5*time.Second); !strings.Contains(snippet[1], "/quic-v1/") {
		t.Errorf("the hub's snippet lacks its QUIC address: %s", snippet[1])
	}

	// A second relay on the same address: refused.
	second := startKakureIn(t, l.pub, append([]string{"relay", "--home", filepath.Join(dir, "second")}, listenHub...)...)
	second.waitLine(t, regexp.MustCompile(`taken by another program`), 20*time.Second)
	<-second.done
	if code := second.cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("the second relay: exit status %d, want 1", code)
	}

	listen := []string{"--listen", "/ip4/0.0.0.0/udp/0/quic-v1", "--listen", "/ip4/0.0.0.0/tcp/0"}
	dhtOn := []string{node.DHTEnv + "=" + node.DHTOn}
	start := func(ns, name string, args ...string) *process {
		home := dhtHome(t, filepath.Join(dir, name), []string{hubAddr})
		return startKakureInEnv(t, dhtOn, ns, append(append([]string{"bot", "--home", home}, args...), listen...)...)
	}
	for i, tt := range []struct {
		name      string
		symmetric bool
		want      string
	}{
		{"two port-preserving NATs: hole-punched", false, "hole-punched"},
		{"one symmetric NAT: relayed through the hub", true, "relayed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.symmetric {
				l.symmetricNAT(l.nat2)
			}
			started := time.Now()
			host := start(l.a, fmt.Sprint("host", i), "--seed", "1", "--host-invite")
			code := host.waitLine(t, reCode, 60*time.Second)[1]
			hosted := time.Since(started)
			guest := start(l.b, fmt.Sprint("guest", i), "--seed", "2", "--join", code, "--variant", "go", "--size", "9")
			joined := guest.waitLine(t, reJoined, 60*time.Second)
			if !wantKind(joined[3], tt.want) {
				t.Errorf("joined on a %s connection, want %s", joined[3], tt.want)
			}
			resGuest := guest.waitLine(t, reGameResult, 120*time.Second)
			resHost := host.waitLine(t, reGameResult, 30*time.Second)
			resultsAgree(t, resGuest, resHost)
			first := guest.waitLine(t, reFirstMove, 5*time.Second)
			t.Logf("hub as the only bootstrap peer, %s: code %.1fs after the host started, code to connected %ss, code to first move %ss",
				tt.want, hosted.Seconds(), joined[2], first[1])
		})
	}
	if os.Getenv("KAKURE_TEST_DIR") != "" {
		t.Logf("hub output:\n%s", hub.output())
	}
}
