package engine

import (
	"errors"
	"fmt"
	"slices"
)

// Hidden Move Double Gomoku (GM-1..GM-8). This file holds the types every
// caller shares and the full-information game, GomokuGame: a referee that
// knows every piece. gomoku_view.go holds what one player knows during play
// over the network, gomoku_audit.go the audit of a finished game, and
// gomoku_geometry.go the lines of five.

// ErrGomokuRule reports an action or a record that breaks a gomoku rule.
// A GomokuViolation wraps it.
var ErrGomokuRule = errors.New("engine: against the gomoku rules")

// GomokuPhase is the step of the game that is due (GM-2, GM-3).
type GomokuPhase uint8

// The phases, in the order a game goes through them. The actor is who must
// act in the phase; [GomokuView.MyTurn] tells a player whether that is them.
const (
	// GomokuPhaseOpening: the inviting player places the X opening piece
	// ([GomokuView.PlaceOpening], any point).
	GomokuPhaseOpening GomokuPhase = iota + 1
	// GomokuPhaseChooseSide: the invited player chooses X or O
	// ([GomokuView.ChooseSide]).
	GomokuPhaseChooseSide
	// GomokuPhaseCommit: the mover commits to a point
	// ([GomokuView.Commit], one of [GomokuView.LegalPoints]), passes
	// ([GomokuView.Pass]), or, with no legal point, ends the game
	// ([GomokuView.DeclareNoLegalPoint]).
	GomokuPhaseCommit
	// GomokuPhaseAnnounce: the mover announces the row or the column of
	// its committed point ([GomokuView.Announce]).
	GomokuPhaseAnnounce
	// GomokuPhaseRespond: the mover's opponent reveals any of its own
	// hidden pieces in the announced line, possibly none
	// ([GomokuView.Respond], a subset of [GomokuView.HiddenInLine]).
	GomokuPhaseRespond
	// GomokuPhaseReveal: something was revealed, so the mover reveals its
	// committed point ([GomokuView.Reveal]).
	GomokuPhaseReveal
	// GomokuPhaseDeclare: a piece was placed; the mover says "five" if it
	// is due and may claim the win ([GomokuView.Declare],
	// [GomokuView.FiveDue], [GomokuView.WinningLines]).
	GomokuPhaseDeclare
	// GomokuPhaseOver: the game has ended.
	GomokuPhaseOver
)

// String returns the phase's name: "opening", "choose-side", "commit",
// "announce", "respond", "reveal", "declare" or "over".
func (ph GomokuPhase) String() string {
	switch ph {
	case GomokuPhaseOpening:
		return "opening"
	case GomokuPhaseChooseSide:
		return "choose-side"
	case GomokuPhaseCommit:
		return "commit"
	case GomokuPhaseAnnounce:
		return "announce"
	case GomokuPhaseRespond:
		return "respond"
	case GomokuPhaseReveal:
		return "reveal"
	case GomokuPhaseDeclare:
		return "declare"
	case GomokuPhaseOver:
		return "over"
	}
	return fmt.Sprintf("GomokuPhase(%d)", uint8(ph))
}

// GomokuOutcome is how a turn ended.
type GomokuOutcome uint8

// The outcomes of a turn.
const (
	// GomokuPassed: the mover passed (GM-7).
	GomokuPassed GomokuOutcome = iota + 1
	// GomokuPlacedHidden: nothing was revealed; the piece stands hidden.
	GomokuPlacedHidden
	// GomokuPlacedRevealed: the opponent revealed pieces elsewhere in the
	// line; the piece stands revealed.
	GomokuPlacedRevealed
	// GomokuFailed: the opponent revealed a piece on the committed point;
	// nothing was placed (GM-3).
	GomokuFailed
	// GomokuStuck: the mover had no legal point; the game ended as a draw
	// (GM-7).
	GomokuStuck
)

// String returns "pass", "hidden", "revealed", "failed" or "no legal point".
func (o GomokuOutcome) String() string {
	switch o {
	case GomokuPassed:
		return "pass"
	case GomokuPlacedHidden:
		return "hidden"
	case GomokuPlacedRevealed:
		return "revealed"
	case GomokuFailed:
		return "failed"
	case GomokuStuck:
		return "no legal point"
	}
	return fmt.Sprintf("GomokuOutcome(%d)", uint8(o))
}

// GomokuPiece is what one player has on one point.
type GomokuPiece uint8

// The states of a player's piece on a point.
const (
	GomokuNoPiece GomokuPiece = iota
	GomokuHiddenPiece
	GomokuRevealedPiece
)

// GomokuDeclaration is what the mover says after placing a piece.
type GomokuDeclaration struct {
	// Five is the announcement "five" of GM-5: true exactly when this
	// placement made the mover's first line of five.
	Five bool
	// Claim is the win claim of GM-6, with the two lines of five in Lines.
	Claim bool
	Lines [2]GomokuFive
}

// GomokuTurn is one turn with everything about it opened: the mover's
// committed point, the announced line, the points the opponent revealed,
// and the declaration. It is the unit of [GomokuGame.Turn] and of a
// [GomokuRecord]. A pass or a declaration of no legal point has no other
// field set.
type GomokuTurn struct {
	Pass bool
	// NoLegalPoint is the mover's declaration that it has no legal point,
	// which ends the game as a draw (GM-7).
	NoLegalPoint bool
	// Point is the committed point.
	Point Point
	// Line is the announced row or column.
	Line GomokuLine
	// Revealed are the points of the opponent's hidden pieces it revealed
	// in answer (GM-3), in any order.
	Revealed []Point
	GomokuDeclaration
}

// GomokuViolation is a rule broken by a player: found at once from opened
// values during play, or by the audit at the end (GM-8). The player at
// fault loses the game ([GomokuViolation.Result]).
type GomokuViolation struct {
	// Player is the player at fault.
	Player Color
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
func (v GomokuViolation) Error() string {
	return fmt.Sprintf("gomoku: %s broken by %s at move %d: %s", v.Rule, GomokuPieceName(v.Player), v.Move, v.Detail)
}

// Unwrap returns ErrGomokuRule and, when set, the more specific Err.
func (v GomokuViolation) Unwrap() []error {
	if v.Err != nil {
		return []error{ErrGomokuRule, v.Err}
	}
	return []error{ErrGomokuRule}
}

// Result is the result the violation gives: the player at fault loses by
// forfeit, whatever the board says (GM-8).
func (v GomokuViolation) Result() Result {
	return Result{Winner: v.Player.Opponent(), By: ByForfeit}
}

// gomokuSide is one player's pieces in the full-information game.
type gomokuSide struct {
	// pieces holds the player's pieces, hidden or revealed, in the
	// player's colour, ready for the geometry of gomoku_geometry.go.
	pieces Board
	// shown marks the pieces that are revealed.
	shown [MaxPoints]bool
	// fiveMade is set once the player has had a line of five (GM-5).
	fiveMade bool
}

// GomokuGame is a game of Hidden Move Double Gomoku as a referee that knows
// every piece sees it: the GTP engine, local games, and the replay of the
// audit. It knows colours, not people: who invited and who chose which
// side (GM-2) is the business of [GomokuView] and [GomokuRecord]. It is a
// value; its methods return the next game.
type GomokuGame struct {
	opts   Options
	phase  GomokuPhase
	toMove Color
	// move is the index of the next turn: 0 before the opening.
	move   int
	passes int
	sides  [2]gomokuSide
	result Result
	// stuck is set when the game ended because the player to move had no
	// legal point (GM-7).
	stuck bool
}

// NewGomokuGame starts a game. The variant defaults to gomoku; the size to
// 9 (GM-1, 7 to 19 allowed).
func NewGomokuGame(o Options) (GomokuGame, error) {
	if o.Variant == "" {
		o.Variant = VariantGomoku
	}
	if o.Variant != VariantGomoku {
		return GomokuGame{}, fmt.Errorf("%w: a gomoku game with variant %q", ErrBadOptions, o.Variant)
	}
	o, err := o.Normalize()
	if err != nil {
		return GomokuGame{}, err
	}
	b := MustNewBoard(o.Size)
	return GomokuGame{
		opts:   o,
		phase:  GomokuPhaseOpening,
		toMove: GomokuX,
		sides:  [2]gomokuSide{{pieces: b}, {pieces: b}},
	}, nil
}

// Options returns the game's options, defaults filled in.
func (g GomokuGame) Options() Options { return g.opts }

// Size returns the side of the board.
func (g GomokuGame) Size() int { return g.opts.Size }

// Phase returns GomokuPhaseOpening before the opening piece, then
// GomokuPhaseCommit while turns are due, and GomokuPhaseOver at the end.
func (g GomokuGame) Phase() GomokuPhase { return g.phase }

// ToMove returns the player whose turn it is: X for the opening, then O
// first (GM-2).
func (g GomokuGame) ToMove() Color { return g.toMove }

// MoveNumber returns the index of the next turn: 0 before the opening, 1
// for the first turn after it.
func (g GomokuGame) MoveNumber() int { return g.move }

// Passes returns the number of consecutive passes that ended the last turns.
func (g GomokuGame) Passes() int { return g.passes }

// Over reports whether the game has ended.
func (g GomokuGame) Over() bool { return g.phase == GomokuPhaseOver }

// Result returns the result of a finished game: a win (ByWin) or a draw
// (ByDraw). Before the end it is the zero Result.
func (g GomokuGame) Result() Result { return g.result }

// Winner returns the winner of a finished game, or Empty for a draw or a
// game still going (GTP kakure-winner).
func (g GomokuGame) Winner() Color { return g.result.Winner }

// gomokuSideIndex returns the index of c's pieces (c must be X or O).
func gomokuSideIndex(c Color) int { return int(c) - 1 }

// WinnerName returns the answer of GTP kakure-winner: "x", "o" or "none"
// (a draw, or a game still going).
func (g GomokuGame) WinnerName() string {
	if w := g.result.Winner; w == GomokuX || w == GomokuO {
		return GomokuPieceName(w)
	}
	return "none"
}

// Pieces returns a board with c's pieces, hidden and revealed, in colour c.
func (g GomokuGame) Pieces(c Color) Board {
	if c != GomokuX && c != GomokuO {
		return MustNewBoard(g.opts.Size)
	}
	return g.sides[gomokuSideIndex(c)].pieces
}

// Piece returns what c has on p.
func (g GomokuGame) Piece(c Color, p Point) GomokuPiece {
	if c != GomokuX && c != GomokuO || !g.onBoard(p) {
		return GomokuNoPiece
	}
	s := &g.sides[gomokuSideIndex(c)]
	switch {
	case s.pieces.At(p) == Empty:
		return GomokuNoPiece
	case s.shown[p]:
		return GomokuRevealedPiece
	}
	return GomokuHiddenPiece
}

// Revealed reports whether a revealed piece of either player stands on p.
// No piece may be placed there any more (GM-4).
func (g GomokuGame) Revealed(p Point) bool {
	return g.onBoard(p) && (g.sides[0].shown[p] || g.sides[1].shown[p])
}

// HiddenCount returns how many of c's pieces are hidden.
func (g GomokuGame) HiddenCount(c Color) int {
	if c != GomokuX && c != GomokuO {
		return 0
	}
	s := &g.sides[gomokuSideIndex(c)]
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
func (g GomokuGame) FiveMade(c Color) bool {
	return (c == GomokuX || c == GomokuO) && g.sides[gomokuSideIndex(c)].fiveMade
}

func (g GomokuGame) onBoard(p Point) bool { return p >= 0 && int(p) < g.opts.Size*g.opts.Size }

// legalFor reports whether c may place a piece on p (GM-4): the point is on
// the board, holds no revealed piece and no piece of c's own.
func (g GomokuGame) legalFor(c Color, p Point) bool {
	return g.onBoard(p) && !g.Revealed(p) && g.sides[gomokuSideIndex(c)].pieces.At(p) == Empty
}

// LegalPoints returns the points where c may commit now (GM-4), in
// increasing order. A pass is always legal while c has one.
func (g GomokuGame) LegalPoints(c Color) []Point {
	if c != GomokuX && c != GomokuO {
		return nil
	}
	var ps []Point
	for p := Point(0); g.onBoard(p); p++ {
		if g.legalFor(c, p) {
			ps = append(ps, p)
		}
	}
	return ps
}

// hasLegalPoint reports whether c has any legal point.
func (g GomokuGame) hasLegalPoint(c Color) bool {
	for p := Point(0); g.onBoard(p); p++ {
		if g.legalFor(c, p) {
			return true
		}
	}
	return false
}

// PlaceOpening places the X opening piece, in the open (GM-2). O moves next.
func (g GomokuGame) PlaceOpening(p Point) (GomokuGame, error) {
	if g.phase != GomokuPhaseOpening {
		return g, fmt.Errorf("gomoku: opening piece after the opening: %w", ErrWrongPhase)
	}
	if !g.onBoard(p) {
		return g, GomokuViolation{Player: GomokuX, Rule: "GM-2", Move: 0, Detail: fmt.Sprintf("opening piece off the board (%d)", p), Err: ErrOffBoard}
	}
	x := &g.sides[gomokuSideIndex(GomokuX)]
	x.pieces.Set(p, GomokuX)
	x.shown[p] = true
	g.phase = GomokuPhaseCommit
	g.toMove = GomokuO
	g.move = 1
	return g, nil
}

// Play is the GTP move: c places a piece on p, or passes with Pass. In the
// opening it places the X opening piece (c must be X). After it, it is a
// whole turn in which c announces the row of p and the opponent reveals
// nothing, so the piece stands hidden; "five" and the win claim are made
// for c whenever due (GM-D2). As in GTP, c need not be the player to move;
// the turn then passes to c's opponent.
func (g GomokuGame) Play(c Color, p Point) (GomokuGame, error) {
	if c != GomokuX && c != GomokuO {
		return g, fmt.Errorf("gomoku: play: %v is not a player", c)
	}
	if g.phase == GomokuPhaseOpening {
		if c != GomokuX {
			return g, fmt.Errorf("gomoku: the opening piece is an X: %w", ErrWrongPhase)
		}
		return g.PlaceOpening(p)
	}
	if g.phase == GomokuPhaseOver {
		return g, fmt.Errorf("gomoku: play %s: %w", GomokuPieceName(c), ErrGameOver)
	}
	orig := g
	g.toMove = c
	if p == Pass {
		next, _, err := g.Turn(GomokuTurn{Pass: true})
		if err != nil {
			return orig, err
		}
		return next, nil
	}
	t := GomokuTurn{Point: p, Line: GomokuLineOf(g.opts.Size, p, GomokuRow)}
	if g.legalFor(c, p) {
		s := g.sides[gomokuSideIndex(c)]
		s.pieces.Set(p, c)
		t.Five = !s.fiveMade && gomokuRunThrough(&s.pieces, c, p) >= 5
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
// refused: the receiver comes back unchanged with a GomokuViolation naming
// the player at fault (the mover, or the opponent for a bad reveal). Other
// errors wrap ErrGameOver, ErrWrongPhase or ErrGomokuRule (a malformed
// turn).
func (g GomokuGame) Turn(t GomokuTurn) (GomokuGame, GomokuOutcome, error) {
	switch g.phase {
	case GomokuPhaseOver:
		return g, 0, fmt.Errorf("gomoku: turn %d: %w", g.move, ErrGameOver)
	case GomokuPhaseOpening:
		return g, 0, fmt.Errorf("gomoku: a turn before the opening piece: %w", ErrWrongPhase)
	}
	next, outcome, err := g.turn(t)
	if err != nil {
		return g, 0, err
	}
	return next, outcome, nil
}

// turn does the work of Turn on a copy; the caller drops it on error.
func (g GomokuGame) turn(t GomokuTurn) (GomokuGame, GomokuOutcome, error) {
	mover, opp := g.toMove, g.toMove.Opponent()
	size := g.opts.Size
	bad := func(who Color, rule, format string, args ...any) GomokuViolation {
		return GomokuViolation{Player: who, Rule: rule, Move: g.move, Detail: fmt.Sprintf(format, args...)}
	}
	if t.Pass || t.NoLegalPoint {
		if t.Pass && t.NoLegalPoint || len(t.Revealed) > 0 || t.Five || t.Claim {
			return g, 0, fmt.Errorf("gomoku: turn %d: a pass or a declaration of no legal point carries nothing else: %w", g.move, ErrGomokuRule)
		}
		if t.NoLegalPoint {
			// The game ends by itself when the player to move has no
			// legal point, so a live game means the declaration is false.
			return g, 0, bad(mover, "GM-7", "declared no legal point with %d legal points", len(g.LegalPoints(mover)))
		}
		g.passes++
		if g.passes >= 2 {
			g.end(Result{By: ByDraw})
		} else {
			g.nextTurn()
		}
		return g, GomokuPassed, nil
	}

	// The mover's commitment and announcement (GM-3, GM-4).
	if !g.onBoard(t.Point) {
		v := bad(mover, "GM-3", "committed point %d is not on the board", t.Point)
		v.Err = ErrOffBoard
		return g, 0, v
	}
	if !t.Line.Contains(size, t.Point) {
		return g, 0, bad(mover, "GM-3", "announced %s does not contain the committed point %s", t.Line.Format(size), t.Point.Vertex(size))
	}
	if g.sides[gomokuSideIndex(mover)].pieces.At(t.Point) != Empty {
		v := bad(mover, "GM-4", "committed to %s, which holds its own piece", t.Point.Vertex(size))
		v.Err = ErrOccupied
		return g, 0, v
	}
	if g.Revealed(t.Point) {
		v := bad(mover, "GM-4", "committed to %s, a revealed point", t.Point.Vertex(size))
		v.Err = ErrOccupied
		return g, 0, v
	}

	// The opponent's answer (GM-3).
	oppSide := &g.sides[gomokuSideIndex(opp)]
	for i, r := range t.Revealed {
		switch {
		case !g.onBoard(r):
			v := bad(opp, "GM-3", "revealed point %d is not on the board", r)
			v.Err = ErrOffBoard
			return g, 0, v
		case !t.Line.Contains(size, r):
			return g, 0, bad(opp, "GM-3", "revealed %s, outside the announced %s", r.Vertex(size), t.Line.Format(size))
		case oppSide.pieces.At(r) == Empty:
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
	outcome := GomokuPlacedHidden
	if len(t.Revealed) > 0 {
		outcome = GomokuPlacedRevealed
		if slices.Contains(t.Revealed, t.Point) {
			outcome = GomokuFailed
		}
	}
	if outcome == GomokuFailed {
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
	s := &g.sides[gomokuSideIndex(mover)]
	s.pieces.Set(t.Point, mover)
	s.shown[t.Point] = outcome == GomokuPlacedRevealed

	// The declaration (GM-5, GM-6).
	due := !s.fiveMade && gomokuRunThrough(&s.pieces, mover, t.Point) >= 5
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
		g.end(Result{Winner: mover, By: ByWin})
		return g, outcome, nil
	}
	g.passes = 0
	g.nextTurn()
	return g, outcome, nil
}

// nextTurn gives the turn to the other player, and ends the game as a draw
// if that player has no legal point (GM-7).
func (g *GomokuGame) nextTurn() {
	g.move++
	g.toMove = g.toMove.Opponent()
	if !g.hasLegalPoint(g.toMove) {
		g.stuck = true
		g.end(Result{By: ByDraw})
	}
}

func (g *GomokuGame) end(r Result) {
	g.phase = GomokuPhaseOver
	g.result = r
}

// Stuck reports whether the game ended because the player to move had no
// legal point (GM-7).
func (g GomokuGame) Stuck() bool { return g.stuck }

// String draws the board: X and O for revealed pieces, x and o for hidden
// ones, * where both players have a piece, . for an empty point.
func (g GomokuGame) String() string {
	size := g.opts.Size
	var b []byte
	for y := size - 1; y >= 0; y-- {
		b = fmt.Appendf(b, "%2d ", y+1)
		for x := range size {
			p := PointAt(size, x, y)
			xp, op := g.Piece(GomokuX, p), g.Piece(GomokuO, p)
			ch := byte('.')
			switch {
			case xp != GomokuNoPiece && op != GomokuNoPiece:
				ch = '*'
			case xp == GomokuRevealedPiece:
				ch = 'X'
			case xp == GomokuHiddenPiece:
				ch = 'x'
			case op == GomokuRevealedPiece:
				ch = 'O'
			case op == GomokuHiddenPiece:
				ch = 'o'
			}
			b = append(b, ' ', ch)
		}
		b = append(b, '\n')
	}
	b = append(b, "   "...)
	for x := range size {
		b = append(b, ' ', ColumnLetters[x])
	}
	return string(b) + "\n"
}
