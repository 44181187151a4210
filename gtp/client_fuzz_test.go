package gtp

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"
)

// discardCloser takes the commands a fuzzed engine never reads.
type discardCloser struct{ io.Writer }

func (discardCloser) Close() error { return nil }

// hasLineStarting reports whether a line of output starts with mark.
func hasLineStarting(output []byte, mark byte) bool {
	for _, line := range bytes.Split(output, []byte("\n")) {
		if len(line) > 0 && line[0] == mark {
			return true
		}
	}
	return false
}

// FuzzClientAnswers: whatever an engine writes, the client returns an
// answer, a CommandError or an error wrapping ErrEngine, never panics or
// waits past its timeout, and never reports a success or failure the
// engine did not write.
func FuzzClientAnswers(f *testing.F) {
	for _, seed := range []string{
		"= 2\n\n= D4\n\n",
		"=1 kakure\n\n? illegal move\n\n",
		"= A\nB\nC\n\n",
		"\n\n= pass\n\n",
		"garbage\n",
		"= resign",
		"?\n\n=\n\n",
		"= \r\n\r\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, output []byte) {
		c := newPipeClient(discardCloser{io.Discard}, bytes.NewReader(output))
		c.Timeout = 200 * time.Millisecond
		for _, command := range []string{"protocol_version", "genmove black", "list_stones white"} {
			answer, err := c.Send(command)
			var ce *CommandError
			switch {
			case err == nil:
				// Never a success the engine did not write.
				if !hasLineStarting(output, '=') {
					t.Fatalf("%s: answer %q from output without a success line", command, answer)
				}
			case errors.As(err, &ce):
				if ce.Command != command || !hasLineStarting(output, '?') {
					t.Fatalf("failure of %q reported for %q", ce.Command, command)
				}
			case !errors.Is(err, ErrEngine):
				t.Fatalf("%s: error %v does not wrap ErrEngine", command, err)
			}
		}
		if err := c.Close(); err != nil {
			t.Fatalf("close: %v", err)
		}
	})
}
