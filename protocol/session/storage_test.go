package session_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// crashAfter says where TestT3CrashAtEveryWritePoint stops a peer, and
// whether the crash loses part of what was written and not synced.
type crashAfter struct {
	where string // the hook: "secrets-appended", "record-appended", "saved"
	file  string // the file torn: "secrets", "record" or ""
	nth   int32  // the crash comes at the nth call of the hook
}

// TestT3CrashAtEveryWritePoint stops a peer (an injected panic stops its
// game's loop as a crash would) at each write point of its storage:
// after appending the change of its secrets and before syncing it, after
// appending to its record and before syncing it (in both cases the
// unsynced last line is then torn, as a power cut can leave it, or cut
// whole), and after the sync before the message is sent. Each time the
// game is resumed from the files and completes; both peers' records are
// valid, hold the same messages (nothing sent was lost, nothing signed
// twice: T-3) and end as the JSON document of docs/record.md. In plain
// Go, F-Go and Hidden Move Go in the full tier (KAKURE_TEST_FULL=1); by
// default and under the race detector in Hidden Move Go only.
func TestT3CrashAtEveryWritePoint(t *testing.T) {
	t.Parallel() // computes and shares nothing: runs beside the tests that wait
	// The first change of the secrets (in plain Go the coin toss's
	// opening is the only one) and a later one; two appends to the
	// record and one message saved.
	cases := []crashAfter{{"secrets-appended", "secrets", 1}, {"secrets-appended", "secrets", 2},
		{"record-appended", "record", 4}, {"record-appended", "record", 7}, {"saved", "", 4}}
	for _, variant := range []engine.Variant{engine.VariantGo, engine.VariantFGo, engine.VariantHMG} {
		if !testenv.Full() && variant != engine.VariantHMG {
			continue
		}
		for _, c := range cases {
			if variant == engine.VariantGo && c.file == "secrets" && c.nth > 1 {
				continue
			}
			for _, tear := range []string{"torn", "whole"} {
				if c.file == "" && tear == "torn" {
					continue
				}
				t.Run(fmt.Sprintf("%s/%s-%d/%s", variant, c.where, c.nth, tear), func(t *testing.T) {
					parallelUnlessRace(t) // each crash its own game (issue 32)
					crashAndResume(t, variant, c, tear == "torn")
				})
			}
		}
	}
}

func crashAndResume(t *testing.T, variant engine.Variant, c crashAfter, tear bool) {
	var armed atomic.Bool
	var calls, panics atomic.Int32
	nth := c.nth
	// lastLine is where the last line of the torn file starts, when the
	// hook ran: the line the crash loses part of.
	var lastLine atomic.Int64
	p := newPair(t, func(i int, cfg *session.Config) {
		if i != 0 {
			return
		}
		session.SetPanicHook(cfg, func(g *session.Game, at string) {
			if at != c.where || !armed.Load() {
				return
			}
			if calls.Add(1) != nth {
				return
			}
			if c.file != "" {
				data, err := os.ReadFile(filePath(g, c.file))
				if err == nil {
					lastLine.Store(int64(bytes.LastIndexByte(data[:len(data)-1], '\n') + 1))
				}
			}
			panics.Add(1)
			panic(panicValue)
		})
	})
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(60*time.Second))
	defer cancel()
	o := engine.Options{Variant: variant, Size: 5}
	if variant == engine.VariantHMG {
		o.Cards = 2
	}
	var theirs *session.Game
	var theirOut *protocol.Outcome
	var theirErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case theirs = <-p.services[1].Accepted():
			theirOut, theirErr = bot.Run(ctx, theirs, quickBot(7, 12))
		case <-ctx.Done():
		}
	}()
	armed.Store(true)
	g, err := p.services[0].Invite(ctx, p.hosts[1].ID(), o)
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	id := g.ID()
	go bot.Run(ctx, g, quickBot(3, 12))
	if err := g.Wait(ctx); err != nil {
		t.Fatalf("the game did not stop: %v", err)
	}
	if panics.Load() != 1 {
		t.Fatalf("%d crashes injected, want 1 (the game ended first: %+v)", panics.Load(), g.Outcome())
	}
	armed.Store(false)
	g.Close()
	if c.file != "" {
		path := filePath(g, c.file)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		start := int(lastLine.Load())
		cut := start // the whole line lost
		if tear {
			// Part of the line reached the disk, and perhaps zeros.
			r := rand.New(rand.NewPCG(uint64(len(data)), 1))
			cut = start + 1 + r.IntN(len(data)-start-2)
			data = append(data[:cut:cut], make([]byte, r.IntN(3)*7)...)
		} else {
			data = data[:cut]
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s file cut at %d of a line starting at %d", c.file, cut, start)
	}
	resumed, err := p.services[0].Resume(ctx, id)
	if err != nil {
		t.Fatalf("Resume: %v", err)
	}
	out, err := bot.Run(ctx, resumed, quickBot(3, 12))
	if err != nil || out == nil || out.Violation != nil {
		t.Fatalf("the resumed game: outcome %+v, err %v", out, err)
	}
	wg.Wait()
	if theirErr != nil || theirOut == nil || theirOut.Result != out.Result {
		t.Fatalf("the peers disagree: %+v, %+v (%v)", out, theirOut, theirErr)
	}
	checkRecords(t, resumed, theirs)
	var trs [2]*protocol.Transcript
	for i, g := range []*session.Game{resumed, theirs} {
		g.Close()
		data, err := os.ReadFile(g.RecordPath())
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(data) {
			t.Errorf("the %s's finished record is not one JSON document", g.Role())
		}
		if trs[i], err = protocol.ParseTranscript(data); err != nil {
			t.Fatal(err)
		}
	}
	if !sameTranscript(trs[0], trs[1]) {
		t.Errorf("the records differ: %d and %d messages", len(trs[0].Messages), len(trs[1].Messages))
	}
}

// filePath returns the path of a game's record or secrets file.
func filePath(g *session.Game, which string) string {
	path := g.RecordPath()
	if which == "secrets" {
		path = strings.TrimSuffix(path, ".record.json") + ".secrets.json"
	}
	return path
}

// TestT3TornLogReadsAsItsCompleteLines cuts a record in the log form at
// every byte of its last line and at random places before, with
// and without zeros after the cut (what a crash between an append and
// its sync can leave): it reads as exactly the messages of its complete
// lines (ErrNoGame before the first one), never as anything else.
func TestT3TornLogReadsAsItsCompleteLines(t *testing.T) {
	t.Parallel() // computes and shares nothing: runs beside the tests that wait
	orig, err := protocol.ParseTranscript(testRecordFiles(t)["go-resign"])
	if err != nil {
		t.Fatal(err)
	}
	// The log of the unfinished game: without the closing line.
	data, err := orig.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.TrimSuffix(data, []byte("]}\n"))
	lineEnds := []int{}
	for i, c := range data {
		if c == '\n' {
			lineEnds = append(lineEnds, i+1)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	var cuts []int
	for c := lineEnds[len(lineEnds)-2]; c <= len(data); c++ {
		cuts = append(cuts, c)
	}
	for range 30 {
		cuts = append(cuts, r.IntN(len(data)))
	}
	for _, c := range cuts {
		for _, zeros := range []int{0, 9 * (c % 2)} {
			cut := append(bytes.Clone(data[:c]), make([]byte, zeros)...)
			complete := 0 // message lines wholly before the cut
			for _, e := range lineEnds[1:] {
				if e <= c {
					complete++
				}
			}
			tr, err := protocol.ParseTranscript(cut)
			if complete == 0 {
				if !errors.Is(err, protocol.ErrNoGame) {
					t.Fatalf("cut at %d of %d: %v, want ErrNoGame", c, len(data), err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("cut at %d of %d (%d zeros): %v", c, len(data), zeros, err)
			}
			if len(tr.Messages) != complete || !prefixTranscript(tr, orig) {
				t.Fatalf("cut at %d of %d: %d messages, want the first %d", c, len(data), len(tr.Messages), complete)
			}
		}
	}
}
