package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestGTPD10PlayAgainstAnEngine (GTP-D10): `kakure play --engine
// gtp:COMMAND` puts the engine in the built-in bot's place. The first
// game is against it: the player's move reaches the engine (play), the
// engine's answer (genmove) is on the player's board, the player resigns,
// the engine's numbers are in the log and the record verifies.
func TestGTPD10PlayAgainstAnEngine(t *testing.T) {
	t.Parallel()
	srv := newTmux(t)
	home := filepath.Join(srv.dir, "home")
	engineLog := filepath.Join(srv.dir, "engine.log")
	p := srv.start("engine", 80, 24, "--home", home, "--variant", "go", "--size", "5", "--color", "black",
		"--engine", testEngine("log="+engineLog, "seed=3"))
	p.waitText("you: Black")
	p.play("C3")
	answer := p.waitFor("the engine's move", 30*time.Second, regexp.MustCompile(`White [A-E][1-5]\.`).MatchString)
	vertex := regexp.MustCompile(`White ([A-E][1-5])\.`).FindStringSubmatch(answer)[1]
	commands, err := os.ReadFile(engineLog)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"play black c3", "genmove white"} {
		if !strings.Contains(strings.ToLower(string(commands)), want) {
			t.Errorf("the engine was not sent %q:\n%s", want, commands)
		}
	}
	p.waitCell(vertex, "(○)")
	p.keys("C-r")
	p.waitText("Resign this game?")
	p.keys("y")
	p.waitText("Result: White wins by resignation")
	games, err := filepath.Glob(filepath.Join(home, "games", "*.record.json"))
	if err != nil || len(games) != 1 {
		t.Fatalf("records in the home: %v %v", games, err)
	}
	tr, err := session.LoadTranscript(games[0])
	if err != nil {
		t.Fatal(err)
	}
	if rep := protocol.Verify(tr); rep.Violation != nil || rep.Outcome == nil {
		t.Errorf("the record does not verify: %+v", rep)
	}
	// The engine's summary line reaches the log once its game is over.
	deadline := time.Now().Add(15 * time.Second)
	for {
		logged, _ := os.ReadFile(filepath.Join(home, node.LogFileName))
		if regexp.MustCompile(`engine: game \S+: .*`).Match(logged) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no line of the engine's numbers in the log:\n%s", logged)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
