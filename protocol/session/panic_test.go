package session_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
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

// panicValue is what the injected panics carry.
const panicValue = "injected panic (LIM-D9 test)"

// TestLIMD9PanicInAGame injects a panic in one game of a service, at each
// point where a game's code runs: its loop with the game's lock held (a
// message of the other peer applied to the machine), the player's
// automatic step, the event pump, the stream reader, and View in the
// caller's goroutine. Each time the process lives on; the game reports an
// error wrapping ErrPanic that names it and holds the panic value and a
// stack without argument values; its record stays valid and the game
// adjourned (Verify accepts the record, Unfinished lists it); another game
// on the same service completes meanwhile; the game, resumed once the bug
// is gone, completes; and the goroutines come back to their number.
func TestLIMD9PanicInAGame(t *testing.T) {
	t.Parallel()
	for _, where := range []string{"apply", "auto", "pump", "reader", "view"} {
		t.Run(where, func(t *testing.T) {
			parallelUnlessRace(t) // each panic its own game (issue 32)
			panicInAGame(t, where)
		})
	}
}

func panicInAGame(t *testing.T, where string) {
	trackGoroutines(t)
	var target atomic.Pointer[protocol.GameID]
	var calls, panics atomic.Int32
	var logs [2]*lockedBuffer
	p := newPair(t, debugLogs(&logs), func(i int, c *session.Config) {
		if i != 0 {
			return
		}
		session.SetPanicHook(c, func(g *session.Game, at string) {
			if id := target.Load(); at != where || id == nil || *id != g.ID() {
				return
			}
			if calls.Add(1) == 3 {
				panics.Add(1)
				panic(panicValue)
			}
		})
	})
	baseline := goroutines(t)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()

	// The other peer plays every game it is offered.
	type result struct {
		out *protocol.Outcome
		err error
	}
	var mu sync.Mutex
	theirs := map[protocol.GameID]*session.Game{}
	theirResults := map[protocol.GameID]chan result{}
	var bots sync.WaitGroup
	serve := make(chan struct{})
	go func() {
		defer close(serve)
		for i := range 2 {
			select {
			case g := <-p.services[1].Accepted():
				res := make(chan result, 1)
				mu.Lock()
				theirs[g.ID()], theirResults[g.ID()] = g, res
				mu.Unlock()
				bots.Add(1)
				go func() {
					defer bots.Done()
					out, err := bot.Run(ctx, g, bot.NewRandom(uint64(10+i)))
					res <- result{out, err}
				}()
			case <-ctx.Done():
				return
			}
		}
	}()
	o := engine.Options{Variant: engine.VariantGo, Size: 5}
	play := func(g *session.Game, seed uint64) chan result {
		res := make(chan result, 1)
		go func() {
			out, err := bot.Run(ctx, g, bot.NewRandom(seed))
			res <- result{out, err}
		}()
		return res
	}
	faulty, err := p.services[0].Invite(ctx, p.hosts[1].ID(), o)
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	id := faulty.ID()
	target.Store(&id)
	faultyRes := play(faulty, 1)
	other, err := p.services[0].Invite(ctx, p.hosts[1].ID(), o)
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	otherRes := play(other, 2)

	// The faulty game stops with the panic, and says so.
	if err := faulty.Wait(ctx); err != nil {
		t.Fatalf("the faulty game's loop did not stop: %v", err)
	}
	if panics.Load() != 1 {
		t.Fatalf("%d panics injected, want 1", panics.Load())
	}
	gerr := faulty.Err()
	t.Logf("the faulty game's error: %v", firstLineOf(gerr))
	checkPanicError(t, gerr, id)
	if r := <-faultyRes; r.out != nil {
		t.Errorf("the faulty game ended: %+v", r.out)
	} else if r.err != nil && !errors.Is(r.err, session.ErrPanic) && !errors.Is(r.err, engine.ErrGameOver) {
		t.Errorf("the faulty game's bot: %v", r.err)
	}
	// Its lock was let go: View answers, and says adjourned.
	views := make(chan protocol.View, 1)
	go func() { views <- faulty.View() }()
	select {
	case v := <-views:
		if !v.Adjourned || v.Outcome != nil {
			t.Errorf("view of the faulty game: adjourned %v, outcome %+v", v.Adjourned, v.Outcome)
		}
	case <-time.After(testenv.Duration(5 * time.Second)):
		t.Fatal("View of the faulty game blocks: the panic left its lock held")
	}
	if err := faulty.Do(protocol.Resign{}); !errors.Is(err, session.ErrPanic) {
		t.Errorf("Do on the faulty game: %v, want its error", err)
	}
	if !strings.Contains(logs[0].String(), panicValue) {
		t.Error("the log does not report the panic")
	}
	// Its record is valid, and the game adjourned, not lost.
	tr, err := session.LoadTranscript(faulty.RecordPath())
	if err != nil {
		t.Fatalf("the faulty game's record: %v", err)
	}
	if rep := protocol.Verify(tr); rep.Violation != nil || rep.Outcome != nil || rep.Messages != len(tr.Messages) {
		t.Errorf("Verify on the faulty game's record: %+v", rep)
	}
	if ids, err := p.services[0].Unfinished(); err != nil || !slices.Contains(ids, id) {
		t.Errorf("Unfinished = %v, %v; want the faulty game", ids, err)
	}

	// The other game on the same service completes.
	r := <-otherRes
	if r.err != nil || r.out == nil || r.out.Violation != nil {
		t.Fatalf("the other game: outcome %+v, err %v", r.out, r.err)
	}
	mu.Lock()
	theirOther, theirOtherRes := theirs[other.ID()], theirResults[other.ID()]
	theirFaulty, theirFaultyRes := theirs[id], theirResults[id]
	mu.Unlock()
	if tr := <-theirOtherRes; tr.out == nil || tr.out.Result != r.out.Result {
		t.Errorf("the peers disagree on the other game: %+v, %+v", r.out, tr.out)
	}
	checkRecords(t, other, theirOther)

	// With the bug gone, the faulty game is closed and resumed: it
	// completes from its record.
	target.Store(nil)
	faulty.Close()
	resumed, err := p.services[0].Resume(ctx, id)
	if err != nil {
		t.Fatalf("Resume: %v", err)
	}
	out, err := bot.Run(ctx, resumed, bot.NewRandom(3))
	if err != nil || out == nil || out.Violation != nil {
		t.Fatalf("the resumed game: outcome %+v, err %v", out, err)
	}
	if tr := <-theirFaultyRes; tr.out == nil || tr.out.Result != out.Result {
		t.Errorf("the peers disagree on the resumed game: %+v, %+v", out, tr.out)
	}
	checkRecords(t, resumed, theirFaulty)
	t.Logf("resumed after the panic: %v", out.Result)
	<-serve
	bots.Wait()
	if _, ok := checkNoLeak(t, p.dirs, logs); !ok {
		t.Error("a hidden choice reached a log or a record")
	}
	for _, g := range []*session.Game{resumed, other, theirOther, theirFaulty} {
		g.Close()
	}
	waitGoroutines(t, baseline, 0)
}

// checkPanicError checks the error of a game stopped by a panic: it wraps
// ErrPanic, names the game, holds the panic value and a stack whose calls
// show no argument values.
func checkPanicError(t *testing.T, err error, id protocol.GameID) {
	t.Helper()
	if !errors.Is(err, session.ErrPanic) {
		t.Fatalf("error %v, want one wrapping ErrPanic", err)
	}
	text := err.Error()
	for _, want := range []string{id.String(), panicValue, "goroutine ", "panic_test.go"} {
		if !strings.Contains(text, want) {
			t.Errorf("the error does not hold %q:\n%s", want, text)
		}
	}
	for _, l := range strings.Split(text, "\n")[1:] {
		if !strings.HasPrefix(l, "\t") && strings.HasSuffix(l, ")") && !strings.HasSuffix(l, "(...)") {
			t.Errorf("a call in the stack shows its arguments: %q", l)
		}
	}
}

func firstLineOf(err error) string {
	s, _, _ := strings.Cut(fmt.Sprint(err), "\n")
	return s
}
