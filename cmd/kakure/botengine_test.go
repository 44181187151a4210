package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/leakcheck"
	"github.com/kakure/kakure/protocol/session"
)

// engineRun is a game between two `kakure bot --engine` processes on
// loopback: a invites b.
type engineRun struct {
	homes [2]string
	procs [2]*process
	// results are the submatches of each process's result line
	// (reEngineGameResult: the game, its result, the record).
	results [2][]string
}

// playEngines starts b, then a inviting b to a game of variant, each
// with its --engine and the extra arguments of its own, and waits for
// both result lines, calling watch (when not nil) every 50 ms meanwhile:
// a watch error fails the test. Both processes must give the same game
// and result.
func playEngines(t *testing.T, variant []string, engines [2]string, extra [2][]string, gameTime time.Duration, watch func(*engineRun) error) *engineRun {
	t.Helper()
	r := &engineRun{homes: [2]string{t.TempDir(), t.TempDir()}}
	r.procs[1] = startKakure(t, slices.Concat([]string{"bot", "--home", r.homes[1], "--listen", anyLoopbackPort, "--seed", "2",
		"--engine", engines[1], "--progress", "0"}, extra[1])...)
	id := r.procs[1].waitLine(t, regexp.MustCompile(`^peer ID: (\S+)`), 20*time.Second)[1]
	listenB := r.procs[1].listenAddr(t)
	r.procs[0] = startKakure(t, slices.Concat([]string{"bot", "--home", r.homes[0], "--listen", anyLoopbackPort, "--seed", "1",
		"--engine", engines[0], "--progress", "0", "--invite", listenB + "/p2p/" + id}, variant, extra[0])...)
	deadline := testenv.Deadline(gameTime)
	for {
		for i, p := range r.procs {
			if r.results[i] == nil {
				r.results[i] = p.lastLine(reEngineGameResult)
			}
		}
		if watch != nil {
			if err := watch(r); err != nil {
				t.Fatal(err)
			}
		}
		if r.results[0] != nil && r.results[1] != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no result within %v:\n--- a:\n%s\n--- b:\n%s", testenv.Duration(gameTime), r.procs[0].output(), r.procs[1].output())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r.results[0][1] != r.results[1][1] || r.results[0][2] != r.results[1][2] {
		t.Fatalf("the peers disagree: a %q, b %q", r.results[0][0], r.results[1][0])
	}
	return r
}

// verify checks both peers' records with protocol.Verify: the game is
// finished with the result both processes printed, and no violation;
// with lostOnTime, the loss on time of that role only (CLK-D9: the
// record proves its clock ran out), so that the other side is never
// blamed. It returns a's transcript.
func (r *engineRun) verify(t *testing.T, lostOnTime ...protocol.Role) *protocol.Transcript {
	t.Helper()
	var first *protocol.Transcript
	for i, res := range r.results {
		tr, err := session.LoadTranscript(res[3])
		if err != nil {
			t.Fatalf("peer %d's record: %v", i, err)
		}
		rep := protocol.Verify(tr)
		v := rep.Violation
		timeLoss := v != nil && len(lostOnTime) == 1 && v.Rule == "CLK-D9" && v.Accused == lostOnTime[0]
		if v != nil && !timeLoss || !rep.Finished || rep.Outcome == nil || rep.Outcome.Result.String() != res[2] {
			t.Errorf("peer %d's record: violation %v, finished %v, outcome %+v; want %s without a violation (but a loss on time of %v)", i, v, rep.Finished, rep.Outcome, res[2], lostOnTime)
		}
		if len(lostOnTime) == 1 && !timeLoss {
			t.Errorf("peer %d's record does not show the %v's clock ran out: %v", i, lostOnTime[0], v)
		}
		if first == nil {
			first = tr
		}
	}
	return first
}

// reEngineGameResult is reGameResult with a loss on time, which the
// result line describes before the record: the game, its result, the
// record.
var reEngineGameResult = regexp.MustCompile(`^game (\S+): (\S+)(?: .*)? record=(\S+)`)

// engineLine returns the submatches of process i's line about its engine
// in the game (engine: game ID: ... engine-asked=N engine-moves=M ...).
var engineSummary = regexp.MustCompile(`^engine: game \S+: .*engine-asked=(\d+) engine-moves=(\d+) refused=(\d+) fallback-moves=(\d+)`)

// checkEngineMoved: each side's engine made moves (its summary line says
// so), and its standard error went to the home's log, not to the output
// (GTP-D8), when the engine is the test engine.
func (r *engineRun) checkEngineMoved(t *testing.T, testEngine [2]bool) {
	t.Helper()
	for i, p := range r.procs {
		m := p.waitLine(t, engineSummary, 10*time.Second)
		if atoi(t, m[2]) == 0 {
			t.Errorf("peer %d's engine made no move: %s", i, m[0])
		}
		if !testEngine[i] {
			continue
		}
		if out := p.output(); strings.Contains(out, testEngineStarted) {
			t.Errorf("the engine's standard error reached peer %d's output:\n%s", i, out)
		}
		logData, _ := os.ReadFile(filepath.Join(r.homes[i], "kakure.log"))
		if want := "game " + r.results[i][1] + " stderr: " + testEngineStarted; !strings.Contains(string(logData), want) {
			t.Errorf("the game's engine's standard error (%q) is not in peer %d's kakure.log:\n%s", want, i, logData)
		}
	}
}

// engineCommands returns the commands a test engine logged.
func engineCommands(path string) []string {
	data, _ := os.ReadFile(path)
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// playCommand reads an engine's "play COLOR VERTEX".
var playCommand = regexp.MustCompile(`^play (black|white) ([A-T][0-9]+)$`)

// engineLeak is a hidden value of one peer found in the commands the
// other peer's engine received: the command and the value.
type engineLeak struct {
	text  string
	value leakcheck.Value
	// peer is the index of the engine's peer.
	peer int
}

// homeMessages returns the messages of the records in home (one game
// each in these tests).
func homeMessages(home string) []protocol.Message {
	var msgs []protocol.Message
	paths, _ := filepath.Glob(filepath.Join(home, "games", "*.record.json"))
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		m, _ := leakcheck.Messages(data)
		msgs = append(msgs, m...)
	}
	return msgs
}

// engineViewLeaks looks in the commands each peer's engine received (its
// log) for the other peer's hidden values that no message of the records
// has opened yet (leakcheck, T-5): a stone of the other colour given to
// the engine (play) where the other peer holds a hidden value. Phantom Go
// excepted: an opponent stone the engine's side may have found by its
// own tries (triedThere: on the point or next to it; GTP-D3). The secrets are read first and the records last, so that a
// value opened meanwhile counts as opened. A peer's engine that has not
// yet been asked for a move (its colour unknown) is not checked. It
// returns how many (value, stone) pairs it compared, the leaks, and how
// many messages each home's records held when read.
func engineViewLeaks(homes, logs [2]string, phantom bool) (checked int, leaks []engineLeak, counts [2]int) {
	var values, tries [2][]leakcheck.Value
	for i, home := range homes {
		values[i], tries[i] = homeValues(home)
	}
	var commands [2][]string
	for i, l := range logs {
		commands[i] = engineCommands(l)
	}
	var msgs []protocol.Message
	for i, home := range homes {
		m := homeMessages(home)
		counts[i] = len(m)
		msgs = append(msgs, m...)
	}
	for i := range homes {
		own := ""
		for _, c := range commands[i] {
			if color, ok := strings.CutPrefix(c, "genmove "); ok {
				own = color
			}
		}
		if own == "" {
			continue
		}
		for _, c := range commands[i] {
			m := playCommand.FindStringSubmatch(c)
			if m == nil || m[1] == own {
				continue
			}
			for _, v := range values[1-i] {
				checked++
				if v.Text != m[2] || v.OpensAt(msgs) < len(msgs) {
					continue
				}
				if phantom && triedThere(tries[i], v) {
					continue
				}
				leaks = append(leaks, engineLeak{text: fmt.Sprintf("peer %d's engine was told %q: the other peer's hidden %s, not opened", i, c, v.Text), value: v, peer: i})
			}
		}
	}
	return checked, leaks, counts
}

// homeValues reads the secrets files of home: the hidden values that are
// points, and of those the Phantom Go tries.
func homeValues(home string) (values, tries []leakcheck.Value) {
	paths, _ := filepath.Glob(filepath.Join(home, "games", "*.secrets.json"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		_, vals, _ := leakcheck.Values(data)
		for _, v := range vals {
			if v.Vertex {
				values = append(values, v)
				if v.Salt == "" {
					tries = append(tries, v)
				}
			}
		}
	}
	return values, tries
}

// triedThere reports whether tries hold a try at v's point or next to
// it: what a side's own tries can tell it of the other's stones in
// Phantom Go (phantom.View): an illegal try on an opponent stone that
// point (PG-6), a suicide or a ko its neighbours, the capture of its own
// stones their neighbours.
func triedThere(tries []leakcheck.Value, v leakcheck.Value) bool {
	col, row := v.Text[0], v.Text[1:]
	n, _ := strconv.Atoi(row)
	near := []string{v.Text, string(col) + strconv.Itoa(n-1), string(col) + strconv.Itoa(n+1)}
	const columns = "ABCDEFGHJKLMNOPQRST"
	if i := strings.IndexByte(columns, col); i >= 0 {
		if i > 0 {
			near = append(near, string(columns[i-1])+row)
		}
		if i+1 < len(columns) {
			near = append(near, string(columns[i+1])+row)
		}
	}
	return slices.ContainsFunc(tries, func(o leakcheck.Value) bool { return slices.Contains(near, o.Text) })
}

// openingSlack is how many messages after those a home's records held
// when a leak was found may hold the value's opening for the leak to be
// the race of leakWatch, and no leak.
const openingSlack = 4

// leakWatch returns a watch for playEngines that checks the engines'
// views all along the game (engineViewLeaks). An engine can be told of a
// message a moment before its record is saved: a leak found is looked at
// again 300 ms later, and is none when the value's opening was then among
// the next few messages (openingSlack) of a home's records, or, in
// Phantom Go, when the engine's side had by then made a try there (its
// secrets file, read before the engine's commands, may not have held
// the try that told the engine). checked counts the comparisons.
func leakWatch(logs [2]string, phantom bool, checked *int) func(*engineRun) error {
	return func(r *engineRun) error {
		n, leaks, counts := engineViewLeaks(r.homes, logs, phantom)
		*checked += n
		if len(leaks) == 0 {
			return nil
		}
		time.Sleep(300 * time.Millisecond)
		var confirmed []string
		for _, l := range leaks {
			_, tries := homeValues(r.homes[l.peer])
			race := phantom && triedThere(tries, l.value)
			for h, home := range r.homes {
				msgs := homeMessages(home)
				at := l.value.OpensAt(msgs)
				race = race || at < len(msgs) && at < counts[h]+openingSlack
			}
			if !race {
				confirmed = append(confirmed, l.text)
			}
		}
		if len(confirmed) > 0 {
			return fmt.Errorf("T-5: %s", strings.Join(confirmed, "; "))
		}
		return nil
	}
}

// TestGTPD5EngineBotsGNUGo (GTP-D5): two `kakure bot --engine` processes,
// each with GNU Go, play plain Go on loopback: GNU Go makes the moves of
// both sides, and both records verify with the result both printed.
func TestGTPD5EngineBotsGNUGo(t *testing.T) {
	const gnugo = "/usr/games/gnugo"
	if _, err := os.Stat(gnugo); err != nil {
		t.Skip("GNU Go is not installed: apt-get install gnugo (CI installs it)")
	}
	t.Parallel()
	engine := "gtp:" + gnugo + " --mode gtp --level 1"
	r := playEngines(t, []string{"--variant", "go", "--size", "7"}, [2]string{engine, engine}, [2][]string{}, 60*time.Second, nil)
	r.verify(t)
	r.checkEngineMoved(t, [2]bool{})
	for i, p := range r.procs {
		if m := p.lastLine(regexp.MustCompile(`^engine: gtp:\S+ .*: (.*)$`)); m == nil || !strings.Contains(m[1], "GNU Go") {
			t.Errorf("peer %d does not name its engine GNU Go:\n%s", i, p.output())
		}
	}
}

// TestGTPD5EngineBotsVariants (GTP-D1, GTP-D5, T-5): two `kakure bot
// --engine` processes, each with the test engine (runTestEngine), play
// each variant with hidden values, and Bridge Go, on loopback (plain Go:
// TestGTPD5EngineBotsGNUGo, TestGTPD4EngineClockAgrees): the records
// verify, each engine made moves, its standard error went to the log
// (GTP-D8), and all along a hidden variant's game no engine was told a
// hidden value of the other side not opened yet (engineViewLeaks).
// Phantom Go not under -race, which slows its secure computation down
// most.
func TestGTPD5EngineBotsVariants(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		variant []string
		// passAfter bounds the test engine's moves, so that a game ends
		// soon (the fallback passes or plays on after).
		passAfter int
	}{
		// One garbling a try outside the full tier (testLambda): what
		// the engines are told does not depend on it.
		{append([]string{"--variant", "phantom", "--size", "5"}, testLambda(1)...), 16},
		{[]string{"--variant", "hmg", "--size", "5", "--cards", "2"}, 10},
		{[]string{"--variant", "fgo", "--size", "5"}, 10},
		{[]string{"--variant", "gomoku", "--size", "7"}, 30},
		{[]string{"--variant", "bridge", "--size", "5"}, 10},
	} {
		t.Run(c.variant[1], func(t *testing.T) {
			if raceEnabled && c.variant[1] == "phantom" {
				t.Skip("Phantom Go under -race: go test ./... without -race plays it")
			}
			t.Parallel()
			dir := t.TempDir()
			logs := [2]string{filepath.Join(dir, "engine-a.log"), filepath.Join(dir, "engine-b.log")}
			var engines [2]string
			for i := range engines {
				engines[i] = testEngine("log="+logs[i], "seed="+strconv.Itoa(i+1), "pass-after="+strconv.Itoa(c.passAfter))
			}
			checked := 0
			r := playEngines(t, c.variant, engines, [2][]string{}, 90*time.Second, leakWatch(logs, c.variant[1] == "phantom", &checked))
			r.verify(t)
			r.checkEngineMoved(t, [2]bool{true, true})
			t.Logf("%s: a %s; %d comparisons of a hidden value with a stone an engine was told", c.variant[1], r.results[0][2], checked)
			if checked == 0 && c.variant[1] != "bridge" {
				t.Error("no hidden value was ever compared with the engines' commands")
			}
			for i, l := range logs {
				for _, cmd := range engineCommands(l) {
					name := strings.Fields(cmd)[0]
					if !slices.Contains([]string{"protocol_version", "name", "version", "quit", "boardsize", "clear_board", "komi", "play", "genmove"}, name) {
						t.Errorf("peer %d's engine was sent %q", i, cmd)
					}
				}
			}
		})
	}
}

// TestGTPD5EngineLeakCheckCatchesALeak shows that engineViewLeaks finds a
// hidden card of the other peer given to an engine as a stone, and not
// once the card is opened, nor as a stone of the engine's own colour;
// that leakWatch reports it; and that a Phantom Go try of the other peer
// given as a stone is a leak unless the engine's side tried there or next
// to it.
func TestGTPD5EngineLeakCheckCatchesALeak(t *testing.T) {
	homes := [2]string{t.TempDir(), t.TempDir()}
	games := filepath.Join(homes[1], "games")
	if err := os.MkdirAll(games, 0o700); err != nil {
		t.Fatal(err)
	}
	salt := writeCardSecrets(t, games, "D4")
	logs := [2]string{filepath.Join(t.TempDir(), "a.log"), filepath.Join(t.TempDir(), "b.log")}
	write := func(path, s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(logs[0], "boardsize 5\nplay black D4\nplay white C3\ngenmove black\n")
	if n, leaks, _ := engineViewLeaks(homes, logs, false); n == 0 || len(leaks) != 0 {
		t.Fatalf("own stone at the card's point: %d comparisons, leaks %v", n, leaks)
	}
	write(logs[0], "boardsize 5\nplay black C3\nplay white D4\ngenmove black\n")
	if _, leaks, _ := engineViewLeaks(homes, logs, false); len(leaks) != 1 {
		t.Errorf("the other's card as a stone: leaks %v, want one", leaks)
	}
	// The same in a game's watch: a leak while the records stay as they
	// were.
	r := &engineRun{homes: homes}
	checked := 0
	if err := leakWatch(logs, false, &checked)(r); err == nil || !strings.Contains(err.Error(), "hidden D4") {
		t.Errorf("leakWatch: %v, want the leak of D4", err)
	}
	write(filepath.Join(games, "x.record.json"), fmt.Sprintf(`{"messages":[{"from":1,"kind":"reveal","body":{"card":0,"point":"D4","salt":"%s"}}]}`, salt))
	if _, leaks, _ := engineViewLeaks(homes, logs, false); len(leaks) != 0 {
		t.Errorf("after the opening: leaks %v, want none", leaks)
	}
	// A Phantom Go try of the other found by a try of the engine's own
	// side is no leak; one it did not try is.
	write(filepath.Join(games, "x.secrets.json"), `{"role":1,"variant":{"tries":["D4","E5"]}}`)
	os.Remove(filepath.Join(games, "x.record.json"))
	ownGames := filepath.Join(homes[0], "games")
	if err := os.MkdirAll(ownGames, 0o700); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(ownGames, "y.secrets.json"), `{"role":0,"variant":{"tries":["D4"]}}`)
	write(logs[0], "boardsize 5\nplay black C3\nplay white D4\ngenmove black\n")
	if _, leaks, _ := engineViewLeaks(homes, logs, true); len(leaks) != 0 {
		t.Errorf("a stone found by the side's own try: leaks %v, want none", leaks)
	}
	write(filepath.Join(games, "x.secrets.json"), `{"role":1,"variant":{"tries":["D4","E5","D5"]}}`)
	write(logs[0], "boardsize 5\nplay black C3\nplay white D4\nplay white E5\nplay white D5\ngenmove black\n")
	if _, leaks, _ := engineViewLeaks(homes, logs, true); len(leaks) != 1 || !strings.Contains(leaks[0].text, "hidden E5") {
		t.Errorf("stones of the other's at and next to the side's try D4 and at E5, away from it: leaks %v, want E5", leaks)
	}
}

// writeCardSecrets writes, in games, the secrets file of the invitee
// with one hidden card at point and returns the salt (hex) of its
// commitment.
func writeCardSecrets(t *testing.T, games, point string) string {
	t.Helper()
	_, o, err := commit.New(hmgrules.CardDomain, make([]byte, 16), 0, 0, []byte(point))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := o.MarshalText()
	if err := os.WriteFile(filepath.Join(games, "x.secrets.json"), fmt.Appendf(nil, `{"role":1,"variant":{"openings":[%q]}}`, text), 0o600); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", o.Salt[:])
}

// sgfClock reads an SGF's moves of colour c ("B" or "W") and the time
// left after each (BL or WL).
var sgfMove = regexp.MustCompile(`;([BW])\[[a-z]*\]([BW])L\[([0-9.]+)\]`)

// TestGTPD4EngineClockAgrees (GTP-D4, GTP-D5): in a game with a clock,
// each engine is sent the time settings and, before each genmove, the
// time its player has left, which agrees with the clock of the record:
// the time left after the player's previous move (the SGF's BL/WL), less
// what the turn used before the engine was asked. The test engine thinks
// 300 ms a move, so that the clocks run down.
func TestGTPD4EngineClockAgrees(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logs := [2]string{filepath.Join(dir, "engine-a.log"), filepath.Join(dir, "engine-b.log")}
	var engines [2]string
	for i := range engines {
		engines[i] = testEngine("log="+logs[i], "seed="+strconv.Itoa(i+1), "think=300ms", "pass-after=8")
	}
	r := playEngines(t, []string{"--variant", "go", "--size", "5", "--time", "1m"}, engines, [2][]string{}, 90*time.Second, nil)
	r.verify(t)
	r.checkEngineMoved(t, [2]bool{true, true})
	sgfPath := strings.TrimSuffix(r.results[0][3], ".record.json") + ".sgf"
	sgf, err := os.ReadFile(sgfPath)
	if err != nil {
		t.Fatal(err)
	}
	after := map[string][]float64{}
	for _, m := range sgfMove.FindAllStringSubmatch(string(sgf), -1) {
		left, _ := strconv.ParseFloat(m[3], 64)
		after[m[1]] = append(after[m[1]], left)
	}
	timeLeft := regexp.MustCompile(`^time_left (black|white) (\d+) 0$`)
	for i, l := range logs {
		cmds := engineCommands(l)
		var lefts []float64
		color := ""
		for j, c := range cmds {
			if m := timeLeft.FindStringSubmatch(c); m != nil {
				color = m[1]
				n, _ := strconv.Atoi(m[2])
				lefts = append(lefts, float64(n))
				if j == 0 || cmds[j-1] != "time_settings 60 0 0" {
					t.Errorf("peer %d's engine: %q not after the time settings (time_settings 60 0 0): %q", i, c, cmds[max(j-1, 0)])
				}
			}
		}
		moves := after[strings.ToUpper(color[:1])]
		if len(lefts) < 4 || len(moves) < len(lefts)-1 {
			t.Fatalf("peer %d's engine (%s) was told the time %d times; the SGF has %d moves of its colour:\n%s", i, color, len(lefts), len(moves), sgf)
		}
		for k, told := range lefts {
			clock := 60.0
			if k > 0 {
				clock = moves[k-1]
			}
			// Whole seconds, rounded down; the turn's own time before
			// the engine is asked (the fallback's choice, the board's
			// setup) is a few milliseconds, seconds under load.
			if told > clock || told < clock-testenv.Duration(3*time.Second).Seconds() {
				t.Errorf("peer %d's engine (%s), move %d: told %vs left, the record's clock had %.1fs", i, color, k+1, told, clock)
			}
		}
		if lefts[len(lefts)-1] >= 60 {
			t.Errorf("peer %d's engine was never told less than the main time: %v", i, lefts)
		}
		t.Logf("peer %d (%s): told %v; the record's clock after its moves %v", i, color, lefts, moves)
	}
}

// TestGTPD6FailingEngineResigns (GTP-D6): an engine that exits in the
// middle of a game (after its third move) makes its side resign, with a
// line naming the engine and the reason; the other side wins by
// resignation, and both records verify (the honest side is not blamed).
func TestGTPD6FailingEngineResigns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	engines := [2]string{
		testEngine("log="+filepath.Join(dir, "a.log"), "seed=1", "exit-after=3"),
		testEngine("log="+filepath.Join(dir, "b.log"), "seed=2"),
	}
	r := playEngines(t, []string{"--variant", "hmg", "--size", "5", "--cards", "2"}, engines, [2][]string{}, 60*time.Second, nil)
	tr := r.verify(t)
	line := r.procs[0].waitLine(t, regexp.MustCompile(`^engine failed: game \S+: "gtp:env `+testEngineEnv+`=1 .*exit-after=3": genmove (black|white): the engine exited \(the engine's standard error is in \S+kakure.log\); its side resigns$`), 5*time.Second)
	checkResignedBy(t, r, tr, line[1])
	if out := r.procs[1].output(); strings.Contains(out, "engine failed") {
		t.Errorf("the honest side reports a failing engine:\n%s", out)
	}
	logData, _ := os.ReadFile(filepath.Join(r.homes[0], "kakure.log"))
	if !strings.Contains(string(logData), "test engine: exiting at genmove 4") {
		t.Errorf("the engine's last words are not in kakure.log:\n%s", logData)
	}
}

// checkResignedBy: the game ended by the resignation of the colour
// failed, whose winner is the other side, the one whose engine did not
// fail.
func checkResignedBy(t *testing.T, r *engineRun, tr *protocol.Transcript, failed string) {
	t.Helper()
	c, err := engine.ParseColor(failed)
	if err != nil {
		t.Fatal(err)
	}
	want := engine.Result{Winner: c.Opponent(), By: engine.ByResignation}.String()
	if r.results[0][2] != want {
		t.Errorf("result %s, want %s: the failing engine's side (%s) resigns", r.results[0][2], want, failed)
	}
	if rep := protocol.Verify(tr); rep.Violation != nil {
		t.Errorf("the record blames a side: %v", rep.Violation)
	}
}

// TestGTPD7SilentEngine (GTP-D7): an engine that stops answering in the
// middle of a game ends it, never hangs it. In a game with a clock it
// loses on time, and the bot says it stopped the engine; in a game
// without one its side resigns after --engine-timeout, with a line
// naming the engine and the reason. The records verify.
func TestGTPD7SilentEngine(t *testing.T) {
	t.Parallel()
	t.Run("clock", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		engines := [2]string{
			testEngine("log="+filepath.Join(dir, "a.log"), "seed=2"),
			testEngine("log="+filepath.Join(dir, "b.log"), "seed=1", "silent-after=3"),
		}
		r := playEngines(t, []string{"--variant", "go", "--size", "5", "--time", stretchedClock(3 * time.Second)}, engines, [2][]string{}, 60*time.Second, nil)
		tr := r.verify(t, protocol.Invitee)
		line := r.procs[1].waitLine(t, regexp.MustCompile(`^engine stopped: game \S+: "gtp:.*silent-after=3": genmove (black|white): stopped after \S+ without an answer: the game ended \((\S+)\)$`), 10*time.Second)
		c, _ := engine.ParseColor(line[1])
		if want := (engine.Result{Winner: c.Opponent(), By: engine.ByTime}).String(); r.results[0][2] != want || line[2] != want {
			t.Errorf("result %s (%q), want %s: the silent engine's side (%s) loses on time", r.results[0][2], line[0], want, line[1])
		}
		if rep := protocol.Verify(tr); rep.Violation == nil || rep.Violation.Accused != protocol.Invitee {
			t.Errorf("the record does not show the silent engine's side (the invitee) lost on time: %v", rep.Violation)
		}
	})
	t.Run("no clock", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		engines := [2]string{
			testEngine("log="+filepath.Join(dir, "a.log"), "seed=2"),
			testEngine("log="+filepath.Join(dir, "b.log"), "seed=1", "silent-after=3"),
		}
		r := playEngines(t, []string{"--variant", "gomoku", "--size", "7"}, engines, [2][]string{nil, {"--engine-timeout", "2s"}}, 60*time.Second, nil)
		tr := r.verify(t)
		line := r.procs[1].waitLine(t, regexp.MustCompile(`^engine failed: game \S+: "gtp:.*silent-after=3": genmove (black|white): no answer within [0-9.]+s \(the engine's standard error is in \S+\); its side resigns$`), 5*time.Second)
		checkResignedBy(t, r, tr, line[1])
	})
}

// TestGTPD5EngineFlags (GTP-D5, GTP-D10): in kakure bot and kakure play,
// --engine and --level exclude each other, --engine takes only a GTP
// engine, --engine-timeout needs --engine, and `kakure help` says so; an
// engine that does not answer GTP stops the program before it plays (the
// bot before its node is up, play before its screen opens).
func TestGTPD5EngineFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--engine", "gtp:/usr/games/gnugo --mode gtp", "--level", "2"}, 2, "--engine and --level exclude each other"},
		{[]string{"--engine", "bot:2"}, 2, "want gtp:COMMAND"},
		{[]string{"--engine", "gtp:"}, 2, "needs the engine's command"},
		{[]string{"--engine-timeout", "5s"}, 2, "give --engine"},
		{[]string{"--engine", "gtp:x", "--engine-timeout", "0s"}, 2, "--engine-timeout must be positive"},
		{[]string{"--engine", "gtp:cat"}, 1, "does not answer GTP"},
		{[]string{"--engine", "gtp:/nonexistent/gnugo"}, 1, "start /nonexistent/gnugo"},
	} {
		for _, command := range []string{"bot", "play"} {
			code, out := runCommand(t, append([]string{command, "--home", t.TempDir(), "--listen", anyLoopbackPort}, tc.args...)...)
			if code != tc.code || !strings.Contains(out, tc.want) {
				t.Errorf("%s %q: exit %d, want %d with %q:\n%s", command, tc.args, code, tc.code, tc.want, out)
			}
			if strings.Contains(out, "peer ID:") || strings.Contains(out, "engine: gtp:") {
				t.Errorf("%s %q: the bot started:\n%s", command, tc.args, out)
			}
		}
	}
	for _, command := range []string{"bot", "play"} {
		code, out := runCommand(t, "help", command)
		if code != 0 || !strings.Contains(out, "-engine gtp:COMMAND") || !strings.Contains(out, "not with --level") || !strings.Contains(out, "-engine-timeout") {
			t.Errorf("kakure help %s (exit %d) does not document --engine:\n%s", command, code, out)
		}
	}
}
