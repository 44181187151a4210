package session_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/p2p/protocol/ping"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// BenchmarkMoveRoundTrip measures a move's round trip over the game
// protocol (A plays, B sees it and answers, A sees the answer: two signed,
// checked, saved messages) and a libp2p ping on the same connection, and
// reports their ratio.
func BenchmarkMoveRoundTrip(b *testing.B) {
	p := newPairB(b)
	ctx := context.Background()
	accepted := make(chan *session.Game, 1)
	go func() { accepted <- <-p.services[1].Accepted() }()
	ga, err := p.services[0].Invite(ctx, p.hosts[1].ID(), engine.Options{Variant: engine.VariantGo, Size: 19})
	if err != nil {
		b.Fatal(err)
	}
	gb := <-accepted
	drain := func(g *session.Game) chan protocol.EventMoved {
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

// BenchmarkStorageBytesPerGame plays whole games between two random bots
// on loopback, both programs saving to disk, and reports the bytes their
// storage wrote per game against the size of the files the game leaves
// (records and secrets files of both; the target of issue 17 is at most
// 3×), and the part of what is left that is secrets files. Phantom Go's
// attachments (its garbled tables and OT messages) are not written at
// all (PN-D14).
//
//	go test -run XXX -bench StorageBytes -benchtime 3x ./protocol
func BenchmarkStorageBytesPerGame(b *testing.B) {
	for _, o := range []engine.Options{
		{Variant: engine.VariantGo, Size: 9},
		{Variant: engine.VariantHMG, Size: 9, Cards: 3},
		{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesHamburg},
	} {
		b.Run(fmt.Sprintf("%s-%d", o.Variant, o.Size), func(b *testing.B) {
			var written, left, secrets int64
			for i := range b.N {
				p := newPairB(b)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				done := make(chan error, 1)
				go func() {
					g := <-p.services[1].Accepted()
					_, err := bot.Run(ctx, g, bot.NewRandom(uint64(2*i+1)))
					done <- err
				}()
				before := session.BytesWritten()
				g, err := p.services[0].Invite(ctx, p.hosts[1].ID(), o)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := bot.Run(ctx, g, bot.NewRandom(uint64(2*i))); err != nil {
					b.Fatal(err)
				}
				if err := <-done; err != nil {
					b.Fatal(err)
				}
				cancel()
				p.services[0].Close()
				p.services[1].Close()
				written += session.BytesWritten() - before
				for _, dir := range p.dirs {
					entries, _ := os.ReadDir(dir)
					for _, e := range entries {
						if info, err := e.Info(); err == nil {
							left += info.Size()
							if strings.HasSuffix(e.Name(), ".secrets.json") {
								secrets += info.Size()
							}
						}
					}
				}
			}
			b.ReportMetric(float64(written)/float64(b.N), "bytes-written/game")
			b.ReportMetric(float64(left)/float64(b.N), "bytes-left/game")
			b.ReportMetric(float64(secrets)/float64(b.N), "secrets-bytes-left/game")
			b.ReportMetric(float64(written)/float64(max(left, 1)), "written/left")
		})
	}
}
