//go:build amd64 && !purego

package shortsha

import "golang.org/x/sys/cpu"

// useSHANI: the processor has the SHA extensions (CPUID leaf 7, EBX bit
// 29, which golang.org/x/sys/cpu does not report) and the SSE4.1 and
// SSSE3 instructions the routine also uses; AVX for its VEX loads and
// stores. It is a variable so that the tests run both paths.
var useSHANI = cpu.X86.HasAVX && cpu.X86.HasSSE41 && cpu.X86.HasSSSE3 && cpuidSHA()

// cpuidSHA reports CPUID.(EAX=7, ECX=0):EBX bit 29, SHA.
func cpuidSHA() bool {
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf < 7 {
		return false
	}
	_, ebx, _, _ := cpuid(7, 0)
	return ebx&(1<<29) != 0
}

// cpuid executes CPUID with EAX = leaf and ECX = sub.
//
//go:noescape
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// pairs sets out[2k] and out[2k+1] to the SHA-256 digests of the padded
// messages blocks[2k] and blocks[2k+1], for the n pairs from out and
// blocks on.
//
//go:noescape
func pairs(out *[2][32]byte, blocks *[2][64]byte, n int)
