package bot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
)

// GomokuBot plays Hidden Move Double Gomoku (GM-1..GM-8, docs/bots.md
// BOT-GM-D1..D7) from its player's view. It keeps a map of where the
// opponent's hidden pieces may be: each stands on the row or column its
// turn announced, with equal chances on the points of that line it could
// have used. From that map and its own pieces it scores every point by the
// windows of five through it — its own to build, the opponent's to spoil —
// and commits to the best; it announces the row or the column that tells
// the opponent least; it reveals its hidden pieces in an announced line
// when the opponent's expected pieces make that line a threat, which
// blocks those points and forces the opponent's piece into the open; and
// it says "five" and claims the win whenever due.
//
// A GomokuBot is not safe for concurrent use.
type GomokuBot struct {
	Level Level
	rng   *rand.Rand
	// cached is the picture of the last view, with the key of that view:
	// within a turn the picture does not change.
	cached    *gomokuPicture
	cachedKey gomokuKey
}

// gomokuKey says when two views give the same picture: same turn, same
// finished turns, same pieces revealed in answer.
type gomokuKey struct {
	move, notes, revealed, hidden int
}

// NewGomokuBot returns a gomoku bot of the given level (the level sets how
// much chance there is in its choices, BOT-GM-D7) whose choices depend
// only on seed and the views it is shown.
func NewGomokuBot(level Level, seed uint64) *GomokuBot {
	return &GomokuBot{Level: level, rng: newRand(seed)}
}

// gomokuWindows lists the windows of five of a board of side size, and for
// every point the windows through it.
type gomokuWindows struct {
	windows [][5]engine.Point
	through [engine.MaxPoints][]int32
}

var gomokuWindowsBySize [engine.MaxSize + 1]*gomokuWindows

func init() {
	for size := 7; size <= engine.MaxSize; size++ {
		w := &gomokuWindows{}
		for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}} {
			for y := 0; y < size; y++ {
				for x := 0; x < size; x++ {
					ex, ey := x+4*d[0], y+4*d[1]
					if ex < 0 || ex >= size || ey >= size {
						continue
					}
					var ps [5]engine.Point
					for i := range ps {
						ps[i] = engine.PointAt(size, x+i*d[0], y+i*d[1])
					}
					for _, p := range ps {
						w.through[p] = append(w.through[p], int32(len(w.windows)))
					}
					w.windows = append(w.windows, ps)
				}
			}
		}
		gomokuWindowsBySize[size] = w
	}
}

// gomokuPicture is what the bot makes of a view before deciding.
type gomokuPicture struct {
	size int
	me   engine.Color
	win  *gomokuWindows
	// mine: this player's piece on the point; open: no revealed piece,
	// so a new piece may still go there.
	mine, open [engine.MaxPoints]bool
	// known: a revealed opponent piece on the point.
	known [engine.MaxPoints]bool
	// hidden is the chance that a hidden opponent piece is on the point,
	// which the opponent could reveal in answer to an announcement;
	// theirs is the chance of any opponent piece there.
	hidden, theirs [engine.MaxPoints]float64
	// danger is, averaged over the guesses of the hidden pieces, the
	// value of spoiling the opponent's live windows through the point when
	// the opponent has no piece there (BOT-GM-D1).
	danger [engine.MaxPoints]float64
	// fives are this player's windows of five already filled.
	fives [][5]engine.Point
}

// The guesses of the opponent's hidden pieces (BOT-GM-D1): gomokuChains
// Gibbs chains from random starts, each gomokuBurnIn sweeps long before it
// gives gomokuChainSamples guesses gomokuSweeps sweeps apart, favouring by
// gomokuLambda per point of gomokuShape the placements that make lines.
// Several short chains reach the several likely places of a line better
// than one long chain, which single-piece moves let out of a line only
// rarely.
const (
	gomokuChains       = 32
	gomokuChainSamples = 2
	gomokuSweeps       = 2
	gomokuBurnIn       = 8
	gomokuLambda       = 0.6
)

// gomokuShape is how much a window with n opponent pieces adds to the
// weight of a guess: players build lines, so guesses that gather pieces
// in windows are likelier.
var gomokuShape = [6]int{0, 0, 1, 3, 6, 10}

// gomokuWeight[g] is exp(gomokuLambda·g), the weight of a gain g.
var gomokuWeight = func() (w [4 * 20 * 5]float64) {
	for g := range w {
		w[g] = math.Exp(gomokuLambda * float64(g))
	}
	return w
}()

// pictureOf reads v and guesses the opponent's hidden pieces: each stands
// on the row or column its turn announced, on a point of that line where
// the opponent has no revealed piece, two never on one point; among such
// placements, Gibbs sampling prefers those whose pieces gather in live
// windows of five, as a player building lines would place them
// (BOT-GM-D1).
func (b *GomokuBot) pictureOf(v gomoku.View) *gomokuPicture {
	key := gomokuKey{move: v.MoveNumber(), notes: len(v.History()), revealed: len(v.JustRevealed()), hidden: v.OpponentHidden()}
	if b.cached != nil && b.cachedKey == key {
		return b.cached
	}
	pic := b.newPicture(v)
	b.cached, b.cachedKey = pic, key
	return pic
}

// chains returns the number of Gibbs chains of the level (BOT-GM-D7).
func (b *GomokuBot) chains() int {
	switch {
	case b.Level.Playouts < Levels[2].Playouts:
		return gomokuChains / 4
	case b.Level.Playouts < Levels[3].Playouts:
		return gomokuChains / 2
	}
	return gomokuChains
}

// newPicture computes the picture of v: each hidden opponent piece is on
// the line its turn announced.
func (b *GomokuBot) newPicture(v gomoku.View) *gomokuPicture {
	size := v.Size()
	pic := &gomokuPicture{size: size, me: v.Me(), win: gomokuWindowsBySize[size]}
	for p := engine.Point(0); int(p) < size*size; p++ {
		pic.mine[p] = v.Own(p) != gomoku.NoPiece
		pic.open[p] = !v.Revealed(p)
		pic.known[p] = v.OpponentPiece(p)
	}
	var cands [][]engine.Point
	for _, n := range v.History() {
		if n.Mover == v.Me() || n.Outcome != gomoku.PlacedHidden || n.Turn.Point != engine.NoPoint {
			continue
		}
		var c []engine.Point
		for _, p := range n.Turn.Line.Points(size) {
			if !pic.known[p] {
				c = append(c, p)
			}
		}
		if len(c) > 0 {
			cands = append(cands, c)
		}
	}
	b.guess(pic, cands, v.OwnPieces())
	return pic
}

// GomokuKnowledge is what one side of a referee's game may know (GTP's
// genmove, GTP-GM-D3): its own pieces, the revealed points and the
// opponent's revealed pieces, and how many hidden pieces the opponent has
// — not where, nor on which line (a gomoku.Game does not keep the lines).
// The gomoku bot's decisions on a referee's game read only this, so that
// they cannot depend on the opponent's hidden pieces (BOT-GM-D8).
type GomokuKnowledge struct {
	Size int
	// Me is the side deciding; Opening is true while X's opening piece
	// is due.
	Me      engine.Color
	Opening bool
	// Own is Me's pieces; Revealed the revealed points (either side's
	// piece), OpponentRevealed those holding an opponent piece;
	// OpponentHidden the number of the opponent's hidden pieces.
	Own              engine.Board
	Revealed         [engine.MaxPoints]bool
	OpponentRevealed [engine.MaxPoints]bool
	OpponentHidden   int
}

// GomokuKnowledgeOf reads from the referee's game g what c may know.
func GomokuKnowledgeOf(g gomoku.Game, c engine.Color) GomokuKnowledge {
	size := g.Size()
	opp := c.Opponent()
	k := GomokuKnowledge{Size: size, Me: c, Opening: g.Phase() == gomoku.PhaseOpening, Own: g.Pieces(c), OpponentHidden: g.HiddenCount(opp)}
	for p := engine.Point(0); int(p) < size*size; p++ {
		k.Revealed[p] = g.Revealed(p)
		k.OpponentRevealed[p] = g.Piece(opp, p) == gomoku.RevealedPiece
	}
	return k
}

// legalPoints returns the points where Me may place (GM-4): neither
// revealed nor holding its own piece.
func (k *GomokuKnowledge) legalPoints() []engine.Point {
	var ps []engine.Point
	for p := engine.Point(0); int(p) < k.Size*k.Size; p++ {
		if !k.Revealed[p] && k.Own.At(p) == engine.Empty {
			ps = append(ps, p)
		}
	}
	return ps
}

// knowledgePicture computes the picture of k: each hidden opponent piece
// may be on any point without a known opponent piece.
func (b *GomokuBot) knowledgePicture(k *GomokuKnowledge) *gomokuPicture {
	size := k.Size
	pic := &gomokuPicture{size: size, me: k.Me, win: gomokuWindowsBySize[size]}
	for p := engine.Point(0); int(p) < size*size; p++ {
		pic.mine[p] = k.Own.At(p) != engine.Empty
		pic.open[p] = !k.Revealed[p]
		pic.known[p] = k.OpponentRevealed[p]
	}
	var anywhere []engine.Point
	for p := engine.Point(0); int(p) < size*size; p++ {
		if !pic.known[p] {
			anywhere = append(anywhere, p)
		}
	}
	cands := make([][]engine.Point, k.OpponentHidden)
	for i := range cands {
		cands[i] = anywhere
	}
	b.guess(pic, cands, k.Own)
	return pic
}

// guess fills the picture's hidden-piece map and dangers from Gibbs
// guesses of the hidden pieces, piece i standing on one of cands[i], and
// its fives from own, the bot's pieces.
func (b *GomokuBot) guess(pic *gomokuPicture, cands [][]engine.Point, own engine.Board) {
	size := pic.size
	// count[w] is the opponent's pieces in window w in the current guess;
	// at[p] how many guessed pieces stand on p (0 or 1).
	nw := len(pic.win.windows)
	count := make([]int, nw)
	for w := range pic.win.windows {
		for _, q := range pic.win.windows[w] {
			if pic.known[q] {
				count[w]++
			}
		}
	}
	alive := make([]bool, nw)
	for w := range pic.win.windows {
		alive[w] = true
		for _, q := range pic.win.windows[w] {
			if !pic.open[q] && !pic.known[q] {
				// A revealed point without a known opponent piece: only a
				// hidden piece placed before it was revealed could fill it.
				alive[w] = false
			}
		}
	}
	base := slices.Clone(count)
	var at [engine.MaxPoints]int
	place := make([]engine.Point, len(cands))
	weights := make([]float64, size*size)
	samples := 0
	if len(cands) == 0 {
		// Nothing hidden: one exact picture.
		b.addSample(pic, count, alive, &at)
		samples = 1
	}
	for chain := 0; len(cands) > 0 && chain < b.chains(); chain++ {
		copy(count, base)
		at = [engine.MaxPoints]int{}
		for i, c := range cands {
			p := c[b.rng.IntN(len(c))]
			for tries := 0; at[p] > 0 && tries < 2*len(c); tries++ {
				p = c[b.rng.IntN(len(c))]
			}
			place[i] = p
			at[p]++
			for _, w := range pic.win.through[p] {
				count[w]++
			}
		}
		for sweep := 0; sweep < gomokuBurnIn+gomokuSweeps*gomokuChainSamples; sweep++ {
			for i, c := range cands {
				b.gibbsStep(pic, c, &place[i], count, alive, &at, weights)
			}
			if k := sweep - gomokuBurnIn; k >= 0 && k%gomokuSweeps == gomokuSweeps-1 {
				b.addSample(pic, count, alive, &at)
				samples++
			}
		}
	}
	for p := 0; p < size*size; p++ {
		pic.hidden[p] /= float64(samples)
		pic.danger[p] /= float64(samples)
		pic.theirs[p] = pic.hidden[p]
		if pic.known[p] {
			pic.theirs[p] = 1
		}
	}
	for _, f := range gomoku.FiveLines(own, pic.me) {
		ps, _ := f.Points(size)
		pic.fives = append(pic.fives, ps)
	}
}

// gibbsStep draws again the point of one hidden piece, whose candidate
// points are c and current point *p, given all the others: each free
// candidate weighs exp(λ·gain), gain being how much the piece adds to the
// shape of the live windows through it.
func (b *GomokuBot) gibbsStep(pic *gomokuPicture, c []engine.Point, p *engine.Point, count []int, alive []bool, at *[engine.MaxPoints]int, weights []float64) {
	at[*p]--
	for _, w := range pic.win.through[*p] {
		count[w]--
	}
	total := 0.0
	for j, q := range c {
		weights[j] = 0
		if at[q] > 0 {
			continue
		}
		gain := 0
		for _, w := range pic.win.through[q] {
			if alive[w] {
				n := min(count[w], 4)
				gain += gomokuShape[n+1] - gomokuShape[n]
			}
		}
		weights[j] = gomokuWeight[min(gain, len(gomokuWeight)-1)]
		total += weights[j]
	}
	if total > 0 {
		r := b.rng.Float64() * total
		for j, q := range c {
			r -= weights[j]
			if weights[j] > 0 && r <= 0 {
				*p = q
				break
			}
		}
	}
	at[*p]++
	for _, w := range pic.win.through[*p] {
		count[w]++
	}
}

// addSample adds one guess to the picture's sums.
func (b *GomokuBot) addSample(pic *gomokuPicture, count []int, alive []bool, at *[engine.MaxPoints]int) {
	for p := 0; p < pic.size*pic.size; p++ {
		if at[p] > 0 {
			pic.hidden[p]++
			continue
		}
		if pic.known[p] {
			continue
		}
		for _, w := range pic.win.through[p] {
			if alive[w] {
				pic.danger[p] += gomokuSpoil[min(count[w], 5)]
			}
		}
	}
}

// gomokuBuild is the value of one more own piece in a window that already
// holds n of ours (n = 4: it completes a five).
var gomokuBuild = [5]float64{1, 6, 36, 220, 5000}

// gomokuSpoil is the value of spoiling an opponent window that holds about
// n of its pieces.
var gomokuSpoil = [6]float64{0.5, 3, 20, 120, 1500, 1500}

// ownWindow returns how many of our pieces window w holds, and whether we
// can still fill it: every point is ours or open.
func (pic *gomokuPicture) ownWindow(w int32) (n int, alive bool) {
	for _, q := range pic.win.windows[w] {
		switch {
		case pic.mine[q]:
			n++
		case !pic.open[q]:
			return n, false
		}
	}
	return n, true
}

// completesWin reports whether the window w, once full, would make a
// double five with one of our fives (sharing at most one point).
func (pic *gomokuPicture) completesWin(w int32) bool {
	ws := pic.win.windows[w]
	for _, f := range pic.fives {
		shared := 0
		for _, p := range f {
			if slices.Contains(ws[:], p) {
				shared++
			}
		}
		if shared <= 1 {
			return true
		}
	}
	return false
}

// pointValue scores a commitment to p (BOT-GM-D2): the windows through p
// we can still fill, by how full they are and by how likely the opponent
// can spoil them with hidden pieces on their empty points (the second
// five only counts when it may share at most one point with a first one);
// the danger of the opponent's windows through p, which a piece of ours
// there can later spoil by being revealed; less the chance that an
// opponent piece already there makes the move fail.
func (pic *gomokuPicture) pointValue(p engine.Point) float64 {
	build := 0.0
	for _, w := range pic.win.through[p] {
		n, alive := pic.ownWindow(w)
		if !alive {
			continue
		}
		v := gomokuBuild[min(n, 4)]
		if len(pic.fives) > 0 && !pic.completesWin(w) {
			v *= 0.1
		}
		for _, q := range pic.win.windows[w] {
			if q != p && !pic.mine[q] {
				v *= 1 - 0.5*pic.hidden[q]
			}
		}
		build += v
	}
	return (build + 0.6*pic.danger[p]) * (1 - 0.5*pic.hidden[p])
}

// noise returns the relative noise of the level's choices (BOT-GM-D7).
func (b *GomokuBot) noise() float64 {
	switch {
	case b.Level.Playouts < Levels[2].Playouts:
		return 0.5
	case b.Level.Playouts < Levels[3].Playouts:
		return 0.2
	}
	return 0.03
}

// ChooseOpening returns the point of the X opening piece, for the inviting
// player (GM-2): a point on the second or third line from the edge, away
// from the corners, so that neither side is much better for the invited
// player to take (BOT-GM-D3).
func (b *GomokuBot) ChooseOpening(v gomoku.View) engine.Point {
	return b.openingPoint(v.Size())
}

// openingPoint is ChooseOpening on a board of side size.
func (b *GomokuBot) openingPoint(size int) engine.Point {
	var ps []engine.Point
	for p := engine.Point(0); int(p) < size*size; p++ {
		x, y := p.XY(size)
		line := min(x, y, size-1-x, size-1-y)
		far := max(x, y, size-1-x, size-1-y)
		if line >= 1 && line <= 2 && far <= size-3 {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return engine.PointAt(size, size/2, 1)
	}
	return ps[b.rng.IntN(len(ps))]
}

// ChooseSide returns the invited player's side (GM-2): X, which owns the
// opening piece, when that piece is central enough to be worth more than
// moving first; O otherwise (BOT-GM-D3).
func (b *GomokuBot) ChooseSide(v gomoku.View) engine.Color {
	size := v.Size()
	x, y := v.OpeningPoint().XY(size)
	if min(x, y, size-1-x, size-1-y) >= (size-1)/3 {
		return gomoku.X
	}
	return gomoku.O
}

// ChooseCommit returns the point the mover commits to: the best by
// pointValue, with the level's noise; NoPoint when it has no legal point
// (it must then declare so, GM-7). It never passes.
func (b *GomokuBot) ChooseCommit(v gomoku.View) engine.Point {
	legal := v.LegalPoints()
	if len(legal) == 0 {
		return engine.NoPoint
	}
	return b.best(b.pictureOf(v), legal)
}

// ChoosePlacement returns the piece of k.Me for GTP's genmove in a
// referee's game (GM-D2: a whole turn in which nothing is revealed): the X
// opening piece in the opening, else the best point as ChooseCommit, from
// what k.Me may know (GomokuKnowledgeOf); NoPoint when it has no legal
// point.
func (b *GomokuBot) ChoosePlacement(k GomokuKnowledge) engine.Point {
	if k.Opening {
		return b.openingPoint(k.Size)
	}
	legal := k.legalPoints()
	if len(legal) == 0 {
		return engine.NoPoint
	}
	return b.best(b.knowledgePicture(&k), legal)
}

// best returns the legal point of highest value, with the level's noise.
func (b *GomokuBot) best(pic *gomokuPicture, legal []engine.Point) engine.Point {
	noise := b.noise()
	best, bestValue := legal[0], math.Inf(-1)
	for _, p := range legal {
		value := pic.pointValue(p) * (1 + noise*b.rng.Float64())
		if value > bestValue {
			best, bestValue = p, value
		}
	}
	return best
}

// ChooseLine returns the kind of line to announce for the committed point
// (GM-3), the one that gives away least (BOT-GM-D4): fewer expected hidden
// opponent pieces on it, which could be revealed to make the move fail or
// to bring the piece into the open, and fewer of our own hidden pieces
// near the point on it, which would tell the opponent which way we build.
func (b *GomokuBot) ChooseLine(v gomoku.View) gomoku.LineKind {
	p := v.Committed()
	pic := b.pictureOf(v)
	size := v.Size()
	px, py := p.XY(size)
	cost := func(kind gomoku.LineKind) float64 {
		c := 0.0
		for _, q := range gomoku.LineOf(size, p, kind).Points(size) {
			if q == p {
				continue
			}
			c += pic.hidden[q]
			qx, qy := q.XY(size)
			if v.Own(q) == gomoku.HiddenPiece && max(abs(qx-px), abs(qy-py)) <= 4 {
				c += 0.7
			}
		}
		return c
	}
	row, col := cost(gomoku.Row), cost(gomoku.Column)
	switch {
	case row < col:
		return gomoku.Row
	case col < row:
		return gomoku.Column
	}
	if b.rng.IntN(2) == 0 {
		return gomoku.Row
	}
	return gomoku.Column
}

// gomokuRevealDanger is the danger of a point (BOT-GM-D1) from which the
// bot reveals its hidden piece there in answer to an announcement
// (BOT-GM-D5): half a sure window of three opponent pieces, or a window
// of four in one guess out of twenty-five.
const gomokuRevealDanger = 60

// ChooseResponse returns the hidden pieces to reveal in the line the
// opponent announced (GM-3), in increasing order (BOT-GM-D5): each one on
// a point whose danger reaches gomokuRevealDanger. Revealing it blocks the
// point for the opponent, spoiling its windows through it, and brings the
// opponent's new piece into the open — or makes the move fail if it was
// committed to the same point.
func (b *GomokuBot) ChooseResponse(v gomoku.View) []engine.Point {
	hidden := v.HiddenInLine(v.Announced())
	if len(hidden) == 0 {
		return nil
	}
	pic := b.pictureOf(v)
	var reveal []engine.Point
	for _, h := range hidden {
		if pic.danger[h] >= gomokuRevealDanger {
			reveal = append(reveal, h)
		}
	}
	return reveal
}

// ChooseDeclaration returns the declaration after a placement (GM-5,
// GM-6): "five" exactly when due, and the win claim whenever the bot has
// two lines of five sharing at most one piece (BOT-GM-D6).
func (b *GomokuBot) ChooseDeclaration(v gomoku.View) gomoku.Declaration {
	d := gomoku.Declaration{Five: v.FiveDue()}
	if lines, ok := v.WinningLines(); ok {
		d.Claim, d.Lines = true, lines
	}
	return d
}

// Act does what v's player must do now, whatever the phase, and returns
// the next view and the event to send to the opponent. It is an error to
// call it when v.MyTurn() is false.
func (b *GomokuBot) Act(v gomoku.View) (gomoku.View, gomoku.Event, error) {
	if !v.MyTurn() {
		return v, gomoku.Event{}, fmt.Errorf("bot: gomoku: not this player's turn to act (%s): %w", v.Phase(), engine.ErrNotYourTurn)
	}
	switch v.Phase() {
	case gomoku.PhaseOpening:
		return v.PlaceOpening(b.ChooseOpening(v))
	case gomoku.PhaseChooseSide:
		return v.ChooseSide(b.ChooseSide(v))
	case gomoku.PhaseCommit:
		p := b.ChooseCommit(v)
		if p == engine.NoPoint {
			return v.DeclareNoLegalPoint()
		}
		return v.Commit(p)
	case gomoku.PhaseAnnounce:
		return v.Announce(b.ChooseLine(v))
	case gomoku.PhaseRespond:
		return v.Respond(b.ChooseResponse(v))
	case gomoku.PhaseReveal:
		return v.Reveal()
	case gomoku.PhaseDeclare:
		return v.Declare(b.ChooseDeclaration(v))
	}
	return v, gomoku.Event{}, fmt.Errorf("bot: gomoku: nothing to do in the %s phase: %w", v.Phase(), engine.ErrWrongPhase)
}
