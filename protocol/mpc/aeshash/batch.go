package aeshash

// The key schedule of FixedKey and whether the processor has AES-NI, for
// the fused AES-NI gate routines of package gc (MPC-D13), which run π
// themselves: they share the key schedule through RoundKeys and ask
// Assembly whether they can run. (The batched Batch hashing of MPC-D12
// that they replaced is gone.) Tests of package gc check the assembly and
// crypto/aes paths give identical garbled tables; package gc's switch
// between them is its own, for its tests only (issue 33).

// roundKeyBytes is the size of the AES-128 key schedule: 11 round keys.
const roundKeyBytes = 11 * Size

// fixedRoundKeys is the key schedule of FixedKey, computed once.
var fixedRoundKeys = expandKey128(FixedKey())

// RoundKeys returns the AES-128 key schedule of FixedKey (11 round keys,
// round key r in bytes 16r..16r+15, the order AES-NI reads them), for
// assembly of other packages that runs π itself (the fused gate routines
// of package gc).
func RoundKeys() [roundKeyBytes]byte { return fixedRoundKeys }

// Assembly reports whether AES-NI assembly can run here: amd64 with
// AES-NI, built without the purego tag. Callers with an assembly path of
// their own run it only then, and their pure-Go path otherwise.
func Assembly() bool { return hasAssembly }

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
