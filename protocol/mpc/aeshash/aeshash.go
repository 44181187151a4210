// Package aeshash holds the 128-bit blocks of the secure computation and
// the fixed-key AES hash that garbling and OT extension are built on.
//
// The hash is the tweakable circular correlation-robust (TCCR) hash of Guo,
// Katz, Wang and Yu, "Efficient and Secure Multiparty Computation from
// Fixed-Key Block Ciphers" (IEEE S&P 2020, eprint 2019/074, §7.4):
//
//	H(x, i) = π(π(x) ⊕ i) ⊕ π(x)
//
// where π is AES-128 under a fixed public key. It costs two AES calls. It
// is chosen over the older H(x, i) = π(2x ⊕ i) ⊕ 2x of the first half-gates
// implementations, and over the one-call MMO^σ hash π(σ(x)) ⊕ σ(x) with
// σ(xL‖xR) = (xL⊕xR)‖xL, which is circular correlation robust (§7.3) but
// not tweakable; the same paper shows that folding the tweak into the
// input of a one-call hash loses concrete security when many gates are
// garbled. A fixed-key AES call goes through crypto/aes (AES-NI on amd64,
// the ARMv8 crypto extensions on arm64).
package aeshash

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/binary"
)

// Size is the size of a block in bytes.
const Size = 16

// Block is a 128-bit value: a wire label, an OT message, a hash output.
type Block [Size]byte

// Xor returns a ⊕ b.
func (a Block) Xor(b Block) Block {
	lo := binary.LittleEndian.Uint64(a[:8]) ^ binary.LittleEndian.Uint64(b[:8])
	hi := binary.LittleEndian.Uint64(a[8:]) ^ binary.LittleEndian.Uint64(b[8:])
	var c Block
	binary.LittleEndian.PutUint64(c[:8], lo)
	binary.LittleEndian.PutUint64(c[8:], hi)
	return c
}

// LSB returns the least significant bit of the first byte: the
// point-and-permute bit of a wire label.
func (a Block) LSB() bool { return a[0]&1 == 1 }

// Tweak returns the block whose first 8 bytes are lo and last 8 bytes hi,
// both little-endian: the tweak i of the hash.
func Tweak(hi, lo uint64) Block {
	var t Block
	binary.LittleEndian.PutUint64(t[:8], lo)
	binary.LittleEndian.PutUint64(t[8:], hi)
	return t
}

// fixedKeyTag names the public AES key: the key is the first 16 bytes of
// SHA-256 of this string, so anyone can recompute it.
const fixedKeyTag = "kakure/mpc/aeshash/fixed-key/v1"

// FixedKey returns the public AES-128 key of π.
func FixedKey() [16]byte {
	sum := sha256.Sum256([]byte(fixedKeyTag))
	var k [16]byte
	copy(k[:], sum[:16])
	return k
}

// Hasher computes H with its own scratch space, so that no call allocates.
// A Hasher is not safe for concurrent use; make one per goroutine.
type Hasher struct {
	pi cipher.Block
	// scratch holds blocks being hashed; slicing a field of a heap-allocated
	// Hasher keeps the buffers passed to the cipher.Block interface from
	// escaping (and being allocated) on every call.
	scratch [8]Block
}

// NewHasher returns a Hasher for π = AES-128 under FixedKey.
func NewHasher() *Hasher {
	k := FixedKey()
	c, err := aes.NewCipher(k[:])
	if err != nil {
		panic("aeshash: " + err.Error()) // 16-byte keys are always valid
	}
	return &Hasher{pi: c}
}

// Permute returns π(x), fixed-key AES.
func (h *Hasher) Permute(x Block) Block {
	h.scratch[0] = x
	h.pi.Encrypt(h.scratch[0][:], h.scratch[0][:])
	return h.scratch[0]
}

// Hash returns the TCCR hash H(x, tweak) = π(π(x) ⊕ tweak) ⊕ π(x).
func (h *Hasher) Hash(x, tweak Block) Block {
	s := &h.scratch
	s[0] = x
	h.pi.Encrypt(s[0][:], s[0][:])
	s[1] = s[0].Xor(tweak)
	h.pi.Encrypt(s[1][:], s[1][:])
	return s[1].Xor(s[0])
}

// Hash2 returns H(x0, t0) and H(x1, t1). The two computations are
// interleaved so that the processor overlaps their AES calls.
func (h *Hasher) Hash2(x0, t0, x1, t1 Block) (Block, Block) {
	s := &h.scratch
	s[0], s[1] = x0, x1
	h.pi.Encrypt(s[0][:], s[0][:])
	h.pi.Encrypt(s[1][:], s[1][:])
	s[2], s[3] = s[0].Xor(t0), s[1].Xor(t1)
	h.pi.Encrypt(s[2][:], s[2][:])
	h.pi.Encrypt(s[3][:], s[3][:])
	return s[2].Xor(s[0]), s[3].Xor(s[1])
}

// Hash4 returns H(x[k], t[k]) for k = 0..3, interleaved like Hash2.
func (h *Hasher) Hash4(x, t *[4]Block) [4]Block {
	s := &h.scratch
	s[0], s[1], s[2], s[3] = x[0], x[1], x[2], x[3]
	h.pi.Encrypt(s[0][:], s[0][:])
	h.pi.Encrypt(s[1][:], s[1][:])
	h.pi.Encrypt(s[2][:], s[2][:])
	h.pi.Encrypt(s[3][:], s[3][:])
	s[4], s[5], s[6], s[7] = s[0].Xor(t[0]), s[1].Xor(t[1]), s[2].Xor(t[2]), s[3].Xor(t[3])
	h.pi.Encrypt(s[4][:], s[4][:])
	h.pi.Encrypt(s[5][:], s[5][:])
	h.pi.Encrypt(s[6][:], s[6][:])
	h.pi.Encrypt(s[7][:], s[7][:])
	return [4]Block{s[4].Xor(s[0]), s[5].Xor(s[1]), s[6].Xor(s[2]), s[7].Xor(s[3])}
}
