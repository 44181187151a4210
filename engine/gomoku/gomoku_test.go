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

// placeFor plays a turn of the player to move in g on p, announcing its
// row, with nothing revealed; five is announced when due, and no win is
// claimed.
func placeFor(t *testing.T, g Game, s string) Game {
	t.Helper()
	p := gv(t, g.Size(), s)
	c := g.ToMove()
	after := g.Pieces(c)
	after.Set(p, c)
	five := !g.FiveMade(c) && HasFive(after, c)
	next, _, err := g.Turn(Turn{Point: p, Line: LineOf(g.Size(), p, Row), Declaration: Declaration{Five: five}})
	if err != nil {
		t.Fatalf("turn %d, %s at %s: %v", g.MoveNumber(), PieceName(c), s, err)
	}
	return next
}

func TestGM5FiveAnnouncement(t *testing.T) {
	const n = 9
	tests := []struct {
		name    string
		opening string
		xs, os  []string // X's and O's pieces before the tested move
		point   string   // X's tested move
		due     bool
	}{
		{"GM-5 the fifth piece in a row is due", "J9", []string{"A1", "B1", "C1", "D1"}, nil, "E1", true},
		{"GM-5 four in a row is not due", "J9", []string{"A1", "B1", "C1"}, nil, "D1", false},
		{"GM-5 filling the gap is due", "J9", []string{"A1", "B1", "D1", "E1"}, nil, "C1", true},
		{"GM-5 a diagonal five is due", "J9", []string{"A1", "B2", "C3", "D4"}, nil, "E5", true},
		{"GM-5 an anti-diagonal five is due", "J9", []string{"E1", "D2", "C3", "B4"}, nil, "A5", true},
		{"GM-5 a column five is due", "J9", []string{"C2", "C3", "C5", "C6"}, nil, "C4", true},
		{"GM-5 the opening piece counts for X", "J9", []string{"J8", "J7", "J6"}, nil, "J5", true},
		{"GM-5 making six at once is the first five", "J9", []string{"A1", "B1", "C1", "E1", "F1"}, nil, "D1", true},
		{"GM-5 only the first five is announced", "J9", []string{"A1", "B1", "C1", "D1", "E1", "A2", "B2", "C2", "D2"}, nil, "E2", false},
		{"GM-5 six after five is not due", "J9", []string{"A1", "B1", "C1", "D1", "E1"}, nil, "F1", false},
		{"GM-5 the opponent's pieces are not the mover's", "J9", []string{"A3"}, []string{"A1", "B1", "C1", "D1"}, "E1", false},
		{"GM-5 a hidden opponent piece under the fifth point does not stop it", "J9", []string{"A1", "B1", "C1", "D1"}, []string{"E1"}, "E1", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, _ := NewGame(engine.Options{Size: n})
			g, err := g.PlaceOpening(gv(t, n, tc.opening))
			if err != nil {
				t.Fatal(err)
			}
			// O's fillers keep the turns alternating on row 9.
			fillers := []string{"A9", "C9", "E9", "G9", "A7", "C7", "E7", "G7", "H8", "B8"}
			for i := range max(len(tc.xs), len(tc.os)) + 1 {
				o := fillers[i]
				if i < len(tc.os) {
					o = tc.os[i]
				}
				g = placeFor(t, g, o)
				if i < len(tc.xs) {
					g = placeFor(t, g, tc.xs[i])
				} else if i < max(len(tc.xs), len(tc.os)) {
					g, _, _ = g.Turn(Turn{Pass: true})
				}
			}
			if g.ToMove() != X || g.Over() {
				t.Fatalf("setup: %s to move, over %t", PieceName(g.ToMove()), g.Over())
			}
			p := gv(t, n, tc.point)
			turn := Turn{Point: p, Line: LineOf(n, p, Row)}
			turn.Five = !tc.due
			_, _, err = g.Turn(turn)
			wantViolation(t, err, X, "GM-5", g.MoveNumber())
			turn.Five = tc.due
			next, _, err := g.Turn(turn)
			if err != nil {
				t.Fatalf("five=%t refused: %v", tc.due, err)
			}
			if next.FiveMade(X) != (g.FiveMade(X) || tc.due) || g.FiveMade(X) && tc.due {
				t.Fatalf("five made: before %t, after %t", g.FiveMade(X), next.FiveMade(X))
			}
		})
	}

	t.Run("GM-5 the view says when five is due and refuses anything else", func(t *testing.T) {
		d := newDuel(t, n, gv(t, n, "J9"), X)
		for i, s := range []string{"A1", "B1", "C1", "D1"} {
			d.turn(gv(t, n, []string{"A9", "C9", "E9", "G9"}[i]), Row, nil)
			d.turn(gv(t, n, s), Row, nil)
			if d.of(X).FiveAnnounced(X) {
				t.Fatal("five before five")
			}
		}
		d.turn(gv(t, n, "A7"), Row, nil)
		d.begin(gv(t, n, "E1"), Row, nil)
		x := d.of(X)
		if !x.FiveDue() || d.of(O).FiveDue() {
			t.Fatalf("five due: X %t, O %t", x.FiveDue(), d.of(O).FiveDue())
		}
		if _, _, err := x.Declare(Declaration{}); !errors.Is(err, ErrRule) {
			t.Fatalf("declaring no five when due: %v", err)
		}
		d.finish(gv(t, n, "E1"), Row, nil, Declaration{Five: true})
		if !d.of(O).FiveAnnounced(X) || d.of(O).FiveAnnounced(O) {
			t.Fatal("O's view did not hear X's five")
		}
		d.turn(gv(t, n, "C7"), Row, nil)
		d.begin(gv(t, n, "F1"), Row, nil)
		if d.of(X).FiveDue() {
			t.Fatal("six after five is due")
		}
		if _, _, err := d.of(X).Declare(Declaration{Five: true}); !errors.Is(err, ErrRule) {
			t.Fatalf("declaring five again: %v", err)
		}
	})
	t.Run("GM-5 lie found at once: five announced twice", func(t *testing.T) {
		v := soloView(t, n, "E5", O)
		v = soloMine(t, v, "A1", Row)
		v, err := soloTheirs(t, v, theirTurn{line: row(3), declare: Declaration{Five: true}})
		if err != nil || !v.FiveAnnounced(X) {
			t.Fatalf("a first five: %v", err)
		}
		v = soloMine(t, v, "A2", Row)
		v, err = soloTheirs(t, v, theirTurn{line: row(3), declare: Declaration{Five: true}})
		wantViolation(t, err, X, "GM-5", 4)
		wantForfeit(t, v, X)
	})
	t.Run("GM-5 lie found at once: a revealed five never announced", func(t *testing.T) {
		v := soloView(t, n, "J9", O)
		for i := range 5 {
			v = soloMine(t, v, []string{"A9", "C9", "E9", "G9", "A8"}[i], Row)
			v, _ = soloTheirs(t, v, theirTurn{line: row(1)})
		}
		// O announces row 1; X opens its five there.
		var opened []Opening
		for i, s := range []string{"A1", "B1", "C1", "D1", "E1"} {
			opened = append(opened, Opening{Move: 2 * (i + 1), Point: gv(t, n, s)})
		}
		v = soloMine(t, v, "G1", Row, opened...)
		v, err := soloTheirs(t, v, theirTurn{line: row(3)})
		wantViolation(t, err, X, "GM-5", 12)
		wantForfeit(t, v, X)
	})
	t.Run("GM-5 no five after a failed move", func(t *testing.T) {
		g, _ := NewGame(engine.Options{Size: n})
		g, _ = g.PlaceOpening(gv(t, n, "E5"))
		g = placeFor(t, g, "C3")
		_, _, err := g.Turn(Turn{Point: gv(t, n, "C3"), Line: row(3), Revealed: gvs(t, n, "C3"), Declaration: Declaration{Five: true}})
		wantViolation(t, err, X, "GM-5", 2)
	})
}

// diagram reads a board diagram for the geometry tables.
func diagram(rows ...string) engine.Board { return engine.MustParseBoard(rows...) }

func TestGM6DoubleFiveGeometry(t *testing.T) {
	tests := []struct {
		name   string
		board  engine.Board
		fives  int
		double bool
	}{
		{"GM-6 no piece", diagram(".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "........."), 0, false},
		{"GM-6 five in a row is one line", diagram(".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "XXXXX...."), 1, false},
		{"GM-6 four and four crossing are nothing", diagram(".........", ".........", ".........", ".........", ".........", "X........", "X........", "X........", ".XXXX...."), 0, false},
		{"GM-6 six in a row is one line", diagram(".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "XXXXXX..."), 2, false},
		{"GM-6 seven in a row is one line", diagram(".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "XXXXXXX.."), 3, false},
		{"GM-6 eight in a row: the farthest windows share two pieces", diagram(".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "XXXXXXXX."), 4, false},
		{"GM-6 nine in a row is two lines sharing one piece", diagram(".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "XXXXXXXXX"), 5, true},
		{"GM-6 nine in a column", diagram("....X....", "....X....", "....X....", "....X....", "....X....", "....X....", "....X....", "....X....", "....X...."), 5, true},
		{"GM-6 the long diagonal of nine", diagram("........X", ".......X.", "......X..", ".....X...", "....X....", "...X.....", "..X......", ".X.......", "X........"), 5, true},
		{"GM-6 a diagonal six is one line", diagram(".........", ".........", ".........", ".....X...", "....X....", "...X.....", "..X......", ".X.......", "X........"), 2, false},
		{"GM-6 an anti-diagonal eight is one line", diagram(".........", "X........", ".X.......", "..X......", "...X.....", "....X....", ".....X...", "......X..", ".......X."), 4, false},
		{"GM-6 two fives crossing on a shared piece", diagram(".........", ".........", "....X....", "....X....", "..XXXXX..", "....X....", "....X....", ".........", "........."), 2, true},
		{"GM-6 an L sharing its corner", diagram(".........", ".........", ".........", ".........", "X........", "X........", "X........", "X........", "XXXXX...."), 2, true},
		{"GM-6 two fives apart in different directions", diagram("........X", "........X", "........X", "........X", "........X", ".........", ".........", ".........", "XXXXX...."), 2, true},
		{"GM-6 parallel fives on adjacent rows", diagram(".........", ".........", ".........", ".........", ".........", ".........", ".........", "XXXXX....", "XXXXX...."), 2, true},
		{"GM-6 diagonals crossing", diagram(".........", ".........", ".........", ".........", "X...X....", ".X.X.....", "..X......", ".X.X.....", "X...X...."), 2, true},
		{"GM-6 a six and a five crossing its end", diagram(".........", ".........", ".........", ".........", ".....X...", ".....X...", ".....X...", ".....X...", "XXXXXX..."), 3, true},
		{"GM-6 the other colour's five does not count", diagram(".........", ".........", ".........", ".........", ".........", ".........", ".........", "OOOOO....", "XXXXX...."), 1, false},
		{"GM-6 two fives on one row with a gap (11x11)", diagram("...........", "...........", "...........", "...........", "...........", "...........", "...........", "...........", "...........", "...........", "XXXXX.XXXXX"), 2, true},
		{"GM-6 ten in a row (11x11)", diagram("...........", "...........", "...........", "...........", "...........", "...........", "...........", "...........", "...........", "...........", "XXXXXXXXXX."), 6, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fives := FiveLines(tc.board, engine.Black)
			if len(fives) != tc.fives {
				t.Fatalf("FiveLines: %d windows, want %d", len(fives), tc.fives)
			}
			if HasFive(tc.board, engine.Black) != (tc.fives > 0) {
				t.Fatalf("HasFive = %t", HasFive(tc.board, engine.Black))
			}
			lines, ok := DoubleFive(tc.board, engine.Black)
			if ok != tc.double {
				t.Fatalf("DoubleFive = %t, want %t", ok, tc.double)
			}
			if ok {
				if err := CheckDoubleFive(tc.board, engine.Black, lines); err != nil {
					t.Fatalf("DoubleFive gave %s and %s: %v", lines[0].Format(tc.board.Size()), lines[1].Format(tc.board.Size()), err)
				}
			}
		})
	}

	const n = 9
	five := func(s string, d Direction) Five { return Five{Start: gv(t, n, s), Dir: d} }
	shared := []struct {
		name string
		a, b Five
		want int
	}{
		{"GM-6 a window shares all five with itself", five("A1", Horizontal), five("A1", Horizontal), 5},
		{"GM-6 windows one apart share four", five("A1", Horizontal), five("B1", Horizontal), 4},
		{"GM-6 windows three apart share two", five("A1", Horizontal), five("D1", Horizontal), 2},
		{"GM-6 windows four apart share one", five("A1", Horizontal), five("E1", Horizontal), 1},
		{"GM-6 diagonal windows four apart share one", five("A1", Diagonal), five("E5", Diagonal), 1},
		{"GM-6 parallel rows share none", five("A1", Horizontal), five("A2", Horizontal), 0},
		{"GM-6 a row and a column cross on one", five("A3", Horizontal), five("C1", Vertical), 1},
		{"GM-6 two diagonals cross on one", five("A1", Diagonal), five("E1", AntiDiagonal), 1},
		{"GM-6 diagonals that pass between points share none", five("A1", Diagonal), five("E2", AntiDiagonal), 0},
		{"GM-6 a window off the board shares nothing", five("F1", Horizontal), five("F1", Horizontal), 0},
	}
	for _, tc := range shared {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.a.Shared(n, tc.b); got != tc.want {
				t.Fatalf("%s and %s share %d, want %d", tc.a.Format(n), tc.b.Format(n), got, tc.want)
			}
			if got := tc.b.Shared(n, tc.a); got != tc.want {
				t.Fatalf("Shared is not symmetric: %d", got)
			}
		})
	}

	nine := diagram(".........", ".........", ".........", ".........", ".........", ".........", ".........", ".........", "XXXXXXXXX")
	claims := []struct {
		name  string
		lines [2]Five
		ok    bool
	}{
		{"GM-6 claim: the ends of nine in a row", [2]Five{five("A1", Horizontal), five("E1", Horizontal)}, true},
		{"GM-6 claim: windows sharing two pieces", [2]Five{five("A1", Horizontal), five("D1", Horizontal)}, false},
		{"GM-6 claim: one window twice", [2]Five{five("B1", Horizontal), five("B1", Horizontal)}, false},
		{"GM-6 claim: a window without pieces", [2]Five{five("A1", Horizontal), five("A2", Horizontal)}, false},
		{"GM-6 claim: a window off the board", [2]Five{five("A1", Horizontal), five("F1", Horizontal)}, false},
		{"GM-6 claim: a window with no direction", [2]Five{five("A1", Horizontal), {Start: gv(t, n, "E1")}}, false},
	}
	for _, tc := range claims {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckDoubleFive(nine, engine.Black, tc.lines)
			if (err == nil) != tc.ok {
				t.Fatalf("CheckDoubleFive: %v, want ok=%t", err, tc.ok)
			}
		})
	}

	t.Run("GM-6 a claimed win between two views", func(t *testing.T) {
		d := newDuel(t, n, gv(t, n, "E5"), X)
		os := []string{"A9", "C9", "E9", "G9", "J9", "A7", "C7", "J7"}
		xs := []string{"C5", "D5", "F5", "G5", "E3", "E4", "E6", "E7"}
		for i := range xs {
			d.turn(gv(t, n, os[i]), Row, nil)
			kind := Row
			if i >= 4 {
				kind = Column
			}
			d.turn(gv(t, n, xs[i]), kind, nil)
		}
		if d.game.Winner() != X || d.game.Result().By != engine.ByWin {
			t.Fatalf("result %v\n%s", d.game.Result(), d.game)
		}
		o := d.of(O)
		for _, s := range append(xs, "E5") {
			if !o.OpponentPiece(gv(t, n, s)) {
				t.Fatalf("O's view did not get the claimed piece %s", s)
			}
		}
		if err := Audit(d.record(O)); err != nil {
			t.Fatalf("audit of a won game: %v", err)
		}
	})

	// A solo view of O before X's claim at move 16: X has C5 D5 F5 G5
	// (five with its opening E5, announced at move 8) and E3 E4 E6 E7,
	// all hidden.
	v := soloView(t, n, "E5", O)
	xs := []string{"C5", "D5", "F5", "G5", "E3", "E4", "E6", "E7"}
	for i := range xs {
		v = soloMine(t, v, []string{"A9", "C9", "E9", "G9", "J9", "A7", "C7", "J7"}[i], Row)
		line := row(5)
		if i >= 4 {
			line = col('E')
		}
		if i == len(xs)-1 {
			var err error
			v, _ = v.Observe(Event{Kind: EventCommit})
			v, _ = v.Observe(Event{Kind: EventAnnounce, Line: line})
			if v, _, err = v.Respond(nil); err != nil || v.Phase() != PhaseDeclare {
				t.Fatalf("setup: %v, %s", err, v.Phase())
			}
			break
		}
		var err error
		if v, err = soloTheirs(t, v, theirTurn{line: line, declare: Declaration{Five: i == 3}}); err != nil {
			t.Fatalf("setup: %v", err)
		}
	}
	lines := [2]Five{five("C5", Horizontal), five("E3", Vertical)}
	honest := func() []Opening {
		var os []Opening
		for i, s := range xs {
			os = append(os, Opening{Move: 2 * (i + 1), Point: gv(t, n, s)})
		}
		return os
	}
	claimsAtOnce := []struct {
		name     string
		decl     Declaration
		openings func() []Opening
		rule     string
		move     int
	}{
		{"GM-6 a true claim wins", Declaration{Claim: true, Lines: lines}, honest, "", 0},
		{"GM-6 lie found at once: a claimed piece is not shown", Declaration{Claim: true, Lines: lines}, func() []Opening { return honest()[:7] }, "GM-6", 16},
		{"GM-6 lie found at once: claimed lines share two pieces", Declaration{Claim: true, Lines: [2]Five{lines[0], five("D5", Horizontal)}}, honest, "GM-6", 16},
		{"GM-6 lie found at once: a claimed line leaves the board", Declaration{Claim: true, Lines: [2]Five{lines[0], five("G5", Horizontal)}}, honest, "GM-6", 16},
		{"GM-6 lie found at once: an opened piece off the claimed lines", Declaration{Claim: true, Lines: lines}, func() []Opening {
			os := honest()
			os[7].Point = gv(t, n, "A1")
			return os
		}, "GM-6", 16},
		{"GM-6 lie found at once: the claim opens a move of O", Declaration{Claim: true, Lines: lines}, func() []Opening {
			os := honest()
			os[7].Move = 15
			return os
		}, "GM-6", 16},
		{"GM-6 lie found at once: an opened piece was off its move's line", Declaration{Claim: true, Lines: lines}, func() []Opening {
			os := honest()
			os[1].Point, os[4].Point = os[4].Point, os[1].Point // move 4 (row 5) at E3
			return os
		}, "GM-3", 4},
		{"GM-6 a claim does not excuse a second five", Declaration{Five: true, Claim: true, Lines: lines}, honest, "GM-5", 16},
	}
	for _, tc := range claimsAtOnce {
		t.Run(tc.name, func(t *testing.T) {
			next, err := v.Observe(Event{Kind: EventDeclare, Declaration: tc.decl, Openings: tc.openings()})
			if tc.rule == "" {
				if err != nil || next.Result() != (engine.Result{Winner: X, By: engine.ByWin}) {
					t.Fatalf("true claim: %v, result %v", err, next.Result())
				}
				return
			}
			wantViolation(t, err, X, tc.rule, tc.move)
			wantForfeit(t, next, X)
		})
	}

	t.Run("GM-6 the referee refuses a false claim", func(t *testing.T) {
		g, _ := NewGame(engine.Options{Size: n})
		g, _ = g.PlaceOpening(gv(t, n, "E5"))
		g = placeFor(t, g, "A9")
		turn := Turn{Point: gv(t, n, "C5"), Line: row(5), Declaration: Declaration{Claim: true, Lines: lines}}
		_, _, err := g.Turn(turn)
		wantViolation(t, err, X, "GM-6", 2)
	})
	t.Run("GM-6 a double five may be claimed after a later placement", func(t *testing.T) {
		g, _ := NewGame(engine.Options{Size: n})
		g, _ = g.PlaceOpening(gv(t, n, "E5"))
		os := []string{"A9", "C9", "E9", "G9", "J9", "A7", "C7", "J7", "B8"}
		for i, s := range xs {
			g = placeFor(t, g, os[i])
			g = placeFor(t, g, s) // no claim
		}
		if _, ok := DoubleFive(g.Pieces(X), X); !ok || g.Over() {
			t.Fatalf("setup: X has no unclaimed double five")
		}
		g = placeFor(t, g, os[8])
		g, _, err := g.Turn(Turn{Point: gv(t, n, "A1"), Line: row(1), Declaration: Declaration{Claim: true, Lines: lines}})
		if err != nil || g.Winner() != X {
			t.Fatalf("late claim: %v, winner %s", err, PieceName(g.Winner()))
		}
		// The claim reveals the pieces of both lines.
		for _, s := range xs {
			if g.Piece(X, gv(t, n, s)) != RevealedPiece {
				t.Fatalf("claimed piece %s not revealed", s)
			}
		}
	})
	t.Run("GM-6 GTP play claims a double five by itself", func(t *testing.T) {
		g, _ := NewGame(engine.Options{Size: n})
		g, _ = g.Play(X, gv(t, n, "E5"))
		for _, s := range xs {
			var err error
			if g, err = g.Play(X, gv(t, n, s)); err != nil {
				t.Fatal(err)
			}
		}
		if g.Winner() != X || !g.Over() || g.WinnerName() != "x" {
			t.Fatalf("winner %s (%s)", PieceName(g.Winner()), g.WinnerName())
		}
		if _, err := g.Play(O, gv(t, n, "A1")); !errors.Is(err, engine.ErrGameOver) {
			t.Fatalf("play after the win: %v", err)
		}
	})
}

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
