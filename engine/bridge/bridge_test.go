package bridge

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kakure/kakure/engine"
)

// testGame returns a Bridge Go game on the position of the diagram,
// Black to move, with that position as the only earlier one.
func testGame(t testing.TB, perpendicular bool, rows ...string) Game {
	t.Helper()
	g, err := NewGame(engine.Options{Size: len(rows), Perpendicular: perpendicular})
	if err != nil {
		t.Fatal(err)
	}
	g.board = engine.MustParseBoard(rows...)
	g.history = (*engine.PositionHistory)(nil).Push(g.board)
	return g
}

// points reads a vertex list with engine.ParseVertexList, failing t on
// a bad one.
func points(t testing.TB, size int, list string) []engine.Point {
	t.Helper()
	ps, err := engine.ParseVertexList(size, list)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func point(t testing.TB, size int, v string) engine.Point {
	t.Helper()
	p, err := engine.ParseVertex(size, v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

type step struct {
	c   engine.Color
	v   string
	err error
}

func TestBG1(t *testing.T) {
	tests := []struct {
		name       string
		steps      []step
		wantToMove engine.Color
		wantPasses int
		wantOver   bool
		wantResult string // Result().String() when over
	}{
		{name: "BG-1 Black moves first on an empty board", wantToMove: engine.Black},
		{
			name:       "BG-1 players alternate",
			steps:      []step{{c: engine.Black, v: "E5"}, {c: engine.White, v: "D4"}},
			wantToMove: engine.Black,
		},
		{
			name:       "BG-1 a pass is allowed",
			steps:      []step{{c: engine.Black, v: "pass"}},
			wantToMove: engine.White, wantPasses: 1,
		},
		{
			name:       "BG-1 a move between passes keeps the game going",
			steps:      []step{{c: engine.Black, v: "pass"}, {c: engine.White, v: "E5"}, {c: engine.Black, v: "pass"}},
			wantToMove: engine.White, wantPasses: 1,
		},
		{
			name:       "BG-1 two consecutive passes end the game as a draw",
			steps:      []step{{c: engine.Black, v: "E5"}, {c: engine.White, v: "pass"}, {c: engine.Black, v: "pass"}},
			wantToMove: engine.White, wantPasses: 2, wantOver: true, wantResult: "0",
		},
		{
			name: "BG-1 no move after the end",
			steps: []step{
				{c: engine.Black, v: "pass"}, {c: engine.White, v: "pass"},
				{c: engine.Black, v: "E5", err: engine.ErrGameOver}, {c: engine.Black, v: "pass", err: engine.ErrGameOver},
			},
			wantToMove: engine.Black, wantPasses: 2, wantOver: true, wantResult: "0",
		},
		{
			name:       "BG-1 an occupied point is illegal",
			steps:      []step{{c: engine.Black, v: "E5"}, {c: engine.White, v: "E5", err: engine.ErrOccupied}},
			wantToMove: engine.White,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGame(engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if b := g.Board(); b.Size() != 9 || g.Options().Variant != engine.VariantBridge {
				t.Fatalf("default game: options %+v, want 9x9 bridge", g.Options())
			}
			for _, s := range tt.steps {
				before := g
				next, res, err := g.Play(s.c, point(t, 9, s.v))
				if !errors.Is(err, s.err) || (s.err != nil && err == nil) {
					t.Fatalf("%s %s: err %v, want %v", s.c, s.v, err, s.err)
				}
				if err != nil {
					if next.Board() != before.Board() || next.MoveNumber() != before.MoveNumber() {
						t.Fatalf("%s %s: a refused move changed the game", s.c, s.v)
					}
					continue
				}
				if res.Draw != (next.Over() && s.v == "pass") {
					t.Errorf("%s %s: Draw %v, game over %v", s.c, s.v, res.Draw, next.Over())
				}
				g = next
			}
			if g.ToMove() != tt.wantToMove || g.Passes() != tt.wantPasses || g.Over() != tt.wantOver {
				t.Errorf("to move %v passes %d over %v, want %v %d %v", g.ToMove(), g.Passes(), g.Over(), tt.wantToMove, tt.wantPasses, tt.wantOver)
			}
			r, over := g.Result()
			if over != tt.wantOver || (over && r.String() != tt.wantResult) {
				t.Errorf("result %v %v, want %q %v", r, over, tt.wantResult, tt.wantOver)
			}
			if over && g.Winner() != engine.Empty {
				t.Errorf("winner %v after a draw", g.Winner())
			}
		})
	}
}

func TestBG1OffBoardAndNotAPlayer(t *testing.T) {
	g, _ := NewGame(engine.Options{Size: 5})
	if _, _, err := g.Play(engine.Black, 25); !errors.Is(err, engine.ErrOffBoard) {
		t.Errorf("BG-1 off-board point: err %v, want ErrOffBoard", err)
	}
	if _, _, err := g.Play(engine.Empty, 3); err == nil {
		t.Errorf("BG-1 a move for Empty was accepted")
	}
	if _, err := NewGame(engine.Options{Variant: engine.VariantGo}); !errors.Is(err, engine.ErrBadOptions) {
		t.Errorf("BG-1 bridge game with variant go: err %v, want ErrBadOptions", err)
	}
}

func TestBG2(t *testing.T) {
	tests := []struct {
		name  string
		rows  []string
		chain string
		want  string
	}{
		{
			name:  "BG-2 every liberty of a lone stone reaches all sides",
			rows:  []string{".....", ".....", "..X..", ".....", "....."},
			chain: "C3", want: "C2,B3,D3,C4",
		},
		{
			name:  "BG-2 a corner closed by own stones is internal",
			rows:  []string{".....", ".....", ".....", "X....", ".X..."},
			chain: "B1", want: "C1,B2",
		},
		{
			name:  "BG-2 paths cross the other colour's stones",
			rows:  []string{".....", ".....", ".....", "O....", ".X..."},
			chain: "B1", want: "A1,C1,B2",
		},
		{
			name:  "BG-2 the eye of a ring is internal",
			rows:  []string{".....", ".XXX.", ".X.X.", ".XXX.", "....."},
			chain: "B3", want: "B1,C1,D1,A2,E2,A3,E3,A4,E4,B5,C5,D5",
		},
		{
			name:  "BG-2 a pocket on the edge reaches only that side",
			rows:  []string{".X.X.", ".XXX.", ".....", ".....", "....."},
			chain: "C4", want: "A4,E4,A5,E5,B3,C3,D3",
		},
		{
			name:  "BG-2 a region touching two adjacent sides is internal",
			rows:  []string{".....", ".....", "X....", ".X...", "..X.."},
			chain: "B2", want: "C2,B3",
		},
		{
			name:  "BG-2 east and west suffice",
			rows:  []string{".....", "XXXXX", ".....", "..X..", "....."},
			chain: "C2", want: "C1,B2,D2,C3",
		},
		{
			name:  "BG-2 a chain walled in by own stones has none",
			rows:  []string{".....", "X....", ".X...", "X.X..", "XX.X."},
			chain: "A1", want: "-",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := testGame(t, false, tt.rows...)
			size := len(tt.rows)
			got := g.ExternalLiberties(point(t, size, tt.chain))
			want := points(t, size, tt.want)
			if !slices.Equal(got, want) {
				t.Errorf("external liberties of %s: %s, want %s\n%s", tt.chain, engine.FormatVertices(size, got), engine.FormatVertices(size, want), g.Board())
			}
		})
	}
}

// moveCase is a move on a position and what it must do.
type moveCase struct {
	name          string
	perpendicular bool
	rows          []string
	c             engine.Color
	move          string
	captured      string
	selfCaptured  string
	winner        engine.Color
	winningChain  string
	after         []string // the position after, or nil for "unchanged but for the captures"
}

func (tt moveCase) run(t *testing.T) (Game, MoveResult) {
	t.Helper()
	g := testGame(t, tt.perpendicular, tt.rows...)
	size := len(tt.rows)
	before := g.Board()
	next, res, err := g.Play(tt.c, point(t, size, tt.move))
	if err != nil {
		t.Fatalf("%s %s: %v", tt.c, tt.move, err)
	}
	if g.Board() != before {
		t.Fatalf("Play changed the receiver")
	}
	check := func(what string, got []engine.Point, want string) {
		t.Helper()
		if w := points(t, size, want); !slices.Equal(got, w) {
			t.Errorf("%s: %s, want %s", what, engine.FormatVertices(size, got), engine.FormatVertices(size, w))
		}
	}
	check("captured", res.Captured, tt.captured)
	check("self-captured", res.SelfCaptured, tt.selfCaptured)
	check("winning chain", res.WinningChain, tt.winningChain)
	check("game winning chain", next.WinningChain(), tt.winningChain)
	if res.Winner != tt.winner || next.Winner() != tt.winner || next.Over() != (tt.winner != engine.Empty) {
		t.Errorf("winner %v (game %v, over %v), want %v", res.Winner, next.Winner(), next.Over(), tt.winner)
	}
	want := before
	want.Set(point(t, size, tt.move), tt.c)
	for _, p := range res.Captured {
		want.Set(p, engine.Empty)
	}
	for _, p := range res.SelfCaptured {
		want.Set(p, engine.Empty)
	}
	if tt.after != nil {
		want = engine.MustParseBoard(tt.after...)
	}
	if next.Board() != want {
		t.Errorf("position after:\n%swant:\n%s", next.Board(), want)
	}
	return next, res
}

func TestBG3(t *testing.T) {
	tests := []moveCase{
		{
			name: "BG-3 a chain without liberty is captured",
			rows: []string{".....", "..X..", ".XO..", "..X..", "....."},
			c:    engine.Black, move: "D3", captured: "C3",
			after: []string{".....", "..X..", ".X.X.", "..X..", "....."},
		},
		{
			name: "BG-3 an eye does not count",
			rows: []string{".....", ".....", "XX...", "OOX..", ".O..."},
			c:    engine.Black, move: "C1", captured: "B1,A2,B2",
			after: []string{".....", ".....", "XX...", "..X..", "..X.."},
		},
		{
			name: "BG-3 a double capture of two chains sharing an eye",
			rows: []string{"..XO.", "....O", "....X", ".....", "....."},
			c:    engine.Black, move: "D4", captured: "D5,E4",
			after: []string{"..X..", "...X.", "....X", ".....", "....."},
		},
		{
			name: "BG-3 a total self-capture is legal",
			rows: []string{"....O", "...O.", "..OX.", ".O...", "....."},
			c:    engine.White, move: "A1", selfCaptured: "A1,B2,C3,D4,E5",
			after: []string{".....", ".....", "...X.", ".....", "....."},
		},
		{
			name: "BG-3 a bridge wins",
			rows: []string{".....", "..X..", "..X..", "..X..", "..X.."},
			c:    engine.Black, move: "C5", winner: engine.Black, winningChain: "C1,C2,C3,C4,C5",
		},
		{
			name: "BG-3 Decision: a bridge wins even if step 3 would remove it",
			rows: []string{".....", ".O..O", "O.OOO", "....O", "....O"},
			c:    engine.White, move: "E5", winner: engine.White, winningChain: "E1,E2,C3,D3,E3,E4,E5",
		},
		{
			name: "BG-3 the mover's other chains without external liberty are removed",
			// B4 closes the pockets A4 and B5 around the corner stone A5.
			rows: []string{"X.X..", ".....", "X....", ".....", "....."},
			c:    engine.Black, move: "B4", selfCaptured: "A5",
			after: []string{"..X..", ".X...", "X....", ".....", "....."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next, _ := tt.run(t)
			if tt.winner != engine.Empty {
				r, over := next.Result()
				if !over || r.Winner != tt.winner || r.By != engine.ByWin {
					t.Errorf("result %v over %v, want a win for %v", r, over, tt.winner)
				}
				if _, _, err := next.Play(tt.c.Opponent(), engine.Pass); !errors.Is(err, engine.ErrGameOver) {
					t.Errorf("a move after the win: err %v, want ErrGameOver", err)
				}
			}
		})
	}
}

// TestBG3BridgeWithoutExternalLiberty checks that the winning chain of the
// Decision case really has no external liberty, so that the case tests
// what it says.
func TestBG3BridgeWithoutExternalLiberty(t *testing.T) {
	g := testGame(t, false, ".....", ".O..O", "O.OOO", "....O", "....O")
	next, _, err := g.Play(engine.White, point(t, 5, "E5"))
	if err != nil {
		t.Fatal(err)
	}
	if libs := next.ExternalLiberties(point(t, 5, "E5")); len(libs) != 0 {
		t.Errorf("BG-3 the bridge has external liberties %s; the case does not test the Decision", engine.FormatVertices(5, libs))
	}
}

func TestBG4(t *testing.T) {
	tests := []struct {
		name  string
		rows  []string
		steps []step
	}{
		{
			name:  "BG-4 a stone removed alone by self-capture repeats the position",
			rows:  []string{".....", ".....", ".....", "O....", ".O..."},
			steps: []step{{c: engine.Black, v: "A1", err: engine.ErrSuperko}},
		},
		{
			name: "BG-4 a self-capture may not recreate the position of two moves ago",
			rows: []string{".....", ".....", "O....", ".O...", "..O.."},
			steps: []step{
				{c: engine.Black, v: "B1"}, {c: engine.White, v: "pass"},
				{c: engine.Black, v: "A2", err: engine.ErrSuperko},
				{c: engine.Black, v: "E5"},
			},
		},
		{
			name: "BG-4 the same self-capture is legal when the position is new",
			rows: []string{".....", ".....", "O....", ".O...", ".XO.."},
			steps: []step{
				{c: engine.Black, v: "A2"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := testGame(t, false, tt.rows...)
			for _, s := range tt.steps {
				next, _, err := g.Play(s.c, point(t, 5, s.v))
				if !errors.Is(err, s.err) || (s.err != nil && err == nil) {
					t.Fatalf("%s %s: err %v, want %v", s.c, s.v, err, s.err)
				}
				if err != nil {
					if next.Board() != g.Board() || next.MoveNumber() != g.MoveNumber() {
						t.Fatalf("%s %s: a refused move changed the game", s.c, s.v)
					}
					if g.Check(s.c, point(t, 5, s.v)) == nil {
						t.Errorf("%s %s: Check allows what Play refuses", s.c, s.v)
					}
					if slices.Contains(g.LegalPoints(s.c), point(t, 5, s.v)) {
						t.Errorf("%s %s: LegalPoints lists a refused move", s.c, s.v)
					}
					continue
				}
				g = next
			}
		})
	}
}

// transpose mirrors a board in its diagonal A1–NN: column x, row y
// goes to column y, row x. North and south become east and west.
func transpose(b engine.Board) engine.Board {
	t := engine.MustNewBoard(b.Size())
	for i := 0; i < b.Points(); i++ {
		t.Set(transposePoint(b.Size(), engine.Point(i)), b.At(engine.Point(i)))
	}
	return t
}

func transposePoint(size int, p engine.Point) engine.Point {
	if p < 0 {
		return p
	}
	x, y := p.XY(size)
	return engine.PointAt(size, y, x)
}

func transposePoints(size int, ps []engine.Point) []engine.Point {
	var out []engine.Point
	for _, p := range ps {
		out = append(out, transposePoint(size, p))
	}
	slices.Sort(out)
	return out
}

func TestBG5(t *testing.T) {
	// Zigzag walls of single black stones keep the middle from the east and
	// west sides: a liberty there reaches north and south only.
	walls := []string{
		".X...X.",
		"X.....X",
		".X...X.",
		"X.OX..X",
		".X...X.",
		"X.....X",
		".X...X.",
	}
	tests := []struct {
		name          string
		perpendicular bool
		transpose     bool
		external      string // of D4 before the move
		captured      string
	}{
		{name: "BG-5 without the option a north liberty reaching north and south counts", external: "D3,E4,D5"},
		{name: "BG-5 a liberty north or south must reach east and west", perpendicular: true, external: "E4", captured: "D4"},
		{name: "BG-5 transposed: without the option an east liberty reaching east and west counts", transpose: true, external: "C4,E4,D5"},
		{name: "BG-5 transposed: a liberty east or west must reach north and south", perpendicular: true, transpose: true, external: "D5", captured: "D4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := testGame(t, tt.perpendicular, walls...)
			move := point(t, 7, "E4")
			if tt.transpose {
				g.board = transpose(g.board)
				g.history = (*engine.PositionHistory)(nil).Push(g.board)
				move = transposePoint(7, move)
			}
			d4 := point(t, 7, "D4")
			if got, want := g.ExternalLiberties(d4), points(t, 7, tt.external); !slices.Equal(got, want) {
				t.Errorf("external liberties of D4: %s, want %s\n%s", engine.FormatVertices(7, got), engine.FormatVertices(7, want), g.Board())
			}
			next, res, err := g.Play(engine.White, move)
			if err != nil {
				t.Fatal(err)
			}
			if want := points(t, 7, tt.captured); !slices.Equal(res.Captured, want) {
				t.Errorf("captured %s, want %s\n%s", engine.FormatVertices(7, res.Captured), engine.FormatVertices(7, want), next.Board())
			}
			if len(res.SelfCaptured) != 0 || res.Winner != engine.Empty {
				t.Errorf("unexpected self-capture %v or winner %v", res.SelfCaptured, res.Winner)
			}
		})
	}
}

// referenceSides computes what regionSides does the way BG-2
// reads: one flood fill from each side over the points without a stone of
// c, marking the points from which that side can be reached.
func referenceSides(b *engine.Board, c engine.Color) [engine.MaxPoints]uint8 {
	var sides [engine.MaxPoints]uint8
	size := b.Size()
	for _, side := range []uint8{north, south, east, west} {
		var stack []engine.Point
		for i := 0; i < b.Points(); i++ {
			if b.At(engine.Point(i)) != c && sidesOf(size, engine.Point(i))&side != 0 {
				sides[i] |= side
				stack = append(stack, engine.Point(i))
			}
		}
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			ns, n := b.Neighbors(p)
			for _, q := range ns[:n] {
				if b.At(q) != c && sides[q]&side == 0 {
					sides[q] |= side
					stack = append(stack, q)
				}
			}
		}
	}
	return sides
}

// chainsAlive reports whether every chain on b has an external
// liberty by the reference computation, and whether some chain touches two
// opposite sides.
func chainsAlive(b *engine.Board, perpendicular bool) (allAlive, anyBridge bool) {
	allAlive = true
	var seen [engine.MaxPoints]bool
	ref := [3][engine.MaxPoints]uint8{engine.Black: referenceSides(b, engine.Black), engine.White: referenceSides(b, engine.White)}
	for i := 0; i < b.Points(); i++ {
		c := b.At(engine.Point(i))
		if c == engine.Empty || seen[i] {
			continue
		}
		stones, _ := b.Chain(engine.Point(i))
		alive := false
		for _, s := range stones {
			seen[s] = true
			ns, n := b.Neighbors(s)
			for _, q := range ns[:n] {
				if b.At(q) == engine.Empty && external(b, s, q, ref[c][q], perpendicular) {
					alive = true
				}
			}
		}
		allAlive = allAlive && alive
		anyBridge = anyBridge || spans(b, stones)
	}
	return allAlive, anyBridge
}

func swapColors(b engine.Board) engine.Board {
	for i := 0; i < b.Points(); i++ {
		b.Set(engine.Point(i), b.At(engine.Point(i)).Opponent())
	}
	return b
}

// FuzzBridgeInvariants plays the moves the input spells and checks after
// each: the region sides against the side-by-side flood fills; while the
// game goes on, every chain has an external liberty and none is a bridge;
// a win comes with a bridge through the last stone; stones are conserved;
// no position repeats; the game played transposed and the game played
// with colours swapped give the transposed and swapped results.
func FuzzBridgeInvariants(f *testing.F) {
	f.Add([]byte{0, 0, 0, 12, 1, 13, 0, 7, 1, 8, 0, 17, 1, 18, 0, 2, 0, 22})
	f.Add([]byte{4, 1, 0, 40, 1, 41, 0, 31, 1, 49, 0, 39, 1, 32, 0, 50, 1, 30, 0, 48})
	f.Add([]byte{2, 0, 1, 0, 1, 6, 1, 12, 1, 18, 1, 24, 0, 5, 0, 11, 0, 17, 0, 23})
	f.Add([]byte{0, 1, 0, 24, 2, 0, 3, 0, 0, 24, 1, 1})
	f.Add([]byte{1, 0, 0, 1, 0, 7, 0, 13, 1, 8, 1, 14, 0, 19, 0, 25, 0, 31, 1, 20, 1, 26, 0, 2, 0, 35})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 || len(data) > 1000 {
			return
		}
		size := 5 + int(data[0])%5
		perp := data[1]%2 == 1
		g, err := NewGame(engine.Options{Size: size, Perpendicular: perp})
		if err != nil {
			t.Fatal(err)
		}
		tg, sg := g, g // transposed, colours swapped
		seen := map[engine.Board]bool{g.Board(): true}
		for i := 2; i+1 < len(data) && !g.Over(); i += 2 {
			c := engine.Black
			if data[i]%2 == 1 {
				c = engine.White
			}
			p := engine.Point(int(data[i+1]) % (size*size + 1))
			if int(p) == size*size {
				p = engine.Pass
			}
			before := g.Board()
			next, res, err := g.Play(c, p)
			tnext, tres, terr := tg.Play(c, transposePoint(size, p))
			snext, sres, serr := sg.Play(c.Opponent(), p)
			if (err == nil) != (terr == nil) || (err == nil) != (serr == nil) {
				t.Fatalf("%v %s: err %v, transposed %v, swapped %v", c, p.Vertex(size), err, terr, serr)
			}
			if g.Board() != before {
				t.Fatal("Play changed the receiver")
			}
			if err != nil {
				if !errors.Is(err, engine.ErrOccupied) && !errors.Is(err, engine.ErrSuperko) {
					t.Fatalf("%v %s: unexpected error %v", c, p.Vertex(size), err)
				}
				continue
			}
			g, tg, sg = next, tnext, snext
			b := g.Board()
			if tb := tg.Board(); transpose(b) != tb {
				t.Fatalf("transposed game differs:\n%s%s", b, tb)
			}
			if sb := sg.Board(); swapColors(b) != sb {
				t.Fatalf("colour-swapped game differs:\n%s%s", b, sb)
			}
			if !slices.Equal(transposePoints(size, res.Captured), tres.Captured) ||
				!slices.Equal(res.Captured, sres.Captured) || !slices.Equal(res.SelfCaptured, sres.SelfCaptured) ||
				(res.Winner == engine.Empty) != (tres.Winner == engine.Empty) || res.Winner.Opponent() != sres.Winner {
				t.Fatalf("results differ: %+v transposed %+v swapped %+v", res, tres, sres)
			}
			for _, col := range []engine.Color{engine.Black, engine.White} {
				if got, want := regionSides(&b, col), referenceSides(&b, col); got != want {
					for q := 0; q < b.Points(); q++ {
						if b.At(engine.Point(q)) != col && got[q] != want[q] {
							t.Fatalf("%v region sides at %s: %04b, reference %04b\n%s", col, engine.Point(q).Vertex(size), got[q], want[q], b)
						}
					}
				}
			}
			if p == engine.Pass {
				if b != before {
					t.Fatal("a pass changed the board")
				}
				continue
			}
			if n := b.Count(engine.Black) + b.Count(engine.White); n != before.Count(engine.Black)+before.Count(engine.White)+1-len(res.Captured)-len(res.SelfCaptured) {
				t.Fatalf("stones not conserved: %d after %+v\n%s", n, res, b)
			}
			if res.Winner != engine.Empty {
				if res.Winner != c || !spans(&b, res.WinningChain) || !slices.Contains(res.WinningChain, p) {
					t.Fatalf("bad win %+v for %v at %s\n%s", res, c, p.Vertex(size), b)
				}
				stones, _ := b.Chain(p)
				slices.Sort(stones)
				if !slices.Equal(stones, res.WinningChain) {
					t.Fatalf("winning chain %v is not the chain of the last stone %v", res.WinningChain, stones)
				}
				continue
			}
			if alive, bridge := chainsAlive(&b, perp); !alive || bridge {
				t.Fatalf("after %v %s: all chains alive %v, a bridge %v\n%s", c, p.Vertex(size), alive, bridge, b)
			}
			if seen[b] {
				t.Fatalf("position repeats:\n%s", b)
			}
			seen[b] = true
		}
	})
}

// midGame plays random legal moves on an empty board until moves
// stones have been played, starting again when a game ends.
func midGame(tb testing.TB, r *rand.Rand, size, moves int) Game {
	tb.Helper()
	for {
		g, err := NewGame(engine.Options{Size: size})
		if err != nil {
			tb.Fatal(err)
		}
		for g.MoveNumber() < moves && !g.Over() {
			g = randomMove(g, r)
		}
		if !g.Over() {
			return g
		}
	}
}

// randomMove plays a random legal move of the player to move (a
// pass only when random tries find none).
func randomMove(g Game, r *rand.Rand) Game {
	n := g.board.Points()
	for try := 0; try < 4*n; try++ {
		p := engine.Point(r.IntN(n))
		if g.board.At(p) != engine.Empty {
			continue
		}
		if next, _, err := g.Play(g.ToMove(), p); err == nil {
			return next
		}
	}
	next, _, _ := g.Play(g.ToMove(), engine.Pass)
	return next
}

// BenchmarkBridgePlay19 measures Bridge Go moves on 19×19: random legal
// moves from a random mid-game position of 150 moves, starting again from
// it when the game ends or has run 100 moves further.
func BenchmarkBridgePlay19(b *testing.B) {
	r := rand.New(rand.NewPCG(19, 19))
	start := midGame(b, r, 19, 150)
	g := start
	b.ResetTimer()
	for b.Loop() {
		if g.Over() || g.MoveNumber() >= start.MoveNumber()+100 {
			g = start
		}
		g = randomMove(g, r)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}
