package ot

// The columns of the OT extension: the base OT keys' streams G(k, batch)
// and the transposition of κ columns into rows.

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
)

// column is the generator G(k, ·) of the base OT key k: AES-256 under k
// in counter mode. A short column (at most shortColumn bytes: the
// per-garbling extensions of MPC-D28, made with fresh keys every try)
// comes from the assembly, which expands the key on the stack; the
// cipher of crypto/aes is made the first time a longer one is read, or
// without AES-NI. Building 2·128·λ ciphers a try (a key schedule for
// encryption and one for decryption, 528 bytes on the heap each) cost
// the evaluator more than its columns (issue 38, MPC-D41).
type column struct {
	key Key
	c   cipher.Block
}

// newColumnsOf returns the generators of keys.
func newColumnsOf(keys []Key) []column {
	cs := make([]column, len(keys))
	for i, k := range keys {
		cs[i].key = k
	}
	return cs
}

// read fills dst with the first len(dst) bytes of G(k, batch).
func (g *column) read(batch uint32, dst []byte) {
	if hasColumnAsm && len(dst) <= shortColumn {
		var buf [shortColumn + 64]byte
		groups := (len(dst) + 63) / 64
		if groups > 0 {
			shortColumnAESNI(&g.key, uint64(batch), &buf[0], groups)
		}
		copy(dst, buf[:len(dst)])
		return
	}
	if g.c == nil {
		g.c = columnCipher(g.key)
	}
	readColumn(g.c, batch, dst)
}

// columnCipher returns the AES-256 cipher of G for base OT key k.
func columnCipher(k Key) cipher.Block {
	c, err := aes.NewCipher(k[:])
	if err != nil {
		panic("ot: " + err.Error()) // 32-byte keys are always valid
	}
	return c
}

// readColumn fills dst with the first len(dst) bytes of G(k, batch), c
// the cipher of k.
func readColumn(c cipher.Block, batch uint32, dst []byte) {
	if len(dst) > shortColumn {
		readColumnCTR(c, batch, dst)
		return
	}
	// A short column (the m + 192 rows of a garbling's correlated OTs,
	// MPC-D28: 126 bytes on 9×9) block by block: the same bytes as the
	// CTR stream, counter blocks batch ‖ k, without the CTR's copy of the
	// key schedule on the heap, which cost more than the column (issue
	// 38).
	full := len(dst) / aes.BlockSize * aes.BlockSize
	for k := 0; k < full; k += aes.BlockSize {
		// The counter block in place, encrypted in place.
		b := dst[k : k+aes.BlockSize]
		binary.BigEndian.PutUint64(b[:8], uint64(batch))
		binary.BigEndian.PutUint64(b[8:], uint64(k/aes.BlockSize))
		c.Encrypt(b, b)
	}
	if full < len(dst) {
		ks := make([]byte, aes.BlockSize)
		binary.BigEndian.PutUint64(ks[:8], uint64(batch))
		binary.BigEndian.PutUint64(ks[8:], uint64(full/aes.BlockSize))
		c.Encrypt(ks, ks)
		copy(dst[full:], ks)
	}
}

// shortColumn is the longest column readColumn makes block by block:
// about where a CTR stream's setup (450 ns here) costs as much as the
// blocks one at a time (27 ns each).
const shortColumn = 256

// readColumnCTR is readColumn with the CTR stream of crypto/cipher.
func readColumnCTR(c cipher.Block, batch uint32, dst []byte) {
	var iv [aes.BlockSize]byte
	binary.BigEndian.PutUint64(iv[:8], uint64(batch))
	clear(dst)
	cipher.NewCTR(c, iv[:]).XORKeyStream(dst, dst)
}

// bitColumns holds kappa columns (Kappa or KappaMAC) of m bits, each
// padded with zeros to a multiple of 64 bits for the transposition.
type bitColumns struct {
	kappa  int
	stride int // bytes per column
	data   []byte
}

func newColumns(kappa, m int) bitColumns {
	stride := (m + 63) / 64 * 8
	return bitColumns{kappa: kappa, stride: stride, data: make([]byte, kappa*stride)}
}

func (c bitColumns) column(i int) []byte { return c.data[i*c.stride : (i+1)*c.stride] }

// rows transposes the columns into m rows of kappa bits: bit i of row j
// (byte i/8, bit i%8) is bit j of column i; the bits from kappa on are
// zero.
func (c bitColumns) rows(m int) []Block {
	out := make([]Block, m)
	var w [64]uint64
	for og := 0; og*64 < m; og++ {
		for cg := range c.kappa / 64 {
			for ii := range 64 {
				w[ii] = binary.LittleEndian.Uint64(c.data[(64*cg+ii)*c.stride+8*og:])
			}
			transpose64(&w)
			for jj := range 64 {
				j := 64*og + jj
				if j >= m {
					break
				}
				binary.LittleEndian.PutUint64(out[j][8*cg:], w[jj])
			}
		}
	}
	return out
}

// transpose64 transposes a 64×64 bit matrix in place: bit c of word r
// moves to bit r of word c. It swaps the off-diagonal blocks of sizes 32,
// 16, …, 1.
func transpose64(a *[64]uint64) {
	m := uint64(0x00000000ffffffff)
	for j := 32; j != 0; j, m = j>>1, m^(m<<(j>>1)) {
		for k := 0; k < 64; k = (k + j + 1) &^ j {
			t := (a[k]>>j ^ a[k|j]) & m
			a[k] ^= t << j
			a[k|j] ^= t
		}
	}
}
