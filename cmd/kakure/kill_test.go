package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// killVariants are the games of the kill campaign, in turn.
var killVariants = [][]string{
	{"--variant", "go", "--size", "9"},
	{"--variant", "fgo", "--size", "7"},
	{"--variant", "hmg", "--size", "9", "--cards", "3"},
	{"--variant", "gomoku", "--size", "9"},
	{"--variant", "bridge", "--size", "7"},
	{"--variant", "phantom", "--size", "5", "--rules", "hamburg"},
}

// killDelay bounds the random wait before each kill of a game of the
// variant: the games last one to a few seconds, Phantom Go 5×5 about five
// (its reveal, audit and scoring come last).
func killDelay(variant string) time.Duration {
	if variant == "phantom" {
		return 1000 * time.Millisecond
	}
	return 300 * time.Millisecond
}

var (
	resultLine   = regexp.MustCompile(`^game ([0-9a-f]+): (.*) record=`)
	peerIDLine   = regexp.MustCompile(`^peer ID: (\S+)`)
	notResumed   = regexp.MustCompile(`^records not resumed: .*corrupt record`)
	resumingLine = regexp.MustCompile(`^resuming game`)
)

// killPeer is one side of a campaign game: its home, its address (the
// port its first process took, anyLoopbackPort before) and the processes
// it ran, the last one alive.
type killPeer struct {
	name   string
	home   string
	listen string
	procs  []*process
}

func (k *killPeer) last() *process { return k.procs[len(k.procs)-1] }

// result returns the result line any of the peer's processes printed.
func (k *killPeer) result() []string {
	for _, p := range k.procs {
		p.mu.Lock()
		for _, l := range p.lines {
			if m := resultLine.FindStringSubmatch(l); m != nil {
				p.mu.Unlock()
				return m
			}
		}
		p.mu.Unlock()
	}
	return nil
}

// has reports whether p printed a line matching re.
func (p *process) has(re *regexp.Regexp) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.lines {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// output returns all that p printed.
func (p *process) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
}

// kill sends SIGKILL to the peer's process and waits for it to be gone.
func (k *killPeer) kill(t *testing.T) {
	t.Helper()
	p := k.last()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Fatal(err)
	}
	<-p.done
}

// start starts the peer's first process, on a port it takes itself, and
// notes the address.
func (k *killPeer) start(t *testing.T, seed uint64, args ...string) *process {
	t.Helper()
	p := startKakure(t, append([]string{"bot", "--home", k.home, "--listen", anyLoopbackPort, "--seed", strconv.FormatUint(seed, 10)}, args...)...)
	k.procs = append(k.procs, p)
	k.listen = p.listenAddr(t)
	return p
}

// restart starts the peer again on its home and address.
func (k *killPeer) restart(t *testing.T, seed uint64) *process {
	t.Helper()
	p := restartKakure(t, k.listen, "bot", "--home", k.home, "--seed", strconv.FormatUint(seed, 10))
	k.procs = append(k.procs, p)
	// An unfinished game is resumed (or reported) right after the start;
	// a game that ended before the kill is not.
	// (A resume missed here under load is only missing from the count.)
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) && !p.has(resumingLine) && !p.has(notResumed) {
		time.Sleep(50 * time.Millisecond)
	}
	return p
}

// killStats counts what a campaign did.
type killStats struct {
	kills, torn, games, resumed int
}

// TestT11KillCampaign plays games of mixed variants between two real
// `kakure bot` processes and SIGKILLs one peer or the other at random
// moments (seeded), restarting it each time, until the game is over:
// every game must complete with both records valid and identical, message
// for message (no move lost or duplicated). In one game the killed
// peer's record is damaged before the restart: the restart must report
// it and not resume it (LIM-D7); the intact record is then put back with
// a torn last line (T-3), and the game goes on. KAKURE_KILL_GAMES sets the number of games (3, 6 in the
// full tier, KAKURE_TEST_FULL=1; no Phantom Go under -race), KAKURE_KILL_VARIANTS a comma list of
// variants, KAKURE_KILL_SEED the seed (logged), KAKURE_KILL_KEEP_GOING=1
// plays on after a failed game.
func TestT11KillCampaign(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	// Its own processes and homes, nothing shared: it runs beside the
	// tests that wait (kakureParallel), not before them.
	t.Parallel()
	games := testenv.Size(3, 6)
	variants := killVariants
	if raceEnabled && os.Getenv("KAKURE_KILL_GAMES") == "" && os.Getenv("KAKURE_KILL_VARIANTS") == "" {
		// The race detector makes a Phantom Go game take half a minute
		// or more: the full tier plays the whole campaign.
		variants = killVariants[:len(killVariants)-1]
	}
	if s := os.Getenv("KAKURE_KILL_GAMES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("KAKURE_KILL_GAMES=%q", s)
		}
		games = n
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("KAKURE_KILL_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("KAKURE_KILL_SEED=%q", s)
		}
	}
	t.Logf("KAKURE_KILL_SEED=%d", seed)
	if s := os.Getenv("KAKURE_KILL_VARIANTS"); s != "" {
		variants = nil
		for _, v := range killVariants {
			if slices.Contains(strings.Split(s, ","), v[1]) {
				variants = append(variants, v)
			}
		}
	}
	var st killStats
	start := time.Now()
	for i := 0; i < games; i++ {
		variant := variants[i%len(variants)]
		torn := i == 1
		ok := t.Run(fmt.Sprintf("%d-%s", i, variant[1]), func(t *testing.T) {
			killGame(t, rand.New(rand.NewPCG(seed, uint64(i))), i, variant, torn, &st)
		})
		if !ok && os.Getenv("KAKURE_KILL_KEEP_GOING") == "" {
			break
		}
	}
	t.Logf("%d games completed of %d, %d kills injected (%d with a torn record), %d resumes, in %s",
		st.games, games, st.kills, st.torn, st.resumed, time.Since(start).Round(time.Second))
}

// killGame plays one game of the campaign.
func killGame(t *testing.T, rng *rand.Rand, i int, variant []string, torn bool, st *killStats) {
	a := &killPeer{name: "A", home: t.TempDir()}
	b := &killPeer{name: "B", home: t.TempDir()}
	defer func() {
		if t.Failed() {
			for _, k := range []*killPeer{a, b} {
				for j, p := range k.procs {
					t.Logf("%s process %d:\n%s", k.name, j, p.output())
				}
				if log, err := os.ReadFile(filepath.Join(k.home, "games.log")); err == nil {
					t.Logf("%s games.log:\n%s", k.name, log)
				}
			}
		}
	}()
	id := b.start(t, 2*uint64(i)+1).waitLine(t, peerIDLine, time.Second)[1]
	pa := a.start(t, 2*uint64(i), append([]string{"--invite", b.listen + "/p2p/" + id}, variant...)...)
	pa.waitLine(t, regexp.MustCompile(`^game \S+ started`), 20*time.Second)

	over := func() bool { return a.result() != nil || b.result() != nil }
	kills := 1 + rng.IntN(4)
	for k := 0; k < kills; k++ {
		victim := []*killPeer{a, b}[(i+k)%2]
		delay := killDelay(variant[1])
		if torn && k == 0 {
			delay = 100 * time.Millisecond // before the game can end
		}
		time.Sleep(time.Duration(rng.Int64N(int64(delay))))
		if over() {
			break
		}
		victim.kill(t)
		st.kills++
		if torn && k == 0 {
			tearRecord(t, victim, rng, st)
		}
		p := victim.restart(t, uint64(1000*i+10*k+3))
		if p.has(resumingLine) {
			st.resumed++
		}
	}
	ra, rb := waitResult(t, a), waitResult(t, b)
	if ra[1] != rb[1] || ra[2] != rb[2] {
		t.Fatalf("the peers disagree: A %q, B %q", ra[0], rb[0])
	}
	sameRecords(t, a.home, b.home, ra[2])
	st.games++
}

// tearRecord damages the victim's record inside (a byte of a message
// line before the last changed), restarts the victim on it, checks that
// the restart reports the record and does not resume it (LIM-D7), and
// puts the intact record back (killing that process too). It then leaves
// a torn last line on the record and the secrets file, as a power cut
// between an append and its sync can: part of a line, then zeros. The
// next restart must drop them and resume (T-3: nothing in them was sent).
func tearRecord(t *testing.T, victim *killPeer, r *rand.Rand, st *killStats) {
	t.Helper()
	_, path := recordMessages(victim.home)
	if path == "" {
		t.Fatalf("%s has no record to tear", victim.name)
	}
	intact, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(intact), "\n")
	if len(lines) < 4 {
		t.Fatalf("%s's record has %d lines", victim.name, len(lines))
	}
	// A line of a message (not the head, not the last one): one of its
	// signature's characters changed.
	i := 1 + r.IntN(len(lines)-3)
	sig := strings.LastIndex(lines[i], `"sig":"`) + 10
	damaged := []byte(strings.Join(lines[:i], "") + lines[i][:sig] + "!" + lines[i][sig+1:] + strings.Join(lines[i+1:], ""))
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	p := victim.restart(t, 99)
	p.waitLine(t, notResumed, 20*time.Second)
	if p.has(resumingLine) {
		t.Fatalf("the damaged record was resumed:\n%s", p.output())
	}
	victim.kill(t)
	last := lines[len(lines)-2]
	torn := append([]byte(strings.Join(lines[:len(lines)-1], "")+last[:len(last)/2]), make([]byte, 1+r.IntN(64))...)
	if err := os.WriteFile(path, torn, 0o600); err != nil {
		t.Fatal(err)
	}
	secrets := strings.TrimSuffix(path, ".record.json") + ".secrets.json"
	if data, err := os.ReadFile(secrets); err == nil {
		if err := os.WriteFile(secrets, append(data, `{"variant":{"`...), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	st.torn++
}

// waitResult waits for the result line of the peer's game.
func waitResult(t *testing.T, k *killPeer) []string {
	t.Helper()
	deadline := testenv.Deadline(120 * time.Second)
	for time.Now().Before(deadline) {
		if r := k.result(); r != nil {
			return r
		}
		// Killed after its record was complete and before it printed
		// the result: the record says it, and the restart has nothing
		// to resume.
		if p := k.last(); len(k.procs) > 1 && !p.has(resumingLine) && !p.has(notResumed) {
			if _, path := recordMessages(k.home); path != "" {
				if tr, err := session.LoadTranscript(path); err == nil {
					if rep := protocol.Verify(tr); rep.Outcome != nil {
						id := strings.TrimSuffix(filepath.Base(path), ".record.json")
						return []string{"record of " + id, id, rep.Outcome.Result.String()}
					}
				}
			}
		}
		select {
		case <-k.last().done:
			if r := k.result(); r != nil {
				return r
			}
			t.Fatalf("%s's last process ended without a result", k.name)
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatalf("%s printed no result", k.name)
	return nil
}

// sameRecords checks that both peers' records are valid, end with result
// and hold exactly the same messages, with no gap and no repeat.
func sameRecords(t *testing.T, homeA, homeB, result string) {
	t.Helper()
	var trs [2]*protocol.Transcript
	for i, home := range []string{homeA, homeB} {
		paths, _ := filepath.Glob(filepath.Join(home, "games", "*.record.json"))
		if len(paths) != 1 {
			t.Fatalf("%s holds %d records", home, len(paths))
		}
		tr, err := session.LoadTranscript(paths[0])
		if err != nil {
			t.Fatalf("record %s: %v", paths[0], err)
		}
		rep := protocol.Verify(tr)
		if rep.Violation != nil || rep.Outcome == nil || rep.Outcome.Result.String() != result {
			t.Fatalf("verify %s: %+v (want result %s)", paths[0], rep, result)
		}
		trs[i] = tr
	}
	if len(trs[0].Messages) != len(trs[1].Messages) {
		t.Fatalf("A holds %d messages, B %d", len(trs[0].Messages), len(trs[1].Messages))
	}
	for r := protocol.Inviter; r <= protocol.Invitee; r++ {
		n := 0
		for _, m := range trs[0].Messages {
			if m.From == r {
				n++
			}
		}
		if uint64(n) != trs[0].Count(r) {
			t.Fatalf("%s sent %d messages, numbered up to %d", r, n, trs[0].Count(r))
		}
		for seq := uint64(0); seq < trs[0].Count(r); seq++ {
			ma, mb := trs[0].Find(r, seq), trs[1].Find(r, seq)
			if ma == nil || mb == nil || ma.Hash() != mb.Hash() {
				t.Fatalf("message %s/%d differs between the records", r, seq)
			}
		}
	}
}
