package phantom

import (
	"fmt"
	"slices"

	"github.com/kakure/kakure/engine"
)

// Referee is the plaintext referee of Phantom Go (PG-1..PG-9): the
// whole board, the player to move, the simple-ko point (PG-4), the number of
// consecutive passes, the rule set and the komi. It is a comparable value:
// [Referee.Try] returns the next referee and never changes the
// receiver, and two referees are the same state exactly when they are ==.
//
// During a real game no program holds this value (trust.md T-7); it is the
// specification the secure computation must match bit for bit (T-9), the
// function the end-of-game audit replays (T-8), and the determinized referee
// of bot playouts.
type Referee struct {
	opts   engine.Options
	board  engine.Board
	toMove engine.Color
	ko     engine.Point
	passes int
}

// TryReason says why a try was illegal (PG-2). The zero value TryNoReason
// belongs to legal tries.
type TryReason uint8

// The reasons of an illegal try.
const (
	TryNoReason TryReason = iota
	// TryOccupiedOwn: the point holds one of the trying player's stones.
	TryOccupiedOwn
	// TryOccupiedOpponent: the point holds an opponent stone.
	TryOccupiedOpponent
	// TrySuicide: after the captures the new stone's chain has no liberty.
	TrySuicide
	// TryKo: the simple-ko recapture of PG-4.
	TryKo
)

// String returns the GTP word of the reason: "occupied-own",
// "occupied-opponent", "suicide", "ko", or "none" for TryNoReason.
func (r TryReason) String() string {
	switch r {
	case TryNoReason:
		return "none"
	case TryOccupiedOwn:
		return "occupied-own"
	case TryOccupiedOpponent:
		return "occupied-opponent"
	case TrySuicide:
		return "suicide"
	case TryKo:
		return "ko"
	}
	return fmt.Sprintf("TryReason(%d)", uint8(r))
}

// ParseTryReason reads what [TryReason.String] writes.
func ParseTryReason(s string) (TryReason, error) {
	for r := TryNoReason; r <= TryKo; r++ {
		if s == r.String() {
			return r, nil
		}
	}
	return TryNoReason, fmt.Errorf("engine: %q is not a Phantom Go try reason (occupied-own, occupied-opponent, suicide, ko or none)", s)
}

// TryOutcome is everything the referee computes for one try, before the
// announcement rules (PG-6..PG-8) decide who learns what. Every field is a
// plain bit or a set of points, so that a secure computation can produce the
// same values (T-9).
type TryOutcome struct {
	// Mover is the player who tried; Point the point tried, or Pass.
	Mover engine.Color
	Point engine.Point
	// Legal is true for a pass and for a stone that was played (PG-1, PG-3).
	Legal bool
	// Pass is true when the try was a pass (PG-1).
	Pass bool
	// Reason is why an illegal try was refused (PG-2); TryNoReason when
	// Legal.
	Reason TryReason
	// Captured lists the opponent stones the move removed, in increasing
	// order; nil when none.
	Captured []engine.Point
	// AtariOpponent and AtariSelf are the two atari facts of PG-5, each
	// computed on its own; both false for a pass or an illegal try.
	AtariOpponent bool
	AtariSelf     bool
}

// NewReferee starts a game of Phantom Go on an empty board with Black
// to move. The variant must be phantom (an empty Variant means phantom);
// Normalize fills in the size, the komi and the rule set.
func NewReferee(o engine.Options) (Referee, error) {
	o, err := normalizeOptions(o)
	if err != nil {
		return Referee{}, err
	}
	return Referee{opts: o, board: engine.MustNewBoard(o.Size), toMove: engine.Black, ko: engine.NoPoint}, nil
}

// NewRefereeAt starts a referee on the position b with toMove to
// play, no ko and no passes: for tests, for positions set up by hand and for
// the determinized boards of bot playouts. b must have the options' size and
// no chain without a liberty.
func NewRefereeAt(o engine.Options, b engine.Board, toMove engine.Color) (Referee, error) {
	o, err := normalizeOptions(o)
	if err != nil {
		return Referee{}, err
	}
	if b.Size() != o.Size {
		return Referee{}, fmt.Errorf("%w: phantom position of side %d for a game of side %d", engine.ErrBadOptions, b.Size(), o.Size)
	}
	if toMove != engine.Black && toMove != engine.White {
		return Referee{}, fmt.Errorf("%w: phantom position with %v to move", engine.ErrBadOptions, toMove)
	}
	for i := 0; i < b.Points(); i++ {
		if p := engine.Point(i); b.At(p) != engine.Empty && !b.HasLiberty(p) {
			return Referee{}, fmt.Errorf("%w: phantom position has a chain without liberty at %s", engine.ErrBadOptions, p.Vertex(o.Size))
		}
	}
	return Referee{opts: o, board: b, toMove: toMove, ko: engine.NoPoint}, nil
}

func normalizeOptions(o engine.Options) (engine.Options, error) {
	if o.Variant == "" {
		o.Variant = engine.VariantPhantom
	}
	if o.Variant != engine.VariantPhantom {
		return o, fmt.Errorf("%w: a Phantom Go referee for variant %q", engine.ErrBadOptions, o.Variant)
	}
	return o.Normalize()
}

// Options returns the game's options, defaults filled in.
func (r Referee) Options() engine.Options { return r.opts }

// Rules returns the announcement rule set (PG-6..PG-8).
func (r Referee) Rules() engine.PhantomRules { return r.opts.Rules }

// Board returns the whole board.
func (r Referee) Board() engine.Board { return r.board }

// ToMove returns the player whose turn it is.
func (r Referee) ToMove() engine.Color { return r.toMove }

// Ko returns the point where a try by the player to move would be a
// simple-ko recapture (PG-4), or NoPoint.
func (r Referee) Ko() engine.Point { return r.ko }

// Passes returns the number of consecutive passes that ended the last
// turns; illegal tries do not end a turn and do not reset it.
func (r Referee) Passes() int { return r.passes }

// PlayEnded reports whether two consecutive passes ended play (PG-9).
func (r Referee) PlayEnded() bool { return r.passes >= 2 }

// Try plays the try of c at p (a point or Pass) and returns the next referee
// and the outcome. A rule-illegal try (PG-2) is an outcome, not an error: the
// referee returned is then the receiver itself, with the same player to move.
// The error is for what is no try at all: c is not the player to move, play
// has ended, or p is not on the board; the receiver is then returned.
func (r Referee) Try(c engine.Color, p engine.Point) (Referee, TryOutcome, error) {
	if r.passes >= 2 {
		return r, TryOutcome{}, fmt.Errorf("phantom try: %w", engine.ErrGameOver)
	}
	if c != r.toMove {
		return r, TryOutcome{}, fmt.Errorf("phantom try by %v while %v is to move: %w", c, r.toMove, engine.ErrNotYourTurn)
	}
	out := TryOutcome{Mover: c, Point: p}
	if p == engine.Pass {
		out.Legal, out.Pass = true, true
		r.passes++
		r.ko = engine.NoPoint
		r.toMove = c.Opponent()
		return r, out, nil
	}
	if !r.board.OnBoard(p) {
		return r, TryOutcome{}, fmt.Errorf("phantom try at %d: %w", p, engine.ErrOffBoard)
	}
	opp := c.Opponent()
	switch r.board.At(p) {
	case c:
		out.Reason = TryOccupiedOwn
		return r, out, nil
	case opp:
		out.Reason = TryOccupiedOpponent
		return r, out, nil
	}
	next, res := r.board.Place(p, c)
	if p == r.ko && len(res.Captured) == 1 {
		out.Reason = TryKo
		return r, out, nil
	}
	if res.Suicide {
		out.Reason = TrySuicide
		return r, out, nil
	}
	out.Legal = true
	if len(res.Captured) > 0 {
		slices.Sort(res.Captured)
		out.Captured = res.Captured
	}

	// PG-5. Chains next to the move are the only ones whose liberties the
	// move can take; each is looked at once per side, which is enough for a
	// yes/no fact even when one chain touches the move twice.
	ns, n := r.board.Neighbors(p)
	selfLibs := libertiesUpTo2(&next, p)
	joinedInAtari := false
	for _, q := range ns[:n] {
		switch r.board.At(q) {
		case c:
			if libertiesUpTo2(&r.board, q) == 1 {
				joinedInAtari = true
			}
		case opp:
			if !out.AtariOpponent && next.At(q) == opp &&
				libertiesUpTo2(&next, q) == 1 && libertiesUpTo2(&r.board, q) >= 2 {
				out.AtariOpponent = true
			}
		}
	}
	// "and himself": the new stone's chain has one liberty, and either the
	// move captured or no joined chain was in atari before (PG-5, PG-D2).
	out.AtariSelf = selfLibs == 1 && (len(out.Captured) > 0 || !joinedInAtari)

	// PG-4: the next player may not retake at once when exactly one stone
	// was captured by a single stone that is left with one liberty.
	r.ko = engine.NoPoint
	if len(out.Captured) == 1 && selfLibs == 1 && isSingleStone(&next, p) {
		r.ko = out.Captured[0]
	}
	r.board = next
	r.passes = 0
	r.toMove = opp
	return r, out, nil
}

// Resume lets play go on after two passes when the players do not agree on
// the dead stones (GO-4, PG-D5): c is to move, the passes and the ko are
// cleared.
func (r Referee) Resume(c engine.Color) (Referee, error) {
	if r.passes < 2 {
		return r, fmt.Errorf("phantom resume before play ended: %w", engine.ErrWrongPhase)
	}
	if c != engine.Black && c != engine.White {
		return r, fmt.Errorf("phantom resume: %v is not a player", c)
	}
	r.passes, r.ko, r.toMove = 0, engine.NoPoint, c
	return r, nil
}

// Score counts the whole board by area with the given dead stones and the
// game's komi (PG-9, GO-5). Score(...).Result() gives the result.
func (r Referee) Score(dead engine.Marking) engine.Score {
	return engine.AreaScore(r.board, dead, r.opts.Komi)
}

// libertiesUpTo2 counts the liberties of the chain at p, stopping at
// two: it returns 0, 1 or 2 (2 meaning "two or more"). It allocates nothing.
func libertiesUpTo2(b *engine.Board, p engine.Point) int {
	c := b.At(p)
	var seen [engine.MaxPoints]bool
	var stack [engine.MaxPoints]engine.Point
	stack[0] = p
	top := 1
	seen[p] = true
	first := engine.NoPoint
	for top > 0 {
		top--
		s := stack[top]
		ns, n := b.Neighbors(s)
		for _, q := range ns[:n] {
			switch b.At(q) {
			case engine.Empty:
				if first == engine.NoPoint {
					first = q
				} else if q != first {
					return 2
				}
			case c:
				if !seen[q] {
					seen[q] = true
					stack[top] = q
					top++
				}
			}
		}
	}
	if first == engine.NoPoint {
		return 0
	}
	return 1
}

// isSingleStone reports whether the stone at p has no neighbour of
// its own colour.
func isSingleStone(b *engine.Board, p engine.Point) bool {
	c := b.At(p)
	ns, n := b.Neighbors(p)
	for _, q := range ns[:n] {
		if b.At(q) == c {
			return false
		}
	}
	return true
}
