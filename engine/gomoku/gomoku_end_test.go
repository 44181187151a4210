package gomoku

import (
	"errors"
	"testing"

	"github.com/kakure/kakure/engine"
)

// stuckDuel plays a 7x7 game in which the board fills with a pattern
// that has no five for either player, every answer reveals all it can, and
// O, to move at turn 49, has no legal point left (GM-7). The pattern:
// X where (x + 2y) mod 4 < 2, O elsewhere; the opening X is A1.
func stuckDuel(t *testing.T, keepStuck bool) *duel {
	const n = 7
	var xs, os []engine.Point
	for y := range n {
		for x := range n {
			if (x+2*y)%4 < 2 {
				xs = append(xs, engine.PointAt(n, x, y))
			} else {
				os = append(os, engine.PointAt(n, x, y))
			}
		}
	}
	d := newDuel(t, n, xs[0], X)
	d.keepStuck = keepStuck
	xs = xs[1:]
	for !d.game.Over() && len(xs)+len(os) > 0 {
		mover := d.game.ToMove()
		list := &os
		if mover == X {
			list = &xs
		}
		p := (*list)[0]
		*list = (*list)[1:]
		// Announce the line with more of the opponent's hidden pieces;
		// the opponent reveals them all.
		r := d.of(mover.Opponent())
		kind := Row
		if len(r.HiddenInLine(LineOf(n, p, Column))) > len(r.HiddenInLine(LineOf(n, p, Row))) {
			kind = Column
		}
		d.turn(p, kind, r.HiddenInLine(LineOf(n, p, kind)))
	}
	return d
}

func TestGM7PassAndDraw(t *testing.T) {
	const n = 9
	p := func(t *testing.T, s string) engine.Point { return gv(t, n, s) }
	draw := engine.Result{By: engine.ByDraw}
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"GM-7 two passes end the game in a draw", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			d.pass()
			if d.game.Over() || d.game.Passes() != 1 {
				t.Fatal("one pass ended the game")
			}
			d.pass()
			if !d.game.Over() || d.game.Result() != draw || d.game.Winner() != engine.Empty || d.game.WinnerName() != "none" {
				t.Fatalf("after two passes: over %t, %v", d.game.Over(), d.game.Result())
			}
			if _, _, err := d.game.Turn(Turn{Pass: true}); !errors.Is(err, engine.ErrGameOver) {
				t.Fatalf("turn after the end: %v", err)
			}
			if _, _, err := d.of(O).Pass(); !errors.Is(err, engine.ErrGameOver) {
				t.Fatalf("view pass after the end: %v", err)
			}
		}},
		{"GM-7 a pass, a move and a pass do not end the game", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			d.pass()
			d.turn(p(t, "A1"), Row, nil)
			d.pass()
			if d.game.Over() || d.game.Passes() != 1 {
				t.Fatalf("over %t, passes %d", d.game.Over(), d.game.Passes())
			}
		}},
		{"GM-7 a failed move is not a pass", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			d.turn(p(t, "A1"), Row, nil)
			d.turn(p(t, "C3"), Row, nil)
			d.pass()
			if got := d.turn(p(t, "A1"), Column, gvs(t, n, "A1")); got != Failed {
				t.Fatalf("outcome %s", got)
			}
			d.pass()
			if d.game.Over() {
				t.Fatal("pass, failed move, pass ended the game")
			}
			d.pass()
			if d.game.Result() != draw {
				t.Fatalf("result %v", d.game.Result())
			}
		}},
		{"GM-7 no legal point for the player to move ends the game in a draw", func(t *testing.T) {
			d := stuckDuel(t, false)
			if !d.game.Stuck() || d.game.Result() != draw || d.game.ToMove() != O || d.game.MoveNumber() != 49 {
				t.Fatalf("stuck %t, result %v, %s to move at %d\n%s", d.game.Stuck(), d.game.Result(), PieceName(d.game.ToMove()), d.game.MoveNumber(), d.game)
			}
			rec := d.record(X)
			if last := rec.Turns[len(rec.Turns)-1]; !last.NoLegalPoint || len(rec.Turns) != 49 {
				t.Fatalf("the record does not end with O's declaration: %d turns, last %+v", len(rec.Turns), last)
			}
			if err := Audit(rec); err != nil {
				t.Fatalf("audit: %v", err)
			}
			// A record may also stop at the end without the declaration.
			short := cloneRecord(rec)
			short.Turns = short.Turns[:48]
			if err := Audit(short); err != nil {
				t.Fatalf("audit without the declaration: %v", err)
			}
			// Playing on instead of declaring is caught.
			on := cloneRecord(rec)
			on.Turns[48] = Turn{Pass: true}
			wantViolation(t, Audit(on), O, "GM-7", 49)
		}},
		{"GM-7 with no legal point the player may only declare it", func(t *testing.T) {
			d := stuckDuel(t, true)
			o := d.of(O)
			if len(o.LegalPoints()) != 0 || !o.MyTurn() || o.Phase() != PhaseCommit {
				t.Fatalf("O: legal %s, my turn %t, %s", engine.FormatVertices(7, o.LegalPoints()), o.MyTurn(), o.Phase())
			}
			if _, _, err := o.Pass(); !errors.Is(err, ErrRule) {
				t.Fatalf("pass with no legal point: %v", err)
			}
			for p := engine.Point(0); p < 49; p++ {
				if _, _, err := o.Commit(p); !errors.Is(err, engine.ErrOccupied) {
					t.Fatalf("commit to %s: %v", p.Vertex(7), err)
				}
			}
			next, e, err := o.DeclareNoLegalPoint()
			d.act(O, next, e, err)
			for _, v := range d.views {
				if !v.Over() || v.Result() != draw {
					t.Fatalf("%s view: over %t, %v", v.Seat(), v.Over(), v.Result())
				}
			}
		}},
		{"GM-7 a false declaration of no legal point", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			if _, _, err := d.of(O).DeclareNoLegalPoint(); !errors.Is(err, ErrRule) {
				t.Fatalf("view: %v", err)
			}
			_, _, err := d.game.Turn(Turn{NoLegalPoint: true})
			wantViolation(t, err, O, "GM-7", 1)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.run)
	}
}

// gm8Record is an honest game of 18 turns on 9x9 (opening E5; the invitee
// is X): hidden and revealed placements, a failed move, passes, a five,
// and a draw by two passes.
func gm8Record(t *testing.T) Record {
	const n = 9
	d := newDuel(t, n, gv(t, n, "E5"), X)
	turns := []struct {
		point   string
		kind    LineKind
		reveals []string
	}{
		{"C3", Row, nil},               // 1 O hidden
		{"A1", Row, nil},               // 2 X hidden
		{"A3", Column, []string{"A1"}}, // 3 O revealed
		{"B1", Row, nil},               // 4 X hidden
		{"C1", Row, []string{"B1"}},    // 5 O revealed
		{"C3", Row, []string{"C3"}},    // 6 X fails
		{"", 0, nil},                   // 7 O passes
		{"J1", Row, nil},               // 8
		{"D7", Row, nil},               // 9
		{"J2", Row, nil},               // 10
		{"D8", Row, nil},               // 11
		{"J3", Row, nil},               // 12
		{"F8", Row, nil},               // 13
		{"J4", Row, nil},               // 14
		{"G8", Row, nil},               // 15
		{"J5", Row, nil},               // 16 X's first five
		{"", 0, nil},                   // 17 O passes
		{"", 0, nil},                   // 18 X passes: draw
	}
	for _, tt := range turns {
		if tt.point == "" {
			d.pass()
			continue
		}
		d.turn(gv(t, n, tt.point), tt.kind, gvs(t, n, tt.reveals...))
	}
	if !d.game.Over() || !d.game.FiveMade(X) {
		t.Fatalf("setup: over %t, X five %t", d.game.Over(), d.game.FiveMade(X))
	}
	return d.record(O)
}

func TestGM8Audit(t *testing.T) {
	const n = 9
	p := func(s string) engine.Point { return gv(t, n, s) }
	base := gm8Record(t)
	if len(base.Turns) != 18 || !base.Turns[15].Five {
		t.Fatalf("setup: %d turns", len(base.Turns))
	}
	tests := []struct {
		name   string
		tamper func(r *Record)
		player engine.Color
		rule   string
		move   int
	}{
		{"GM-8 an honest game passes the audit", func(r *Record) {}, engine.Empty, "", 0},
		{"GM-8 an announced row without the committed point", func(r *Record) { r.Turns[1].Line = row(2) }, X, "GM-3", 2},
		{"GM-8 an announced column without the committed point", func(r *Record) { r.Turns[2].Line = col('B') }, O, "GM-3", 3},
		{"GM-8 no line announced", func(r *Record) { r.Turns[8].Line = Line{} }, O, "GM-3", 9},
		{"GM-8 a piece placed on a revealed point", func(r *Record) { r.Turns[3].Point, r.Turns[3].Line = p("E5"), row(5) }, X, "GM-4", 4},
		{"GM-8 a piece placed on the opponent's revealed piece", func(r *Record) { r.Turns[7].Point = p("C1") }, X, "GM-4", 8},
		{"GM-8 a piece placed on the mover's own hidden piece", func(r *Record) { r.Turns[9].Point, r.Turns[9].Line = p("J1"), row(1) }, X, "GM-4", 10},
		{"GM-8 a missing five announcement", func(r *Record) { r.Turns[15].Five = false }, X, "GM-5", 16},
		{"GM-8 a five announced without a five", func(r *Record) { r.Turns[11].Five = true }, X, "GM-5", 12},
		{"GM-8 a five announced after a failed move", func(r *Record) { r.Turns[5].Five = true }, X, "GM-5", 6},
		{"GM-8 a false win claim", func(r *Record) {
			r.Turns[13].Claim = true
			r.Turns[13].Lines = [2]Five{{Start: p("J1"), Dir: Vertical}, {Start: p("A1"), Dir: Horizontal}}
		}, X, "GM-6", 14},
		{"GM-8 a win claimed after a failed move", func(r *Record) { r.Turns[5].Claim = true }, X, "GM-6", 6},
		{"GM-8 an answer outside the announced line", func(r *Record) { r.Turns[8].Revealed = []engine.Point{p("J1")} }, X, "GM-3", 9},
		{"GM-8 an answer revealing a piece that does not exist", func(r *Record) { r.Turns[8].Revealed = []engine.Point{p("A7")} }, X, "GM-3", 9},
		{"GM-8 an answer revealing a piece revealed before", func(r *Record) { r.Turns[4].Revealed = []engine.Point{p("B1"), p("A1")} }, X, "GM-3", 5},
		{"GM-8 an answer revealing one piece twice", func(r *Record) { r.Turns[4].Revealed = []engine.Point{p("B1"), p("B1")} }, X, "GM-3", 5},
		{"GM-8 a false declaration of no legal point", func(r *Record) { r.Turns[6] = Turn{NoLegalPoint: true} }, O, "GM-7", 7},
		{"GM-8 the earliest of two lies counts", func(r *Record) {
			r.Turns[11].Five = true
			r.Turns[3].Line = row(2)
		}, X, "GM-3", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := cloneRecord(base)
			tc.tamper(&rec)
			err := Audit(rec)
			if tc.rule == "" {
				if err != nil {
					t.Fatalf("audit: %v", err)
				}
				return
			}
			v := wantViolation(t, err, tc.player, tc.rule, tc.move)
			if v.Result() != (engine.Result{Winner: tc.player.Opponent(), By: engine.ByForfeit}) {
				t.Fatalf("result of the violation: %v", v.Result())
			}
			if err := Audit(base); err != nil {
				t.Fatalf("tampering changed the base record: %v", err)
			}
		})
	}

	malformed := []struct {
		name   string
		tamper func(r *Record)
		want   error
	}{
		{"GM-8 a record without a side", func(r *Record) { r.InviteeChoice = engine.Empty }, ErrRule},
		{"GM-8 a record of a bad size", func(r *Record) { r.Size = 21 }, engine.ErrBadOptions},
		{"GM-8 a record going on after the end", func(r *Record) { r.Turns = append(r.Turns, Turn{Pass: true}) }, engine.ErrGameOver},
		{"GM-8 a pass carrying a five", func(r *Record) { r.Turns[6].Five = true }, ErrRule},
	}
	for _, tc := range malformed {
		t.Run(tc.name, func(t *testing.T) {
			rec := cloneRecord(base)
			tc.tamper(&rec)
			err := Audit(rec)
			if _, isViolation := asViolation(err); isViolation || !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want a plain %v", err, tc.want)
			}
		})
	}

	// Lies that only the audit can find: O's view accepts X's turns,
	// since the points stay hidden; the record O builds with X's final
	// openings convicts X.
	atTheEnd := []struct {
		name   string
		lines  []Line   // X's announced lines, moves 2, 4, ...
		points []string // X's real points, opened at the end
		rule   string
		move   int
	}{
		{"GM-8 found at the end: an honest hidden game", []Line{row(3), col('G')}, []string{"C3", "G7"}, "", 0},
		{"GM-8 found at the end: a hidden piece outside its announced row", []Line{row(3), col('G')}, []string{"C4", "G7"}, "GM-3", 2},
		{"GM-8 found at the end: a hidden piece on the mover's own hidden piece", []Line{row(3), row(3)}, []string{"C3", "C3"}, "GM-4", 4},
		{"GM-8 found at the end: a hidden piece on the revealed opening point", []Line{row(3), row(5)}, []string{"C3", "E5"}, "GM-4", 4},
	}
	for _, tc := range atTheEnd {
		t.Run(tc.name, func(t *testing.T) {
			v := soloView(t, n, "E5", O)
			var opened []Opening
			for i, line := range tc.lines {
				v = soloMine(t, v, []string{"A9", "C9"}[i], Row)
				var err error
				if v, err = soloTheirs(t, v, theirTurn{line: line}); err != nil {
					t.Fatalf("O's view found the lie during play: %v", err)
				}
				opened = append(opened, Opening{Move: 2 * (i + 1), Point: p(tc.points[i])})
			}
			v, _, _ = v.Pass()
			v, _ = v.Observe(Event{Kind: EventPass})
			if !v.Over() || v.Result() != (engine.Result{By: engine.ByDraw}) {
				t.Fatalf("setup: over %t, %v", v.Over(), v.Result())
			}
			rec, err := v.Record(opened)
			if err != nil {
				t.Fatal(err)
			}
			err = Audit(rec)
			if tc.rule == "" {
				if err != nil {
					t.Fatalf("audit: %v", err)
				}
				return
			}
			wantViolation(t, err, X, tc.rule, tc.move)
		})
	}
	t.Run("GM-8 a record needs every commitment opened", func(t *testing.T) {
		v := soloView(t, n, "E5", O)
		v = soloMine(t, v, "A9", Row)
		v, _ = soloTheirs(t, v, theirTurn{line: row(3)})
		if _, err := v.Record(nil); !errors.Is(err, ErrRule) {
			t.Fatalf("record with move 2 closed: %v", err)
		}
		if _, err := v.Record([]Opening{{Move: 1, Point: p("A9")}}); !errors.Is(err, ErrRule) {
			t.Fatalf("record opening O's own move: %v", err)
		}
	})
}
