package engine

import "fmt"

// MaxHandicap returns the largest handicap a board of side size takes
// with fixed placement (GTP's fixed_handicap): 9 on odd boards of 9×9 and
// more, 4 on 7×7 and on even boards, none below 7×7 (decision HC-D1,
// docs/rules/handicap.md).
func MaxHandicap(size int) int {
	switch {
	case size < 7:
		return 0
	case size == 7 || size%2 == 0:
		return 4
	default:
		return 9
	}
}

// HandicapPoints returns the fixed places of n handicap stones on a board
// of side size, as GTP's fixed_handicap places them: the corner star
// points on the third line (fourth from 13×13), then the sides, then the
// centre for an odd count. It refuses n outside 2..MaxHandicap(size).
func HandicapPoints(size, n int) ([]Point, error) {
	if n < 2 || n > MaxHandicap(size) {
		return nil, fmt.Errorf("%w: handicap %d on %dx%d (allowed 2 to %d)", ErrBadOptions, n, size, size, MaxHandicap(size))
	}
	lo := 2
	if size >= 13 {
		lo = 3
	}
	hi, mid := size-1-lo, size/2
	at := func(x, y int) Point { return PointAt(size, x, y) }
	// Points as GTP lists them for 19×19: D4 Q16 D16 Q4, then D10 Q10,
	// K4 K16, and K10 for an odd count.
	corners := []Point{at(lo, lo), at(hi, hi), at(lo, hi), at(hi, lo)}
	sides := []Point{at(lo, mid), at(hi, mid), at(mid, lo), at(mid, hi)}
	centre := at(mid, mid)
	var ps []Point
	switch {
	case n <= 4:
		ps = corners[:n]
	case n == 5:
		ps = append(corners, centre)
	case n == 6:
		ps = append(corners, sides[:2]...)
	case n == 7:
		ps = append(append(corners, sides[:2]...), centre)
	case n == 8:
		ps = append(corners, sides...)
	default:
		ps = append(append(corners, sides...), centre)
	}
	return append([]Point(nil), ps...), nil
}
