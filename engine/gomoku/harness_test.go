package gomoku

import (
	"errors"
	"slices"
	"testing"

	"github.com/kakure/kakure/engine"
)

// This file holds the test harness of Hidden Move Double Gomoku: a duel of
// two GomokuViews, one per player, exchanging events as the protocol would,
// with a full-information Game played in step, and a check that the
// three agree after every turn.

// gv parses a GTP vertex for a test.
func gv(t testing.TB, size int, s string) engine.Point {
	t.Helper()
	p, err := engine.ParseVertex(size, s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// gvs parses vertices for a test.
func gvs(t testing.TB, size int, ss ...string) []engine.Point {
	t.Helper()
	ps := make([]engine.Point, len(ss))
	for i, s := range ss {
		ps[i] = gv(t, size, s)
	}
	return ps
}

type duel struct {
	t    testing.TB
	size int
	// views[0] is the inviter's, views[1] the invitee's.
	views [2]View
	game  Game
	// keepStuck leaves a player with no legal point to declare it itself.
	keepStuck bool
}

// newDuel starts a game: the inviter places the opening piece, the
// invitee chooses its side.
func newDuel(t testing.TB, size int, opening engine.Point, choice engine.Color) *duel {
	t.Helper()
	d := &duel{t: t, size: size}
	o := engine.Options{Variant: engine.VariantGomoku, Size: size}
	var err error
	if d.views[0], err = NewView(o, Inviter); err != nil {
		t.Fatal(err)
	}
	if d.views[1], err = NewView(o, Invitee); err != nil {
		t.Fatal(err)
	}
	if d.game, err = NewGame(o); err != nil {
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
func (d *duel) seat(c engine.Color) int {
	if d.views[0].Me() == c {
		return 0
	}
	return 1
}

// of returns the view of the player with colour c.
func (d *duel) of(c engine.Color) *View { return &d.views[d.seat(c)] }

// deliver stores the result of the action of views[i] and has the other
// view observe its event.
func (d *duel) deliver(i int, next View, e Event, err error) {
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
func (d *duel) act(c engine.Color, next View, e Event, err error) {
	d.t.Helper()
	d.deliver(d.seat(c), next, e, err)
}

// turn plays a whole turn of the player to move: commit to p, announce the
// line of the given kind, the opponent reveals reveals, the mover reveals
// when it must and declares what is due (claiming any win). The same turn
// goes to the full-information game; the outcomes must agree.
func (d *duel) turn(p engine.Point, kind LineKind, reveals []engine.Point) Outcome {
	d.t.Helper()
	mover := d.game.ToMove()
	d.begin(p, kind, reveals)
	var dec Declaration
	if d.of(mover).Phase() == PhaseDeclare {
		dec.Five = d.of(mover).FiveDue()
		dec.Lines, dec.Claim = d.of(mover).WinningLines()
	}
	return d.finish(p, kind, reveals, dec)
}

// begin plays a turn up to the declaration: commit, announce, respond and
// reveal.
func (d *duel) begin(p engine.Point, kind LineKind, reveals []engine.Point) {
	d.t.Helper()
	mover := d.game.ToMove()
	opp := mover.Opponent()
	if got := d.of(mover).Mover(); got != mover {
		d.t.Fatalf("views say %s moves, game says %s", PieceName(got), PieceName(mover))
	}
	next, e, err := d.of(mover).Commit(p)
	d.act(mover, next, e, err)
	next, e, err = d.of(mover).Announce(kind)
	d.act(mover, next, e, err)
	next, e, err = d.of(opp).Respond(reveals)
	d.act(opp, next, e, err)
	if d.of(mover).Phase() == PhaseReveal {
		next, e, err = d.of(mover).Reveal()
		d.act(mover, next, e, err)
	}
}

// finish makes the declaration dec if a piece was placed, plays the turn
// in the full-information game and checks.
func (d *duel) finish(p engine.Point, kind LineKind, reveals []engine.Point, dec Declaration) Outcome {
	d.t.Helper()
	mover := d.game.ToMove()
	if d.of(mover).Phase() == PhaseDeclare {
		next, e, err := d.of(mover).Declare(dec)
		d.act(mover, next, e, err)
	}
	g, outcome, err := d.game.Turn(Turn{Point: p, Line: LineOf(d.size, p, kind), Revealed: slices.Clone(reveals), Declaration: dec})
	if err != nil {
		d.t.Fatalf("game turn %d: %v", d.game.MoveNumber(), err)
	}
	d.game = g
	d.afterTurn(mover, outcome)
	return outcome
}

// pass has the player to move pass.
func (d *duel) pass() {
	d.t.Helper()
	mover := d.game.ToMove()
	next, e, err := d.of(mover).Pass()
	d.act(mover, next, e, err)
	g, outcome, err := d.game.Turn(Turn{Pass: true})
	if err != nil {
		d.t.Fatal(err)
	}
	d.game = g
	d.afterTurn(mover, outcome)
}

// afterTurn declares no legal point when the game says so, and checks.
func (d *duel) afterTurn(mover engine.Color, outcome Outcome) {
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
func (d *duel) check() {
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
			d.t.Fatalf("%s view over=%t, game over=%t", PieceName(me), v.Over(), g.Over())
		}
		if v.Over() {
			if v.Result() != g.Result() {
				d.t.Fatalf("%s view result %v, game %v", PieceName(me), v.Result(), g.Result())
			}
		} else {
			if v.Phase() != PhaseCommit || v.Mover() != g.ToMove() || v.MoveNumber() != g.MoveNumber() {
				d.t.Fatalf("%s view in %s, mover %s, move %d; game: mover %s, move %d", PieceName(me), v.Phase(), PieceName(v.Mover()), v.MoveNumber(), PieceName(g.ToMove()), g.MoveNumber())
			}
			if !slices.Equal(v.LegalPoints(), g.LegalPoints(me)) {
				d.t.Fatalf("%s view legal points %s, game %s", PieceName(me), engine.FormatVertices(d.size, v.LegalPoints()), engine.FormatVertices(d.size, g.LegalPoints(me)))
			}
		}
		if v.OpponentHidden() != g.HiddenCount(opp) {
			d.t.Fatalf("%s view counts %d hidden opponent pieces, game %d", PieceName(me), v.OpponentHidden(), g.HiddenCount(opp))
		}
		if v.FiveAnnounced(opp) != g.FiveMade(opp) || v.FiveAnnounced(me) != g.FiveMade(me) {
			d.t.Fatalf("%s view fives differ from the game", PieceName(me))
		}
		for p := engine.Point(0); int(p) < d.size*d.size; p++ {
			if v.Own(p) != g.Piece(me, p) {
				d.t.Fatalf("%s view has own %v at %s, game %v", PieceName(me), v.Own(p), p.Vertex(d.size), g.Piece(me, p))
			}
			if v.OpponentPiece(p) != (g.Piece(opp, p) == RevealedPiece) {
				d.t.Fatalf("%s view opponent piece at %s: %t, game %v", PieceName(me), p.Vertex(d.size), v.OpponentPiece(p), g.Piece(opp, p))
			}
			if v.Revealed(p) != g.Revealed(p) {
				d.t.Fatalf("%s view revealed %s: %t, game %t", PieceName(me), p.Vertex(d.size), v.Revealed(p), g.Revealed(p))
			}
		}
	}
}

// record returns the record of the game, built by the view of the player
// with colour c with the other player's hidden commitments opened, and
// checks that both players build the same record.
func (d *duel) record(c engine.Color) Record {
	d.t.Helper()
	var recs [2]Record
	for i, v := range d.views {
		other := d.views[1-i]
		var opened []Opening
		for k, n := range other.History() {
			if n.Mover == other.Me() && (n.Outcome == PlacedHidden || n.Outcome == PlacedRevealed || n.Outcome == Failed) {
				opened = append(opened, Opening{Move: k + 1, Point: n.Turn.Point})
			}
		}
		rec, err := v.Record(opened)
		if err != nil {
			d.t.Fatalf("%s record: %v", PieceName(v.Me()), err)
		}
		recs[i] = rec
	}
	if !recordsEqual(recs[0], recs[1]) {
		d.t.Fatalf("the players' records differ:\n%+v\n%+v", recs[0], recs[1])
	}
	return recs[d.seat(c)]
}

func recordsEqual(a, b Record) bool {
	if a.Size != b.Size || a.Opening != b.Opening || a.InviteeChoice != b.InviteeChoice || len(a.Turns) != len(b.Turns) {
		return false
	}
	for i := range a.Turns {
		x, y := a.Turns[i], b.Turns[i]
		if x.Pass != y.Pass || x.NoLegalPoint != y.NoLegalPoint || x.Point != y.Point || x.Line != y.Line ||
			x.Declaration != y.Declaration || !slices.Equal(x.Revealed, y.Revealed) {
			return false
		}
	}
	return true
}

// cloneRecord copies a record deeply, for tests that tamper with it.
func cloneRecord(r Record) Record {
	r.Turns = slices.Clone(r.Turns)
	for i := range r.Turns {
		r.Turns[i].Revealed = slices.Clone(r.Turns[i].Revealed)
	}
	return r
}

// asViolation returns the violation err holds, and whether it does.
func asViolation(err error) (Violation, bool) {
	var v Violation
	ok := errors.As(err, &v)
	return v, ok
}
