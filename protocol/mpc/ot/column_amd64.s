//go:build amd64 && !purego

#include "textflag.h"

// The AES-256 key schedule of the base OT key k, FIPS-197 §5.2, as
// crypto/aes makes it on amd64 (expandKeyAsm): round keys 0 and 1 are
// the key, X0 and X2 its halves, X4 zero at the start.
#define EXPAND_A(rcon) \
	AESKEYGENASSIST $rcon, X2, X1 \
	PSHUFD $0xff, X1, X1 \
	SHUFPS $0x10, X0, X4 \
	PXOR   X4, X0 \
	SHUFPS $0x8c, X0, X4 \
	PXOR   X4, X0 \
	PXOR   X1, X0 \
	MOVUPS X0, (BX) \
	ADDQ   $0x10, BX

#define EXPAND_B(rcon) \
	AESKEYGENASSIST $rcon, X0, X1 \
	PSHUFD $0xaa, X1, X1 \
	SHUFPS $0x10, X2, X4 \
	PXOR   X4, X2 \
	SHUFPS $0x8c, X2, X4 \
	PXOR   X4, X2 \
	PXOR   X1, X2 \
	MOVUPS X2, (BX) \
	ADDQ   $0x10, BX

// One middle round of the four blocks X8..X11 with round key r.
#define ROUND(r) \
	MOVUPS (r*16)(BX), X12 \
	AESENC X12, X8 \
	AESENC X12, X9 \
	AESENC X12, X10 \
	AESENC X12, X11

// Counter block k (batch ‖ k, both big-endian) written at off(DX).
#define COUNTER(off) \
	MOVQ  R9, off(DX) \
	MOVQ  R10, R11 \
	BSWAPQ R11 \
	MOVQ  R11, (off+8)(DX) \
	INCQ  R10

// func shortColumnAESNI(key *Key, batch uint64, dst *byte, groups int)
//
// Writes 64·groups bytes of G(k, batch) at dst: the AES-256 encryptions
// under key of the counter blocks batch ‖ 0, batch ‖ 1, …, four at a time,
// the key schedule on the stack.
TEXT ·shortColumnAESNI(SB), NOSPLIT, $240-32
	MOVQ key+0(FP), AX
	MOVQ batch+8(FP), R9
	MOVQ dst+16(FP), DX
	MOVQ groups+24(FP), CX
	BSWAPQ R9
	XORQ R10, R10

	LEAQ 0(SP), BX
	MOVUPS (AX), X0
	MOVUPS 16(AX), X2
	MOVUPS X0, (BX)
	MOVUPS X2, 16(BX)
	ADDQ $0x20, BX
	PXOR X4, X4
	EXPAND_A(0x01)
	EXPAND_B(0x01)
	EXPAND_A(0x02)
	EXPAND_B(0x02)
	EXPAND_A(0x04)
	EXPAND_B(0x04)
	EXPAND_A(0x08)
	EXPAND_B(0x08)
	EXPAND_A(0x10)
	EXPAND_B(0x10)
	EXPAND_A(0x20)
	EXPAND_B(0x20)
	EXPAND_A(0x40)
	LEAQ 0(SP), BX

	TESTQ CX, CX
	JZ done
	MOVUPS (BX), X13  // round key 0
	MOVUPS 224(BX), X14 // round key 14

loop:
	COUNTER(0)
	COUNTER(16)
	COUNTER(32)
	COUNTER(48)
	MOVUPS 0(DX), X8
	MOVUPS 16(DX), X9
	MOVUPS 32(DX), X10
	MOVUPS 48(DX), X11
	PXOR X13, X8
	PXOR X13, X9
	PXOR X13, X10
	PXOR X13, X11
	ROUND(1)
	ROUND(2)
	ROUND(3)
	ROUND(4)
	ROUND(5)
	ROUND(6)
	ROUND(7)
	ROUND(8)
	ROUND(9)
	ROUND(10)
	ROUND(11)
	ROUND(12)
	ROUND(13)
	AESENCLAST X14, X8
	AESENCLAST X14, X9
	AESENCLAST X14, X10
	AESENCLAST X14, X11
	MOVUPS X8, 0(DX)
	MOVUPS X9, 16(DX)
	MOVUPS X10, 32(DX)
	MOVUPS X11, 48(DX)
	ADDQ $64, DX
	DECQ CX
	JNZ loop

done:
	RET
