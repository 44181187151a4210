package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kakure/kakure/internal/version"
)

// flagNames matches the names of the flags in a command's help.
var flagNames = regexp.MustCompile(`(?m)^  -[a-z-]+`)

// TestHelpCommandShowsItsFlags: `kakure help COMMAND` prints that
// command's usage and flags (what `kakure COMMAND -h` prints), on
// stdout, not the general help; an unknown command is a usage error
// (issue 32).
func TestHelpCommandShowsItsFlags(t *testing.T) {
	for name := range commands {
		if name == "help" || name == "version" {
			continue
		}
		var out, errOut bytes.Buffer
		env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
		if status := run(env, []string{"help", name}); status != 0 {
			t.Errorf("kakure help %s: status %d:\n%s%s", name, status, out.String(), errOut.String())
			continue
		}
		if !strings.HasPrefix(out.String(), "Usage: kakure "+name+" ") || !strings.Contains(out.String(), "Flags:") {
			t.Errorf("kakure help %s printed, on stdout:\n%s", name, out.String())
		}
		// The same flags as -h shows (their defaults may differ: a
		// random seed's).
		status, direct := runCommand(t, name, "-h")
		if want, got := flagNames.FindAllString(direct, -1), flagNames.FindAllString(out.String(), -1); status != 0 || strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("kakure %s -h (status %d) shows the flags %v, kakure help %s %v", name, status, want, name, got)
		}
	}
	if status, out := runCommand(t, "help", "version"); status != 0 || !strings.Contains(out, "Usage: kakure version") {
		t.Errorf("kakure help version: status %d:\n%s", status, out)
	}
	if status, out := runCommand(t, "help", "frobnicate"); status != 2 || !strings.Contains(out, `unknown command "frobnicate"`) {
		t.Errorf("kakure help frobnicate: status %d:\n%s", status, out)
	}
}

// TestOneVersionString: `kakure version`, GTP's version command and the
// AP property of the SGF files kakure writes (the golden records'
// exports) all give the same version (issue 32).
func TestOneVersionString(t *testing.T) {
	status, out := runCommand(t, "version")
	if status != 0 || out != "kakure "+version.Program+"\n" {
		t.Errorf("kakure version: status %d, %q; want %q", status, out, "kakure "+version.Program)
	}
	var gtpOut bytes.Buffer
	env := &environment{stdin: strings.NewReader("version\nquit\n"), stdout: &gtpOut, stderr: &gtpOut}
	if status := run(env, []string{"gtp", "--variant", "go"}); status != 0 || !strings.HasPrefix(gtpOut.String(), "= "+version.Program+"\n") {
		t.Errorf("GTP's version: status %d:\n%s", status, gtpOut.String())
	}
	goldens, err := filepath.Glob("../../protocol/testdata/golden/*.txt")
	if err != nil || len(goldens) == 0 {
		t.Fatalf("the golden records: %v (%d files)", err, len(goldens))
	}
	ap := regexp.MustCompile(`AP\[kakure:([^\]]*)\]`)
	seen := 0
	for _, path := range goldens {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ap.FindAllStringSubmatch(string(data), -1) {
			seen++
			if m[1] != version.Program {
				t.Errorf("%s: SGF says AP[kakure:%s], kakure version %s", filepath.Base(path), m[1], version.Program)
			}
		}
	}
	if seen == 0 {
		t.Error("no AP[kakure:…] in the golden records' SGF: the check found nothing to check")
	}
}
