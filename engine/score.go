package engine

import (
	"fmt"
	"strconv"
)

// Marking is a set of stones marked dead at the end of play (GO-4). It is a
// value; Toggle returns a new one.
type Marking struct {
	dead [MaxPoints]bool
}

// IsDead reports whether the stone at p is marked dead.
func (m *Marking) IsDead(p Point) bool { return p >= 0 && int(p) < MaxPoints && m.dead[p] }

// Toggle marks the whole chain at p dead, or alive again if it was marked.
// An empty point changes nothing.
func (m Marking) Toggle(b Board, p Point) Marking {
	if !b.OnBoard(p) || b.At(p) == Empty {
		return m
	}
	stones, _ := b.Chain(p)
	mark := !m.dead[p]
	for _, s := range stones {
		m.dead[s] = mark
	}
	return m
}

// Dead returns the marked points of b in increasing order.
func (m *Marking) Dead(b Board) []Point {
	var ps []Point
	for i := 0; i < b.Points(); i++ {
		if m.dead[i] && b.At(Point(i)) != Empty {
			ps = append(ps, Point(i))
		}
	}
	return ps
}

// MarkingOf returns the marking that holds the chains of the given points.
func MarkingOf(b Board, dead []Point) Marking {
	var m Marking
	for _, p := range dead {
		if b.OnBoard(p) && b.At(p) != Empty && !m.dead[p] {
			m = m.Toggle(b, p)
		}
	}
	return m
}

// Score is an area count (GO-5).
type Score struct {
	// Black and White are stones plus territory; White includes Komi.
	Black, White float64
	// Komi is the komi that was added to White.
	Komi float64
	// Territory of each colour, and the stones left after removing the dead.
	BlackTerritory, WhiteTerritory int
	BlackStones, WhiteStones       int
	// Owner tells, per point, who counts it (Empty: nobody, dame).
	Owner [MaxPoints]Color
}

// AreaScore counts b by area after removing the stones marked dead: stones
// on the board plus empty regions bordered only by one colour, plus komi for
// White (GO-5).
func AreaScore(b Board, dead Marking, komi float64) Score {
	for i := 0; i < b.Points(); i++ {
		if dead.dead[i] {
			b.cells[i] = Empty
		}
	}
	s := Score{Komi: komi}
	var seen [MaxPoints]bool
	for i := 0; i < b.Points(); i++ {
		p := Point(i)
		switch b.cells[p] {
		case Black:
			s.BlackStones++
			s.Owner[p] = Black
		case White:
			s.WhiteStones++
			s.Owner[p] = White
		case Empty:
			if seen[p] {
				continue
			}
			region := []Point{p}
			seen[p] = true
			var touches [3]bool
			for j := 0; j < len(region); j++ {
				ns, n := b.Neighbors(region[j])
				for _, q := range ns[:n] {
					c := b.cells[q]
					if c == Empty {
						if !seen[q] {
							seen[q] = true
							region = append(region, q)
						}
					} else {
						touches[c] = true
					}
				}
			}
			owner := Empty
			if touches[Black] && !touches[White] {
				owner = Black
				s.BlackTerritory += len(region)
			} else if touches[White] && !touches[Black] {
				owner = White
				s.WhiteTerritory += len(region)
			}
			for _, q := range region {
				s.Owner[q] = owner
			}
		}
	}
	s.Black = float64(s.BlackStones + s.BlackTerritory)
	s.White = float64(s.WhiteStones+s.WhiteTerritory) + komi
	return s
}

// Result returns the game result the score gives.
func (s Score) Result() Result {
	switch {
	case s.Black > s.White:
		return Result{Winner: Black, Margin: s.Black - s.White, By: ByScore}
	case s.White > s.Black:
		return Result{Winner: White, Margin: s.White - s.Black, By: ByScore}
	}
	return Result{By: ByScore}
}

// ResultReason says how a game ended.
type ResultReason string

// How a game can end.
const (
	ByScore       ResultReason = "score"
	ByResignation ResultReason = "resign"
	ByForfeit     ResultReason = "forfeit"
	// ByTime is a loss on time: the loser's clock ran out (CLK-D9).
	ByTime ResultReason = "time"
	// ByWin is a win on the board that is not a count: a gomoku double
	// five, a Bridge Go bridge.
	ByWin ResultReason = "win"
	// ByDraw is a draw that is not a count: Bridge Go passes, gomoku GM-7.
	ByDraw ResultReason = "draw"
	// ByDispute is a game ended by a report that proved nothing (T-14):
	// it has no winner, and it is not a draw. SGF writes it "Void".
	ByDispute ResultReason = "disputed"
)

// Result is the outcome of a game. Winner Empty means a draw.
type Result struct {
	Winner Color
	Margin float64
	By     ResultReason
}

// String writes the result as SGF's RE property does: "B+3.5", "W+R",
// "B+F" (forfeit), "B+T" (on time), "B+" for a win without a count, "0" for a draw,
// "Void" for a disputed game (no result).
func (r Result) String() string {
	if r.By == ByDispute {
		return "Void"
	}
	if r.Winner == Empty {
		return "0"
	}
	prefix := "B+"
	if r.Winner == White {
		prefix = "W+"
	}
	switch r.By {
	case ByResignation:
		return prefix + "R"
	case ByForfeit:
		return prefix + "F"
	case ByTime:
		return prefix + "T"
	case ByScore:
		return prefix + strconv.FormatFloat(r.Margin, 'f', -1, 64)
	}
	return prefix
}

// ParseResult reads what Result.String writes.
func ParseResult(s string) (Result, error) {
	if s == "0" || s == "Draw" || s == "D" {
		return Result{By: ByDraw}, nil
	}
	if s == "Void" {
		return Result{By: ByDispute}, nil
	}
	if len(s) < 2 || s[1] != '+' || (s[0] != 'B' && s[0] != 'W') {
		return Result{}, fmt.Errorf("engine: bad result %q", s)
	}
	r := Result{Winner: Black}
	if s[0] == 'W' {
		r.Winner = White
	}
	switch rest := s[2:]; rest {
	case "R", "Resign":
		r.By = ByResignation
	case "F", "Forfeit":
		r.By = ByForfeit
	case "T", "Time":
		r.By = ByTime
	case "":
		r.By = ByWin
	default:
		m, err := strconv.ParseFloat(rest, 64)
		if err != nil {
			return Result{}, fmt.Errorf("engine: bad result %q", s)
		}
		r.Margin, r.By = m, ByScore
	}
	return r, nil
}
