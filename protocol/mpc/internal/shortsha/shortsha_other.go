//go:build !amd64 || purego

package shortsha

// useSHANI is false: Sums calls crypto/sha256 (a variable, as on amd64,
// for the tests).
var useSHANI = false

func pairs(out *[2][32]byte, blocks *[2][64]byte, n int) {
	panic("shortsha: no SHA extensions")
}
