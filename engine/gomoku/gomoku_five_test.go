package gomoku

import (
	"errors"
	"testing"

	"github.com/kakure/kakure/engine"
)

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
