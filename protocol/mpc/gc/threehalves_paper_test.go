package gc

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/aeshash"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// The matrices of Rosulek and Roy, "Three Halves Make a Whole? Beating
// the Half-Gates Lower Bound for Garbled Circuits" (CRYPTO 2021, ePrint
// 2021/749), §5, in the paper's notation and layout, written out here
// independently of threehalves.go.
//
// Where they come from (MPC-D26, docs/mpc.md): the paper's own text could
// not be reached from this project's tools (its abstract, the cryptodb
// record and the Springer chapter's introduction could; §4–§5 and the
// figures could not). The matrices below are the paper's as transcribed,
// with the ePrint version's page, figure and equation numbers, in
// github.com/themighty1/mpz@3ef39db74e222661ef8b239b9616fbba0649018b,
// crates/garble-core/src/three_halves/matrices.rs (K, V, M: pp. 10–12,
// Eq. 3; V⁻¹: p. 18, Eq. 10; V⁻¹M: p. 21, Eq. 12) and control.rs (S1,
// S2, R_p, R_a, R_b, R$ and their compressed forms R̄: Figures 3 and 4,
// p. 14; K·R_p, K·R_a, K·R_b: Eq. 7). They agree entry for entry with
// ENCRYPTO's implementation (github.com/encryptogroup/MOTION, src/motioncore/
// protocols/garbled_circuit/garbled_circuit_provider.cpp@71003bd71020d0d77329afbd6dfb04558e2fffad
// and garbled_circuit_utility.h@f24533f88d3a2b820384d9d49b689656109693bf:
// S1, S2, R_p, V_ij, V⁻¹, V⁻¹M, compressed R_a, R_b and R$) and with
// github.com/GarbleCoder/Implementation-of-threehalves
// (emp-tool/gc/tregate_gen.h@b4fbdc9f1a711048777538bc75eec55d39d3e0ec:
// V⁻¹R_p, V⁻¹R_a, V⁻¹R_b, V⁻¹R$ and V⁻¹[0 0 t] as its bool arrays
// write them; its packed VinvT for the 1 at colours (1, 1) has one entry
// more, G1's B_L, which looks like a slip there). As none of these is
// the paper itself, TestMPCD26PaperMatricesHold first checks
// the identities the paper states of them (KV = 0, KM = 0, V⁻¹V = I,
// K·R$ = 0, Eq. 7, Eq. 12, and KR = K[0 0 t] for every gate): a slip in
// copying one entry breaks one of these.
//
// Layout. Rows 2k and 2k+1 (k = 2i + j) are the left and right halves of
// the evaluator's equation at colours (i, j). V's columns are C_L, C_R,
// G0, G1, G2; M's are H(A0), H(A1), H(B0), H(B1), H(A0⊕B0), H(A0⊕B1);
// the control matrices' are A0_L, A0_R, B0_L, B0_R, Δ_L, Δ_R, where A0,
// B0 are the labels of colour 0. S1 and S2 are 2×4 over A_L, A_R, B_L,
// B_R; a row of R̄ is (c1, c2), the marginal view R_ij = c1·S1 ⊕ c2·S2.
var (
	paperK = mat(
		"10|10|10|10",
		"01|01|01|01",
		"00|01|10|11",
	)
	paperV = mat(
		"10|000",
		"01|000",
		"10|001",
		"01|011",
		"10|101",
		"01|001",
		"10|100",
		"01|010",
	)
	paperM = mat(
		"10|00|10",
		"00|10|10",
		"10|00|01",
		"00|01|01",
		"01|00|01",
		"00|10|01",
		"01|00|10",
		"00|01|10",
	)
	paperVinv = mat(
		"10|00|00|00",
		"01|00|00|00",
		"11|00|11|00",
		"11|11|00|00",
		"00|00|10|10",
	)
	paperVinvM = mat( // Eq. 12
		"10|00|10",
		"00|10|10",
		"11|00|00",
		"00|11|00",
		"00|00|11",
	)
	paperS1 = mat(
		"11|10",
		"10|01",
	)
	paperS2 = mat(
		"10|01",
		"01|11",
	)
	paperRp = mat( // Figure 4: the public part of every odd-parity gate
		"00|10|00",
		"01|00|00",
		"00|10|10",
		"00|00|00",
		"00|00|00",
		"01|00|01",
		"00|00|00",
		"00|00|00",
	)
	paperRa = mat(
		"00|00|00",
		"00|00|00",
		"01|11|11",
		"11|10|10",
		"10|01|10",
		"01|11|01",
		"11|10|01",
		"10|01|11",
	)
	paperRb = mat(
		"00|00|00",
		"00|00|00",
		"11|10|10",
		"10|01|01",
		"01|11|01",
		"11|10|11",
		"10|01|11",
		"01|11|10",
	)
	// paperRdollar is the basis of R$, the uniform part of R.
	paperRdollar = [2][][]uint8{mat(
		"11|10|00",
		"10|01|00",
		"11|10|10",
		"10|01|01",
		"11|10|11",
		"10|01|10",
		"11|10|01",
		"10|01|11",
	), mat(
		"10|01|00",
		"01|11|00",
		"10|01|01",
		"01|11|11",
		"10|01|10",
		"01|11|01",
		"10|01|11",
		"01|11|10",
	)}
	paperRbarA = mat("00", "11", "01", "10")
	paperRbarB = mat("00", "10", "11", "01")
	// paperRbarDollar is the basis of R̄$: (1 0) in every row, (0 1) in
	// every row.
	paperRbarDollar = [2][][]uint8{mat("10", "10", "10", "10"), mat("01", "01", "01", "01")}
	// Eq. 7.
	paperKRp = mat("0000|10", "0000|01", "0000|00")
	paperKRa = mat("0000|00", "0000|00", "0000|10")
	paperKRb = mat("0000|00", "0000|00", "0000|01")
)

// mat parses a matrix over GF(2) written one row a string; '|' and
// spaces only separate blocks, as the paper prints them.
func mat(rows ...string) [][]uint8 {
	m := make([][]uint8, len(rows))
	for r, s := range rows {
		for _, c := range strings.NewReplacer("|", "", " ", "").Replace(s) {
			m[r] = append(m[r], uint8(c-'0'))
		}
	}
	return m
}

func zeros(rows, cols int) [][]uint8 {
	m := make([][]uint8, rows)
	for r := range m {
		m[r] = make([]uint8, cols)
	}
	return m
}

func matMul(a, b [][]uint8) [][]uint8 {
	p := zeros(len(a), len(b[0]))
	for r := range a {
		for c := range b[0] {
			for k := range b {
				p[r][c] ^= a[r][k] & b[k][c]
			}
		}
	}
	return p
}

// matSum returns the XOR of the matrices, each taken if its coefficient
// is 1.
func matSum(coef []uint8, ms ...[][]uint8) [][]uint8 {
	s := zeros(len(ms[0]), len(ms[0][0]))
	for n, m := range ms {
		for r := range m {
			for c := range m[r] {
				s[r][c] ^= coef[n] & m[r][c]
			}
		}
	}
	return s
}

func identity(n int) [][]uint8 {
	m := zeros(n, n)
	for i := range m {
		m[i][i] = 1
	}
	return m
}

func matString(m [][]uint8) string {
	var b strings.Builder
	for _, row := range m {
		fmt.Fprintf(&b, "%v", row)
	}
	return b.String()
}

func matEqual(a, b [][]uint8) bool { return matString(a) == matString(b) }

// truthMatrix is [0 0 t] of the paper for an odd gate whose single 1 is
// at colours k = 2a + b: Δ_L in row 2k, Δ_R in row 2k+1.
func truthMatrix(k int) [][]uint8 {
	m := zeros(8, 6)
	m[2*k][4], m[2*k+1][5] = 1, 1
	return m
}

// paperR is R = R_p ⊕ a·R_a ⊕ b·R_b ⊕ R$ for the gate whose 1 is at
// colours (a, b) and the coins ρ (ρ0 takes the first basis matrix of R$,
// ρ1 the second), with R̄, its compressed form without R_p (public, added
// by the evaluator).
func paperR(a, b, rho uint8) (r, rbar [][]uint8) {
	coef := []uint8{1, a, b, rho & 1, rho >> 1 & 1}
	r = matSum(coef, paperRp, paperRa, paperRb, paperRdollar[0], paperRdollar[1])
	rbar = matSum(coef[1:], paperRbarA, paperRbarB, paperRbarDollar[0], paperRbarDollar[1])
	return r, rbar
}

// expandMarginal returns the 8×6 rows of block k = 2i + j of a control
// matrix whose marginal view there is c1·S1 ⊕ c2·S2: the A and B columns
// are the view, the Δ columns i·(A part) ⊕ j·(B part), since the
// evaluator applies the view to A_i = A0 ⊕ iΔ, B_j = B0 ⊕ jΔ (the paper's
// Eq. 6 shape of R).
func expandMarginal(k int, c1, c2 uint8) [][]uint8 {
	i, j := uint8(k>>1), uint8(k&1)
	view := matSum([]uint8{c1, c2}, paperS1, paperS2)
	rows := zeros(2, 6)
	for r := range 2 {
		copy(rows[r], view[r])
		rows[r][4] = i&view[r][0] ^ j&view[r][2]
		rows[r][5] = i&view[r][1] ^ j&view[r][3]
	}
	return rows
}

// TestMPCD26PaperMatricesHold: the matrices above, as transcribed from
// the paper, satisfy what the paper says of them, so a copying slip in
// any entry shows: K is the cokernel of V and of M (KV = KM = 0), V⁻¹ is
// a left inverse of V, V⁻¹M is Eq. 12, K·R$ = 0 and Eq. 7 for R_p, R_a,
// R_b; R_a, R_b and R$ are their compressed forms expanded with S1, S2
// (with the Δ columns of Eq. 6), R_p has that shape too; and, what
// correctness needs, KR = K[0 0 t] for every position (a, b) of the
// gate's 1 and every R$, while each marginal view R̄_ij runs over all four
// values as R$ does, for every (a, b), which is what hides t.
func TestMPCD26PaperMatricesHold(t *testing.T) {
	check := func(what string, got, want [][]uint8) {
		t.Helper()
		if !matEqual(got, want) {
			t.Errorf("%s = %s, want %s", what, matString(got), matString(want))
		}
	}
	check("KV", matMul(paperK, paperV), zeros(3, 5))
	check("KM", matMul(paperK, paperM), zeros(3, 6))
	check("V⁻¹V", matMul(paperVinv, paperV), identity(5))
	check("V⁻¹M", matMul(paperVinv, paperM), paperVinvM)
	for n, rd := range paperRdollar {
		check(fmt.Sprintf("K·R$%d", n), matMul(paperK, rd), zeros(3, 6))
	}
	check("K·R_p", matMul(paperK, paperRp), paperKRp)
	check("K·R_a", matMul(paperK, paperRa), paperKRa)
	check("K·R_b", matMul(paperK, paperRb), paperKRb)

	for name, pair := range map[string]struct{ full, bar [][]uint8 }{
		"R_a": {paperRa, paperRbarA}, "R_b": {paperRb, paperRbarB},
		"R$0": {paperRdollar[0], paperRbarDollar[0]}, "R$1": {paperRdollar[1], paperRbarDollar[1]},
	} {
		for k := range 4 {
			check(fmt.Sprintf("%s block %d", name, k), pair.full[2*k:2*k+2], expandMarginal(k, pair.bar[k][0], pair.bar[k][1]))
		}
	}
	for k := range 4 {
		i, j := uint8(k>>1), uint8(k&1)
		for r := 2 * k; r < 2*k+2; r++ {
			row := paperRp[r]
			if row[4] != i&row[0]^j&row[2] || row[5] != i&row[1]^j&row[3] {
				t.Errorf("R_p row %d: Δ columns are not i·A ⊕ j·B", r)
			}
		}
	}

	for pos := range 4 {
		a, b := uint8(pos>>1), uint8(pos&1)
		seen := [4]map[string]bool{{}, {}, {}, {}}
		for rho := range uint8(4) {
			r, rbar := paperR(a, b, rho)
			check(fmt.Sprintf("KR (a=%d b=%d ρ=%d)", a, b, rho), matMul(paperK, r), matMul(paperK, truthMatrix(pos)))
			for k := range 4 {
				seen[k][fmt.Sprint(rbar[k])] = true
			}
		}
		for k := range 4 {
			if len(seen[k]) != 4 {
				t.Errorf("a=%d b=%d: the marginal view R̄ at colours %d takes %d values over R$, want all 4", a, b, k, len(seen[k]))
			}
		}
	}
}

// maskOf returns the bit mask of a row of 0/1 entries, entry c at bit c
// (the layout of threehalves.go's masks: A_L, A_R, B_L, B_R, Δ_L, Δ_R).
func maskOf(row []uint8) uint8 {
	var m uint8
	for c, v := range row {
		m |= v << c
	}
	return m
}

// TestMPCD26ThreeHalvesMatchesThePaper: the tables of threehalves.go are
// the paper's matrices (above), and an AND gate garbled and evaluated by
// garbleAND3 and evaluateAND3 is the one the paper's formulas, written
// out here, give:
//
//   - thS is S1, S2; thRa, thRb are R̄_a, R̄_b (bit 0 the coefficient of
//     S1); thRp[k] is R_p's marginal view at colours k;
//   - thSolutions, for every ᾱ, β̄ and coins ρ, is V⁻¹(R ⊕ [0 0 t]) with
//     R = R_p ⊕ ᾱR_a ⊕ β̄R_b ⊕ R$ (t's 1 at (ᾱ, β̄)), and its control bits
//     V⁻¹R̄;
//   - for random labels and Δ, every colour of the inputs' zero labels
//     and every ρ: [C0; G] = V⁻¹(M·H ⊕ (R ⊕ [0 0 t])·[A0; B0; Δ]) and
//     z = V⁻¹(R̄ ⊕ M·H_b), with the six hashes of MPC-D26 (H's half is
//     its bytes 0..7, H_b its bit 127; tweaks (2^63 | 3j+m, instance)),
//     equal the code's output zero label, table and control bits, and
//     the stacked system is consistent (V[C0; G] is the right-hand side);
//   - at each colour pair (i, j) the paper's evaluator, [r; X] =
//     V_ij[z; 0 0 G] ⊕ M_ij·H, R_ij = r0·S1 ⊕ r1·S2 ⊕ (R_p)_ij,
//     C = X ⊕ R_ij[A_i; B_j], gets what evaluateAND3 gets, and that is
//     C0 ⊕ Δ at the colours of the gate's 1 and C0 elsewhere.
func TestMPCD26ThreeHalvesMatchesThePaper(t *testing.T) {
	for n, s := range [][][]uint8{paperS1, paperS2} {
		for row := range 2 {
			if got, want := thS[n][row], maskOf(s[row]); got != want {
				t.Errorf("thS[%d] row %d = %04b, want S%d's %04b", n, row, got, n+1, want)
			}
		}
	}
	for k := range 4 {
		if got, want := thRa[k], paperRbarA[k][0]|paperRbarA[k][1]<<1; got != want {
			t.Errorf("thRa[%d] = %02b, want R̄_a's %02b", k, got, want)
		}
		if got, want := thRb[k], paperRbarB[k][0]|paperRbarB[k][1]<<1; got != want {
			t.Errorf("thRb[%d] = %02b, want R̄_b's %02b", k, got, want)
		}
		for row := range 2 {
			if got, want := thRp[k][row], maskOf(paperRp[2*k+row][:4]); got != want {
				t.Errorf("thRp[%d] row %d = %04b, want R_p's %04b", k, row, got, want)
			}
		}
	}
	for idx := range thSolutions {
		notAlpha, notBeta, rho := uint8(idx>>3&1), uint8(idx>>2&1), uint8(idx&3)
		r, rbar := paperR(notAlpha, notBeta, rho)
		lin := matMul(paperVinv, matSum([]uint8{1, 1}, r, truthMatrix(int(2*notAlpha+notBeta))))
		for m := range 5 {
			if got, want := thSolutions[idx].lin[m], maskOf(lin[m]); got != want {
				t.Errorf("thSolutions[ᾱ=%d β̄=%d ρ=%d] output %d = %06b, want V⁻¹(R⊕[0 0 t])'s %06b",
					notAlpha, notBeta, rho, m, got, want)
			}
		}
		if got, want := thSolutions[idx].z, colMask(matMul(paperVinv, stack(rbar))); got != want {
			t.Errorf("thSolutions[ᾱ=%d β̄=%d ρ=%d] control bits %05b, want V⁻¹R̄'s %05b", notAlpha, notBeta, rho, got, want)
		}
	}

	ref := aeshash.NewHasher()
	hash := func(x, tweak blk) (half uint64, bit uint8) {
		h := toBlk(ref.Hash(x.label(), tweak.label()))
		return h.lo, uint8(h.hi >> 63)
	}
	h := newThreeHalvesHash()
	st := prg.Seed{26}.Stream("three-halves against the paper")
	draw := func() blk {
		var b [16]byte
		st.Read(b[:])
		return blk{binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])}
	}
	for trial := range 8 {
		delta := draw()
		delta.lo |= 1
		j, instance := uint64(trial*977), uint64(trial)<<40|7
		tweaks := [3]blk{{1<<63 | 3*j, instance}, {1<<63 | 3*j + 1, instance}, {1<<63 | 3*j + 2, instance}}
		for cases := range 16 {
			alpha, beta, rho := uint64(cases&1), uint64(cases>>1&1), uint8(cases>>2)
			a, b := draw(), draw()
			a.lo, b.lo = a.lo&^1|alpha, b.lo&^1|beta // zero labels of colours α, β
			var table [ThreeHalvesTableSize]byte
			c0, z := garbleAND3(h, a, b, delta, j, instance, rho, table[:])

			// The paper's garbler.
			a0, b0 := a, b // colour-0 labels
			if alpha == 1 {
				a0 = a.xor(delta)
			}
			if beta == 1 {
				b0 = b.xor(delta)
			}
			notAlpha, notBeta := uint8(alpha^1), uint8(beta^1)
			one := int(2*notAlpha + notBeta)
			r, rbar := paperR(notAlpha, notBeta, rho)
			rt := matSum([]uint8{1, 1}, r, truthMatrix(one))
			x := []uint64{a0.lo, a0.hi, b0.lo, b0.hi, delta.lo, delta.hi}
			var hv [6]uint64
			var hb [6]uint8
			for m, in := range []blk{a0, a0.xor(delta), b0, b0.xor(delta), a0.xor(b0), a0.xor(b0).xor(delta)} {
				hv[m], hb[m] = hash(in, tweaks[m/2])
			}
			rhs := make([]uint64, 8)
			rhsBits := stack(rbar)
			for row := range 8 {
				for c := range 6 {
					rhs[row] ^= mask(uint64(paperM[row][c])) & hv[c]
					rhs[row] ^= mask(uint64(rt[row][c])) & x[c]
					rhsBits[row][0] ^= paperM[row][c] & hb[c]
				}
			}
			sol := apply(paperVinv, rhs)
			zPaper := colMask(matMul(paperVinv, rhsBits))
			if back := apply(paperV, sol); fmt.Sprint(back) != fmt.Sprint(rhs) {
				t.Fatalf("α=%d β=%d ρ=%d: V·V⁻¹y ≠ y, the stacked equations have no solution", alpha, beta, rho)
			}
			gotG := [3]uint64{binary.LittleEndian.Uint64(table[0:]), binary.LittleEndian.Uint64(table[8:]), binary.LittleEndian.Uint64(table[16:])}
			if c0 != (blk{sol[0], sol[1]}) || gotG != [3]uint64{sol[2], sol[3], sol[4]} || z != zPaper {
				t.Fatalf("trial %d α=%d β=%d ρ=%d: garbleAND3 gives C0 %x G %x z %05b, the paper's formulas C0 %x G %x z %05b",
					trial, alpha, beta, rho, c0, gotG, z, sol[:2], sol[2:], zPaper)
			}

			// The paper's evaluator at each colour pair.
			for k := range 4 {
				i, jj := uint8(k>>1), uint8(k&1)
				ai, bj := a0, b0
				if i == 1 {
					ai = ai.xor(delta)
				}
				if jj == 1 {
					bj = bj.xor(delta)
				}
				var he [3]uint64
				var hbe [3]uint8
				for m, in := range []blk{ai, bj, ai.xor(bj)} {
					he[m], hbe[m] = hash(in, tweaks[m])
				}
				// M's columns the evaluator can compute at (i, j):
				// H(A_i), H(B_j), H(A_i ⊕ B_j) = H(A0 ⊕ B_{i⊕j}).
				cols := [3]int{int(i), 2 + int(jj), 4 + int(i^jj)}
				var xh [2]uint64
				var rbits [2]uint8
				for half := range 2 {
					row := 2*k + half
					for m, c := range cols {
						xh[half] ^= mask(uint64(paperM[row][c])) & he[m]
						rbits[half] ^= paperM[row][c] & hbe[m]
					}
					for c := range 5 {
						rbits[half] ^= paperV[row][c] & uint8(z>>c&1)
						if c >= 2 {
							xh[half] ^= mask(uint64(paperV[row][c])) & gotG[c-2]
						}
					}
				}
				for row, col := range paperM[2*k : 2*k+2] {
					for c, v := range col {
						if v == 1 && c != cols[0] && c != cols[1] && c != cols[2] {
							t.Fatalf("M row %d uses hash %d, which the evaluator at colours %d cannot compute", 2*k+row, c, k)
						}
					}
				}
				view := matSum([]uint8{rbits[0], rbits[1], 1}, paperS1, paperS2, cutCols(paperRp[2*k:2*k+2], 4))
				labels := []uint64{ai.lo, ai.hi, bj.lo, bj.hi}
				want := blk{xh[0] ^ apply(view, labels)[0], xh[1] ^ apply(view, labels)[1]}
				got := evaluateAND3(h, ai, bj, j, instance, table[:], z)
				if got != want {
					t.Fatalf("trial %d α=%d β=%d ρ=%d colours %d: evaluateAND3 gives %x, the paper's evaluator %x", trial, alpha, beta, rho, k, got, want)
				}
				out := c0
				if k == one {
					out = out.xor(delta)
				}
				if got != out {
					t.Fatalf("trial %d α=%d β=%d ρ=%d colours %d: output label %x, want %x (the gate's 1 is at colours %d)", trial, alpha, beta, rho, k, got, out, one)
				}
			}
		}
	}
}

// stack returns R̄ (4×2) as the 8×1 column the paper's V⁻¹ applies to:
// row 2k is c1 of colours k, row 2k+1 its c2.
func stack(rbar [][]uint8) [][]uint8 {
	col := zeros(8, 1)
	for k := range 4 {
		col[2*k][0], col[2*k+1][0] = rbar[k][0], rbar[k][1]
	}
	return col
}

// colMask returns the bit mask of the column vector v (n×1), entry r at
// bit r.
func colMask(v [][]uint8) uint8 {
	var m uint8
	for r := range v {
		m |= v[r][0] << r
	}
	return m
}

// apply returns m·v over GF(2) for a vector of 64-bit halves.
func apply(m [][]uint8, v []uint64) []uint64 {
	out := make([]uint64, len(m))
	for r := range m {
		for c := range m[r] {
			out[r] ^= mask(uint64(m[r][c])) & v[c]
		}
	}
	return out
}

// cutCols returns the first n columns of m.
func cutCols(m [][]uint8, n int) [][]uint8 {
	out := make([][]uint8, len(m))
	for r := range m {
		out[r] = m[r][:n]
	}
	return out
}
