package session_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/metrics"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// BenchmarkPhantomGame9x9 plays whole 9×9 games of Phantom Go (common
// rules) between two random bots on loopback, both programs saving their
// records and secrets to disk as kakure does, and reports the time, the
// bytes on the wire (both directions, libp2p's count), the CPU time of
// the process (both programs, the end audits included) and the
// fdatasync calls of both programs per game and per try. The directory is the
// test's temporary one: TMPDIR=/dev/shm/… compares the disk with tmpfs.
//
// With both garbling schemes (MPC-D26), λ = 1 and λ = 4 (the tries
// checked, T-8(b)), and the latency of each try, p50 and p95: from the
// return of the mover's Play (its first message of the try made, saved
// and sent) to the moment its own view counts the try (its
// announcement is in), over all tries and by the mover's side: the
// garbler's tries (the inviter moves, p50-ms/garbler-try) and the
// evaluator's (p50-ms/evaluator-try); the same from the Play call
// (*-try-from-play) and the Play call alone (*-play: the evaluator's
// OT request is made there, MPC-D51). The three-halves λ = 4 games also run with the
// correlated input OTs (MPC-D28, lambda-4/correlated), with the
// authenticated state (MPC-D29, lambda-4/authenticated) and with its MACs
// of 64 bits (MPC-D32, lambda-4/authenticated-mac64).
//
//	go test -run XXX -bench PhantomGame -benchtime 2x ./protocol
func BenchmarkPhantomGame9x9(b *testing.B) {
	for _, garbling := range []string{engine.GarblingHalfGates, engine.GarblingThreeHalves} {
		for _, lambda := range []int{1, 4} {
			b.Run(fmt.Sprintf("%s/lambda-%d", garbling, lambda), func(b *testing.B) { benchPhantomGame(b, lambda, garbling, "") })
		}
	}
	b.Run("three-halves/lambda-4/correlated", func(b *testing.B) {
		benchPhantomGame(b, 4, engine.GarblingThreeHalves, engine.InputOTCorrelated)
	})
	b.Run("three-halves/lambda-4/authenticated", func(b *testing.B) {
		benchPhantomGame(b, 4, engine.GarblingThreeHalves, engine.InputOTAuthenticated)
	})
	b.Run("three-halves/lambda-4/authenticated-mac64", func(b *testing.B) {
		benchPhantomGame(b, 4, engine.GarblingThreeHalves, engine.InputOTAuthenticatedMAC64)
	})
	// The players think 10 ms before each try (MPC-D51: the evaluator's
	// request is prepared meanwhile).
	b.Run("three-halves/lambda-4/authenticated-mac64-think", func(b *testing.B) {
		benchPhantomGameThink(b, 4, engine.GarblingThreeHalves, engine.InputOTAuthenticatedMAC64, 10*time.Millisecond)
	})
	// The evaluator's tries by flips (MPC-D52): its request, the
	// commitment and its choice before its player plays, then the flips.
	b.Run("three-halves/lambda-4/authenticated-mac64-flips", func(b *testing.B) {
		benchPhantomGame(b, 4, engine.GarblingThreeHalves, engine.InputOTAuthenticatedMAC64+flipsSuffix)
	})
	b.Run("three-halves/lambda-4/authenticated-mac64-flips-think", func(b *testing.B) {
		benchPhantomGameThink(b, 4, engine.GarblingThreeHalves, engine.InputOTAuthenticatedMAC64+flipsSuffix, 10*time.Millisecond)
	})
	// With 50 ms of thinking, longer than the ahead part of a try by
	// flips (its request, commitment and choice) even on a loaded
	// machine: the evaluator's try from its Play is then its flips, the
	// garbling and the outputs alone.
	b.Run("three-halves/lambda-4/authenticated-mac64-flips-think50", func(b *testing.B) {
		benchPhantomGameThink(b, 4, engine.GarblingThreeHalves, engine.InputOTAuthenticatedMAC64+flipsSuffix, 50*time.Millisecond)
	})
	b.Run("three-halves/lambda-4/authenticated-mac64-think50", func(b *testing.B) {
		benchPhantomGameThink(b, 4, engine.GarblingThreeHalves, engine.InputOTAuthenticatedMAC64, 50*time.Millisecond)
	})
	b.Run("three-halves/lambda-1-think50", func(b *testing.B) {
		benchPhantomGameThink(b, 1, engine.GarblingThreeHalves, "", 50*time.Millisecond)
	})
	b.Run("three-halves/lambda-1-think", func(b *testing.B) {
		benchPhantomGameThink(b, 1, engine.GarblingThreeHalves, "", 10*time.Millisecond)
	})
}

// flipsSuffix, after the form of the input OTs a benchmark names, turns
// on the evaluator's tries by flips (engine.OptionTryFlips, MPC-D52).
const flipsSuffix = "-flips"

// tryTimes are the latencies of a side's tries: after, from the return
// of the mover's Play (the try's first message made, saved and sent) to
// the moment its view counts the try; play, the Play call's own time;
// whole, from the Play call to the try counted (play + after).
type tryTimes struct {
	after, play, whole []time.Duration
	// stamps, when not nil, is told the Play call, its return and the
	// try counted (BenchmarkPhantomStages).
	stamps *stampLog
}

// runTimed is bot.Run that adds to lat the latencies of each of the
// player's tries.
func runTimed(ctx context.Context, g *session.Game, p bot.Player, mu *sync.Mutex, lat *tryTimes, think time.Duration) {
	var called, started time.Time
	pending := uint64(0)
	tries := func() uint64 {
		pv, _ := g.View().Variant.(phantomrules.View)
		return pv.Tries
	}
	act := func() {
		if !started.IsZero() && tries() > pending {
			now := time.Now()
			mu.Lock()
			lat.after = append(lat.after, now.Sub(started))
			lat.play = append(lat.play, started.Sub(called))
			lat.whole = append(lat.whole, now.Sub(called))
			mu.Unlock()
			lat.stamps.add(now, "play", "counted", "")
			started = time.Time{}
		}
		for range 1000 {
			v := g.View()
			if !v.MyTurn || v.Outcome != nil {
				return
			}
			a := p.Choose(v)
			if a == nil {
				return
			}
			pv, isPhantom := v.Variant.(phantomrules.View)
			_, play := a.(protocol.Play)
			if think > 0 && isPhantom && play && pv.Stage == phantomrules.StagePlay {
				time.Sleep(think)
			}
			call := time.Now()
			if g.Do(a) != nil {
				return
			}
			if isPhantom && play && pv.Stage == phantomrules.StagePlay {
				called, started, pending = call, time.Now(), pv.Tries
				lat.stamps.add(call, "play", "call", "")
				lat.stamps.add(started, "play", "return", "")
			}
		}
	}
	act()
	for {
		select {
		case _, ok := <-g.Events():
			if !ok {
				return
			}
			act()
		case <-ctx.Done():
			return
		}
	}
}

func benchPhantomGame(b *testing.B, lambda int, garbling, inputOT string) {
	benchPhantomGameThink(b, lambda, garbling, inputOT, 0)
}

// benchPhantomGameThink is benchPhantomGame with players that think
// before each try (a sleep before the Play).
func benchPhantomGameThink(b *testing.B, lambda int, garbling, inputOT string, think time.Duration) {
	benchPhantomGameStamped(b, lambda, garbling, inputOT, think, nil)
}

// benchPhantomGameStamped is benchPhantomGameThink that, with stamps not
// nil, logs the steps of both programs' messages and the evaluator's
// Play calls there (BenchmarkPhantomStages).
func benchPhantomGameStamped(b *testing.B, lambda int, garbling, inputOT string, think time.Duration, stamps *stampLog) {
	counter := metrics.NewBandwidthCounter()
	p := &pair{}
	var dirs [2]string
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
		dirs[i] = b.TempDir()
		cfg := session.Config{Host: h, Dir: dirs[i]}
		if stamps != nil {
			who := [2]string{"G", "E"}[i] // the inviter garbles
			session.SetStampHook(&cfg, func(_ *session.Game, at string, kind protocol.Kind) {
				stamps.add(time.Now(), who, at, kind)
			})
		}
		s, err := session.NewService(cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(s.Close)
		p.services[i] = s
	}
	connect(b, p.hosts[0], p.hosts[1])
	writtenBefore := session.BytesWritten()
	var tries uint64
	var elapsed time.Duration
	before := counter.GetBandwidthTotals().TotalOut
	syncsBefore := session.Syncs()
	cpuBefore := processCPU()
	var mu sync.Mutex
	// The tries' latencies by the mover's side: the inviter garbles
	// (phantomGarbler), the invitee evaluates.
	var latGarbler, latEvaluator tryTimes
	latEvaluator.stamps = stamps
	for i := range b.N {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		start := time.Now()
		done := make(chan *session.Game, 1)
		go func() {
			g := <-p.services[1].Accepted()
			runTimed(ctx, g, bot.NewRandom(uint64(2*i+1)), &mu, &latEvaluator, think)
			done <- g
		}()
		o := engine.Options{Variant: engine.VariantPhantom, Size: 9, Rules: engine.RulesCommon, Lambda: lambda, Garbling: garbling,
			InputOT: strings.TrimSuffix(inputOT, flipsSuffix)}
		if strings.HasSuffix(inputOT, flipsSuffix) {
			o.Own = engine.OptionTryFlips + "=true"
		}
		g, err := p.services[0].Invite(ctx, p.hosts[1].ID(), o)
		if err != nil {
			b.Fatal(err)
		}
		runTimed(ctx, g, bot.NewRandom(uint64(2*i)), &mu, &latGarbler, think)
		<-done
		cancel()
		elapsed += time.Since(start)
		if o := g.Outcome(); o == nil || o.Violation != nil {
			b.Fatalf("outcome %+v", o)
		}
		tries += g.View().Variant.(phantomrules.View).Tries
	}
	bytes := float64(counter.GetBandwidthTotals().TotalOut - before)
	b.ReportMetric(elapsed.Seconds()/float64(b.N), "s/game")
	b.ReportMetric((processCPU()-cpuBefore).Seconds()/float64(b.N), "cpu-s/game")
	b.ReportMetric(float64(tries)/float64(b.N), "tries/game")
	b.ReportMetric(bytes/float64(b.N)/(1<<20), "MiB/game")
	b.ReportMetric(float64(elapsed.Milliseconds())/float64(tries), "ms/try")
	b.ReportMetric(bytes/float64(tries)/1024, "KiB/try")
	b.ReportMetric(float64(session.Syncs()-syncsBefore)/float64(tries), "fdatasyncs/try")
	// What the games' storage wrote, and left (REC-D16): records and
	// secrets files of both peers.
	var records, secrets int64
	for _, dir := range dirs {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if info, err := e.Info(); err == nil {
				switch {
				case strings.HasSuffix(e.Name(), ".record.json"):
					records += info.Size()
				case strings.HasSuffix(e.Name(), ".secrets.json"):
					secrets += info.Size()
				}
			}
		}
	}
	b.ReportMetric(float64(session.BytesWritten()-writtenBefore)/float64(b.N)/1024, "disk-KiB-written/game")
	b.ReportMetric(float64(records)/float64(b.N)/1024, "record-KiB-left/game")
	b.ReportMetric(float64(secrets)/float64(b.N)/1024, "secrets-KiB-left/game")
	lat := slices.Concat(latGarbler.after, latEvaluator.after)
	reportLatency(b, lat, "try")
	reportLatency(b, latGarbler.after, "garbler-try")
	reportLatency(b, latEvaluator.after, "evaluator-try")
	// From the Play call (MPC-D51: the evaluator's request is made in
	// it), and the Play call alone.
	reportLatency(b, latGarbler.whole, "garbler-try-from-play")
	reportLatency(b, latEvaluator.whole, "evaluator-try-from-play")
	reportLatency(b, latGarbler.play, "garbler-play")
	reportLatency(b, latEvaluator.play, "evaluator-play")
}

// reportLatency reports the p50 and p95 of lat (sorted in place) as
// p50-ms/unit and p95-ms/unit.
func reportLatency(b *testing.B, lat []time.Duration, unit string) {
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms/"+unit)
		b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms/"+unit)
	}
}

// processCPU returns the CPU time (user and system) the process has used
// so far: both programs of the benchmark's game, audits included.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
