package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// runCommandOut runs a command in this process and returns its status,
// its standard output and its standard error apart.
func runCommandOut(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	env := &environment{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}
	code := run(env, args)
	return code, out.String(), errOut.String()
}

// copyFile copies the file src to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTRNTournamentCommands: four homes sign entries (kakure tournament
// entry), an organizer announces a round robin of them (announce), the
// pairings of round 1 are printed (pairings), and round 1 is played by
// four real `kakure bot --tournament` processes on loopback, the black
// player of each board inviting the white one; `kakure verify` names the
// tournament game in each record; `kakure standings` on the organizer's
// copies and on the players' own copies prints the same bytes and
// writes the same standings.csv: round 1 counted, rounds 2 and 3 named
// as never played (TRN-D1, TRN-D2, TRN-D4, TRN-D6, TRN-D13).
func TestTRNTournamentCommands(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts real processes")
	}
	dir := t.TempDir()
	const call = "kakure cup 2026, call 7f3a"
	var entries []string
	homes := map[string]string{} // peer ID -> home
	for i := range 4 {
		home := filepath.Join(dir, fmt.Sprintf("home%d", i))
		entry := filepath.Join(dir, fmt.Sprintf("entry%d.json", i))
		if status, out, errOut := runCommandOut("tournament", "entry", "--home", home, "--call", call, "--name", fmt.Sprintf("bot%d", i), "--out", entry); status != 0 {
			t.Fatalf("tournament entry: status %d: %s%s", status, out, errOut)
		}
		entries = append(entries, entry)
		status, out, _ := runCommandOut("id", "--home", home, "--listen", anyLoopbackPort)
		id := regexp.MustCompile(`12D3KooW\w+`).FindString(out)
		if status != 0 || id == "" {
			t.Fatalf("kakure id: %d %s", status, out)
		}
		homes[id] = home
	}
	ann := filepath.Join(dir, "announcement.json")
	args := append([]string{"tournament", "announce", "--home", filepath.Join(dir, "organizer"), "--call", call, "--name", "kakure cup",
		"--system", "round-robin", "--variant", "go", "--size", "5", "--out", ann}, entries...)
	if status, out, errOut := runCommandOut(args...); status != 0 {
		t.Fatalf("tournament announce: status %d: %s%s", status, out, errOut)
	}
	status, out, errOut := runCommandOut("tournament", "pairings", "--round", "1", ann)
	if status != 0 {
		t.Fatalf("tournament pairings: status %d: %s%s", status, out, errOut)
	}
	boards := regexp.MustCompile(`(?m)^board (\d): black bot\d (\S+), white bot\d (\S+)$`).FindAllStringSubmatch(out, -1)
	if len(boards) != 2 {
		t.Fatalf("pairings of round 1:\n%s", out)
	}
	// A tournament game is one game, not a series.
	if status, out := runCommand(t, "bot", "--home", filepath.Join(dir, "home0"), "--listen", anyLoopbackPort, "--tournament", ann, "--round", "1",
		"--invite", "/ip4/127.0.0.1/tcp/1", "--games", "2"); status == 0 || !strings.Contains(out, "not both") {
		t.Errorf("kakure bot --tournament --games: status %d, %q; want a usage error", status, out)
	}
	organizer, players := filepath.Join(dir, "organizer-records"), filepath.Join(dir, "player-records")
	for _, d := range []string{organizer, players} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		copyFile(t, ann, filepath.Join(d, "announcement.json"))
	}
	type boardProcs struct{ black, white *process }
	var procs []boardProcs
	for _, b := range boards {
		white := startKakure(t, "bot", "--home", homes[b[3]], "--listen", anyLoopbackPort, "--level", "1", "--seed", "3",
			"--tournament", ann, "--round", "1")
		id := white.waitLine(t, reBotPeerID, 20*time.Second)[1]
		if id != b[3] {
			t.Fatalf("white bot is %s, want %s", id, b[3])
		}
		addr := white.listenAddr(t) + "/p2p/" + id
		if len(procs) == 0 {
			// A peer that is not its opponent, inviting it to an ordinary
			// game: the tournament player declines (TRN-D6).
			status, out := runCommand(t, "bot", "--home", filepath.Join(dir, "stranger"), "--listen", anyLoopbackPort,
				"--invite", addr, "--variant", "go", "--size", "5", "--level", "1")
			if status == 0 || !strings.Contains(out, "TRN-D6") {
				t.Errorf("a stranger's invitation to a tournament player: status %d:\n%s", status, out)
			}
		}
		black := startKakure(t, "bot", "--home", homes[b[2]], "--listen", anyLoopbackPort, "--level", "1", "--seed", "4",
			"--tournament", ann, "--round", "1", "--invite", addr)
		procs = append(procs, boardProcs{black, white})
	}
	for i, p := range procs {
		rb := p.black.waitLine(t, reGameResult, 120*time.Second)
		rw := p.white.waitLine(t, regexp.MustCompile(`^game (`+regexp.QuoteMeta(rb[1])+`): (\S+) record=(\S+)`), 60*time.Second)
		resultsAgree(t, rb, rw)
		name := fmt.Sprintf("round1-board%d.record.json", i+1)
		copyFile(t, rb[3], filepath.Join(organizer, name))
		copyFile(t, rw[3], filepath.Join(players, name))
		status, out, _ := runCommandOut("verify", rb[3])
		if status != 0 || !strings.Contains(out, fmt.Sprintf("tournament %s round 1 board %d", tournamentIDOf(t, ann), i+1)) {
			t.Errorf("kakure verify of board %d: status %d:\n%s", i+1, status, out)
		}
		<-p.black.done
		<-p.white.done
	}
	var texts, csvs []string
	for _, d := range []string{organizer, players} {
		status, out, errOut := runCommandOut("standings", d)
		if status != 0 {
			t.Fatalf("kakure standings %s: status %d: %s%s", d, status, out, errOut)
		}
		csv, err := os.ReadFile(filepath.Join(d, "standings.csv"))
		if err != nil {
			t.Fatal(err)
		}
		texts, csvs = append(texts, out), append(csvs, string(csv))
	}
	t.Logf("kakure standings:\n%s\nstandings.csv:\n%s", texts[0], csvs[0])
	if texts[0] != texts[1] || csvs[0] != csvs[1] {
		t.Fatalf("the organizer's and the players' copies give other standings:\n%s\n%s", texts[1], csvs[1])
	}
	for _, want := range []string{"round 2 board 1", "round 3 board 2", "no record: never played (TRN-D13)"} {
		if !strings.Contains(texts[0], want) {
			t.Errorf("standings do not name %q", want)
		}
	}
	if strings.Count(texts[0], "(TRN-D8), game ") != 2 || strings.Count(csvs[0], "\n") != 5 {
		t.Errorf("round 1's two games are not both counted, or the CSV is not a header and four rows")
	}
}

// tournamentIDOf is the ID of the tournament an announcement file
// announces, as kakure tournament pairings prints it.
func tournamentIDOf(t *testing.T, ann string) string {
	t.Helper()
	_, out, _ := runCommandOut("tournament", "pairings", "--round", "1", ann)
	id := regexp.MustCompile(`^tournament ([0-9a-f]{64}) `).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("no tournament ID in:\n%s", out)
	}
	return id[1]
}

// TestTRND6BotTournamentFlags: kakure bot --tournament takes its options
// from the announcement and needs --round; --round and --records go with
// it only (TRN-D6).
func TestTRND6BotTournamentFlags(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--tournament", filepath.Join(dir, "a.json")}, "--tournament needs --round"},
		{[]string{"--round", "1"}, "--round and --records go with --tournament"},
		{[]string{"--tournament", filepath.Join(dir, "a.json"), "--round", "1", "--size", "9"}, "--size: a tournament game's options are the announcement's"},
		{[]string{"--tournament", filepath.Join(dir, "a.json"), "--round", "1"}, "announcement: open"},
	} {
		status, out := runCommand(t, append([]string{"bot", "--home", dir, "--listen", anyLoopbackPort}, tc.args...)...)
		if status == 0 || !strings.Contains(out, tc.want) {
			t.Errorf("kakure bot %v: status %d, %q; want %q", tc.args, status, out, tc.want)
		}
	}
}
