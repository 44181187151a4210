package bot

import (
	"math/rand/v2"

	"github.com/kakure/kakure/engine"
)

// settledLead counts board as it stands, dead stones removed, and tells
// whether it is settled (BOT-D6): every empty region borders stones of
// one colour only (no neutral point, no contact left to play out) and
// every living chain has two liberties or more on the board as it stands. lead is c's area minus the
// opponent's, komi counted (positive: c wins).
func settledLead(board engine.Board, dead []engine.Point, c engine.Color, komi float64) (lead float64, settled bool) {
	geo := geometryOf(board.Size())
	var cells [engine.MaxPoints]engine.Color
	for p := engine.Point(0); int(p) < geo.points; p++ {
		cells[p] = board.At(p)
	}
	for _, p := range dead {
		cells[p] = engine.Empty
	}
	at := func(p engine.Point) engine.Color { return cells[p] }
	var area [3]float64 // by colour
	var seen [engine.MaxPoints]bool
	var stack []engine.Point
	settled = true
	for p := engine.Point(0); int(p) < geo.points; p++ {
		if cells[p] != engine.Empty {
			area[cells[p]]++
			continue
		}
		if seen[p] {
			continue
		}
		// Flood the empty region of p and note the colours around it.
		size, borders := 0, [3]bool{}
		stack = append(stack[:0], p)
		seen[p] = true
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			for _, r := range geo.neighbors(q) {
				switch col := at(r); col {
				case engine.Empty:
					if !seen[r] {
						seen[r] = true
						stack = append(stack, r)
					}
				default:
					borders[col] = true
				}
			}
		}
		switch {
		case borders[engine.Black] && borders[engine.White]:
			settled = false
		case borders[engine.Black]:
			area[engine.Black] += float64(size)
		case borders[engine.White]:
			area[engine.White] += float64(size)
		}
	}
	// Every chain that lives must have two liberties on the board as it
	// stands, the dead stones still on it: an invader next to a chain is
	// not left alone when it takes the chain's last liberties.
	var chainSeen [engine.MaxPoints]bool
	for p := engine.Point(0); int(p) < geo.points && settled; p++ {
		col := cells[p]
		if col == engine.Empty || chainSeen[p] {
			continue
		}
		libs := map[engine.Point]bool{}
		stack = append(stack[:0], p)
		chainSeen[p] = true
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, r := range geo.neighbors(q) {
				switch {
				case board.At(r) == engine.Empty:
					libs[r] = true
				case cells[r] == col && !chainSeen[r]:
					chainSeen[r] = true
					stack = append(stack, r)
				}
			}
		}
		if len(libs) < 2 {
			settled = false
		}
	}
	lead = area[engine.Black] - area[engine.White] - komi
	if c == engine.White {
		lead = -lead
	}
	return lead, settled
}

// settledJudgement is what a bot makes of a settled position (BOT-D6):
// pass when it wins by passLeadMargin points or more, resign when it loses
// by resignLeadMargin or more.
type settledJudgement int

const (
	judgeNothing settledJudgement = iota
	judgePass
	judgeResign
)

// The margins of BOT-D6's count of a settled board, in points.
const (
	passLeadMargin   = 2
	resignLeadMargin = 5
)

// judgeSettled judges board for c with dead stones estimated by playouts
// (deadStones). Besides settledLead's rule, the point of every stone must
// be held by one colour in at least settledOwnership of the playouts, so
// that a weak group the playouts sometimes kill is not taken for dead (or
// alive) while it can still live (or die). Empty points inside a region
// are not asked as much: random playouts invade a large territory that no
// player would, and the bot answers an invasion at its next turn.
func judgeSettled(rng *rand.Rand, board engine.Board, c engine.Color, komi float64, playouts int) settledJudgement {
	black, white := ownership(rng, board, c, playouts)
	for p := engine.Point(0); int(p) < board.Points(); p++ {
		if board.At(p) != engine.Empty && max(black[p], white[p]) < settledOwnership {
			return judgeNothing
		}
	}
	dead := deadByOwnership(board, &black, &white)
	lead, settled := settledLead(board, dead, c, komi)
	switch {
	case !settled:
		return judgeNothing
	case lead >= passLeadMargin:
		return judgePass
	case lead <= -resignLeadMargin:
		return judgeResign
	}
	return judgeNothing
}

// settledOwnership is the share of playouts in which one colour must hold
// each point of a settled board (BOT-D6).
const settledOwnership = 0.7
