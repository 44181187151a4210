//go:build amd64 && !purego

package aeshash

import "golang.org/x/sys/cpu"

// hasAssembly: the processor has AES-NI (and SSE2, always on amd64).
var hasAssembly = cpu.X86.HasAES

// tccr4AESNI sets out[k] = H(x[k], t[k]) for k = 0..3 with AES-NI, rk the
// AES-128 key schedule of π.
//
//go:noescape
func tccr4AESNI(rk *[roundKeyBytes]byte, x, t, out *[8]uint64)

// tccr2AESNI is tccr4AESNI on two blocks.
//
//go:noescape
func tccr2AESNI(rk *[roundKeyBytes]byte, x, t, out *[4]uint64)

// tccr8AESNI is tccr4AESNI on eight blocks.
//
//go:noescape
func tccr8AESNI(rk *[roundKeyBytes]byte, x, t, out *[16]uint64)
