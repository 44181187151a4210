//go:build ignore

// gen_threehalves_amd64 is the second file of the generator of
// gen_gates_amd64.go (run together with it: go run gen_gates_amd64.go
// gen_threehalves_amd64.go): the routines of threehalves_amd64.s, the
// pipelined TCCR hashes and the fused three-halves gates.
package main

import "fmt"

// tccr writes tccr<n>AESNI(rk *[176]byte, x, t, out *[n]blk), the TCCR
// hash of n blocks (n ≤ 8): x[k] in X0..X(n-1) through both AES layers
// together, π(x) kept by savePi, the tweak t[k] loaded through X14 (a
// legacy SSE memory operand would have to be aligned).
func tccr(n int) {
	if n < 1 || n > len(all8) {
		panic(fmt.Sprintf("tccr: %d blocks, want 1..%d", n, len(all8)))
	}
	blocks := all8[:n]
	fmt.Fprintf(&out, `
// func tccr%[1]dAESNI(rk *[176]byte, x, t, out *[%[1]d]blk)
// sets out[k] = H(x[k], t[k]) = π(π(x[k]) ⊕ t[k]) ⊕ π(x[k]) for k < %[1]d,
// the %[1]d blocks in flight through both AES layers; π(x) is kept in
// %[2]s.
TEXT ·tccr%[1]dAESNI(SB), NOSPLIT, $%[3]d-32
`, n, piPlace(n), piFrame(n))
	e("MOVQ rk+0(FP), AX")
	e("MOVQ x+8(FP), BX")
	e("MOVQ t+16(FP), CX")
	e("MOVQ out+24(FP), DX")
	for _, r := range blocks {
		e("MOVOU %d(BX), X%d", 16*r, r)
	}
	rounds(blocks)
	savePi(blocks)
	for _, r := range blocks {
		e("MOVOU %d(CX), X14", 16*r)
		e("PXOR X14, X%d", r)
	}
	rounds(blocks)
	addPi(blocks)
	for _, r := range blocks {
		e("MOVOU X%d, %d(DX)", r, 16*r)
	}
	e("RET")
}

// th3Arg field offsets: a, b, out, t, j, ctl (threehalves.go).
const th3Size, th3A, th3B, th3Out, th3T, th3J, th3Ctl = 48, 0, 8, 16, 24, 32, 40

// th3TableSize is ThreeHalvesTableSize, the bytes of a gate's table
// before the control bits.
const th3TableSize = 24

// th3Tweak sets R8 to the low word of the first tweak of the
// three-halves gate of th3Arg i at BX: 1<<63 | 3j.
func th3Tweak(i int) {
	e("MOVQ %d(BX), R8", th3Size*i+th3J)
	e("LEAQ (R8)(R8*2), R8")
	e("BTSQ $63, R8")
}

// th3GarblePost finishes the garbling of the three-halves gate of
// th3Arg i at BX from its six hashes at h(SP) (H(A0), H(A1), H(B0),
// H(B1), H(X0), H(X1), X = A ⊕ B, 0 and 1 the colour-0 and colour-1
// labels), with AVX2: the table row idx = ᾱ<<3 | β̄<<2 | ρ of th3Lin
// at SI (the halves of the zero labels A and B each output takes) and of
// the garbling's th3Delta at DI (the Δ part, and z without the hashes),
// the hashes' part of [C⁰_L, C⁰_R, G0, G1] in one register and of G2 in
// another, the control bits from the hashes' top bits; it writes C⁰ to
// out, G0, G1, G2 to t and z to ctl.
func th3GarblePost(i, h int) {
	arg := th3Size * i
	e("MOVQ %d(BX), CX", arg+th3A)
	e("MOVQ %d(BX), DX", arg+th3B)
	e("MOVQ (CX), R8")
	e("ANDQ $1, R8")
	e("XORQ $1, R8")
	e("SHLQ $3, R8")
	e("MOVQ (DX), R9")
	e("ANDQ $1, R9")
	e("XORQ $1, R9")
	e("SHLQ $2, R9")
	e("ORQ R9, R8")
	e("ORQ %d(BX), R8", arg+th3Ctl)
	e("IMUL3Q $192, R8, R10")
	e("ADDQ SI, R10")
	e("MOVQ R8, R11")
	e("SHLQ $6, R11")
	e("ADDQ DI, R11")
	// The linear part: [C⁰_L, C⁰_R, G0, G1] in Y4, G2 in X5.
	e("VPBROADCASTQ 0(CX), Y0")
	e("VPBROADCASTQ 8(CX), Y1")
	e("VPBROADCASTQ 0(DX), Y2")
	e("VPBROADCASTQ 8(DX), Y3")
	e("VMOVDQU 0(R11), Y4")
	e("VMOVQ 32(R11), X5")
	for k := range 4 {
		e("VPAND %d(R10), Y%d, Y6", 32*k, k)
		e("VPXOR Y6, Y4, Y4")
	}
	for k := range 4 {
		e("VPAND %d(R10), X%d, X6", 128+16*k, k)
		e("VPXOR X6, X5, X5")
	}
	// The hashes' part.
	e("VMOVDQU %d(SP), Y7", h)    // H(A0) | H(A1)
	e("VMOVDQU %d(SP), Y8", h+32) // H(B0) | H(B1)
	e("VMOVDQU %d(SP), Y9", h+64) // H(X0) | H(X1)
	e("VPERMQ $0x44, Y7, Y10")
	e("VPBLENDD $0xF0, Y7, Y9, Y11")
	e("VPXOR Y11, Y10, Y10") // H(A0) ⊕ H(X0) | H(A0) ⊕ H(A1)
	e("VPERMQ $0x44, Y8, Y11")
	e("VPBLENDD $0xF0, Y8, Y9, Y12")
	e("VPXOR Y12, Y11, Y11") // H(B0) ⊕ H(X0) | H(B0) ⊕ H(B1)
	e("VPUNPCKLQDQ Y11, Y10, Y12")
	e("VPUNPCKHQDQ Y11, Y10, Y13")
	e("VMOVMSKPD Y13, R12") // z0..z3 of the hashes
	e("VPXOR Y12, Y4, Y4")
	e("VEXTRACTI128 $1, Y9, X13")
	e("VPXOR X9, X13, X13") // H(X0) ⊕ H(X1)
	e("VPXOR X13, X5, X5")
	e("VMOVMSKPD X13, R13")
	e("SHRQ $1, R13")
	e("SHLQ $4, R13")
	e("ORQ R13, R12")
	e("XORQ 40(R11), R12")
	e("MOVQ R12, %d(BX)", arg+th3Ctl)
	e("MOVQ %d(BX), CX", arg+th3Out)
	e("VMOVDQU X4, (CX)")
	e("MOVQ %d(BX), CX", arg+th3T)
	e("VEXTRACTI128 $1, Y4, (CX)")
	e("VMOVQ X5, 16(CX)")
}

// th3Garble4 writes th3Garble4VAES: four three-halves gates, their 24
// hashes in twelve 256-bit registers (the two labels hashed with one
// tweak in the two lanes of one).
func th3Garble4() {
	out.WriteString(`
// func th3Garble4VAES(rk *[176]byte, lin *[16]th3LinRow, dt *[16]th3DeltaRow, delta *blk, gs *[4]th3Arg, instance uint64)
// Garbles four independent three-halves AND gates with VAES: per gate
// the registers A0 | A0 ⊕ Δ, B0 | B0 ⊕ Δ and X0 | X0 ⊕ Δ (colour-0
// labels), both AES layers of the 24 blocks in twelve registers, π(x)
// and then the hashes on the stack; then th3GarblePost per gate.
TEXT ·th3Garble4VAES(SB), NOSPLIT, $384-48
`)
	th3Garble4Body("MOVQ gs+32(FP), BX")
	e("VZEROUPPER")
	e("RET")
}

// th3Garble4Body writes the garbling of the four gates of the th3Arg
// array that loadArgs puts at BX (the frame's first 384 bytes are its
// scratch; the arguments rk, lin, dt, delta and instance are
// th3Garble4VAES's).
func th3Garble4Body(loadArgs string) {
	e("MOVQ rk+0(FP), AX")
	e("MOVQ delta+24(FP), DX")
	e(loadArgs)
	e("VBROADCASTI128 (DX), Y12") // Δ | Δ
	e("VPXOR Y13, Y13, Y13")
	e("VPBLENDD $0xF0, Y12, Y13, Y13") // 0 | Δ
	for i := range 4 {
		for k, off := range []int{th3A, th3B} {
			r := 3*i + k
			e("MOVQ %d(BX), CX", th3Size*i+off)
			e("VBROADCASTI128 (CX), Y%d", r)
			e("VPBROADCASTD (CX), Y15")
			e("VPSLLD $31, Y15, Y15")
			e("VPSRAD $31, Y15, Y15")
			e("VPAND Y12, Y15, Y15")
			e("VPXOR Y15, Y%d, Y%d", r, r) // the colour-0 label
			e("VPXOR Y13, Y%d, Y%d", r, r)
		}
		e("VPXOR Y%d, Y%d, Y%d", 3*i+1, 3*i, 3*i+2)
		e("VPXOR Y13, Y%d, Y%d", 3*i+2, 3*i+2)
	}
	regs := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	vrounds(regs)
	for _, r := range regs {
		e("VMOVDQU Y%d, %d(SP)", r, 32*r)
	}
	e("MOVQ instance+40(FP), R9")
	for i := range 4 {
		th3Tweak(i)
		for m := range 3 {
			if m > 0 {
				e("INCQ R8")
			}
			e("VMOVQ R8, X14")
			e("VPINSRQ $1, R9, X14, X14")
			e("VINSERTI128 $1, X14, Y14, Y14")
			e("VPXOR Y14, Y%d, Y%d", 3*i+m, 3*i+m)
		}
	}
	vrounds(regs)
	for _, r := range regs {
		e("VPXOR %d(SP), Y%d, Y%d", 32*r, r, r)
		e("VMOVDQU Y%d, %d(SP)", r, 32*r)
	}
	e("MOVQ lin+8(FP), SI")
	e("MOVQ dt+16(FP), DI")
	for i := range 4 {
		th3GarblePost(i, 96*i)
	}
}

// th3Run field offsets: w, steps, n, tables, coins, ctl (threehalves_fused.go);
// step field offsets: a, b, out, j, and its size (schedule.go).
const (
	runW, runSteps, runN, runTables, runCoins, runCtl = 0, 8, 16, 24, 32, 40
	stepA, stepB, stepOut, stepJ, stepSize            = 4, 8, 12, 16, 20
)

// th3GarbleRun writes th3GarbleRun4VAES: th3Garble4Body on the AND
// gates of a run of steps, four at a time, the loop in assembly. Per
// batch it fills the four th3Arg at 384(SP) from the steps (the wires'
// labels in the wire array, the table at 24j, the coins ρ at bit 2j),
// garbles, and ORs each gate's control bits z into the control bits at
// bit 5j (the second byte only when z reaches it, so never past the last
// byte). Touching the next batch's input labels ahead (PREFETCHT0)
// gained nothing (MPC-D63).
// 576(SP) holds the step of the batch, 584(SP) the steps left.
func th3GarbleRun() {
	out.WriteString(`
// func th3GarbleRun4VAES(rk *[176]byte, lin *[16]th3LinRow, dt *[16]th3DeltaRow, delta *blk, run *th3Run, instance uint64)
// Garbles the run.n AND gates of run.steps (a multiple of four, none
// reading another's output) four at a time as th3Garble4VAES does,
// writing their output labels, tables and control bits.
TEXT ·th3GarbleRun4VAES(SB), NOSPLIT, $592-48
`)
	th3RunHead("run+32(FP)", "th3run", runCoins)
	for i := range 4 {
		arg := th3RunGate(i)
		e("LEAQ (CX)(CX*1), DX") // 2j
		e("MOVQ DX, R12")
		e("SHRQ $3, R12")
		e("MOVBQZX (R11)(R12*1), R12")
		e("ANDQ $7, DX")
		e("SHRXQ DX, R12, R12")
		e("ANDQ $3, R12")
		e("MOVQ R12, %d(SP)", arg+th3Ctl)
	}
	th3Garble4Body("LEAQ 384(SP), BX")
	e("MOVQ run+32(FP), R14")
	e("MOVQ %d(R14), R10", runCtl)
	for i := range 4 {
		arg := 384 + th3Size*i
		e("MOVQ %d(SP), CX", arg+th3J)
		e("LEAQ (CX)(CX*4), CX") // 5j
		e("MOVQ CX, DX")
		e("SHRQ $3, DX")
		e("ANDQ $7, CX")
		e("MOVQ %d(SP), R8", arg+th3Ctl)
		e("SHLXQ CX, R8, R8")
		e("ORB R8, (R10)(DX*1)")
		e("SHRQ $8, R8")
		e("LEAQ 1(DX), R9")
		e("TESTQ R8, R8")
		e("CMOVQEQ DX, R9")
		e("ORB R8, (R10)(R9*1)")
	}
	th3RunTail("th3run")
	e("VZEROUPPER")
	e("RET")
}

// th3Garble2 writes th3Garble2AESNI: two three-halves gates, their
// twelve hashes with AES-NI, then th3GarblePost (AVX2).
func th3Garble2() {
	out.WriteString(`
// func th3Garble2AESNI(rk *[176]byte, lin *[16]th3LinRow, dt *[16]th3DeltaRow, delta *blk, gs *[2]th3Arg, instance uint64)
// Garbles two independent three-halves AND gates: per gate A0, A0 ⊕ Δ,
// B0, B0 ⊕ Δ, X0, X0 ⊕ Δ (colour-0 labels) in six registers, both AES
// layers of the twelve blocks with AES-NI, π(x) and then the hashes on
// the stack; then th3GarblePost per gate (AVX2).
TEXT ·th3Garble2AESNI(SB), NOSPLIT, $192-48
`)
	e("MOVQ rk+0(FP), AX")
	e("MOVQ delta+24(FP), DX")
	e("MOVQ gs+32(FP), BX")
	e("MOVOU (DX), X12")
	for i := range 2 {
		for k, off := range []int{th3A, th3B} {
			r := 6*i + 2*k
			e("MOVQ %d(BX), CX", th3Size*i+off)
			e("MOVOU (CX), X%d", r)
			colour(r, 13)
			e("PAND X12, X13")
			e("PXOR X13, X%d", r)
			e("MOVOU X%d, X%d", r, r+1)
			e("PXOR X12, X%d", r+1)
		}
		e("MOVOU X%d, X%d", 6*i, 6*i+4)
		e("PXOR X%d, X%d", 6*i+2, 6*i+4)
		e("MOVOU X%d, X%d", 6*i+4, 6*i+5)
		e("PXOR X12, X%d", 6*i+5)
	}
	regs := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	rounds(regs)
	for _, r := range regs {
		e("MOVOU X%d, %d(SP)", r, 16*r)
	}
	e("MOVQ instance+40(FP), X15")
	for i := range 2 {
		th3Tweak(i)
		for m := range 3 {
			if m > 0 {
				e("INCQ R8")
			}
			e("MOVQ R8, X14")
			e("PUNPCKLQDQ X15, X14")
			e("PXOR X14, X%d", 6*i+2*m)
			e("PXOR X14, X%d", 6*i+2*m+1)
		}
	}
	rounds(regs)
	for _, r := range regs {
		e("MOVOU %d(SP), X14", 16*r)
		e("PXOR X14, X%d", r)
		e("MOVOU X%d, %d(SP)", r, 16*r)
	}
	e("MOVQ lin+8(FP), SI")
	e("MOVQ dt+16(FP), DI")
	for i := range 2 {
		th3GarblePost(i, 96*i)
	}
	e("VZEROUPPER")
	e("RET")
}

// th3Evaluate writes th3Evaluate<n>AESNI, n = 2 or 4 three-halves gates:
// the three hashes of each (H(A, τ0), H(B, τ1), H(A ⊕ B, τ2)) with
// AES-NI, then per gate, from the row of th3EvalRows at SI its colours
// and the bits r select and the partial control bits of th3EvalZ at DI,
// C = X ⊕ R_ij·[A_L A_R B_L B_R] with SSE.
func th3Evaluate(n int) {
	var blocks []int
	for r := range 3 * n {
		blocks = append(blocks, r)
	}
	fmt.Fprintf(&out, `
// func th3Evaluate%[1]dAESNI(rk *[176]byte, rows *[16]th3EvalRow, zt *[128]byte, gs *[%[1]d]th3Arg, instance uint64)
// Evaluates %[1]d independent three-halves AND gates: the three TCCR
// hashes of each (%[2]d blocks of each AES layer in flight, π(x) on the
// stack), then [r; X] = V_ij·[z; 0; 0; G] ⊕ M·H and C = X ⊕ R_ij·[A; B].
TEXT ·th3Evaluate%[1]dAESNI(SB), NOSPLIT, $%[3]d-40
`, n, 3*n, 16*3*n)
	e("MOVQ rk+0(FP), AX")
	e("MOVQ gs+24(FP), BX")
	for i := range n {
		e("MOVQ %d(BX), CX", th3Size*i+th3A)
		e("MOVOU (CX), X%d", 3*i)
		e("MOVQ %d(BX), DX", th3Size*i+th3B)
		e("MOVOU (DX), X%d", 3*i+1)
		e("MOVOU X%d, X%d", 3*i, 3*i+2)
		e("PXOR X%d, X%d", 3*i+1, 3*i+2)
	}
	rounds(blocks)
	for _, r := range blocks {
		e("MOVOU X%d, %d(SP)", r, 16*r)
	}
	e("MOVQ instance+32(FP), X15")
	for i := range n {
		th3Tweak(i)
		for m := range 3 {
			if m > 0 {
				e("INCQ R8")
			}
			e("MOVQ R8, X14")
			e("PUNPCKLQDQ X15, X14")
			e("PXOR X14, X%d", 3*i+m)
		}
	}
	rounds(blocks)
	for _, r := range blocks {
		e("MOVOU %d(SP), X14", 16*r)
		e("PXOR X14, X%d", r)
	}
	e("MOVQ rows+8(FP), SI")
	e("MOVQ zt+16(FP), DI")
	for i := range n {
		th3EvaluatePost(i, 3*i, 3*i+1, 3*i+2)
	}
	e("RET")
}

// th3EvaluatePost finishes the evaluation of the three-halves gate of
// th3Arg i at BX from its hashes H(A), H(B), H(A ⊕ B) in X(ha), X(hb),
// X(hx), with th3EvalRows at SI and th3EvalZ at DI (SSE; X12, X13 and
// R8..R13 are scratch): r from z, the colours and the hashes' top bits,
// then X and C = X ⊕ R_ij·[A_L A_R B_L B_R] by the masks of the row of
// (i, j, r), written to out.
func th3EvaluatePost(i, ha, hb, hx int) {
	arg := th3Size * i
	e("MOVQ %d(BX), CX", arg+th3A)
	e("MOVQ %d(BX), DX", arg+th3B)
	e("MOVQ (CX), R8")
	e("ANDQ $1, R8")
	e("MOVQ (DX), R9")
	e("ANDQ $1, R9")
	e("LEAQ (R9)(R8*2), R8") // k = 2i + j
	e("MOVQ R8, R10")
	e("SHLQ $5, R10")
	e("ORQ %d(BX), R10", arg+th3Ctl)
	e("MOVBQZX (DI)(R10*1), R10") // r without the hashes
	e("MOVMSKPD X%d, R11", ha)
	e("SHRQ $1, R11")
	e("MOVMSKPD X%d, R12", hb)
	e("SHRQ $1, R12")
	e("MOVMSKPD X%d, R13", hx)
	e("SHRQ $1, R13")
	e("XORQ R13, R11")
	e("XORQ R13, R12")
	e("SHLQ $1, R12")
	e("ORQ R12, R11")
	e("XORQ R11, R10") // r0 | r1<<1
	e("SHLQ $2, R8")
	e("ORQ R10, R8")
	e("SHLQ $7, R8")
	e("ADDQ SI, R8")
	e("PUNPCKLQDQ X%d, X%d", hb, ha)
	e("PSHUFD $0x44, X%d, X12", hx)
	e("PXOR X12, X%d", ha)
	e("MOVQ %d(BX), R9", arg+th3T)
	e("MOVOU 0(R9), X12")
	e("MOVOU 64(R8), X13")
	e("PAND X13, X12")
	e("PXOR X12, X%d", ha)
	e("MOVQ 16(R9), X12")
	e("PSHUFD $0x44, X12, X12")
	e("MOVOU 80(R8), X13")
	e("PAND X13, X12")
	e("PXOR X12, X%d", ha)
	for k, src := range []string{"0(CX)", "8(CX)", "0(DX)", "8(DX)"} {
		e("MOVDDUP %s, X12", src)
		e("MOVOU %d(R8), X13", 16*k)
		e("PAND X13, X12")
		e("PXOR X12, X%d", ha)
	}
	e("MOVQ %d(BX), CX", arg+th3Out)
	e("MOVOU X%d, (CX)", ha)
}

// th3Evaluate4V writes th3Evaluate4VAES: th3Evaluate4AESNI with the
// twelve blocks of each AES layer in six 256-bit registers (two blocks of
// the gates' A, B, A ⊕ B in a row each, through the stack), then
// th3EvaluatePost.
func th3Evaluate4V() {
	out.WriteString(`
// func th3Evaluate4VAES(rk *[176]byte, rows *[16]th3EvalRow, zt *[128]byte, gs *[4]th3Arg, instance uint64)
// Evaluates four independent three-halves AND gates: their twelve
// blocks A, B, A ⊕ B and tweaks laid out in a row on the stack, both AES
// layers with VAES in six registers, the hashes back on the stack; then
// th3EvaluatePost per gate.
TEXT ·th3Evaluate4VAES(SB), NOSPLIT, $384-40
`)
	th3Evaluate4VBody("MOVQ gs+24(FP), BX")
	e("RET")
}

// th3Evaluate4VBody writes the evaluation of the four gates of the
// th3Arg array that loadArgs puts at BX (the frame's first 384 bytes
// are its scratch; rk, rows, zt and instance are th3Evaluate4VAES's).
func th3Evaluate4VBody(loadArgs string) {
	e("MOVQ rk+0(FP), AX")
	e(loadArgs)
	e("MOVQ instance+32(FP), R9")
	for i := range 4 {
		e("MOVQ %d(BX), CX", th3Size*i+th3A)
		e("VMOVDQU (CX), X12")
		e("MOVQ %d(BX), DX", th3Size*i+th3B)
		e("VMOVDQU (DX), X13")
		e("VPXOR X12, X13, X14")
		e("VMOVDQU X12, %d(SP)", 48*i)
		e("VMOVDQU X13, %d(SP)", 48*i+16)
		e("VMOVDQU X14, %d(SP)", 48*i+32)
		th3Tweak(i)
		for m := range 3 {
			if m > 0 {
				e("INCQ R8")
			}
			e("MOVQ R8, %d(SP)", 192+48*i+16*m)
			e("MOVQ R9, %d(SP)", 192+48*i+16*m+8)
		}
	}
	regs := []int{0, 1, 2, 3, 4, 5}
	for _, r := range regs {
		e("VMOVDQU %d(SP), Y%d", 32*r, r)
	}
	vrounds(regs)
	for _, r := range regs {
		e("VMOVDQU Y%d, %d(SP)", r, 32*r)
		e("VPXOR %d(SP), Y%d, Y%d", 192+32*r, r, r)
	}
	vrounds(regs)
	for _, r := range regs {
		e("VPXOR %d(SP), Y%d, Y%d", 32*r, r, r)
		e("VMOVDQU Y%d, %d(SP)", r, 32*r)
	}
	e("VZEROUPPER")
	e("MOVQ rows+8(FP), SI")
	e("MOVQ zt+16(FP), DI")
	for i := range 4 {
		for m := range 3 {
			e("MOVOU %d(SP), X%d", 48*i+16*m, m)
		}
		th3EvaluatePost(i, 0, 1, 2)
	}
}

// th3EvaluateRun writes th3EvaluateRun4VAES: th3Evaluate4VBody on the
// AND gates of a run of steps, four at a time, the loop in assembly. Per
// batch it fills the four th3Arg at 384(SP) from the steps (the wires'
// labels, the table at 24j, the control bits z at bit 5j, the second
// byte read only when z reaches it, so never past the last byte) and
// evaluates. 576(SP) holds the step of the batch, 584(SP) the steps
// left.
func th3EvaluateRun() {
	out.WriteString(`
// func th3EvaluateRun4VAES(rk *[176]byte, rows *[16]th3EvalRow, zt *[128]byte, run *th3Run, instance uint64)
// Evaluates the run.n AND gates of run.steps (a multiple of four, none
// reading another's output) four at a time as th3Evaluate4VAES does,
// their control bits read from run.ctl.
TEXT ·th3EvaluateRun4VAES(SB), NOSPLIT, $592-40
`)
	th3RunHead("run+24(FP)", "th3evrun", runCtl)
	for i := range 4 {
		arg := th3RunGate(i)
		e("LEAQ (CX)(CX*4), CX") // 5j
		e("MOVQ CX, DX")
		e("SHRQ $3, DX")
		e("ANDQ $7, CX")
		e("LEAQ 1(DX), R12")
		e("CMPQ CX, $3")
		e("CMOVQLS DX, R12") // z within its first byte: read it twice
		e("MOVBQZX (R11)(R12*1), R12")
		e("SHLQ $8, R12")
		e("MOVBQZX (R11)(DX*1), DX")
		e("ORQ DX, R12")
		e("SHRXQ CX, R12, R12")
		e("ANDQ $31, R12")
		e("MOVQ R12, %d(SP)", arg+th3Ctl)
	}
	th3Evaluate4VBody("LEAQ 384(SP), BX")
	th3RunTail("th3evrun")
	e("RET")
}

// th3RunHead starts the loop of a run routine whose *th3Run is the
// argument run (its FP reference): the run's first step at 576(SP) and
// its count at 584(SP) (none: to <name>_done), then at <name>_loop, per
// batch, the step in SI, the wire array in DI, the tables in R10 and the
// run's field at offset third (the coins or the control bits) in R11.
func th3RunHead(run, name string, third int) {
	e("MOVQ %s, R14", run)
	e("MOVQ %d(R14), CX", runSteps)
	e("MOVQ CX, 576(SP)")
	e("MOVQ %d(R14), CX", runN)
	e("MOVQ CX, 584(SP)")
	e("TESTQ CX, CX")
	e("JZ %s_done", name)
	fmt.Fprintf(&out, "%s_loop:\n", name)
	e("MOVQ %s, R14", run)
	e("MOVQ 576(SP), SI")
	e("MOVQ %d(R14), DI", runW)
	e("MOVQ %d(R14), R10", runTables)
	e("MOVQ %d(R14), R11", third)
}

// th3RunGate fills the th3Arg of gate i of the batch at 384(SP) from its
// step at SI (th3RunHead's registers): the addresses of its wires'
// labels, its j (left in CX) and its table; it returns the th3Arg's
// offset from SP.
func th3RunGate(i int) int {
	arg, st := 384+th3Size*i, stepSize*i
	for _, f := range []struct{ step, arg int }{{stepA, th3A}, {stepB, th3B}, {stepOut, th3Out}} {
		e("MOVL %d(SI), CX", st+f.step)
		e("SHLQ $4, CX")
		e("ADDQ DI, CX")
		e("MOVQ CX, %d(SP)", arg+f.arg)
	}
	e("MOVL %d(SI), CX", st+stepJ)
	e("MOVQ CX, %d(SP)", arg+th3J)
	e("IMUL3Q $%d, CX, DX", th3TableSize)
	e("ADDQ R10, DX")
	e("MOVQ DX, %d(SP)", arg+th3T)
	return arg
}

// th3RunTail ends the loop th3RunHead started: the next batch's step,
// four steps fewer, back to <name>_loop while any is left.
func th3RunTail(name string) {
	e("ADDQ $%d, 576(SP)", 4*stepSize)
	e("SUBQ $4, 584(SP)")
	e("JNZ %s_loop", name)
	fmt.Fprintf(&out, "%s_done:\n", name)
}
