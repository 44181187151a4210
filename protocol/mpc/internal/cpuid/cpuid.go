// Package cpuid reads the processor's features that golang.org/x/sys/cpu
// does not report on amd64: VAES without AVX-512 (AMD Zen 3 and later,
// Intel's Alder Lake cores, MPC-D44), and the SHA extensions (MPC-D57).
// Elsewhere, and with the purego build tag, it reports neither.
package cpuid

// VAES reports CPUID.(EAX=7, ECX=0):ECX bit 9: AES on vector registers.
func VAES() bool {
	_, ecx, ok := leaf7()
	return ok && ecx&(1<<9) != 0
}

// SHA reports CPUID.(EAX=7, ECX=0):EBX bit 29: the SHA-1 and SHA-256
// instructions (SHA-NI).
func SHA() bool {
	ebx, _, ok := leaf7()
	return ok && ebx&(1<<29) != 0
}
