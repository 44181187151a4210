package bot

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/kakure/kakure/engine"
)

// uctSearch is a Monte-Carlo tree search for the Go family (BOT-D3): UCT
// over the light random playouts of [engine.PlayoutBoard], each move of
// the tree starting with a few virtual playouts at a prior win rate that
// says what the move does tactically (capture, escape, atari, self-atari,
// first line in the opening). Its slices are kept between searches so
// that a bot allocates little after its first move. It is not safe for
// concurrent use.
type uctSearch struct {
	// tune holds the search's constants (experiments change them).
	tune     uctTuning
	rng      *rand.Rand
	nodes    []uctNode
	children []uctChild
	path     []uctStep
	root     engine.PlayoutBoard
	work     engine.PlayoutBoard
	// first is the colour that played first at each point in the current
	// playout (RAVE).
	first   [engine.MaxPoints]engine.Color
	tactics tactics
}

// uctNode is a position of the tree: the range of its children in
// uctSearch.children (count -1 until it is expanded) and its visits.
type uctNode struct {
	first  int32
	count  int32
	visits int32
	toMove engine.Color
}

// uctChild is a move from a node, with its statistics from the point of
// view of the player who makes it: n playouts through it with w wins;
// pn virtual playouts with pw wins, its prior; and, in the Bridge Go
// search, an playouts in which that player held its point at the end with
// aw wins (RAVE).
type uctChild struct {
	move   engine.Point
	node   int32
	n, w   float32
	pn, pw float32
	an, aw float32
}

// uctStep is one move of the path from the root: the node, which child.
type uctStep struct {
	node  int32
	child int32
}

// uctInput is what one search starts from.
type uctInput struct {
	board  engine.Board
	toMove engine.Color
	// ko is the simple-ko point of the player to move, or NoPoint.
	ko   engine.Point
	komi float64
	// candidates are the moves considered at the root (engine.Pass may be
	// one); the caller has checked them against the game's full rules.
	candidates []engine.Point
	playouts   int
	deadline   time.Time
}

// moveStat is what a search found out about one root move.
type moveStat struct {
	move    engine.Point
	visits  int
	winRate float64 // for the player to move at the root
}

// The search's constants (BOT-D3): the weight of a move's prior in
// virtual playouts, and the exploration constant of UCB1.
const (
	priorVisits        = 10
	uctExploration     = 0.1
	uctRAVEEquivalence = 1000
)

// uctTuning holds the constants of a search.
type uctTuning struct {
	exploration, priorVisits float64
	// plainPriors gives every move the plain prior, tactics aside.
	plainPriors bool
	// lightPlayouts plays uniform random playouts instead of the
	// tactical policy (engine.PlayoutBoard.PolicyPlayout); noRAVE turns
	// the all-moves-as-first values off; raveEquivalence is the number of
	// playouts at which a move's own value and its RAVE value weigh the
	// same.
	lightPlayouts, noRAVE bool
	raveEquivalence       float64
	// noPatterns leaves the 3×3 patterns out of the priors.
	noPatterns bool
}

// defaultTuning is the tuning of the Go bot (and the board play of Hidden
// Move Go); lightTuning is the search before BOT-D3 had a playout policy
// and RAVE, which the F-Go bot's ranking keeps.
var (
	defaultTuning = uctTuning{exploration: uctExploration, priorVisits: priorVisits, raveEquivalence: uctRAVEEquivalence}
	lightTuning   = uctTuning{exploration: 0.3, priorVisits: priorVisits, lightPlayouts: true, noRAVE: true, noPatterns: true}
)

func newUCTSearch(rng *rand.Rand) *uctSearch { return &uctSearch{rng: rng, tune: defaultTuning} }

// run searches from in and returns the statistics of the root moves, the
// most visited first (ties: the higher win rate, then the lower point).
func (s *uctSearch) run(in uctInput) []moveStat {
	s.nodes = s.nodes[:0]
	s.children = s.children[:0]
	s.root.Reset(in.board, in.toMove, in.ko)
	size := in.board.Size()
	geo := geometryOf(size)
	s.nodes = append(s.nodes, uctNode{first: 0, count: -1, toMove: in.toMove})
	s.expandWith(0, in.candidates, geo, &s.root)
	if len(in.candidates) == 0 {
		return nil
	}
	expandAt := int32(max(2, geo.points/40))
	for i := 0; i < in.playouts; i++ {
		if i&31 == 31 && pastDeadline(in.deadline) {
			break
		}
		s.work.CopyFrom(&s.root)
		s.path = s.path[:0]
		node := int32(0)
		for {
			nd := &s.nodes[node]
			if nd.count < 0 {
				if nd.visits+1 < expandAt {
					break
				}
				s.expand(node, geo, &s.work)
				nd = &s.nodes[node]
			}
			if nd.count == 0 {
				break
			}
			k := s.selectChild(node)
			ch := &s.children[nd.first+k]
			if ch.move == engine.Pass {
				s.work.Pass()
			} else if !s.work.Play(ch.move) {
				// Cannot happen: the child was legal in this very position.
				break
			}
			s.path = append(s.path, uctStep{node: node, child: nd.first + k})
			if ch.node < 0 {
				ch.node = int32(len(s.nodes))
				s.nodes = append(s.nodes, uctNode{count: -1, toMove: s.work.ToMove()})
			}
			node = ch.node
		}
		s.nodes[node].visits++
		if s.tune.lightPlayouts {
			s.work.RandomPlayout(s.rng)
		} else {
			clear(s.first[:geo.points])
			// The tree's moves count as played first too.
			for _, st := range s.path {
				if m := s.children[st.child].move; m != engine.Pass && s.first[m] == engine.Empty {
					s.first[m] = s.nodes[st.node].toMove
				}
			}
			s.work.PolicyPlayoutFirst(s.rng, &s.first)
		}
		r := resultOf(s.work.ScoreArea(in.komi))
		s.backup(r)
		if !s.tune.noRAVE && !s.tune.lightPlayouts {
			s.backupRAVE(r)
		}
	}
	return s.rootStats()
}

// resultOf turns Black's score minus White's into Black's result: 1 for a
// win, 0 for a loss, ½ for a draw.
func resultOf(score float64) float32 {
	switch {
	case score > 0:
		return 1
	case score < 0:
		return 0
	}
	return 0.5
}

// backup adds the playout's result to every step of the path.
func (s *uctSearch) backup(blackResult float32) {
	for _, st := range s.path {
		nd := &s.nodes[st.node]
		nd.visits++
		r := blackResult
		if nd.toMove == engine.White {
			r = 1 - blackResult
		}
		ch := &s.children[st.child]
		ch.n++
		ch.w += r
	}
}

// backupRAVE adds the playout's result to the all-moves-as-first values
// of the path's nodes (BOT-D3): each child of a node on the path whose
// point the player who moves at that node played first, in the tree or
// in the playout, counts the playout as if it had been played first.
// (Counting the points that player held at the end instead, as the Bridge
// Go search does, drew the Go bot into filling its own territory.)
func (s *uctSearch) backupRAVE(blackResult float32) {
	final := &s.first
	for _, st := range s.path {
		nd := &s.nodes[st.node]
		r := blackResult
		if nd.toMove == engine.White {
			r = 1 - blackResult
		}
		kids := s.children[nd.first : nd.first+nd.count]
		for j := range kids {
			if m := kids[j].move; m != engine.Pass && final[m] == nd.toMove {
				kids[j].an++
				kids[j].aw += r
			}
		}
	}
}

// selectChild returns the index, within its node, of the child to follow:
// the highest of its win rate (its prior's virtual playouts counted)
// blended with its all-moves-as-first rate, RAVE's β falling as its own
// playouts grow (raveEquivalence), plus UCB1's exploration term.
func (s *uctSearch) selectChild(node int32) int32 {
	nd := &s.nodes[node]
	kids := s.children[nd.first : nd.first+nd.count]
	logN := math.Log(float64(nd.visits) + 1)
	best, bestValue := int32(0), math.Inf(-1)
	for j := range kids {
		ch := &kids[j]
		n := float64(ch.n)
		q := float64(ch.w+ch.pw) / float64(ch.n+ch.pn) // pn > 0
		if !s.tune.noRAVE && ch.an > 0 {
			an := float64(ch.an)
			qa := float64(ch.aw) / an
			beta := an / (an + n + n*an/s.tune.raveEquivalence)
			q = (1-beta)*q + beta*qa
		}
		v := q + s.tune.exploration*math.Sqrt(logN/(n+1))
		if v > bestValue {
			best, bestValue = int32(j), v
		}
	}
	return best
}

// expand gives the node its children: the legal points of the player to
// move on pb that are not its own eyes (the playout policy's moves).
func (s *uctSearch) expand(node int32, geo *geometry, pb *engine.PlayoutBoard) {
	var moves [engine.MaxPoints]engine.Point
	n := 0
	c := pb.ToMove()
	for p := engine.Point(0); int(p) < geo.points; p++ {
		if pb.At(p) == engine.Empty && !geo.eyeOf(pb.At, p, c) && pb.IsLegal(p) {
			moves[n] = p
			n++
		}
	}
	s.expandWith(node, moves[:n], geo, pb)
}

// expandWith gives the node the children moves, with their priors.
func (s *uctSearch) expandWith(node int32, moves []engine.Point, geo *geometry, pb *engine.PlayoutBoard) {
	first := int32(len(s.children))
	t := &s.tactics
	t.load(pb, geo)
	stones := 0
	for p := 0; p < geo.points; p++ {
		if t.cells[p] != engine.Empty {
			stones++
		}
	}
	opening := stones*4 < geo.points
	c := pb.ToMove()
	pv := s.tune.priorVisits
	for _, m := range moves {
		prior := priorPlain
		switch {
		case m == engine.Pass:
			prior = priorPass
		case !s.tune.plainPriors:
			prior = t.prior(m, c, opening, !s.tune.noPatterns)
		}
		s.children = append(s.children, uctChild{move: m, node: -1, pn: float32(pv), pw: float32(prior * pv)})
	}
	s.nodes[node].first = first
	s.nodes[node].count = int32(len(moves))
}

// rootStats returns the root children's statistics, most visited first.
func (s *uctSearch) rootStats() []moveStat {
	root := s.nodes[0]
	stats := make([]moveStat, 0, root.count)
	for _, ch := range s.children[root.first : root.first+root.count] {
		st := moveStat{move: ch.move, visits: int(ch.n), winRate: 0.5}
		if ch.n > 0 {
			st.winRate = float64(ch.w) / float64(ch.n)
		}
		stats = append(stats, st)
	}
	sortStats(stats)
	return stats
}

// sortStats orders move statistics: most visits first, then the higher
// win rate, then the lower point, so that the order is deterministic.
func sortStats(stats []moveStat) {
	slices.SortStableFunc(stats, func(a, b moveStat) int {
		switch {
		case a.visits != b.visits:
			return b.visits - a.visits
		case a.winRate != b.winRate:
			if a.winRate > b.winRate {
				return -1
			}
			return 1
		}
		return int(a.move) - int(b.move)
	})
}

// ownership plays n random games from b (toMove to play) and returns, for
// every point, the fraction of games in which Black held it at the end (a
// stone or an empty point bordered by Black only), and the same for White.
func ownership(rng *rand.Rand, b engine.Board, toMove engine.Color, n int) (black, white [engine.MaxPoints]float32) {
	var root, work engine.PlayoutBoard
	root.Reset(b, toMove, engine.NoPoint)
	geo := geometryOf(b.Size())
	for i := 0; i < n; i++ {
		work.CopyFrom(&root)
		work.RandomPlayout(rng)
		for p := engine.Point(0); int(p) < geo.points; p++ {
			switch ownerAtEnd(&work, geo, p) {
			case engine.Black:
				black[p]++
			case engine.White:
				white[p]++
			}
		}
	}
	for p := 0; p < geo.points; p++ {
		black[p] /= float32(max(n, 1))
		white[p] /= float32(max(n, 1))
	}
	return black, white
}

// ownerAtEnd returns who holds p at the end of a playout: the colour of a
// stone, the colour around an empty point bordered by one colour only
// (playouts end with single-point eyes), or Empty.
func ownerAtEnd(pb *engine.PlayoutBoard, geo *geometry, p engine.Point) engine.Color {
	if c := pb.At(p); c != engine.Empty {
		return c
	}
	owner := engine.Empty
	for _, q := range geo.neighbors(p) {
		c := pb.At(q)
		switch {
		case c == engine.Empty:
			return engine.Empty
		case owner == engine.Empty:
			owner = c
		case owner != c:
			return engine.Empty
		}
	}
	return owner
}

// deadStones estimates the dead stones of b by ownership over n playouts
// with toMove to play: a stone is dead when its colour held its point in
// fewer than a third of the games. Whole chains are marked: a chain is
// dead when most of its stones are.
func deadStones(rng *rand.Rand, b engine.Board, toMove engine.Color, n int) []engine.Point {
	black, white := ownership(rng, b, toMove, n)
	return deadByOwnership(b, &black, &white)
}

// deadByOwnership marks the dead chains of b from the share of playouts
// in which each colour held each point (deadStones).
func deadByOwnership(b engine.Board, black, white *[engine.MaxPoints]float32) []engine.Point {
	var dead []engine.Point
	var seen [engine.MaxPoints]bool
	for p := engine.Point(0); int(p) < b.Points(); p++ {
		c := b.At(p)
		if c == engine.Empty || seen[p] {
			continue
		}
		stones, _ := b.Chain(p)
		own := 0.0
		for _, q := range stones {
			seen[q] = true
			if c == engine.Black {
				own += float64(black[q])
			} else {
				own += float64(white[q])
			}
		}
		if own/float64(len(stones)) < 1.0/3 {
			dead = append(dead, stones...)
		}
	}
	slices.Sort(dead)
	return dead
}
