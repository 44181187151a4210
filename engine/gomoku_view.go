package engine

import (
	"fmt"
	"math"
	"slices"
)

// GomokuSeat says which side of the invitation a player is on (GM-2):
// colours come only after the invited player has chosen.
type GomokuSeat uint8

// The seats.
const (
	// GomokuInviter places the X opening piece.
	GomokuInviter GomokuSeat = iota + 1
	// GomokuInvitee then chooses to be X or O.
	GomokuInvitee
)

// String returns "inviter" or "invitee".
func (s GomokuSeat) String() string {
	switch s {
	case GomokuInviter:
		return "inviter"
	case GomokuInvitee:
		return "invitee"
	}
	return fmt.Sprintf("GomokuSeat(%d)", uint8(s))
}

// GomokuOpening is the opening of one commitment: the piece that turn Move
// placed stands on Point. Hidden pieces are revealed this way, in answer to
// an announced line (GM-3) or in a win claim (GM-6); the protocol checks the
// commitment, the engine checks the point against the rules.
type GomokuOpening struct {
	Move  int
	Point Point
}

// GomokuEventKind names what a player did, as its opponent is told.
type GomokuEventKind uint8

// The events, one per action of [GomokuView].
const (
	// GomokuEventOpening: the X opening piece, at Point.
	GomokuEventOpening GomokuEventKind = iota + 1
	// GomokuEventSide: the invited player chose Side (X or O).
	GomokuEventSide
	// GomokuEventCommit: the mover committed to a point; the commitment
	// itself travels in the protocol, the point stays secret.
	GomokuEventCommit
	// GomokuEventPass: the mover passed.
	GomokuEventPass
	// GomokuEventNoLegalPoint: the mover has no legal point; draw (GM-7).
	GomokuEventNoLegalPoint
	// GomokuEventAnnounce: the mover announced Line.
	GomokuEventAnnounce
	// GomokuEventResponse: the opponent revealed the pieces in Openings
	// (possibly none).
	GomokuEventResponse
	// GomokuEventReveal: the mover revealed its committed point, Point.
	GomokuEventReveal
	// GomokuEventDeclare: the mover's Declaration after a placement; for a
	// claim, Openings reveal the still hidden pieces of the two lines.
	GomokuEventDeclare
)

// String returns the event's name.
func (k GomokuEventKind) String() string {
	switch k {
	case GomokuEventOpening:
		return "opening"
	case GomokuEventSide:
		return "side"
	case GomokuEventCommit:
		return "commit"
	case GomokuEventPass:
		return "pass"
	case GomokuEventNoLegalPoint:
		return "no-legal-point"
	case GomokuEventAnnounce:
		return "announce"
	case GomokuEventResponse:
		return "response"
	case GomokuEventReveal:
		return "reveal"
	case GomokuEventDeclare:
		return "declare"
	}
	return fmt.Sprintf("GomokuEventKind(%d)", uint8(k))
}

// GomokuEvent is what a player's action tells the opponent: the actions of
// [GomokuView] return one, and the opponent's view takes it in
// [GomokuView.Observe]. Only the fields of its Kind are used.
type GomokuEvent struct {
	Kind        GomokuEventKind
	Point       Point
	Side        Color
	Line        GomokuLine
	Openings    []GomokuOpening
	Declaration GomokuDeclaration
}

// GomokuTurnNote is one finished turn as a player knows it. Turn.Point is
// NoPoint for an opponent's piece that is still hidden.
type GomokuTurnNote struct {
	Mover   Color
	Turn    GomokuTurn
	Outcome GomokuOutcome
}

// gomokuNever is the reveal time of a point where nothing was revealed.
// Turn numbers fit in an int16: a game has fewer than 10·size² turns (each
// player places at most size² pieces, each failed move needs a reveal, and
// no two passes follow each other), far below gomokuMaxMove.
const gomokuNever = math.MaxInt16

// gomokuMaxMove bounds the turn number a view accepts, so that a broken
// peer cannot overflow it.
const gomokuMaxMove = 30000

// gomokuViewPoint is what a view knows of one point.
type gomokuViewPoint struct {
	// mine and theirs are the turns that placed this player's piece and
	// the opponent's known (revealed) piece here, or -1.
	mine, theirs int16
	// revealedAt is the first turn in which a piece here was revealed.
	revealedAt int16
	// mineShown is set when this player's piece here is revealed.
	mineShown bool
}

// GomokuView is the game as one player knows it during play over the
// network (GM-2, GM-3): its own pieces, hidden or revealed; the opponent's
// revealed pieces; every announced line and answer; and how many hidden
// pieces the opponent has, not where. It runs the phase machine of a turn.
//
// The player's own actions (PlaceOpening, ChooseSide, Commit, Pass,
// DeclareNoLegalPoint, Announce, Respond, Reveal, Declare) return the next
// view and the [GomokuEvent] to send; an illegal action returns the
// receiver unchanged and an error. The opponent's actions come in through
// [GomokuView.Observe], which checks at once everything the opened values
// allow (T-6).
//
// A view is a value: its methods never change the receiver, and two views
// never share memory that either writes.
type GomokuView struct {
	size    int
	seat    GomokuSeat
	me      Color
	phase   GomokuPhase
	mover   Color
	move    int
	opening Point
	points  [MaxPoints]gomokuViewPoint
	// own holds this player's pieces in its colour, for the geometry.
	own Board
	// oppHidden and oppShown count the opponent's hidden and revealed
	// pieces.
	oppHidden, oppShown int
	// fiveMade: this player has had a line of five; oppFive: the opponent
	// has announced five.
	fiveMade, oppFive bool
	passes            int
	// notes are the finished turns, notes[k-1] for turn k. They are copied
	// before any write (the slices inside a note are never written).
	notes []GomokuTurnNote
	// cur is the turn in progress: the committed point (this player's, or
	// the opponent's once known), the line and the points revealed.
	cur        GomokuTurn
	curOutcome GomokuOutcome
	result     Result
	violation  GomokuViolation
	violated   bool
}

// NewGomokuView starts the view of the player in seat. The variant defaults
// to gomoku; the size to 9.
func NewGomokuView(o Options, seat GomokuSeat) (GomokuView, error) {
	g, err := NewGomokuGame(o)
	if err != nil {
		return GomokuView{}, err
	}
	if seat != GomokuInviter && seat != GomokuInvitee {
		return GomokuView{}, fmt.Errorf("%w: gomoku seat %d", ErrBadOptions, seat)
	}
	v := GomokuView{
		size:    g.Size(),
		seat:    seat,
		phase:   GomokuPhaseOpening,
		opening: NoPoint,
		own:     MustNewBoard(g.Size()),
		cur:     GomokuTurn{Point: NoPoint},
	}
	for i := range v.points {
		v.points[i] = gomokuViewPoint{mine: -1, theirs: -1, revealedAt: gomokuNever}
	}
	return v, nil
}

// Size returns the side of the board.
func (v GomokuView) Size() int { return v.size }

// Seat returns whether this player invited or was invited.
func (v GomokuView) Seat() GomokuSeat { return v.seat }

// Me returns this player's colour, Empty before the side is chosen.
func (v GomokuView) Me() Color { return v.me }

// Phase returns the step of the game that is due.
func (v GomokuView) Phase() GomokuPhase { return v.phase }

// Mover returns the player whose turn it is, Empty before the sides are
// chosen and after the end.
func (v GomokuView) Mover() Color {
	if v.phase == GomokuPhaseOver {
		return Empty
	}
	return v.mover
}

// MoveNumber returns the index of the turn in progress (1 for the first
// turn after the opening; 0 before).
func (v GomokuView) MoveNumber() int { return v.move }

// MyTurn reports whether this player must act now: place the opening as
// the inviter, choose the side as the invitee, respond while the opponent
// moves, and commit, announce, reveal and declare in its own turn.
func (v GomokuView) MyTurn() bool {
	switch v.phase {
	case GomokuPhaseOpening:
		return v.seat == GomokuInviter
	case GomokuPhaseChooseSide:
		return v.seat == GomokuInvitee
	case GomokuPhaseCommit, GomokuPhaseAnnounce, GomokuPhaseReveal, GomokuPhaseDeclare:
		return v.mover == v.me
	case GomokuPhaseRespond:
		return v.mover != v.me
	}
	return false
}

// Over reports whether the game has ended.
func (v GomokuView) Over() bool { return v.phase == GomokuPhaseOver }

// Result returns the result of a finished game: a win, a draw, or a forfeit
// after a violation found at once.
func (v GomokuView) Result() Result { return v.result }

// Violation returns the opponent's violation that ended the game, if one
// did.
func (v GomokuView) Violation() (GomokuViolation, bool) { return v.violation, v.violated }

// OpeningPoint returns the point of the X opening piece, or NoPoint.
func (v GomokuView) OpeningPoint() Point { return v.opening }

func (v GomokuView) onBoard(p Point) bool { return p >= 0 && int(p) < v.size*v.size }

// Own returns what this player has on p.
func (v GomokuView) Own(p Point) GomokuPiece {
	switch {
	case !v.onBoard(p) || v.points[p].mine < 0:
		return GomokuNoPiece
	case v.points[p].mineShown:
		return GomokuRevealedPiece
	}
	return GomokuHiddenPiece
}

// OwnPieces returns a board with this player's pieces in its colour.
func (v GomokuView) OwnPieces() Board { return v.own }

// OpponentPiece reports whether a revealed piece of the opponent stands on
// p (the opponent's hidden pieces are not known).
func (v GomokuView) OpponentPiece(p Point) bool { return v.onBoard(p) && v.points[p].theirs >= 0 }

// OpponentPieces returns a board with the opponent's revealed pieces in
// its colour.
func (v GomokuView) OpponentPieces() Board {
	b := MustNewBoard(v.size)
	for p := Point(0); v.onBoard(p); p++ {
		if v.points[p].theirs >= 0 {
			b.Set(p, v.me.Opponent())
		}
	}
	return b
}

// OpponentHidden returns how many hidden pieces the opponent has.
func (v GomokuView) OpponentHidden() int { return v.oppHidden }

// Revealed reports whether a revealed piece stands on p: no piece may be
// placed there (GM-4).
func (v GomokuView) Revealed(p Point) bool {
	return v.onBoard(p) && v.points[p].revealedAt != gomokuNever
}

// FiveAnnounced reports whether c has announced five (for this player:
// whether it has had a line of five).
func (v GomokuView) FiveAnnounced(c Color) bool {
	switch {
	case c == Empty:
		return false
	case c == v.me:
		return v.fiveMade
	}
	return v.oppFive
}

// LegalPoints returns the points this player may commit to (GM-4): no
// revealed piece and no own piece there. They are legal whatever hidden
// opponent pieces stand on them. Nil before the side is chosen.
func (v GomokuView) LegalPoints() []Point {
	if v.me == Empty {
		return nil
	}
	var ps []Point
	for p := Point(0); v.onBoard(p); p++ {
		if v.legal(p) {
			ps = append(ps, p)
		}
	}
	return ps
}

func (v *GomokuView) legal(p Point) bool {
	return v.onBoard(p) && v.points[p].revealedAt == gomokuNever && v.points[p].mine < 0
}

func (v *GomokuView) hasLegalPoint() bool {
	for p := Point(0); v.onBoard(p); p++ {
		if v.legal(p) {
			return true
		}
	}
	return false
}

// HiddenInLine returns this player's hidden pieces on l, in increasing
// order: what it may reveal when the opponent announces l (GM-3).
func (v GomokuView) HiddenInLine(l GomokuLine) []Point {
	var ps []Point
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
func (v GomokuView) Committed() Point { return v.cur.Point }

// Announced returns the line announced in the turn in progress, or the
// zero GomokuLine before the announcement.
func (v GomokuView) Announced() GomokuLine { return v.cur.Line }

// JustRevealed returns the points revealed in answer in the turn in
// progress.
func (v GomokuView) JustRevealed() []Point { return slices.Clone(v.cur.Revealed) }

// FiveDue reports whether this player, in its declaration, must announce
// five: the piece it just placed made its first line of five (GM-5).
func (v GomokuView) FiveDue() bool {
	if v.phase != GomokuPhaseDeclare || v.mover != v.me {
		return false
	}
	return !v.fiveMade && gomokuRunThrough(&v.own, v.me, v.cur.Point) >= 5
}

// WinningLines returns two lines of five of this player's pieces that
// share at most one piece, if it has them (GM-6).
func (v GomokuView) WinningLines() ([2]GomokuFive, bool) {
	if v.me == Empty {
		return [2]GomokuFive{}, false
	}
	return DoubleFive(v.own, v.me)
}

// History returns the finished turns as this player knows them, the first
// turn after the opening first.
func (v GomokuView) History() []GomokuTurnNote {
	h := make([]GomokuTurnNote, len(v.notes))
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
func (v GomokuView) Record(opened []GomokuOpening) (GomokuRecord, error) {
	if v.me == Empty {
		return GomokuRecord{}, fmt.Errorf("gomoku: record before the side was chosen: %w", ErrWrongPhase)
	}
	choice := v.me
	if v.seat == GomokuInviter {
		choice = v.me.Opponent()
	}
	rec := GomokuRecord{Size: v.size, Opening: v.opening, InviteeChoice: choice, Turns: make([]GomokuTurn, len(v.notes))}
	for i, n := range v.notes {
		rec.Turns[i] = n.Turn
		rec.Turns[i].Revealed = slices.Clone(n.Turn.Revealed)
	}
	for _, o := range opened {
		if o.Move < 1 || o.Move > len(v.notes) || v.notes[o.Move-1].Mover == v.me || v.notes[o.Move-1].Turn.Pass || v.notes[o.Move-1].Turn.NoLegalPoint {
			return GomokuRecord{}, fmt.Errorf("gomoku: record: opening of move %d, which is no commitment of the opponent: %w", o.Move, ErrGomokuRule)
		}
		t := &rec.Turns[o.Move-1]
		if t.Point != NoPoint && t.Point != o.Point {
			return GomokuRecord{}, fmt.Errorf("gomoku: record: move %d opened at %s, known at %s: %w", o.Move, o.Point.Vertex(v.size), t.Point.Vertex(v.size), ErrGomokuRule)
		}
		t.Point = o.Point
	}
	for i, t := range rec.Turns {
		if !t.Pass && !t.NoLegalPoint && t.Point == NoPoint {
			return GomokuRecord{}, fmt.Errorf("gomoku: record: the commitment of move %d is not opened: %w", i+1, ErrGomokuRule)
		}
	}
	return rec, nil
}

// act checks that this player may act now in phase ph.
func (v *GomokuView) act(ph GomokuPhase, what string) error {
	switch {
	case v.phase == GomokuPhaseOver:
		return fmt.Errorf("gomoku: %s: %w", what, ErrGameOver)
	case v.phase != ph:
		return fmt.Errorf("gomoku: %s in the %s phase: %w", what, v.phase, ErrWrongPhase)
	case !v.MyTurn():
		return fmt.Errorf("gomoku: %s: %w", what, ErrNotYourTurn)
	case v.move >= gomokuMaxMove:
		return fmt.Errorf("gomoku: %s: game longer than %d turns: %w", what, gomokuMaxMove, ErrGomokuRule)
	}
	return nil
}

// PlaceOpening places the X opening piece on p; the inviter does it (GM-2).
func (v GomokuView) PlaceOpening(p Point) (GomokuView, GomokuEvent, error) {
	if err := v.act(GomokuPhaseOpening, "opening piece"); err != nil {
		return v, GomokuEvent{}, err
	}
	if !v.onBoard(p) {
		return v, GomokuEvent{}, fmt.Errorf("gomoku: opening piece at %d: %w", p, ErrOffBoard)
	}
	v.placeOpening(p)
	return v, GomokuEvent{Kind: GomokuEventOpening, Point: p}, nil
}

func (v *GomokuView) placeOpening(p Point) {
	v.opening = p
	v.points[p].revealedAt = 0
	v.phase = GomokuPhaseChooseSide
}

// ChooseSide chooses X (GomokuX) or O (GomokuO) for the invited player
// (GM-2). X owns the opening piece; O moves first.
func (v GomokuView) ChooseSide(c Color) (GomokuView, GomokuEvent, error) {
	if err := v.act(GomokuPhaseChooseSide, "choose side"); err != nil {
		return v, GomokuEvent{}, err
	}
	if c != GomokuX && c != GomokuO {
		return v, GomokuEvent{}, fmt.Errorf("gomoku: choose side %v (want x or o): %w", c, ErrGomokuRule)
	}
	v.takeSides(c)
	return v, GomokuEvent{Kind: GomokuEventSide, Side: c}, nil
}

// takeSides settles the colours from the invited player's choice.
func (v *GomokuView) takeSides(choice Color) {
	v.me = choice
	if v.seat == GomokuInviter {
		v.me = choice.Opponent()
	}
	if v.me == GomokuX {
		v.points[v.opening].mine = 0
		v.points[v.opening].mineShown = true
		v.own.Set(v.opening, v.me)
	} else {
		v.points[v.opening].theirs = 0
		v.oppShown = 1
	}
	v.mover = GomokuX // nextTurn hands the first turn to O
	v.nextTurn()
}

// nextTurn starts the next turn, of the other player.
func (v *GomokuView) nextTurn() {
	v.move++
	v.mover = v.mover.Opponent()
	v.phase = GomokuPhaseCommit
	v.cur = GomokuTurn{Point: NoPoint}
	v.curOutcome = 0
}

// addNote appends a finished turn (the slice is copied, never shared).
func (v *GomokuView) addNote(n GomokuTurnNote) {
	v.notes = append(slices.Clip(v.notes), n)
}

// end ends the game.
func (v *GomokuView) end(r Result) {
	v.phase = GomokuPhaseOver
	v.result = r
}

// Commit commits this player, the mover, to p, one of LegalPoints. The
// point stays secret; the event only says that a commitment was made.
func (v GomokuView) Commit(p Point) (GomokuView, GomokuEvent, error) {
	if err := v.act(GomokuPhaseCommit, "commit"); err != nil {
		return v, GomokuEvent{}, err
	}
	if !v.legal(p) {
		return v, GomokuEvent{}, fmt.Errorf("gomoku: commit to %s: revealed, own or off the board: %w", p.Vertex(v.size), ErrOccupied)
	}
	v.cur.Point = p
	v.phase = GomokuPhaseAnnounce
	return v, GomokuEvent{Kind: GomokuEventCommit}, nil
}

// Pass passes the turn (GM-7). A player with no legal point must declare
// it instead.
func (v GomokuView) Pass() (GomokuView, GomokuEvent, error) {
	if err := v.act(GomokuPhaseCommit, "pass"); err != nil {
		return v, GomokuEvent{}, err
	}
	if !v.hasLegalPoint() {
		return v, GomokuEvent{}, fmt.Errorf("gomoku: pass with no legal point (the game is a draw, declare it): %w", ErrGomokuRule)
	}
	v.pass()
	return v, GomokuEvent{Kind: GomokuEventPass}, nil
}

func (v *GomokuView) pass() {
	v.addNote(GomokuTurnNote{Mover: v.mover, Turn: GomokuTurn{Pass: true, Point: NoPoint}, Outcome: GomokuPassed})
	v.passes++
	if v.passes >= 2 {
		v.end(Result{By: ByDraw})
		return
	}
	v.nextTurn()
}

// DeclareNoLegalPoint ends the game as a draw when this player, the mover,
// has no legal point (GM-7). Only this player can know it; the audit
// checks it.
func (v GomokuView) DeclareNoLegalPoint() (GomokuView, GomokuEvent, error) {
	if err := v.act(GomokuPhaseCommit, "declare no legal point"); err != nil {
		return v, GomokuEvent{}, err
	}
	if v.hasLegalPoint() {
		return v, GomokuEvent{}, fmt.Errorf("gomoku: declare no legal point with legal points left: %w", ErrGomokuRule)
	}
	v.stuck()
	return v, GomokuEvent{Kind: GomokuEventNoLegalPoint}, nil
}

func (v *GomokuView) stuck() {
	v.addNote(GomokuTurnNote{Mover: v.mover, Turn: GomokuTurn{NoLegalPoint: true, Point: NoPoint}, Outcome: GomokuStuck})
	v.end(Result{By: ByDraw})
}

// Announce announces the row (GomokuRow) or the column (GomokuColumn) of
// the committed point (GM-3).
func (v GomokuView) Announce(kind GomokuLineKind) (GomokuView, GomokuEvent, error) {
	if err := v.act(GomokuPhaseAnnounce, "announce"); err != nil {
		return v, GomokuEvent{}, err
	}
	if kind != GomokuRow && kind != GomokuColumn {
		return v, GomokuEvent{}, fmt.Errorf("gomoku: announce %v (want row or column): %w", kind, ErrGomokuRule)
	}
	v.cur.Line = GomokuLineOf(v.size, v.cur.Point, kind)
	v.phase = GomokuPhaseRespond
	return v, GomokuEvent{Kind: GomokuEventAnnounce, Line: v.cur.Line}, nil
}

// Respond reveals this player's hidden pieces on the points given, all on
// the announced line (any subset of HiddenInLine, possibly empty). The
// event carries the openings of those pieces.
func (v GomokuView) Respond(points []Point) (GomokuView, GomokuEvent, error) {
	if err := v.act(GomokuPhaseRespond, "respond"); err != nil {
		return v, GomokuEvent{}, err
	}
	openings := make([]GomokuOpening, 0, len(points))
	for i, p := range points {
		switch {
		case !v.cur.Line.Contains(v.size, p):
			return v, GomokuEvent{}, fmt.Errorf("gomoku: respond with %s, outside %s: %w", p.Vertex(v.size), v.cur.Line.Format(v.size), ErrGomokuRule)
		case v.points[p].mine < 0 || v.points[p].mineShown:
			return v, GomokuEvent{}, fmt.Errorf("gomoku: respond with %s, where this player has no hidden piece: %w", p.Vertex(v.size), ErrGomokuRule)
		case slices.Contains(points[:i], p):
			return v, GomokuEvent{}, fmt.Errorf("gomoku: respond with %s twice: %w", p.Vertex(v.size), ErrGomokuRule)
		}
		openings = append(openings, GomokuOpening{Move: int(v.points[p].mine), Point: p})
	}
	slices.SortFunc(openings, func(a, b GomokuOpening) int { return int(a.Point) - int(b.Point) })
	revealed := make([]Point, len(openings))
	for i, o := range openings {
		revealed[i] = o.Point
		v.points[o.Point].mineShown = true
		v.points[o.Point].revealedAt = min(v.points[o.Point].revealedAt, int16(v.move))
	}
	v.cur.Revealed = revealed
	if len(revealed) > 0 {
		v.phase = GomokuPhaseReveal
	} else {
		v.oppHidden++
		v.curOutcome = GomokuPlacedHidden
		v.phase = GomokuPhaseDeclare
	}
	return v, GomokuEvent{Kind: GomokuEventResponse, Openings: openings}, nil
}

// Reveal reveals this player's committed point after the opponent revealed
// pieces in the line (GM-3). The move fails if the point is among them;
// otherwise the piece stands revealed and the declaration is due.
func (v GomokuView) Reveal() (GomokuView, GomokuEvent, error) {
	if err := v.act(GomokuPhaseReveal, "reveal"); err != nil {
		return v, GomokuEvent{}, err
	}
	p := v.cur.Point
	ev := GomokuEvent{Kind: GomokuEventReveal, Point: p}
	if slices.Contains(v.cur.Revealed, p) {
		v.addNote(GomokuTurnNote{Mover: v.me, Turn: v.cur, Outcome: GomokuFailed})
		v.passes = 0
		v.nextTurn()
		return v, ev, nil
	}
	v.points[p].mine = int16(v.move)
	v.points[p].mineShown = true
	v.points[p].revealedAt = min(v.points[p].revealedAt, int16(v.move))
	v.own.Set(p, v.me)
	v.curOutcome = GomokuPlacedRevealed
	v.phase = GomokuPhaseDeclare
	return v, ev, nil
}

// Declare makes this player's declaration after its placement: Five must
// be FiveDue (GM-5); a claim must name two lines of five of its pieces that
// share at most one piece (GM-6, see WinningLines) and wins the game at
// once. The event carries the openings of the claimed pieces still hidden.
func (v GomokuView) Declare(d GomokuDeclaration) (GomokuView, GomokuEvent, error) {
	if err := v.act(GomokuPhaseDeclare, "declare"); err != nil {
		return v, GomokuEvent{}, err
	}
	if due := v.FiveDue(); d.Five != due {
		return v, GomokuEvent{}, fmt.Errorf("gomoku: declare five=%t, but five is due=%t: %w", d.Five, due, ErrGomokuRule)
	}
	if !d.Claim {
		d.Lines = [2]GomokuFive{}
	}
	var openings []GomokuOpening
	if d.Claim {
		if err := CheckDoubleFive(v.own, v.me, d.Lines); err != nil {
			return v, GomokuEvent{}, fmt.Errorf("gomoku: claim: %w (%w)", err, ErrGomokuRule)
		}
		for _, p := range gomokuClaimPoints(v.size, d.Lines) {
			if !v.points[p].mineShown {
				openings = append(openings, GomokuOpening{Move: int(v.points[p].mine), Point: p})
				v.points[p].mineShown = true
				v.points[p].revealedAt = min(v.points[p].revealedAt, int16(v.move))
			}
		}
	}
	v.fiveMade = v.fiveMade || d.Five
	v.cur.GomokuDeclaration = d
	v.addNote(GomokuTurnNote{Mover: v.me, Turn: v.cur, Outcome: v.curOutcome})
	v.passes = 0
	if d.Claim {
		v.end(Result{Winner: v.me, By: ByWin})
	} else {
		v.nextTurn()
	}
	return v, GomokuEvent{Kind: GomokuEventDeclare, Declaration: d, Openings: openings}, nil
}

// gomokuClaimPoints returns the distinct points of two valid lines, in
// increasing order.
func gomokuClaimPoints(size int, lines [2]GomokuFive) []Point {
	var ps []Point
	for _, f := range lines {
		fp, _ := f.Points(size)
		ps = append(ps, fp[:]...)
	}
	slices.Sort(ps)
	return slices.Compact(ps)
}

// forfeit ends the game for a violation of the opponent found at once.
func (v GomokuView) forfeit(viol GomokuViolation) GomokuView {
	v.violation, v.violated = viol, true
	v.end(viol.Result())
	return v
}

// Observe takes in the opponent's action. It returns the next view, or:
//   - for an event that is malformed or not due now, the receiver unchanged
//     and an error wrapping ErrWrongPhase, ErrNotYourTurn, ErrGameOver,
//     ErrOffBoard or ErrGomokuRule (T-10);
//   - for an event that proves the opponent broke a rule (a revealed point
//     outside the announced line, a line that did not contain its point, a
//     piece on a revealed point, a false claim, a five announced twice …),
//     the finished view, which the opponent has lost (GM-8), and the
//     GomokuViolation.
func (v GomokuView) Observe(e GomokuEvent) (GomokuView, error) {
	if v.phase == GomokuPhaseOver {
		return v, fmt.Errorf("gomoku: %s event: %w", e.Kind, ErrGameOver)
	}
	if v.MyTurn() {
		return v, fmt.Errorf("gomoku: %s event while this player must act: %w", e.Kind, ErrNotYourTurn)
	}
	if v.move >= gomokuMaxMove {
		return v, fmt.Errorf("gomoku: %s event: game longer than %d turns: %w", e.Kind, gomokuMaxMove, ErrGomokuRule)
	}
	if gomokuEventPhase(e.Kind) != v.phase {
		return v, fmt.Errorf("gomoku: %s event in the %s phase: %w", e.Kind, v.phase, ErrWrongPhase)
	}
	switch e.Kind {
	case GomokuEventOpening:
		if !v.onBoard(e.Point) {
			return v, fmt.Errorf("gomoku: opening piece at %d: %w", e.Point, ErrOffBoard)
		}
		v.placeOpening(e.Point)
		return v, nil
	case GomokuEventSide:
		if e.Side != GomokuX && e.Side != GomokuO {
			return v, fmt.Errorf("gomoku: side %v chosen (want x or o): %w", e.Side, ErrGomokuRule)
		}
		v.takeSides(e.Side)
		return v, nil
	case GomokuEventCommit:
		v.phase = GomokuPhaseAnnounce
		return v, nil
	case GomokuEventPass:
		v.pass()
		return v, nil
	case GomokuEventNoLegalPoint:
		v.stuck()
		return v, nil
	case GomokuEventAnnounce:
		if !e.Line.Valid(v.size) {
			return v, fmt.Errorf("gomoku: announced %s: %w", e.Line.Format(v.size), ErrGomokuRule)
		}
		v.cur.Line = e.Line
		v.phase = GomokuPhaseRespond
		return v, nil
	case GomokuEventResponse:
		return v.observeResponse(e.Openings)
	case GomokuEventReveal:
		return v.observeReveal(e.Point)
	}
	return v.observeDeclare(e.Declaration, e.Openings)
}

// gomokuEventPhase returns the phase in which an event of kind k is due.
func gomokuEventPhase(k GomokuEventKind) GomokuPhase {
	switch k {
	case GomokuEventOpening:
		return GomokuPhaseOpening
	case GomokuEventSide:
		return GomokuPhaseChooseSide
	case GomokuEventCommit, GomokuEventPass, GomokuEventNoLegalPoint:
		return GomokuPhaseCommit
	case GomokuEventAnnounce:
		return GomokuPhaseAnnounce
	case GomokuEventResponse:
		return GomokuPhaseRespond
	case GomokuEventReveal:
		return GomokuPhaseReveal
	case GomokuEventDeclare:
		return GomokuPhaseDeclare
	}
	return 0
}

// violationAt returns a violation of the opponent at turn move.
func (v *GomokuView) violationAt(move int, rule, format string, args ...any) GomokuViolation {
	return GomokuViolation{Player: v.me.Opponent(), Rule: rule, Move: move, Detail: fmt.Sprintf(format, args...)}
}

// openOpponentPiece checks the opening o of a hidden opponent piece against
// what this view knows, and records it. badRef is the rule a reference to
// no hidden piece breaks (GM-3 in a response, GM-6 in a claim).
func (v *GomokuView) openOpponentPiece(o GomokuOpening, badRef string) (GomokuViolation, bool) {
	k, p := o.Move, o.Point
	var line GomokuLine
	switch {
	case k >= 1 && k < v.move && v.notes[k-1].Mover != v.me && v.notes[k-1].Outcome == GomokuPlacedHidden && v.notes[k-1].Turn.Point == NoPoint:
		line = v.notes[k-1].Turn.Line
	case k == v.move && v.phase == GomokuPhaseDeclare && v.curOutcome == GomokuPlacedHidden && v.cur.Point == NoPoint:
		line = v.cur.Line
	default:
		return v.violationAt(v.move, badRef, "opened move %d at %s, which placed no hidden piece of its own", k, p.Vertex(v.size)), true
	}
	if !line.Contains(v.size, p) {
		return v.violationAt(k, "GM-3", "announced %s for a piece at %s", line.Format(v.size), p.Vertex(v.size)), true
	}
	if at := v.points[p].revealedAt; at < int16(k) {
		return v.violationAt(k, "GM-4", "placed a piece on %s, revealed in move %d", p.Vertex(v.size), at), true
	}
	if j := int(v.points[p].theirs); j >= 0 {
		return v.violationAt(max(j, k), "GM-4", "placed a piece on %s, where it had one already (moves %d and %d)", p.Vertex(v.size), min(j, k), max(j, k)), true
	}
	v.points[p].theirs = int16(k)
	v.points[p].revealedAt = min(v.points[p].revealedAt, int16(v.move))
	v.oppHidden--
	v.oppShown++
	if k < v.move {
		v.notes = slices.Clone(v.notes)
		v.notes[k-1].Turn.Point = p
	} else {
		v.cur.Point = p
	}
	return GomokuViolation{}, false
}

// checkOpponentCount catches an opponent with more pieces than points:
// some two stand on one point (GM-4).
func (v *GomokuView) checkOpponentCount() (GomokuViolation, bool) {
	if v.oppHidden+v.oppShown > v.size*v.size {
		return v.violationAt(v.move, "GM-4", "has %d pieces on %d points", v.oppHidden+v.oppShown, v.size*v.size), true
	}
	return GomokuViolation{}, false
}

func (v GomokuView) observeResponse(openings []GomokuOpening) (GomokuView, error) {
	for _, o := range openings {
		if !v.onBoard(o.Point) {
			return v, fmt.Errorf("gomoku: response opens move %d at %d: %w", o.Move, o.Point, ErrOffBoard)
		}
	}
	next := v
	revealed := make([]Point, 0, len(openings))
	for _, o := range openings {
		if !next.cur.Line.Contains(next.size, o.Point) {
			viol := next.violationAt(next.move, "GM-3", "revealed %s, outside the announced %s", o.Point.Vertex(next.size), next.cur.Line.Format(next.size))
			return v.forfeit(viol), viol
		}
		if viol, bad := next.openOpponentPiece(o, "GM-3"); bad {
			return v.forfeit(viol), viol
		}
		revealed = append(revealed, o.Point)
	}
	slices.Sort(revealed)
	next.cur.Revealed = revealed
	if len(revealed) > 0 {
		next.phase = GomokuPhaseReveal
		return next, nil
	}
	p := next.cur.Point
	next.points[p].mine = int16(next.move)
	next.own.Set(p, next.me)
	next.curOutcome = GomokuPlacedHidden
	next.phase = GomokuPhaseDeclare
	return next, nil
}

func (v GomokuView) observeReveal(p Point) (GomokuView, error) {
	if !v.onBoard(p) {
		return v, fmt.Errorf("gomoku: revealed point %d: %w", p, ErrOffBoard)
	}
	if !v.cur.Line.Contains(v.size, p) {
		viol := v.violationAt(v.move, "GM-3", "committed to %s and announced %s", p.Vertex(v.size), v.cur.Line.Format(v.size))
		return v.forfeit(viol), viol
	}
	if at := v.points[p].revealedAt; at < int16(v.move) {
		viol := v.violationAt(v.move, "GM-4", "committed to %s, revealed in move %d", p.Vertex(v.size), at)
		viol.Err = ErrOccupied
		return v.forfeit(viol), viol
	}
	next := v
	next.cur.Point = p
	if slices.Contains(next.cur.Revealed, p) {
		next.addNote(GomokuTurnNote{Mover: next.mover, Turn: next.cur, Outcome: GomokuFailed})
		next.passes = 0
		next.nextTurn()
		return next, nil
	}
	next.points[p].theirs = int16(next.move)
	next.points[p].revealedAt = int16(next.move)
	next.oppShown++
	next.curOutcome = GomokuPlacedRevealed
	next.phase = GomokuPhaseDeclare
	return next, nil
}

func (v GomokuView) observeDeclare(d GomokuDeclaration, openings []GomokuOpening) (GomokuView, error) {
	if !d.Claim {
		if len(openings) > 0 {
			return v, fmt.Errorf("gomoku: declaration opens pieces without a claim: %w", ErrGomokuRule)
		}
		d.Lines = [2]GomokuFive{}
	}
	for _, o := range openings {
		if !v.onBoard(o.Point) {
			return v, fmt.Errorf("gomoku: claim opens move %d at %d: %w", o.Move, o.Point, ErrOffBoard)
		}
	}
	next := v
	opp := next.me.Opponent()
	if viol, bad := next.checkOpponentCount(); bad {
		return v.forfeit(viol), viol
	}
	if d.Claim {
		var onLines [MaxPoints]bool
		for i, f := range d.Lines {
			ps, ok := f.Points(next.size)
			if !ok {
				viol := next.violationAt(next.move, "GM-6", "false win claim: line %d (%s) is not a window of five of the board", i+1, f.Format(next.size))
				return v.forfeit(viol), viol
			}
			for _, p := range ps {
				onLines[p] = true
			}
		}
		if n := d.Lines[0].Shared(next.size, d.Lines[1]); n > 1 {
			viol := next.violationAt(next.move, "GM-6", "false win claim: %s and %s share %d pieces", d.Lines[0].Format(next.size), d.Lines[1].Format(next.size), n)
			return v.forfeit(viol), viol
		}
		for _, o := range openings {
			if !onLines[o.Point] {
				viol := next.violationAt(next.move, "GM-6", "opened %s, not on the claimed lines", o.Point.Vertex(next.size))
				return v.forfeit(viol), viol
			}
			if viol, bad := next.openOpponentPiece(o, "GM-6"); bad {
				return v.forfeit(viol), viol
			}
		}
		if err := CheckDoubleFive(next.OpponentPieces(), opp, d.Lines); err != nil {
			viol := next.violationAt(next.move, "GM-6", "false win claim: %v", err)
			return v.forfeit(viol), viol
		}
	}
	switch {
	case d.Five && next.oppFive:
		viol := next.violationAt(next.move, "GM-5", "announced five again (its first five came earlier)")
		return v.forfeit(viol), viol
	case !d.Five && !next.oppFive && HasFive(next.OpponentPieces(), opp):
		viol := next.violationAt(next.move, "GM-5", "has a line of five of revealed pieces and never announced five")
		return v.forfeit(viol), viol
	}
	next.oppFive = next.oppFive || d.Five
	next.cur.GomokuDeclaration = d
	next.addNote(GomokuTurnNote{Mover: opp, Turn: next.cur, Outcome: next.curOutcome})
	next.passes = 0
	if d.Claim {
		next.end(Result{Winner: opp, By: ByWin})
	} else {
		next.nextTurn()
	}
	return next, nil
}
