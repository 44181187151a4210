package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runCommand runs a kakure command line in-process and returns its exit
// status and output.
func runCommand(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &out}
	code := run(env, args)
	return code, out.String()
}

// TestMatchPublicVariants plays a game of each public-board variant
// between two bot peers on loopback through `kakure match`, and checks each
// record with `kakure verify` and its SGF export.
func TestMatchPublicVariants(t *testing.T) {
	variants := [][]string{
		{"--variant", "go", "--size", "7"},
		{"--variant", "hmg", "--size", "7", "--cards", "2"},
		{"--variant", "fgo", "--size", "7"},
		{"--variant", "gomoku", "--size", "7"},
		{"--variant", "bridge", "--size", "7"},
		{"--variant", "bridge", "--size", "7", "--perpendicular"},
	}
	summary := regexp.MustCompile(`^game 1: \S+ 7x7 game-001\.record\.json: (\S+) \((\w+)\)`)
	for _, v := range variants {
		t.Run(strings.Join(v, " "), func(t *testing.T) {
			dir := t.TempDir()
			code, out := runCommand(t, append([]string{"match", "--games", "1", "--out", dir}, v...)...)
			if code != 0 {
				t.Fatalf("match exited %d:\n%s", code, out)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			var m []string
			for _, l := range lines {
				if m = summary.FindStringSubmatch(l); m != nil {
					break
				}
			}
			if m == nil || !strings.HasPrefix(lines[len(lines)-1], "wins: ") {
				t.Fatalf("unexpected match output:\n%s", out)
			}
			record := filepath.Join(dir, "game-001.record.json")
			code, vout := runCommand(t, "verify", record)
			if code != 0 || !strings.Contains(vout, "ok: result "+m[1]) {
				t.Fatalf("verify exited %d:\n%s", code, vout)
			}
			sgf, err := os.ReadFile(filepath.Join(dir, "game-001.sgf"))
			if err != nil || !bytes.HasPrefix(sgf, []byte("(;GM[")) || !bytes.Contains(sgf, []byte("RE["+m[1]+"]")) {
				t.Fatalf("SGF export missing or without the result %s: %v\n%.300s", m[1], err, sgf)
			}
			if v[1] == "gomoku" && (!bytes.Contains(sgf, []byte("AB[")) || !bytes.Contains(sgf, []byte("AL["))) {
				t.Fatalf("gomoku SGF lacks the opening or the announced lines:\n%.500s", sgf)
			}
		})
	}
}

// TestVerifyRejectsTamperedRecord: editing a signed record is caught.
func TestVerifyRejectsTamperedRecord(t *testing.T) {
	dir := t.TempDir()
	if code, out := runCommand(t, "match", "--games", "1", "--out", dir, "--variant", "go", "--size", "5"); code != 0 {
		t.Fatalf("match: %s", out)
	}
	record := filepath.Join(dir, "game-001.record.json")
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	// Change the first move's point.
	re := regexp.MustCompile(`"body":\{"point":"([A-E])([1-5])"\}`)
	loc := re.FindSubmatchIndex(data)
	if loc == nil {
		t.Fatal("no move in the record")
	}
	tampered := append([]byte{}, data...)
	if tampered[loc[2]] == 'A' {
		tampered[loc[2]] = 'B'
	} else {
		tampered[loc[2]] = 'A'
	}
	if err := os.WriteFile(record, tampered, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out := runCommand(t, "verify", record)
	if code == 0 || !strings.Contains(out, "bad signature") {
		t.Fatalf("verify of a tampered record exited %d:\n%s", code, out)
	}
}
