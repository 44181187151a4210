package engine

import (
	"errors"
	"strings"
	"testing"
)

// goSpecGame returns a plain Go game on the diagram's position with toMove
// to play, as if earlier moves had reached it: the position is the only
// one in the superko history.
func goSpecGame(t *testing.T, toMove Color, komi float64, rows ...string) GoGame {
	t.Helper()
	b, err := ParseBoard(rows...)
	if err != nil {
		t.Fatalf("test diagram: %v", err)
	}
	g, err := NewGoGame(Options{Variant: VariantGo, Size: b.Size(), Komi: komi, KomiSet: true})
	if err != nil {
		t.Fatalf("NewGoGame: %v", err)
	}
	g.board = b
	g.history = (*PositionHistory)(nil).Push(b)
	g.toMove = toMove
	return g
}

// goSpecMove reads a test move such as "b C3" or "w pass".
func goSpecMove(t *testing.T, size int, move string) (Color, Point) {
	t.Helper()
	f := strings.Fields(move)
	if len(f) != 2 {
		t.Fatalf("test move %q: want \"colour vertex\"", move)
	}
	c, err := ParseColor(f[0])
	if err != nil {
		t.Fatalf("test move %q: %v", move, err)
	}
	p, err := ParseVertex(size, f[1])
	if err != nil {
		t.Fatalf("test move %q: %v", move, err)
	}
	return c, p
}

// goSpecPlayAll plays moves that must all be legal and returns the game.
func goSpecPlayAll(t *testing.T, g GoGame, moves ...string) GoGame {
	t.Helper()
	for i, m := range moves {
		c, p := goSpecMove(t, g.Options().Size, m)
		next, _, err := g.Play(c, p)
		if err != nil {
			t.Fatalf("setup move %d %q refused: %v\n%v", i+1, m, err, g.Board())
		}
		g = next
	}
	return g
}

// goSpecRefused checks that an illegal move returns the receiver unchanged
// and the given reason, from both Play and Check, and is not listed by
// LegalPoints.
func goSpecRefused(t *testing.T, g GoGame, c Color, p Point, reason error) {
	t.Helper()
	before := g
	size := g.Options().Size
	next, captured, err := g.Play(c, p)
	if !errors.Is(err, reason) {
		t.Fatalf("Play(%v, %s) error = %v, want %v\n%v", c, p.Vertex(size), err, reason, g.Board())
	}
	if next != before || g != before {
		t.Errorf("an illegal move changed the game value")
	}
	if captured != nil {
		t.Errorf("an illegal move reported captures %v", captured)
	}
	if err := g.Check(c, p); !errors.Is(err, reason) {
		t.Errorf("Check(%v, %s) = %v, want %v", c, p.Vertex(size), err, reason)
	}
	for _, q := range g.LegalPoints(c) {
		if q == p {
			t.Errorf("LegalPoints(%v) lists the illegal move %s", c, p.Vertex(size))
		}
	}
}

// goMoveCase is one move from a diagram and the diagram it must give.
type goMoveCase struct {
	name     string
	before   []string
	move     string
	captured string // the captured stones, space-separated vertices
	after    []string
}

// goCaptureCases are the cases of GO-1, shared with the GNU Go test.
var goCaptureCases = []goMoveCase{
	{
		name: "GO-1 single stone in the centre",
		before: []string{
			". . . . .",
			". . X . .",
			". X O X .",
			". . . . .",
			". . . . .",
		},
		move:     "b C2",
		captured: "C3",
		after: []string{
			". . . . .",
			". . X . .",
			". X . X .",
			". . X . .",
			". . . . .",
		},
	},
	{
		name: "GO-1 corner stone",
		before: []string{
			". . . . .",
			". . . . .",
			". . . . .",
			"X . . . .",
			"O . . . .",
		},
		move:     "b B1",
		captured: "A1",
		after: []string{
			". . . . .",
			". . . . .",
			". . . . .",
			"X . . . .",
			". X . . .",
		},
	},
	{
		name: "GO-1 two stones on the edge",
		before: []string{
			". . . . .",
			". . . . .",
			". . . . .",
			". . X . .",
			". X O O X",
		},
		move:     "b D2",
		captured: "C1 D1",
		after: []string{
			". . . . .",
			". . . . .",
			". . . . .",
			". . X X .",
			". X . . X",
		},
	},
	{
		name: "GO-1 white captures a black corner chain",
		before: []string{
			"X X O . .",
			"X . . . .",
			"O . . . .",
			". . . . .",
			". . . . .",
		},
		move:     "w B4",
		captured: "A5 B5 A4",
		after: []string{
			". . O . .",
			". O . . .",
			"O . . . .",
			". . . . .",
			". . . . .",
		},
	},
	{
		name: "GO-1 one move captures two chains",
		before: []string{
			". . . . .",
			". X . X .",
			"X O . O X",
			". X . X .",
			". . . . .",
		},
		move:     "b C3",
		captured: "B3 D3",
		after: []string{
			". . . . .",
			". X . X .",
			"X . X . X",
			". X . X .",
			". . . . .",
		},
	},
	{
		name: "GO-1 one move captures four chains",
		before: []string{
			". X O X .",
			"X O . O X",
			". X O X .",
			". . X . .",
			". . . . .",
		},
		move:     "b C4",
		captured: "C5 B4 D4 C3",
		after: []string{
			". X . X .",
			"X . X . X",
			". X . X .",
			". . X . .",
			". . . . .",
		},
	},
	{
		name: "GO-1 capture with a stone that had no liberty before the capture (ko shape)",
		before: []string{
			". X O . .",
			"X O . O .",
			". X O . .",
			". . . . .",
			". . . . .",
		},
		move:     "b C4",
		captured: "B4",
		after: []string{
			". X O . .",
			"X . X O .",
			". X O . .",
			". . . . .",
			". . . . .",
		},
	},
	{
		name: "GO-1 opponent removed first: the mover's chain is left with no liberty until the capture",
		before: []string{
			"X X . O .",
			"O O O X .",
			"X X X . .",
			". . . . .",
			". . . . .",
		},
		move:     "b C5",
		captured: "A4 B4 C4",
		after: []string{
			"X X X O .",
			". . . X .",
			"X X X . .",
			". . . . .",
			". . . . .",
		},
	},
	{
		name: "GO-1 opponent chain with another liberty stays",
		before: []string{
			". . . . .",
			". . X . .",
			". X O . .",
			". . . . .",
			". . . . .",
		},
		move:     "b C2",
		captured: "",
		after: []string{
			". . . . .",
			". . X . .",
			". X O . .",
			". . X . .",
			". . . . .",
		},
	},
	{
		name: "GO-1 own chain in atari extended: not removed, nothing captured",
		before: []string{
			"O X O . .",
			". . . . .",
			". . . . .",
			". . . . .",
			". . . . .",
		},
		move:     "b B4",
		captured: "",
		after: []string{
			"O X O . .",
			". X . . .",
			". . . . .",
			". . . . .",
			". . . . .",
		},
	},
}

// TestGO1Captures: after a stone is placed, opponent chains without
// liberties are removed first, then the mover's own chain is examined.
func TestGO1Captures(t *testing.T) {
	for _, tt := range goCaptureCases {
		t.Run(tt.name, func(t *testing.T) {
			c, p := goSpecMove(t, len(tt.before), tt.move)
			g := goSpecGame(t, c, 7.5, tt.before...)
			before := g
			next, captured, err := g.Play(c, p)
			if err != nil {
				t.Fatalf("Play %s: %v", tt.move, err)
			}
			if g != before {
				t.Errorf("Play changed its receiver")
			}
			size := len(tt.before)
			if got, want := sortedVertices(size, captured), sortedVertices(size, vertexList(t, size, tt.captured)); got != want {
				t.Errorf("captured %s, want %s", got, want)
			}
			if want := MustParseBoard(tt.after...); next.Board() != want {
				t.Errorf("position after %s:\n%v\nwant\n%v", tt.move, next.Board(), want)
			}
			if got, want := next.Captures(c), len(captured); got != want {
				t.Errorf("Captures(%v) = %d, want %d", c, got, want)
			}
			if next.Captures(c.Opponent()) != 0 {
				t.Errorf("Captures(%v) = %d, want 0", c.Opponent(), next.Captures(c.Opponent()))
			}
			if next.ToMove() != c.Opponent() || next.LastMove() != p || next.MoveNumber() != 1 || next.Passes() != 0 {
				t.Errorf("after the move: to move %v, last %d, move number %d, passes %d",
					next.ToMove(), next.LastMove(), next.MoveNumber(), next.Passes())
			}
			if err := g.Check(c, p); err != nil {
				t.Errorf("Check(%s) = %v, want nil", tt.move, err)
			}
		})
	}
}

// TestGO1CaptureCountsAccumulate checks that Captures adds up over a game.
func TestGO1CaptureCountsAccumulate(t *testing.T) {
	g := goSpecGame(t, Black, 7.5,
		". . X . .",
		". X O X .",
		"X O . O X",
		". X O X .",
		". . X . .",
	)
	// Black C3 captures C4 B3 D3 C2 (four single stones).
	g = goSpecPlayAll(t, g, "b C3")
	if g.Captures(Black) != 4 || g.Captures(White) != 0 {
		t.Fatalf("after C3: captures black %d white %d, want 4 and 0", g.Captures(Black), g.Captures(White))
	}
	// White surrounds and takes the black stone at A3.
	g = goSpecPlayAll(t, g, "w A4", "b pass", "w A2")
	g = goSpecPlayAll(t, g, "b pass", "w B3")
	if b := g.Board(); g.Captures(White) != 1 || b.At(vertexList(t, 5, "A3")[0]) != Empty {
		t.Fatalf("white did not capture A3: captures %d\n%v", g.Captures(White), g.Board())
	}
	if g.Captures(Black) != 4 {
		t.Errorf("black's count changed to %d", g.Captures(Black))
	}
}

// goSuicideCase is a move from a diagram that is a suicide unless legal.
type goSuicideCase struct {
	name   string
	before []string
	move   string
	legal  bool
}

// goSuicideCases are the cases of GO-2, shared with the GNU Go test.
var goSuicideCases = []goSuicideCase{
	{
		name: "GO-2 single stone in the corner",
		before: []string{
			". . . . .",
			". . . . .",
			". . . . .",
			"X . . . .",
			". X . . .",
		},
		move: "w A1",
	},
	{
		name: "GO-2 single stone in an eye in the centre",
		before: []string{
			". . . . .",
			". . X . .",
			". X . X .",
			". . X . .",
			". . . . .",
		},
		move: "w C3",
	},
	{
		name: "GO-2 single stone on the edge",
		before: []string{
			". . . . .",
			". . . . .",
			". . . . .",
			". . X . .",
			". X . X .",
		},
		move: "w C1",
	},
	{
		name: "GO-2 multi-stone suicide: filling the chain's last liberty",
		before: []string{
			". O X . .",
			"O O X . .",
			"X X X . .",
			". . . . .",
			". . . . .",
		},
		move: "w A5",
	},
	{
		name: "GO-2 multi-stone suicide joining two chains",
		before: []string{
			"O . O X .",
			"X X X X .",
			". . . . .",
			". . . . .",
			". . . . .",
		},
		move: "w B5",
	},
	{
		name: "GO-2 suicide next to an opponent chain that keeps a liberty",
		before: []string{
			". X O . .",
			"X X O . .",
			". . . . .",
			". . . . .",
			". . . . .",
		},
		move: "w A5",
	},
	{
		name: "GO-2 self-atari is legal (a liberty is left)",
		before: []string{
			". O X . .",
			". O X . .",
			"X X X . .",
			". . . . .",
			". . . . .",
		},
		move:  "w A5",
		legal: true,
	},
	{
		name: "GO-2 no liberty before the capture is legal when it captures",
		before: []string{
			". X O . .",
			"X O . O .",
			". X O . .",
			". . . . .",
			". . . . .",
		},
		move:  "b C4",
		legal: true,
	},
}

// TestGO2Suicide: a move after which the mover's own chain has no liberty
// is illegal, for a single stone and for a chain of several.
func TestGO2Suicide(t *testing.T) {
	for _, tt := range goSuicideCases {
		t.Run(tt.name, func(t *testing.T) {
			c, p := goSpecMove(t, len(tt.before), tt.move)
			g := goSpecGame(t, c, 7.5, tt.before...)
			if tt.legal {
				if _, _, err := g.Play(c, p); err != nil {
					t.Fatalf("Play %s: %v, want legal", tt.move, err)
				}
				return
			}
			goSpecRefused(t, g, c, p, ErrSuicide)
			if _, res := g.Board().Place(p, c); !res.Suicide {
				t.Errorf("Board.Place(%s) = %+v, want Suicide", tt.move, res)
			}
		})
	}
}

// TestPlayRefusesOccupiedAndOffBoard checks the refusals that are not
// suicide or superko: a stone is on the point, or the point is not on the
// board, or the player is not a colour.
func TestPlayRefusesOccupiedAndOffBoard(t *testing.T) {
	g := goSpecGame(t, Black, 7.5,
		". . . . .",
		". . . . .",
		". . X O .",
		". . . . .",
		". . . . .",
	)
	goSpecRefused(t, g, Black, vertexList(t, 5, "C3")[0], ErrOccupied)
	goSpecRefused(t, g, White, vertexList(t, 5, "C3")[0], ErrOccupied)
	goSpecRefused(t, g, Black, vertexList(t, 5, "D3")[0], ErrOccupied)
	goSpecRefused(t, g, Black, 25, ErrOffBoard)
	goSpecRefused(t, g, Black, NoPoint, ErrOffBoard)
	if _, _, err := g.Play(Empty, 0); err == nil {
		t.Errorf("Play by Empty accepted")
	}
}

// goSuperkoCase is a sequence of legal moves from a diagram, then a last
// move with the answer it must get.
type goSuperkoCase struct {
	name   string
	before []string
	toMove Color
	moves  []string
	last   string
	want   error
}

// The positions of the GO-3 cases: a ko; sending two, returning one; and
// three kos.
var (
	goKoShape = []string{
		". . . . .",
		". X O . .",
		"X O . O .",
		". X O . .",
		". . . . .",
	}
	goSendTwoShape = []string{
		"O . O . X",
		"O O X X X",
		". . . . .",
		". . . . .",
		". . . . .",
	}
	// Three kos; a black stone in the mouth of ko 3 (C8), white stones in
	// the mouths of kos 1 (B2) and 2 (B5).
	goTripleKoShape = []string{
		". X O . . . . . .",
		"X . X O . . . . .",
		". X O . . . . . .",
		". X O . . . . . .",
		"X O . O . . . . .",
		". X O . . . . . .",
		". X O . . . . . .",
		"X O . O . . . . .",
		". X O . . . . . .",
	}
)

// goSuperkoCases are the cases of GO-3, shared with the GNU Go test.
var goSuperkoCases = []goSuperkoCase{
	{
		name: "GO-3 simple ko: immediate recapture refused", before: goKoShape, toMove: Black,
		moves: []string{"b C3"}, last: "w B3", want: ErrSuperko,
	},
	{
		name: "GO-3 simple ko: recapture after a ko threat and answer is legal", before: goKoShape, toMove: Black,
		moves: []string{"b C3", "w E1", "b E2"}, last: "w B3", want: nil,
	},
	{
		name: "GO-3 passes do not reset the history: recapture after two passes refused", before: goKoShape, toMove: Black,
		moves: []string{"b C3", "w pass", "b pass"}, last: "w B3", want: ErrSuperko,
	},
	{
		name: "GO-3 recapture legal once the position elsewhere changed, passes in between", before: goKoShape, toMove: Black,
		moves: []string{"b C3", "w pass", "b E5", "w pass", "b pass"}, last: "w B3", want: nil,
	},
	{
		name: "GO-3 the ko may be filled", before: goKoShape, toMove: Black,
		moves: []string{"b C3", "w E1"}, last: "b B3", want: nil,
	},
	{
		name: "GO-3 sending two, returning one: the return capture is refused", before: goSendTwoShape, toMove: White,
		moves: []string{"w D5", "b B5"}, last: "w C5", want: ErrSuperko,
	},
	{
		name: "GO-3 triple ko: the sixth capture repeats the start and is refused", before: goTripleKoShape, toMove: Black,
		moves: []string{"b C2", "w B8", "b C5", "w B2", "b C8"}, last: "w B5", want: ErrSuperko,
	},
	{
		name: "GO-3 triple ko: after a pass the same capture is still refused", before: goTripleKoShape, toMove: Black,
		moves: []string{"b C2", "w B8", "b C5", "w B2", "b C8", "w pass", "b pass"}, last: "w B5", want: ErrSuperko,
	},
	{
		name: "GO-3 triple ko: the fifth capture is legal", before: goTripleKoShape, toMove: Black,
		moves: []string{"b C2", "w B8", "b C5", "w B2"}, last: "b C8", want: nil,
	},
}

// TestGO3PositionalSuperko: a move may not recreate a whole-board position
// that existed at the end of an earlier turn; passes do not clear that
// history.
func TestGO3PositionalSuperko(t *testing.T) {
	for _, tt := range goSuperkoCases {
		t.Run(tt.name, func(t *testing.T) {
			g := goSpecGame(t, tt.toMove, 7.5, tt.before...)
			g = goSpecPlayAll(t, g, tt.moves...)
			c, p := goSpecMove(t, len(tt.before), tt.last)
			if tt.want == nil {
				if _, _, err := g.Play(c, p); err != nil {
					t.Fatalf("Play %s: %v, want legal", tt.last, err)
				}
				return
			}
			goSpecRefused(t, g, c, p, tt.want)
			// The refusal is by the whole-board history only: the move on
			// its own is a legal placement.
			if _, res := g.Board().Place(p, c); res.Suicide || res.Occupied {
				t.Errorf("Board.Place(%s) = %+v, want a legal placement", tt.last, res)
			}
		})
	}
}

// TestGO3HistoryIsPerGame: superko looks at the game's own history only; a
// position that is not in it is not refused.
func TestGO3HistoryIsPerGame(t *testing.T) {
	g := goSpecGame(t, Black, 7.5, goKoShape...)
	took := goSpecPlayAll(t, g, "b C3")
	// A different game value that never had the start position in its
	// history may make the same recapture: histories are not shared.
	other := goSpecGame(t, White, 7.5,
		". . . . .",
		". X O . .",
		"X . X O .",
		". X O . .",
		". . . . .",
	)
	if other.Board() != took.Board() {
		t.Fatalf("test data: positions differ")
	}
	if _, _, err := other.Play(White, vertexList(t, 5, "B3")[0]); err != nil {
		t.Errorf("recapture in a game without that history: %v", err)
	}
	if err := took.Check(White, vertexList(t, 5, "B3")[0]); !errors.Is(err, ErrSuperko) {
		t.Errorf("recapture in the game that had the position: %v, want ErrSuperko", err)
	}
}

// TestGO4Passes: two consecutive passes end play; a move resumes it.
func TestGO4Passes(t *testing.T) {
	tests := []struct {
		name       string
		moves      []string
		wantEnded  bool
		wantPasses int
		wantToMove Color
	}{
		{"GO-4 no move yet", nil, false, 0, Black},
		{"GO-4 one pass does not end play", []string{"b pass"}, false, 1, White},
		{"GO-4 two consecutive passes end play", []string{"b pass", "w pass"}, true, 2, Black},
		{"GO-4 passes after moves end play", []string{"b D4", "w E5", "b pass", "w pass"}, true, 2, Black},
		{"GO-4 white passes first", []string{"b D4", "w pass", "b pass"}, true, 2, White},
		{"GO-4 pass, move, pass are not consecutive", []string{"b pass", "w D4", "b pass"}, false, 1, White},
		{"GO-4 a move after two passes resumes play", []string{"b pass", "w pass", "b D4"}, false, 0, White},
		{"GO-4 two passes after resuming end play again", []string{"b pass", "w pass", "b D4", "w pass", "b pass"}, true, 2, White},
		{"GO-4 a third pass keeps play ended", []string{"b pass", "w pass", "b pass"}, true, 3, White},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGoGame(Options{Variant: VariantGo})
			if err != nil {
				t.Fatal(err)
			}
			g = goSpecPlayAll(t, g, tt.moves...)
			if g.PlayEnded() != tt.wantEnded || g.Passes() != tt.wantPasses || g.ToMove() != tt.wantToMove {
				t.Errorf("ended %v passes %d to move %v; want %v %d %v",
					g.PlayEnded(), g.Passes(), g.ToMove(), tt.wantEnded, tt.wantPasses, tt.wantToMove)
			}
			if g.MoveNumber() != len(tt.moves) {
				t.Errorf("MoveNumber = %d, want %d", g.MoveNumber(), len(tt.moves))
			}
			if len(tt.moves) > 0 {
				_, last := goSpecMove(t, 9, tt.moves[len(tt.moves)-1])
				if g.LastMove() != last {
					t.Errorf("LastMove = %d, want %d", g.LastMove(), last)
				}
			} else if g.LastMove() != NoPoint {
				t.Errorf("LastMove of a new game = %d, want NoPoint", g.LastMove())
			}
		})
	}
}

// TestGO4DeadMarking: Toggle marks and unmarks whole chains.
func TestGO4DeadMarking(t *testing.T) {
	b := MustParseBoard(
		". X X . O",
		". X . O O",
		"X X . O .",
		". . O . .",
		"O O . . X",
	)
	tests := []struct {
		name    string
		toggles string // points toggled in order
		want    string // the dead stones after
	}{
		{"GO-4 nothing marked", "", ""},
		{"GO-4 one stone marks its whole chain", "B5", "B5 C5 B4 A3 B3"},
		{"GO-4 any stone of the chain marks the same chain", "A3", "B5 C5 B4 A3 B3"},
		{"GO-4 toggling the chain again unmarks it", "B5 B3", ""},
		{"GO-4 two chains of different colours", "E5 A1", "E5 D4 E4 D3 A1 B1"},
		{"GO-4 unmarking one chain keeps the other", "E5 A1 B1", "E5 D4 E4 D3"},
		{"GO-4 a lone stone", "E1", "E1"},
		{"GO-4 an empty point changes nothing", "D5", ""},
		{"GO-4 an empty point between marks changes nothing", "C3 E5 C2 D5", "C2 E5 D4 E4 D3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m Marking
			for _, p := range vertexList(t, 5, tt.toggles) {
				before := m
				m = m.Toggle(b, p)
				if before.IsDead(p) == m.IsDead(p) && b.At(p) != Empty {
					t.Errorf("Toggle(%s) did not change the stone's mark", p.Vertex(5))
				}
			}
			want := sortedVertices(5, vertexList(t, 5, tt.want))
			if got := FormatVertices(5, m.Dead(b)); got != want {
				t.Errorf("Dead = %s, want %s", got, want)
			}
			for i := 0; i < 25; i++ {
				p := Point(i)
				inWant := strings.Contains(","+want+",", ","+p.Vertex(5)+",")
				if m.IsDead(p) != inWant && b.At(p) != Empty {
					t.Errorf("IsDead(%s) = %v", p.Vertex(5), m.IsDead(p))
				}
			}
		})
	}
	var m Marking
	if m.Toggle(b, Pass) != m || m.Toggle(b, 25) != m || m.Toggle(b, NoPoint) != m {
		t.Errorf("Toggle off the board changed the marking")
	}
	if m.IsDead(Pass) || m.IsDead(MaxPoints) {
		t.Errorf("IsDead off the board is true")
	}
	// MarkingOf marks each listed chain once, even when two points of a
	// chain are listed.
	got := MarkingOf(b, vertexList(t, 5, "B5 B3 E1 D5"))
	if want := "E1,A3,B3,B4,B5,C5"; FormatVertices(5, got.Dead(b)) != want {
		t.Errorf("MarkingOf = %s, want %s", FormatVertices(5, got.Dead(b)), want)
	}
}

// goScoreCase is a position to count by area.
type goScoreCase struct {
	name                 string
	rows                 []string
	komi                 float64
	dead                 string
	black, white         float64
	blackTerr, whiteTerr int
	blackStns, whiteStns int
	result               string
	owners               map[string]Color
}

// TestGO5AreaScoring: stones on the board plus empty regions bordered only
// by one colour, plus komi for White.
func TestGO5AreaScoring(t *testing.T) {
	tests := []goScoreCase{
		{
			name: "GO-5 empty board: every point dame, komi only",
			rows: []string{".....", ".....", ".....", ".....", "....."},
			komi: 7.5, black: 0, white: 7.5, result: "W+7.5",
			owners: map[string]Color{"A1": Empty, "C3": Empty},
		},
		{
			name: "GO-5 one stone owns the whole board",
			rows: []string{".....", ".....", "..X..", ".....", "....."},
			komi: 7.5, black: 25, white: 7.5, blackTerr: 24, blackStns: 1, result: "B+17.5",
			owners: map[string]Color{"A1": Black, "C3": Black},
		},
		{
			name: "GO-5 walls and territory, no komi",
			rows: []string{
				". X O . .",
				". X O . .",
				". X O . .",
				". X O . .",
				". X O . .",
			},
			komi: 0, black: 10, white: 15, blackTerr: 5, whiteTerr: 10, blackStns: 5, whiteStns: 5, result: "W+5",
			owners: map[string]Color{"A3": Black, "B3": Black, "C3": White, "E1": White},
		},
		{
			name: "GO-5 dame column between the walls: a draw without komi",
			rows: []string{
				". X . O .",
				". X . O .",
				". X . O .",
				". X . O .",
				". X . O .",
			},
			komi: 0, black: 10, white: 10, blackTerr: 5, whiteTerr: 5, blackStns: 5, whiteStns: 5, result: "0",
			owners: map[string]Color{"C1": Empty, "C5": Empty, "A1": Black, "E5": White},
		},
		{
			name: "GO-5 dame column, komi 0.5",
			rows: []string{
				". X . O .",
				". X . O .",
				". X . O .",
				". X . O .",
				". X . O .",
			},
			komi: 0.5, black: 10, white: 10.5, blackTerr: 5, whiteTerr: 5, blackStns: 5, whiteStns: 5, result: "W+0.5",
		},
		{
			name: "GO-5 seki with one eye each: the shared liberty is dame, the eyes count",
			rows: []string{
				". X X O .",
				"X X X O O",
				"X X . O O",
				"X X X O O",
				"X X X O O",
			},
			komi: 7.5, black: 14, white: 17.5, blackTerr: 1, whiteTerr: 1, blackStns: 13, whiteStns: 9, result: "W+3.5",
			owners: map[string]Color{"C3": Empty, "A5": Black, "E5": White},
		},
		{
			name: "GO-5 an unmarked dead stone turns the territory around it into dame",
			rows: []string{
				". X O . .",
				". X O . .",
				". X O X .",
				". X O . .",
				". X O . .",
			},
			komi: 0, black: 11, white: 5, blackTerr: 5, whiteTerr: 0, blackStns: 6, whiteStns: 5, result: "B+6",
			owners: map[string]Color{"E3": Empty, "D3": Black},
		},
		{
			name: "GO-5 a dead stone marked: removed, its point counts for the opponent",
			rows: []string{
				". X O . .",
				". X O . .",
				". X O X .",
				". X O . .",
				". X O . .",
			},
			komi: 0, dead: "D3", black: 10, white: 15, blackTerr: 5, whiteTerr: 10, blackStns: 5, whiteStns: 5, result: "W+5",
			owners: map[string]Color{"E3": White, "D3": White},
		},
		{
			name: "GO-5 dead chains of both colours",
			rows: []string{
				"O X . O X",
				". X . O .",
				". X . O .",
				". X . O .",
				". X . O .",
			},
			komi: 7.5, dead: "A5 E5", black: 10, white: 17.5, blackTerr: 5, whiteTerr: 5, blackStns: 5, whiteStns: 5, result: "W+7.5",
			owners: map[string]Color{"A5": Black, "E5": White, "C3": Empty},
		},
		{
			name: "GO-5 negative komi",
			rows: []string{".....", ".....", ".....", ".....", "....."},
			komi: -2, black: 0, white: -2, result: "B+2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := MustParseBoard(tt.rows...)
			dead := MarkingOf(b, vertexList(t, 5, tt.dead))
			s := AreaScore(b, dead, tt.komi)
			if s.Black != tt.black || s.White != tt.white || s.Komi != tt.komi {
				t.Errorf("score black %v white %v komi %v; want %v %v %v", s.Black, s.White, s.Komi, tt.black, tt.white, tt.komi)
			}
			if s.BlackTerritory != tt.blackTerr || s.WhiteTerritory != tt.whiteTerr ||
				s.BlackStones != tt.blackStns || s.WhiteStones != tt.whiteStns {
				t.Errorf("territory %d/%d stones %d/%d; want %d/%d %d/%d",
					s.BlackTerritory, s.WhiteTerritory, s.BlackStones, s.WhiteStones,
					tt.blackTerr, tt.whiteTerr, tt.blackStns, tt.whiteStns)
			}
			if got := s.Result().String(); got != tt.result {
				t.Errorf("result %s, want %s", got, tt.result)
			}
			for v, want := range tt.owners {
				p := vertexList(t, 5, v)[0]
				if s.Owner[p] != want {
					t.Errorf("Owner[%s] = %v, want %v", v, s.Owner[p], want)
				}
			}
			// Every point is counted once: stones + territory + dame = points.
			dame := 0
			for i := 0; i < b.Points(); i++ {
				if s.Owner[i] == Empty {
					dame++
				}
			}
			if got := s.BlackStones + s.WhiteStones + s.BlackTerritory + s.WhiteTerritory + dame; got != b.Points() {
				t.Errorf("points counted %d, want %d", got, b.Points())
			}
			// The board counted is not changed by removing the dead stones.
			if b != MustParseBoard(tt.rows...) {
				t.Errorf("AreaScore changed the board")
			}
		})
	}
}

// TestGO5DefaultKomi: a plain Go game counts with komi 7.5 unless another
// komi, 0 included, was chosen.
func TestGO5DefaultKomi(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		komi   float64
		result string
	}{
		{"GO-5 default komi 7.5", Options{}, 7.5, "W+7.5"},
		{"GO-5 default komi on 13x13", Options{Variant: VariantGo, Size: 13}, 7.5, "W+7.5"},
		{"GO-5 komi 0 chosen", Options{Variant: VariantGo, KomiSet: true}, 0, "0"},
		{"GO-5 komi 6.5 chosen", Options{Variant: VariantGo, Komi: 6.5}, 6.5, "W+6.5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGoGame(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if g.Options().Komi != tt.komi {
				t.Errorf("Options().Komi = %v, want %v", g.Options().Komi, tt.komi)
			}
			s := g.Score(Marking{})
			if s.Komi != tt.komi || s.White != tt.komi || s.Black != 0 {
				t.Errorf("score of the empty board: %v/%v komi %v", s.Black, s.White, s.Komi)
			}
			if got := s.Result().String(); got != tt.result {
				t.Errorf("result %s, want %s", got, tt.result)
			}
		})
	}
	// A game's score uses its own board: one black stone owns everything.
	g, _ := NewGoGame(Options{Variant: VariantGo})
	g = goSpecPlayAll(t, g, "b E5")
	if s := g.Score(Marking{}); s.Black != 81 || s.Result().String() != "B+73.5" {
		t.Errorf("one stone on 9x9: black %v, result %s", s.Black, s.Result())
	}
	dead := MarkingOf(g.Board(), vertexList(t, 9, "E5"))
	if s := g.Score(dead); s.Black != 0 || s.Result().String() != "W+7.5" {
		t.Errorf("the stone marked dead: black %v, result %s", s.Black, s.Result())
	}
}

// TestGO6Resignation: either player may resign at any moment; the
// opponent wins by resignation.
func TestGO6Resignation(t *testing.T) {
	tests := []struct {
		name   string
		loser  Color
		winner Color
		want   string
	}{
		{"GO-6 black resigns", Black, White, "W+R"},
		{"GO-6 white resigns", White, Black, "B+R"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Resignation(tt.loser)
			if r.Winner != tt.winner || r.By != ByResignation || r.Margin != 0 {
				t.Errorf("Resignation(%v) = %+v", tt.loser, r)
			}
			if r.String() != tt.want {
				t.Errorf("Resignation(%v).String() = %q, want %q", tt.loser, r.String(), tt.want)
			}
			back, err := ParseResult(r.String())
			if err != nil || back != r {
				t.Errorf("ParseResult(%q) = %+v, %v; want %+v", r.String(), back, err, r)
			}
		})
	}
}
