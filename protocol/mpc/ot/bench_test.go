package ot_test

import (
	"fmt"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/ot"
)

// BenchmarkBaseOT runs the 128 base OTs of a game, both sides on one core,
// and reports the time per OT.
func BenchmarkBaseOT(b *testing.B) {
	for range b.N {
		ot.ForgetBaseOTs()
		session(b, seedOf(1), seedOf(2))
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*ot.Kappa), "µs/OT")
}

// BenchmarkExtension runs batches of extended OTs, both sides on one core,
// and reports the time and bytes per OT.
func BenchmarkExtension(b *testing.B) {
	for _, m := range []int{1024, 16384} {
		b.Run(fmt.Sprint(m), func(b *testing.B) {
			s, r, _ := session(b, seedOf(1), seedOf(2))
			data := seedOf(3).Stream("data")
			choices := data.Bools(m)
			pairs := randomPairs(data, m)
			var bytes int
			b.ResetTimer()
			for range b.N {
				_, msgs := transfer(b, s, r, choices, pairs)
				bytes = len(msgs[0]) + len(msgs[1])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*m), "ns/OT")
			b.ReportMetric(float64(bytes)/float64(m), "B/OT")
		})
	}
}

// BenchmarkRandomOT runs batches of random OTs (SendRandom and
// ReceiveRandom, whose keys MPC-D61 hashes in batches), both sides on
// one core, and reports the time per OT.
func BenchmarkRandomOT(b *testing.B) {
	for _, m := range []int{ot.Kappa, 1024} {
		b.Run(fmt.Sprint(m), func(b *testing.B) {
			s, r, _ := session(b, seedOf(1), seedOf(2))
			choices := seedOf(3).Stream("data").Bools(m)
			b.ResetTimer()
			for range b.N {
				req, err := r.Request(choices)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.SendRandom(req); err != nil {
					b.Fatal(err)
				}
				if _, err := r.ReceiveRandom(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*m), "ns/OT")
		})
	}
}
