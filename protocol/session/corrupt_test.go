package session_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"

	"github.com/kakure/kakure/internal/testenv"
)

// testRecordFiles returns the records of testdata/records, by name.
func testRecordFiles(t *testing.T) map[string][]byte {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "records", "*.record.json"))
	if len(paths) == 0 {
		t.Fatal("no records in testdata/records")
	}
	files := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[strings.TrimSuffix(filepath.Base(p), ".record.json")] = data
	}
	return files
}

// sameTranscript reports whether a and b hold the same game, peers and
// signed messages in the same order.
func sameTranscript(a, b *protocol.Transcript) bool {
	if a.Game != b.Game || a.Peers != b.Peers || len(a.Messages) != len(b.Messages) {
		return false
	}
	for i := range a.Messages {
		if a.Messages[i].Hash() != b.Messages[i].Hash() || !bytes.Equal(a.Messages[i].Sig, b.Messages[i].Sig) {
			return false
		}
	}
	return true
}

// crossedTranscript reports whether a holds b's game, peers and signed
// messages, each peer's in its order, interleaved otherwise: two
// messages that crossed (each sent before its sender saw the other, as
// their acks show) recorded in the other order, which LoadTranscript
// takes and REC-D15 judges alike.
func crossedTranscript(a, b *protocol.Transcript) bool {
	if a.Game != b.Game || a.Peers != b.Peers || len(a.Messages) != len(b.Messages) {
		return false
	}
	var byPeer [2][]protocol.Message
	for _, m := range b.Messages {
		byPeer[m.From] = append(byPeer[m.From], m)
	}
	var next [2]int
	for _, m := range a.Messages {
		mine := byPeer[m.From]
		i := next[m.From]
		if i >= len(mine) || m.Hash() != mine[i].Hash() || !bytes.Equal(m.Sig, mine[i].Sig) {
			return false
		}
		next[m.From]++
	}
	return true
}

// prefixTranscript reports whether a holds b's game, peers and first
// signed messages.
func prefixTranscript(a, b *protocol.Transcript) bool {
	if a.Game != b.Game || a.Peers != b.Peers || len(a.Messages) > len(b.Messages) {
		return false
	}
	for i := range a.Messages {
		if a.Messages[i].Hash() != b.Messages[i].Hash() || !bytes.Equal(a.Messages[i].Sig, b.Messages[i].Sig) {
			return false
		}
	}
	return true
}

// messageLines returns the byte ranges of the message lines of a record
// (one message a line: in the older form each but the last followed by a
// comma, in the form of the log each but the first after a comma).
func messageLines(data []byte) [][2]int {
	var lines [][2]int
	start := 0
	for i, c := range data {
		if c != '\n' {
			continue
		}
		line := data[start:i]
		if bytes.HasPrefix(line, []byte(` {"game"`)) || bytes.HasPrefix(line, []byte(`,{"game"`)) {
			lines = append(lines, [2]int{start, i + 1})
		}
		start = i + 1
	}
	return lines
}

// corruptions damage a record as a crash, a disk or a hand might: each
// returns the damaged copy.
var corruptions = []struct {
	name string
	do   func(r *rand.Rand, data []byte) []byte
}{
	{"torn (truncated)", func(r *rand.Rand, data []byte) []byte { return data[:r.IntN(len(data))] }},
	{"byte changed", func(r *rand.Rand, data []byte) []byte {
		d := bytes.Clone(data)
		d[r.IntN(len(d))] ^= byte(1 + r.IntN(255))
		return d
	}},
	{"bit flipped", func(r *rand.Rand, data []byte) []byte {
		d := bytes.Clone(data)
		d[r.IntN(len(d))] ^= 1 << r.IntN(8)
		return d
	}},
	{"byte deleted", func(r *rand.Rand, data []byte) []byte {
		i := r.IntN(len(data))
		return append(bytes.Clone(data[:i]), data[i+1:]...)
	}},
	{"byte inserted", func(r *rand.Rand, data []byte) []byte {
		i := r.IntN(len(data))
		return append(append(bytes.Clone(data[:i]), byte(r.IntN(256))), data[i:]...)
	}},
	{"message dropped", func(r *rand.Rand, data []byte) []byte {
		lines := messageLines(data)
		l := lines[r.IntN(len(lines))]
		return append(bytes.Clone(data[:l[0]]), data[l[1]:]...)
	}},
	{"message repeated", func(r *rand.Rand, data []byte) []byte {
		lines := messageLines(data)
		l := lines[r.IntN(len(lines))]
		return append(bytes.Clone(data[:l[1]]), data[l[0]:]...)
	}},
	{"messages swapped", func(r *rand.Rand, data []byte) []byte {
		lines := messageLines(data)
		i := r.IntN(len(lines) - 1)
		a, b := lines[i], lines[i+1]
		d := bytes.Clone(data[:a[0]])
		d = append(d, data[b[0]:b[1]]...)
		d = append(d, data[a[0]:a[1]]...)
		return append(d, data[b[1]:]...)
	}},
}

// corruptionsPerKind is how many damaged copies of each record each kind
// of damage makes: 6 in the full tier (KAKURE_TEST_FULL=1), 2 by default,
// 1 under the race detector (which finds nothing in this single-threaded
// reading), or KAKURE_CORRUPTIONS for a longer run.
func corruptionsPerKind(t *testing.T) int {
	if s := os.Getenv("KAKURE_CORRUPTIONS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("KAKURE_CORRUPTIONS=%q", s)
		}
		return n
	}
	if testenv.Race && !testenv.Full() {
		return 1
	}
	return testenv.Size(2, 6)
}

// TestT3CorruptRecordsDetected damages each test record a few hundred
// ways (torn at random points, bytes changed, flipped, deleted, inserted,
// messages dropped, repeated or swapped), in the form it was written in
// and in the log form this program writes now: LoadTranscript reports
// every copy as an error, except copies that still hold exactly the same
// signed messages (a change in white space or in the case of a JSON key;
// or two messages that crossed, swapped, as their acks allow: REC-D15)
// and copies that read as the first messages of the record only (a torn
// last line is what a crash leaves, and is dropped; a record whose last
// message line is dropped is the record of the game one message before:
// a shorter record is never another game, and Verify calls it
// unfinished). A damaged record is never read as another game.
func TestT3CorruptRecordsDetected(t *testing.T) {
	t.Parallel() // computes and shares nothing: runs beside the tests that wait
	files := testRecordFiles(t)
	names := make([]string, 0, 2*len(files))
	for n, data := range files {
		names = append(names, n)
		tr, err := protocol.ParseTranscript(data)
		if err != nil {
			t.Fatal(err)
		}
		if files[n+" (log form)"], err = tr.MarshalJSON(); err != nil {
			t.Fatal(err)
		}
		names = append(names, n+" (log form)")
	}
	sort.Strings(names)
	dir := t.TempDir()
	for _, name := range names {
		data := files[name]
		orig, err := protocol.ParseTranscript(data)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(len(data)), 7))
		for _, c := range corruptions {
			detected, harmless, cut := 0, 0, 0
			// Each kind makes its count of damaged copies that are no
			// longer the same record: a copy that still holds the same
			// signed messages (white space deleted) is counted as
			// harmless and drawn again, up to twenty times the count,
			// so that a tier of one copy a kind still damages.
			for want, drawn := corruptionsPerKind(t), 0; detected+cut < want && drawn < 20*want; drawn++ {
				bad := c.do(r, data)
				path := filepath.Join(dir, "damaged.record.json")
				if err := os.WriteFile(path, bad, 0o600); err != nil {
					t.Fatal(err)
				}
				tr, err := session.LoadTranscript(path)
				switch {
				case err != nil:
					detected++
					if !strings.Contains(err.Error(), path) {
						t.Errorf("%s, %s: the error %q does not name the file", name, c.name, err)
					}
				case sameTranscript(tr, orig), crossedTranscript(tr, orig):
					harmless++
				case prefixTranscript(tr, orig):
					cut++
				default:
					t.Errorf("%s, %s: a damaged record reads as %d other messages:\n%s", name, c.name, len(tr.Messages), bad)
				}
			}
			if detected+cut == 0 {
				t.Errorf("%s, %s: no damage detected", name, c.name)
			}
			t.Logf("%s, %s: %d detected, %d harmless, %d read up to the cut", name, c.name, detected, harmless, cut)
		}
	}
}

// TestT3UnfinishedReportsCorruptRecords: Service.Unfinished lists the
// unfinished games whose records are sound (a torn last line, what a
// crash leaves, is dropped), leaves out finished ones, and reports (never
// lists) damaged records; Resume refuses them.
func TestT3UnfinishedReportsCorruptRecords(t *testing.T) {
	files := testRecordFiles(t)
	dir := t.TempDir()
	prefix := func(name string, k int) *protocol.Transcript {
		tr, err := protocol.ParseTranscript(files[name])
		if err != nil {
			t.Fatal(err)
		}
		p := protocol.NewTranscript(tr.Game, tr.Peers[0], tr.Peers[1])
		for _, m := range tr.Messages[:k] {
			if err := p.Append(m); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	save := func(tr *protocol.Transcript, damage func([]byte) []byte) {
		data, err := tr.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if damage != nil {
			data = damage(data)
		}
		if err := os.WriteFile(filepath.Join(dir, tr.Game.String()+".record.json"), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	unfinished := prefix("hmg", 12)
	save(unfinished, nil)
	full, _ := protocol.ParseTranscript(files["go"])
	save(full, nil) // finished: not listed
	// A torn last line is what a crash between an append and its sync
	// leaves: never sent, it is dropped and the game resumed.
	torn := prefix("fgo", 20)
	save(torn, func(d []byte) []byte { return d[:len(d)*2/3] })
	// A line damaged inside the log, with whole lines after it, is no
	// crash: the record is corrupt.
	cutInside := prefix("gomoku", 12)
	save(cutInside, func(d []byte) []byte {
		i := len(d) / 2
		return append(d[:i:i], d[i+20:]...)
	})
	flipped := prefix("bridge", 15)
	save(flipped, func(d []byte) []byte {
		i := bytes.LastIndex(d, []byte(`"sig":"`)) + 10
		d[i] ^= 0x01
		return d
	})

	svc, err := session.NewService(session.Config{Host: newHost(t), Dir: dir, Logger: testLogger(t, 0)})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ids, err := svc.Unfinished()
	slices.SortFunc(ids, func(a, b protocol.GameID) int { return strings.Compare(a.String(), b.String()) })
	want := []protocol.GameID{unfinished.Game, torn.Game}
	slices.SortFunc(want, func(a, b protocol.GameID) int { return strings.Compare(a.String(), b.String()) })
	if !slices.Equal(ids, want) {
		t.Errorf("Unfinished lists %v, want %v", ids, want)
	}
	if !errors.Is(err, session.ErrCorruptRecord) {
		t.Fatalf("Unfinished error %v, want ErrCorruptRecord", err)
	}
	for _, id := range []protocol.GameID{cutInside.Game, flipped.Game} {
		if !strings.Contains(err.Error(), id.String()) {
			t.Errorf("the error does not name the damaged record of %s: %v", id, err)
		}
		if g, err := svc.Resume(t.Context(), id); err == nil || g != nil {
			t.Errorf("Resume of the damaged record %s: %v, %v", id, g, err)
		}
	}
}
