//go:build !amd64 || purego

package aeshash

// hasAssembly: no assembly path on this architecture (or with the
// purego build tag).
const hasAssembly = false

func tccr4AESNI(*[roundKeyBytes]byte, *[8]uint64, *[8]uint64, *[8]uint64) {
	panic("aeshash: no assembly")
}

func tccr2AESNI(*[roundKeyBytes]byte, *[4]uint64, *[4]uint64, *[4]uint64) {
	panic("aeshash: no assembly")
}

func tccr8AESNI(*[roundKeyBytes]byte, *[16]uint64, *[16]uint64, *[16]uint64) {
	panic("aeshash: no assembly")
}
