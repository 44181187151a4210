package protocol_test

import (
	"context"
	"crypto/rand"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/metrics"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// BenchmarkPhantomGame9x9 plays whole 9×9 games of Phantom Go (common
// rules) between two random bots on loopback, both programs saving their
// records and secrets to disk as kakure does, and reports the time, the
// bytes on the wire (both directions, libp2p's count) and the fdatasync
// calls of both programs per game and per try. The directory is the
// test's temporary one: TMPDIR=/dev/shm/… compares the disk with tmpfs.
//
//	go test -run XXX -bench PhantomGame -benchtime 2x ./protocol
func BenchmarkPhantomGame9x9(b *testing.B) {
	counter := metrics.NewBandwidthCounter()
	p := &pair{}
	for i := range 2 {
		priv, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			b.Fatal(err)
		}
		h, err := libp2p.New(libp2p.Identity(priv), libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"),
			libp2p.DisableRelay(), libp2p.BandwidthReporter(counter))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { h.Close() })
		p.hosts[i] = h
		s, err := protocol.NewService(protocol.Config{Host: h, Dir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(s.Close)
		p.services[i] = s
	}
	connect(b, p.hosts[0], p.hosts[1])
	var tries uint64
	var elapsed time.Duration
	before := counter.GetBandwidthTotals().TotalOut
	syncsBefore := protocol.Syncs()
	for i := range b.N {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		start := time.Now()
		done := make(chan *protocol.Game, 1)
		go func() {
			g := <-p.services[1].Accepted()
			bot.Run(ctx, g, bot.NewRandom(uint64(2*i+1)))
			done <- g
		}()
		g, err := p.services[0].Invite(ctx, p.hosts[1].ID(), engine.Options{Variant: engine.VariantPhantom, Size: 9, Rules: engine.RulesCommon})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := bot.Run(ctx, g, bot.NewRandom(uint64(2*i))); err != nil {
			b.Fatal(err)
		}
		<-done
		cancel()
		elapsed += time.Since(start)
		if o := g.Outcome(); o == nil || o.Violation != nil {
			b.Fatalf("outcome %+v", o)
		}
		tries += g.View().Variant.(protocol.PhantomNetView).Tries
	}
	bytes := float64(counter.GetBandwidthTotals().TotalOut - before)
	b.ReportMetric(elapsed.Seconds()/float64(b.N), "s/game")
	b.ReportMetric(float64(tries)/float64(b.N), "tries/game")
	b.ReportMetric(bytes/float64(b.N)/(1<<20), "MiB/game")
	b.ReportMetric(float64(elapsed.Milliseconds())/float64(tries), "ms/try")
	b.ReportMetric(bytes/float64(tries)/1024, "KiB/try")
	b.ReportMetric(float64(protocol.Syncs()-syncsBefore)/float64(tries), "fdatasyncs/try")
}
