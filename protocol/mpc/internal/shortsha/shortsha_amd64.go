//go:build amd64 && !purego

package shortsha

import (
	"golang.org/x/sys/cpu"

	"github.com/kakure/kakure/protocol/mpc/internal/cpuid"
)

// useSHANI: the processor has the SHA extensions (read from CPUID by
// package cpuid: golang.org/x/sys/cpu does not report them on amd64)
// and the SSE4.1 and SSSE3 instructions the routine also uses; AVX for
// its VEX loads and stores. It is a variable so that the tests run both
// paths.
var useSHANI = cpu.X86.HasAVX && cpu.X86.HasSSE41 && cpu.X86.HasSSSE3 && cpuid.SHA()

// pairs sets out[2k] and out[2k+1] to the SHA-256 digests of the padded
// messages blocks[2k] and blocks[2k+1], for the n pairs from out and
// blocks on.
//
//go:noescape
func pairs(out *[2][32]byte, blocks *[2][64]byte, n int)
