package gc_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// andCircuit returns a circuit of n AND gates with 128 inputs per party,
// each gate reading two random wires among the last window written (all
// earlier wires if window is 0). Real circuits read mostly recent wires;
// a small window keeps the labels in cache as they would be.
func andCircuit(n, window int) *circuit.Circuit {
	var seed prg.Seed
	r := seed.Stream("bench")
	c := &circuit.Circuit{NumWires: 256 + n}
	for i := range 128 {
		c.Inputs[0] = append(c.Inputs[0], circuit.Wire(i))
		c.Inputs[1] = append(c.Inputs[1], circuit.Wire(128+i))
	}
	pick := func(out int) circuit.Wire {
		if window == 0 || out <= window {
			return circuit.Wire(r.Intn(out))
		}
		return circuit.Wire(out - 1 - r.Intn(window))
	}
	for i := range n {
		out := 256 + i
		c.Gates = append(c.Gates, circuit.Gate{Op: circuit.OpAND, A: pick(out), B: pick(out), Out: circuit.Wire(out)})
	}
	for i := range 128 {
		c.Outputs = append(c.Outputs, circuit.Wire(c.NumWires-1-i))
	}
	return c
}

const benchGates = 1 << 16

// BenchmarkGarbleAND garbles AND gates on one core with each gate path
// (gatePaths): "vaes" garbles four gates per call with VAES, "aesni" two
// with AES-NI (where the processor has them), "purego" hashes through
// crypto/aes one block at a time.
func BenchmarkGarbleAND(b *testing.B) {
	defer gc.SetAssembly(true)
	defer gc.SetVAES(true)
	defer gc.SetAVX2(true)
	for _, window := range []int{1024, 0} {
		for _, p := range gatePaths {
			b.Run(windowName(window)+"/"+p.name, func(b *testing.B) {
				if !p.set() {
					b.Skip("no such path on this machine")
				}
				benchmarkGarble(b, andCircuit(benchGates, window))
			})
		}
	}
}

func windowName(window int) string {
	if window == 0 {
		return "random-wires"
	}
	return "recent-wires"
}

func benchmarkGarble(b *testing.B, c *circuit.Circuit) {
	var seed prg.Seed
	delta, _ := gc.NewDelta(seed.Stream("delta"))
	b.SetBytes(benchGates * gc.TableSize)
	b.ResetTimer()
	cpu := cpuTime()
	for i := range b.N {
		if _, _, err := gc.Garble(c, delta, seed.Stream("labels"), uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
	reportRate(b, benchGates, cpu)
	b.ReportMetric(gc.TableSize, "B/AND")
}

// BenchmarkEvaluateAND evaluates AND gates on one core with each gate
// path ("vaes" evaluates as "aesni": four gates per AES-NI call).
func BenchmarkEvaluateAND(b *testing.B) {
	defer gc.SetAssembly(true)
	defer gc.SetVAES(true)
	defer gc.SetAVX2(true)
	for _, window := range []int{1024, 0} {
		for _, p := range gatePaths {
			b.Run(windowName(window)+"/"+p.name, func(b *testing.B) {
				if !p.set() {
					b.Skip("no such path on this machine")
				}
				benchmarkEvaluate(b, andCircuit(benchGates, window))
			})
		}
	}
}

func benchmarkEvaluate(b *testing.B, c *circuit.Circuit) {
	var seed prg.Seed
	delta, _ := gc.NewDelta(seed.Stream("delta"))
	g, keys, _ := gc.Garble(c, delta, seed.Stream("labels"), 0)
	in0, _ := keys.Encode(0, make([]bool, 128))
	in1, _ := keys.Encode(1, make([]bool, 128))
	b.SetBytes(benchGates * gc.TableSize)
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		if _, err := gc.Evaluate(c, g, [2][]gc.Label{in0, in1}); err != nil {
			b.Fatal(err)
		}
	}
	reportRate(b, benchGates, cpu)
}

// cpuTime returns the CPU time the process has used so far, in seconds.
func cpuTime() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// reportRate reports AND gates per second of wall time and per second of
// the process's CPU time since cpu; on a shared machine the second is the
// steadier figure for one core.
func reportRate(b *testing.B, gates int, cpu float64) {
	n := float64(gates) * float64(b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "AND/s")
	if used := cpuTime() - cpu; used > 0 {
		b.ReportMetric(n/used, "AND/cpu-s")
	}
}

// BenchmarkSchemeAND garbles and evaluates AND gates on one core with
// each scheme in one run, each on its fastest path (the fused assembly
// where the processor has it); B/AND
// is the bytes of tables per AND gate (three-halves: 24 + 5/8).
func BenchmarkSchemeAND(b *testing.B) {
	c := andCircuit(benchGates, 1024)
	var seed prg.Seed
	delta, _ := gc.NewDelta(seed.Stream("delta"))
	for _, s := range schemes {
		perAND := float64(s.TablesSize(benchGates)) / benchGates
		b.Run(s.String()+"/garble", func(b *testing.B) {
			b.SetBytes(int64(s.TablesSize(benchGates)))
			cpu := cpuTime()
			for i := range b.N {
				if _, _, err := s.Garble(c, delta, seed.Stream("labels"), uint64(i)); err != nil {
					b.Fatal(err)
				}
			}
			reportRate(b, benchGates, cpu)
			b.ReportMetric(perAND, "B/AND")
		})
		g, keys, err := s.Garble(c, delta, seed.Stream("labels"), 0)
		if err != nil {
			b.Fatal(err)
		}
		in0, _ := keys.Encode(0, make([]bool, 128))
		in1, _ := keys.Encode(1, make([]bool, 128))
		b.Run(s.String()+"/evaluate", func(b *testing.B) {
			b.SetBytes(int64(s.TablesSize(benchGates)))
			cpu := cpuTime()
			for range b.N {
				if _, err := gc.Evaluate(c, g, [2][]gc.Label{in0, in1}); err != nil {
					b.Fatal(err)
				}
			}
			reportRate(b, benchGates, cpu)
			b.ReportMetric(perAND, "B/AND")
		})
	}
}
