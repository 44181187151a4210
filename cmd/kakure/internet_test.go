package main

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// The internet in a box: network namespaces made by the test, all wired
// among themselves and to nothing else, so no packet leaves them.
//
//	        pub (bridge br0, 192.0.0.64/26: "public" addresses)
//	        relay 192.0.0.65
//	       /                      \
//	nat1 wan 192.0.0.66       nat2 wan 192.0.0.67      iptables MASQUERADE,
//	nat1 lan 10.0.1.1         nat2 lan 10.0.2.1        new inbound dropped
//	     |                         |
//	a eth0 10.0.1.2           b eth0 10.0.2.2          the players
//
// 192.0.0.64/26 lies outside the ranges libp2p takes for private or
// unroutable (192.0.0.0/26 is), so the peers treat the addresses the relay
// sees as public ones, as they would on the internet, and try hole
// punching.
const (
	labRelayIP = "192.0.0.65"
	labNetmask = "/26"
)

// netnsLab is the set of namespaces of one test.
type netnsLab struct {
	t                     *testing.T
	pub, nat1, nat2, a, b string
}

// run runs a command and fails the test if it fails.
func (l *netnsLab) run(args ...string) {
	l.t.Helper()
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	if err != nil {
		l.t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// in runs a command in namespace ns.
func (l *netnsLab) in(ns string, args ...string) {
	l.t.Helper()
	l.run(append([]string{"ip", "netns", "exec", ns}, args...)...)
}

// newNetnsLab builds the namespaces, or skips the test where this system
// does not allow them, except in CI (CI set), which runs as root with
// iproute2 and iptables installed (.ci/run), where it fails the test.
func newNetnsLab(t *testing.T) *netnsLab {
	t.Helper()
	if testing.Short() {
		t.Skip("starts real processes in network namespaces")
	}
	if os.Geteuid() != 0 {
		testenv.Missing(t, "network namespaces need root")
	}
	for _, tool := range []string{"ip", "iptables"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, "%s is not installed (apt-get install iproute2 iptables)", tool)
		}
	}
	var suffix [4]byte
	rand.Read(suffix[:])
	id := hex.EncodeToString(suffix[:])
	l := &netnsLab{t: t, pub: "kkpub" + id, nat1: "kknat1" + id, nat2: "kknat2" + id, a: "kka" + id, b: "kkb" + id}
	if out, err := exec.Command("ip", "netns", "add", l.pub).CombinedOutput(); err != nil {
		testenv.Missing(t, "network namespaces are not permitted here: ip netns add: %v: %s", err, out)
	}
	testenv.Reap(t, func() {
		for _, ns := range []string{l.pub, l.nat1, l.nat2, l.a, l.b} {
			exec.Command("ip", "netns", "del", ns).Run()
		}
	})
	for _, ns := range []string{l.nat1, l.nat2, l.a, l.b} {
		l.run("ip", "netns", "add", ns)
	}
	for _, ns := range []string{l.pub, l.nat1, l.nat2, l.a, l.b} {
		l.run("ip", "-n", ns, "link", "set", "lo", "up")
	}
	l.run("ip", "-n", l.pub, "link", "add", "br0", "type", "bridge")
	l.run("ip", "-n", l.pub, "addr", "add", labRelayIP+labNetmask, "dev", "br0")
	l.run("ip", "-n", l.pub, "link", "set", "br0", "up")
	for i, side := range []struct{ nat, peer, lan string }{{l.nat1, l.a, "10.0.1"}, {l.nat2, l.b, "10.0.2"}} {
		port := fmt.Sprintf("p%d", i+1)
		l.run("ip", "link", "add", "wan", "netns", side.nat, "type", "veth", "peer", "name", port, "netns", l.pub)
		l.run("ip", "-n", l.pub, "link", "set", port, "master", "br0", "up")
		l.run("ip", "-n", side.nat, "addr", "add", fmt.Sprintf("192.0.0.%d%s", 66+i, labNetmask), "dev", "wan")
		l.run("ip", "-n", side.nat, "link", "set", "wan", "up")
		l.run("ip", "link", "add", "lan", "netns", side.nat, "type", "veth", "peer", "name", "eth0", "netns", side.peer)
		l.run("ip", "-n", side.nat, "addr", "add", side.lan+".1/24", "dev", "lan")
		l.run("ip", "-n", side.nat, "link", "set", "lan", "up")
		l.run("ip", "-n", side.peer, "addr", "add", side.lan+".2/24", "dev", "eth0")
		l.run("ip", "-n", side.peer, "link", "set", "eth0", "up")
		l.run("ip", "-n", side.peer, "route", "add", "default", "via", side.lan+".1")
		l.in(side.nat, "sh", "-c", "echo 1 > /proc/sys/net/ipv4/ip_forward")
		// A home router: outgoing connections are masqueraded, answers
		// come back, nothing new gets in (dropped, not refused, as most
		// routers do).
		l.in(side.nat, "iptables", "-t", "nat", "-A", "POSTROUTING", "-o", "wan", "-j", "MASQUERADE")
		for _, chain := range []string{"FORWARD", "INPUT"} {
			l.in(side.nat, "iptables", "-A", chain, "-i", "wan", "-m", "conntrack", "--ctstate", "ESTABLISHED,RELATED", "-j", "ACCEPT")
			l.in(side.nat, "iptables", "-A", chain, "-i", "wan", "-j", "DROP")
		}
	}
	return l
}

// throughTheNATs reports whether a connection of the given kind, between
// two players each behind a NAT of the lab (which drops what it did not
// ask for), went through no relay: made by DCUtR's hole punch
// ("hole-punched"), or by DCUtR's direct dial that the other side's own
// earlier dial had let through its NAT ("direct"). Both are the punch the
// lab asks for; which one happens depends on whether the host knew its
// public address when the guest dialled it (NET-D43).
func throughTheNATs(kind string) bool { return kind == "hole-punched" || kind == "direct" }

// wantKind reports whether a connection of kind got is what a lab test
// that wants kind want asks for: want itself, or for "hole-punched"
// either kind of connection through the NATs (throughTheNATs).
func wantKind(got, want string) bool {
	if want == "hole-punched" {
		return throughTheNATs(got)
	}
	return got == want
}

// symmetricNAT makes nat a symmetric NAT: every new connection gets a
// random source port, so the port the relay sees is useless to the other
// peer and hole punching cannot work.
func (l *netnsLab) symmetricNAT(nat string) {
	l.in(nat, "iptables", "-t", "nat", "-R", "POSTROUTING", "1", "-o", "wan", "-j", "MASQUERADE", "--random-fully")
}

// startKakureIn starts the test binary as kakure in namespace ns.
func startKakureIn(t *testing.T, ns string, args ...string) *process {
	t.Helper()
	return startKakureInEnv(t, nil, ns, args...)
}

// startKakureInEnv starts the test binary as kakure in namespace ns with
// env (NAME=value) added to the test's environment: unlike t.Setenv, it
// lets the test run in parallel with others.
func startKakureInEnv(t *testing.T, env []string, ns string, args ...string) *process {
	t.Helper()
	return startProcess(t, exec.Command("ip", append([]string{"netns", "exec", ns, os.Args[0], "-test.run=^$", "--"}, quickBot(args)...)...), env)
}

// startProcess starts cmd, the test binary as kakure (or as what env
// makes it), its output collected line by line, and interrupts it at the
// end of the test; its process group is killed then, and also when go
// test times out (testenv.StartGroup).
func startProcess(t *testing.T, cmd *exec.Cmd, env []string) *process {
	t.Helper()
	// GOTRACEBACK=all: a process that falls silent is made to show
	// where each of its goroutines waits (process.dumpStacks).
	cmd.Env = append(append(os.Environ(), "KAKURE_BE_BINARY=1", "GOTRACEBACK=all"), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := testenv.StartGroup(t, cmd); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.mu.Unlock()
		}
		io.Copy(io.Discard, out)
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			testenv.KillGroup(cmd)
			<-p.done
		}
	})
	return p
}

// lastLine returns the submatches of the last output line matching re.
func (p *process) lastLine(re *regexp.Regexp) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := len(p.lines) - 1; i >= 0; i-- {
		if m := re.FindStringSubmatch(p.lines[i]); m != nil {
			return m
		}
	}
	return nil
}

var (
	reRelayAddr  = regexp.MustCompile(`^\s+(/ip4/` + regexp.QuoteMeta(labRelayIP) + `/udp/\d+/quic-v1/p2p/\S+)`)
	reRelayStats = regexp.MustCompile(`^stats: .*circuits=(\d+) open=(\d+) bytes=(\d+)`)
	reCode       = regexp.MustCompile(`^invite code: (\S+)`)
	reJoined     = regexp.MustCompile(`^joined (\S+) in ([0-9.]+)s: (\S+)`)
	reFirstMove  = regexp.MustCompile(`^timing: code to first move ([0-9.]+)s`)
	reConnection = regexp.MustCompile(`^connection to \S+: ([a-z-]+)`)
	reGameResult = regexp.MustCompile(`^game (\S+): (\S+) record=(\S+)`)
)

// relayBytes returns the relay's byte count, once its stats stopped
// changing.
func relayBytes(t *testing.T, relay *process) int {
	t.Helper()
	last, stable := -1, 0
	for range 40 {
		n := 0
		if m := relay.lastLine(reRelayStats); m != nil {
			n, _ = strconv.Atoi(m[3])
		}
		if n == last {
			if stable++; stable == 3 {
				return n
			}
		} else {
			last, stable = n, 0
		}
		time.Sleep(100 * time.Millisecond)
	}
	return last
}

// TestInternetPlay plays over the namespace internet: a relay on the
// public network, two players each behind its own NAT. They find each
// other by invite code and meet through the relay. Behind two
// port-preserving NATs hole punching makes the connection direct; with a
// symmetric NAT on one side it stays relayed. Either way a whole game is
// played and both records verify.
func TestInternetPlay(t *testing.T) {
	// Its own processes and homes, nothing shared: it runs beside the
	// tests that wait (kakureParallel), not before them.
	t.Parallel()
	l := newNetnsLab(t)
	dir := t.TempDir()
	if d := os.Getenv("KAKURE_TEST_DIR"); d != "" {
		dir = d
	}
	relay := startKakureIn(t, l.pub, "relay", "--home", filepath.Join(dir, "relay"),
		"--listen", "/ip4/"+labRelayIP+"/tcp/4747", "--listen", "/ip4/"+labRelayIP+"/udp/4747/quic-v1", "--stats", "100ms")
	relayAddr := relay.waitLine(t, reRelayAddr, 20*time.Second)[1]

	tests := []struct {
		name      string
		symmetric bool
		want      string // the connection kind the players must end up on
	}{
		{"two port-preserving NATs: hole-punched", false, "hole-punched"},
		{"one symmetric NAT: relayed", true, "relayed"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.symmetric {
				l.symmetricNAT(l.nat2)
			}
			before := relayBytes(t, relay)
			listen := []string{"--listen", "/ip4/0.0.0.0/udp/0/quic-v1", "--listen", "/ip4/0.0.0.0/tcp/0", "--relay", relayAddr}
			host := startKakureIn(t, l.a, append([]string{"bot", "--home", filepath.Join(dir, fmt.Sprint("host", i)), "--seed", "1", "--host-invite"}, listen...)...)
			code := host.waitLine(t, reCode, 20*time.Second)[1]
			guest := startKakureIn(t, l.b, append([]string{"bot", "--home", filepath.Join(dir, fmt.Sprint("guest", i)), "--seed", "2",
				"--join", strings.ToUpper(strings.ReplaceAll(code, "-", " ")), "--variant", "go", "--size", "9"}, listen...)...)
			joined := guest.waitLine(t, reJoined, 30*time.Second)
			if !wantKind(joined[3], tt.want) {
				t.Errorf("joined on a %s connection, want %s", joined[3], tt.want)
			}
			resGuest := guest.waitLine(t, reGameResult, 90*time.Second)
			resHost := host.waitLine(t, reGameResult, 30*time.Second)
			if resGuest[1] != resHost[1] || resGuest[2] != resHost[2] {
				t.Fatalf("the players disagree: guest %q, host %q", resGuest[0], resHost[0])
			}
			for _, who := range []struct {
				name string
				p    *process
				res  []string
			}{{"guest", guest, resGuest}, {"host", host, resHost}} {
				if kind := who.p.lastLine(reConnection); kind == nil || !wantKind(kind[1], tt.want) {
					t.Errorf("%s's connection: %v, want %s", who.name, kind, tt.want)
				}
				tr, err := session.LoadTranscript(who.res[3])
				if err != nil {
					t.Fatal(err)
				}
				if rep := protocol.Verify(tr); rep.Violation != nil || rep.Outcome == nil || rep.Outcome.Result.String() != who.res[2] {
					t.Errorf("%s's record does not verify: %+v", who.name, rep)
				}
			}
			first := guest.waitLine(t, reFirstMove, 5*time.Second)
			after := relayBytes(t, relay)
			t.Logf("%s: code to connected %ss, code to first move %ss, relay forwarded %d bytes",
				tt.want, joined[2], first[1], after-before)
			if tt.want == "relayed" && after-before < 10_000 {
				t.Errorf("relay forwarded %d bytes for a relayed game, expected the whole game", after-before)
			}
		})
	}
}

// TestInviteCodeLoopback is TestInternetPlay without namespaces, so that
// it runs everywhere: relay and players on loopback, found by invite
// code, connected directly (the host's loopback address is in its record
// since the relay is on loopback too).
func TestInviteCodeLoopback(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts real processes")
	}
	dir := t.TempDir()
	relay := startKakure(t, "relay", "--home", filepath.Join(dir, "relay"), "--listen", "/ip4/127.0.0.1/tcp/0", "--stats", "100ms")
	relayAddr := relay.waitLine(t, regexp.MustCompile(`^\s+(/ip4/127\.0\.0\.1/tcp/\d+/p2p/\S+)`), 20*time.Second)[1]
	listen := []string{"--listen", "/ip4/127.0.0.1/tcp/0", "--relay", relayAddr}
	host := startKakure(t, append([]string{"bot", "--home", filepath.Join(dir, "host"), "--seed", "1", "--host-invite"}, listen...)...)
	code := host.waitLine(t, reCode, 20*time.Second)[1]
	guest := startKakure(t, append([]string{"bot", "--home", filepath.Join(dir, "guest"), "--seed", "2",
		"--join", code, "--variant", "go", "--size", "9"}, listen...)...)
	if joined := guest.waitLine(t, reJoined, 20*time.Second); joined[3] != "direct" {
		t.Errorf("joined on a %s connection, want direct", joined[3])
	}
	resGuest := guest.waitLine(t, reGameResult, 60*time.Second)
	resHost := host.waitLine(t, reGameResult, 30*time.Second)
	if resGuest[1] != resHost[1] || resGuest[2] != resHost[2] {
		t.Fatalf("the players disagree: guest %q, host %q", resGuest[0], resHost[0])
	}
	// The guest may have reached the host through the relay too before
	// the direct connection won; that circuit is closed, and carried no
	// game.
	if b := relayBytes(t, relay); b > 10_000 {
		t.Errorf("the relay forwarded %d bytes during a direct game", b)
	}
	if st := relay.lastLine(regexp.MustCompile(`^stats: .* open=(\d+)`)); st != nil && st[1] != "0" {
		t.Errorf("the relay still has %s circuits open: %s", st[1], st[0])
	}

	// A code nobody hosts: a clear error, exit status 1.
	lost := startKakure(t, append([]string{"bot", "--home", filepath.Join(dir, "lost"), "--join", "acorn acorn acorn"}, listen...)...)
	lost.waitLine(t, regexp.MustCompile(`nobody hosts the code`), 20*time.Second)
	<-lost.done
	if code := lost.cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
}

func TestBotInviteFlagsExclusive(t *testing.T) {
	var out strings.Builder
	env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &out}
	for _, args := range [][]string{
		{"bot", "--host-invite", "--join", "acorn acorn acorn"},
		{"bot", "--invite", "/ip4/127.0.0.1/tcp/1/p2p/12D3KooWGC6TvWhfapngX6wvJHMYvKpDMXPb3ZnCZ6dMoaMtimQ5", "--join", "acorn acorn acorn"},
		{"relay", "extra"},
	} {
		out.Reset()
		if got := run(env, args); got != 2 {
			t.Errorf("kakure %s: status %d, want 2; output:\n%s", strings.Join(args, " "), got, out.String())
		}
	}
}
