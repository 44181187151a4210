//go:build amd64 && !purego

#include "textflag.h"

// func clmulSums(a, b *Block, n int, out *[6]uint64)
TEXT ·clmulSums(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	MOVQ out+24(FP), DX
	MOVOU 0(DX), X4  // a0·b0
	MOVOU 16(DX), X5 // a0·b1 + a1·b0
	MOVOU 32(DX), X6 // a1·b1
	TESTQ CX, CX
	JZ done
loop:
	MOVOU (SI), X0
	MOVOU (DI), X1
	MOVOU X0, X2
	PCLMULQDQ $0x00, X1, X2
	PXOR X2, X4
	MOVOU X0, X3
	PCLMULQDQ $0x11, X1, X3
	PXOR X3, X6
	MOVOU X0, X2
	PCLMULQDQ $0x01, X1, X2
	PXOR X2, X5
	PCLMULQDQ $0x10, X1, X0
	PXOR X0, X5
	ADDQ $16, SI
	ADDQ $16, DI
	DECQ CX
	JNZ loop
done:
	MOVOU X4, 0(DX)
	MOVOU X5, 16(DX)
	MOVOU X6, 32(DX)
	RET
