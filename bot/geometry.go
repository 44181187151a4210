package bot

import "github.com/kakure/kakure/engine"

// geometry holds the neighbours and diagonal points of every point of a
// board of one side, so that the bots' own board code needs no bounds
// checks of its own. It is computed once per side and only read after.
type geometry struct {
	size   int
	points int
	// adj lists the orthogonal neighbours of each point, nAdj how many.
	adj  [engine.MaxPoints][4]engine.Point
	nAdj [engine.MaxPoints]uint8
	// diag lists the diagonal neighbours of each point, nDiag how many.
	diag  [engine.MaxPoints][4]engine.Point
	nDiag [engine.MaxPoints]uint8
	// line is the distance of each point to the nearest edge, 0 on the edge.
	line [engine.MaxPoints]uint8
}

var geometries = func() (gs [engine.MaxSize + 1]*geometry) {
	for size := engine.MinSize; size <= engine.MaxSize; size++ {
		g := &geometry{size: size, points: size * size}
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				p := engine.PointAt(size, x, y)
				for _, d := range [4][2]int{{0, -1}, {-1, 0}, {1, 0}, {0, 1}} {
					if nx, ny := x+d[0], y+d[1]; nx >= 0 && ny >= 0 && nx < size && ny < size {
						g.adj[p][g.nAdj[p]] = engine.PointAt(size, nx, ny)
						g.nAdj[p]++
					}
				}
				for _, d := range [4][2]int{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
					if nx, ny := x+d[0], y+d[1]; nx >= 0 && ny >= 0 && nx < size && ny < size {
						g.diag[p][g.nDiag[p]] = engine.PointAt(size, nx, ny)
						g.nDiag[p]++
					}
				}
				g.line[p] = uint8(min(x, y, size-1-x, size-1-y))
			}
		}
		gs[size] = g
	}
	return gs
}()

// geometryOf returns the geometry of a board of side size (5–19).
func geometryOf(size int) *geometry { return geometries[size] }

// neighbors returns the orthogonal neighbours of p.
func (g *geometry) neighbors(p engine.Point) []engine.Point { return g.adj[p][:g.nAdj[p]] }

// surrounded reports whether every neighbour of p is c's: a point no bot
// plays for c at the root of its search (BOT-D5), even where the playout
// policy's eye test (eyeOf) would allow it because the eye is false.
func (g *geometry) surrounded(at func(engine.Point) engine.Color, p engine.Point, c engine.Color) bool {
	for _, q := range g.neighbors(p) {
		if at(q) != c {
			return false
		}
	}
	return true
}

// eyeOf reports whether the empty point p is an eye of c as the playout
// policy sees one (PO-D2): every neighbour is c's, and the opponent holds
// at most one diagonal point, none on the edge. at gives the colour of a
// point.
func (g *geometry) eyeOf(at func(engine.Point) engine.Color, p engine.Point, c engine.Color) bool {
	for _, q := range g.neighbors(p) {
		if at(q) != c {
			return false
		}
	}
	opp := c.Opponent()
	taken := 0
	for _, q := range g.diag[p][:g.nDiag[p]] {
		if at(q) == opp {
			taken++
		}
	}
	if g.nDiag[p] < 4 {
		return taken == 0
	}
	return taken < 2
}
