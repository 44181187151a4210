package protocol_test

import (
	"context"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/p2p/protocol/ping"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// BenchmarkMoveRoundTrip measures a move's round trip over the game
// protocol (A plays, B sees it and answers, A sees the answer: two signed,
// checked, saved messages) and a libp2p ping on the same connection, and
// reports their ratio.
func BenchmarkMoveRoundTrip(b *testing.B) {
	p := newPairB(b)
	ctx := context.Background()
	accepted := make(chan *protocol.Game, 1)
	go func() { accepted <- <-p.services[1].Accepted() }()
	ga, err := p.services[0].Invite(ctx, p.hosts[1].ID(), engine.Options{Variant: engine.VariantGo, Size: 19})
	if err != nil {
		b.Fatal(err)
	}
	gb := <-accepted
	drain := func(g *protocol.Game) chan protocol.EventMoved {
		ch := make(chan protocol.EventMoved, 1024)
		go func() {
			for e := range g.Events() {
				if mv, ok := e.(protocol.EventMoved); ok {
					ch <- mv
				}
			}
		}()
		return ch
	}
	movesA, movesB := drain(ga), drain(gb)
	for !ga.View().MyTurn && !gb.View().MyTurn {
		time.Sleep(100 * time.Microsecond)
	}
	black, white := ga, gb
	bm, wm := movesA, movesB
	if ga.View().Color != engine.Black {
		black, white, bm, wm = gb, ga, movesB, movesA
	}
	_ = bm
	// Play pass-free moves along the board: point i for black, 180+i for white.
	b.ResetTimer()
	start := time.Now()
	n := 0
	for i := 0; i < b.N && i < 170; i++ {
		if err := black.Do(protocol.Play{Point: engine.Point(i)}); err != nil {
			b.Fatal(err)
		}
		<-wm // white saw black's move
		if err := white.Do(protocol.Play{Point: engine.Point(190 + i)}); err != nil {
			b.Fatal(err)
		}
		<-bm // black saw its own move event... wait for white's move
		<-bm
		<-wm
		n++
	}
	game := time.Since(start) / time.Duration(max(n, 1))
	b.StopTimer()
	res := ping.Ping(ctx, p.hosts[0], p.hosts[1].ID())
	var total time.Duration
	const pings = 50
	for i := 0; i < pings; i++ {
		r := <-res
		if r.Error != nil {
			b.Fatal(r.Error)
		}
		total += r.RTT
	}
	pingRTT := total / pings
	b.ReportMetric(float64(game.Microseconds()), "µs/move-roundtrip")
	b.ReportMetric(float64(pingRTT.Microseconds()), "µs/ping")
	b.ReportMetric(float64(game)/float64(pingRTT), "ratio")
}
