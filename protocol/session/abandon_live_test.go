package session_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestLIMD20AbandonerReadsOnWhileTheAccusedIsSilent (LIM-D20, REC-D13):
// two honest programs; the invitee's program is slow (its game loop
// stalls, as under the heavy load of BenchmarkSPEC5SpectatorLoad) after
// it made its toss commitment and before it writes it, for longer than
// the inviter's two graces and the 5 s the abandoning program used to
// read on. The inviter challenges the silent invitee and abandons the
// game; the invitee's commitment, made before its program took the
// abandonment, crosses it. The inviter must still take it, so that the
// abandonment changes nothing in both records and the game goes on to
// its end in both programs. Before LIM-D20 the inviter stopped reading 5 s
// after its abandonment: its game ended abandoned, and the invitee's,
// whose record holds the crossing, waited for ever for the inviter,
// which had stopped (the hang of the load benchmark).
func TestLIMD20AbandonerReadsOnWhileTheAccusedIsSilent(t *testing.T) {
	parallelUnlessRace(t)
	var inviter atomic.Pointer[session.Game]
	var stalled atomic.Bool
	abandonedSeen := make(chan struct{})
	// stall holds the invitee's loop until the inviter's game has been
	// abandoned for longer than the old linger (or its loop stopped).
	stall := func() {
		const oldLinger = 5 * time.Second
		deadline := time.Now().Add(testenv.Duration(time.Minute))
		var abandonedAt time.Time
		for time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			g := inviter.Load()
			if g == nil {
				continue
			}
			if abandonedAt.IsZero() {
				if out := g.Outcome(); out != nil && out.Abandoned {
					abandonedAt = time.Now()
					close(abandonedSeen)
				}
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
			stopped := g.Wait(ctx) == nil
			cancel()
			if stopped || time.Since(abandonedAt) > oldLinger+3*time.Second {
				return
			}
		}
	}
	p := newPair(t, func(i int, c *session.Config) {
		c.AutoGrace = testenv.Duration(time.Second)
		// The connection stays up while the invitee's loop stalls: its
		// keep-alives stop, and the idle timeout must not cut first.
		c.IdleTimeout = testenv.Duration(2 * time.Minute)
		if protocol.Role(i) != protocol.Invitee {
			return
		}
		session.SetPanicHook(c, func(g *session.Game, where string) {
			if where != "saved" || stalled.Load() {
				return
			}
			ms := g.Transcript().Messages
			if last := ms[len(ms)-1]; last.From == protocol.Invitee && last.Kind == protocol.KindTossCommit && stalled.CompareAndSwap(false, true) {
				stall()
			}
		})
	})
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(2*time.Minute))
	defer cancel()
	o := engine.Options{Variant: engine.VariantGo, Size: 5}
	accepted := make(chan *session.Game, 1)
	go func() {
		select {
		case g := <-p.services[1].Accepted():
			accepted <- g
			_, _ = bot.Run(ctx, g, quickBot(52, 12))
		case <-ctx.Done():
			accepted <- nil
		}
	}()
	g0, err := p.services[0].Invite(ctx, p.hosts[1].ID(), o)
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	inviter.Store(g0)
	go func() { _, _ = bot.Run(ctx, g0, quickBot(51, 12)) }()
	g1 := <-accepted
	if g1 == nil {
		t.Fatal("the invitee never got the game")
	}
	select {
	case <-abandonedSeen:
	case <-ctx.Done():
		t.Fatalf("the inviter never abandoned the stalled invitee (stalled %v): the case did not run", stalled.Load())
	}
	// A game that does not end is the bug: wait a stretched minute, not
	// the whole context.
	waitCtx, waitCancel := context.WithTimeout(ctx, testenv.Duration(time.Minute))
	defer waitCancel()
	for _, g := range []*session.Game{g0, g1} {
		if err := g.Wait(waitCtx); err != nil {
			t.Fatalf("the %s's game did not end (%v); the inviter's ended with %+v, the invitee's stands at %+v",
				g.Role(), err, g0.Outcome(), g1.View())
		}
		if out := g.Outcome(); g == g0 && out != nil && out.Abandoned {
			// The invitee's record holds its commitment before the
			// abandonment: its game goes on, waiting for the inviter's.
			t.Fatalf("the inviter's game ended abandoned (%+v) without the invitee's answer that crossed it; the invitee's stands at %+v",
				out, g1.View())
		}
	}
	out0, out1 := g0.Outcome(), g1.Outcome()
	if out0 == nil || out1 == nil || out0.Result != out1.Result || out0.Abandoned || out1.Abandoned {
		t.Fatalf("the games ended with %+v (inviter) and %+v (invitee); want one result, not abandoned", out0, out1)
	}
	for _, g := range []*session.Game{g0, g1} {
		rep := protocol.Verify(g.Transcript())
		if rep.Outcome == nil || rep.Outcome.Result != out0.Result || !slices.Contains(rep.Voided, protocol.Inviter) {
			says, _ := rep.Describe(g.Transcript().Peers)
			t.Errorf("the %s's record: %+v, voided %v, want %v with the inviter's abandonment void:\n%s", g.Role(), rep.Outcome, rep.Voided, out0.Result, says)
		}
	}
}

// TestLIMD20AbandonerStopsOnceTheAccusedIsHeard (LIM-D20): the wait for a
// crossing gives a cheater no hold on the abandoning program. The
// invitee's program withholds its toss commitment on the wire (its record
// holds it) and keeps its connection up with keep-alives: the inviter
// challenges it and abandons the game, and its game loop stops within
// the first keep-alive after the abandonment and the 5 s that follow,
// not at the idle timeout, which the keep-alives put off for ever.
func TestLIMD20AbandonerStopsOnceTheAccusedIsHeard(t *testing.T) {
	parallelUnlessRace(t)
	idle := testenv.Duration(15 * time.Second)
	p := newPair(t, withheldBy(protocol.Invitee), func(i int, c *session.Config) {
		c.IdleTimeout = idle
		if protocol.Role(i) == protocol.Invitee {
			session.SetTamper(c, silenceFrom(protocol.KindTossCommit, 1))
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(2*time.Minute))
	defer cancel()
	o := engine.Options{Variant: engine.VariantGo, Size: 5}
	go func() {
		select {
		case g := <-p.services[1].Accepted():
			_, _ = bot.Run(ctx, g, quickBot(54, 12))
		case <-ctx.Done():
		}
	}()
	g0, err := p.services[0].Invite(ctx, p.hosts[1].ID(), o)
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	go func() { _, _ = bot.Run(ctx, g0, quickBot(53, 12)) }()
	for out := g0.Outcome(); out == nil || !out.Abandoned; out = g0.Outcome() {
		if ctx.Err() != nil {
			t.Fatalf("the inviter never abandoned the silent invitee: %+v", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A keep-alive every idle/3, then the linger: a stretched 5 s more
	// than both.
	wait := idle/3 + 5*time.Second + testenv.Duration(5*time.Second)
	waitCtx, waitCancel := context.WithTimeout(ctx, wait)
	defer waitCancel()
	if err := g0.Wait(waitCtx); err != nil {
		t.Fatalf("the inviter's abandoned game still reads %v after the abandonment, the invitee's program sending keep-alives: %v", wait, err)
	}
	if out := g0.Outcome(); out == nil || !out.Abandoned || out.Violation == nil || out.Violation.Accused != protocol.Invitee {
		t.Errorf("the inviter's game ended with %+v, want abandoned by the invitee", out)
	}
}
