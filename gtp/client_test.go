package gtp_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/gtp"
)

// The test binary doubles as a GTP engine for the client's tests: with
// KAKURE_TEST_ENGINE set it serves GTP on its standard input and output
// instead of running the tests.
//
//	server            kakure's own GTP server (plain Go)
//	answer:VERTEX     answers "= VERTEX" to genmove, "=" to every other
//	                  command, and logs the commands to KAKURE_TEST_ENGINE_LOG
func TestMain(m *testing.M) {
	mode := os.Getenv("KAKURE_TEST_ENGINE")
	if mode == "" {
		os.Exit(m.Run())
	}
	if mode == "server" {
		srv, err := gtp.NewServer(engine.Options{Variant: engine.VariantGo, Size: 9})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := srv.Serve(os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	answer, _ := strings.CutPrefix(mode, "answer:")
	var log *os.File
	if path := os.Getenv("KAKURE_TEST_ENGINE_LOG"); path != "" {
		log, _ = os.Create(path)
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if log != nil {
			fmt.Fprintln(log, line)
		}
		switch {
		case line == "quit":
			fmt.Print("=\n\n")
			os.Exit(0)
		case strings.HasPrefix(line, "genmove"):
			fmt.Printf("= %s\n\n", answer)
		default:
			fmt.Print("=\n\n")
		}
	}
	os.Exit(0)
}

// startTestEngine starts the test binary as an engine in the given mode.
func startTestEngine(t *testing.T, mode string) *gtp.Client {
	t.Helper()
	t.Setenv("KAKURE_TEST_ENGINE", mode)
	c, err := gtp.StartClient(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestClientAgainstServer: answers, a failure answer as a CommandError, a
// multi-line answer, and a clean quit.
func TestClientAgainstServer(t *testing.T) {
	c := startTestEngine(t, "server")
	for _, step := range []struct{ command, want, fail string }{
		{"protocol_version", "2", ""},
		{"boardsize 9", "", ""},
		{"play black D4", "", ""},
		{"play white D4", "", "illegal move"},
		{"7 list_stones black", "D4", ""},
		{"boardsize 99", "", "unacceptable size"},
	} {
		got, err := c.Send(step.command)
		var ce *gtp.CommandError
		switch {
		case step.fail != "" && (!errors.As(err, &ce) || ce.Message != step.fail):
			t.Errorf("%s: got %q, %v; want the failure %q", step.command, got, err, step.fail)
		case step.fail == "" && (err != nil || got != step.want):
			t.Errorf("%s: got %q, %v; want %q", step.command, got, err, step.want)
		}
	}
	board, err := c.Send("showboard")
	if err != nil || strings.Count(board, "\n") < 9 {
		t.Errorf("showboard: %q, %v; want the board on several lines", board, err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if _, err := c.Send("name"); !errors.Is(err, gtp.ErrEngine) {
		t.Errorf("send after close: %v, want ErrEngine", err)
	}
}

// TestClientBrokenEngines: an engine that is not there, exits, writes
// something else than GTP, or never answers gives ErrEngine, never a
// hang or an answer.
func TestClientBrokenEngines(t *testing.T) {
	if _, err := gtp.StartClient("  "); !errors.Is(err, gtp.ErrEngine) {
		t.Errorf("empty command: %v", err)
	}
	if _, err := gtp.StartClient("/nonexistent/engine --mode gtp"); !errors.Is(err, gtp.ErrEngine) {
		t.Errorf("missing program: %v", err)
	}
	for _, tc := range []struct {
		command, want string
		timeout       time.Duration
	}{
		{"true", "", 0}, // "exited", or a broken pipe if it is gone before the write
		{"cat", "not an answer", 0},
		{"sleep 30", "no answer within", 300 * time.Millisecond},
	} {
		c, err := gtp.StartClient(tc.command)
		if err != nil {
			t.Fatalf("%s: %v", tc.command, err)
		}
		if tc.timeout > 0 {
			c.Timeout = tc.timeout
		}
		got, err := c.Send("protocol_version")
		if !errors.Is(err, gtp.ErrEngine) || got != "" || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %q, %v; want an error saying %q", tc.command, got, err, tc.want)
		}
		c.Close()
	}
}
