//go:build amd64 && !purego

package referee

import "golang.org/x/sys/cpu"

// hasSHANI: the processor has the SHA extensions (CPUID leaf 7, EBX bit
// 29; golang.org/x/sys/cpu does not report them on amd64) and the AVX,
// SSE4.1 and SSSE3 that blockSHANI also uses.
var hasSHANI = cpu.X86.HasAVX && cpu.X86.HasSSE41 && cpu.X86.HasSSSE3 && cpuidSHA()

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

// blockSHANI runs the SHA-256 compression function on the state h and
// the block p with the SHA extensions.
//
//go:noescape
func blockSHANI(h *[8]uint32, p *[64]byte)
