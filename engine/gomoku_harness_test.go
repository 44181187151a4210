package engine

import (
	"errors"
	"slices"
	"testing"
)

// This file holds the test harness of Hidden Move Double Gomoku: a duel of
// two GomokuViews, one per player, exchanging events as the protocol would,
// with a full-information GomokuGame played in step, and a check that the
// three agree after every turn.

// gv parses a GTP vertex for a test.
func gv(t testing.TB, size int, s string) Point {
	t.Helper()
	p, err := ParseVertex(size, s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// gvs parses vertices for a test.
func gvs(t testing.TB, size int, ss ...string) []Point {
	t.Helper()
	ps := make([]Point, len(ss))
	for i, s := range ss {
		ps[i] = gv(t, size, s)
	}
	return ps
}

type gomokuDuel struct {
	t    testing.TB
	size int
	// views[0] is the inviter's, views[1] the invitee's.
	views [2]GomokuView
	game  GomokuGame
	// keepStuck leaves a player with no legal point to declare it itself.
	keepStuck bool
}

// newGomokuDuel starts a game: the inviter places the opening piece, the
// invitee chooses its side.
func newGomokuDuel(t testing.TB, size int, opening Point, choice Color) *gomokuDuel {
	t.Helper()
	d := &gomokuDuel{t: t, size: size}
	o := Options{Variant: VariantGomoku, Size: size}
	var err error
	if d.views[0], err = NewGomokuView(o, GomokuInviter); err != nil {
		t.Fatal(err)
	}
	if d.views[1], err = NewGomokuView(o, GomokuInvitee); err != nil {
		t.Fatal(err)
	}
	if d.game, err = NewGomokuGame(o); err != nil {
		t.Fatal(err)
	}
	next, e, err := d.views[0].PlaceOpening(opening)
	d.deliver(0, next, e, err)
	next, e, err = d.views[1].ChooseSide(choice)
	d.deliver(1, next, e, err)
	if d.game, err = d.game.PlaceOpening(opening); err != nil {
		t.Fatal(err)
	}
	d.check()
	return d
}

// seat returns the index of the view of the player with colour c.
func (d *gomokuDuel) seat(c Color) int {
	if d.views[0].Me() == c {
		return 0
	}
	return 1
}

// of returns the view of the player with colour c.
func (d *gomokuDuel) of(c Color) *GomokuView { return &d.views[d.seat(c)] }

// deliver stores the result of the action of views[i] and has the other
// view observe its event.
func (d *gomokuDuel) deliver(i int, next GomokuView, e GomokuEvent, err error) {
	d.t.Helper()
	if err != nil {
		d.t.Fatalf("%s's action: %v", d.views[i].Seat(), err)
	}
	d.views[i] = next
	o, err := d.views[1-i].Observe(e)
	if err != nil {
		d.t.Fatalf("%s observing %s: %v", d.views[1-i].Seat(), e.Kind, err)
	}
	d.views[1-i] = o
}

// act is deliver for the player with colour c.
func (d *gomokuDuel) act(c Color, next GomokuView, e GomokuEvent, err error) {
	d.t.Helper()
	d.deliver(d.seat(c), next, e, err)
}

// turn plays a whole turn of the player to move: commit to p, announce the
// line of the given kind, the opponent reveals reveals, the mover reveals
// when it must and declares what is due (claiming any win). The same turn
// goes to the full-information game; the outcomes must agree.
func (d *gomokuDuel) turn(p Point, kind GomokuLineKind, reveals []Point) GomokuOutcome {
	d.t.Helper()
	mover := d.game.ToMove()
	d.begin(p, kind, reveals)
	var dec GomokuDeclaration
	if d.of(mover).Phase() == GomokuPhaseDeclare {
		dec.Five = d.of(mover).FiveDue()
		dec.Lines, dec.Claim = d.of(mover).WinningLines()
	}
	return d.finish(p, kind, reveals, dec)
}

// begin plays a turn up to the declaration: commit, announce, respond and
// reveal.
func (d *gomokuDuel) begin(p Point, kind GomokuLineKind, reveals []Point) {
	d.t.Helper()
	mover := d.game.ToMove()
	opp := mover.Opponent()
	if got := d.of(mover).Mover(); got != mover {
		d.t.Fatalf("views say %s moves, game says %s", GomokuPieceName(got), GomokuPieceName(mover))
	}
	next, e, err := d.of(mover).Commit(p)
	d.act(mover, next, e, err)
	next, e, err = d.of(mover).Announce(kind)
	d.act(mover, next, e, err)
	next, e, err = d.of(opp).Respond(reveals)
	d.act(opp, next, e, err)
	if d.of(mover).Phase() == GomokuPhaseReveal {
		next, e, err = d.of(mover).Reveal()
		d.act(mover, next, e, err)
	}
}

// finish makes the declaration dec if a piece was placed, plays the turn
// in the full-information game and checks.
func (d *gomokuDuel) finish(p Point, kind GomokuLineKind, reveals []Point, dec GomokuDeclaration) GomokuOutcome {
	d.t.Helper()
	mover := d.game.ToMove()
	if d.of(mover).Phase() == GomokuPhaseDeclare {
		next, e, err := d.of(mover).Declare(dec)
		d.act(mover, next, e, err)
	}
	g, outcome, err := d.game.Turn(GomokuTurn{Point: p, Line: GomokuLineOf(d.size, p, kind), Revealed: slices.Clone(reveals), GomokuDeclaration: dec})
	if err != nil {
		d.t.Fatalf("game turn %d: %v", d.game.MoveNumber(), err)
	}
	d.game = g
	d.afterTurn(mover, outcome)
	return outcome
}

// pass has the player to move pass.
func (d *gomokuDuel) pass() {
	d.t.Helper()
	mover := d.game.ToMove()
	next, e, err := d.of(mover).Pass()
	d.act(mover, next, e, err)
	g, outcome, err := d.game.Turn(GomokuTurn{Pass: true})
	if err != nil {
		d.t.Fatal(err)
	}
	d.game = g
	d.afterTurn(mover, outcome)
}

// afterTurn declares no legal point when the game says so, and checks.
func (d *gomokuDuel) afterTurn(mover Color, outcome GomokuOutcome) {
	d.t.Helper()
	if n := d.of(mover).History(); len(n) == 0 || n[len(n)-1].Outcome != outcome {
		d.t.Fatalf("mover's view has not noted the turn's outcome %s", outcome)
	}
	if d.game.Stuck() && !d.keepStuck {
		c := d.game.ToMove()
		next, e, err := d.of(c).DeclareNoLegalPoint()
		d.act(c, next, e, err)
	}
	d.check()
}

// check compares both views with the full-information game.
func (d *gomokuDuel) check() {
	d.t.Helper()
	g := d.game
	for i := range d.views {
		v := d.views[i]
		me := v.Me()
		opp := me.Opponent()
		if d.keepStuck && g.Stuck() {
			continue
		}
		if v.Over() != g.Over() {
			d.t.Fatalf("%s view over=%t, game over=%t", GomokuPieceName(me), v.Over(), g.Over())
		}
		if v.Over() {
			if v.Result() != g.Result() {
				d.t.Fatalf("%s view result %v, game %v", GomokuPieceName(me), v.Result(), g.Result())
			}
		} else {
			if v.Phase() != GomokuPhaseCommit || v.Mover() != g.ToMove() || v.MoveNumber() != g.MoveNumber() {
				d.t.Fatalf("%s view in %s, mover %s, move %d; game: mover %s, move %d", GomokuPieceName(me), v.Phase(), GomokuPieceName(v.Mover()), v.MoveNumber(), GomokuPieceName(g.ToMove()), g.MoveNumber())
			}
			if !slices.Equal(v.LegalPoints(), g.LegalPoints(me)) {
				d.t.Fatalf("%s view legal points %s, game %s", GomokuPieceName(me), FormatVertices(d.size, v.LegalPoints()), FormatVertices(d.size, g.LegalPoints(me)))
			}
		}
		if v.OpponentHidden() != g.HiddenCount(opp) {
			d.t.Fatalf("%s view counts %d hidden opponent pieces, game %d", GomokuPieceName(me), v.OpponentHidden(), g.HiddenCount(opp))
		}
		if v.FiveAnnounced(opp) != g.FiveMade(opp) || v.FiveAnnounced(me) != g.FiveMade(me) {
			d.t.Fatalf("%s view fives differ from the game", GomokuPieceName(me))
		}
		for p := Point(0); int(p) < d.size*d.size; p++ {
			if v.Own(p) != g.Piece(me, p) {
				d.t.Fatalf("%s view has own %v at %s, game %v", GomokuPieceName(me), v.Own(p), p.Vertex(d.size), g.Piece(me, p))
			}
			if v.OpponentPiece(p) != (g.Piece(opp, p) == GomokuRevealedPiece) {
				d.t.Fatalf("%s view opponent piece at %s: %t, game %v", GomokuPieceName(me), p.Vertex(d.size), v.OpponentPiece(p), g.Piece(opp, p))
			}
			if v.Revealed(p) != g.Revealed(p) {
				d.t.Fatalf("%s view revealed %s: %t, game %t", GomokuPieceName(me), p.Vertex(d.size), v.Revealed(p), g.Revealed(p))
			}
		}
	}
}

// record returns the record of the game, built by the view of the player
// with colour c with the other player's hidden commitments opened, and
// checks that both players build the same record.
func (d *gomokuDuel) record(c Color) GomokuRecord {
	d.t.Helper()
	var recs [2]GomokuRecord
	for i, v := range d.views {
		other := d.views[1-i]
		var opened []GomokuOpening
		for k, n := range other.History() {
			if n.Mover == other.Me() && (n.Outcome == GomokuPlacedHidden || n.Outcome == GomokuPlacedRevealed || n.Outcome == GomokuFailed) {
				opened = append(opened, GomokuOpening{Move: k + 1, Point: n.Turn.Point})
			}
		}
		rec, err := v.Record(opened)
		if err != nil {
			d.t.Fatalf("%s record: %v", GomokuPieceName(v.Me()), err)
		}
		recs[i] = rec
	}
	if !gomokuRecordsEqual(recs[0], recs[1]) {
		d.t.Fatalf("the players' records differ:\n%+v\n%+v", recs[0], recs[1])
	}
	return recs[d.seat(c)]
}

func gomokuRecordsEqual(a, b GomokuRecord) bool {
	if a.Size != b.Size || a.Opening != b.Opening || a.InviteeChoice != b.InviteeChoice || len(a.Turns) != len(b.Turns) {
		return false
	}
	for i := range a.Turns {
		x, y := a.Turns[i], b.Turns[i]
		if x.Pass != y.Pass || x.NoLegalPoint != y.NoLegalPoint || x.Point != y.Point || x.Line != y.Line ||
			x.GomokuDeclaration != y.GomokuDeclaration || !slices.Equal(x.Revealed, y.Revealed) {
			return false
		}
	}
	return true
}

// cloneGomokuRecord copies a record deeply, for tests that tamper with it.
func cloneGomokuRecord(r GomokuRecord) GomokuRecord {
	r.Turns = slices.Clone(r.Turns)
	for i := range r.Turns {
		r.Turns[i].Revealed = slices.Clone(r.Turns[i].Revealed)
	}
	return r
}

// asGomokuViolation returns the violation err holds, and whether it does.
func asGomokuViolation(err error) (GomokuViolation, bool) {
	var v GomokuViolation
	ok := errors.As(err, &v)
	return v, ok
}
