package gomoku

import (
	"fmt"
	"math"
	"slices"

	"github.com/kakure/kakure/engine"
)

// never is the reveal time of a point where nothing was revealed.
// Turn numbers fit in an int16: a game has fewer than 10·size² turns (each
// player places at most size² pieces, each failed move needs a reveal, and
// no two passes follow each other), far below maxMove.
const never = math.MaxInt16

// maxMove bounds the turn number a view accepts, so that a broken
// peer cannot overflow it.
const maxMove = 30000

// viewPoint is what a view knows of one point.
type viewPoint struct {
	// mine and theirs are the turns that placed this player's piece and
	// the opponent's known (revealed) piece here, or -1.
	mine, theirs int16
	// revealedAt is the first turn in which a piece here was revealed.
	revealedAt int16
	// mineShown is set when this player's piece here is revealed.
	mineShown bool
}

// View is the game as one player knows it during play over the
// network (GM-2, GM-3): its own pieces, hidden or revealed; the opponent's
// revealed pieces; every announced line and answer; and how many hidden
// pieces the opponent has, not where. It runs the phase machine of a turn.
//
// The player's own actions (PlaceOpening, ChooseSide, Commit, Pass,
// DeclareNoLegalPoint, Announce, Respond, Reveal, Declare) return the next
// view and the [Event] to send; an illegal action returns the
// receiver unchanged and an error. The opponent's actions come in through
// [View.Observe], which checks at once everything the opened values
// allow (T-6).
//
// A view is a value: its methods never change the receiver, and two views
// never share memory that either writes.
type View struct {
	size    int
	seat    Seat
	me      engine.Color
	phase   Phase
	mover   engine.Color
	move    int
	opening engine.Point
	points  [engine.MaxPoints]viewPoint
	// own holds this player's pieces in its colour, for the geometry.
	own engine.Board
	// oppHidden and oppShown count the opponent's hidden and revealed
	// pieces.
	oppHidden, oppShown int
	// fiveMade: this player has had a line of five; oppFive: the opponent
	// has announced five.
	fiveMade, oppFive bool
	passes            int
	// notes are the finished turns, notes[k-1] for turn k. They are copied
	// before any write (the slices inside a note are never written).
	notes []TurnNote
	// cur is the turn in progress: the committed point (this player's, or
	// the opponent's once known), the line and the points revealed.
	cur        Turn
	curOutcome Outcome
	result     engine.Result
	violation  Violation
	violated   bool
}

// NewView starts the view of the player in seat. The variant defaults
// to gomoku; the size to 9.
func NewView(o engine.Options, seat Seat) (View, error) {
	g, err := NewGame(o)
	if err != nil {
		return View{}, err
	}
	if seat != Inviter && seat != Invitee {
		return View{}, fmt.Errorf("%w: gomoku seat %d", engine.ErrBadOptions, seat)
	}
	v := View{
		size:    g.Size(),
		seat:    seat,
		phase:   PhaseOpening,
		opening: engine.NoPoint,
		own:     engine.MustNewBoard(g.Size()),
		cur:     Turn{Point: engine.NoPoint},
	}
	for i := range v.points {
		v.points[i] = viewPoint{mine: -1, theirs: -1, revealedAt: never}
	}
	return v, nil
}

// Size returns the side of the board.
func (v View) Size() int { return v.size }

// Seat returns whether this player invited or was invited.
func (v View) Seat() Seat { return v.seat }

// Me returns this player's colour, Empty before the side is chosen.
func (v View) Me() engine.Color { return v.me }

// Phase returns the step of the game that is due.
func (v View) Phase() Phase { return v.phase }

// Mover returns the player whose turn it is, Empty before the sides are
// chosen and after the end.
func (v View) Mover() engine.Color {
	if v.phase == PhaseOver {
		return engine.Empty
	}
	return v.mover
}

// MoveNumber returns the index of the turn in progress (1 for the first
// turn after the opening; 0 before).
func (v View) MoveNumber() int { return v.move }

// MyTurn reports whether this player must act now: place the opening as
// the inviter, choose the side as the invitee, respond while the opponent
// moves, and commit, announce, reveal and declare in its own turn.
func (v View) MyTurn() bool {
	switch v.phase {
	case PhaseOpening:
		return v.seat == Inviter
	case PhaseChooseSide:
		return v.seat == Invitee
	case PhaseCommit, PhaseAnnounce, PhaseReveal, PhaseDeclare:
		return v.mover == v.me
	case PhaseRespond:
		return v.mover != v.me
	}
	return false
}

// Over reports whether the game has ended.
func (v View) Over() bool { return v.phase == PhaseOver }

// Result returns the result of a finished game: a win, a draw, or a forfeit
// after a violation found at once.
func (v View) Result() engine.Result { return v.result }

// Violation returns the opponent's violation that ended the game, if one
// did.
func (v View) Violation() (Violation, bool) { return v.violation, v.violated }

// OpeningPoint returns the point of the X opening piece, or NoPoint.
func (v View) OpeningPoint() engine.Point { return v.opening }

func (v View) onBoard(p engine.Point) bool { return p >= 0 && int(p) < v.size*v.size }

// Own returns what this player has on p.
func (v View) Own(p engine.Point) Piece {
	switch {
	case !v.onBoard(p) || v.points[p].mine < 0:
		return NoPiece
	case v.points[p].mineShown:
		return RevealedPiece
	}
	return HiddenPiece
}

// OwnPieces returns a board with this player's pieces in its colour.
func (v View) OwnPieces() engine.Board { return v.own }

// OpponentPiece reports whether a revealed piece of the opponent stands on
// p (the opponent's hidden pieces are not known).
func (v View) OpponentPiece(p engine.Point) bool { return v.onBoard(p) && v.points[p].theirs >= 0 }

// OpponentPieces returns a board with the opponent's revealed pieces in
// its colour.
func (v View) OpponentPieces() engine.Board {
	b := engine.MustNewBoard(v.size)
	for p := engine.Point(0); v.onBoard(p); p++ {
		if v.points[p].theirs >= 0 {
			b.Set(p, v.me.Opponent())
		}
	}
	return b
}

// OpponentHidden returns how many hidden pieces the opponent has.
func (v View) OpponentHidden() int { return v.oppHidden }

// Revealed reports whether a revealed piece stands on p: no piece may be
// placed there (GM-4).
func (v View) Revealed(p engine.Point) bool {
	return v.onBoard(p) && v.points[p].revealedAt != never
}

// FiveAnnounced reports whether c has announced five (for this player:
// whether it has had a line of five).
func (v View) FiveAnnounced(c engine.Color) bool {
	switch {
	case c == engine.Empty:
		return false
	case c == v.me:
		return v.fiveMade
	}
	return v.oppFive
}

// LegalPoints returns the points this player may commit to (GM-4): no
// revealed piece and no own piece there. They are legal whatever hidden
// opponent pieces stand on them. Nil before the side is chosen.
func (v View) LegalPoints() []engine.Point {
	if v.me == engine.Empty {
		return nil
	}
	var ps []engine.Point
	for p := engine.Point(0); v.onBoard(p); p++ {
		if v.legal(p) {
			ps = append(ps, p)
		}
	}
	return ps
}

func (v *View) legal(p engine.Point) bool {
	return v.onBoard(p) && v.points[p].revealedAt == never && v.points[p].mine < 0
}

func (v *View) hasLegalPoint() bool {
	for p := engine.Point(0); v.onBoard(p); p++ {
		if v.legal(p) {
			return true
		}
	}
	return false
}

// HiddenInLine returns this player's hidden pieces on l, in increasing
// order: what it may reveal when the opponent announces l (GM-3).
func (v View) HiddenInLine(l Line) []engine.Point {
	var ps []engine.Point
	for _, p := range l.Points(v.size) {
		if v.points[p].mine >= 0 && !v.points[p].mineShown {
			ps = append(ps, p)
		}
	}
	return ps
}

// Committed returns the point of the turn in progress when this player
// knows it (its own commitment, or the opponent's once revealed), else
// NoPoint.
func (v View) Committed() engine.Point { return v.cur.Point }

// Announced returns the line announced in the turn in progress, or the
// zero Line before the announcement.
func (v View) Announced() Line { return v.cur.Line }

// JustRevealed returns the points revealed in answer in the turn in
// progress.
func (v View) JustRevealed() []engine.Point { return slices.Clone(v.cur.Revealed) }

// FiveDue reports whether this player, in its declaration, must announce
// five: the piece it just placed made its first line of five (GM-5).
func (v View) FiveDue() bool {
	if v.phase != PhaseDeclare || v.mover != v.me {
		return false
	}
	return !v.fiveMade && runThrough(&v.own, v.me, v.cur.Point) >= 5
}

// WinningLines returns two lines of five of this player's pieces that
// share at most one piece, if it has them (GM-6).
func (v View) WinningLines() ([2]Five, bool) {
	if v.me == engine.Empty {
		return [2]Five{}, false
	}
	return DoubleFive(v.own, v.me)
}

// History returns the finished turns as this player knows them, the first
// turn after the opening first.
func (v View) History() []TurnNote {
	h := make([]TurnNote, len(v.notes))
	for i, n := range v.notes {
		n.Turn.Revealed = slices.Clone(n.Turn.Revealed)
		h[i] = n
	}
	return h
}

// Record returns the game's record for the audit of GM-8, with the
// opponent's commitments that are still closed filled in from opened (one
// opening per hidden opponent piece, opened at the end). It holds the
// finished turns.
func (v View) Record(opened []Opening) (Record, error) {
	if v.me == engine.Empty {
		return Record{}, fmt.Errorf("gomoku: record before the side was chosen: %w", engine.ErrWrongPhase)
	}
	choice := v.me
	if v.seat == Inviter {
		choice = v.me.Opponent()
	}
	rec := Record{Size: v.size, Opening: v.opening, InviteeChoice: choice, Turns: make([]Turn, len(v.notes))}
	for i, n := range v.notes {
		rec.Turns[i] = n.Turn
		rec.Turns[i].Revealed = slices.Clone(n.Turn.Revealed)
	}
	for _, o := range opened {
		if o.Move < 1 || o.Move > len(v.notes) || v.notes[o.Move-1].Mover == v.me || v.notes[o.Move-1].Turn.Pass || v.notes[o.Move-1].Turn.NoLegalPoint {
			return Record{}, fmt.Errorf("gomoku: record: opening of move %d, which is no commitment of the opponent: %w", o.Move, ErrRule)
		}
		t := &rec.Turns[o.Move-1]
		if t.Point != engine.NoPoint && t.Point != o.Point {
			return Record{}, fmt.Errorf("gomoku: record: move %d opened at %s, known at %s: %w", o.Move, o.Point.Vertex(v.size), t.Point.Vertex(v.size), ErrRule)
		}
		t.Point = o.Point
	}
	for i, t := range rec.Turns {
		if !t.Pass && !t.NoLegalPoint && t.Point == engine.NoPoint {
			return Record{}, fmt.Errorf("gomoku: record: the commitment of move %d is not opened: %w", i+1, ErrRule)
		}
	}
	return rec, nil
}

// act checks that this player may act now in phase ph.
func (v *View) act(ph Phase, what string) error {
	switch {
	case v.phase == PhaseOver:
		return fmt.Errorf("gomoku: %s: %w", what, engine.ErrGameOver)
	case v.phase != ph:
		return fmt.Errorf("gomoku: %s in the %s phase: %w", what, v.phase, engine.ErrWrongPhase)
	case !v.MyTurn():
		return fmt.Errorf("gomoku: %s: %w", what, engine.ErrNotYourTurn)
	case v.move >= maxMove:
		return fmt.Errorf("gomoku: %s: game longer than %d turns: %w", what, maxMove, ErrRule)
	}
	return nil
}

// PlaceOpening places the X opening piece on p; the inviter does it (GM-2).
func (v View) PlaceOpening(p engine.Point) (View, Event, error) {
	if err := v.act(PhaseOpening, "opening piece"); err != nil {
		return v, Event{}, err
	}
	if !v.onBoard(p) {
		return v, Event{}, fmt.Errorf("gomoku: opening piece at %d: %w", p, engine.ErrOffBoard)
	}
	v.placeOpening(p)
	return v, Event{Kind: EventOpening, Point: p}, nil
}

func (v *View) placeOpening(p engine.Point) {
	v.opening = p
	v.points[p].revealedAt = 0
	v.phase = PhaseChooseSide
}

// ChooseSide chooses X (X) or O (O) for the invited player
// (GM-2). X owns the opening piece; O moves first.
func (v View) ChooseSide(c engine.Color) (View, Event, error) {
	if err := v.act(PhaseChooseSide, "choose side"); err != nil {
		return v, Event{}, err
	}
	if c != X && c != O {
		return v, Event{}, fmt.Errorf("gomoku: choose side %v (want x or o): %w", c, ErrRule)
	}
	v.takeSides(c)
	return v, Event{Kind: EventSide, Side: c}, nil
}

// takeSides settles the colours from the invited player's choice.
func (v *View) takeSides(choice engine.Color) {
	v.me = choice
	if v.seat == Inviter {
		v.me = choice.Opponent()
	}
	if v.me == X {
		v.points[v.opening].mine = 0
		v.points[v.opening].mineShown = true
		v.own.Set(v.opening, v.me)
	} else {
		v.points[v.opening].theirs = 0
		v.oppShown = 1
	}
	v.mover = X // nextTurn hands the first turn to O
	v.nextTurn()
}

// nextTurn starts the next turn, of the other player.
func (v *View) nextTurn() {
	v.move++
	v.mover = v.mover.Opponent()
	v.phase = PhaseCommit
	v.cur = Turn{Point: engine.NoPoint}
	v.curOutcome = 0
}

// addNote appends a finished turn (the slice is copied, never shared).
func (v *View) addNote(n TurnNote) {
	v.notes = append(slices.Clip(v.notes), n)
}

// end ends the game.
func (v *View) end(r engine.Result) {
	v.phase = PhaseOver
	v.result = r
}

// Commit commits this player, the mover, to p, one of LegalPoints. The
// point stays secret; the event only says that a commitment was made.
func (v View) Commit(p engine.Point) (View, Event, error) {
	if err := v.act(PhaseCommit, "commit"); err != nil {
		return v, Event{}, err
	}
	if !v.legal(p) {
		return v, Event{}, fmt.Errorf("gomoku: commit to %s: revealed, own or off the board: %w", p.Vertex(v.size), engine.ErrOccupied)
	}
	v.cur.Point = p
	v.phase = PhaseAnnounce
	return v, Event{Kind: EventCommit}, nil
}

// Pass passes the turn (GM-7). A player with no legal point must declare
// it instead.
func (v View) Pass() (View, Event, error) {
	if err := v.act(PhaseCommit, "pass"); err != nil {
		return v, Event{}, err
	}
	if !v.hasLegalPoint() {
		return v, Event{}, fmt.Errorf("gomoku: pass with no legal point (the game is a draw, declare it): %w", ErrRule)
	}
	v.pass()
	return v, Event{Kind: EventPass}, nil
}

func (v *View) pass() {
	v.addNote(TurnNote{Mover: v.mover, Turn: Turn{Pass: true, Point: engine.NoPoint}, Outcome: Passed})
	v.passes++
	if v.passes >= 2 {
		v.end(engine.Result{By: engine.ByDraw})
		return
	}
	v.nextTurn()
}

// DeclareNoLegalPoint ends the game as a draw when this player, the mover,
// has no legal point (GM-7). Only this player can know it; the audit
// checks it.
func (v View) DeclareNoLegalPoint() (View, Event, error) {
	if err := v.act(PhaseCommit, "declare no legal point"); err != nil {
		return v, Event{}, err
	}
	if v.hasLegalPoint() {
		return v, Event{}, fmt.Errorf("gomoku: declare no legal point with legal points left: %w", ErrRule)
	}
	v.stuck()
	return v, Event{Kind: EventNoLegalPoint}, nil
}

func (v *View) stuck() {
	v.addNote(TurnNote{Mover: v.mover, Turn: Turn{NoLegalPoint: true, Point: engine.NoPoint}, Outcome: Stuck})
	v.end(engine.Result{By: engine.ByDraw})
}

// Announce announces the row (Row) or the column (Column) of
// the committed point (GM-3).
func (v View) Announce(kind LineKind) (View, Event, error) {
	if err := v.act(PhaseAnnounce, "announce"); err != nil {
		return v, Event{}, err
	}
	if kind != Row && kind != Column {
		return v, Event{}, fmt.Errorf("gomoku: announce %v (want row or column): %w", kind, ErrRule)
	}
	v.cur.Line = LineOf(v.size, v.cur.Point, kind)
	v.phase = PhaseRespond
	return v, Event{Kind: EventAnnounce, Line: v.cur.Line}, nil
}

// Respond reveals this player's hidden pieces on the points given, all on
// the announced line (any subset of HiddenInLine, possibly empty). The
// event carries the openings of those pieces.
func (v View) Respond(points []engine.Point) (View, Event, error) {
	if err := v.act(PhaseRespond, "respond"); err != nil {
		return v, Event{}, err
	}
	openings := make([]Opening, 0, len(points))
	for i, p := range points {
		switch {
		case !v.cur.Line.Contains(v.size, p):
			return v, Event{}, fmt.Errorf("gomoku: respond with %s, outside %s: %w", p.Vertex(v.size), v.cur.Line.Format(v.size), ErrRule)
		case v.points[p].mine < 0 || v.points[p].mineShown:
			return v, Event{}, fmt.Errorf("gomoku: respond with %s, where this player has no hidden piece: %w", p.Vertex(v.size), ErrRule)
		case slices.Contains(points[:i], p):
			return v, Event{}, fmt.Errorf("gomoku: respond with %s twice: %w", p.Vertex(v.size), ErrRule)
		}
		openings = append(openings, Opening{Move: int(v.points[p].mine), Point: p})
	}
	slices.SortFunc(openings, func(a, b Opening) int { return int(a.Point) - int(b.Point) })
	revealed := make([]engine.Point, len(openings))
	for i, o := range openings {
		revealed[i] = o.Point
		v.points[o.Point].mineShown = true
		v.points[o.Point].revealedAt = min(v.points[o.Point].revealedAt, int16(v.move))
	}
	v.cur.Revealed = revealed
	if len(revealed) > 0 {
		v.phase = PhaseReveal
	} else {
		v.oppHidden++
		v.curOutcome = PlacedHidden
		v.phase = PhaseDeclare
	}
	return v, Event{Kind: EventResponse, Openings: openings}, nil
}

// Reveal reveals this player's committed point after the opponent revealed
// pieces in the line (GM-3). The move fails if the point is among them;
// otherwise the piece stands revealed and the declaration is due.
func (v View) Reveal() (View, Event, error) {
	if err := v.act(PhaseReveal, "reveal"); err != nil {
		return v, Event{}, err
	}
	p := v.cur.Point
	ev := Event{Kind: EventReveal, Point: p}
	if slices.Contains(v.cur.Revealed, p) {
		v.addNote(TurnNote{Mover: v.me, Turn: v.cur, Outcome: Failed})
		v.passes = 0
		v.nextTurn()
		return v, ev, nil
	}
	v.points[p].mine = int16(v.move)
	v.points[p].mineShown = true
	v.points[p].revealedAt = min(v.points[p].revealedAt, int16(v.move))
	v.own.Set(p, v.me)
	v.curOutcome = PlacedRevealed
	v.phase = PhaseDeclare
	return v, ev, nil
}

// Declare makes this player's declaration after its placement: Five must
// be FiveDue (GM-5); a claim must name two lines of five of its pieces that
// share at most one piece (GM-6, see WinningLines) and wins the game at
// once. The event carries the openings of the claimed pieces still hidden.
func (v View) Declare(d Declaration) (View, Event, error) {
	if err := v.act(PhaseDeclare, "declare"); err != nil {
		return v, Event{}, err
	}
	if due := v.FiveDue(); d.Five != due {
		return v, Event{}, fmt.Errorf("gomoku: declare five=%t, but five is due=%t: %w", d.Five, due, ErrRule)
	}
	if !d.Claim {
		d.Lines = [2]Five{}
	}
	var openings []Opening
	if d.Claim {
		if err := CheckDoubleFive(v.own, v.me, d.Lines); err != nil {
			return v, Event{}, fmt.Errorf("gomoku: claim: %w (%w)", err, ErrRule)
		}
		for _, p := range claimPoints(v.size, d.Lines) {
			if !v.points[p].mineShown {
				openings = append(openings, Opening{Move: int(v.points[p].mine), Point: p})
				v.points[p].mineShown = true
				v.points[p].revealedAt = min(v.points[p].revealedAt, int16(v.move))
			}
		}
	}
	v.fiveMade = v.fiveMade || d.Five
	v.cur.Declaration = d
	v.addNote(TurnNote{Mover: v.me, Turn: v.cur, Outcome: v.curOutcome})
	v.passes = 0
	if d.Claim {
		v.end(engine.Result{Winner: v.me, By: engine.ByWin})
	} else {
		v.nextTurn()
	}
	return v, Event{Kind: EventDeclare, Declaration: d, Openings: openings}, nil
}

// claimPoints returns the distinct points of two valid lines, in
// increasing order.
func claimPoints(size int, lines [2]Five) []engine.Point {
	var ps []engine.Point
	for _, f := range lines {
		fp, _ := f.Points(size)
		ps = append(ps, fp[:]...)
	}
	slices.Sort(ps)
	return slices.Compact(ps)
}

// forfeit ends the game for a violation of the opponent found at once.
func (v View) forfeit(viol Violation) View {
	v.violation, v.violated = viol, true
	v.end(viol.Result())
	return v
}
