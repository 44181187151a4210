package ot

import (
	"encoding/binary"
	"math/bits"
)

// Arithmetic in GF(2^128) = GF(2)[X]/(X^128 + X^7 + X^2 + X + 1) for the
// consistency check. A Block is the polynomial whose coefficient of X^i
// is bit i%8 of byte i/8 (little-endian, as GHASH's bit-reflected form is
// not). Products are summed unreduced in 256 bits and reduced once.

// wide is an unreduced sum of products: coefficients 0..255 in four
// little-endian 64-bit words.
type wide [4]uint64

// clmul64 returns the carry-less product of a and b as (hi, lo), in
// constant time: bmul64 gives the low 64 bits, and the high ones are the
// low bits of the product of the bit-reversed operands, reversed.
func clmul64(a, b uint64) (hi, lo uint64) {
	lo = bmul64(a, b)
	hi = bits.Reverse64(bmul64(bits.Reverse64(a), bits.Reverse64(b))) >> 1
	return hi, lo
}

// bmul64 returns the low 64 bits of the carry-less product of x and y
// with integer multiplications on operands with holes (every fourth bit),
// so that carries fall into the holes (BearSSL's ghash_ctmul64).
func bmul64(x, y uint64) uint64 {
	const m0, m1, m2, m3 = 0x1111111111111111, 0x2222222222222222, 0x4444444444444444, 0x8888888888888888
	x0, x1, x2, x3 := x&m0, x&m1, x&m2, x&m3
	y0, y1, y2, y3 := y&m0, y&m1, y&m2, y&m3
	z0 := x0*y0 ^ x1*y3 ^ x2*y2 ^ x3*y1
	z1 := x0*y1 ^ x1*y0 ^ x2*y3 ^ x3*y2
	z2 := x0*y2 ^ x1*y1 ^ x2*y0 ^ x3*y3
	z3 := x0*y3 ^ x1*y2 ^ x2*y1 ^ x3*y0
	return z0&m0 | z1&m1 | z2&m2 | z3&m3
}

// mulAdd adds a·b to w.
func (w *wide) mulAdd(a, b Block) {
	a0, a1 := binary.LittleEndian.Uint64(a[:8]), binary.LittleEndian.Uint64(a[8:])
	b0, b1 := binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])
	// Karatsuba: a·b = a1b1·X^128 + ((a0+a1)(b0+b1) + a0b0 + a1b1)·X^64 + a0b0.
	h00, l00 := clmul64(a0, b0)
	h11, l11 := clmul64(a1, b1)
	hm, lm := clmul64(a0^a1, b0^b1)
	hm ^= h00 ^ h11
	lm ^= l00 ^ l11
	w[0] ^= l00
	w[1] ^= h00 ^ lm
	w[2] ^= l11 ^ hm
	w[3] ^= h11
}

// reduce returns w modulo X^128 + X^7 + X^2 + X + 1.
func (w *wide) reduce() Block {
	r0, r1, r2, r3 := w[0], w[1], w[2], w[3]
	// X^128 ≡ X^7 + X^2 + X + 1: fold the high half (r2, r3) times that.
	a0 := r2 ^ r2<<1 ^ r2<<2 ^ r2<<7
	a1 := r3 ^ r3<<1 ^ r3<<2 ^ r3<<7 ^ r2>>63 ^ r2>>62 ^ r2>>57
	a2 := r3>>63 ^ r3>>62 ^ r3>>57 // coefficients 128..134: fold again
	a0 ^= a2 ^ a2<<1 ^ a2<<2 ^ a2<<7
	var out Block
	binary.LittleEndian.PutUint64(out[:8], r0^a0)
	binary.LittleEndian.PutUint64(out[8:], r1^a1)
	return out
}

// useCLMUL selects the PCLMULQDQ path of mulAdds; tests switch it off to
// compare the two.
var useCLMUL = hasCLMUL

// mulAdds adds Σ a[j]·b[j] over j < len(a) to w (len(b) ≥ len(a)): with
// PCLMULQDQ where the processor has it (four carry-less products per
// term, constant time like the pure-Go path), else term by term with
// mulAdd. Both give the same sum.
func (w *wide) mulAdds(a, b []Block) {
	if !useCLMUL || len(a) == 0 {
		for j := range a {
			w.mulAdd(a[j], b[j])
		}
		return
	}
	_ = b[len(a)-1]
	var out [6]uint64
	clmulSums(&a[0], &b[0], len(a), &out)
	w[0] ^= out[0]
	w[1] ^= out[1] ^ out[2]
	w[2] ^= out[3] ^ out[4]
	w[3] ^= out[5]
}
