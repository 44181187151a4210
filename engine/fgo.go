package engine

import (
	"errors"
	"fmt"
	"slices"
)

// ErrFGoUnavailable reports an F-Go choice of a point marked unavailable
// by a collision or a void superko turn (FG-1, FG-2, FG-4).
var ErrFGoUnavailable = errors.New("engine: point is marked unavailable this turn")

// ErrFGoBadOffer reports an F-Go bargaining offer that cannot stand for a
// turn (FG-7).
var ErrFGoBadOffer = errors.New("engine: bad offer")

// FGoTurnKind says what became of an F-Go turn.
type FGoTurnKind uint8

// The kinds of F-Go turn.
const (
	// FGoPlayed: the choices were played by FG-3 (this includes the turn
	// in which both players pass).
	FGoPlayed FGoTurnKind = iota + 1
	// FGoCollision: both chose the same point; nothing was played and the
	// point is now unavailable (FG-2).
	FGoCollision
	// FGoSuperko: the turn would have repeated an earlier position; it is
	// void and each chosen point is now unavailable (FG-4).
	FGoSuperko
)

// String returns "played", "collision" or "superko", the words of the
// kakure-turn GTP extension.
func (k FGoTurnKind) String() string {
	switch k {
	case FGoPlayed:
		return "played"
	case FGoCollision:
		return "collision"
	case FGoSuperko:
		return "superko"
	}
	return fmt.Sprintf("FGoTurnKind(%d)", uint8(k))
}

// FGoTurnResult is what an F-Go turn did.
type FGoTurnResult struct {
	Kind FGoTurnKind
	// Black and White are the two choices (a point or Pass).
	Black, White Point
	// Removed lists, in increasing order, every stone FG-3 removed in a
	// played turn: old chains removed in step 2 and chains, new stones
	// included, removed in step 3. It is empty for other kinds.
	Removed []Point
	// Unavailable lists the points marked unavailable after the turn, in
	// increasing order.
	Unavailable []Point
	// PlayEnded is true when both players passed (FG-6).
	PlayEnded bool
}

// Format writes the result as the kakure-turn GTP extension answers:
// "played removed=D4,E5" ("removed=-" when nothing was removed),
// "collision" or "superko".
func (r FGoTurnResult) Format(size int) string {
	if r.Kind == FGoPlayed {
		return "played removed=" + FormatVertices(size, r.Removed)
	}
	return r.Kind.String()
}

// FGoGame is a game of F-Go, simultaneous Go (FG-1..FG-7): a position, the
// points marked unavailable, the positions of earlier turns for positional
// superko and the passes. Both players choose each turn; [FGoGame.Turn]
// takes the two choices once both are revealed. It is a value; Turn
// returns the next game.
type FGoGame struct {
	opts        Options
	board       Board
	unavailable [MaxPoints]bool
	history     *PositionHistory
	captured    [3]int
	bothPassed  bool
	turns       int
	lastBlack   Point
	lastWhite   Point
}

// NewFGoGame starts a game of F-Go. The variant may be left empty; other
// variants are refused. Default 9×9, komi 0, suicide option "nz".
func NewFGoGame(o Options) (FGoGame, error) {
	if o.Variant == "" {
		o.Variant = VariantFGo
	}
	if o.Variant != VariantFGo {
		return FGoGame{}, fmt.Errorf("%w: F-Go game with variant %q", ErrBadOptions, o.Variant)
	}
	o, err := o.Normalize()
	if err != nil {
		return FGoGame{}, err
	}
	b := MustNewBoard(o.Size)
	return FGoGame{
		opts:      o,
		board:     b,
		history:   (*PositionHistory)(nil).Push(b),
		lastBlack: NoPoint,
		lastWhite: NoPoint,
	}, nil
}

// Options returns the game's options, defaults filled in.
func (g FGoGame) Options() Options { return g.opts }

// Board returns the position.
func (g FGoGame) Board() Board { return g.board }

// TurnNumber returns how many turns have been taken, collisions and void
// superko turns included.
func (g FGoGame) TurnNumber() int { return g.turns }

// LastChoices returns the choices of the last turn, or NoPoint, NoPoint
// before the first.
func (g FGoGame) LastChoices() (black, white Point) { return g.lastBlack, g.lastWhite }

// PlayEnded reports whether both players passed in the last turn (FG-6).
// The players then mark dead stones (GO-4); a turn taken after that
// resumes play.
func (g FGoGame) PlayEnded() bool { return g.bothPassed }

// Captures returns how many stones of c's opponent have been removed.
func (g FGoGame) Captures(c Color) int {
	if c != Black && c != White {
		return 0
	}
	return g.captured[c]
}

// IsUnavailable reports whether p is marked unavailable (FG-2, FG-4).
func (g FGoGame) IsUnavailable(p Point) bool {
	return g.board.OnBoard(p) && g.unavailable[p]
}

// Unavailable returns the points marked unavailable, in increasing order.
func (g FGoGame) Unavailable() []Point {
	var ps []Point
	for i := 0; i < g.board.Points(); i++ {
		if g.unavailable[i] {
			ps = append(ps, Point(i))
		}
	}
	return ps
}

// CheckChoice returns nil if c may choose p (a point or Pass) this turn,
// or the reason it may not: the point is off the board (ErrOffBoard),
// occupied (ErrOccupied, FG-1), marked unavailable (ErrFGoUnavailable,
// FG-1) or, with the suicide option "forbid", a point where c's stone
// alone would be suicide on the present board (ErrSuicide, FG-5).
func (g FGoGame) CheckChoice(c Color, p Point) error {
	if c != Black && c != White {
		return fmt.Errorf("engine: f-go choice: %v is not a player", c)
	}
	if p == Pass {
		return nil
	}
	size := g.board.Size()
	if !g.board.OnBoard(p) {
		return fmt.Errorf("f-go choice %s: %w: %d", c, ErrOffBoard, p)
	}
	if g.board.At(p) != Empty {
		return fmt.Errorf("f-go choice %s %s: %w", c, p.Vertex(size), ErrOccupied)
	}
	if g.unavailable[p] {
		return fmt.Errorf("f-go choice %s %s: %w", c, p.Vertex(size), ErrFGoUnavailable)
	}
	if g.opts.Suicide == SuicideForbid {
		if _, res := g.board.Place(p, c); res.Suicide {
			return fmt.Errorf("f-go choice %s %s: %w (suicide option forbid)", c, p.Vertex(size), ErrSuicide)
		}
	}
	return nil
}

// Turn takes the two choices of a turn, each a point or Pass, and returns
// the next game and what the turn did (FG-2..FG-6). A choice refused by
// [FGoGame.CheckChoice] returns the receiver unchanged and that error.
//
// A collision (both on one point) and a turn that would repeat an earlier
// position are not errors: they are turns of kind FGoCollision and
// FGoSuperko, and they mark points unavailable.
func (g FGoGame) Turn(black, white Point) (FGoGame, FGoTurnResult, error) {
	if err := g.CheckChoice(Black, black); err != nil {
		return g, FGoTurnResult{}, err
	}
	if err := g.CheckChoice(White, white); err != nil {
		return g, FGoTurnResult{}, err
	}
	next := g
	next.turns++
	next.lastBlack, next.lastWhite = black, white
	next.bothPassed = false
	res := FGoTurnResult{Black: black, White: white}

	switch {
	case black == Pass && white == Pass:
		// FG-6: play ends. A pass turn repeats the position by nature and
		// is never a superko; the marks stay, as no stone was played.
		next.bothPassed = true
		res.Kind = FGoPlayed
		res.PlayEnded = true
	case black == white:
		// FG-2.
		next.unavailable[black] = true
		res.Kind = FGoCollision
	default:
		board, removed, removedOf := fgoResolve(g.board, black, white)
		if g.history.Contains(board) {
			// FG-4 Decision: the turn is void, its stone points are marked.
			for _, p := range [2]Point{black, white} {
				if p != Pass {
					next.unavailable[p] = true
				}
			}
			res.Kind = FGoSuperko
			break
		}
		next.captured[White] += removedOf[Black]
		next.captured[Black] += removedOf[White]
		next.board = board
		next.history = g.history.Push(board)
		// FG-2: marks are cleared as soon as a turn plays a stone.
		next.unavailable = [MaxPoints]bool{}
		res.Kind = FGoPlayed
		res.Removed = removed
	}
	res.Unavailable = next.Unavailable()
	return next, res, nil
}

// fgoResolve plays FG-3 on b for the two choices (at least one a point,
// both different, both empty; every chain of b has a liberty) and returns
// the new position, the removed stones in increasing order and how many
// stones of each colour were removed.
func fgoResolve(b Board, black, white Point) (Board, []Point, [3]int) {
	var removedOf [3]int
	// (1) Place both stones.
	news := [2]Point{black, white}
	if black != Pass {
		b.Set(black, Black)
	}
	if white != Pass {
		b.Set(white, White)
	}
	// (2) Remove every chain without a liberty that holds no new stone.
	// Every chain of b had a liberty, so only chains next to a new stone
	// can have lost their last one. They are all found on the position
	// after placement and removed together: removing one must not save
	// another.
	var dead []Point
	var seen [MaxPoints]bool
	for _, p := range news {
		if p == Pass {
			continue
		}
		ns, n := b.Neighbors(p)
		for _, q := range ns[:n] {
			if b.At(q) == Empty || seen[q] {
				continue
			}
			stones, libs := b.Chain(q)
			holdsNew := false
			for _, s := range stones {
				seen[s] = true
				holdsNew = holdsNew || s == black || s == white
			}
			if len(libs) == 0 && !holdsNew {
				dead = append(dead, stones...)
			}
		}
	}
	for _, s := range dead {
		removedOf[b.At(s)]++
		b.Set(s, Empty)
	}
	removed := dead
	// (3) Remove every chain that still has no liberty: after step 2 only
	// chains holding a new stone can be so. Both are judged on the same
	// position, so when a black and a white new stone took each other's
	// last liberty both go (FG-5 nz).
	var dead3 []Point
	for _, p := range news {
		if p == Pass || b.At(p) == Empty {
			continue
		}
		if !b.HasLiberty(p) {
			stones, _ := b.Chain(p)
			dead3 = append(dead3, stones...)
		}
	}
	for _, s := range dead3 {
		removedOf[b.At(s)]++
		b.Set(s, Empty)
	}
	removed = append(removed, dead3...)
	slices.Sort(removed)
	return b, removed, removedOf
}

// Score counts the game by area with the given dead stones (FG-6, GO-5).
func (g FGoGame) Score(dead Marking) Score { return AreaScore(g.board, dead, g.opts.Komi) }

// FGoOffer is a bargaining offer of FG-7: "if you play IfYouPlay, I play
// IPlay", made by From to the other player. Either point may be Pass. An
// accepted offer is played as the turn.
type FGoOffer struct {
	From      Color
	IfYouPlay Point
	IPlay     Point
}

// Choices returns the turn the offer stands for, as Black's and White's
// choices.
func (o FGoOffer) Choices() (black, white Point) {
	if o.From == Black {
		return o.IPlay, o.IfYouPlay
	}
	return o.IfYouPlay, o.IPlay
}

// CheckOffer returns nil if the offer may be made and accepted now, or
// the reason it may not (wrapping ErrFGoBadOffer, and the reason a choice
// is refused where there is one). An offer must come from a player, each
// of its points must be a choice its player may make (FG-1, FG-5), and it
// must stand for a turn that plays: an offer on one point (a collision) or
// one whose turn would repeat an earlier position (a void superko turn) is
// refused (FG-D6).
func (g FGoGame) CheckOffer(o FGoOffer) error {
	if o.From != Black && o.From != White {
		return fmt.Errorf("%w: from %v, not a player", ErrFGoBadOffer, o.From)
	}
	size := g.board.Size()
	if err := g.CheckChoice(o.From.Opponent(), o.IfYouPlay); err != nil {
		return fmt.Errorf("%w: %w", ErrFGoBadOffer, err)
	}
	if err := g.CheckChoice(o.From, o.IPlay); err != nil {
		return fmt.Errorf("%w: %w", ErrFGoBadOffer, err)
	}
	if o.IPlay != Pass && o.IPlay == o.IfYouPlay {
		return fmt.Errorf("%w: both stones on %s would collide", ErrFGoBadOffer, o.IPlay.Vertex(size))
	}
	if o.IPlay == Pass && o.IfYouPlay == Pass {
		return nil
	}
	black, white := o.Choices()
	if b, _, _ := fgoResolve(g.board, black, white); g.history.Contains(b) {
		return fmt.Errorf("%w: %w", ErrFGoBadOffer, ErrSuperko)
	}
	return nil
}

// AcceptOffer plays an accepted offer as the turn (FG-7). An offer refused
// by [FGoGame.CheckOffer] returns the receiver unchanged and that error.
func (g FGoGame) AcceptOffer(o FGoOffer) (FGoGame, FGoTurnResult, error) {
	if err := g.CheckOffer(o); err != nil {
		return g, FGoTurnResult{}, err
	}
	return g.Turn(o.Choices())
}
