package gtp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// ErrEngine reports an engine that did not answer as GTP says: it exited,
// wrote something that is not an answer, or took too long.
var ErrEngine = errors.New("gtp engine")

// CommandError is a failure answer ("? message") of an engine.
type CommandError struct {
	Command string
	Message string
}

// Error implements error.
func (e *CommandError) Error() string {
	return fmt.Sprintf("gtp engine: %s: %s", e.Command, e.Message)
}

// Client speaks GTP to an engine running as a child process: it writes
// one command at a time on the engine's standard input and reads the
// answer from its standard output. The engine's standard error is kept
// (its last 4 KiB) for error messages, unless it goes to a writer of the
// caller's (StartClientLogged). A Client is safe for use by one goroutine
// at a time.
type Client struct {
	// Timeout bounds each command's answer (default 2 minutes) when the
	// command's context has no deadline; an engine that takes longer is
	// killed.
	Timeout time.Duration

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *tailBuffer
	// stdoutDone is closed when the engine's standard output has ended
	// and every line of it is in lines; exited, when the engine's
	// process has been waited for (waitErr set), its standard error
	// copied whole.
	stdoutDone chan struct{}
	exited     chan struct{}
	waitErr    error
	// stderrLogged tells that the engine's standard error goes to the
	// caller's writer, and stays out of the errors.
	stderrLogged bool
	mu           sync.Mutex
	closed       bool
}

// StartClient starts the engine that command names: a program and its
// arguments separated by spaces, e.g. "/usr/games/gnugo --mode gtp
// --level 1" (no shell quoting: an argument cannot contain a space).
func StartClient(command string) (*Client, error) {
	return StartClientLogged(command, nil)
}

// StartClientLogged is StartClient with the engine's standard error
// written to stderr (a log) instead of into the errors, when stderr is
// not nil.
func StartClientLogged(command string, stderr io.Writer) (*Client, error) {
	argv := strings.Fields(command)
	if len(argv) == 0 {
		return nil, fmt.Errorf("%w: empty command", ErrEngine)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	detach(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrEngine, argv[0], err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrEngine, argv[0], err)
	}
	tail := &tailBuffer{max: 4096}
	cmd.Stderr = tail
	if stderr != nil {
		cmd.Stderr = stderr
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: start %s: %v", ErrEngine, argv[0], err)
	}
	c := newPipeClient(stdin, stdout)
	c.cmd, c.stderr, c.stderrLogged = cmd, tail, stderr != nil
	c.exited = make(chan struct{})
	go func() {
		// Wait closes the output's pipe: only once it is read to its
		// end. It returns once the standard error is copied whole, so
		// that an error about the engine's exit can show its last words
		// (GTP-D8).
		<-c.stdoutDone
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()
	return c, nil
}

// newPipeClient is a client of an engine that reads commands from stdin
// and answers on stdout (StartClient's pipes, or a test's).
func newPipeClient(stdin io.WriteCloser, stdout io.Reader) *Client {
	c := &Client{Timeout: 2 * time.Minute, stdin: stdin, lines: make(chan string, 64), stderr: &tailBuffer{max: 4096}, stdoutDone: make(chan struct{})}
	go func() {
		defer close(c.stdoutDone)
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	return c
}

// kill stops the engine's process, if there is one.
func (c *Client) kill() {
	if c.cmd != nil && c.cmd.Process != nil {
		_ = c.cmd.Process.Kill()
	}
}

// Send runs one command and returns its answer without the leading "= "
// (a multi-line answer keeps its lines). A failure answer is a
// *CommandError; an engine that exits or stalls gives an error wrapping
// ErrEngine.
func (c *Client) Send(command string) (string, error) {
	return c.SendContext(context.Background(), command)
}

// SendContext is Send until ctx ends: its deadline, when it has one,
// bounds the answer instead of Timeout. An engine that has not answered
// when ctx ends is killed (its answer would come after the next
// command's), and the error wraps ErrEngine and ctx's error.
func (c *Client) SendContext(ctx context.Context, command string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return "", fmt.Errorf("%w: closed", ErrEngine)
	}
	if _, err := io.WriteString(c.stdin, command+"\n"); err != nil {
		return "", fmt.Errorf("%w: %s: write: %v%s", ErrEngine, command, err, c.stderrNote())
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	start := time.Now()
	if deadline, ok := ctx.Deadline(); ok {
		timeout = time.Until(deadline)
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var answer []string
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				c.awaitExit()
				return "", fmt.Errorf("%w: %s: the engine exited%s", ErrEngine, command, c.stderrNote())
			}
			line = strings.TrimRight(line, "\r")
			if len(answer) == 0 {
				if strings.TrimSpace(line) == "" {
					continue // blank lines between answers
				}
				if line[0] != '=' && line[0] != '?' {
					return "", fmt.Errorf("%w: %s: not an answer: %q", ErrEngine, command, line)
				}
			} else if line == "" {
				return finishAnswer(command, answer)
			}
			answer = append(answer, line)
		case <-timer.C:
			c.kill()
			return "", fmt.Errorf("%w: %s: no answer within %v", ErrEngine, command, time.Since(start).Round(100*time.Millisecond))
		case <-ctx.Done():
			c.kill()
			waited := time.Since(start).Round(100 * time.Millisecond)
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return "", fmt.Errorf("%w: %s: no answer within %v", ErrEngine, command, waited)
			}
			return "", fmt.Errorf("%w: %s: stopped after %v without an answer: %w", ErrEngine, command, waited, context.Cause(ctx))
		}
	}
}

// finishAnswer splits an answer into success text or a CommandError.
func finishAnswer(command string, lines []string) (string, error) {
	first := lines[0]
	ok := first[0] == '='
	// Drop the status character and an optional id.
	first = strings.TrimLeft(first[1:], "0123456789")
	lines[0] = strings.TrimSpace(first)
	text := strings.Join(lines, "\n")
	if !ok {
		return "", &CommandError{Command: command, Message: text}
	}
	return text, nil
}

// awaitExit waits, at most engineExitWait, for the engine's process to
// be waited for once its output has ended, so that its standard error
// is all in c.stderr.
func (c *Client) awaitExit() {
	if c.exited == nil {
		return
	}
	select {
	case <-c.exited:
	case <-time.After(engineExitWait):
	}
}

// engineExitWait bounds how long an error about an engine's exit waits
// for the engine's last words.
const engineExitWait = 5 * time.Second

// stderrNote is the engine's last standard error output, for errors.
func (c *Client) stderrNote() string {
	if c.stderrLogged {
		return ""
	}
	s := strings.TrimSpace(c.stderr.String())
	if s == "" {
		return ""
	}
	return " (stderr: " + s + ")"
}

// engineQuitWait is how long Close waits for an engine asked to quit,
// first for the end of its output, then for its exit, before it kills
// it.
const engineQuitWait = 5 * time.Second

// Close asks the engine to quit and waits for it, killing it after
// engineQuitWait.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	_, _ = io.WriteString(c.stdin, "quit\n")
	_ = c.stdin.Close()
	c.mu.Unlock()
	// Read the output to its end before Wait, which closes the pipe.
	deadline := time.After(engineQuitWait)
	for drained := false; !drained; {
		select {
		case _, ok := <-c.lines:
			drained = !ok
		case <-deadline:
			c.kill()
			deadline = nil
		}
	}
	if c.exited == nil {
		return nil
	}
	select {
	case <-c.exited:
	case <-time.After(engineQuitWait):
		c.kill()
		<-c.exited
	}
	return c.waitErr
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
