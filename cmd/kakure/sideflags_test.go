package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHCD1MatchHandicapVerified (HC-D1, HC-D2, T-3): kakure match with
// --color white --handicap 2 gives peer a White; the record carries the
// choice and the handicap in the signed invitation, kakure verify replays
// it (ok, and says them), and an edit of the handicap in the record is a
// bad signature. --handicap without a colour, and --color in gomoku, are
// refused before any game.
func TestHCD1MatchHandicapVerified(t *testing.T) {
	dir := t.TempDir()
	code, out := runCommand(t, "match", "--games", "1", "--out", dir, "--variant", "go", "--size", "7",
		"--handicap", "2", "--color", "white", "--black", "random", "--white", "random")
	if code != 0 || !strings.Contains(out, "peer-a=white") {
		t.Fatalf("match exited %d, want peer a White:\n%s", code, out)
	}
	record := filepath.Join(dir, "game-001.record.json")
	code, vout := runCommand(t, "verify", record)
	if code != 0 || !strings.Contains(vout, "komi 0.5, the inviter chose white, handicap 2") || !strings.Contains(vout, "ok: result") {
		t.Fatalf("verify exited %d:\n%s", code, vout)
	}
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"handicap":2`)) {
		t.Fatalf("the record's invitation has no handicap:\n%.600s", data)
	}
	if err := os.WriteFile(record, bytes.Replace(data, []byte(`"handicap":2`), []byte(`"handicap":3`), 1), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out := runCommand(t, "verify", record); code == 0 || !strings.Contains(out, "bad signature") {
		t.Errorf("verify of a record whose handicap was edited exited %d:\n%s", code, out)
	}
	for _, args := range [][]string{
		{"--variant", "go", "--handicap", "2"},
		{"--variant", "gomoku", "--color", "black"},
		{"--variant", "go", "--color", "green"},
		{"--variant", "phantom", "--handicap", "2", "--color", "black"},
	} {
		code, out := runCommand(t, append([]string{"match", "--games", "1", "--out", t.TempDir()}, args...)...)
		if code != 2 || strings.Contains(out, "game 1:") {
			t.Errorf("match %v exited %d, want a usage error before any game:\n%s", args, code, out)
		}
	}
}

// TestT8VerifyNamesTheChecking (T-8(b), MPC-D26, MPC-D28): kakure verify
// says how a Phantom Go record's tries were checked, garbled and how the
// evaluator's inputs were sent, for each value of --lambda (1 or more),
// --garbling and --input-ot in the invitation, and replays it as ok.
// Four games cover both values of each (the defaults are three-halves
// and the authenticated state with MACs of 64 bits, MPC-D32; the one of
// 128 bits, MPC-D29, named explicitly), played at once, each short: test
// GTP engines that pass after six tries. The evaluator's tries by flips
// (MPC-D52, UI-D49), which verify names too, are kakure's default where
// they apply (UI-D50): the games of checked tries with a correlated form
// have them without a flag, those of the extension's OTs or of λ = 1 do
// not, and a fifth game opts out (--try-flips=false).
func TestT8VerifyNamesTheChecking(t *testing.T) {
	// Its own processes and homes, nothing shared: it runs beside the
	// tests that wait (kakureParallel), not before them.
	t.Parallel()
	const flips = ", the evaluator's tries by flips ahead of its player (MPC-D52)"
	for _, tt := range []struct {
		args   []string
		want   string
		refuse []string // must not be said
	}{
		// UI-D50: by flips without a flag.
		{[]string{"--lambda", "2"}, ", tries checked during play (λ = 2 garblings a try), garbled with three-halves, inputs by correlated OT, shares authenticated from try to try with MACs of 64 bits (MPC-D28, MPC-D29, MPC-D32)" + flips, nil},
		{[]string{"--lambda", "2", "--input-ot", "authenticated"}, ", tries checked during play (λ = 2 garblings a try), garbled with three-halves, inputs by correlated OT, shares authenticated from try to try (MPC-D28, MPC-D29)" + flips, []string{"64 bits"}},
		// UI-D50: where flips do not apply, none.
		{[]string{"--lambda", "2", "--garbling", "half-gates", "--input-ot", "extension"}, ", tries checked during play (λ = 2 garblings a try), garbled with half-gates", []string{"correlated", "by flips"}},
		{[]string{"--lambda", "1", "--garbling", "half-gates"}, ", tries checked at the audit only (λ = 1), garbled with half-gates", []string{"correlated", "by flips"}},
		// UI-D50: opted out.
		{[]string{"--lambda", "2", "--try-flips=false"}, ", tries checked during play (λ = 2 garblings a try), garbled with three-halves, inputs by correlated OT, shares authenticated from try to try with MACs of 64 bits (MPC-D28, MPC-D29, MPC-D32)", []string{"by flips"}},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			// A short game: test engines that pass after six tries each
			// (the record's checking is what is verified, not the play;
			// whole games between bots took a twelfth of the package's
			// CPU, issue 32).
			args := append([]string{"match", "--games", "1", "--out", dir, "--variant", "phantom", "--size", "5",
				"--black", testEngine("seed=1", "pass-after=6"), "--white", testEngine("seed=2", "pass-after=6"), "--progress", "0"}, tt.args...)
			if code, out := runCommand(t, args...); code != 0 {
				t.Fatalf("match %v exited %d:\n%s", tt.args, code, out)
			}
			code, vout := runCommand(t, "verify", filepath.Join(dir, "game-001.record.json"))
			if code != 0 || !strings.Contains(vout, tt.want) || !strings.Contains(vout, "ok: result") ||
				slices.ContainsFunc(tt.refuse, func(r string) bool { return strings.Contains(vout, r) }) {
				t.Errorf("verify of a game with %v exited %d, want %q (and not %q):\n%s", tt.args, code, tt.want, tt.refuse, vout)
			}
		})
	}
}
