//go:build amd64 && !purego

package ot

import "golang.org/x/sys/cpu"

// hasCLMUL: the processor has PCLMULQDQ (and SSE2, always on amd64).
var hasCLMUL = cpu.X86.HasPCLMULQDQ

// clmulSums adds Σ a[j]·b[j] (carry-less, unreduced) over j < n to out:
// out[0], out[1] the products of the low halves, out[2], out[3] the
// cross products, out[4], out[5] the products of the high halves, each a
// 128-bit little-endian sum. a and b hold n blocks each.
//
//go:noescape
func clmulSums(a, b *Block, n int, out *[6]uint64)
