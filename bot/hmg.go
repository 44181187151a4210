package bot

import (
	"math/rand/v2"
	"slices"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/hmg"
)

// HMGBot plays Hidden Move Go (HMG-1..HMG-8, docs/bots.md BOT-HMG-D1..D6).
// Its board play is the plain Go bot's search on the public board; its
// cards it commits to good opening points and plays with purpose: to undo
// the opponent's last stone, to capture, to save a chain in atari, instead
// of a regular move on the same point, and before it passes, so that no
// card is left to give the opponent a point.
//
// It reads, of the game it is given, only the public board, its own cards
// and the number of the opponent's unused cards: a peer's game, in which
// the opponent's points are unknown, is all it needs, and a referee's game
// gives the same choice (tested). An HMGBot is not safe for concurrent
// use.
type HMGBot struct {
	Level Level
	rng   *rand.Rand
	board *GoBot
	// hopeless is set by the last board search that judged the game
	// lost (BOT-D6), for ChooseActionOrResign.
	hopeless bool
}

// NewHMGBot returns a Hidden Move Go bot of the given level whose choices
// depend only on seed and the games it is shown.
func NewHMGBot(level Level, seed uint64) *HMGBot {
	gb := NewGoBot(level, seed)
	return &HMGBot{Level: level, rng: gb.rng, board: gb}
}

// ChooseCards returns the points of the bot's n hidden moves on a board
// of side size (HMG-1): distinct points drawn among the 3-3, 3-4 and 4-4
// points of the corners and the centre, where an opponent is likely to
// play early, so that a card may undo that move (BOT-HMG-D1). On small
// boards and for many cards, other points near the centre fill in.
func (b *HMGBot) ChooseCards(size, n int) []engine.Point {
	var good []engine.Point
	seen := map[engine.Point]bool{}
	add := func(x, y int) {
		if x < 0 || y < 0 || x >= size || y >= size {
			return
		}
		if p := engine.PointAt(size, x, y); !seen[p] {
			seen[p] = true
			good = append(good, p)
		}
	}
	if size >= 9 {
		for _, xy := range [][2]int{{2, 2}, {2, 3}, {3, 2}, {3, 3}} {
			for _, m := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
				x, y := xy[0], xy[1]
				if m[0] {
					x = size - 1 - x
				}
				if m[1] {
					y = size - 1 - y
				}
				add(x, y)
			}
		}
	}
	add(size/2, size/2)
	b.rng.Shuffle(len(good), func(i, j int) { good[i], good[j] = good[j], good[i] })
	// More cards than good points: the points nearest the centre.
	if n > len(good) {
		var rest []engine.Point
		for p := engine.Point(0); int(p) < size*size; p++ {
			if !seen[p] {
				rest = append(rest, p)
			}
		}
		c := size / 2
		dist := func(p engine.Point) int {
			x, y := p.XY(size)
			return max(abs(x-c), abs(y-c))
		}
		slices.SortStableFunc(rest, func(p, q engine.Point) int { return dist(p) - dist(q) })
		good = append(good, rest...)
	}
	return slices.Clone(good[:min(n, len(good))])
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ChooseAction returns c's next action in g, c being to move: a reveal
// (the turn goes on unless it undid a move) or the regular move that ends
// the turn. It is always one of g.LegalActions(c).
func (b *HMGBot) ChooseAction(g hmg.Game, c engine.Color) hmg.Action {
	actions := g.LegalActions(c)
	if len(actions) == 0 {
		return hmg.Action{Color: c, Point: engine.Pass}
	}
	board := g.Board()
	opp := c.Opponent()
	var reveals []hmg.Action
	for _, a := range actions {
		if a.Reveal {
			reveals = append(reveals, a)
		}
	}
	// BOT-HMG-D2: undo the opponent's last stone whenever a card allows.
	if last := g.LastStone(opp); last != engine.NoPoint {
		for _, a := range reveals {
			if a.Point == last {
				return a
			}
		}
	}
	// BOT-HMG-D3: capture with a card, the most stones first; or save one
	// of our chains in atari whose liberty a card holds.
	bestCapture, captured := -1, 0
	for i, a := range reveals {
		next, res := board.Place(a.Point, c)
		if n := len(res.Captured); n > captured {
			bestCapture, captured = i, n
		}
		if bestCapture < 0 && savesChain(board, next, a.Point, c) {
			bestCapture = i
		}
	}
	if bestCapture >= 0 {
		return reveals[bestCapture]
	}
	p := b.searchPlay(g, c)
	if p != engine.Pass {
		// BOT-HMG-D4: a card on the chosen point plays the stone for free.
		for _, a := range reveals {
			if a.Point == p {
				return a
			}
		}
		return hmg.Action{Color: c, Point: p}
	}
	// BOT-HMG-D5: before passing, play the cards that cost nothing: not
	// into an own eye, not into atari.
	for _, a := range reveals {
		if geometryOf(board.Size()).surrounded(board.At, a.Point, c) {
			continue
		}
		next, res := board.Place(a.Point, c)
		if len(res.Captured) > 0 || next.Liberties(a.Point) >= 2 {
			return a
		}
	}
	return hmg.Action{Color: c, Point: b.passOrPlay(g, c)}
}

// ChooseActionOrResign is ChooseAction that may also resign (resign true)
// when its board search judges the game lost (BOT-D6), the opponent's
// unused cards counted as points (HMG-7).
func (b *HMGBot) ChooseActionOrResign(g hmg.Game, c engine.Color) (hmg.Action, bool) {
	b.hopeless = false
	a := b.ChooseAction(g, c)
	return a, b.hopeless
}

// ChoosePlay returns c's regular move in g, c being to move, without any
// reveal: the board search's move, or the pass. It is always legal
// (CheckPlay). GTP's genmove uses it (GTP-HMG-D3).
func (b *HMGBot) ChoosePlay(g hmg.Game, c engine.Color) engine.Point {
	if p := b.searchPlay(g, c); p != engine.Pass {
		return p
	}
	return b.passOrPlay(g, c)
}

// searchPlay returns the board search's regular move for c, or Pass, with
// the cards in the count (HMG-7): each unused card is a point for the
// opponent.
func (b *HMGBot) searchPlay(g hmg.Game, c engine.Color) engine.Point {
	komi := g.Options().Komi + float64(g.UnusedCards(engine.Black)) - float64(g.UnusedCards(engine.White))
	legal := g.LegalPoints(c)
	if len(legal) == 0 {
		return engine.Pass
	}
	opponentPassed := g.Passes() > 0 && g.RevealsThisTurn() == 0
	p, resign := b.board.decide(g.Board(), c, komi, legal, opponentPassed)
	b.hopeless = resign // the move is still the best one, for GTP
	return p
}

// passOrPlay returns Pass when c may pass; after reveals into a repeated
// position the turn must end with a stone (HMG-6), a random legal one.
func (b *HMGBot) passOrPlay(g hmg.Game, c engine.Color) engine.Point {
	if !g.CanPass(c) {
		if legal := g.LegalPoints(c); len(legal) > 0 {
			return legal[b.rng.IntN(len(legal))]
		}
	}
	return engine.Pass
}

// savesChain reports whether the stone of c at p, placed on before to give
// after, turns a chain of c that was in atari into one with two liberties
// or more.
func savesChain(before, after engine.Board, p engine.Point, c engine.Color) bool {
	if after.At(p) != c {
		return false
	}
	ns, n := before.Neighbors(p)
	inAtari := false
	for _, q := range ns[:n] {
		if before.At(q) == c && before.Liberties(q) == 1 {
			inAtari = true
		}
	}
	return inAtari && after.Liberties(p) >= 2
}
