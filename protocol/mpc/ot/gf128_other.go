//go:build !amd64 || purego

package ot

// hasCLMUL: no assembly path on this architecture (or with the purego
// build tag).
const hasCLMUL = false

func clmulSums(a, b *Block, n int, out *[6]uint64) {
	panic("ot: no carry-less multiplication instruction")
}
