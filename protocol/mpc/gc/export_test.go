package gc

import "github.com/kakure/kakure/protocol/mpc/aeshash"

// SetAssembly turns the AES-NI gate routines on (where the processor has
// AES-NI) or off, and returns whether they are on: off, every gate path
// hashes through crypto/aes one block at a time (the "purego" gate path of
// the KAT tests and the benchmarks).
func SetAssembly(on bool) bool {
	useAESNI = on && aeshash.Assembly()
	return useAESNI
}

// SetVAES turns the VAES garbling routine on (where the processor has
// it) or off, and returns whether it is on: tests compare its tables
// with those of the AES-NI routine.
func SetVAES(on bool) bool {
	useVAES = on && haveVAES
	return useVAES
}

// SetAVX2 turns the fused three-halves garbling routines (which need
// AVX2) on (where the processor has AVX2) or off, and returns whether
// they are on: tests compare their tables with those of the per-gate
// AES-NI hash.
func SetAVX2(on bool) bool {
	useAVX2 = on && haveAVX2
	return useAVX2
}
