//go:build ignore

// gen_gates_amd64 writes gates_amd64.s, the fused AES-NI gate routines
// (run by go generate): the AES rounds of eight blocks are unrolled here
// rather than by hand.
package main

import (
	"fmt"
	"os"
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

// savePi keeps π(x) of X0..X5 in X8..X13 and of X6, X7 on the stack.
func savePi() {
	for i := range 6 {
		e("MOVOU X%d, X%d", i, 8+i)
	}
	e("MOVOU X6, 0(SP)")
	e("MOVOU X7, 16(SP)")
}

// addPi XORs the kept π(x) into X0..X7.
func addPi() {
	for i := range 6 {
		e("PXOR X%d, X%d", 8+i, i)
	}
	e("MOVOU 0(SP), X14")
	e("PXOR X14, X6")
	e("MOVOU 16(SP), X14")
	e("PXOR X14, X7")
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
	savePi()
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
	addPi()
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

// evalArg field offsets: a, b, out, t, j.
const argSize, offA, offB, offOut, offT, offJ = 40, 0, 8, 16, 24, 32

func evaluate4() {
	out.WriteString(`
// func evaluate4AESNI(rk *[176]byte, gs *[4]evalArg, instance uint64)
// Evaluates four independent AND gates: the two TCCR hashes of each
// (eight blocks of each AES layer in flight, π(x) of six blocks kept in
// X8..X13 and of two on the stack), then half-gates:
// WG = H(Wa) ⊕ sa·TG, WE = H(Wb) ⊕ sb·(TE ⊕ Wa), out = WG ⊕ WE.
TEXT ·evaluate4AESNI(SB), NOSPLIT, $32-24
`)
	e("MOVQ rk+0(FP), AX")
	e("MOVQ gs+8(FP), BX")
	for i := range 4 {
		e("MOVQ %d(BX), CX", argSize*i+offA)
		e("MOVOU (CX), X%d", 2*i)
		e("MOVQ %d(BX), CX", argSize*i+offB)
		e("MOVOU (CX), X%d", 2*i+1)
	}
	rounds(all8)
	savePi()
	e("MOVQ instance+16(FP), X15")
	for i := range 4 {
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
	rounds(all8)
	addPi()
	for i := range 4 {
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

func main() {
	out.WriteString(`// Code generated by gen_gates_amd64.go; DO NOT EDIT.

//go:build amd64 && !purego

#include "textflag.h"

// The fused gate routines of gates_amd64.go. Labels are 16 bytes, the
// blk layout (lo word first, little-endian), loaded and stored unaligned.
`)
	garble2()
	evaluate4()
	if err := os.WriteFile("gates_amd64.s", []byte(out.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
