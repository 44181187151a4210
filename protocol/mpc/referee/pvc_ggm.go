package referee

// The punctured GGM tree of a checked try's seeds (T-8(b), MPC-D14): the evaluator gets every seed but ĵ's.

import (
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// ggmChild returns child b (0 left, 1 right) of a node of the GGM tree.
func ggmChild(node prg.Seed, b int) prg.Seed { return node.Derive(labelPVCNode, uint64(b)) }

// ggmLevels returns the nodes of every level of the tree of root:
// levels[0] = {root}, levels[d] the λ leaves (the seeds of the garblings).
func ggmLevels(root prg.Seed, depth int) [][]prg.Seed {
	levels := [][]prg.Seed{{root}}
	for range depth {
		prev := levels[len(levels)-1]
		next := make([]prg.Seed, 0, 2*len(prev))
		for _, n := range prev {
			next = append(next, ggmChild(n, 0), ggmChild(n, 1))
		}
		levels = append(levels, next)
	}
	return levels
}

// ggmSums returns, per level ℓ = 1..d, the XOR of its nodes of each side
// (K_ℓ^0 of the left children, K_ℓ^1 of the right ones).
func ggmSums(levels [][]prg.Seed) [][2]prg.Seed {
	sums := make([][2]prg.Seed, len(levels)-1)
	for l := 1; l < len(levels); l++ {
		for i, n := range levels[l] {
			xorSeed(&sums[l-1][i&1], n)
		}
	}
	return sums
}

func xorSeed(dst *prg.Seed, s prg.Seed) {
	for i := range dst {
		dst[i] ^= s[i]
	}
}

// ggmPuncture rebuilds every leaf but leaf j from the sums received, one
// per level: got[ℓ-1] is K_ℓ^b for b the complement of bit ℓ of j (from
// the top). The leaf j is left zero.
func ggmPuncture(got []prg.Seed, j, depth int) []prg.Seed {
	known := map[int]prg.Seed{}
	for l := 1; l <= depth; l++ {
		path := j >> (depth - l) // the punctured node of level l
		sib := path ^ 1          // its sibling, from got
		next := make(map[int]prg.Seed, 1<<l)
		for idx, n := range known {
			next[2*idx], next[2*idx+1] = ggmChild(n, 0), ggmChild(n, 1)
		}
		s := got[l-1]
		for idx, n := range next {
			if idx&1 == sib&1 {
				xorSeed(&s, n)
			}
		}
		next[sib] = s
		known = next
	}
	leaves := make([]prg.Seed, 1<<depth)
	for idx, n := range known {
		leaves[idx] = n
	}
	return leaves
}

// seedChoices returns the OT choice bits of the seed transfer for ĵ = j:
// per level, twice, the complement of the bit of j (the side off the
// path, whose sum gives the sibling of the punctured node).
func seedChoices(j, depth int) []bool {
	c := make([]bool, 0, 2*depth)
	for l := 1; l <= depth; l++ {
		bit := (j>>(depth-l))&1 == 1
		c = append(c, !bit, !bit)
	}
	return c
}
