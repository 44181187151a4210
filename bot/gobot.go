package bot

import (
	"math/rand/v2"

	"github.com/kakure/kakure/engine"
)

// newRand returns the bots' generator for a seed (BOT-D1).
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x626f7473)) }

// GoBot plays plain Go: UCT with RAVE over light random playouts
// (BOT-D3). It reads only the public game. It is also the board player of
// the Hidden Move Go bot. A GoBot is not safe for concurrent use.
type GoBot struct {
	Level  Level
	rng    *rand.Rand
	search *uctSearch
}

// NewGoBot returns a plain Go bot of the given level whose choices depend
// only on seed and the games it is shown.
func NewGoBot(level Level, seed uint64) *GoBot {
	rng := newRand(seed)
	return &GoBot{Level: level, rng: rng, search: newUCTSearch(rng)}
}

// ChooseMove returns c's move in g, a point or engine.Pass; it is always
// legal for c (GTP lets a controller ask for either colour, so c need not
// be the player to move).
func (b *GoBot) ChooseMove(g engine.GoGame, c engine.Color) engine.Point {
	board, legal, opponentPassed := goPosition(g, c)
	return b.chooseOnBoard(board, c, g.Options().Komi, legal, opponentPassed)
}

// goPosition returns g's board, the points where c may play in g (the
// full rules, superko included) and whether the opponent has just passed
// with c to move.
func goPosition(g engine.GoGame, c engine.Color) (board engine.Board, legal []engine.Point, opponentPassed bool) {
	board = g.Board()
	for p := engine.Point(0); int(p) < board.Points(); p++ {
		if board.At(p) == engine.Empty && g.Check(c, p) == nil {
			legal = append(legal, p)
		}
	}
	return board, legal, g.LastMove() == engine.Pass && g.ToMove() == c
}

// MarkDead returns the stones of g's board the bot takes as dead at the
// end of play (GO-4), estimated from who holds each point at the end of
// random games (BOT-D4).
func (b *GoBot) MarkDead(board engine.Board, toMove engine.Color) []engine.Point {
	return deadStones(b.rng, board, toMove, deadPlayouts(board.Size()))
}

// deadPlayouts is the number of playouts of a dead-stone estimate.
func deadPlayouts(size int) int { return max(100, 400*81/(size*size)) }

// chooseOnBoard picks c's move on board among legal (the points the full
// rules allow, superko included); see decide. It never resigns.
func (b *GoBot) chooseOnBoard(board engine.Board, c engine.Color, komi float64, legal []engine.Point, opponentPassed bool) engine.Point {
	p, _ := b.decide(board, c, komi, legal, opponentPassed)
	return p
}

// ChooseMoveOrResign is ChooseMove that may also resign a hopeless game
// (BOT-D6): resign true means the bot resigns rather than play.
func (b *GoBot) ChooseMoveOrResign(g engine.GoGame, c engine.Color) (engine.Point, bool) {
	board, legal, opponentPassed := goPosition(g, c)
	return b.decide(board, c, g.Options().Komi, legal, opponentPassed)
}

// decide picks c's move with the search, or passes (BOT-D5, BOT-D6):
// when nothing but own eyes is left; when the opponent has just passed
// and c wins the position as it stands, dead stones estimated; when the
// search finds the pass best; and, unless the level says pass=late, past
// the opening when the board is settled and c wins it by passLeadMargin
// (settledLead), or when the pass keeps a win rate of passWinRate or more
// within passMargin of the best move (no move changes the result).
// resign is true, unless the level says resign=off, past the opening when
// the board is settled and c loses it by resignLeadMargin, or when the
// best move wins less than resignWinRate of the search's playouts; move
// is then the best move, for the callers that do not resign.
func (b *GoBot) decide(board engine.Board, c engine.Color, komi float64, legal []engine.Point, opponentPassed bool) (move engine.Point, resign bool) {
	geo := geometryOf(board.Size())
	var candidates []engine.Point
	for _, p := range legal {
		if !geo.surrounded(board.At, p, c) {
			candidates = append(candidates, p)
		}
	}
	if len(candidates) == 0 {
		return engine.Pass, false
	}
	if opponentPassed && b.winsAsItStands(board, c, komi) {
		return engine.Pass, false
	}
	stones := 0
	for p := engine.Point(0); int(p) < geo.points; p++ {
		if board.At(p) != engine.Empty {
			stones++
		}
	}
	pastOpening := stones*judgeAfterStones >= geo.points
	earlyPass := !b.Level.NoEarlyPass && pastOpening
	if opponentPassed || earlyPass || len(candidates)*4 <= geo.points {
		candidates = append(candidates, engine.Pass)
	}
	judge := judgeNothing
	if pastOpening && (earlyPass || !b.Level.NoResign) {
		judge = judgeSettled(b.rng, board, c, komi, deadPlayouts(board.Size()))
	}
	if judge == judgePass && earlyPass {
		return engine.Pass, false
	}
	if len(candidates) == 1 {
		return candidates[0], false
	}
	stats := b.search.run(uctInput{
		board: board, toMove: c, ko: engine.NoPoint, komi: komi, candidates: candidates,
		playouts: b.Level.PlayoutsFor(board.Size()), deadline: b.Level.deadline(),
	})
	best := stats[0]
	if !b.Level.NoResign && (judge == judgeResign || pastOpening && best.visits >= resignMinVisits && best.winRate < resignWinRate) {
		return best.move, true
	}
	if earlyPass && best.move != engine.Pass {
		for _, st := range stats {
			if st.move == engine.Pass && st.visits >= passMinVisits && st.winRate >= passWinRate && st.winRate >= best.winRate-passMargin {
				return engine.Pass, false
			}
		}
	}
	return best.move, false
}

// The judgement of BOT-D6: a bot judges passing early and resigning once
// the board holds a judgeAfterStones-th of its points in stones (Phantom
// Go: its own stones and the opponent's it knows of, doubled); it passes
// when the pass wins at least passWinRate of its playouts (of at least
// passMinVisits), within passMargin of the best move, and resigns when
// its best move wins less than resignWinRate of at least resignMinVisits.
const (
	judgeAfterStones = 4
	passWinRate      = 0.9
	passMargin       = 0.03
	passMinVisits    = 30
	resignWinRate    = 0.04
	resignMinVisits  = 50
)

// winsAsItStands reports whether c wins board counted now, with the dead
// stones the bot would mark.
func (b *GoBot) winsAsItStands(board engine.Board, c engine.Color, komi float64) bool {
	dead := b.MarkDead(board, c)
	s := engine.AreaScore(board, engine.MarkingOf(board, dead), komi)
	return s.Result().Winner == c
}
