package watch_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// BenchmarkSPEC5MoveRoundTrip measures a 19×19 plain Go move and its
// answer between two players that do not publish, and between two that
// publish with no spectator and with 10 and 50 spectators of the inviter,
// all on loopback in this process (SPEC-5: publishing must not slow the
// game; the spectators' own checks share the process's CPU). It reports
// µs per round trip and the publications dropped; it asserts nothing.
func BenchmarkSPEC5MoveRoundTrip(b *testing.B) {
	for _, watchers := range []int{-1, 0, 10, 50} {
		name := fmt.Sprintf("spectators=%d", watchers)
		if watchers < 0 {
			name = "unpublished"
		}
		b.Run(name, func(b *testing.B) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			a, bp := newBenchPlayer(b, watchers >= 0), newBenchPlayer(b, watchers >= 0)
			if err := a.h.Connect(ctx, bp.h.Peerstore().PeerInfo(bp.h.ID())); err != nil {
				b.Fatal(err)
			}
			for range watchers {
				h := testnet.Host(b)
				hub := newHub(b, h)
				if err := h.Connect(ctx, a.h.Peerstore().PeerInfo(a.h.ID())); err != nil {
					b.Fatal(err)
				}
				w, err := hub.Watch(ctx, a.h.ID(), protocol.GameID{})
				if err != nil {
					b.Fatal(err)
				}
				go func() {
					for range w.Lines() {
					}
				}()
				for !slices.Contains(a.hub.Subscribers(a.h.ID()), h.ID()) {
					time.Sleep(10 * time.Millisecond)
				}
			}
			accepted := make(chan *session.Game, 1)
			go func() { accepted <- <-bp.svc.Accepted() }()
			ga, err := a.svc.Invite(ctx, bp.h.ID(), engine.Options{Variant: engine.VariantGo, Size: 19})
			if err != nil {
				b.Fatal(err)
			}
			gb := <-accepted
			moves := func(g *session.Game) chan struct{} {
				ch := make(chan struct{}, 1024)
				go func() {
					for e := range g.Events() {
						if _, ok := e.(protocol.EventMoved); ok {
							ch <- struct{}{}
						}
					}
				}()
				return ch
			}
			ma, mb := moves(ga), moves(gb)
			for !ga.View().MyTurn && !gb.View().MyTurn {
				time.Sleep(100 * time.Microsecond)
			}
			black, white, bm, wm := ga, gb, ma, mb
			if ga.View().Color != engine.Black {
				black, white, bm, wm = gb, ga, mb, ma
			}
			b.ResetTimer()
			start := time.Now()
			n := 0
			for i := 0; i < b.N && i < 170; i++ {
				if err := black.Do(protocol.Play{Point: engine.Point(i)}); err != nil {
					b.Fatal(err)
				}
				<-wm
				if err := white.Do(protocol.Play{Point: engine.Point(190 + i)}); err != nil {
					b.Fatal(err)
				}
				<-bm
				<-bm
				<-wm
				n++
			}
			b.StopTimer()
			b.ReportMetric(float64(time.Since(start).Microseconds())/float64(max(n, 1)), "µs/roundtrip")
			b.ReportMetric(float64(a.hub.Dropped()), "dropped")
		})
	}
}

// newBenchPlayer is newPlayer for a benchmark; unpublished, its games
// have no publisher.
func newBenchPlayer(tb testing.TB, published bool) *player {
	p := &player{h: testnet.Host(tb), dir: tb.TempDir()}
	p.hub = newHub(tb, p.h)
	p.rec = &recorder{hub: p.hub}
	p.svc = testnet.ServiceOn(tb, p.h, func(c *session.Config) {
		c.Dir = p.dir
		if published {
			c.Publisher = p.rec
		}
	})
	return p
}
