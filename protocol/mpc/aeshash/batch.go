package aeshash

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
)

// Batched hashing: H on two, four or eight blocks in one call, so that
// the AES rounds of the blocks overlap in the processor. (The gate loops
// of package gc, which used it, now run fused routines of their own that
// also do the half-gates arithmetic, MPC-D13; they share the key schedule
// through RoundKeys and the switch through SetAssembly.)
// On amd64 with AES-NI, one assembly routine runs both AES layers of H on
// all the blocks with the round keys in registers (tccr4AESNI); elsewhere,
// or with [SetAssembly](false), the same values come from crypto/aes one
// block at a time. Tests check both paths give identical hashes and
// identical garbled tables.

// Batch computes H on several blocks at once, each block as two 64-bit
// words: block k of a call is words 2k (its bytes 0..7, little-endian)
// and 2k+1 (bytes 8..15), the layout the gate loops keep labels in. It is
// not safe for concurrent use; make one per goroutine.
type Batch struct {
	pi      cipher.Block
	buf     [8]Block
	roundKs *[roundKeyBytes]byte
}

// roundKeyBytes is the size of the AES-128 key schedule: 11 round keys.
const roundKeyBytes = 11 * Size

// fixedRoundKeys is the key schedule of FixedKey, computed once.
var fixedRoundKeys = expandKey128(FixedKey())

// RoundKeys returns the AES-128 key schedule of FixedKey (11 round keys,
// round key r in bytes 16r..16r+15, the order AES-NI reads them), for
// assembly of other packages that runs π itself (the fused gate routines
// of package gc).
func RoundKeys() [roundKeyBytes]byte { return fixedRoundKeys }

// useAssembly reports whether Hash4 and Hash2 run the assembly path; it
// starts as hasAssembly (amd64 with AES-NI).
var useAssembly = hasAssembly

// SetAssembly turns the assembly path on (where the processor has it) or
// off, and returns whether it is on. It is for tests and benchmarks that
// compare the two paths; it must not be called while hashing.
func SetAssembly(on bool) bool {
	useAssembly = on && hasAssembly
	return useAssembly
}

// Assembly reports whether the assembly path is on: callers with a
// faster pure-Go path of their own use it otherwise.
func Assembly() bool { return useAssembly }

// NewBatch returns a Batch for π = AES-128 under FixedKey.
func NewBatch() *Batch {
	k := FixedKey()
	c, err := aes.NewCipher(k[:])
	if err != nil {
		panic("aeshash: " + err.Error())
	}
	return &Batch{pi: c, roundKs: &fixedRoundKeys}
}

// Hash4 sets block k of out to H(block k of x, block k of t), k = 0..3.
func (b *Batch) Hash4(x, t, out *[8]uint64) {
	if useAssembly {
		tccr4AESNI(b.roundKs, x, t, out)
		return
	}
	b.hashN(x[:], t[:], out[:])
}

// Hash8 is Hash4 on eight blocks, eight AES calls in flight.
func (b *Batch) Hash8(x, t, out *[16]uint64) {
	if useAssembly {
		tccr8AESNI(b.roundKs, x, t, out)
		return
	}
	b.hashN(x[:8], t[:8], out[:8])
	b.hashN(x[8:], t[8:], out[8:])
}

// Hash2 is Hash4 on two blocks.
func (b *Batch) Hash2(x, t, out *[4]uint64) {
	if useAssembly {
		tccr2AESNI(b.roundKs, x, t, out)
		return
	}
	b.hashN(x[:], t[:], out[:])
}

// hashN is the crypto/aes path: one block at a time.
func (b *Batch) hashN(x, t, out []uint64) {
	s := &b.buf
	n := len(x) / 2
	for k := range n {
		binary.LittleEndian.PutUint64(s[k][:8], x[2*k])
		binary.LittleEndian.PutUint64(s[k][8:], x[2*k+1])
		b.pi.Encrypt(s[k][:], s[k][:])
		lo, hi := binary.LittleEndian.Uint64(s[k][:8]), binary.LittleEndian.Uint64(s[k][8:])
		binary.LittleEndian.PutUint64(s[n+k][:8], lo^t[2*k])
		binary.LittleEndian.PutUint64(s[n+k][8:], hi^t[2*k+1])
	}
	for k := range n {
		b.pi.Encrypt(s[n+k][:], s[n+k][:])
		out[2*k] = binary.LittleEndian.Uint64(s[n+k][:8]) ^ binary.LittleEndian.Uint64(s[k][:8])
		out[2*k+1] = binary.LittleEndian.Uint64(s[n+k][8:]) ^ binary.LittleEndian.Uint64(s[k][8:])
	}
}

// expandKey128 returns the AES-128 key schedule of key (FIPS-197 §5.2),
// round key r in bytes 16r..16r+15 in the order AES-NI reads them.
func expandKey128(key [16]byte) [roundKeyBytes]byte {
	var w [roundKeyBytes]byte
	copy(w[:16], key[:])
	rcon := byte(1)
	for i := 16; i < roundKeyBytes; i += 4 {
		t := [4]byte{w[i-4], w[i-3], w[i-2], w[i-1]}
		if i%16 == 0 {
			t = [4]byte{sbox[t[1]] ^ rcon, sbox[t[2]], sbox[t[3]], sbox[t[0]]}
			rcon = xtime(rcon)
		}
		for k := range 4 {
			w[i+k] = w[i-16+k] ^ t[k]
		}
	}
	return w
}

// xtime multiplies by X in GF(2^8) modulo X^8 + X^4 + X^3 + X + 1.
func xtime(b byte) byte {
	return b<<1 ^ (b>>7)*0x1b
}

// sbox is the AES S-box, computed: the inverse in GF(2^8) followed by the
// affine map.
var sbox = func() [256]byte {
	var s [256]byte
	mul := func(a, b byte) byte {
		var p byte
		for range 8 {
			p ^= -(b & 1) & a
			a = xtime(a)
			b >>= 1
		}
		return p
	}
	for x := range 256 {
		inv := byte(0)
		if x != 0 {
			// x^254 = x^-1.
			inv = 1
			for range 254 {
				inv = mul(inv, byte(x))
			}
		}
		b := inv
		s[x] = b ^ rotl8(b, 1) ^ rotl8(b, 2) ^ rotl8(b, 3) ^ rotl8(b, 4) ^ 0x63
	}
	return s
}()

func rotl8(b byte, n int) byte { return b<<n | b>>(8-n) }
