package session_test

import (
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/phantomrules"
)

// stampLog is the log of the steps of both programs' messages in a
// benchmark's games (session.SetStampHook) and of the evaluator's Play
// calls: who ("G", "E", "play"), the step and the message's kind.
type stampLog struct {
	mu     sync.Mutex
	events []stampEvent
}

type stampEvent struct {
	t       time.Time
	who, at string
	kind    protocol.Kind
}

func (l *stampLog) add(t time.Time, who, at string, kind protocol.Kind) {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.events = append(l.events, stampEvent{t, who, at, kind})
	l.mu.Unlock()
}

// flipsStages are the steps of an evaluator's try by flips (MPC-D52)
// from its Play call, in their order: each stage is timed from the one
// before it.
var flipsStages = []struct {
	name, who, at string
	kind          protocol.Kind
}{
	{"play-call", "play", "call", ""},
	{"flips-made", "E", "made", phantomrules.KindFlips},
	{"flips-saved", "E", "saved", phantomrules.KindFlips},
	{"flips-written", "E", "written", phantomrules.KindFlips},
	{"play-return", "play", "return", ""},
	{"flips-read", "G", "read", phantomrules.KindFlips},
	{"flips-taken", "G", "taken", phantomrules.KindFlips},
	{"garbling-made", "G", "made", phantomrules.KindGarbling},
	{"garbling-saved", "G", "saved", phantomrules.KindGarbling},
	{"garbling-written", "G", "written", phantomrules.KindGarbling},
	{"garbling-read", "E", "read", phantomrules.KindGarbling},
	{"garbling-applied", "E", "in-applied", phantomrules.KindGarbling},
	{"garbling-taken", "E", "taken", phantomrules.KindGarbling},
	{"outputs-made", "E", "made", phantomrules.KindOutputs},
	{"outputs-saved", "E", "saved", phantomrules.KindOutputs},
	{"outputs-written", "E", "written", phantomrules.KindOutputs},
	{"counted", "play", "counted", ""},
}

// stageTimes splits the log's evaluator tries by flips into the stages of
// flipsStages: for each try, the time of each stage from the one before.
// A try whose flips were held (its player's try made before the choice
// went, PN-D22: the Play returns before the flips are made) has its
// Play's return moved after its call (the order of heldStages) and goes
// to held; a try whose steps are not all found in order is left out.
func stageTimes(events []stampEvent) (ahead, held [][]time.Duration) {
	slices.SortStableFunc(events, func(a, b stampEvent) int { return a.t.Compare(b.t) })
	ahead = make([][]time.Duration, len(flipsStages))
	held = make([][]time.Duration, len(flipsStages))
	heldOrder := append([]int{0, 4, 1, 2, 3}, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
	aheadOrder := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	for i, e := range events {
		if e.who != "play" || e.at != "call" {
			continue
		}
		for _, c := range []struct {
			order []int
			into  [][]time.Duration
		}{{aheadOrder, ahead}, {heldOrder, held}} {
			at := []time.Time{e.t}
			j := i + 1
			for _, k := range c.order[1:] {
				s := flipsStages[k]
				for j < len(events) && (events[j].who != s.who || events[j].at != s.at || events[j].kind != s.kind) {
					if events[j].who == "play" && events[j].at == "call" {
						j = len(events) // the next try: this one is not complete
					}
					j++
				}
				if j >= len(events) {
					break
				}
				at = append(at, events[j].t)
				j++
			}
			if len(at) != len(c.order) {
				continue
			}
			for k := 1; k < len(at); k++ {
				c.into[c.order[k]] = append(c.into[c.order[k]], at[k].Sub(at[k-1]))
			}
			c.into[0] = append(c.into[0], at[len(at)-1].Sub(at[0]))
			break
		}
	}
	return ahead, held
}

// BenchmarkPhantomStages is BenchmarkPhantomGame9x9's λ = 4 game by flips
// (authenticated-mac64, three-halves) with the players thinking 10 ms
// and 50 ms, timed by stage (issue 38's breakdown, docs/mpc.md under
// MPC-D52): the p50 of each stage of the evaluator's tries by flips,
// from the stage before it (p50-ms/N-stage), the evaluator's try from its
// Play call as in BenchmarkPhantomGame9x9, and the tries whose flips were
// held (the player's try before the choice went).
//
//	go test -run XXX -bench PhantomStages -benchtime 2x -cpu 2 ./protocol/session
func BenchmarkPhantomStages(b *testing.B) {
	for _, think := range []time.Duration{0, 10 * time.Millisecond, 50 * time.Millisecond} {
		b.Run(fmt.Sprintf("think-%dms", think.Milliseconds()), func(b *testing.B) {
			var log stampLog
			benchPhantomGameStamped(b, 4, engine.GarblingThreeHalves, engine.InputOTAuthenticatedMAC64+flipsSuffix, think, &log)
			ahead, held := stageTimes(log.events)
			if os.Getenv("KAKURE_STAGES_DUMP") != "" {
				dumpStamps(b, log.events)
			}
			for _, c := range []struct {
				name  string
				times [][]time.Duration
			}{{"ahead", ahead}, {"held", held}} {
				b.ReportMetric(float64(len(c.times[0])), c.name+"-tries")
				reportStage(b, c.times[0], c.name+"-00-whole")
				for k := 1; k < len(flipsStages); k++ {
					reportStage(b, c.times[k], fmt.Sprintf("%s-%02d-%s", c.name, k, flipsStages[k].name))
				}
			}
		})
	}
}

// reportStage reports the p50 of a stage's times (sorted in place).
func reportStage(b *testing.B, lat []time.Duration, unit string) {
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms/"+unit)
	}
}

// dumpStamps logs the steps of a few tries in the middle of the first game
// (KAKURE_STAGES_DUMP set), in ms from the first Play call shown.
func dumpStamps(b *testing.B, events []stampEvent) {
	calls := 0
	var t0 time.Time
	for _, e := range events {
		if e.who == "play" && e.at == "call" {
			calls++
			if calls == 60 {
				t0 = e.t
			}
		}
		if calls >= 60 && calls < 64 {
			b.Logf("%8.3f %-4s %-10s %s", float64(e.t.Sub(t0).Microseconds())/1000, e.who, e.at, e.kind)
		}
	}
}
