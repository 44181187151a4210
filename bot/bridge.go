package bot

import (
	"math"
	"math/rand/v2"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/bridge"
)

// BridgeBot plays Bridge Go (BG-1..BG-5, docs/bots.md BOT-BG-D1..D4) by
// tree search: UCT with RAVE over random games played with the rules
// engine itself ([bridge.Game]), after two exact checks — a move
// that wins at once is played, and when the opponent threatens to win at
// once only moves that stop every such threat are searched. A BridgeBot is
// not safe for concurrent use.
type BridgeBot struct {
	Level    Level
	rng      *rand.Rand
	nodes    []bridgeNode
	children []uctChild
	path     []uctStep
	final    [engine.MaxPoints]engine.Color
}

// bridgeNode is a position of the search tree, as uctNode.
type bridgeNode struct {
	first, count int32
	visits       int32
	toMove       engine.Color
}

// NewBridgeBot returns a Bridge Go bot of the given level whose choices
// depend only on seed and the games it is shown.
func NewBridgeBot(level Level, seed uint64) *BridgeBot {
	return &BridgeBot{Level: level, rng: newRand(seed)}
}

// The RAVE constants of the Bridge Go search: the virtual playouts of a
// move's RAVE prior, and the playouts through a move at which its own
// value and its RAVE value weigh the same.
const (
	bridgeRAVEPrior       = 12
	bridgeRAVEEquivalence = 1500
)

// bridgePlayoutCost is how many Go playouts one Bridge Go playout costs,
// about: the level's budget is divided by it (BOT-D2).
const bridgePlayoutCost = 6

// ChooseMove returns c's move in g, a point or engine.Pass; it is always
// legal for c. With nothing better than a loss after the opponent's pass
// it passes too, for a draw (BG-1); after three moves per point it passes
// always, so that a game between bots ends.
func (b *BridgeBot) ChooseMove(g bridge.Game, c engine.Color) engine.Point {
	p, _ := b.ChooseMoveOrResign(g, c)
	return p
}

// ChooseMoveOrResign is ChooseMove that may also resign (BOT-D6): past the
// opening (a judgeAfterStones-th of the points played), unless the level
// says resign=off, when its best move wins less than resignWinRate of the
// search's playouts. (A Bridge Go game has no count to settle: the bot
// passes early only for the draw of BOT-BG-D3.)
func (b *BridgeBot) ChooseMoveOrResign(g bridge.Game, c engine.Color) (move engine.Point, resign bool) {
	board := g.Board()
	// BOT-BG-D3: pass after three moves per point, so that a game ends.
	if g.Over() || g.MoveNumber() >= 3*board.Points() {
		return engine.Pass, false
	}
	opp := c.Opponent()
	var legal []engine.Point
	for p := engine.Point(0); int(p) < board.Points(); p++ {
		if board.At(p) != engine.Empty {
			continue
		}
		_, res, err := g.Play(c, p)
		if err != nil {
			continue
		}
		if res.Winner == c {
			return p, false // BOT-BG-D1: an immediate win.
		}
		legal = append(legal, p)
	}
	if len(legal) == 0 {
		return engine.Pass, false
	}
	// BOT-BG-D2: the opponent's immediate wins must be stopped.
	candidates := legal
	if len(bridgeWins(g, opp)) > 0 {
		var stops []engine.Point
		for _, p := range legal {
			next, _, _ := g.Play(c, p)
			if len(bridgeWins(next, opp)) == 0 {
				stops = append(stops, p)
			}
		}
		if len(stops) > 0 {
			candidates = stops
		}
	}
	if len(candidates) == 1 {
		return candidates[0], false
	}
	stats := b.search(g, c, candidates)
	best := stats[0]
	if !b.Level.NoResign && g.MoveNumber()*judgeAfterStones >= board.Points() && best.visits >= resignMinVisits && best.winRate < resignWinRate {
		return best.move, true
	}
	// BOT-BG-D3: after the opponent's pass, a pass is a sure draw.
	if g.Passes() > 0 && best.winRate < 0.5 {
		return engine.Pass, false
	}
	return best.move, false
}

// bridgeWins returns the points where c's move would win g at once.
func bridgeWins(g bridge.Game, c engine.Color) []engine.Point {
	board := g.Board()
	var wins []engine.Point
	for p := engine.Point(0); int(p) < board.Points(); p++ {
		if board.At(p) != engine.Empty {
			continue
		}
		if _, res, err := g.Play(c, p); err == nil && res.Winner == c {
			wins = append(wins, p)
		}
	}
	return wins
}

// search runs UCT with RAVE from g, c to move, over the root moves cands,
// and returns their statistics, the most visited first (BOT-BG-D4).
func (b *BridgeBot) search(g bridge.Game, c engine.Color, cands []engine.Point) []moveStat {
	b.nodes = b.nodes[:0]
	b.children = b.children[:0]
	board := g.Board()
	geo := geometryOf(board.Size())
	b.nodes = append(b.nodes, bridgeNode{count: -1, toMove: c})
	b.expandWith(0, cands)
	n := max(16, b.Level.PlayoutsFor(board.Size())/bridgePlayoutCost)
	deadline := b.Level.deadline()
	moveCap := 2 * geo.points
	var empties [engine.MaxPoints]engine.Point
	for i := 0; i < n; i++ {
		if i&15 == 15 && pastDeadline(deadline) {
			break
		}
		work := g
		b.path = b.path[:0]
		node := int32(0)
		for !work.Over() {
			nd := &b.nodes[node]
			if nd.count < 0 {
				if nd.visits < 2 {
					break
				}
				b.expand(node, work)
				nd = &b.nodes[node]
			}
			if nd.count == 0 {
				break
			}
			k := b.selectChild(node)
			if k < 0 {
				break
			}
			ch := &b.children[nd.first+k]
			next, _, err := work.Play(nd.toMove, ch.move)
			if err != nil {
				// Superko: this move is never legal here.
				ch.n = -1
				continue
			}
			work = next
			b.path = append(b.path, uctStep{node: node, child: nd.first + k})
			if ch.node < 0 {
				ch.node = int32(len(b.nodes))
				b.nodes = append(b.nodes, bridgeNode{count: -1, toMove: work.ToMove()})
			}
			node = ch.node
		}
		b.nodes[node].visits++
		// The random game: uniform over the empty points, to the end or
		// the move cap (a draw).
		for moves := 0; !work.Over() && moves < moveCap; moves++ {
			wb := work.Board()
			ne := 0
			for p := engine.Point(0); int(p) < geo.points; p++ {
				if wb.At(p) == engine.Empty {
					empties[ne] = p
					ne++
				}
			}
			played := false
			for ne > 0 {
				k := b.rng.IntN(ne)
				next, _, err := work.Play(work.ToMove(), empties[k])
				if err == nil {
					work, played = next, true
					break
				}
				empties[k] = empties[ne-1]
				ne--
			}
			if !played {
				work, _, _ = work.Play(work.ToMove(), engine.Pass)
			}
		}
		blackResult := float32(0.5)
		switch work.Winner() {
		case engine.Black:
			blackResult = 1
		case engine.White:
			blackResult = 0
		}
		fb := work.Board()
		for p := 0; p < geo.points; p++ {
			b.final[p] = fb.At(engine.Point(p))
		}
		b.backup(blackResult)
	}
	stats := make([]moveStat, 0, len(cands))
	root := b.nodes[0]
	for _, ch := range b.children[root.first : root.first+root.count] {
		st := moveStat{move: ch.move, visits: int(max(ch.n, 0)), winRate: 0.5}
		if ch.n > 0 {
			st.winRate = float64(ch.w) / float64(ch.n)
		}
		stats = append(stats, st)
	}
	sortStats(stats)
	return stats
}

// expand gives the node every empty point of work as a child; the ones
// superko forbids are found out when first tried.
func (b *BridgeBot) expand(node int32, work bridge.Game) {
	board := work.Board()
	var moves []engine.Point
	for p := engine.Point(0); int(p) < board.Points(); p++ {
		if board.At(p) == engine.Empty {
			moves = append(moves, p)
		}
	}
	b.expandWith(node, moves)
}

func (b *BridgeBot) expandWith(node int32, moves []engine.Point) {
	b.nodes[node].first = int32(len(b.children))
	b.nodes[node].count = int32(len(moves))
	for _, m := range moves {
		b.children = append(b.children, uctChild{move: m, node: -1, an: bridgeRAVEPrior, aw: 0.5 * bridgeRAVEPrior})
	}
}

// selectChild returns the child to follow, or -1 when every child is
// illegal.
func (b *BridgeBot) selectChild(node int32) int32 {
	nd := &b.nodes[node]
	kids := b.children[nd.first : nd.first+nd.count]
	logN := math.Log(float64(nd.visits) + 1)
	best, bestValue := int32(-1), math.Inf(-1)
	for j := range kids {
		ch := &kids[j]
		if ch.n < 0 {
			continue
		}
		n, an := float64(ch.n), float64(ch.an)
		q := 0.5
		if n > 0 {
			q = float64(ch.w) / n
		}
		qa := float64(ch.aw) / an
		beta := an / (an + n + n*an/bridgeRAVEEquivalence)
		v := (1-beta)*q + beta*qa + 0.1*math.Sqrt(logN/(n+1))
		if v > bestValue {
			best, bestValue = int32(j), v
		}
	}
	return best
}

// backup is uctSearch.backup for the Bridge Go tree.
func (b *BridgeBot) backup(blackResult float32) {
	for _, st := range b.path {
		nd := &b.nodes[st.node]
		nd.visits++
		r := blackResult
		if nd.toMove == engine.White {
			r = 1 - blackResult
		}
		ch := &b.children[st.child]
		ch.n++
		ch.w += r
		kids := b.children[nd.first : nd.first+nd.count]
		for j := range kids {
			if m := kids[j].move; b.final[m] == nd.toMove && kids[j].n >= 0 {
				kids[j].an++
				kids[j].aw += r
			}
		}
	}
}
