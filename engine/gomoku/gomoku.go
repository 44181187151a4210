package gomoku

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kakure/kakure/engine"
)

// This file holds the types every caller shares and the full-information
// game, Game: a referee that knows every piece. view.go holds what one
// player knows during play over the network, audit.go the audit of a
// finished game, and geometry.go the lines of five.

// ErrRule reports an action or a record that breaks a gomoku rule.
// A Violation wraps it.
var ErrRule = errors.New("engine: against the gomoku rules")

// Phase is the step of the game that is due (GM-2, GM-3).
type Phase uint8

// The phases, in the order a game goes through them. The actor is who must
// act in the phase; [View.MyTurn] tells a player whether that is them.
const (
	// PhaseOpening: the inviting player places the X opening piece
	// ([View.PlaceOpening], any point).
	PhaseOpening Phase = iota + 1
	// PhaseChooseSide: the invited player chooses X or O
	// ([View.ChooseSide]).
	PhaseChooseSide
	// PhaseCommit: the mover commits to a point
	// ([View.Commit], one of [View.LegalPoints]), passes
	// ([View.Pass]), or, with no legal point, ends the game
	// ([View.DeclareNoLegalPoint]).
	PhaseCommit
	// PhaseAnnounce: the mover announces the row or the column of
	// its committed point ([View.Announce]).
	PhaseAnnounce
	// PhaseRespond: the mover's opponent reveals any of its own
	// hidden pieces in the announced line, possibly none
	// ([View.Respond], a subset of [View.HiddenInLine]).
	PhaseRespond
	// PhaseReveal: something was revealed, so the mover reveals its
	// committed point ([View.Reveal]).
	PhaseReveal
	// PhaseDeclare: a piece was placed; the mover says "five" if it
	// is due and may claim the win ([View.Declare],
	// [View.FiveDue], [View.WinningLines]).
	PhaseDeclare
	// PhaseOver: the game has ended.
	PhaseOver
)

// String returns the phase's name: "opening", "choose-side", "commit",
// "announce", "respond", "reveal", "declare" or "over".
func (ph Phase) String() string {
	switch ph {
	case PhaseOpening:
		return "opening"
	case PhaseChooseSide:
		return "choose-side"
	case PhaseCommit:
		return "commit"
	case PhaseAnnounce:
		return "announce"
	case PhaseRespond:
		return "respond"
	case PhaseReveal:
		return "reveal"
	case PhaseDeclare:
		return "declare"
	case PhaseOver:
		return "over"
	}
	return fmt.Sprintf("GomokuPhase(%d)", uint8(ph))
}

// Outcome is how a turn ended.
type Outcome uint8

// The outcomes of a turn.
const (
	// Passed: the mover passed (GM-7).
	Passed Outcome = iota + 1
	// PlacedHidden: nothing was revealed; the piece stands hidden.
	PlacedHidden
	// PlacedRevealed: the opponent revealed pieces elsewhere in the
	// line; the piece stands revealed.
	PlacedRevealed
	// Failed: the opponent revealed a piece on the committed point;
	// nothing was placed (GM-3).
	Failed
	// Stuck: the mover had no legal point; the game ended as a draw
	// (GM-7).
	Stuck
)

// String returns "pass", "hidden", "revealed", "failed" or "no legal point".
func (o Outcome) String() string {
	switch o {
	case Passed:
		return "pass"
	case PlacedHidden:
		return "hidden"
	case PlacedRevealed:
		return "revealed"
	case Failed:
		return "failed"
	case Stuck:
		return "no legal point"
	}
	return fmt.Sprintf("GomokuOutcome(%d)", uint8(o))
}

// Piece is what one player has on one point.
type Piece uint8

// The states of a player's piece on a point.
const (
	NoPiece Piece = iota
	HiddenPiece
	RevealedPiece
)

// Declaration is what the mover says after placing a piece.
type Declaration struct {
	// Five is the announcement "five" of GM-5: true exactly when this
	// placement made the mover's first line of five.
	Five bool
	// Claim is the win claim of GM-6, with the two lines of five in Lines.
	Claim bool
	Lines [2]Five
}

// Turn is one turn with everything about it opened: the mover's
// committed point, the announced line, the points the opponent revealed,
// and the declaration. It is the unit of [Game.Turn] and of a
// [Record]. A pass or a declaration of no legal point has no other
// field set.
type Turn struct {
	Pass bool
	// NoLegalPoint is the mover's declaration that it has no legal point,
	// which ends the game as a draw (GM-7).
	NoLegalPoint bool
	// Point is the committed point.
	Point engine.Point
	// Line is the announced row or column.
	Line Line
	// Revealed are the points of the opponent's hidden pieces it revealed
	// in answer (GM-3), in any order.
	Revealed []engine.Point
	Declaration
}

// Violation is a rule broken by a player: found at once from opened
// values during play, or by the audit at the end (GM-8). The player at
// fault loses the game ([Violation.Result]).
type Violation struct {
	// Player is the player at fault.
	Player engine.Color
	// Rule is the id of the rule broken: "GM-2" … "GM-7".
	Rule string
	// Move is the turn in which the rule was broken: 0 is the opening, 1
	// the first turn after it, and so on.
	Move int
	// Detail says what was wrong, with GTP vertices.
	Detail string
	// Err is a more specific sentinel (ErrOccupied, ErrOffBoard) or nil.
	Err error
}

// Error describes the violation.
func (v Violation) Error() string {
	return fmt.Sprintf("gomoku: %s broken by %s at move %d: %s", v.Rule, PieceName(v.Player), v.Move, v.Detail)
}

// Unwrap returns ErrRule and, when set, the more specific Err.
func (v Violation) Unwrap() []error {
	if v.Err != nil {
		return []error{ErrRule, v.Err}
	}
	return []error{ErrRule}
}

// Result is the result the violation gives: the player at fault loses by
// forfeit, whatever the board says (GM-8).
func (v Violation) Result() engine.Result {
	return engine.Result{Winner: v.Player.Opponent(), By: engine.ByForfeit}
}

// side is one player's pieces in the full-information game.
type side struct {
	// pieces holds the player's pieces, hidden or revealed, in the
	// player's colour, ready for the geometry of geometry.go.
	pieces engine.Board
	// shown marks the pieces that are revealed.
	shown [engine.MaxPoints]bool
	// fiveMade is set once the player has had a line of five (GM-5).
	fiveMade bool
}

// Game is a game of Hidden Move Double Gomoku as a referee that knows
// every piece sees it: the GTP engine, local games, and the replay of the
// audit. It knows colours, not people: who invited and who chose which
// side (GM-2) is the business of [View] and [Record]. It is a
// value; its methods return the next game.
type Game struct {
	opts   engine.Options
	phase  Phase
	toMove engine.Color
	// move is the index of the next turn: 0 before the opening.
	move   int
	passes int
	sides  [2]side
	result engine.Result
	// stuck is set when the game ended because the player to move had no
	// legal point (GM-7).
	stuck bool
}

// NewGame starts a game. The variant defaults to gomoku; the size to
// 9 (GM-1, 7 to 19 allowed).
func NewGame(o engine.Options) (Game, error) {
	if o.Variant == "" {
		o.Variant = engine.VariantGomoku
	}
	if o.Variant != engine.VariantGomoku {
		return Game{}, fmt.Errorf("%w: a gomoku game with variant %q", engine.ErrBadOptions, o.Variant)
	}
	o, err := o.Normalize()
	if err != nil {
		return Game{}, err
	}
	b := engine.MustNewBoard(o.Size)
	return Game{
		opts:   o,
		phase:  PhaseOpening,
		toMove: X,
		sides:  [2]side{{pieces: b}, {pieces: b}},
	}, nil
}

// Options returns the game's options, defaults filled in.
func (g Game) Options() engine.Options { return g.opts }

// Size returns the side of the board.
func (g Game) Size() int { return g.opts.Size }

// Phase returns PhaseOpening before the opening piece, then
// PhaseCommit while turns are due, and PhaseOver at the end.
func (g Game) Phase() Phase { return g.phase }

// ToMove returns the player whose turn it is: X for the opening, then O
// first (GM-2).
func (g Game) ToMove() engine.Color { return g.toMove }

// MoveNumber returns the index of the next turn: 0 before the opening, 1
// for the first turn after it.
func (g Game) MoveNumber() int { return g.move }

// Passes returns the number of consecutive passes that ended the last turns.
func (g Game) Passes() int { return g.passes }

// Over reports whether the game has ended.
func (g Game) Over() bool { return g.phase == PhaseOver }

// Result returns the result of a finished game: a win (ByWin) or a draw
// (ByDraw). Before the end it is the zero Result.
func (g Game) Result() engine.Result { return g.result }

// Winner returns the winner of a finished game, or Empty for a draw or a
// game still going (GTP kakure-winner).
func (g Game) Winner() engine.Color { return g.result.Winner }

// sideIndex returns the index of c's pieces (c must be X or O).
func sideIndex(c engine.Color) int { return int(c) - 1 }

// WinnerName returns the answer of GTP kakure-winner: "x", "o" or "none"
// (a draw, or a game still going).
func (g Game) WinnerName() string {
	if w := g.result.Winner; w == X || w == O {
		return PieceName(w)
	}
	return "none"
}

// Pieces returns a board with c's pieces, hidden and revealed, in colour c.
func (g Game) Pieces(c engine.Color) engine.Board {
	if c != X && c != O {
		return engine.MustNewBoard(g.opts.Size)
	}
	return g.sides[sideIndex(c)].pieces
}

// Piece returns what c has on p.
func (g Game) Piece(c engine.Color, p engine.Point) Piece {
	if c != X && c != O || !g.onBoard(p) {
		return NoPiece
	}
	s := &g.sides[sideIndex(c)]
	switch {
	case s.pieces.At(p) == engine.Empty:
		return NoPiece
	case s.shown[p]:
		return RevealedPiece
	}
	return HiddenPiece
}

// Revealed reports whether a revealed piece of either player stands on p.
// No piece may be placed there any more (GM-4).
func (g Game) Revealed(p engine.Point) bool {
	return g.onBoard(p) && (g.sides[0].shown[p] || g.sides[1].shown[p])
}

// HiddenCount returns how many of c's pieces are hidden.
func (g Game) HiddenCount(c engine.Color) int {
	if c != X && c != O {
		return 0
	}
	s := &g.sides[sideIndex(c)]
	n := 0
	for _, p := range s.pieces.Stones(c) {
		if !s.shown[p] {
			n++
		}
	}
	return n
}

// FiveMade reports whether c has had a line of five (and so has announced
// "five", GM-5).
func (g Game) FiveMade(c engine.Color) bool {
	return (c == X || c == O) && g.sides[sideIndex(c)].fiveMade
}

func (g Game) onBoard(p engine.Point) bool { return p >= 0 && int(p) < g.opts.Size*g.opts.Size }

// legalFor reports whether c may place a piece on p (GM-4): the point is on
// the board, holds no revealed piece and no piece of c's own.
func (g Game) legalFor(c engine.Color, p engine.Point) bool {
	return g.onBoard(p) && !g.Revealed(p) && g.sides[sideIndex(c)].pieces.At(p) == engine.Empty
}

// LegalPoints returns the points where c may commit now (GM-4), in
// increasing order. A pass is always legal while c has one.
func (g Game) LegalPoints(c engine.Color) []engine.Point {
	if c != X && c != O {
		return nil
	}
	var ps []engine.Point
	for p := engine.Point(0); g.onBoard(p); p++ {
		if g.legalFor(c, p) {
			ps = append(ps, p)
		}
	}
	return ps
}

// hasLegalPoint reports whether c has any legal point.
func (g Game) hasLegalPoint(c engine.Color) bool {
	for p := engine.Point(0); g.onBoard(p); p++ {
		if g.legalFor(c, p) {
			return true
		}
	}
	return false
}

// PlaceOpening places the X opening piece, in the open (GM-2). O moves next.
func (g Game) PlaceOpening(p engine.Point) (Game, error) {
	if g.phase != PhaseOpening {
		return g, fmt.Errorf("gomoku: opening piece after the opening: %w", engine.ErrWrongPhase)
	}
	if !g.onBoard(p) {
		return g, Violation{Player: X, Rule: "GM-2", Move: 0, Detail: fmt.Sprintf("opening piece off the board (%d)", p), Err: engine.ErrOffBoard}
	}
	x := &g.sides[sideIndex(X)]
	x.pieces.Set(p, X)
	x.shown[p] = true
	g.phase = PhaseCommit
	g.toMove = O
	g.move = 1
	return g, nil
}

// Play is the GTP move: c places a piece on p, or passes with Pass. In the
// opening it places the X opening piece (c must be X). After it, it is a
// whole turn in which c announces the row of p and the opponent reveals
// nothing, so the piece stands hidden; "five" and the win claim are made
// for c whenever due (GM-D2). As in GTP, c need not be the player to move;
// the turn then passes to c's opponent.
func (g Game) Play(c engine.Color, p engine.Point) (Game, error) {
	if c != X && c != O {
		return g, fmt.Errorf("gomoku: play: %v is not a player", c)
	}
	if g.phase == PhaseOpening {
		if c != X {
			return g, fmt.Errorf("gomoku: the opening piece is an X: %w", engine.ErrWrongPhase)
		}
		return g.PlaceOpening(p)
	}
	if g.phase == PhaseOver {
		return g, fmt.Errorf("gomoku: play %s: %w", PieceName(c), engine.ErrGameOver)
	}
	orig := g
	g.toMove = c
	if p == engine.Pass {
		next, _, err := g.Turn(Turn{Pass: true})
		if err != nil {
			return orig, err
		}
		return next, nil
	}
	t := Turn{Point: p, Line: LineOf(g.opts.Size, p, Row)}
	if g.legalFor(c, p) {
		s := g.sides[sideIndex(c)]
		s.pieces.Set(p, c)
		t.Five = !s.fiveMade && runThrough(&s.pieces, c, p) >= 5
		t.Lines, t.Claim = DoubleFive(s.pieces, c)
	}
	next, _, err := g.Turn(t)
	if err != nil {
		return orig, err
	}
	return next, nil
}

// Turn plays one whole turn of the player to move (GM-3..GM-7) and returns
// the next game and how the turn ended. A turn that breaks a rule is
// refused: the receiver comes back unchanged with a Violation naming
// the player at fault (the mover, or the opponent for a bad reveal). Other
// errors wrap ErrGameOver, ErrWrongPhase or ErrRule (a malformed
// turn).
func (g Game) Turn(t Turn) (Game, Outcome, error) {
	switch g.phase {
	case PhaseOver:
		return g, 0, fmt.Errorf("gomoku: turn %d: %w", g.move, engine.ErrGameOver)
	case PhaseOpening:
		return g, 0, fmt.Errorf("gomoku: a turn before the opening piece: %w", engine.ErrWrongPhase)
	}
	next, outcome, err := g.turn(t)
	if err != nil {
		return g, 0, err
	}
	return next, outcome, nil
}

// turn does the work of Turn on a copy; the caller drops it on error.
func (g Game) turn(t Turn) (Game, Outcome, error) {
	mover, opp := g.toMove, g.toMove.Opponent()
	size := g.opts.Size
	bad := func(who engine.Color, rule, format string, args ...any) Violation {
		return Violation{Player: who, Rule: rule, Move: g.move, Detail: fmt.Sprintf(format, args...)}
	}
	if t.Pass || t.NoLegalPoint {
		if t.Pass && t.NoLegalPoint || len(t.Revealed) > 0 || t.Five || t.Claim {
			return g, 0, fmt.Errorf("gomoku: turn %d: a pass or a declaration of no legal point carries nothing else: %w", g.move, ErrRule)
		}
		if t.NoLegalPoint {
			// The game ends by itself when the player to move has no
			// legal point, so a live game means the declaration is false.
			return g, 0, bad(mover, "GM-7", "declared no legal point with %d legal points", len(g.LegalPoints(mover)))
		}
		g.passes++
		if g.passes >= 2 {
			g.end(engine.Result{By: engine.ByDraw})
		} else {
			g.nextTurn()
		}
		return g, Passed, nil
	}

	// The mover's commitment and announcement (GM-3, GM-4).
	if !g.onBoard(t.Point) {
		v := bad(mover, "GM-3", "committed point %d is not on the board", t.Point)
		v.Err = engine.ErrOffBoard
		return g, 0, v
	}
	if !t.Line.Contains(size, t.Point) {
		return g, 0, bad(mover, "GM-3", "announced %s does not contain the committed point %s", t.Line.Format(size), t.Point.Vertex(size))
	}
	if g.sides[sideIndex(mover)].pieces.At(t.Point) != engine.Empty {
		v := bad(mover, "GM-4", "committed to %s, which holds its own piece", t.Point.Vertex(size))
		v.Err = engine.ErrOccupied
		return g, 0, v
	}
	if g.Revealed(t.Point) {
		v := bad(mover, "GM-4", "committed to %s, a revealed point", t.Point.Vertex(size))
		v.Err = engine.ErrOccupied
		return g, 0, v
	}

	// The opponent's answer (GM-3).
	oppSide := &g.sides[sideIndex(opp)]
	for i, r := range t.Revealed {
		switch {
		case !g.onBoard(r):
			v := bad(opp, "GM-3", "revealed point %d is not on the board", r)
			v.Err = engine.ErrOffBoard
			return g, 0, v
		case !t.Line.Contains(size, r):
			return g, 0, bad(opp, "GM-3", "revealed %s, outside the announced %s", r.Vertex(size), t.Line.Format(size))
		case oppSide.pieces.At(r) == engine.Empty:
			return g, 0, bad(opp, "GM-3", "revealed %s, where it has no piece", r.Vertex(size))
		case oppSide.shown[r]:
			return g, 0, bad(opp, "GM-3", "revealed %s, a piece revealed before", r.Vertex(size))
		case slices.Contains(t.Revealed[:i], r):
			return g, 0, bad(opp, "GM-3", "revealed %s twice", r.Vertex(size))
		}
	}
	for _, r := range t.Revealed {
		oppSide.shown[r] = true
	}

	// The outcome.
	outcome := PlacedHidden
	if len(t.Revealed) > 0 {
		outcome = PlacedRevealed
		if slices.Contains(t.Revealed, t.Point) {
			outcome = Failed
		}
	}
	if outcome == Failed {
		if t.Five {
			return g, 0, bad(mover, "GM-5", "announced five after a failed move")
		}
		if t.Claim {
			return g, 0, bad(mover, "GM-6", "claimed the win after a failed move")
		}
		g.passes = 0
		g.nextTurn()
		return g, outcome, nil
	}
	s := &g.sides[sideIndex(mover)]
	s.pieces.Set(t.Point, mover)
	s.shown[t.Point] = outcome == PlacedRevealed

	// The declaration (GM-5, GM-6).
	due := !s.fiveMade && runThrough(&s.pieces, mover, t.Point) >= 5
	switch {
	case due && !t.Five:
		return g, 0, bad(mover, "GM-5", "made its first five with %s and did not announce it", t.Point.Vertex(size))
	case !due && t.Five && s.fiveMade:
		return g, 0, bad(mover, "GM-5", "announced five again (its first five came earlier)")
	case !due && t.Five:
		return g, 0, bad(mover, "GM-5", "announced five with no line of five")
	}
	s.fiveMade = s.fiveMade || due
	if t.Claim {
		if err := CheckDoubleFive(s.pieces, mover, t.Lines); err != nil {
			return g, 0, bad(mover, "GM-6", "false win claim: %v", err)
		}
		for _, f := range t.Lines {
			ps, _ := f.Points(size)
			for _, p := range ps {
				s.shown[p] = true
			}
		}
		g.passes = 0
		g.end(engine.Result{Winner: mover, By: engine.ByWin})
		return g, outcome, nil
	}
	g.passes = 0
	g.nextTurn()
	return g, outcome, nil
}

// nextTurn gives the turn to the other player, and ends the game as a draw
// if that player has no legal point (GM-7).
func (g *Game) nextTurn() {
	g.move++
	g.toMove = g.toMove.Opponent()
	if !g.hasLegalPoint(g.toMove) {
		g.stuck = true
		g.end(engine.Result{By: engine.ByDraw})
	}
}

func (g *Game) end(r engine.Result) {
	g.phase = PhaseOver
	g.result = r
}

// Stuck reports whether the game ended because the player to move had no
// legal point (GM-7).
func (g Game) Stuck() bool { return g.stuck }

// String draws the board: X and O for revealed pieces, x and o for hidden
// ones, * where both players have a piece, . for an empty point.
func (g Game) String() string {
	size := g.opts.Size
	var b []byte
	for y := size - 1; y >= 0; y-- {
		b = fmt.Appendf(b, "%2d ", y+1)
		for x := range size {
			p := engine.PointAt(size, x, y)
			xp, op := g.Piece(X, p), g.Piece(O, p)
			ch := byte('.')
			switch {
			case xp != NoPiece && op != NoPiece:
				ch = '*'
			case xp == RevealedPiece:
				ch = 'X'
			case xp == HiddenPiece:
				ch = 'x'
			case op == RevealedPiece:
				ch = 'O'
			case op == HiddenPiece:
				ch = 'o'
			}
			b = append(b, ' ', ch)
		}
		b = append(b, '\n')
	}
	b = append(b, "   "...)
	for x := range size {
		b = append(b, ' ', engine.ColumnLetters[x])
	}
	return string(b) + "\n"
}
