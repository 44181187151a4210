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
