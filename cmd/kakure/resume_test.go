package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol"
)

// process is a kakure process started by a test.
type process struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	done  chan struct{}
}

// quickBot gives a `kakure bot` command line without --level the random
// player, so that tests of networks and files do not wait on the bots'
// thinking (slow under the race detector).
func quickBot(args []string) []string {
	if len(args) == 0 || args[0] != "bot" || slices.Contains(args, "--level") {
		return args
	}
	return append([]string{"bot", "--level", "random"}, args[1:]...)
}

// startKakure starts the test binary as kakure with args.
func startKakure(t *testing.T, args ...string) *process {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--"}, quickBot(args)...)...)
	cmd.Env = append(os.Environ(), "KAKURE_BE_BINARY=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
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
		cmd.Process.Kill()
		<-p.done
	})
	return p
}

// waitLine waits for an output line matching re and returns its submatches.
func (p *process) waitLine(t *testing.T, re *regexp.Regexp, timeout time.Duration) []string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		for _, l := range p.lines {
			if m := re.FindStringSubmatch(l); m != nil {
				p.mu.Unlock()
				return m
			}
		}
		p.mu.Unlock()
		time.Sleep(50 * time.Millisecond)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	t.Fatalf("no line matching %s within %s; output:\n%s", re, timeout, strings.Join(p.lines, "\n"))
	return nil
}

// freePort returns a TCP port on loopback that was free a moment ago.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// recordMessages counts the messages of the only record in home/games.
func recordMessages(home string) (int, string) {
	paths, _ := filepath.Glob(filepath.Join(home, "games", "*.record.json"))
	if len(paths) != 1 {
		return 0, ""
	}
	tr, err := protocol.LoadTranscript(paths[0])
	if err != nil {
		return 0, paths[0]
	}
	return len(tr.Messages), paths[0]
}

// TestT11KillAndResume kills a peer process with SIGKILL in the middle of a
// game, restarts it on the same home, and checks that the game resumes
// and finishes with both records identical in moves and valid end to end.
func TestT11KillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	for _, variant := range [][]string{
		{"--variant", "go", "--size", "9"},
		{"--variant", "hmg", "--size", "9", "--cards", "3"},
		{"--variant", "fgo", "--size", "7"},
		{"--variant", "gomoku", "--size", "9"},
		{"--variant", "phantom", "--size", "5", "--rules", "hamburg"},
	} {
		t.Run(variant[1], func(t *testing.T) {
			killAndResume(t, variant)
		})
	}
}

func killAndResume(t *testing.T, variant []string) {
	homeA, homeB := t.TempDir(), t.TempDir()
	portB := freePort(t)
	listenB := fmt.Sprintf("/ip4/127.0.0.1/tcp/%d", portB)
	b := startKakure(t, "bot", "--home", homeB, "--listen", listenB, "--seed", "2")
	id := b.waitLine(t, regexp.MustCompile(`^peer ID: (\S+)`), 20*time.Second)[1]
	a := startKakure(t, append([]string{"bot", "--home", homeA, "--listen", "/ip4/127.0.0.1/tcp/0", "--seed", "1",
		"--invite", listenB + "/p2p/" + id}, variant...)...)
	a.waitLine(t, regexp.MustCompile(`^game \S+ started`), 20*time.Second)

	// Let the game get going, then kill B without warning.
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, _ := recordMessages(homeB)
		if n >= 40 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("B's record has only %d messages after 30 s", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := b.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-b.done
	killedAt, _ := recordMessages(homeB)

	// Restart B on the same home and port: it resumes the game.
	b2 := startKakure(t, "bot", "--home", homeB, "--listen", listenB, "--seed", "3")
	b2.waitLine(t, regexp.MustCompile(`^resuming game`), 20*time.Second)
	defer func() {
		if t.Failed() {
			b2.mu.Lock()
			t.Logf("B after the restart:\n%s", strings.Join(b2.lines, "\n"))
			b2.mu.Unlock()
		}
	}()
	resA := a.waitLine(t, regexp.MustCompile(`^game (\S+): (\S+) record=`), 60*time.Second)
	resB := b2.waitLine(t, regexp.MustCompile(`^game (\S+): (\S+) record=`), 60*time.Second)
	if resA[1] != resB[1] || resA[2] != resB[2] {
		t.Fatalf("the peers disagree: A %q, B %q", resA[0], resB[0])
	}
	nB, pathB := recordMessages(homeB)
	_, pathA := recordMessages(homeA)
	if nB <= killedAt {
		t.Errorf("B's record did not grow after the restart: %d then %d messages", killedAt, nB)
	}
	trA, errA := protocol.LoadTranscript(pathA)
	trB, errB := protocol.LoadTranscript(pathB)
	if errA != nil || errB != nil {
		t.Fatalf("records: %v %v", errA, errB)
	}
	for _, tr := range []*protocol.Transcript{trA, trB} {
		rep := protocol.Verify(tr)
		if rep.Violation != nil || rep.Outcome == nil || rep.Outcome.Result.String() != resA[2] {
			t.Errorf("verify: %+v (want result %s)", rep, resA[2])
		}
	}
	// No move lost or repeated: both peers hold exactly the same messages.
	if len(trA.Messages) != len(trB.Messages) {
		t.Fatalf("A holds %d messages, B %d", len(trA.Messages), len(trB.Messages))
	}
	for r := protocol.Inviter; r <= protocol.Invitee; r++ {
		for seq := uint64(0); seq < trA.Count(r); seq++ {
			ma, mb := trA.Find(r, seq), trB.Find(r, seq)
			if mb == nil || ma.Hash() != mb.Hash() {
				t.Fatalf("message %s/%d differs between the records", r, seq)
			}
		}
	}
	_ = context.Background
}
