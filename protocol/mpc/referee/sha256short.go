package referee

// SHA-256 of short messages by one call of the compression function
// (MPC-D45): the label commitments of the checked tries (52 bytes each,
// two per garbler input wire of every garbling) took crypto/sha256's
// Sum256 a third longer than this (123 against 92 ns, BenchmarkSha256Short
// on the loaded shared machine): its digest state, the padding written
// through a second Write, and bookkeeping. The bytes are SHA-256's:
// sha256Short is sha256.Sum256 for every message it takes.

import (
	"crypto/sha256"
	"encoding/binary"
)

// shortMaxLen is the longest message that fits one block with SHA-256's
// padding (a 0x80 byte and the 64-bit length).
const shortMaxLen = 55

// sha256IV is SHA-256's initial state (FIPS 180-4 §5.3.3).
var sha256IV = [8]uint32{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}

// sha256Short returns the SHA-256 digest of msg: with the SHA extensions one
// compression of the padded block when msg is at most shortMaxLen bytes,
// else crypto/sha256.
func sha256Short(msg []byte) [sha256.Size]byte {
	if !hasSHANI || len(msg) > shortMaxLen {
		return sha256.Sum256(msg)
	}
	var blk [64]byte
	copy(blk[:], msg)
	blk[len(msg)] = 0x80
	binary.BigEndian.PutUint64(blk[56:], uint64(len(msg))*8)
	h := sha256IV
	blockSHANI(&h, &blk)
	var out [sha256.Size]byte
	for i, v := range h {
		binary.BigEndian.PutUint32(out[4*i:], v)
	}
	return out
}
