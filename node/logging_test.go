package node_test

import (
	"bytes"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/gologshim"

	"github.com/kakure/kakure/node"
)

// stderrChildEnv marks the process TestLogsNeverReachStderr starts.
const stderrChildEnv = "KAKURE_NODE_TEST_STDERR_CHILD"

// TestLogsNeverReachStderr runs a host start, TCP and QUIC connections,
// stream exchanges and closes in a child process with every go-libp2p and
// quic-go log at debug level, and reads the child's standard error
// through a pipe: a text UI would be drawn over by anything written there.
// The logs must be in the nodes' log files instead.
//
// canonical-log stays at error: go-libp2p binds that one logger to
// os.Stderr when the program starts, out of kakure's reach (see
// logging.go); at its default level it writes nothing.
func TestLogsNeverReachStderr(t *testing.T) {
	if dir := os.Getenv(stderrChildEnv); dir != "" {
		runNodesForStderrTest(t, dir)
		return
	}
	dir := t.TempDir()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestLogsNeverReachStderr$", "-test.count=1")
	cmd.Env = append(os.Environ(),
		stderrChildEnv+"="+dir,
		"GOLOG_LOG_LEVEL=debug,canonical-log=error",
		"QUIC_GO_LOG_LEVEL=debug",
	)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "PASS") {
		t.Fatalf("child did not pass:\n%s", stdout.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("the child wrote %d bytes to stderr:\n%s", stderr.Len(), head(stderr.String(), 2000))
	}
	var logs []byte
	for _, home := range []string{"a", "b"} {
		b, err := os.ReadFile(filepath.Join(dir, home, node.LogFileName))
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, b...)
	}
	for _, want := range []string{"level=DEBUG", "logger=", "Short Header"} {
		if !bytes.Contains(logs, []byte(want)) {
			t.Errorf("the log files have no %q; they start:\n%s", want, head(string(logs), 2000))
		}
	}
}

func head(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// runNodesForStderrTest is the child's part of TestLogsNeverReachStderr.
func runNodesForStderrTest(t *testing.T, dir string) {
	start := func(home string) *node.Node {
		n, err := node.New(t.Context(), node.Config{
			Home:        filepath.Join(dir, home),
			ListenAddrs: []string{loopbackTCP, loopbackQUIC},
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	a, b := start("a"), start("b")
	serveEcho(b)
	exchange(t, a, b, addrWith(t, b, "/tcp/"))
	// Over QUIC, whose packets quic-go logs ("Short Header"): a TCP
	// connection not yet gone would carry the exchange instead (CI once).
	for try := 1; ; try++ {
		for _, pair := range [][2]*node.Node{{a, b}, {b, a}} {
			if err := pair[0].Host().Network().ClosePeer(pair[1].ID()); err != nil {
				t.Fatal(err)
			}
		}
		for a.Host().Network().Connectedness(b.ID()) == network.Connected || b.Host().Network().Connectedness(a.ID()) == network.Connected {
			time.Sleep(10 * time.Millisecond)
		}
		state := exchange(t, a, b, addrWith(t, b, "/quic-v1/"))
		if state.Transport == "quic-v1" {
			break
		}
		if try == 3 {
			t.Fatalf("the exchange went over %q three times, not QUIC", state.Transport)
		}
	}
	for _, n := range []*node.Node{a, b} {
		if err := n.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRedirectLibp2pLogs: go-libp2p's loggers and the standard log
// package write to the file, which only its owner can read.
func TestRedirectLibp2pLogs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs", "test.log")
	if err := node.RedirectLibp2pLogs(path); err != nil {
		t.Fatal(err)
	}
	defer node.DiscardLibp2pLogs()
	gologshim.Logger("kakure-test").Warn("a libp2p warning", "peer", "12D3Koo")
	gologshim.Logger("kakure-test").Debug("a libp2p debug line")
	log.Print("a standard log line")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{"a libp2p warning", "logger=kakure-test", "peer=12D3Koo", "a standard log line"} {
		if !strings.Contains(got, want) {
			t.Errorf("log file has no %q:\n%s", want, got)
		}
	}
	if os.Getenv("GOLOG_LOG_LEVEL") == "" && strings.Contains(got, "a libp2p debug line") {
		t.Errorf("debug line logged at the default level:\n%s", got)
	}
	if runtime.GOOS != "windows" {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o600 {
			t.Errorf("log file mode %04o, want 0600", info.Mode().Perm())
		}
	}

	// After DiscardLibp2pLogs nothing more reaches the file.
	node.DiscardLibp2pLogs()
	gologshim.Logger("kakure-test").Error("after discard")
	log.Print("after discard")
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "after discard") {
		t.Error("logs reached the file after DiscardLibp2pLogs")
	}
}
