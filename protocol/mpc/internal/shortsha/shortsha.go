// Package shortsha computes the SHA-256 digests of many short messages,
// each at most MaxLen bytes so that it is one block of SHA-256 with its
// padding: the label commitments of the checked tries (MPC-D14), about
// 24,000 of 52 bytes a 9×9 try at λ = 4. With the SHA extensions of
// amd64 it compresses two blocks at once, interleaved, about four times
// the speed of crypto/sha256 on one such message, whose state, padding
// and one-block chain of rounds it skips (MPC-D57 in docs/mpc.md). The
// digests are SHA-256's: elsewhere, and with the purego build tag, it
// calls crypto/sha256.
package shortsha

import (
	"crypto/sha256"
	"encoding/binary"
	"unsafe"
)

//go:generate go run gen_amd64.go

// MaxLen is the longest message a Block holds: 64 bytes less the
// padding's 0x80 byte and 8-byte length.
const MaxLen = 55

// Block is one message of at most MaxLen bytes with SHA-256's padding.
type Block [64]byte

// Pad writes the padding of a message of n bytes, held in b[:n], into
// b[n:]. It panics if n is not within 0 … MaxLen.
func (b *Block) Pad(n int) {
	if n < 0 || n > MaxLen {
		panic("shortsha: message of more than one block")
	}
	b[n] = 0x80
	clear(b[n+1 : 56])
	binary.BigEndian.PutUint64(b[56:], uint64(n)*8)
}

// len returns the length of the message b holds, from its padding.
func (b *Block) len() int {
	n := binary.BigEndian.Uint64(b[56:])
	if n%8 != 0 || n/8 > MaxLen || b[n/8] != 0x80 {
		panic("shortsha: block not padded by Pad")
	}
	return int(n / 8)
}

// Sums sets out[i] to the SHA-256 digest of the message of blocks[i],
// which Pad padded. out and blocks have the same length.
func Sums[D ~[32]byte](out []D, blocks []Block) {
	if len(out) != len(blocks) {
		panic("shortsha: as many digests as blocks")
	}
	if !useSHANI || len(blocks) == 0 {
		for i := range blocks {
			out[i] = sha256.Sum256(blocks[i][:blocks[i].len()])
		}
		return
	}
	n := len(blocks) / 2
	if n > 0 {
		pairs((*[2][32]byte)(unsafe.Pointer(&out[0])), (*[2][64]byte)(unsafe.Pointer(&blocks[0])), n)
	}
	if len(blocks)%2 == 1 {
		// The last block alone, as a pair of itself.
		var two [2][64]byte
		var sums [2][32]byte
		two[0], two[1] = blocks[2*n], blocks[2*n]
		pairs(&sums, &two, 1)
		out[2*n] = sums[0]
	}
}
