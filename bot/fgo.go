package bot

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/fgo"
)

// FGoBot plays F-Go, simultaneous Go (FG-1..FG-7, docs/bots.md
// BOT-FG-D1..D5). Both players choose at once, so a best point for both
// is a gamble: the bot ranks each side's candidate points with the Go
// search, estimates by playouts the outcome of every pair of choices among
// the best few of each side, solves that matrix game by regret matching,
// and draws its choice from its equilibrium mix. Where one point is best
// for both, the mix spreads over it and the next best points; where a
// point is clearly best, the mix is pure. Offers (FG-7) it accepts when
// the offered turn is worth at least the game's value to it.
//
// An FGoBot is not safe for concurrent use.
type FGoBot struct {
	Level  Level
	rng    *rand.Rand
	search *uctSearch
	// last is the analysis of the last position, reused by a choice and
	// an offer in the same turn.
	last *fgoAnalysis
}

// NewFGoBot returns an F-Go bot of the given level whose choices depend
// only on seed and the games it is shown.
func NewFGoBot(level Level, seed uint64) *FGoBot {
	rng := newRand(seed)
	search := newUCTSearch(rng)
	// BOT-FG-D1: the ranking search keeps the light playouts and the
	// plain UCT it was tuned with (the F-Go bot's strength comes from its
	// matrix game; BOT-D3's policy and RAVE were tuned for plain Go).
	search.tune = lightTuning
	return &FGoBot{Level: level, rng: rng, search: search}
}

// fgoAnalysis is the matrix game of one turn.
type fgoAnalysis struct {
	key fgoKey
	// black and white are the candidate choices of each side; payoff[i][j]
	// is Black's expected result when Black chooses black[i] and White
	// white[j].
	black, white []engine.Point
	payoff       [][]float64
	// mix is each side's equilibrium mix over its candidates; value is
	// Black's expected result under it.
	mixBlack, mixWhite []float64
	value              float64
	// pastOpening tells that the board holds enough stones for the bot to
	// judge passing and resigning (BOT-D6).
	pastOpening bool
}

// fgoKey identifies the turn an analysis belongs to.
type fgoKey struct {
	turn int
	hash uint64
	n    int
}

// fgoCandidates is how many of each side's best points enter the matrix
// game (BOT-FG-D2).
const fgoCandidates = 5

// ChooseFGo returns c's choice for this turn of g: a point c may choose
// (CheckChoice) or engine.Pass, drawn from c's equilibrium mix. It never
// resigns (ChooseFGoOrResign may).
func (b *FGoBot) ChooseFGo(g fgo.Game, c engine.Color) engine.Point {
	p, _ := b.ChooseFGoOrResign(g, c)
	return p
}

// ChooseFGoOrResign is ChooseFGo that judges whether to pass early or
// resign (BOT-D6, BOT-FG-D6): past the opening, c passes when the board is
// settled and c wins it by passLeadMargin (judgeSettled); it resigns
// (resign true) when the board is settled and c loses it by
// resignLeadMargin, or when the value of the turn's matrix game to c is
// below resignWinRate. (A pass among the matrix game's candidates, with
// the few playouts each pair gets, was drawn far too often.)
func (b *FGoBot) ChooseFGoOrResign(g fgo.Game, c engine.Color) (move engine.Point, resign bool) {
	// BOT-FG-D7: after the opponent's pass, the bot passes when it wins
	// the board as it stands, as the Go bot does (BOT-D5), and when the
	// choice it draws would only fill its own territory: then its moves
	// change nothing, and a pass ends play if the opponent passes again.
	var area *engine.Score
	if black, white := g.LastChoices(); (c == engine.Black && white == engine.Pass) || (c == engine.White && black == engine.Pass) {
		board := g.Board()
		dead := deadStones(b.rng, board, c, deadPlayouts(board.Size()))
		sc := g.Score(engine.MarkingOf(board, dead))
		if sc.Result().Winner == c {
			return engine.Pass, false
		}
		area = &sc
	}
	move, resign = b.chooseFGo(g, c)
	if board := g.Board(); !resign && area != nil && move != engine.Pass && board.At(move) == engine.Empty && area.Owner[move] == c {
		return engine.Pass, false
	}
	return move, resign
}

// chooseFGo is ChooseFGoOrResign before BOT-FG-D7.
func (b *FGoBot) chooseFGo(g fgo.Game, c engine.Color) (move engine.Point, resign bool) {
	a := b.analyze(g)
	cands, mix := a.black, a.mixBlack
	if c == engine.White {
		cands, mix = a.white, a.mixWhite
	}
	value := a.value
	if c == engine.White {
		value = 1 - a.value
	}
	judge := judgeNothing
	if a.pastOpening && (!b.Level.NoEarlyPass || !b.Level.NoResign) {
		judge = judgeSettled(b.rng, g.Board(), c, g.Options().Komi, deadPlayouts(g.Options().Size))
	}
	if a.pastOpening && !b.Level.NoResign && (value < resignWinRate || judge == judgeResign) {
		return b.draw(cands, mix), true
	}
	if judge == judgePass && !b.Level.NoEarlyPass {
		return engine.Pass, false
	}
	return b.draw(cands, mix), false
}

// draw draws a candidate from its mix.
func (b *FGoBot) draw(cands []engine.Point, mix []float64) engine.Point {
	r := b.rng.Float64()
	for i, p := range cands {
		r -= mix[i]
		if r < 0 {
			return p
		}
	}
	return cands[len(cands)-1]
}

// AcceptOffer reports whether c accepts the offer o made by its opponent
// (FG-7): when the turn it stands for is worth at least c's value of the
// turn's matrix game (BOT-FG-D4).
func (b *FGoBot) AcceptOffer(g fgo.Game, c engine.Color, o fgo.Offer) bool {
	if o.From != c.Opponent() || g.CheckOffer(o) != nil {
		return false
	}
	a := b.analyze(g)
	next, _, err := g.AcceptOffer(o)
	if err != nil {
		return false
	}
	n := max(64, b.Level.PlayoutsFor(g.Options().Size)/(2*fgoCandidates))
	v := b.evaluate(next.Board(), g.Options().Komi, n, time.Time{})
	if c == engine.White {
		return 1-v >= 1-a.value+fgoOfferMargin
	}
	return v >= a.value+fgoOfferMargin
}

// fgoOfferMargin is how much better than the game's value an offer must
// look to be accepted, against the noise of the estimates (BOT-FG-D4).
const fgoOfferMargin = 0.03

// analyze returns the matrix game of g's turn, reusing the last one when
// it is the same turn.
func (b *FGoBot) analyze(g fgo.Game) *fgoAnalysis {
	board := g.Board()
	key := fgoKey{turn: g.TurnNumber(), hash: board.Hash(), n: len(g.Unavailable())}
	if b.last != nil && b.last.key == key {
		return b.last
	}
	a := &fgoAnalysis{key: key}
	budget := b.Level.PlayoutsFor(board.Size())
	// One time limit for the whole analysis (CLK-D11): a sixth of it for
	// each side's ranking, the rest for the matrix; zero: none.
	start, end := time.Now(), b.Level.deadline()
	part := func(share float64) time.Time {
		if end.IsZero() {
			return end
		}
		return start.Add(time.Duration(share * float64(end.Sub(start))))
	}
	komi := g.Options().Komi
	stones := len(board.Stones(engine.Black)) + len(board.Stones(engine.White))
	a.pastOpening = stones*judgeAfterStones >= board.Points()
	// BOT-FG-D1: each side's candidates, ranked by the Go search as if it
	// were to move alone.
	for i, c := range []engine.Color{engine.Black, engine.White} {
		cands := b.rank(g, c, budget/6, part(float64(i+1)/6))
		if c == engine.Black {
			a.black = cands
		} else {
			a.white = cands
		}
	}
	// BOT-FG-D3: the payoffs of every pair, by playouts after the turn.
	per := max(8, (budget*2/3)/(len(a.black)*len(a.white)))
	a.payoff = make([][]float64, len(a.black))
	for i, pb := range a.black {
		a.payoff[i] = make([]float64, len(a.white))
		for j, pw := range a.white {
			next, res, err := g.Turn(pb, pw)
			if err != nil {
				a.payoff[i][j] = 0.5
				continue
			}
			if res.Kind == fgo.Played && res.PlayEnded {
				s := next.Score(engine.Marking{})
				a.payoff[i][j] = float64(resultOf(s.Black - s.White))
				continue
			}
			a.payoff[i][j] = b.evaluate(next.Board(), komi, per, end)
		}
	}
	a.mixBlack, a.mixWhite, a.value = solveMatrixGame(a.payoff, 2000)
	b.last = a
	return a
}

// rank returns c's best candidate choices in g, at most fgoCandidates,
// best first: the points c may choose that are not its own eyes and not
// plain suicides, ranked by the Go search with c to move. The pass is a
// candidate in the endgame, or when c has no point left.
func (b *FGoBot) rank(g fgo.Game, c engine.Color, playouts int, deadline time.Time) []engine.Point {
	board := g.Board()
	geo := geometryOf(board.Size())
	var cands []engine.Point
	for p := engine.Point(0); int(p) < geo.points; p++ {
		if g.CheckChoice(c, p) != nil || geo.surrounded(board.At, p, c) {
			continue
		}
		if _, res := board.Place(p, c); res.Suicide {
			continue
		}
		cands = append(cands, p)
	}
	endgame := len(cands)*4 <= geo.points
	if len(cands) == 0 {
		return []engine.Point{engine.Pass}
	}
	if endgame {
		cands = append(cands, engine.Pass)
	}
	if len(cands) <= 1 {
		return cands
	}
	stats := b.search.run(uctInput{
		board: board, toMove: c, ko: engine.NoPoint, komi: g.Options().Komi, candidates: cands,
		playouts: max(playouts, 2*len(cands)), deadline: deadline,
	})
	var ranked []engine.Point
	for _, st := range stats[:min(fgoCandidates, len(stats))] {
		ranked = append(ranked, st.move)
	}
	return ranked
}

// fgoMinPlayouts is the fewest playouts a payoff of the matrix game gets
// when the time limit has passed, and how often the limit is looked at.
const fgoMinPlayouts = 4

// evaluate returns Black's expected result on board by n playouts, Black
// and White moving first in turn (the next turn is simultaneous).
func (b *FGoBot) evaluate(board engine.Board, komi float64, n int, deadline time.Time) float64 {
	var work engine.PlayoutBoard
	sum := 0.0
	for i := 0; i < n; i++ {
		if i >= fgoMinPlayouts && i%fgoMinPlayouts == 0 && pastDeadline(deadline) {
			n = i // out of time (CLK-D11): the playouts so far
			break
		}
		first := engine.Black
		if i%2 == 1 {
			first = engine.White
		}
		work.Reset(board, first, engine.NoPoint)
		work.RandomPlayout(b.rng)
		sum += float64(resultOf(work.ScoreArea(komi)))
	}
	return sum / float64(n)
}

// solveMatrixGame approximates the equilibrium of the zero-sum game whose
// payoff to the row player (Black) is payoff, by regret matching over
// iterations rounds; it returns both average strategies, with weights
// under 3 % dropped, and the row player's value under them.
func solveMatrixGame(payoff [][]float64, iterations int) (rows, cols []float64, value float64) {
	nr, nc := len(payoff), len(payoff[0])
	regretR, regretC := make([]float64, nr), make([]float64, nc)
	sumR, sumC := make([]float64, nr), make([]float64, nc)
	sR, sC := make([]float64, nr), make([]float64, nc)
	strategy := func(regret, s []float64) {
		total := 0.0
		for i, r := range regret {
			s[i] = max(r, 0)
			total += s[i]
		}
		for i := range s {
			if total > 0 {
				s[i] /= total
			} else {
				s[i] = 1 / float64(len(s))
			}
		}
	}
	uR, uC := make([]float64, nr), make([]float64, nc)
	for t := 0; t < iterations; t++ {
		strategy(regretR, sR)
		strategy(regretC, sC)
		v := 0.0
		for i := range uR {
			uR[i] = 0
			for j := range uC {
				uR[i] += payoff[i][j] * sC[j]
			}
			v += sR[i] * uR[i]
		}
		for j := range uC {
			uC[j] = 0
			for i := range uR {
				uC[j] += (1 - payoff[i][j]) * sR[i]
			}
		}
		for i := range regretR {
			regretR[i] += uR[i] - v
			sumR[i] += sR[i]
		}
		for j := range regretC {
			regretC[j] += uC[j] - (1 - v)
			sumC[j] += sC[j]
		}
	}
	normalize := func(s []float64) []float64 {
		total := 0.0
		for _, x := range s {
			total += x
		}
		out := slices.Clone(s)
		kept := 0.0
		for i := range out {
			out[i] /= total
			if out[i] < 0.03 {
				out[i] = 0
			}
			kept += out[i]
		}
		for i := range out {
			out[i] /= kept
		}
		return out
	}
	rows, cols = normalize(sumR), normalize(sumC)
	for i := range rows {
		for j := range cols {
			value += rows[i] * cols[j] * payoff[i][j]
		}
	}
	return rows, cols, value
}
