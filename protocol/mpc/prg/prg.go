// Package prg is the deterministic randomness of the secure computation.
//
// Every random choice a peer makes in garbling and oblivious transfer (wire
// labels, the free-XOR offset Δ, OT scalars and secrets) is read from a
// [Stream] derived from one 32-byte per-game [Seed] that the peer commits to
// at the start of the game (trust.md T-8). Revealing the seed at the end lets
// the other peer re-derive every byte the peer should have sent.
//
// Seeds form a tree: [Seed.Derive] gives an independent child seed for a
// label and a list of numbers (a try number, a batch number), so a stream's
// content never depends on how much of another stream was read before.
// A stream is AES-256 in counter mode keyed with the seed (zero IV).
package prg

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/binary"
)

// SeedSize is the size of a seed in bytes.
const SeedSize = 32

// Seed is a 32-byte secret from which streams are derived.
type Seed [SeedSize]byte

// deriveTag separates seed derivation from every other use of SHA-256.
const deriveTag = "kakure/mpc/prg/derive/v1\x00"

// Derive returns the child seed of s for a label and a list of numbers:
// SHA-256(tag ‖ s ‖ len(label) ‖ label ‖ n ‖ index...), all lengths and
// numbers as 8-byte big-endian values, so distinct (label, index) lists
// give distinct inputs.
func (s Seed) Derive(label string, index ...uint64) Seed {
	h := sha256.New()
	var n [8]byte
	h.Write([]byte(deriveTag))
	h.Write(s[:])
	binary.BigEndian.PutUint64(n[:], uint64(len(label)))
	h.Write(n[:])
	h.Write([]byte(label))
	binary.BigEndian.PutUint64(n[:], uint64(len(index)))
	h.Write(n[:])
	for _, x := range index {
		binary.BigEndian.PutUint64(n[:], x)
		h.Write(n[:])
	}
	var out Seed
	h.Sum(out[:0])
	return out
}

// Stream returns the stream of the child seed s.Derive(label, index...).
func (s Seed) Stream(label string, index ...uint64) *Stream {
	return New(s.Derive(label, index...))
}

// Stream is a deterministic stream of pseudo-random bytes. It is not safe
// for concurrent use.
type Stream struct {
	ctr cipher.Stream
	buf [512]byte // keystream not yet handed out: buf[pos:]
	pos int
}

// New returns the stream keyed by seed: AES-256-CTR(seed, IV = 0).
func New(seed Seed) *Stream {
	block, err := aes.NewCipher(seed[:])
	if err != nil {
		panic("prg: " + err.Error()) // 32-byte keys are always valid
	}
	var iv [aes.BlockSize]byte
	s := &Stream{ctr: cipher.NewCTR(block, iv[:])}
	s.pos = len(s.buf)
	return s
}

// Read fills p with the next len(p) bytes of the stream. It never fails;
// it lets a Stream serve as an io.Reader.
func (s *Stream) Read(p []byte) (int, error) {
	n := len(p)
	if s.pos < len(s.buf) {
		c := copy(p, s.buf[s.pos:])
		s.pos += c
		p = p[c:]
	}
	if len(p) >= len(s.buf) {
		clear(p)
		s.ctr.XORKeyStream(p, p)
		return n, nil
	}
	if len(p) > 0 {
		s.refill()
		s.pos = copy(p, s.buf[:])
	}
	return n, nil
}

func (s *Stream) refill() {
	clear(s.buf[:])
	s.ctr.XORKeyStream(s.buf[:], s.buf[:])
	s.pos = 0
}

// Block returns the next 16 bytes of the stream.
func (s *Stream) Block() [16]byte {
	var b [16]byte
	s.Read(b[:])
	return b
}

// Uint64 returns the next 8 bytes of the stream as a little-endian number.
func (s *Stream) Uint64() uint64 {
	if len(s.buf)-s.pos < 8 {
		var b [8]byte
		s.Read(b[:])
		return binary.LittleEndian.Uint64(b[:])
	}
	v := binary.LittleEndian.Uint64(s.buf[s.pos:])
	s.pos += 8
	return v
}

// Intn returns a uniform number in [0, n) for n > 0, by rejection sampling
// so that no value is favoured.
func (s *Stream) Intn(n int) int {
	if n <= 0 {
		panic("prg: Intn argument must be positive")
	}
	bound := uint64(n)
	limit := ^uint64(0) - (^uint64(0) % bound) // multiple of bound
	for {
		v := s.Uint64()
		if v < limit {
			return int(v % bound)
		}
	}
}

// Bools returns the next n bits of the stream, eight per byte, least
// significant bit first.
func (s *Stream) Bools(n int) []bool {
	b := make([]byte, (n+7)/8)
	s.Read(b)
	out := make([]bool, n)
	for i := range out {
		out[i] = b[i/8]>>(i%8)&1 == 1
	}
	return out
}
