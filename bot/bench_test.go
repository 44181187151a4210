package bot

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"

	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/engine/phantom"
)

// The benchmarks time one decision of each bot at the default level on a
// 9×9 board in the middle game (after 20 random moves): go test ./bot
// -run XXX -bench . (docs/bots.md has the numbers). Besides the wall time
// they report the process's CPU time per decision (cpu-ms/op), which does
// not grow when other jobs share the machine; the bots use one goroutine.

// cpuTimer measures the CPU time of a benchmark's loop.
type cpuTimer struct {
	b     *testing.B
	start time.Duration
}

func startCPU(b *testing.B) cpuTimer {
	b.ResetTimer()
	return cpuTimer{b: b, start: cpuTime()}
}

func (t cpuTimer) stop() {
	t.b.StopTimer()
	if d := cpuTime() - t.start; d > 0 {
		t.b.ReportMetric(float64(d.Microseconds())/1000/float64(t.b.N), "cpu-ms/op")
	}
}

func BenchmarkGoBotMove9x9(b *testing.B) {
	g := randomGoGame(b, 9, 20, rand.New(rand.NewPCG(1, 1)))
	bot := NewGoBot(DefaultLevel, 1)
	cpu := startCPU(b)
	defer cpu.stop()
	for i := 0; i < b.N; i++ {
		bot.ChooseMove(g, g.ToMove())
	}
}

func BenchmarkGoBotMove19x19(b *testing.B) {
	g := randomGoGame(b, 19, 60, rand.New(rand.NewPCG(1, 1)))
	bot := NewGoBot(DefaultLevel, 1)
	cpu := startCPU(b)
	defer cpu.stop()
	for i := 0; i < b.N; i++ {
		bot.ChooseMove(g, g.ToMove())
	}
}

// BenchmarkPhantomBotMove9x9 times a whole move: tries until one is legal,
// each failed try seen by the bot's view before the next (the number of
// tries per move is reported).
func BenchmarkPhantomBotMove9x9(b *testing.B) {
	o := engine.Options{Variant: engine.VariantPhantom, Size: 9, Rules: engine.RulesCommon}
	ref, views := phantomViewsOf(b, o, 3, 40)
	me := ref.ToMove()
	bot := NewPhantomBot(DefaultLevel, 7.5, 1)
	tries := 0
	cpu := startCPU(b)
	defer cpu.stop()
	for i := 0; i < b.N; i++ {
		r, v := ref, views[me]
		for {
			p := bot.ChooseTry(v)
			next, out, err := r.Try(me, p)
			if err != nil {
				b.Fatal(err)
			}
			tries++
			if v, err = v.Apply(phantom.Announce(o.Rules, 9, out, me)); err != nil {
				b.Fatal(err)
			}
			r = next
			if out.Legal {
				break
			}
		}
	}
	b.ReportMetric(float64(tries)/float64(b.N), "tries/move")
}

// benchmarkHMGTurn times a whole turn: reveals and the regular move.
func benchmarkHMGTurn(b *testing.B, size int) {
	bot := NewHMGBot(DefaultLevel, 1)
	g := hmgGame(b, size, bot.ChooseCards(size, 3), NewHMGBot(DefaultLevel, 2).ChooseCards(size, 3))
	rng := rand.New(rand.NewPCG(2, 2))
	for i := 0; i < 20; i++ {
		plays := g.LegalPoints(g.ToMove())
		g, _, _ = g.Play(g.ToMove(), plays[rng.IntN(len(plays))])
	}
	cpu := startCPU(b)
	defer cpu.stop()
	for i := 0; i < b.N; i++ {
		t := g
		for {
			next, res, err := t.Apply(bot.ChooseAction(t, t.ToMove()))
			if err != nil {
				b.Fatal(err)
			}
			t = next
			if res.TurnEnded {
				break
			}
		}
	}
}

func BenchmarkHMGBotTurn9x9(b *testing.B)   { benchmarkHMGTurn(b, 9) }
func BenchmarkHMGBotTurn19x19(b *testing.B) { benchmarkHMGTurn(b, 19) }

// BenchmarkGomokuBotTurn9x9 times a mover's decisions in a turn (the point
// and the line) and the opponent's answer to it.
func BenchmarkGomokuBotTurn9x9(b *testing.B) {
	col, row := gomoku.Column, gomoku.Row
	pieces := []string{"B5", "F5", "C5", "A1", "D5", "J1", "E5", "H8", "C3", "G6", "D4", "B8", "E7", "H2", "F2", "A6", "G3", "C9", "J7", "H5"}
	var lines []gomoku.LineKind
	for i := range pieces {
		lines = append(lines, []gomoku.LineKind{col, row}[i%2])
	}
	o, x := gomokuPosition(b, 9, "E9", pieces, lines)
	bot := NewGomokuBot(DefaultLevel, 1)
	cpu := startCPU(b)
	defer cpu.stop()
	for i := 0; i < b.N; i++ {
		bot.cached = nil
		p := bot.ChooseCommit(o)
		v, _, err := o.Commit(p)
		if err != nil {
			b.Fatal(err)
		}
		bot.ChooseLine(v)
		bot.cached = nil
		bot.ChooseResponse(x)
	}
}

func BenchmarkFGoBotTurn9x9(b *testing.B) {
	g := randomFGoGame(b, 9, 15, rand.New(rand.NewPCG(1, 1)))
	bot := NewFGoBot(DefaultLevel, 1)
	cpu := startCPU(b)
	defer cpu.stop()
	for i := 0; i < b.N; i++ {
		bot.last = nil
		bot.ChooseFGo(g, engine.Black)
	}
}

func BenchmarkBridgeBotMove9x9(b *testing.B) {
	g := randomBridgeGame(b, 9, 20, rand.New(rand.NewPCG(1, 1)))
	bot := NewBridgeBot(DefaultLevel, 1)
	cpu := startCPU(b)
	defer cpu.stop()
	for i := 0; i < b.N; i++ {
		bot.ChooseMove(g, g.ToMove())
	}
}
