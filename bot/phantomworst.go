package bot

import (
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
)

// phantomFewUnknown is the number of opponent stones of unknown place
// below which an enclosed region that holds no known opponent stone
// counts as safe in the worst case (BOT-PG-D8): a group with two eyes
// takes at least four stones, so fewer cannot live in it.
const phantomFewUnknown = 4

// phantomWorstLead counts the game for f.me with every point it cannot
// be sure of given to the opponent (BOT-PG-D8). Its own points are
// those of Benson's unconditional life, judged on its certain stones
// with every other point possibly an opponent stone: a region of
// non-own points (bounded by certain own stones and the edge) is vital
// to a bordering own chain when every point of it that may be empty (all
// but the known opponent stones) is next to that chain (no opponent
// stone there can ever have an eye), or when it holds no
// known opponent stone and fewer than phantomFewUnknown opponent stones
// are of unknown place (none can live there). Chains with fewer than two
// vital regions are dropped, and the regions next to them, until
// nothing changes; the remaining chains and the remaining regions vital
// to all their bordering chains are its area, the rest of the board the
// opponent's. lead is positive when f.me wins that count, komi counted.
func phantomWorstLead(v phantom.View, f *phantomFacts, komi float64) float64 {
	geo := geometryOf(f.size)
	n := geo.points
	// Own chains and non-own regions, numbered from 1.
	var chainOf [engine.MaxPoints]int
	chains, regions := worstChainsAndRegions(v, geo, &chainOf)
	borders, vital := worstVitalRegions(v, f, geo, &chainOf, regions)
	aliveChain, aliveRegion := worstAlive(len(chains), len(regions), borders, vital)
	area := 0
	for c := 1; c <= len(chains); c++ {
		if aliveChain[c] {
			area += len(chains[c-1])
		}
	}
	for r := 1; r <= len(regions); r++ {
		if !aliveRegion[r] || len(borders[r]) == 0 {
			continue
		}
		all := true
		for c := range borders[r] {
			all = all && vital[r][c]
		}
		if all {
			area += len(regions[r-1])
		}
	}
	lead := float64(2*area-n) - komi
	if f.me == engine.White {
		lead = float64(2*area-n) + komi
	}
	return lead
}

// worstChainsAndRegions numbers from 1 the view's own chains (in
// chainOf) and its non-own regions, and lists the points of each.
func worstChainsAndRegions(v phantom.View, geo *geometry, chainOf *[engine.MaxPoints]int) (chains, regions [][]engine.Point) {
	n := geo.points
	own := func(p engine.Point) bool { return v.At(p) == phantom.Own }
	var regionOf [engine.MaxPoints]int
	var stack []engine.Point
	for p := engine.Point(0); int(p) < n; p++ {
		ids, list := &regionOf, &regions
		if own(p) {
			ids, list = chainOf, &chains
		}
		if ids[p] != 0 {
			continue
		}
		id := len(*list) + 1
		var members []engine.Point
		ids[p] = id
		stack = append(stack[:0], p)
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			members = append(members, q)
			for _, r := range geo.neighbors(q) {
				if own(r) == own(p) && ids[r] == 0 {
					ids[r] = id
					stack = append(stack, r)
				}
			}
		}
		*list = append(*list, members)
	}
	return chains, regions
}

// worstVitalRegions tells, of each region, the chains it borders and the
// chains it is vital to: a region that can hold no living opponent group
// now, or whose open points all touch the chain.
func worstVitalRegions(v phantom.View, f *phantomFacts, geo *geometry, chainOf *[engine.MaxPoints]int, regions [][]engine.Point) (borders, vital []map[int]bool) {
	// safe[r]: region r can hold no living opponent group now.
	safe := make([]bool, len(regions)+1)
	for i, members := range regions {
		safe[i+1] = f.place < phantomFewUnknown
		for _, p := range members {
			if s := v.At(p); s == phantom.Opponent || s == phantom.OpponentUncertain {
				safe[i+1] = false
			}
		}
	}
	// vital[r][c]: region r is vital to chain c; borders[r] its chains.
	borders = make([]map[int]bool, len(regions)+1)
	vital = make([]map[int]bool, len(regions)+1)
	for i, members := range regions {
		r := i + 1
		borders[r] = map[int]bool{}
		next := map[int]int{} // chain -> open members next to it
		open := 0             // members that may be empty
		for _, p := range members {
			if v.At(p) == phantom.Opponent {
				continue
			}
			open++
			seen := map[int]bool{}
			for _, q := range geo.neighbors(p) {
				if c := chainOf[q]; c != 0 && !seen[c] {
					seen[c] = true
					borders[r][c] = true
					next[c]++
				}
			}
		}
		vital[r] = map[int]bool{}
		for c, k := range next {
			if safe[r] || k == open {
				vital[r][c] = true
			}
		}
	}
	return borders, vital
}

// worstAlive finds the chains and regions that live (Benson's rule):
// a chain lives with two living regions vital to it, a region while
// every chain it borders lives.
func worstAlive(nChains, nRegions int, borders, vital []map[int]bool) (aliveChain, aliveRegion []bool) {
	aliveChain = make([]bool, nChains+1)
	aliveRegion = make([]bool, nRegions+1)
	for c := range aliveChain {
		aliveChain[c] = c > 0
	}
	for r := range aliveRegion {
		aliveRegion[r] = r > 0
	}
	for changed := true; changed; {
		changed = false
		for c := 1; c <= nChains; c++ {
			if !aliveChain[c] {
				continue
			}
			k := 0
			for r := 1; r <= nRegions; r++ {
				if aliveRegion[r] && vital[r][c] {
					k++
				}
			}
			if k < 2 {
				aliveChain[c], changed = false, true
			}
		}
		for r := 1; r <= nRegions; r++ {
			if !aliveRegion[r] {
				continue
			}
			for c := range borders[r] {
				if !aliveChain[c] {
					aliveRegion[r], changed = false, true
					break
				}
			}
		}
	}
	return aliveChain, aliveRegion
}
