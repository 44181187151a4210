package aeshash

// The key schedule of FixedKey and the assembly switch, for the fused
// AES-NI gate routines of package gc (MPC-D13), which run π themselves:
// they share the key schedule through RoundKeys and the switch through
// SetAssembly. (The batched Batch hashing of MPC-D12 that they replaced
// is gone.) Tests of package gc check the assembly and crypto/aes paths
// give identical garbled tables.

// roundKeyBytes is the size of the AES-128 key schedule: 11 round keys.
const roundKeyBytes = 11 * Size

// fixedRoundKeys is the key schedule of FixedKey, computed once.
var fixedRoundKeys = expandKey128(FixedKey())

// RoundKeys returns the AES-128 key schedule of FixedKey (11 round keys,
// round key r in bytes 16r..16r+15, the order AES-NI reads them), for
// assembly of other packages that runs π itself (the fused gate routines
// of package gc).
func RoundKeys() [roundKeyBytes]byte { return fixedRoundKeys }

// useAssembly reports whether the assembly path is on; it starts as
// hasAssembly (amd64 with AES-NI).
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
