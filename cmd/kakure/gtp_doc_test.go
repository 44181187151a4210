package main

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
)

// gtpDocPath is the GTP documentation whose sample sessions
// TestGTPDocSessions replays.
const gtpDocPath = "../../docs/gtp.md"

var updateGTPDoc = flag.Bool("update-gtp-doc", false, "rewrite the answers of the sample sessions in docs/gtp.md from the binary's output")

// gtpDocSession is one sample session of docs/gtp.md: a fenced block whose
// info string is "gtp" followed by the arguments of `kakure gtp`. Inside,
// a line "> COMMAND" is a command and the lines after it, up to the next
// command, are its answer as the binary prints it, without the empty line
// that ends every GTP answer.
type gtpDocSession struct {
	// line is the 1-based line of the opening fence.
	line int
	args []string
	// commands, cmdLines and answers are parallel: the command, its
	// 1-based line and its answer as lines.
	commands []string
	cmdLines []int
	answers  [][]string
	// first and end are the indexes in the document's lines of the first
	// line inside the block and of the closing fence.
	first, end int
}

// parseGTPDoc returns the sample sessions of a Markdown document.
func parseGTPDoc(t *testing.T, lines []string) []gtpDocSession {
	t.Helper()
	var sessions []gtpDocSession
	for i := 0; i < len(lines); i++ {
		info, ok := strings.CutPrefix(lines[i], "```gtp")
		if !ok || (info != "" && info[0] != ' ') {
			continue
		}
		s := gtpDocSession{line: i + 1, args: strings.Fields(info), first: i + 1}
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			if cmd, ok := strings.CutPrefix(lines[i], "> "); ok {
				s.commands = append(s.commands, cmd)
				s.cmdLines = append(s.cmdLines, i+1)
				s.answers = append(s.answers, nil)
				continue
			}
			if len(s.commands) == 0 {
				t.Fatalf("%s:%d: session text before its first command: %q", gtpDocPath, i+1, lines[i])
			}
			s.answers[len(s.answers)-1] = append(s.answers[len(s.answers)-1], lines[i])
		}
		if i == len(lines) {
			t.Fatalf("%s:%d: session block not closed", gtpDocPath, s.line)
		}
		s.end = i
		sessions = append(sessions, s)
	}
	return sessions
}

// runGTPSession runs the commands through `kakure gtp ARGS` and returns
// the answers, each as its lines with trailing blanks removed.
func runGTPSession(t *testing.T, args, commands []string) [][]string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := &environment{stdin: strings.NewReader(strings.Join(commands, "\n") + "\n"), stdout: &stdout, stderr: &stderr}
	if status := run(env, append([]string{"gtp"}, args...)); status != 0 {
		t.Fatalf("kakure gtp %s: status %d, stderr:\n%s", strings.Join(args, " "), status, stderr.String())
	}
	out := strings.TrimSuffix(stdout.String(), "\n\n")
	var answers [][]string
	for _, a := range strings.Split(out, "\n\n") {
		lines := strings.Split(a, "\n")
		for i := range lines {
			lines[i] = strings.TrimRight(lines[i], " ")
		}
		answers = append(answers, lines)
	}
	if len(answers) != len(commands) {
		t.Fatalf("kakure gtp %s: %d answers to %d commands:\n%s", strings.Join(args, " "), len(answers), len(commands), stdout.String())
	}
	return answers
}

// TestGTPDocSessions replays every sample session of docs/gtp.md through
// the binary's gtp command and checks every documented answer, so the
// documentation cannot go stale. With -update-gtp-doc it writes the
// binary's answers into the document instead.
func TestGTPDocSessions(t *testing.T) {
	raw, err := os.ReadFile(gtpDocPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	sessions := parseGTPDoc(t, lines)
	if len(sessions) < 3 {
		t.Fatalf("%s has %d sample sessions, want at least one per variant with a handler", gtpDocPath, len(sessions))
	}
	var updated []string
	next := 0
	for _, s := range sessions {
		got := runGTPSession(t, s.args, s.commands)
		updated = append(updated, lines[next:s.first]...)
		for i, cmd := range s.commands {
			updated = append(updated, "> "+cmd)
			updated = append(updated, got[i]...)
			if *updateGTPDoc {
				continue
			}
			if want := strings.Join(s.answers[i], "\n"); want != strings.Join(got[i], "\n") {
				t.Errorf("%s:%d (kakure gtp %s) > %s\n got: %s\nwant: %s", gtpDocPath, s.cmdLines[i],
					strings.Join(s.args, " "), cmd, strings.Join(got[i], "\n"), want)
			}
		}
		next = s.end
	}
	updated = append(updated, lines[next:]...)
	if *updateGTPDoc {
		if err := os.WriteFile(gtpDocPath, []byte(strings.Join(updated, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGTPDocCoversExtensions checks that every kakure extension of every
// variant with a GTP handler appears in a sample session of that variant
// in docs/gtp.md.
func TestGTPDocCoversExtensions(t *testing.T) {
	raw, err := os.ReadFile(gtpDocPath)
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]map[string]bool{}
	for _, s := range parseGTPDoc(t, strings.Split(string(raw), "\n")) {
		fs := flag.NewFlagSet("doc", flag.ContinueOnError)
		var vf variantFlags
		vf.register(fs, "go")
		if err := fs.Parse(s.args); err != nil {
			t.Fatalf("%s:%d: arguments %q: %v", gtpDocPath, s.line, s.args, err)
		}
		if documented[vf.variant] == nil {
			documented[vf.variant] = map[string]bool{}
		}
		for _, cmd := range s.commands {
			documented[vf.variant][strings.Fields(cmd)[0]] = true
		}
	}
	for _, variant := range []string{"go", "phantom", "hmg", "gomoku", "fgo", "bridge"} {
		var stdout, stderr bytes.Buffer
		env := &environment{stdin: strings.NewReader("list_commands\n"), stdout: &stdout, stderr: &stderr}
		if run(env, []string{"gtp", "--variant", variant}) != 0 {
			if documented[variant] != nil {
				t.Errorf("%s documents sessions of %s, which has no GTP handler: %s", gtpDocPath, variant, stderr.String())
			}
			continue
		}
		if documented[variant] == nil {
			t.Errorf("%s has no sample session of %s", gtpDocPath, variant)
			continue
		}
		for _, name := range strings.Fields(strings.TrimPrefix(stdout.String(), "=")) {
			if strings.HasPrefix(name, "kakure-") && !documented[variant][name] {
				t.Errorf("%s has no sample session of %s with %s", gtpDocPath, variant, name)
			}
		}
	}
}
