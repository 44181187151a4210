package gomoku

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

// Tests of Hidden Move Double Gomoku, one table per rule (GM-1..GM-8). The
// duel harness (harness_test.go) plays both players' views and the
// full-information game side by side; the "solo" helpers below drive one
// view with events written by hand, to play a lying opponent.

// soloView returns the view of a player who was invited and chose me, after
// the opening piece at opening: the first turn (O's) is due.
func soloView(t *testing.T, size int, opening string, me engine.Color) View {
	t.Helper()
	v, err := NewView(engine.Options{Variant: engine.VariantGomoku, Size: size}, Invitee)
	if err != nil {
		t.Fatal(err)
	}
	if v, err = v.Observe(Event{Kind: EventOpening, Point: gv(t, size, opening)}); err != nil {
		t.Fatal(err)
	}
	if v, _, err = v.ChooseSide(me); err != nil {
		t.Fatal(err)
	}
	return v
}

// soloMine plays a turn of the solo player: it commits to p and announces
// kind, the opponent answers with openings, then it reveals and declares
// what is due.
func soloMine(t *testing.T, v View, p string, kind LineKind, answer ...Opening) View {
	t.Helper()
	var err error
	if v, _, err = v.Commit(gv(t, v.Size(), p)); err != nil {
		t.Fatal(err)
	}
	if v, _, err = v.Announce(kind); err != nil {
		t.Fatal(err)
	}
	if v, err = v.Observe(Event{Kind: EventResponse, Openings: answer}); err != nil {
		t.Fatal(err)
	}
	if v.Phase() == PhaseReveal {
		if v, _, err = v.Reveal(); err != nil {
			t.Fatal(err)
		}
	}
	if v.Phase() == PhaseDeclare {
		if v, _, err = v.Declare(Declaration{Five: v.FiveDue()}); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

// theirTurn is a turn of the opponent of a solo view, as events: the
// announced line, the solo player's answer, the point the opponent reveals
// (when asked to) and its declaration.
type theirTurn struct {
	line     Line
	respond  []string
	reveal   string
	declare  Declaration
	openings []Opening
}

// soloTheirs feeds a turn of the opponent to a solo view and returns the
// view and the first error an event gave.
func soloTheirs(t *testing.T, v View, tt theirTurn) (View, error) {
	t.Helper()
	next, err := v.Observe(Event{Kind: EventCommit})
	if err != nil {
		return next, err
	}
	if next, err = next.Observe(Event{Kind: EventAnnounce, Line: tt.line}); err != nil {
		return next, err
	}
	if next, _, err = next.Respond(gvs(t, v.Size(), tt.respond...)); err != nil {
		t.Fatal(err)
	}
	if next.Phase() == PhaseReveal {
		if next, err = next.Observe(Event{Kind: EventReveal, Point: gv(t, v.Size(), tt.reveal)}); err != nil {
			return next, err
		}
	}
	if next.Phase() == PhaseDeclare {
		return next.Observe(Event{Kind: EventDeclare, Declaration: tt.declare, Openings: tt.openings})
	}
	return next, nil
}

// row and col name a line by GTP row number and column letter.
func row(n int) Line { return Line{Kind: Row, Index: n - 1} }
func col(letter byte) Line {
	return Line{Kind: Column, Index: strings.IndexByte(engine.ColumnLetters, letter)}
}

// wantViolation checks that err is the violation described.
func wantViolation(t *testing.T, err error, player engine.Color, rule string, move int) Violation {
	t.Helper()
	v, ok := asViolation(err)
	if !ok {
		t.Fatalf("got %v, want a %s violation by %s at move %d", err, rule, PieceName(player), move)
	}
	if v.Player != player || v.Rule != rule || v.Move != move {
		t.Fatalf("got %v, want a %s violation by %s at move %d", v, rule, PieceName(player), move)
	}
	if !errors.Is(err, ErrRule) {
		t.Fatalf("violation %v does not wrap ErrGomokuRule", v)
	}
	return v
}

// wantForfeit checks that a view ended the game for the violation it found.
func wantForfeit(t *testing.T, v View, cheat engine.Color) {
	t.Helper()
	if !v.Over() || v.Result() != (engine.Result{Winner: cheat.Opponent(), By: engine.ByForfeit}) {
		t.Fatalf("view after a violation: over=%t result %v, want %s+F", v.Over(), v.Result(), PieceName(cheat.Opponent()))
	}
	if viol, ok := v.Violation(); !ok || viol.Player != cheat {
		t.Fatalf("view keeps violation %v, %t", viol, ok)
	}
}

func TestGM1BoardAndPieces(t *testing.T) {
	sizes := []struct {
		name string
		size int
		want int // 0: refused
	}{
		{"GM-1 default 9x9", 0, 9},
		{"GM-1 smallest 7x7", 7, 7},
		{"GM-1 13x13", 13, 13},
		{"GM-1 largest 19x19", 19, 19},
		{"GM-1 5x5 (allowed for Go) is too small", 5, 0},
		{"GM-1 6x6 is too small", 6, 0},
		{"GM-1 20x20 is too large", 20, 0},
	}
	for _, tc := range sizes {
		t.Run(tc.name, func(t *testing.T) {
			o := engine.Options{Variant: engine.VariantGomoku, Size: tc.size}
			g, err1 := NewGame(o)
			v, err2 := NewView(o, Inviter)
			if tc.want == 0 {
				if !errors.Is(err1, engine.ErrBadOptions) || !errors.Is(err2, engine.ErrBadOptions) {
					t.Fatalf("size %d: errors %v, %v; want ErrBadOptions", tc.size, err1, err2)
				}
				return
			}
			if err1 != nil || err2 != nil {
				t.Fatalf("size %d: %v, %v", tc.size, err1, err2)
			}
			if g.Size() != tc.want || v.Size() != tc.want || g.Options().Size != tc.want {
				t.Fatalf("size %d gives game %d, view %d; want %d", tc.size, g.Size(), v.Size(), tc.want)
			}
		})
	}
	t.Run("GM-1 other variants are refused", func(t *testing.T) {
		if _, err := NewGame(engine.Options{Variant: engine.VariantGo}); !errors.Is(err, engine.ErrBadOptions) {
			t.Fatalf("a gomoku game of variant go: %v", err)
		}
		if _, err := NewView(engine.Options{}, 0); !errors.Is(err, engine.ErrBadOptions) {
			t.Fatalf("a view with no seat: %v", err)
		}
	})
	names := []struct {
		name  string
		in    string
		want  engine.Color
		valid bool
	}{
		{"GM-1 x is X", "x", X, true},
		{"GM-1 X is X", "X", X, true},
		{"GM-1 o is O", "o", O, true},
		{"GM-1 O is O", "O", O, true},
		{"GM-1 GTP black is X", "black", X, true},
		{"GM-1 GTP w is O", "w", O, true},
		{"GM-1 z is no piece", "z", engine.Empty, false},
		{"GM-1 0 is no piece", "0", engine.Empty, false},
		{"GM-1 empty is no piece", "", engine.Empty, false},
	}
	for _, tc := range names {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParsePiece(tc.in)
			if (err == nil) != tc.valid || c != tc.want {
				t.Fatalf("ParseGomokuPiece(%q) = %v, %v", tc.in, c, err)
			}
			if tc.valid && PieceName(c) != strings.ToLower(tc.in[:1]) && len(tc.in) == 1 && (tc.in == "x" || tc.in == "o") {
				t.Fatalf("GomokuPieceName(%v) = %q", c, PieceName(c))
			}
		})
	}
	if PieceName(engine.Black) != "x" || PieceName(engine.White) != "o" || PieceName(engine.Empty) != "-" {
		t.Fatalf("piece names: %q %q %q", PieceName(engine.Black), PieceName(engine.White), PieceName(engine.Empty))
	}
}

func TestGM2PieOpening(t *testing.T) {
	for _, tc := range []struct {
		name   string
		choice engine.Color
		// first is the seat that moves first (as O).
		first Seat
	}{
		{"GM-2 the invitee takes X: the inviter is O and moves first", X, Inviter},
		{"GM-2 the invitee takes O: it moves first, the inviter is X", O, Invitee},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e5 := gv(t, 9, "E5")
			d := newDuel(t, 9, e5, tc.choice)
			inviter, invitee := d.views[0], d.views[1]
			if invitee.Me() != tc.choice || inviter.Me() != tc.choice.Opponent() {
				t.Fatalf("invitee is %s, inviter %s", PieceName(invitee.Me()), PieceName(inviter.Me()))
			}
			x, o := d.of(X), d.of(O)
			if x.Own(e5) != RevealedPiece || o.Own(e5) != NoPiece || !o.OpponentPiece(e5) {
				t.Fatalf("the opening piece is not X's, in the open: X owns %v, O sees %t", x.Own(e5), o.OpponentPiece(e5))
			}
			if d.game.Piece(X, e5) != RevealedPiece || d.game.ToMove() != O || d.game.MoveNumber() != 1 {
				t.Fatalf("game after the opening: %v at E5, %s to move, move %d", d.game.Piece(X, e5), PieceName(d.game.ToMove()), d.game.MoveNumber())
			}
			for i, v := range d.views {
				if v.Mover() != O || v.Phase() != PhaseCommit || v.MyTurn() != (v.Seat() == tc.first) {
					t.Fatalf("view %d (%s): mover %s, phase %s, my turn %t", i, v.Seat(), PieceName(v.Mover()), v.Phase(), v.MyTurn())
				}
				if slices.Contains(v.LegalPoints(), e5) {
					t.Fatalf("view %d may commit to the opening point", i)
				}
				if v.OpeningPoint() != e5 {
					t.Fatalf("view %d: opening at %v", i, v.OpeningPoint())
				}
			}
			d.turn(gv(t, 9, "C3"), Row, nil)
			if !d.of(X).MyTurn() || d.of(O).MyTurn() {
				t.Fatalf("after O's first turn X does not move")
			}
		})
	}

	newPair := func(t *testing.T) (View, View) {
		o := engine.Options{Variant: engine.VariantGomoku}
		a, _ := NewView(o, Inviter)
		b, _ := NewView(o, Invitee)
		return a, b
	}
	refusals := []struct {
		name string
		run  func(t *testing.T) error
		want error
	}{
		{"GM-2 the invitee does not place the opening piece", func(t *testing.T) error {
			_, b := newPair(t)
			_, _, err := b.PlaceOpening(gv(t, 9, "E5"))
			return err
		}, engine.ErrNotYourTurn},
		{"GM-2 the opening piece is on the board", func(t *testing.T) error {
			a, _ := newPair(t)
			_, _, err := a.PlaceOpening(81)
			return err
		}, engine.ErrOffBoard},
		{"GM-2 no side is chosen before the opening piece", func(t *testing.T) error {
			_, b := newPair(t)
			_, _, err := b.ChooseSide(X)
			return err
		}, engine.ErrWrongPhase},
		{"GM-2 the inviter does not choose the side", func(t *testing.T) error {
			a, _ := newPair(t)
			a, _, _ = a.PlaceOpening(gv(t, 9, "E5"))
			_, _, err := a.ChooseSide(X)
			return err
		}, engine.ErrNotYourTurn},
		{"GM-2 the side is X or O", func(t *testing.T) error {
			_, b := newPair(t)
			b, _ = b.Observe(Event{Kind: EventOpening, Point: gv(t, 9, "E5")})
			_, _, err := b.ChooseSide(engine.Empty)
			return err
		}, ErrRule},
		{"GM-2 a side event before the opening is refused", func(t *testing.T) error {
			_, b := newPair(t)
			_, err := b.Observe(Event{Kind: EventSide, Side: X})
			return err
		}, engine.ErrWrongPhase},
		{"GM-2 the inviter does not observe its own opening", func(t *testing.T) error {
			a, _ := newPair(t)
			_, err := a.Observe(Event{Kind: EventOpening, Point: 0})
			return err
		}, engine.ErrNotYourTurn},
		{"GM-2 no commitment before the sides", func(t *testing.T) error {
			a, _ := newPair(t)
			a, _, _ = a.PlaceOpening(gv(t, 9, "E5"))
			_, _, err := a.Commit(0)
			return err
		}, engine.ErrWrongPhase},
		{"GM-2 the game's first piece is the X opening", func(t *testing.T) error {
			g, _ := NewGame(engine.Options{})
			_, err := g.Play(O, 0)
			return err
		}, engine.ErrWrongPhase},
		{"GM-2 no turn before the opening piece", func(t *testing.T) error {
			g, _ := NewGame(engine.Options{})
			_, _, err := g.Turn(Turn{Pass: true})
			return err
		}, engine.ErrWrongPhase},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.run(t); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	t.Run("GM-2 GTP play x in the opening places the opening piece", func(t *testing.T) {
		g, _ := NewGame(engine.Options{})
		g, err := g.Play(X, gv(t, 9, "E5"))
		if err != nil || g.Piece(X, gv(t, 9, "E5")) != RevealedPiece || g.ToMove() != O {
			t.Fatalf("play x E5: %v; %v, %s to move", err, g.Piece(X, gv(t, 9, "E5")), PieceName(g.ToMove()))
		}
	})
	t.Run("GM-2 the audit blames an opening off the board on the inviter", func(t *testing.T) {
		err := Audit(Record{Size: 9, Opening: 99, InviteeChoice: X})
		wantViolation(t, err, O, "GM-2", 0)
	})
}

func TestGM3TurnFlow(t *testing.T) {
	const n = 9
	p := func(t *testing.T, s string) engine.Point { return gv(t, n, s) }
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"GM-3 nothing revealed: the piece stands hidden", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			if got := d.turn(p(t, "C3"), Row, nil); got != PlacedHidden {
				t.Fatalf("outcome %s", got)
			}
			o, x := d.of(O), d.of(X)
			if o.Own(p(t, "C3")) != HiddenPiece || x.OpponentHidden() != 1 || x.Revealed(p(t, "C3")) || x.OpponentPiece(p(t, "C3")) {
				t.Fatalf("O owns %v at C3; X counts %d hidden, sees revealed=%t", o.Own(p(t, "C3")), x.OpponentHidden(), x.Revealed(p(t, "C3")))
			}
			h := x.History()
			if len(h) != 1 || h[0].Mover != O || h[0].Turn.Point != engine.NoPoint || h[0].Turn.Line != row(3) || h[0].Outcome != PlacedHidden {
				t.Fatalf("X's note of the turn: %+v", h)
			}
		}},
		{"GM-3 the opponent reveals the committed point: the move fails", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			d.turn(p(t, "A1"), Row, nil)
			d.turn(p(t, "C3"), Row, nil) // X hidden at C3
			if got := d.turn(p(t, "C3"), Row, gvs(t, n, "C3")); got != Failed {
				t.Fatalf("outcome %s", got)
			}
			o, x := d.of(O), d.of(X)
			if d.game.Piece(O, p(t, "C3")) != NoPiece || o.Own(p(t, "C3")) != NoPiece {
				t.Fatalf("a failed move placed a piece")
			}
			if x.Own(p(t, "C3")) != RevealedPiece || !o.OpponentPiece(p(t, "C3")) || slices.Contains(o.LegalPoints(), p(t, "C3")) {
				t.Fatalf("X's C3 is not revealed to O")
			}
			if d.game.ToMove() != X || d.game.MoveNumber() != 4 {
				t.Fatalf("after the failed move: %s to move, move %d", PieceName(d.game.ToMove()), d.game.MoveNumber())
			}
		}},
		{"GM-3 the opponent reveals elsewhere in the row: the piece stands revealed", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			d.turn(p(t, "A1"), Row, nil)
			d.turn(p(t, "C3"), Row, nil)
			if got := d.turn(p(t, "G3"), Row, gvs(t, n, "C3")); got != PlacedRevealed {
				t.Fatalf("outcome %s", got)
			}
			if d.of(O).Own(p(t, "G3")) != RevealedPiece || !d.of(X).OpponentPiece(p(t, "G3")) {
				t.Fatalf("O's G3 is not revealed")
			}
		}},
		{"GM-3 a column works as a row does", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			d.turn(p(t, "A1"), Row, nil)
			d.turn(p(t, "C3"), Row, nil)
			if got := d.turn(p(t, "C8"), Column, gvs(t, n, "C3")); got != PlacedRevealed {
				t.Fatalf("outcome %s", got)
			}
		}},
		{"GM-3 the opponent may reveal nothing though it has pieces in the line", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			d.turn(p(t, "A1"), Row, nil)
			d.turn(p(t, "C3"), Row, nil)
			if got := d.turn(p(t, "G3"), Row, nil); got != PlacedHidden {
				t.Fatalf("outcome %s", got)
			}
			if got := d.of(X).HiddenInLine(row(3)); !slices.Equal(got, gvs(t, n, "C3")) {
				t.Fatalf("X's hidden pieces in row 3: %s", engine.FormatVertices(n, got))
			}
		}},
		{"GM-3 the opponent reveals only its hidden pieces in the line", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			d.turn(p(t, "A1"), Row, nil)
			d.turn(p(t, "C3"), Row, nil)
			d.turn(p(t, "A2"), Row, nil)
			d.turn(p(t, "D3"), Row, nil)
			x := *d.of(X)
			o := *d.of(O)
			o, _, err := o.Commit(p(t, "G3"))
			if err == nil {
				x, err = x.Observe(Event{Kind: EventCommit})
			}
			var e Event
			if err == nil {
				o, e, err = o.Announce(Row)
			}
			if err == nil {
				x, err = x.Observe(e)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range [][]string{{"C4"}, {"B3"}, {"E5"}, {"C3", "C3"}} {
				if _, _, err := x.Respond(gvs(t, n, bad...)); !errors.Is(err, ErrRule) {
					t.Fatalf("respond %v: %v", bad, err)
				}
			}
			if _, _, err := x.Respond(gvs(t, n, "D3", "C3")); err != nil {
				t.Fatalf("respond with both hidden pieces of row 3: %v", err)
			}
			if _, _, err := o.Announce(Row); !errors.Is(err, engine.ErrWrongPhase) {
				t.Fatalf("a second announcement: %v", err)
			}
		}},
		{"GM-3 the mover announces the row or the column of its point only", func(t *testing.T) {
			v := soloView(t, n, "E5", O)
			v, _, _ = v.Commit(p(t, "C3"))
			if _, _, err := v.Announce(0); !errors.Is(err, ErrRule) {
				t.Fatalf("announcing no line: %v", err)
			}
			next, e, err := v.Announce(Column)
			if err != nil || e.Line != col('C') || next.Announced() != col('C') || next.Phase() != PhaseRespond {
				t.Fatalf("announce column: %v, %+v", err, e)
			}
		}},
		{"GM-3 lie found at once: the opponent reveals a piece outside the line", func(t *testing.T) {
			v := soloView(t, n, "E5", O)
			v = soloMine(t, v, "A1", Row)
			v, err := soloTheirs(t, v, theirTurn{line: row(7)}) // X hidden at move 2
			if err != nil {
				t.Fatal(err)
			}
			v, _, _ = v.Commit(p(t, "C3"))
			v, _, _ = v.Announce(Row)
			v, err = v.Observe(Event{Kind: EventResponse, Openings: []Opening{{Move: 2, Point: p(t, "C7")}}})
			wantViolation(t, err, X, "GM-3", 3)
			wantForfeit(t, v, X)
		}},
		{"GM-3 lie found at once: the opponent opens a move that placed no hidden piece", func(t *testing.T) {
			v := soloView(t, n, "E5", O)
			v = soloMine(t, v, "A1", Row)
			v, _ = soloTheirs(t, v, theirTurn{line: row(3)})
			v, _, _ = v.Commit(p(t, "C3"))
			v, _, _ = v.Announce(Row)
			_, err := v.Observe(Event{Kind: EventResponse, Openings: []Opening{{Move: 1, Point: p(t, "A3")}}})
			wantViolation(t, err, X, "GM-3", 3)
		}},
		{"GM-3 lie found at once: an opened piece was not in its move's announced line", func(t *testing.T) {
			v := soloView(t, n, "E5", O)
			v = soloMine(t, v, "A1", Row)
			v, _ = soloTheirs(t, v, theirTurn{line: row(5)}) // X says row 5
			v, _, _ = v.Commit(p(t, "G3"))
			v, _, _ = v.Announce(Row)
			_, err := v.Observe(Event{Kind: EventResponse, Openings: []Opening{{Move: 2, Point: p(t, "C3")}}})
			wantViolation(t, err, X, "GM-3", 2)
		}},
		{"GM-3 lie found at once: the mover reveals a point outside its announced line", func(t *testing.T) {
			v := soloView(t, n, "E5", X)
			v, _ = soloTheirs(t, v, theirTurn{line: row(1)})
			v = soloMine(t, v, "C3", Row)
			v, err := soloTheirs(t, v, theirTurn{line: row(3), respond: []string{"C3"}, reveal: "G7"})
			wantViolation(t, err, O, "GM-3", 3)
			wantForfeit(t, v, O)
		}},
		{"GM-3 malformed events change nothing", func(t *testing.T) {
			v := soloView(t, n, "E5", X)
			for _, e := range []Event{
				{Kind: EventAnnounce, Line: row(3)},
				{Kind: EventReveal, Point: 0},
				{Kind: 0},
			} {
				if next, err := v.Observe(e); !errors.Is(err, engine.ErrWrongPhase) || next.Phase() != PhaseCommit {
					t.Fatalf("%s event in the commit phase: %v", e.Kind, err)
				}
			}
			v, _ = v.Observe(Event{Kind: EventCommit})
			if _, err := v.Observe(Event{Kind: EventAnnounce, Line: Line{Kind: Row, Index: 9}}); !errors.Is(err, ErrRule) {
				t.Fatalf("row 10 of 9: %v", err)
			}
			// The announcement was refused, so no answer is due.
			if _, _, err := v.Respond(nil); !errors.Is(err, engine.ErrWrongPhase) {
				t.Fatalf("respond before the announcement: %v", err)
			}
		}},
		{"GM-3 the referee blames the responder for a reveal outside the line", func(t *testing.T) {
			g, _ := NewGame(engine.Options{})
			g, _ = g.PlaceOpening(p(t, "E5"))
			g, _ = g.Play(O, p(t, "A1"))
			g, _ = g.Play(X, p(t, "C3"))
			_, _, err := g.Turn(Turn{Point: p(t, "G4"), Line: row(4), Revealed: gvs(t, n, "C3")})
			wantViolation(t, err, X, "GM-3", 3)
			_, _, err = g.Turn(Turn{Point: p(t, "G3"), Line: row(3), Revealed: gvs(t, n, "D3")})
			wantViolation(t, err, X, "GM-3", 3)
			_, _, err = g.Turn(Turn{Point: p(t, "G3"), Line: row(4)})
			wantViolation(t, err, O, "GM-3", 3)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.run)
	}
}

func TestGM4Placement(t *testing.T) {
	const n = 9
	p := func(t *testing.T, s string) engine.Point { return gv(t, n, s) }
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"GM-4 a piece on a hidden opponent piece: both stand", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			d.turn(p(t, "C3"), Row, nil) // O hidden at C3
			if !slices.Contains(d.of(X).LegalPoints(), p(t, "C3")) {
				t.Fatal("C3, under a hidden O piece, is not legal for X")
			}
			if got := d.turn(p(t, "C3"), Column, nil); got != PlacedHidden {
				t.Fatalf("outcome %s", got)
			}
			if d.game.Piece(X, p(t, "C3")) != HiddenPiece || d.game.Piece(O, p(t, "C3")) != HiddenPiece {
				t.Fatalf("both do not stand:\n%s", d.game)
			}
			// X reveals its C3 when O announces row 3: the point is
			// revealed, O's piece there stays hidden, and neither may
			// play there any more.
			d.turn(p(t, "G3"), Row, gvs(t, n, "C3"))
			if d.game.Piece(O, p(t, "C3")) != HiddenPiece || !d.game.Revealed(p(t, "C3")) {
				t.Fatalf("after X's reveal: O %v, revealed %t", d.game.Piece(O, p(t, "C3")), d.game.Revealed(p(t, "C3")))
			}
			for _, c := range []engine.Color{X, O} {
				if slices.Contains(d.of(c).LegalPoints(), p(t, "C3")) {
					t.Fatalf("%s may still play C3", PieceName(c))
				}
			}
			if got := d.of(O).HiddenInLine(col('C')); !slices.Equal(got, gvs(t, n, "C3")) {
				t.Fatalf("O's hidden pieces in column C: %s", engine.FormatVertices(n, got))
			}
		}},
		{"GM-4 refused: a point with the mover's own piece", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			d.turn(p(t, "C3"), Row, nil)
			d.turn(p(t, "A1"), Row, nil)
			if _, _, err := d.of(O).Commit(p(t, "C3")); !errors.Is(err, engine.ErrOccupied) {
				t.Fatalf("view: commit to own C3: %v", err)
			}
			_, err := d.game.Play(O, p(t, "C3"))
			if v := wantViolation(t, err, O, "GM-4", 3); !errors.Is(v, engine.ErrOccupied) {
				t.Fatalf("GM-4 violation does not wrap ErrOccupied")
			}
		}},
		{"GM-4 refused: the revealed opening point", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), O)
			for _, c := range []engine.Color{X, O} {
				if slices.Contains(d.of(c).LegalPoints(), p(t, "E5")) || !d.of(c).Revealed(p(t, "E5")) {
					t.Fatalf("E5 is legal for %s", PieceName(c))
				}
			}
			if _, _, err := d.of(O).Commit(p(t, "E5")); !errors.Is(err, engine.ErrOccupied) {
				t.Fatalf("commit to E5: %v", err)
			}
			if _, err := d.game.Play(O, p(t, "E5")); !errors.Is(err, engine.ErrOccupied) {
				t.Fatalf("play o E5: %v", err)
			}
		}},
		{"GM-4 refused: a revealed opponent piece", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			d.turn(p(t, "A1"), Row, nil)
			d.turn(p(t, "C3"), Row, nil)
			d.turn(p(t, "C3"), Row, gvs(t, n, "C3")) // fails, X's C3 revealed
			d.turn(p(t, "J9"), Row, nil)
			if _, _, err := d.of(O).Commit(p(t, "C3")); !errors.Is(err, engine.ErrOccupied) {
				t.Fatalf("commit to X's revealed C3: %v", err)
			}
		}},
		{"GM-4 refused: off the board", func(t *testing.T) {
			d := newDuel(t, n, p(t, "E5"), X)
			if _, _, err := d.of(O).Commit(81); !errors.Is(err, engine.ErrOccupied) {
				t.Fatalf("commit off the board: %v", err)
			}
			_, err := d.game.Play(O, 81)
			if v := wantViolation(t, err, O, "GM-3", 1); !errors.Is(v, engine.ErrOffBoard) {
				t.Fatal("off-board point does not wrap ErrOffBoard")
			}
		}},
		{"GM-4 lie found at once: the mover reveals a revealed point", func(t *testing.T) {
			v := soloView(t, n, "E5", X)
			v, _ = soloTheirs(t, v, theirTurn{line: row(1)})
			v = soloMine(t, v, "C5", Row)
			v, err := soloTheirs(t, v, theirTurn{line: row(5), respond: []string{"C5"}, reveal: "E5"})
			if viol := wantViolation(t, err, O, "GM-4", 3); !errors.Is(viol, engine.ErrOccupied) {
				t.Fatal("no ErrOccupied")
			}
			wantForfeit(t, v, O)
		}},
		{"GM-4 lie found at once: an opened piece stood on a point revealed before it", func(t *testing.T) {
			v := soloView(t, n, "E5", O)
			v = soloMine(t, v, "A1", Row)
			v, _ = soloTheirs(t, v, theirTurn{line: row(5)}) // X's move 2, hidden
			v, _, _ = v.Commit(p(t, "G5"))
			v, _, _ = v.Announce(Row)
			// Move 2 was on E5, the opening point, revealed since move 0.
			v, err := v.Observe(Event{Kind: EventResponse, Openings: []Opening{{Move: 2, Point: p(t, "E5")}}})
			wantViolation(t, err, X, "GM-4", 2)
			wantForfeit(t, v, X)
		}},
		{"GM-4 lie found at once: two opened pieces of one player on one point", func(t *testing.T) {
			v := soloView(t, n, "E5", O)
			v = soloMine(t, v, "A1", Row)
			v, _ = soloTheirs(t, v, theirTurn{line: row(3)}) // X move 2
			v = soloMine(t, v, "A2", Row)
			v, _ = soloTheirs(t, v, theirTurn{line: col('C')}) // X move 4
			v, _, _ = v.Commit(p(t, "G3"))
			v, _, _ = v.Announce(Row)
			_, err := v.Observe(Event{Kind: EventResponse, Openings: []Opening{{Move: 2, Point: p(t, "C3")}, {Move: 4, Point: p(t, "C3")}}})
			wantViolation(t, err, X, "GM-4", 4)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.run)
	}
}
