package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/leakcheck"
)

// outputLeaks checks, at one moment, the processes' output and the log
// files of both homes against the values both peers have committed to
// and not opened yet (the secrets are read first and the records last,
// so that a value opened meanwhile counts as opened). It returns how
// many (value, text) pairs it checked and what it found.
func outputLeaks(homes [2]string, texts func() map[string]string) (checked int, leaks []string) {
	var values [][]leakcheck.Value
	for _, home := range homes {
		paths, _ := filepath.Glob(filepath.Join(home, "games", "*.secrets.json"))
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				values = append(values, decoded(p, data, func(data []byte) []leakcheck.Value {
					_, vals, _ := leakcheck.Values(data)
					return vals
				}))
			}
		}
	}
	all := texts()
	for _, home := range homes {
		logs, _ := filepath.Glob(filepath.Join(home, "*.log"))
		for _, p := range logs {
			data, _ := os.ReadFile(p)
			all[p] = string(data)
		}
	}
	var msgs []protocol.Message
	for _, home := range homes {
		paths, _ := filepath.Glob(filepath.Join(home, "games", "*.record.json"))
		for _, p := range paths {
			data, _ := os.ReadFile(p)
			msgs = append(msgs, decoded(p, data, func(data []byte) []protocol.Message {
				m, _ := leakcheck.Messages(data)
				return m
			})...)
		}
	}
	for _, vals := range values {
		for _, v := range vals {
			if v.OpensAt(msgs) < len(msgs) {
				continue
			}
			for name, text := range all {
				checked++
				if v.In(text) {
					leaks = append(leaks, fmt.Sprintf("%s holds %s, which the %s has not opened", name, v.Text, v.Owner))
				}
			}
		}
	}
	return checked, leaks
}

// decodedFiles holds, by path, the last contents outputLeaks decoded of a
// file and what it decoded: a test that checks every 20 ms decodes a file
// again only when it has changed (decoding every record and secrets file
// at every check took most of a test's CPU).
var decodedFiles sync.Map // path → decodedFile

type decodedFile struct {
	sum    [sha256.Size]byte
	result any
}

// decoded returns decode(data), or what it returned for the same path
// and contents before.
func decoded[T any](path string, data []byte, decode func([]byte) T) T {
	sum := sha256.Sum256(data)
	if d, ok := decodedFiles.Load(path); ok && d.(decodedFile).sum == sum {
		return d.(decodedFile).result.(T)
	}
	result := decode(data)
	decodedFiles.Store(path, decodedFile{sum: sum, result: result})
	return result
}

// TestT5NoLeakInProcessOutput runs two `kakure bot` processes in a game of
// each variant with hidden values and, all along the game, checks their
// output (stdout and stderr), their log files (kakure.log, games.log)
// and the output of `kakure id` run on each home: none holds a value
// either peer committed to and has not opened yet. Phantom Go not under
// -race, which slows its secure computation down most (go test ./...
// plays it; TestPlayTmuxPhantom plays it in processes under -race).
func TestT5NoLeakInProcessOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	// Its own processes and homes, nothing shared: it runs beside the
	// tests that wait (kakureParallel), not before them.
	t.Parallel()
	for _, variant := range [][]string{
		{"--variant", "hmg", "--size", "5", "--cards", "3"},
		{"--variant", "fgo", "--size", "5"},
		{"--variant", "gomoku", "--size", "7"},
		// Two garblings a try outside the full tier (testLambda): tries
		// checked during play, as by default, at two thirds of the CPU.
		append([]string{"--variant", "phantom", "--size", "5"}, testLambda(2)...),
	} {
		t.Run(variant[1], func(t *testing.T) {
			if raceEnabled && variant[1] == "phantom" {
				t.Skip("Phantom Go under -race: go test ./... without -race plays it")
			}
			t.Parallel()
			homes := [2]string{t.TempDir(), t.TempDir()}
			// Level-1 bots: a random player may pass at once and end the
			// game before it commits to any hidden value (this test once
			// checked none so, under load), and in Phantom Go their tries
			// are sensible ones: half the secure computations of random
			// players'.
			level := []string{"--level", "1"}
			b := startKakure(t, append([]string{"bot", "--home", homes[1], "--listen", anyLoopbackPort, "--seed", "2"}, level...)...)
			id := b.waitLine(t, regexp.MustCompile(`^peer ID: (\S+)`), 20*time.Second)[1]
			listenB := b.listenAddr(t)
			a := startKakure(t, slices.Concat([]string{"bot", "--home", homes[0], "--listen", "/ip4/127.0.0.1/tcp/0", "--seed", "1",
				"--invite", listenB + "/p2p/" + id}, variant, level)...)
			var idOutput [2]string
			texts := func() map[string]string {
				m := map[string]string{}
				for i, p := range []*process{a, b} {
					p.mu.Lock()
					m[fmt.Sprintf("the output of peer %d", i)] = strings.Join(p.lines, "\n")
					p.mu.Unlock()
					if idOutput[i] != "" {
						m[fmt.Sprintf("kakure id on the home of peer %d", i)] = idOutput[i]
					}
				}
				return m
			}
			result := regexp.MustCompile(`^game \S+: \S+ record=`)
			snapshots, checked := 0, 0
			gameTime := testenv.Duration(60 * time.Second)
			deadline := time.Now().Add(gameTime)
			for {
				a.mu.Lock()
				done := false
				for _, l := range a.lines {
					done = done || result.MatchString(l)
				}
				a.mu.Unlock()
				secrets := 0
				for _, home := range homes {
					paths, _ := filepath.Glob(filepath.Join(home, "games", "*.secrets.json"))
					secrets += len(paths)
				}
				if idOutput[0] == "" && secrets == 2 && !done {
					// Mid-game: `kakure id` on each home.
					for i, home := range homes {
						code, out := runCommand(t, "id", "--home", home, "--listen", "/ip4/127.0.0.1/tcp/0")
						if code != 0 {
							t.Fatalf("kakure id exited %d:\n%s", code, out)
						}
						idOutput[i] = out
					}
				}
				n, leaks := outputLeaks(homes, texts)
				snapshots++
				checked += n
				for _, l := range leaks {
					t.Error(l)
				}
				if done || len(leaks) > 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the game did not end within %s", gameTime)
				}
				time.Sleep(20 * time.Millisecond)
			}
			t.Logf("%d snapshots, %d checks of an unopened value against an output or a log", snapshots, checked)
			if checked == 0 {
				t.Error("no unopened value was ever checked")
			}
			if idOutput[0] == "" {
				t.Error("the game ended before kakure id ran: nothing checked mid-game")
			}
		})
	}
}

// TestT5OutputLeakCheckCatchesALeak shows that outputLeaks finds a hidden
// value written in a log file or in a process's output, and not once it
// is opened.
func TestT5OutputLeakCheckCatchesALeak(t *testing.T) {
	home := t.TempDir()
	games := filepath.Join(home, "games")
	if err := os.MkdirAll(games, 0o700); err != nil {
		t.Fatal(err)
	}
	_, o, err := commit.New(hmgrules.CardDomain, make([]byte, 16), 0, 0, []byte("D4"))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := o.MarshalText()
	write := func(path, s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(games, "x.secrets.json"), fmt.Sprintf(`{"role":0,"variant":{"openings":[%q]}}`, text))
	homes := [2]string{home, t.TempDir()}
	none := func() map[string]string { return map[string]string{"out": "peer ID: 12D3KooWD4abc"} }
	if n, leaks := outputLeaks(homes, none); n == 0 || len(leaks) != 0 {
		t.Fatalf("clean: %d checks, leaks %q", n, leaks)
	}
	write(filepath.Join(home, "games.log"), `level=WARN msg="automatic step" err="card at D4"`)
	if _, leaks := outputLeaks(homes, none); len(leaks) != 1 {
		t.Errorf("a log line with the card: leaks %q, want one", leaks)
	}
	os.Remove(filepath.Join(home, "games.log"))
	out := func() map[string]string {
		return map[string]string{"out": "game x: bot: reveal black card index 0 at D4: own stone there"}
	}
	if _, leaks := outputLeaks(homes, out); len(leaks) != 1 {
		t.Errorf("output with the card: leaks %q, want one", leaks)
	}
	rec := fmt.Sprintf(`{"messages":[{"from":0,"kind":"reveal","body":{"card":0,"point":"D4","salt":"%x"}}]}`, o.Salt[:])
	write(filepath.Join(games, "x.record.json"), rec)
	if _, leaks := outputLeaks(homes, out); len(leaks) != 0 {
		t.Errorf("after the opening: leaks %q, want none", leaks)
	}
}

// TestT5NoLeakInMatchOutput runs `kakure match` between bots on variants
// with hidden values and checks its output and both peers' log files
// against every value left unopened in the records (a game that ends
// before its values are opened keeps them hidden for good). Two games
// of each; under -race no Phantom Go, whose secure computation the race
// detector slows down most (go test ./... plays them).
func TestT5NoLeakInMatchOutput(t *testing.T) {
	// Its own processes and homes, nothing shared: it runs beside the
	// tests that wait (kakureParallel), not before them.
	t.Parallel()
	for _, variant := range [][]string{
		{"--variant", "hmg", "--size", "5", "--cards", "3"},
		{"--variant", "phantom", "--size", "5", "--rules", "hamburg"},
	} {
		t.Run(variant[1], func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if raceEnabled && variant[1] == "phantom" {
				t.Skip("Phantom Go under -race: go test ./... without -race plays it")
			}
			// Phantom Go between level-1 bots (sensible tries: half the
			// secure computations of a random player's), one garbling a
			// try outside the full tier (testLambda):
			// TestT5NoLeakInProcessOutput watches a game whose tries are
			// checked, their garblings' values included.
			black := "random"
			args := variant
			if variant[1] == "phantom" {
				black = "bot:1"
				args = append(slices.Clip(variant), testLambda(1)...)
			}
			code, out := runCommand(t, append([]string{"match", "--games", "2", "--out", dir, "--black", black, "--white", "bot:1"}, args...)...)
			if code != 0 {
				t.Fatalf("match exited %d:\n%s", code, out)
			}
			homes := [2]string{filepath.Join(dir, "peers", "a"), filepath.Join(dir, "peers", "b")}
			checked, leaks := outputLeaks(homes, func() map[string]string { return map[string]string{"the output of kakure match": out} })
			for _, l := range leaks {
				t.Error(l)
			}
			// A game that ends by count opens every value; the output
			// names no point at all, so it is checked against every
			// value of the secrets files, opened or not.
			n := 0
			for _, home := range homes {
				paths, _ := filepath.Glob(filepath.Join(home, "games", "*.secrets.json"))
				for _, p := range paths {
					data, _ := os.ReadFile(p)
					_, vals, _ := leakcheck.Values(data)
					for _, v := range vals {
						n++
						if v.In(out) {
							t.Errorf("the output of kakure match holds %s, a value of the %s", v.Text, v.Owner)
						}
					}
				}
			}
			t.Logf("%d values in the secrets files, each checked against the output; %d checks of an unopened one against the output and the logs", n, checked)
			if n == 0 {
				t.Error("no value in the secrets files: nothing checked")
			}
		})
	}
}
