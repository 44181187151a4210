package fgo

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kakure/kakure/engine"
)

// ErrUnavailable reports an F-Go choice of a point marked unavailable
// by a collision or a void superko turn (FG-1, FG-2, FG-4).
var ErrUnavailable = errors.New("engine: point is marked unavailable this turn")

// ErrBadOffer reports an F-Go bargaining offer that cannot stand for a
// turn (FG-7).
var ErrBadOffer = errors.New("engine: bad offer")

// TurnKind says what became of an F-Go turn.
type TurnKind uint8

// The kinds of F-Go turn.
const (
	// Played: the choices were played by FG-3 (this includes the turn
	// in which both players pass).
	Played TurnKind = iota + 1
	// Collision: both chose the same point; nothing was played and the
	// point is now unavailable (FG-2).
	Collision
	// Superko: the turn would have repeated an earlier position; it is
	// void and each chosen point is now unavailable (FG-4).
	Superko
)

// String returns "played", "collision" or "superko", the words of the
// kakure-turn GTP extension.
func (k TurnKind) String() string {
	switch k {
	case Played:
		return "played"
	case Collision:
		return "collision"
	case Superko:
		return "superko"
	}
	return fmt.Sprintf("FGoTurnKind(%d)", uint8(k))
}

// TurnResult is what an F-Go turn did.
type TurnResult struct {
	Kind TurnKind
	// Black and White are the two choices (a point or Pass).
	Black, White engine.Point
	// Removed lists, in increasing order, every stone FG-3 removed in a
	// played turn: old chains removed in step 2 and chains, new stones
	// included, removed in step 3. It is empty for other kinds.
	Removed []engine.Point
	// Unavailable lists the points marked unavailable after the turn, in
	// increasing order.
	Unavailable []engine.Point
	// PlayEnded is true when both players passed (FG-6).
	PlayEnded bool
}

// Format writes the result as the kakure-turn GTP extension answers:
// "played removed=D4,E5" ("removed=-" when nothing was removed),
// "collision" or "superko".
func (r TurnResult) Format(size int) string {
	if r.Kind == Played {
		return "played removed=" + engine.FormatVertices(size, r.Removed)
	}
	return r.Kind.String()
}

// Game is a game of F-Go, simultaneous Go (FG-1..FG-7): a position, the
// points marked unavailable, the positions of earlier turns for positional
// superko and the passes. Both players choose each turn; [Game.Turn]
// takes the two choices once both are revealed. It is a value; Turn
// returns the next game.
type Game struct {
	opts        engine.Options
	board       engine.Board
	unavailable [engine.MaxPoints]bool
	history     *engine.PositionHistory
	captured    [3]int
	bothPassed  bool
	turns       int
	lastBlack   engine.Point
	lastWhite   engine.Point
}

// NewGame starts a game of F-Go. The variant may be left empty; other
// variants are refused. Default 9×9, komi 0, suicide option "nz".
func NewGame(o engine.Options) (Game, error) {
	if o.Variant == "" {
		o.Variant = engine.VariantFGo
	}
	if o.Variant != engine.VariantFGo {
		return Game{}, fmt.Errorf("%w: F-Go game with variant %q", engine.ErrBadOptions, o.Variant)
	}
	o, err := o.Normalize()
	if err != nil {
		return Game{}, err
	}
	b := engine.MustNewBoard(o.Size)
	return Game{
		opts:      o,
		board:     b,
		history:   (*engine.PositionHistory)(nil).Push(b),
		lastBlack: engine.NoPoint,
		lastWhite: engine.NoPoint,
	}, nil
}

// Options returns the game's options, defaults filled in.
func (g Game) Options() engine.Options { return g.opts }

// Board returns the position.
func (g Game) Board() engine.Board { return g.board }

// TurnNumber returns how many turns have been taken, collisions and void
// superko turns included.
func (g Game) TurnNumber() int { return g.turns }

// LastChoices returns the choices of the last turn, or NoPoint, NoPoint
// before the first.
func (g Game) LastChoices() (black, white engine.Point) { return g.lastBlack, g.lastWhite }

// PlayEnded reports whether both players passed in the last turn (FG-6).
// The players then mark dead stones (GO-4); a turn taken after that
// resumes play.
func (g Game) PlayEnded() bool { return g.bothPassed }

// Captures returns how many stones of c's opponent have been removed.
func (g Game) Captures(c engine.Color) int {
	if c != engine.Black && c != engine.White {
		return 0
	}
	return g.captured[c]
}

// IsUnavailable reports whether p is marked unavailable (FG-2, FG-4).
func (g Game) IsUnavailable(p engine.Point) bool {
	return g.board.OnBoard(p) && g.unavailable[p]
}

// Unavailable returns the points marked unavailable, in increasing order.
func (g Game) Unavailable() []engine.Point {
	var ps []engine.Point
	for i := 0; i < g.board.Points(); i++ {
		if g.unavailable[i] {
			ps = append(ps, engine.Point(i))
		}
	}
	return ps
}

// CheckChoice returns nil if c may choose p (a point or Pass) this turn,
// or the reason it may not: the point is off the board (ErrOffBoard),
// occupied (ErrOccupied, FG-1), marked unavailable (ErrUnavailable,
// FG-1) or, with the suicide option "forbid", a point where c's stone
// alone would be suicide on the present board (ErrSuicide, FG-5).
func (g Game) CheckChoice(c engine.Color, p engine.Point) error {
	if c != engine.Black && c != engine.White {
		return fmt.Errorf("engine: f-go choice: %v is not a player", c)
	}
	if p == engine.Pass {
		return nil
	}
	size := g.board.Size()
	if !g.board.OnBoard(p) {
		return fmt.Errorf("f-go choice %s: %w: %d", c, engine.ErrOffBoard, p)
	}
	if g.board.At(p) != engine.Empty {
		return fmt.Errorf("f-go choice %s %s: %w", c, p.Vertex(size), engine.ErrOccupied)
	}
	if g.unavailable[p] {
		return fmt.Errorf("f-go choice %s %s: %w", c, p.Vertex(size), ErrUnavailable)
	}
	if g.opts.Suicide == engine.SuicideForbid {
		if _, res := g.board.Place(p, c); res.Suicide {
			return fmt.Errorf("f-go choice %s %s: %w (suicide option forbid)", c, p.Vertex(size), engine.ErrSuicide)
		}
	}
	return nil
}

// Turn takes the two choices of a turn, each a point or Pass, and returns
// the next game and what the turn did (FG-2..FG-6). A choice refused by
// [Game.CheckChoice] returns the receiver unchanged and that error.
//
// A collision (both on one point) and a turn that would repeat an earlier
// position are not errors: they are turns of kind Collision and
// Superko, and they mark points unavailable.
func (g Game) Turn(black, white engine.Point) (Game, TurnResult, error) {
	if err := g.CheckChoice(engine.Black, black); err != nil {
		return g, TurnResult{}, err
	}
	if err := g.CheckChoice(engine.White, white); err != nil {
		return g, TurnResult{}, err
	}
	next := g
	next.turns++
	next.lastBlack, next.lastWhite = black, white
	next.bothPassed = false
	res := TurnResult{Black: black, White: white}

	switch {
	case black == engine.Pass && white == engine.Pass:
		// FG-6: play ends. A pass turn repeats the position by nature and
		// is never a superko; the marks stay, as no stone was played.
		next.bothPassed = true
		res.Kind = Played
		res.PlayEnded = true
	case black == white:
		// FG-2.
		next.unavailable[black] = true
		res.Kind = Collision
	default:
		board, removed, removedOf := resolve(g.board, black, white)
		if g.history.Contains(board) {
			// FG-4 Decision: the turn is void, its stone points are marked.
			for _, p := range [2]engine.Point{black, white} {
				if p != engine.Pass {
					next.unavailable[p] = true
				}
			}
			res.Kind = Superko
			break
		}
		next.captured[engine.White] += removedOf[engine.Black]
		next.captured[engine.Black] += removedOf[engine.White]
		next.board = board
		next.history = g.history.Push(board)
		// FG-2: marks are cleared as soon as a turn plays a stone.
		next.unavailable = [engine.MaxPoints]bool{}
		res.Kind = Played
		res.Removed = removed
	}
	res.Unavailable = next.Unavailable()
	return next, res, nil
}

// resolve plays FG-3 on b for the two choices (at least one a point,
// both different, both empty; every chain of b has a liberty) and returns
// the new position, the removed stones in increasing order and how many
// stones of each colour were removed.
func resolve(b engine.Board, black, white engine.Point) (engine.Board, []engine.Point, [3]int) {
	var removedOf [3]int
	// (1) Place both stones.
	news := [2]engine.Point{black, white}
	if black != engine.Pass {
		b.Set(black, engine.Black)
	}
	if white != engine.Pass {
		b.Set(white, engine.White)
	}
	// (2) Remove every chain without a liberty that holds no new stone.
	// Every chain of b had a liberty, so only chains next to a new stone
	// can have lost their last one. They are all found on the position
	// after placement and removed together: removing one must not save
	// another.
	var dead []engine.Point
	var seen [engine.MaxPoints]bool
	for _, p := range news {
		if p == engine.Pass {
			continue
		}
		ns, n := b.Neighbors(p)
		for _, q := range ns[:n] {
			if b.At(q) == engine.Empty || seen[q] {
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
		b.Set(s, engine.Empty)
	}
	removed := dead
	// (3) Remove every chain that still has no liberty: after step 2 only
	// chains holding a new stone can be so. Both are judged on the same
	// position, so when a black and a white new stone took each other's
	// last liberty both go (FG-5 nz).
	var dead3 []engine.Point
	for _, p := range news {
		if p == engine.Pass || b.At(p) == engine.Empty {
			continue
		}
		if !b.HasLiberty(p) {
			stones, _ := b.Chain(p)
			dead3 = append(dead3, stones...)
		}
	}
	for _, s := range dead3 {
		removedOf[b.At(s)]++
		b.Set(s, engine.Empty)
	}
	removed = append(removed, dead3...)
	slices.Sort(removed)
	return b, removed, removedOf
}

// Score counts the game by area with the given dead stones (FG-6, GO-5).
func (g Game) Score(dead engine.Marking) engine.Score {
	return engine.AreaScore(g.board, dead, g.opts.Komi)
}

// Offer is a bargaining offer of FG-7: "if you play IfYouPlay, I play
// IPlay", made by From to the other player. Either point may be Pass. An
// accepted offer is played as the turn.
type Offer struct {
	From      engine.Color
	IfYouPlay engine.Point
	IPlay     engine.Point
}

// Choices returns the turn the offer stands for, as Black's and White's
// choices.
func (o Offer) Choices() (black, white engine.Point) {
	if o.From == engine.Black {
		return o.IPlay, o.IfYouPlay
	}
	return o.IfYouPlay, o.IPlay
}

// CheckOffer returns nil if the offer may be made and accepted now, or
// the reason it may not (wrapping ErrBadOffer, and the reason a choice
// is refused where there is one). An offer must come from a player, each
// of its points must be a choice its player may make (FG-1, FG-5), and it
// must stand for a turn that plays: an offer on one point (a collision) or
// one whose turn would repeat an earlier position (a void superko turn) is
// refused (FG-D6).
func (g Game) CheckOffer(o Offer) error {
	if o.From != engine.Black && o.From != engine.White {
		return fmt.Errorf("%w: from %v, not a player", ErrBadOffer, o.From)
	}
	size := g.board.Size()
	if err := g.CheckChoice(o.From.Opponent(), o.IfYouPlay); err != nil {
		return fmt.Errorf("%w: %w", ErrBadOffer, err)
	}
	if err := g.CheckChoice(o.From, o.IPlay); err != nil {
		return fmt.Errorf("%w: %w", ErrBadOffer, err)
	}
	if o.IPlay != engine.Pass && o.IPlay == o.IfYouPlay {
		return fmt.Errorf("%w: both stones on %s would collide", ErrBadOffer, o.IPlay.Vertex(size))
	}
	if o.IPlay == engine.Pass && o.IfYouPlay == engine.Pass {
		return nil
	}
	black, white := o.Choices()
	if b, _, _ := resolve(g.board, black, white); g.history.Contains(b) {
		return fmt.Errorf("%w: %w", ErrBadOffer, engine.ErrSuperko)
	}
	return nil
}

// AcceptOffer plays an accepted offer as the turn (FG-7). An offer refused
// by [Game.CheckOffer] returns the receiver unchanged and that error.
func (g Game) AcceptOffer(o Offer) (Game, TurnResult, error) {
	if err := g.CheckOffer(o); err != nil {
		return g, TurnResult{}, err
	}
	return g.Turn(o.Choices())
}
