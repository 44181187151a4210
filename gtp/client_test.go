package gtp_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
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
//	                  command, and logs the commands to KAKURE_TEST_ENGINE_LOG;
//	                  VERTEX,VERTEX... answers each genmove with the next
//	                  one, the last one from then on
//	exit              answers "=" to every command but genmove, at which
//	                  it writes testEngineLastWords on its standard error
//	                  and exits
//	refuse            the same, answering "? cannot play" to genmove
//	silent            the same, answering nothing to genmove
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
	list, _ := strings.CutPrefix(mode, "answer:")
	answers := strings.Split(list, ",")
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
		case strings.HasPrefix(line, "genmove") && mode == "exit":
			// Its output ends before its last words, as an engine's may:
			// the client must wait for them (GTP-D8).
			os.Stdout.Close()
			time.Sleep(200 * time.Millisecond)
			fmt.Fprintln(os.Stderr, testEngineLastWords)
			os.Exit(3)
		case strings.HasPrefix(line, "genmove") && mode == "refuse":
			fmt.Print("? cannot play\n\n")
		case strings.HasPrefix(line, "genmove") && mode == "silent":
		case strings.HasPrefix(line, "genmove"):
			fmt.Printf("= %s\n\n", answers[0])
			if len(answers) > 1 {
				answers = answers[1:]
			}
		default:
			fmt.Print("=\n\n")
		}
	}
	os.Exit(0)
}

// testEngineLastWords is what the test engine in mode exit writes on its
// standard error before it exits.
const testEngineLastWords = "test engine: out of memory, bye"

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

// TestClientSendContext: a command whose context ends before the answer
// kills the engine and says why, the cause of a cancellation or the time
// waited for a deadline, which replaces Timeout (GTP-D7); the engine
// answers nothing after.
func TestClientSendContext(t *testing.T) {
	t.Run("cancel", func(t *testing.T) {
		c := startTestEngine(t, "silent")
		if _, err := c.Send("boardsize 5"); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(200*time.Millisecond, func() { cancel(errors.New("the game ended")) })
		start := time.Now()
		_, err := c.SendContext(ctx, "genmove black")
		if !errors.Is(err, gtp.ErrEngine) || !strings.Contains(err.Error(), "genmove black: stopped after") || !strings.HasSuffix(err.Error(), "without an answer: the game ended") {
			t.Errorf("cancelled genmove: %v", err)
		}
		if waited := time.Since(start); waited > 10*time.Second {
			t.Errorf("the cancelled command returned after %v", waited)
		}
		if _, err := c.Send("name"); !errors.Is(err, gtp.ErrEngine) {
			t.Errorf("a command after the engine was stopped: %v, want ErrEngine", err)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		c := startTestEngine(t, "silent")
		c.Timeout = time.Hour
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := c.SendContext(ctx, "genmove white")
		if !errors.Is(err, gtp.ErrEngine) || !strings.Contains(err.Error(), "genmove white: no answer within") {
			t.Errorf("genmove past its deadline: %v", err)
		}
	})
}

// TestClientLoggedStderr (GTP-D8): StartClientLogged sends the engine's
// standard error to the writer given, and keeps it out of the errors;
// StartClient puts its end in them.
func TestClientLoggedStderr(t *testing.T) {
	t.Setenv("KAKURE_TEST_ENGINE", "exit")
	var logged lockedBuffer
	c, err := gtp.StartClientLogged(os.Args[0], &logged)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Send("genmove black")
	c.Close()
	if !errors.Is(err, gtp.ErrEngine) || !strings.Contains(err.Error(), "the engine exited") || strings.Contains(err.Error(), testEngineLastWords) {
		t.Errorf("logged engine: %v; want the engine's exit without its standard error", err)
	}
	if !strings.Contains(logged.String(), testEngineLastWords) {
		t.Errorf("the writer got %q, want the engine's standard error", logged.String())
	}
	plain, err := gtp.StartClient(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if _, err := plain.Send("genmove black"); err == nil || !strings.Contains(err.Error(), testEngineLastWords) {
		t.Errorf("engine without a log: %v; want its standard error in the error", err)
	}
}

// lockedBuffer is a bytes.Buffer safe for the writer goroutine of
// os/exec and a reader.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
