//go:build amd64 && !purego

package cpuid

// leaf7 returns EBX and ECX of CPUID leaf 7, sub-leaf 0; ok is false
// when the processor has no leaf 7.
func leaf7() (ebx, ecx uint32, ok bool) {
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf < 7 {
		return 0, 0, false
	}
	_, ebx, ecx, _ = cpuid(7, 0)
	return ebx, ecx, true
}

// cpuid executes CPUID with EAX = leaf and ECX = sub.
//
//go:noescape
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
