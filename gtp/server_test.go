package gtp_test

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/gtp"
)

// session runs a GTP script against a fresh server and returns the answers
// one per command, without the "= " or "? " prefixes but with the prefix
// character kept as the first byte, e.g. "=D4" or "?illegal move".
func session(t *testing.T, o engine.Options, script string) []string {
	t.Helper()
	srv, err := gtp.NewServer(o)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	var out strings.Builder
	if err := srv.Serve(strings.NewReader(script), &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	raw := strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
	answers := make([]string, len(raw))
	for i, a := range raw {
		if len(a) == 0 || (a[0] != '=' && a[0] != '?') {
			t.Fatalf("answer %d %q does not start with = or ?", i, a)
		}
		status, rest := a[:1], strings.TrimLeft(a[1:], "0123456789")
		answers[i] = status + strings.TrimPrefix(rest, " ")
	}
	return answers
}

func TestGTPRequiredCommands(t *testing.T) {
	got := session(t, engine.Options{Variant: engine.VariantGo}, strings.Join([]string{
		"protocol_version",
		"name",
		"1 known_command play",
		"known_command frobnicate",
		"boardsize 9",
		"boardsize 4",
		"clear_board",
		"komi 6.5",
		"play black D4",
		"play white D4",
		"play w pass",
		"list_stones black",
		"frobnicate",
		"quit",
		"play black E5", // after quit: never answered
	}, "\n"))
	want := []string{"=2", "=kakure", "=true", "=false", "=", "?unacceptable size", "=", "=", "=", "?illegal move", "=", "=D4", "?unknown command", "="}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("answers\n got %q\nwant %q", got, want)
	}
}

func TestGTPPreprocessing(t *testing.T) {
	got := session(t, engine.Options{Variant: engine.VariantGo}, "# a comment line\n\n  7\tname # trailing\r\n")
	if len(got) != 1 || got[0] != "=kakure" {
		t.Errorf("answers %q, want one =kakure", got)
	}
}

func TestGTPCapturesAndUndo(t *testing.T) {
	got := session(t, engine.Options{Variant: engine.VariantGo, Size: 5}, strings.Join([]string{
		"play b B1", "play w A1", "play b A2", // A1 captured
		"captures black", "list_stones white", "is_legal white A1", "undo", "list_stones white", "captures black",
		"undo", "undo", "undo", "undo",
	}, "\n"))
	want := []string{"=", "=", "=", "=1", "=", "=0", "=", "=A1", "=0", "=", "=", "?cannot undo", "?cannot undo"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("answers\n got %q\nwant %q", got, want)
	}
}

func TestGTPGenmovePlaysLegalMoves(t *testing.T) {
	var script []string
	for i := 0; i < 60; i++ {
		script = append(script, "genmove b", "genmove w")
	}
	got := session(t, engine.Options{Variant: engine.VariantGo, Size: 5}, strings.Join(script, "\n"))
	for i, a := range got {
		if a[0] != '=' {
			t.Fatalf("genmove %d failed: %q", i, a)
		}
	}
	// Replaying the moves through the engine must accept every one.
	g, _ := engine.NewGoGame(engine.Options{Variant: engine.VariantGo, Size: 5})
	for i, a := range got {
		p, err := engine.ParseVertex(5, a[1:])
		if err != nil {
			t.Fatalf("genmove %d answered %q: %v", i, a, err)
		}
		c := engine.Black
		if i%2 == 1 {
			c = engine.White
		}
		if g, _, err = g.Play(c, p); err != nil {
			t.Fatalf("genmove %d answered illegal %q: %v", i, a, err)
		}
	}
}
