package session_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol/session"
)

// goroutineLabel is the profiler label that names the test a goroutine
// belongs to.
const goroutineLabel = "kakure-test"

// trackedTests holds the names of the tests that called trackGoroutines.
var trackedTests sync.Map

// trackGoroutines labels the test's goroutine with the test's name. A
// goroutine inherits the labels of the goroutine that starts it, so every
// goroutine the test starts from then on carries the label, and so do the
// goroutines those start: the libp2p hosts the test makes (their
// listeners, connections, streams and handlers) and the games of the
// services on them. goroutines and waitGoroutines count only those, so a
// test that checks that an attack leaves no goroutine behind can run
// beside other tests. Call it first, before the test makes a host.
func trackGoroutines(t *testing.T) {
	t.Helper()
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels(goroutineLabel, t.Name())))
	trackedTests.Store(t.Name(), true)
}

// ownGoroutines returns how many goroutines carry t's label, and the
// profile of those goroutines (their stacks, grouped).
func ownGoroutines(t *testing.T) (int, string) {
	t.Helper()
	if _, ok := trackedTests.Load(t.Name()); !ok {
		t.Fatalf("%s counts its goroutines without trackGoroutines", t.Name())
	}
	var b bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&b, 1); err != nil {
		t.Fatalf("goroutine profile: %v", err)
	}
	label := fmt.Sprintf("%q:%q", goroutineLabel, t.Name())
	n := 0
	var own strings.Builder
	for _, r := range profileRecords(b.String()) {
		if !strings.Contains(r.labels, label) {
			continue
		}
		n += r.count
		own.WriteString(r.text)
		own.WriteString("\n\n")
	}
	return n, own.String()
}

// goroutines returns the number of t's goroutines (see trackGoroutines)
// once it has stopped falling: goroutines of what the test did before may
// still be ending.
func goroutines(t *testing.T) int {
	t.Helper()
	n, _ := ownGoroutines(t)
	for range 20 {
		time.Sleep(50 * time.Millisecond)
		m, _ := ownGoroutines(t)
		if m >= n {
			return m
		}
		n = m
	}
	return n
}

// goroutineSlack is how many goroutines above the baseline are tolerated
// after an attack: libp2p keeps a few of its own per connection and peer
// (identify, the peerstore, yamux), which come and go on their own time.
const goroutineSlack = 12

// waitGoroutines waits for the number of t's goroutines (see
// trackGoroutines) to come back to at most baseline+extra+goroutineSlack,
// and fails with their stacks otherwise.
func waitGoroutines(t *testing.T, baseline, extra int) {
	t.Helper()
	limit := baseline + extra + goroutineSlack
	deadline := testenv.Deadline(10 * time.Second)
	n, dump := ownGoroutines(t)
	for n > limit && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		n, dump = ownGoroutines(t)
	}
	t.Logf("goroutines: %d before, %d after (limit %d)", baseline, n, limit)
	if n > limit || os.Getenv("KAKURE_DUMP") != "" {
		if len(dump) > 20000 {
			dump = dump[:20000]
		}
		t.Errorf("%d goroutines after the attack, %d before (limit %d):\n%s", n, baseline, limit, dump)
	}
}

// TestTrackGoroutinesSeesTheGames checks what the leak checks of the
// hostile-peer tests rest on: the goroutines a tracked test counts
// include those of the games its services run, on both sides (the
// victim's accepted from a stream libp2p handed it, the inviter's), and
// they end with the games. Were libp2p to start stream handlers from
// goroutines the test did not start, this fails, and the leak checks
// would count nothing of the games.
func TestTrackGoroutinesSeesTheGames(t *testing.T) {
	trackGoroutines(t)
	a := newArena(t, false, nil)
	baseline := goroutines(t)
	ctx, cancel := context.WithTimeout(a.ctx, testenv.Duration(30*time.Second))
	defer cancel()
	g, err := a.honest.Invite(ctx, a.vhost.ID(), engine.Options{Variant: engine.VariantGo, Size: 5})
	if err != nil {
		t.Fatal(err)
	}
	var vg *session.Game
	select {
	case vg = <-a.victim.Accepted():
	case <-ctx.Done():
		t.Fatal("the victim accepted no game")
	}
	n, dump := ownGoroutines(t)
	// Each side runs its game's loop, its stream reader and its event
	// pump: "(*Game).run" twice, "(*Game).useStream" (the reader) twice.
	for _, fn := range []string{"session.(*Game).run+", "session.(*Game).useStream.func1+"} {
		if c := goroutinesIn(dump, fn); c < 2 {
			t.Errorf("%d goroutines in %s among the test's %d (want one per side):\n%s", c, fn, n, dump)
		}
	}
	g.Close()
	vg.Close()
	waitGoroutines(t, baseline, 0)
}

// goroutinesIn counts the goroutines of a profile (as ownGoroutines
// returns it) whose stack holds fn.
func goroutinesIn(profile, fn string) int {
	n := 0
	for _, r := range profileRecords(profile) {
		if strings.Contains(r.text, fn) {
			n += r.count
		}
	}
	return n
}

// profileRecord is one record of a goroutine profile written with
// debug=1: count goroutines with the same labels and stack.
type profileRecord struct {
	count  int
	labels string // the "# labels: {...}" line, "" for none
	text   string // the whole record
}

// profileRecords splits a goroutine profile (debug=1) into its records,
// which blank lines separate: "N @ pc...", then "# labels: {...}" when
// the goroutines have labels, then their stack. The profile's header
// line ("goroutine profile: total N"), with no blank line after it, is
// left out.
func profileRecords(profile string) []profileRecord {
	if strings.HasPrefix(profile, "goroutine profile:") {
		_, profile, _ = strings.Cut(profile, "\n")
	}
	var records []profileRecord
	for _, text := range strings.Split(profile, "\n\n") {
		head, rest, _ := strings.Cut(text, "\n")
		count, _, ok := strings.Cut(head, " @ ")
		c, err := strconv.Atoi(count)
		if !ok || err != nil {
			continue
		}
		r := profileRecord{count: c, text: text}
		if line, _, _ := strings.Cut(rest, "\n"); strings.HasPrefix(line, "# labels: ") {
			r.labels = line
		}
		records = append(records, r)
	}
	return records
}
