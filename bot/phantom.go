package bot

import (
	"math"
	"math/rand/v2"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
)

// PhantomBot plays Phantom Go from a player's view only (PG-1..PG-9,
// docs/bots.md BOT-PG-D1..D8): Monte-Carlo with determinization, as the
// published Phantom Go programs do (Cazenave, "A Phantom-Go program",
// 2005). For every playout it guesses the opponent's stones consistently
// with what the view knows — the known opponent stones, the number of
// opponent stones on the board, the empty points its own illegal tries
// revealed, the last atari announcements — then plays the candidate try
// and a random game to the end. Candidates are chosen by UCB1 with
// all-moves-as-first values, and the best is tried. A failed try is new
// information: the next ChooseTry sees it in the view and searches again,
// with a smaller budget.
//
// A PhantomBot is not safe for concurrent use.
type PhantomBot struct {
	Level Level
	// Komi is the game's komi, which the view does not carry.
	Komi float64
	rng  *rand.Rand
	det  detBoard
	unc  []engine.Point
	// raveEquivalence is phantomRAVEEquivalence (experiments change it).
	raveEquivalence float64
}

// NewPhantomBot returns a Phantom Go bot of the given level for a game
// with the given komi; its choices depend only on seed and the views it
// is shown.
func NewPhantomBot(level Level, komi float64, seed uint64) *PhantomBot {
	return &PhantomBot{Level: level, Komi: komi, rng: newRand(seed), raveEquivalence: phantomRAVEEquivalence}
}

// phantomFacts is what a view says about the hidden position, in the form
// the determinizations use (BOT-PG-D1).
type phantomFacts struct {
	size int
	me   engine.Color
	// own are the certain own stones, opp the known opponent stones.
	own, opp []engine.Point
	// uncertain are own stones that may have been captured (hamburg), of
	// which keep are still on the board.
	uncertain []engine.Point
	keep      int
	// free are the points that may hold a guessed opponent stone, and
	// place how many the guess must put there.
	free  []engine.Point
	place int
	// suicides are this turn's tries that failed as suicide; ko the one
	// that failed as ko, or NoPoint. Both are empty points.
	suicides []engine.Point
	ko       engine.Point
	// meInAtari: the opponent's last move put one of our chains into
	// atari; oppInAtari: it put itself into atari.
	meInAtari, oppInAtari bool
	// turnFailures counts this turn's failed tries.
	turnFailures int
	// opponentPassed tells whether the opponent's last turn was a pass.
	opponentPassed bool
}

// phantomFactsOf reads the facts from v, the view of the player to move.
func phantomFactsOf(v phantom.View) phantomFacts {
	me := v.Me()
	opp := me.Opponent()
	f := phantomFacts{size: v.Size(), me: me, ko: engine.NoPoint}
	log := v.Log()
	ownOnBoard, oppOnBoard := 0, 0
	for _, a := range log {
		if a.Event != phantom.Moved {
			continue
		}
		if a.Mover == me {
			ownOnBoard++
			oppOnBoard -= a.Captures
		} else {
			oppOnBoard++
			ownOnBoard -= a.Captures
		}
	}
	// This turn's failed tries are the newest entries: our illegal tries
	// since the opponent's last announcement.
	var emptyForSure [engine.MaxPoints]bool
	i := len(log) - 1
	for ; i >= 0 && log[i].Mover == me && log[i].Event == phantom.Illegal; i-- {
		a := log[i]
		f.turnFailures++
		switch a.Reason {
		case phantom.TrySuicide:
			f.suicides = append(f.suicides, a.Point)
			emptyForSure[a.Point] = true
		case phantom.TryKo:
			f.ko = a.Point
			emptyForSure[a.Point] = true
		}
	}
	if i >= 0 && log[i].Mover == opp {
		last := log[i]
		f.opponentPassed = last.Event == phantom.Passed
		if last.Event == phantom.Moved {
			f.meInAtari, f.oppInAtari = last.AtariOpponent, last.AtariSelf
		}
	}
	for p := engine.Point(0); int(p) < f.size*f.size; p++ {
		switch v.At(p) {
		case phantom.Own:
			f.own = append(f.own, p)
		case phantom.Opponent:
			f.opp = append(f.opp, p)
		case phantom.OwnUncertain:
			f.uncertain = append(f.uncertain, p)
			f.free = append(f.free, p)
		case phantom.Unknown, phantom.OpponentUncertain:
			// A learnt stone that a count-only capture may have taken is
			// as open as an unknown point.
			if !emptyForSure[p] {
				f.free = append(f.free, p)
			}
		}
	}
	f.keep = min(max(ownOnBoard-len(f.own), 0), len(f.uncertain))
	f.place = min(max(oppOnBoard-len(f.opp), 0), len(f.free))
	return f
}

// phantomSampleTries is how many guesses a determinization may throw away
// for breaking an announced fact before it keeps one anyway.
const phantomSampleTries = 16

// determinize builds on b.det a position consistent with f and returns
// it (BOT-PG-D1): own stones, the kept uncertain ones drawn at random,
// known opponent stones, and f.place opponent stones on free points drawn
// one by one among those where a stone captures nothing and is no suicide.
// Guesses that break the announced facts (the atari facts of the
// opponent's last move, this turn's suicide tries) are drawn again, up to
// phantomSampleTries times.
func (b *PhantomBot) determinize(f *phantomFacts) engine.Board {
	d := &b.det
	var free [engine.MaxPoints]engine.Point
	for attempt := 0; ; attempt++ {
		d.reset(f.size)
		for _, p := range f.own {
			d.cells[p] = f.me
		}
		for _, p := range f.opp {
			d.cells[p] = f.me.Opponent()
		}
		n := copy(free[:], f.free)
		// Keep f.keep of the uncertain stones: the first quiet ones of a
		// random order, which are then taken out of the free points.
		if f.keep > 0 {
			b.unc = append(b.unc[:0], f.uncertain...)
			b.rng.Shuffle(len(b.unc), func(i, j int) { b.unc[i], b.unc[j] = b.unc[j], b.unc[i] })
			kept := 0
			for _, p := range b.unc {
				if kept == f.keep {
					break
				}
				if d.canAddQuietly(p, f.me) {
					d.cells[p] = f.me
					kept++
				}
			}
			n = 0
			for _, p := range f.free {
				if d.cells[p] == engine.Empty {
					free[n] = p
					n++
				}
			}
		}
		// Draw the opponent stones: a random free point, kept if the stone
		// is quiet there, dropped from the draw otherwise.
		opp := f.me.Opponent()
		for placed := 0; placed < f.place && n > 0; {
			k := b.rng.IntN(n)
			p := free[k]
			free[k] = free[n-1]
			n--
			if d.canAddQuietly(p, opp) {
				d.cells[p] = opp
				placed++
			}
		}
		if attempt+1 >= phantomSampleTries || b.consistent(f) {
			return d.board()
		}
	}
}

// consistent checks the guess on b.det against the facts a uniform draw
// does not respect by itself.
func (b *PhantomBot) consistent(f *phantomFacts) bool {
	d := &b.det
	if f.meInAtari && !d.hasChainWithOneLiberty(f.me) {
		return false
	}
	if f.oppInAtari && !d.hasChainWithOneLiberty(f.me.Opponent()) {
		return false
	}
	for _, p := range f.suicides {
		// Our stone at p captured nothing and had no liberty.
		d.cells[p] = f.me
		suicide := d.liberties(p, 1) == 0
		for _, q := range d.geo.neighbors(p) {
			if d.cells[q] == f.me.Opponent() && d.liberties(q, 1) == 0 {
				suicide = false
			}
		}
		d.cells[p] = engine.Empty
		if !suicide {
			return false
		}
	}
	return true
}

// phantomStat is the search's record of one candidate try.
type phantomStat struct {
	move engine.Point
	// tries counts the playouts that drew this candidate, n those in which
	// it was legal in the guessed position, w their wins.
	tries  float64
	n, w   float64
	an, aw float64
}

// ChooseTry returns the player's next try in v: a point, or engine.Pass.
// It is never a point the view knows to be occupied or already tried in
// vain this turn (SensibleTries), and never one of the player's own eyes.
// When it is not the player's turn, it returns engine.Pass. It never
// resigns (ChooseTryOrResign may).
func (b *PhantomBot) ChooseTry(v phantom.View) engine.Point {
	p, _ := b.ChooseTryOrResign(v)
	return p
}

// ChooseTryOrResign is ChooseTry that judges whether to pass early or
// resign. It passes at once when it wins the count of its own view with
// every point it cannot be sure of given to the opponent (BOT-PG-D8,
// phantomWorstLead). Then it judges from its determinized samples
// (BOT-D6, BOT-PG-D7): past the
// opening the pass is a candidate, and the bot passes when nine in ten
// samples are settled boards it wins (judgeSamples) or the pass wins at
// least passWinRate of the search's playouts within passMargin of the
// best try; it resigns (resign true) when nine in ten samples are settled
// boards it loses.
func (b *PhantomBot) ChooseTryOrResign(v phantom.View) (move engine.Point, resign bool) {
	if v.ToMove() != v.Me() || v.PlayEnded() {
		return engine.Pass, false
	}
	f := phantomFactsOf(v)
	geo := geometryOf(f.size)
	ownAt := func(p engine.Point) engine.Color {
		if v.At(p) == phantom.Own {
			return f.me
		}
		return engine.Empty
	}
	var cands []phantomStat
	for _, p := range v.SensibleTries() {
		if !geo.surrounded(ownAt, p, f.me) {
			cands = append(cands, phantomStat{move: p})
		}
	}
	if len(cands) == 0 {
		return engine.Pass, false
	}
	// BOT-PG-D8: it passes, whether the opponent has passed or not, when
	// it wins even with every point it cannot be sure of given to the
	// opponent.
	if !b.Level.NoEarlyPass && phantomWorstLead(v, &f, b.Komi) >= passLeadMargin {
		return engine.Pass, false
	}
	// BOT-PG-D3: the pass is a candidate once the opponent has passed or
	// few tries are left; BOT-PG-D7: past the opening, to judge it.
	pastOpening := 2*len(f.own)*judgeAfterStones >= geo.points
	// BOT-PG-D7: it judges only once it knows where nearly all the
	// opponent's stones are: guessed stones scattered over its area look
	// dead, and it passed into a loss by 28.5 points against GNU Go.
	knowsEnough := f.place <= phantomJudgeUnknown
	earlyPass := !b.Level.NoEarlyPass && pastOpening && knowsEnough
	if f.opponentPassed || earlyPass || len(cands)*4 <= geo.points {
		cands = append(cands, phantomStat{move: engine.Pass})
	}
	judge := judgeNothing
	if pastOpening && knowsEnough && (earlyPass || !b.Level.NoResign) {
		judge = b.judgeSamples(&f)
	}
	if judge == judgePass && earlyPass {
		return engine.Pass, false
	}
	if len(cands) == 1 {
		return cands[0].move, judge == judgeResign && !b.Level.NoResign
	}
	b.search(&f, cands, b.budget(f))
	best, bestValue := 0, math.Inf(-1)
	for i, c := range cands {
		if v := b.value(c); v > bestValue {
			best, bestValue = i, v
		}
	}
	rate := func(c phantomStat) float64 { return c.w / max(c.n, 1) }
	bc := cands[best]
	// Only a settled loss in nine samples in ten resigns: a low win rate
	// of the search alone once resigned a game against the level-1 bot
	// (the samples guess the unseen stones; BOT-PG-D7).
	if !b.Level.NoResign && judge == judgeResign {
		return bc.move, true
	}
	if earlyPass && bc.move != engine.Pass {
		for _, c := range cands {
			if c.move == engine.Pass && c.n >= passMinVisits && rate(c) >= passWinRate && rate(c) >= rate(bc)-passMargin {
				return engine.Pass, false
			}
		}
	}
	return bc.move, false
}

// judgeSamples judges the position from phantomJudgeSamples
// determinizations (BOT-PG-D7): pass when at least phantomJudgeShare of
// them are settled boards that the bot wins by passLeadMargin, resign
// when as many are settled boards it loses by resignLeadMargin.
func (b *PhantomBot) judgeSamples(f *phantomFacts) settledJudgement {
	var counts [3]int
	for i := 0; i < phantomJudgeSamples; i++ {
		board := b.determinize(f)
		counts[judgeSettled(b.rng, board, f.me, b.Komi, phantomJudgePlayouts)]++
	}
	need := int(math.Ceil(phantomJudgeShare * phantomJudgeSamples))
	switch {
	case counts[judgePass] >= need:
		return judgePass
	case counts[judgeResign] >= need:
		return judgeResign
	}
	return judgeNothing
}

// The Phantom Go bot's judgement (BOT-PG-D7): the determinizations it
// judges, the playouts of each one's dead-stone estimate, and the share of
// them that must agree.
const (
	phantomJudgeSamples  = 20
	phantomJudgePlayouts = 64
	phantomJudgeShare    = 0.9
	// phantomJudgeUnknown is how many opponent stones the bot may not
	// know the place of for it to judge at all.
	phantomJudgeUnknown = 2
)

// phantomPlayoutScale is, in thirds, how many of the level's playouts
// the Phantom Go bot spends from the default level up (BOT-PG-D9): its
// playouts on the determinized boards cost about a quarter of the Go
// bot's, and at the plain level it lost 6 of 50 games as White against
// GNU Go level 1 where 10/3 of them lost 1 (same seeds).
const phantomPlayoutScale = 10

// budget returns the playouts of one decision: the level's (times
// phantomPlayoutScale/3 from the default level up, BOT-PG-D9), shrunk
// after failed tries in the turn (BOT-PG-D4).
func (b *PhantomBot) budget(f phantomFacts) int {
	n := b.Level.PlayoutsFor(f.size)
	if b.Level.Playouts >= Levels[3].Playouts {
		n = n * phantomPlayoutScale / 3 // BOT-PG-D9
	}
	if f.turnFailures > 0 {
		n = max(n/(1+f.turnFailures), n/4)
	}
	return n
}

// The priors of a candidate, in playouts at 50 % (BOT-PG-D2), and the
// playouts at which a candidate's own value and its all-moves-as-first
// value weigh the same.
const (
	phantomPrior           = 4
	phantomRAVEPrior       = 10
	phantomRAVEEquivalence = 1500
)

// value is the value by which the best candidate is chosen: the win rate
// of the playouts in which the try was legal, blended with its
// all-moves-as-first rate and pulled towards ½ by a small prior.
func (b *PhantomBot) value(c phantomStat) float64 {
	q := (c.w + 0.5*phantomPrior) / (c.n + phantomPrior)
	qa := (c.aw + 0.5*phantomRAVEPrior) / (c.an + phantomRAVEPrior)
	an := c.an + phantomRAVEPrior
	beta := an / (an + c.n + c.n*an/b.raveEquivalence)
	return (1-beta)*q + beta*qa
}

// search runs the flat Monte-Carlo search over cands with n playouts.
func (b *PhantomBot) search(f *phantomFacts, cands []phantomStat, n int) {
	deadline := b.Level.deadline()
	geo := geometryOf(f.size)
	var work engine.PlayoutBoard
	var final [engine.MaxPoints]engine.Color
	for i := 0; i < n; i++ {
		if i&31 == 31 && pastDeadline(deadline) {
			break
		}
		// UCB1 on the value above, with the draws as the visits.
		total := 0.0
		for _, c := range cands {
			total += c.tries
		}
		logN := math.Log(total + 1)
		k, best := 0, math.Inf(-1)
		for j, c := range cands {
			u := b.value(c) + 0.25*math.Sqrt(logN/(c.tries+1))
			if u > best {
				k, best = j, u
			}
		}
		c := &cands[k]
		c.tries++
		work.Reset(b.determinize(f), f.me, f.ko)
		if c.move == engine.Pass {
			work.Pass()
		} else if !work.Play(c.move) {
			continue
		}
		work.RandomPlayout(b.rng)
		r := float64(resultOf(work.ScoreArea(b.Komi)))
		if f.me == engine.White {
			r = 1 - r
		}
		c.n++
		c.w += r
		for p := engine.Point(0); int(p) < geo.points; p++ {
			final[p] = work.At(p)
		}
		for j := range cands {
			if m := cands[j].move; m != engine.Pass && final[m] == f.me {
				cands[j].an++
				cands[j].aw += r
			}
		}
	}
}
