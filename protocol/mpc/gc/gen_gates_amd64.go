//go:build ignore

// gen_gates_amd64 writes gates_amd64.s, the fused AES-NI and VAES gate
// routines of half-gates, and threehalves_amd64.s, those of three-halves
// and its pipelined TCCR hashes (run by go generate, with its second file
// gen_threehalves_amd64.go, which holds the three-halves routines): the
// AES rounds of the blocks in flight are unrolled here rather than by
// hand. With -dir it writes them to another directory
// (TestGeneratedAssemblyUpToDate compares that output with the
// checked-in files).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

var out strings.Builder

// e writes one instruction.
func e(format string, args ...any) { fmt.Fprintf(&out, "\t"+format+"\n", args...) }

// rounds runs AES-128 under the key schedule at AX on the registers regs,
// round by round, the round key in X15.
func rounds(regs []int) {
	e("MOVOU 0(AX), X15")
	for _, r := range regs {
		e("PXOR X15, X%d", r)
	}
	for k := 1; k < 10; k++ {
		e("MOVOU %d(AX), X15", 16*k)
		for _, r := range regs {
			e("AESENC X15, X%d", r)
		}
	}
	e("MOVOU 160(AX), X15")
	for _, r := range regs {
		e("AESENCLAST X15, X%d", r)
	}
}

// colour sets dst to all ones if bit 0 of src is 1, else to zero.
func colour(src, dst int) {
	e("PSHUFD $0, X%d, X%d", src, dst)
	e("PSLLL $31, X%d", dst)
	e("PSRAL $31, X%d", dst)
}

// savePi keeps π(x) of the registers regs (of X0..X7, in order): of
// X0..X5 in X8..X13, of X6 and X7 on the stack at 0(SP) and 16(SP).
// piFrame gives the frame that needs.
func savePi(regs []int) {
	for _, r := range regs {
		if r < 6 {
			e("MOVOU X%d, X%d", r, 8+r)
		} else {
			e("MOVOU X%d, %d(SP)", r, 16*(r-6))
		}
	}
}

// addPi XORs the π(x) that savePi(regs) kept into regs.
func addPi(regs []int) {
	for _, r := range regs {
		if r < 6 {
			e("PXOR X%d, X%d", 8+r, r)
		} else {
			e("MOVOU %d(SP), X14", 16*(r-6))
			e("PXOR X14, X%d", r)
		}
	}
}

// piFrame is the stack frame savePi needs for n blocks X0..X(n-1).
func piFrame(n int) int { return 16 * max(0, n-6) }

// piPlace says where savePi keeps π(x) of n blocks X0..X(n-1), for the
// routines' comments.
func piPlace(n int) string {
	place := fmt.Sprintf("X8..X%d", 8+min(n, 6)-1)
	if n > 6 {
		place += fmt.Sprintf(" and, of %d blocks, on the stack", n-6)
	}
	return place
}

var all8 = []int{0, 1, 2, 3, 4, 5, 6, 7}

func garble2() {
	out.WriteString(`
// func garble2AESNI(rk *[176]byte, delta, a, b, c, d *blk, j, j2, instance uint64, out, out2 *blk, t, t2 *[32]byte)
// Garbles two independent AND gates: the four TCCR hashes of each (both
// AES layers of the eight blocks interleaved, π(x) of six blocks kept in
// X8..X13 and of two on the stack), then half-gates.
TEXT ·garble2AESNI(SB), NOSPLIT, $32-104
`)
	e("MOVQ rk+0(FP), AX")
	e("MOVQ delta+8(FP), BX")
	e("MOVOU (BX), X14")
	for i, name := range []string{"a", "b", "c", "d"} {
		e("MOVQ %s+%d(FP), CX", name, 16+8*i)
		e("MOVOU (CX), X%d", 2*i)
		e("MOVOU X%d, X%d", 2*i, 2*i+1)
		e("PXOR X14, X%d", 2*i+1)
	}
	rounds(all8)
	savePi(all8)
	// Tweaks (instance, 2j), (instance, 2j+1), (instance, 2j2),
	// (instance, 2j2+1), each on both labels of one input wire.
	e("MOVQ instance+64(FP), X15")
	e("MOVQ j+48(FP), R8")
	e("SHLQ $1, R8")
	e("MOVQ j2+56(FP), R9")
	e("SHLQ $1, R9")
	for _, tw := range []struct {
		reg  int
		gpr  string
		plus bool
	}{{0, "R8", false}, {2, "R8", true}, {4, "R9", false}, {6, "R9", true}} {
		if tw.plus {
			e("INCQ %s", tw.gpr)
		}
		e("MOVQ %s, X14", tw.gpr)
		e("PUNPCKLQDQ X15, X14")
		e("PXOR X14, X%d", tw.reg)
		e("PXOR X14, X%d", tw.reg+1)
	}
	rounds(all8)
	addPi(all8)
	halfGates(0, "a", 16, "b", 24, "out", 72, "t", 88)
	halfGates(4, "c", 32, "d", 40, "out2", 80, "t2", 96)
	e("RET")
}

// halfGates garbles one AND gate from the hashes H(A0), H(A1), H(B0),
// H(B1) in X(h)..X(h+3): TG = H(A0) ⊕ H(A1) ⊕ pb·Δ, WG = H(A0) ⊕ pa·TG,
// TE = H(B0) ⊕ H(B1) ⊕ A0, WE = H(B0) ⊕ pb·(TE ⊕ A0), out = WG ⊕ WE.
func halfGates(h int, a string, aoff int, b string, boff int, o string, ooff int, t string, toff int) {
	ha0, ha1, hb0, hb1 := h, h+1, h+2, h+3
	e("MOVQ %s+%d(FP), CX", a, aoff)
	e("MOVOU (CX), X8")
	colour(8, 9)
	e("MOVQ %s+%d(FP), CX", b, boff)
	e("MOVOU (CX), X10")
	colour(10, 11)
	e("MOVOU (BX), X12")
	e("PAND X11, X12")
	e("PXOR X%d, X%d", ha0, ha1)
	e("PXOR X12, X%d", ha1)
	e("MOVQ %s+%d(FP), DX", t, toff)
	e("MOVOU X%d, 0(DX)", ha1)
	e("PAND X9, X%d", ha1)
	e("PXOR X%d, X%d", ha1, ha0)
	e("PXOR X%d, X%d", hb0, hb1)
	e("MOVOU X%d, X13", hb1)
	e("PXOR X8, X13")
	e("MOVOU X13, 16(DX)")
	e("PAND X11, X%d", hb1)
	e("PXOR X%d, X%d", hb1, hb0)
	e("PXOR X%d, X%d", hb0, ha0)
	e("MOVQ %s+%d(FP), CX", o, ooff)
	e("MOVOU X%d, (CX)", ha0)
}

// gateArg field offsets: a, b, out, t, j.
const argSize, offA, offB, offOut, offT, offJ = 40, 0, 8, 16, 24, 32

// evaluate writes evaluate<n>AESNI, n = 2 or 4 gates.
func evaluate(n int) {
	blocks := all8[:2*n]
	frame := piFrame(len(blocks))
	fmt.Fprintf(&out, `
// func evaluate%[1]dAESNI(rk *[176]byte, gs *[%[1]d]gateArg, instance uint64)
// Evaluates %[1]d independent AND gates: the two TCCR hashes of each
// (%[2]d blocks of each AES layer in flight, π(x) kept in X8..X13 and,
// beyond six blocks, on the stack), then half-gates:
// WG = H(Wa) ⊕ sa·TG, WE = H(Wb) ⊕ sb·(TE ⊕ Wa), out = WG ⊕ WE.
TEXT ·evaluate%[1]dAESNI(SB), NOSPLIT, $%[3]d-24
`, n, 2*n, frame)
	e("MOVQ rk+0(FP), AX")
	e("MOVQ gs+8(FP), BX")
	for i := range n {
		e("MOVQ %d(BX), CX", argSize*i+offA)
		e("MOVOU (CX), X%d", 2*i)
		e("MOVQ %d(BX), CX", argSize*i+offB)
		e("MOVOU (CX), X%d", 2*i+1)
	}
	rounds(blocks)
	savePi(blocks)
	e("MOVQ instance+16(FP), X15")
	for i := range n {
		e("MOVQ %d(BX), R8", argSize*i+offJ)
		e("SHLQ $1, R8")
		e("MOVQ R8, X14")
		e("PUNPCKLQDQ X15, X14")
		e("PXOR X14, X%d", 2*i)
		e("INCQ R8")
		e("MOVQ R8, X14")
		e("PUNPCKLQDQ X15, X14")
		e("PXOR X14, X%d", 2*i+1)
	}
	rounds(blocks)
	addPi(blocks)
	for i := range n {
		ha, hb := 2*i, 2*i+1
		e("MOVQ %d(BX), CX", argSize*i+offA)
		e("MOVOU (CX), X8")
		colour(8, 9)
		e("MOVQ %d(BX), CX", argSize*i+offB)
		e("MOVOU (CX), X10")
		colour(10, 11)
		e("MOVQ %d(BX), DX", argSize*i+offT)
		e("MOVOU 0(DX), X12")
		e("MOVOU 16(DX), X13")
		e("PAND X9, X12")
		e("PXOR X12, X%d", ha)
		e("PXOR X8, X13")
		e("PAND X11, X13")
		e("PXOR X13, X%d", hb)
		e("PXOR X%d, X%d", hb, ha)
		e("MOVQ %d(BX), CX", argSize*i+offOut)
		e("MOVOU X%d, (CX)", ha)
	}
	e("RET")
}

// vrounds runs AES-128 under the key schedule at AX on the ymm
// registers regs (two blocks each) with VAES, the round key broadcast to
// both lanes of Y15.
func vrounds(regs []int) {
	e("VBROADCASTI128 0(AX), Y15")
	for _, r := range regs {
		e("VPXOR Y15, Y%d, Y%d", r, r)
	}
	for k := 1; k < 10; k++ {
		e("VBROADCASTI128 %d(AX), Y15", 16*k)
		for _, r := range regs {
			e("VAESENC Y15, Y%d, Y%d", r, r)
		}
	}
	e("VBROADCASTI128 160(AX), Y15")
	for _, r := range regs {
		e("VAESENCLAST Y15, Y%d, Y%d", r, r)
	}
}

// vcolour sets dst to all ones if bit 0 of src is 1, else to zero.
func vcolour(src, dst int) {
	e("VPSHUFD $0, X%d, X%d", src, dst)
	e("VPSLLD $31, X%d, X%d", dst, dst)
	e("VPSRAD $31, X%d, X%d", dst, dst)
}

func garble4() {
	out.WriteString(`
// func garble4VAES(rk *[176]byte, delta *blk, gs *[4]gateArg, instance uint64)
// Garbles four independent AND gates with VAES on ymm registers: the
// sixteen blocks of each AES layer in eight registers, the two labels of
// an input wire in the two lanes of one (A0 | A0 ⊕ Δ, then
// H(A0) | H(A1)); π(x) of six registers kept in Y8..Y13 and of two on the
// stack; then half-gates as garble2AESNI.
TEXT ·garble4VAES(SB), NOSPLIT, $64-32
`)
	e("MOVQ rk+0(FP), AX")
	e("MOVQ delta+8(FP), DX")
	e("MOVQ gs+16(FP), BX")
	// Y14 = 0 | Δ.
	e("VBROADCASTI128 (DX), Y14")
	e("VPXOR Y13, Y13, Y13")
	e("VPBLENDD $0xF0, Y14, Y13, Y14")
	for i := range 4 {
		for k, off := range []int{offA, offB} {
			r := 2*i + k
			e("MOVQ %d(BX), CX", argSize*i+off)
			e("VBROADCASTI128 (CX), Y%d", r)
			e("VPXOR Y14, Y%d, Y%d", r, r)
		}
	}
	vrounds(all8)
	for i := range 6 {
		e("VMOVDQU Y%d, Y%d", i, 8+i)
	}
	e("VMOVDQU Y6, 0(SP)")
	e("VMOVDQU Y7, 32(SP)")
	// Tweaks (instance, 2j) on both labels of A, (instance, 2j+1) on
	// both labels of B.
	e("MOVQ instance+24(FP), R9")
	for i := range 4 {
		e("MOVQ %d(BX), R8", argSize*i+offJ)
		e("SHLQ $1, R8")
		for k := range 2 {
			if k == 1 {
				e("INCQ R8")
			}
			e("VMOVQ R8, X14")
			e("VPINSRQ $1, R9, X14, X14")
			e("VINSERTI128 $1, X14, Y14, Y14")
			e("VPXOR Y14, Y%d, Y%d", 2*i+k, 2*i+k)
		}
	}
	vrounds(all8)
	for i := range 6 {
		e("VPXOR Y%d, Y%d, Y%d", 8+i, i, i)
	}
	e("VPXOR 0(SP), Y6, Y6")
	e("VPXOR 32(SP), Y7, Y7")
	for i := range 4 {
		ha0, hb0 := 2*i, 2*i+1
		e("VEXTRACTI128 $1, Y%d, X8", ha0) // H(A1)
		e("VEXTRACTI128 $1, Y%d, X9", hb0) // H(B1)
		e("MOVQ %d(BX), CX", argSize*i+offA)
		e("VMOVDQU (CX), X10") // A0
		vcolour(10, 11)        // pa
		e("MOVQ %d(BX), CX", argSize*i+offB)
		e("VMOVDQU (CX), X12") // B0
		vcolour(12, 13)        // pb
		e("VMOVDQU (DX), X14")
		e("VPAND X13, X14, X14")    // pb·Δ
		e("VPXOR X8, X%d, X8", ha0) // H(A0) ⊕ H(A1)
		e("VPXOR X14, X8, X8")      // TG
		e("MOVQ %d(BX), CX", argSize*i+offT)
		e("VMOVDQU X8, 0(CX)")
		e("VPAND X11, X8, X8")
		e("VPXOR X8, X%d, X%d", ha0, ha0) // WG
		e("VPXOR X9, X%d, X9", hb0)       // H(B0) ⊕ H(B1)
		e("VPXOR X10, X9, X14")           // TE
		e("VMOVDQU X14, 16(CX)")
		e("VPAND X13, X9, X9")
		e("VPXOR X9, X%d, X%d", hb0, hb0) // WE
		e("VPXOR X%d, X%d, X%d", hb0, ha0, ha0)
		e("MOVQ %d(BX), CX", argSize*i+offOut)
		e("VMOVDQU X%d, (CX)", ha0)
	}
	e("VZEROUPPER")
	e("RET")
}

// header starts a generated file, doc being its comment after the
// #include.
func header(doc string) {
	out.Reset()
	out.WriteString(`// Code generated by gen_gates_amd64.go; DO NOT EDIT.

//go:build amd64 && !purego

#include "textflag.h"

` + doc)
}

// write writes what out holds to the file name in dir.
func write(dir, name string) {
	if err := os.WriteFile(filepath.Join(dir, name), []byte(out.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func main() {
	dir := flag.String("dir", ".", "the directory to write gates_amd64.s and threehalves_amd64.s to")
	flag.Parse()

	header(`// The fused gate routines of gates_amd64.go. Labels are 16 bytes, the
// blk layout (lo word first, little-endian), loaded and stored unaligned.
`)
	garble2()
	evaluate(4)
	evaluate(2)
	garble4()
	write(*dir, "gates_amd64.s")

	header(`// Three-halves garbling (threehalves.go) in assembly. The fused gate
// routines th3Garble4VAES, th3Garble2AESNI and th3Evaluate4AESNI,
// th3Evaluate2AESNI do batches of independent AND gates whole, as the
// half-gates routines of gates_amd64.s do; tccr6AESNI and tccr3AESNI are
// the TCCR hash of package aeshash on the six blocks of one gate's
// garbling and the three of its evaluation, for processors with AES-NI
// but not AVX2. Blocks have the blk layout (lo word first,
// little-endian), loaded and stored unaligned. The pure-Go path gives
// the same tables (TestThreeHalvesFusedMatchPureGo,
// TestThreeHalvesHashPaths).
`)
	tccr(6)
	tccr(3)
	th3Garble4()
	th3GarbleRun()
	th3Garble2()
	th3Evaluate(4)
	th3Evaluate(2)
	th3Evaluate4V()
	th3EvaluateRun()
	write(*dir, "threehalves_amd64.s")
}
