package ot

import (
	"testing"

	"github.com/kakure/kakure/protocol/mpc/prg"
)

func TestTranspose64(t *testing.T) {
	var seed prg.Seed
	r := seed.Stream("transpose")
	for range 20 {
		var a, orig [64]uint64
		for i := range a {
			a[i] = r.Uint64()
		}
		orig = a
		transpose64(&a)
		for row := range 64 {
			for col := range 64 {
				if a[row]>>col&1 != orig[col]>>row&1 {
					t.Fatalf("bit (%d,%d) wrong", row, col)
				}
			}
		}
	}
}

func TestColumnsToRows(t *testing.T) {
	var seed prg.Seed
	r := seed.Stream("rows")
	for _, kappa := range []int{Kappa, KappaMAC} {
		for _, m := range []int{1, 63, 64, 65, 200} {
			c := newColumns(kappa, m)
			for i := range kappa {
				r.Read(c.column(i)[:(m+7)/8])
			}
			rows := c.rows(m)
			for j := range m {
				for i := range 128 {
					var want byte
					if i < kappa {
						want = c.column(i)[j/8] >> (j % 8) & 1
					}
					if got := rows[j][i/8] >> (i % 8) & 1; got != want {
						t.Fatalf("κ = %d, m = %d: row %d bit %d = %d, want %d", kappa, m, j, i, got, want)
					}
				}
			}
		}
	}
}
