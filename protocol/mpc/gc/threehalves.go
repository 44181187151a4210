package gc

import (
	"encoding/binary"

	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// Three-halves garbling (Rosulek and Roy, CRYPTO 2021, ePrint 2021/749:
// "slicing and dicing"). The matrices V, M, S1, S2, Rp, Ra, Rb below are
// the paper's (§5, Figures 3 and 4 of the ePrint version).
// threehalves_paper_test.go states them in the paper's own 8×5, 8×6 and
// 4×2 forms, checks the identities the paper states of them
// (TestMPCD26PaperMatricesHold) and holds these tables, thSolutions and
// a garbled and evaluated gate to them
// (TestMPCD26ThreeHalvesMatchesThePaper). The paper's text itself could
// not be reached from here (MPC-D26 in docs/mpc.md lists what was
// searched): the matrices were checked against its transcription with
// page and figure numbers in themighty1/mpz (garble-core
// three_halves/{matrices,control}.rs) and against ENCRYPTO's MOTION
// (protocols/garbled_circuit), which agree with each other and with
// this file. TestThreeHalvesEveryCase checks every colour, coin and
// input case exhaustively.
//
// A label X is sliced into halves X = [X_L; X_R] (X_L is bytes 0..7, the
// lo word of blk, which holds the colour bit; X_R bytes 8..15); Δ = [Δ_L;
// Δ_R] with lsb 1, so free-XOR and point-and-permute are unchanged. The
// hash H(X, τ) of package aeshash gives a half H_L (its bytes 0..7) and
// one more bit H_b (its bit 127), the κ/2 + 1 bits the scheme asks of its
// hash.
//
// Evaluation of the j-th AND gate, from labels A, B of colours i, j
// (here (i, j) is the colour pair, k = 2i + j its index), the table
// G = (G0, G1, G2) and the control bits z = (z0..z4):
//
//	[r; X] = V_ij · [z; 0; 0; G] ⊕ M · [H(A, τ0); H(B, τ1); H(A ⊕ B, τ2)]
//	R_ij   = r_0 S1 ⊕ r_1 S2 ⊕ Rp_ij          (a 2×4 matrix over GF(2))
//	C      = X ⊕ R_ij · [A_L; A_R; B_L; B_R]
//
// with V_ij = [1 0 i 0 i⊕j; 0 1 0 j i⊕j] (acting on z for the bit part r
// and on (0, 0, G0, G1, G2) for the label part X) and M = [1 0 1; 0 1 1].
//
// The garbler, holding the zero labels A⁰, B⁰ of colours α, β and Δ,
// works with the colour-0 labels A_0 = A⁰ ⊕ αΔ, B_0 = B⁰ ⊕ βΔ; the
// gate's output is 1 at the colour pair t = (ᾱ, β̄) only. It draws two
// random coins ρ and takes R_ij = Rp_ij ⊕ decode(r_ij), where the
// compressed r_ij (which select S1, S2) are ρ_0·(1,0) ⊕ ρ_1·(0,1) ⊕
// ᾱ·Ra_ij ⊕ β̄·Rb_ij at every (i, j): the R_$ of the paper is the span of
// (S1 everywhere, S2 everywhere); ᾱRa ⊕ β̄Rb makes the stacked R (with the
// truth table) lie in the column space of the stacked V. It then solves
// the stacked equations V · [C⁰; G] = y, with y_ij = M·H_ij ⊕ R_ij·[A_i;
// B_j] ⊕ [ij = t]·Δ (and, for the bits, y_ij = M·Hb_ij ⊕ r_ij), by the
// left inverse of V:
//
//	C⁰_L = y00_L, C⁰_R = y00_R,
//	G0 = y00_L ⊕ y00_R ⊕ y10_L ⊕ y10_R, G1 = y00_L ⊕ y00_R ⊕ y01_L ⊕ y01_R,
//	G2 = y10_L ⊕ y11_L,
//
// and the same for z from the bits. C⁰ is the output zero label.
//
// Tweaks: the j-th AND gate of a garbling with instance n hashes with
// τ_m = (lo 1<<63 | 3j + m, hi n) for m = 0, 1, 2: H(A_·) with τ0,
// H(B_·) with τ1, H(A_· ⊕ B_·) with τ2; the garbler hashes both labels of
// each with the same tweak, as the evaluator can hash only one of them.
// The top bit keeps them apart from the half-gates tweaks (2j, 2j+1).

// The matrices, as 4-bit masks of [A_L, A_R, B_L, B_R] (bit 0 = A_L),
// row 0 (left half of C) then row 1.
var (
	// thS is S1 and S2, by row.
	thS = [2][2]uint8{{0b0111, 0b1001}, {0b1001, 0b1110}}
	// thRp is Rp_ij by colour pair k = 2i + j, by row.
	thRp = [4][2]uint8{{0b0100, 0b0010}, {0b0100, 0}, {0, 0b0010}, {0, 0}}
	// thRa and thRb are the compressed Ra_ij and Rb_ij by colour pair:
	// bit 0 selects S1, bit 1 S2.
	thRa = [4]uint8{0b00, 0b11, 0b10, 0b01}
	thRb = [4]uint8{0b00, 0b01, 0b11, 0b10}
)

// thSolution is the garbler's solution V⁻¹·y for one (ᾱ, β̄, ρ) without
// the hashes: per output m of [C⁰_L, C⁰_R, G0, G1, G2], a 6-bit mask of
// the halves [A_0L, A_0R, B_0L, B_0R, Δ_L, Δ_R] it XORs (the rows R_ij
// and the truth table's Δ at t), and z, V⁻¹ applied to the stacked
// compressed r_ij.
type thSolution struct {
	lin [5]uint8
	z   uint8
}

// rowTimes6 returns the XOR of the halves output m of s selects.
func (s *thSolution) rowTimes6(m int, h *[6]uint64) uint64 {
	x := uint64(s.lin[m])
	return h[0]&mask(x) ^ h[1]&mask(x>>1) ^ h[2]&mask(x>>2) ^ h[3]&mask(x>>3) ^ h[4]&mask(x>>4) ^ h[5]&mask(x>>5)
}

// thSolutions holds the thSolution of every ᾱ, β̄ and coins ρ, at index
// ᾱ<<3 | β̄<<2 | ρ, worked out from the matrices above: the compressed
// r_ij = ρ_0·(1,0) ⊕ ρ_1·(0,1) ⊕ ᾱ·Ra_ij ⊕ β̄·Rb_ij, R_ij = r_0 S1 ⊕
// r_1 S2 ⊕ Rp_ij, the rows y_ij = R_ij·[A_0 ⊕ iΔ; B_0 ⊕ jΔ] ⊕ [ij = t]·Δ
// of the four colour pairs stacked, and V⁻¹ (C⁰_L = y00_L, C⁰_R = y00_R,
// G0 = y00_L ⊕ y00_R ⊕ y10_L ⊕ y10_R, G1 = y00_L ⊕ y00_R ⊕ y01_L ⊕ y01_R,
// G2 = y10_L ⊕ y11_L).
var thSolutions = func() (sols [16]thSolution) {
	for idx := range sols {
		notAlpha, notBeta, rho := uint8(idx>>3&1), uint8(idx>>2&1), uint8(idx&3)
		truth := int(notAlpha)<<1 | int(notBeta)
		var y [8]uint8 // stacked rows: k = 2i+j, left then right
		var yb [8]uint8
		for k := range 4 {
			i, j := uint8(k>>1), uint8(k&1)
			r := rho ^ notAlpha*thRa[k] ^ notBeta*thRb[k]
			r0, r1 := r&1, r>>1
			for row := range 2 {
				m := r0*thS[0][row] ^ r1*thS[1][row] ^ thRp[k][row]
				// A_i = A_0 ⊕ iΔ, B_j = B_0 ⊕ jΔ: the Δ halves get the
				// A columns' bits when i = 1 and the B columns' when j = 1.
				dL := i*(m&1) ^ j*(m>>2&1)
				dR := i*(m>>1&1) ^ j*(m>>3&1)
				y[2*k+row] = m | dL<<4 | dR<<5
				if k == truth {
					y[2*k+row] ^= 1 << (4 + row)
				}
			}
			yb[2*k], yb[2*k+1] = r0, r1
		}
		vinv := func(v *[8]uint8) [5]uint8 {
			return [5]uint8{v[0], v[1], v[0] ^ v[1] ^ v[4] ^ v[5], v[0] ^ v[1] ^ v[2] ^ v[3], v[4] ^ v[6]}
		}
		sols[idx].lin = vinv(&y)
		zb := vinv(&yb)
		for m, b := range zb {
			sols[idx].z |= b << m
		}
	}
	return sols
}()

// threeHalvesTweakBit marks the tweaks of three-halves gates.
const threeHalvesTweakBit = 1 << 63

// thTweaks returns the tweaks τ0, τ1, τ2 of AND gate j.
func thTweaks(j, instance uint64) (blk, blk, blk) {
	b := threeHalvesTweakBit | 3*j
	return blk{b, instance}, blk{b + 1, instance}, blk{b + 2, instance}
}

// mask returns all ones if bit is 1, else zero.
func mask(bit uint64) uint64 { return -(bit & 1) }

// rowTimes returns the XOR of the halves [a.lo, a.hi, b.lo, b.hi] that
// the 4-bit mask m selects.
func rowTimes(m uint8, a, b blk) uint64 {
	x := uint64(m)
	return a.lo&mask(x) ^ a.hi&mask(x>>1) ^ b.lo&mask(x>>2) ^ b.hi&mask(x>>3)
}

// hashBit returns the extra bit H_b of a hash output.
func hashBit(h blk) uint64 { return h.hi >> 63 }

// threeHalvesGates returns the number of AND gates whose ThreeHalves
// tables take n bytes (TablesSize rounds 197 bits per gate up to bytes,
// less than one byte, so the floor of 8n/197 is exact).
func threeHalvesGates(n int) int { return 8 * n / (8*ThreeHalvesTableSize + threeHalvesControlBits) }

// controlBits returns the five control bits of AND gate j of ThreeHalves
// tables of nAND gates, z0 in bit 0.
func controlBits(tables []byte, nAND, j int) uint8 {
	ctl := tables[nAND*ThreeHalvesTableSize:]
	p := threeHalvesControlBits * j
	w := uint16(ctl[p/8])
	if p/8+1 < len(ctl) {
		w |= uint16(ctl[p/8+1]) << 8
	}
	return uint8(w>>(p%8)) & (1<<threeHalvesControlBits - 1)
}

// setControlBits writes the five control bits z of AND gate j into
// tables, whose control bits start zero.
func setControlBits(tables []byte, nAND, j int, z uint8) {
	ctl := tables[nAND*ThreeHalvesTableSize:]
	p := threeHalvesControlBits * j
	w := uint16(z&(1<<threeHalvesControlBits-1)) << (p % 8)
	ctl[p/8] |= byte(w)
	if w>>8 != 0 {
		ctl[p/8+1] |= byte(w >> 8)
	}
}

// garbleGates3 garbles the gates (in circuit order) with ThreeHalves, writing the zero label
// of every gate output into w and the tables of the nAND AND gates into
// tables; coins holds two random bits per AND gate (ρ0 at bit 2j, ρ1 at
// 2j+1). The caller has validated the circuit and sized w, coins and
// tables.
func garbleGates3(gates []circuit.Gate, w []blk, delta blk, instance uint64, coins []byte, tables []byte, nAND int) {
	h := &thHash{asm: useFused(), rk: &roundKeys}
	j := 0
	for _, g := range gates {
		switch g.Op {
		case circuit.OpXOR:
			w[g.Out] = w[g.A].xor(w[g.B])
		case circuit.OpINV:
			w[g.Out] = w[g.A].xor(delta)
		case circuit.OpAND:
			rho := coins[2*j/8] >> (2 * j % 8) & 0b11
			t := tables[j*ThreeHalvesTableSize : (j+1)*ThreeHalvesTableSize]
			var z uint8
			w[g.Out], z = garbleAND3(h, w[g.A], w[g.B], delta, uint64(j), instance, rho, t)
			setControlBits(tables, nAND, j, z)
			j++
		}
	}
}

// garbleAND3 garbles one AND gate, the j-th, with ThreeHalves from the
// zero labels a, b of its inputs and the coins rho (two bits), writes
// its three half ciphertexts to t and returns its output zero label and
// its control bits.
func garbleAND3(h *thHash, a, b, delta blk, j, instance uint64, rho uint8, t []byte) (blk, uint8) {
	alpha, beta := a.lo&1, b.lo&1
	a0 := a.xor(delta.and(mask(alpha))) // colour-0 labels
	b0 := b.xor(delta.and(mask(beta)))
	t0, t1, t2 := thTweaks(j, instance)
	x0 := a0.xor(b0)
	var hs [6]blk
	h.hash(&[6]blk{a0, a0.xor(delta), b0, b0.xor(delta), x0, x0.xor(delta)}, &[6]blk{t0, t0, t1, t1, t2, t2}, &hs)
	// [C⁰; G] = V⁻¹·y: the part of R and the truth table, precomputed
	// for (ᾱ, β̄, ρ), then the hashes' (M·H stacked, through V⁻¹).
	sol := &thSolutions[(alpha^1)<<3|(beta^1)<<2|uint64(rho)]
	halves := [6]uint64{a0.lo, a0.hi, b0.lo, b0.hi, delta.lo, delta.hi}
	var u [5]uint64
	for m := range u {
		u[m] = sol.rowTimes6(m, &halves)
	}
	hA0, hA1, hB0, hB1, hX0, hX1 := hs[0], hs[1], hs[2], hs[3], hs[4], hs[5]
	c0L := u[0] ^ hA0.lo ^ hX0.lo
	c0R := u[1] ^ hB0.lo ^ hX0.lo
	g0 := u[2] ^ hA0.lo ^ hA1.lo
	g1 := u[3] ^ hB0.lo ^ hB1.lo
	g2 := u[4] ^ hX0.lo ^ hX1.lo
	z := sol.z ^ uint8(hashBit(hA0)^hashBit(hX0)|(hashBit(hB0)^hashBit(hX0))<<1|
		(hashBit(hA0)^hashBit(hA1))<<2|(hashBit(hB0)^hashBit(hB1))<<3|(hashBit(hX0)^hashBit(hX1))<<4)
	binary.LittleEndian.PutUint64(t[0:], g0)
	binary.LittleEndian.PutUint64(t[8:], g1)
	binary.LittleEndian.PutUint64(t[16:], g2)
	return blk{c0L, c0R}, z
}

// evaluateGates3 evaluates the gates (in circuit order) on the labels
// in w with the
// ThreeHalves tables of nAND AND gates. The caller has validated the
// circuit and the size of the tables.
func evaluateGates3(gates []circuit.Gate, w []blk, instance uint64, tables []byte, nAND int) {
	h := &thHash{asm: useFused(), rk: &roundKeys}
	j := 0
	for _, g := range gates {
		switch g.Op {
		case circuit.OpXOR:
			w[g.Out] = w[g.A].xor(w[g.B])
		case circuit.OpINV:
			w[g.Out] = w[g.A]
		case circuit.OpAND:
			t := tables[j*ThreeHalvesTableSize : (j+1)*ThreeHalvesTableSize]
			w[g.Out] = evaluateAND3(h, w[g.A], w[g.B], uint64(j), instance, t, controlBits(tables, nAND, j))
			j++
		}
	}
}

// evaluateAND3 evaluates the j-th AND gate from the labels a, b of its
// inputs, its half ciphertexts t and its control bits z.
func evaluateAND3(h *thHash, a, b blk, j, instance uint64, t []byte, z uint8) blk {
	i, jj := a.lo&1, b.lo&1
	t0, t1, t2 := thTweaks(j, instance)
	var hs [3]blk
	h.hash3(&[3]blk{a, b, a.xor(b)}, &[3]blk{t0, t1, t2}, &hs)
	hA, hB, hX := hs[0], hs[1], hs[2]
	g0 := binary.LittleEndian.Uint64(t[0:])
	g1 := binary.LittleEndian.Uint64(t[8:])
	g2 := binary.LittleEndian.Uint64(t[16:])
	zz := uint64(z)
	ij := i ^ jj
	// [r; X] = V_ij [z; 0; 0; G] ⊕ M H.
	r0 := zz ^ i&(zz>>2) ^ ij&(zz>>4) ^ hashBit(hA) ^ hashBit(hX)
	r1 := zz>>1 ^ jj&(zz>>3) ^ ij&(zz>>4) ^ hashBit(hB) ^ hashBit(hX)
	xL := g0&mask(i) ^ g2&mask(ij) ^ hA.lo ^ hX.lo
	xR := g1&mask(jj) ^ g2&mask(ij) ^ hB.lo ^ hX.lo
	k := 2*i + jj
	s0, s1 := uint8(r0&1), uint8(r1&1)
	row0 := s0*thS[0][0] ^ s1*thS[1][0] ^ thRp[k][0]
	row1 := s0*thS[0][1] ^ s1*thS[1][1] ^ thRp[k][1]
	return blk{xL ^ rowTimes(row0, a, b), xR ^ rowTimes(row1, a, b)}
}

// thHash computes the TCCR hash H(x, τ) = π(π(x) ⊕ τ) ⊕ π(x) of package
// aeshash on six blocks (garbling) or three (evaluation): with AES-NI,
// all blocks in flight, where the fused gate routines run ([useFused]);
// otherwise through crypto/aes, one block at a time from a scratch
// buffer. Both give the same hashes (TestThreeHalvesHashPaths); neither
// allocates.
type thHash struct {
	*gateHash // crypto/aes, set up by hashGo when it first runs
	asm       bool
	rk        *[176]byte
}

// newThreeHalvesHash returns a thHash. It sets up crypto/aes only when
// hashGo first runs, so that hashing on the assembly path allocates no
// cipher.
func newThreeHalvesHash() *thHash {
	return &thHash{asm: useFused(), rk: &roundKeys}
}

// hash sets out[k] = H(x[k], t[k]) for k = 0..5.
func (h *thHash) hash(x, t, out *[6]blk) {
	if h.asm {
		tccr6AESNI(h.rk, x, t, out)
		return
	}
	h.hashGo(x[:], t[:], out[:])
}

// hash3 sets out[k] = H(x[k], t[k]) for k = 0..2.
func (h *thHash) hash3(x, t, out *[3]blk) {
	if h.asm {
		tccr3AESNI(h.rk, x, t, out)
		return
	}
	h.hashGo(x[:], t[:], out[:])
}

// hashGo is hash and hash3 without AES-NI: out[k] = H(x[k], t[k]) through
// crypto/aes, the blocks of each round in flight together.
func (h *thHash) hashGo(x, t, out []blk) {
	if h.gateHash == nil {
		h.gateHash = newGateHash()
	}
	for k := range x {
		h.put(k, x[k])
		h.enc(k)
	}
	for k := range x {
		p := h.get(k)
		out[k] = p
		h.put(k, p.xor(t[k]))
		h.enc(k)
	}
	for k := range x {
		out[k] = out[k].xor(h.get(k))
	}
}
