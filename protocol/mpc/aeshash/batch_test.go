package aeshash

import (
	"crypto/aes"
	"encoding/binary"
	"testing"
)

// TestBatchPathsAgree: the assembly path (AES-NI, where the processor
// has it) and the crypto/aes path of Batch give the hashes of Hasher, on
// random blocks and tweaks; the computed key schedule is that of
// crypto/aes (its last round key is checked through the hashes).
func TestBatchPathsAgree(t *testing.T) {
	defer SetAssembly(true)
	k := FixedKey()
	c, _ := aes.NewCipher(k[:])
	h := NewHasher()
	paths := []bool{false}
	if hasAssembly {
		paths = append(paths, true)
	} else {
		t.Log("no assembly path on this machine: only the crypto/aes path is checked")
	}
	var state [16]byte
	next := func() Block {
		c.Encrypt(state[:], state[:])
		return Block(state)
	}
	for _, asm := range paths {
		if got := SetAssembly(asm); got != asm {
			t.Fatalf("SetAssembly(%v) = %v", asm, got)
		}
		b := NewBatch()
		for range 500 {
			var x, tw [4]Block
			var xw, tww, outw [8]uint64
			for i := range 4 {
				x[i], tw[i] = next(), next()
				xw[2*i], xw[2*i+1] = words(x[i])
				tww[2*i], tww[2*i+1] = words(tw[i])
			}
			b.Hash4(&xw, &tww, &outw)
			for i := range 4 {
				if lo, hi := words(h.Hash(x[i], tw[i])); outw[2*i] != lo || outw[2*i+1] != hi {
					t.Fatalf("assembly %v: Hash4[%d] differs from Hash", asm, i)
				}
			}
			var x8, t8, o8 [16]uint64
			copy(x8[:8], xw[:])
			copy(t8[:8], tww[:])
			for i := range 8 {
				x8[8+i], t8[8+i] = xw[7-i]^1, tww[i]
			}
			b.Hash8(&x8, &t8, &o8)
			for i := range 8 {
				xb, tb := blockOf(x8[2*i], x8[2*i+1]), blockOf(t8[2*i], t8[2*i+1])
				if lo, hi := words(h.Hash(xb, tb)); o8[2*i] != lo || o8[2*i+1] != hi {
					t.Fatalf("assembly %v: Hash8[%d] differs from Hash", asm, i)
				}
			}
			x2 := [4]uint64{xw[0], xw[1], xw[6], xw[7]}
			t2 := [4]uint64{tww[2], tww[3], tww[4], tww[5]}
			var o2 [4]uint64
			b.Hash2(&x2, &t2, &o2)
			lo0, hi0 := words(h.Hash(x[0], tw[1]))
			lo1, hi1 := words(h.Hash(x[3], tw[2]))
			if o2 != [4]uint64{lo0, hi0, lo1, hi1} {
				t.Fatalf("assembly %v: Hash2 differs from Hash", asm)
			}
		}
	}
}

func words(b Block) (uint64, uint64) {
	return binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])
}

func blockOf(lo, hi uint64) Block {
	var b Block
	binary.LittleEndian.PutUint64(b[:8], lo)
	binary.LittleEndian.PutUint64(b[8:], hi)
	return b
}

// TestSbox checks the computed S-box on the values of FIPS-197.
func TestSbox(t *testing.T) {
	for in, want := range map[byte]byte{0x00: 0x63, 0x01: 0x7c, 0x53: 0xed, 0xff: 0x16, 0x10: 0xca} {
		if sbox[in] != want {
			t.Errorf("S(%#x) = %#x, want %#x", in, sbox[in], want)
		}
	}
	// FIPS-197 appendix A.1: the last round key of 2b7e1516 28aed2a6 abf71588 09cf4f3c.
	key := [16]byte{0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c}
	rk := expandKey128(key)
	want := [16]byte{0xd0, 0x14, 0xf9, 0xa8, 0xc9, 0xee, 0x25, 0x89, 0xe1, 0x3f, 0x0c, 0xc8, 0xb6, 0x63, 0x0c, 0xa6}
	if [16]byte(rk[160:]) != want {
		t.Errorf("last round key %x, want %x", rk[160:], want)
	}
}

// BenchmarkHash4 hashes four blocks per call with each path.
func BenchmarkHash4(b *testing.B) {
	defer SetAssembly(true)
	for _, asm := range []bool{true, false} {
		name := "purego"
		if asm {
			name = "asm"
		}
		b.Run(name, func(b *testing.B) {
			if SetAssembly(asm) != asm {
				b.Skip("no assembly path")
			}
			h := NewBatch()
			var x, tw, out [8]uint64
			for range b.N {
				h.Hash4(&x, &tw, &out)
				x[0] ^= out[0]
			}
		})
	}
}
