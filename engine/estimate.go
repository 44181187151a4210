package engine

// EstimateScore estimates the count of a game in progress on board b
// (UI-D35 in docs/ui.md): every stone counts for its colour as it stands
// (no stone is guessed dead), and every empty point for the colour whose
// nearest stone, in steps along the lines, is strictly nearer than the
// other colour's; a point as near to both, or on an empty board, counts
// for nobody. Komi goes to White. It is a quick guide for a player who
// asks, the way a board's influence looks, not a count any rule uses:
// the game's result still comes from the agreed dead stones and AreaScore
// (GO-4, GO-5).
func EstimateScore(b Board, komi float64) Score {
	n := b.Points()
	var dist [2][MaxPoints]int
	for c, colour := range []Color{Black, White} {
		d := &dist[c]
		queue := make([]Point, 0, n)
		for i := 0; i < n; i++ {
			d[i] = -1
			if b.At(Point(i)) == colour {
				d[i] = 0
				queue = append(queue, Point(i))
			}
		}
		for j := 0; j < len(queue); j++ {
			p := queue[j]
			ns, k := b.Neighbors(p)
			for _, q := range ns[:k] {
				if d[q] < 0 && b.At(q) == Empty {
					d[q] = d[p] + 1
					queue = append(queue, q)
				}
			}
		}
	}
	s := Score{Komi: komi}
	for i := 0; i < n; i++ {
		p := Point(i)
		switch b.At(p) {
		case Black:
			s.BlackStones++
			s.Owner[p] = Black
		case White:
			s.WhiteStones++
			s.Owner[p] = White
		default:
			db, dw := dist[0][p], dist[1][p]
			switch {
			case db >= 0 && (dw < 0 || db < dw):
				s.BlackTerritory++
				s.Owner[p] = Black
			case dw >= 0 && (db < 0 || dw < db):
				s.WhiteTerritory++
				s.Owner[p] = White
			}
		}
	}
	s.Black = float64(s.BlackStones + s.BlackTerritory)
	s.White = float64(s.WhiteStones+s.WhiteTerritory) + komi
	return s
}
