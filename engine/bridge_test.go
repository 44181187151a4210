package engine

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// bridgeTestGame returns a Bridge Go game on the position of the diagram,
// Black to move, with that position as the only earlier one.
func bridgeTestGame(t testing.TB, perpendicular bool, rows ...string) BridgeGame {
	t.Helper()
	g, err := NewBridgeGame(Options{Size: len(rows), Perpendicular: perpendicular})
	if err != nil {
		t.Fatal(err)
	}
	g.board = MustParseBoard(rows...)
	g.history = (*PositionHistory)(nil).Push(g.board)
	return g
}

// bridgePoints reads a comma-separated vertex list ("-" or "" for none)
// and returns the points in increasing order.
func bridgePoints(t testing.TB, size int, list string) []Point {
	t.Helper()
	if list == "" || list == "-" {
		return nil
	}
	var ps []Point
	for _, v := range strings.Split(list, ",") {
		p, err := ParseVertex(size, strings.TrimSpace(v))
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	slices.Sort(ps)
	return ps
}

func bridgePoint(t testing.TB, size int, v string) Point {
	t.Helper()
	p, err := ParseVertex(size, v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

type bridgeStep struct {
	c   Color
	v   string
	err error
}

func TestBG1(t *testing.T) {
	tests := []struct {
		name       string
		steps      []bridgeStep
		wantToMove Color
		wantPasses int
		wantOver   bool
		wantResult string // Result().String() when over
	}{
		{name: "BG-1 Black moves first on an empty board", wantToMove: Black},
		{
			name:       "BG-1 players alternate",
			steps:      []bridgeStep{{c: Black, v: "E5"}, {c: White, v: "D4"}},
			wantToMove: Black,
		},
		{
			name:       "BG-1 a pass is allowed",
			steps:      []bridgeStep{{c: Black, v: "pass"}},
			wantToMove: White, wantPasses: 1,
		},
		{
			name:       "BG-1 a move between passes keeps the game going",
			steps:      []bridgeStep{{c: Black, v: "pass"}, {c: White, v: "E5"}, {c: Black, v: "pass"}},
			wantToMove: White, wantPasses: 1,
		},
		{
			name:       "BG-1 two consecutive passes end the game as a draw",
			steps:      []bridgeStep{{c: Black, v: "E5"}, {c: White, v: "pass"}, {c: Black, v: "pass"}},
			wantToMove: White, wantPasses: 2, wantOver: true, wantResult: "0",
		},
		{
			name: "BG-1 no move after the end",
			steps: []bridgeStep{
				{c: Black, v: "pass"}, {c: White, v: "pass"},
				{c: Black, v: "E5", err: ErrGameOver}, {c: Black, v: "pass", err: ErrGameOver},
			},
			wantToMove: Black, wantPasses: 2, wantOver: true, wantResult: "0",
		},
		{
			name:       "BG-1 an occupied point is illegal",
			steps:      []bridgeStep{{c: Black, v: "E5"}, {c: White, v: "E5", err: ErrOccupied}},
			wantToMove: White,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewBridgeGame(Options{})
			if err != nil {
				t.Fatal(err)
			}
			if b := g.Board(); b.Size() != 9 || g.Options().Variant != VariantBridge {
				t.Fatalf("default game: options %+v, want 9x9 bridge", g.Options())
			}
			for _, s := range tt.steps {
				before := g
				next, res, err := g.Play(s.c, bridgePoint(t, 9, s.v))
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
			if over && g.Winner() != Empty {
				t.Errorf("winner %v after a draw", g.Winner())
			}
		})
	}
}

func TestBG1OffBoardAndNotAPlayer(t *testing.T) {
	g, _ := NewBridgeGame(Options{Size: 5})
	if _, _, err := g.Play(Black, 25); !errors.Is(err, ErrOffBoard) {
		t.Errorf("BG-1 off-board point: err %v, want ErrOffBoard", err)
	}
	if _, _, err := g.Play(Empty, 3); err == nil {
		t.Errorf("BG-1 a move for Empty was accepted")
	}
	if _, err := NewBridgeGame(Options{Variant: VariantGo}); !errors.Is(err, ErrBadOptions) {
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
			g := bridgeTestGame(t, false, tt.rows...)
			size := len(tt.rows)
			got := g.ExternalLiberties(bridgePoint(t, size, tt.chain))
			want := bridgePoints(t, size, tt.want)
			if !slices.Equal(got, want) {
				t.Errorf("external liberties of %s: %s, want %s\n%s", tt.chain, FormatVertices(size, got), FormatVertices(size, want), g.Board())
			}
		})
	}
}

// bridgeMoveCase is a move on a position and what it must do.
type bridgeMoveCase struct {
	name          string
	perpendicular bool
	rows          []string
	c             Color
	move          string
	captured      string
	selfCaptured  string
	winner        Color
	winningChain  string
	after         []string // the position after, or nil for "unchanged but for the captures"
}

func (tt bridgeMoveCase) run(t *testing.T) (BridgeGame, BridgeMoveResult) {
	t.Helper()
	g := bridgeTestGame(t, tt.perpendicular, tt.rows...)
	size := len(tt.rows)
	before := g.Board()
	next, res, err := g.Play(tt.c, bridgePoint(t, size, tt.move))
	if err != nil {
		t.Fatalf("%s %s: %v", tt.c, tt.move, err)
	}
	if g.Board() != before {
		t.Fatalf("Play changed the receiver")
	}
	check := func(what string, got []Point, want string) {
		t.Helper()
		if w := bridgePoints(t, size, want); !slices.Equal(got, w) {
			t.Errorf("%s: %s, want %s", what, FormatVertices(size, got), FormatVertices(size, w))
		}
	}
	check("captured", res.Captured, tt.captured)
	check("self-captured", res.SelfCaptured, tt.selfCaptured)
	check("winning chain", res.WinningChain, tt.winningChain)
	check("game winning chain", next.WinningChain(), tt.winningChain)
	if res.Winner != tt.winner || next.Winner() != tt.winner || next.Over() != (tt.winner != Empty) {
		t.Errorf("winner %v (game %v, over %v), want %v", res.Winner, next.Winner(), next.Over(), tt.winner)
	}
	want := before
	want.Set(bridgePoint(t, size, tt.move), tt.c)
	for _, p := range res.Captured {
		want.Set(p, Empty)
	}
	for _, p := range res.SelfCaptured {
		want.Set(p, Empty)
	}
	if tt.after != nil {
		want = MustParseBoard(tt.after...)
	}
	if next.Board() != want {
		t.Errorf("position after:\n%swant:\n%s", next.Board(), want)
	}
	return next, res
}

func TestBG3(t *testing.T) {
	tests := []bridgeMoveCase{
		{
			name: "BG-3 a chain without liberty is captured",
			rows: []string{".....", "..X..", ".XO..", "..X..", "....."},
			c:    Black, move: "D3", captured: "C3",
			after: []string{".....", "..X..", ".X.X.", "..X..", "....."},
		},
		{
			name: "BG-3 an eye does not count",
			rows: []string{".....", ".....", "XX...", "OOX..", ".O..."},
			c:    Black, move: "C1", captured: "B1,A2,B2",
			after: []string{".....", ".....", "XX...", "..X..", "..X.."},
		},
		{
			name: "BG-3 a double capture of two chains sharing an eye",
			rows: []string{"..XO.", "....O", "....X", ".....", "....."},
			c:    Black, move: "D4", captured: "D5,E4",
			after: []string{"..X..", "...X.", "....X", ".....", "....."},
		},
		{
			name: "BG-3 a total self-capture is legal",
			rows: []string{"....O", "...O.", "..OX.", ".O...", "....."},
			c:    White, move: "A1", selfCaptured: "A1,B2,C3,D4,E5",
			after: []string{".....", ".....", "...X.", ".....", "....."},
		},
		{
			name: "BG-3 a bridge wins",
			rows: []string{".....", "..X..", "..X..", "..X..", "..X.."},
			c:    Black, move: "C5", winner: Black, winningChain: "C1,C2,C3,C4,C5",
		},
		{
			name: "BG-3 Decision: a bridge wins even if step 3 would remove it",
			rows: []string{".....", ".O..O", "O.OOO", "....O", "....O"},
			c:    White, move: "E5", winner: White, winningChain: "E1,E2,C3,D3,E3,E4,E5",
		},
		{
			name: "BG-3 the mover's other chains without external liberty are removed",
			// B4 closes the pockets A4 and B5 around the corner stone A5.
			rows: []string{"X.X..", ".....", "X....", ".....", "....."},
			c:    Black, move: "B4", selfCaptured: "A5",
			after: []string{"..X..", ".X...", "X....", ".....", "....."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next, _ := tt.run(t)
			if tt.winner != Empty {
				r, over := next.Result()
				if !over || r.Winner != tt.winner || r.By != ByWin {
					t.Errorf("result %v over %v, want a win for %v", r, over, tt.winner)
				}
				if _, _, err := next.Play(tt.c.Opponent(), Pass); !errors.Is(err, ErrGameOver) {
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
	g := bridgeTestGame(t, false, ".....", ".O..O", "O.OOO", "....O", "....O")
	next, _, err := g.Play(White, bridgePoint(t, 5, "E5"))
	if err != nil {
		t.Fatal(err)
	}
	if libs := next.ExternalLiberties(bridgePoint(t, 5, "E5")); len(libs) != 0 {
		t.Errorf("BG-3 the bridge has external liberties %s; the case does not test the Decision", FormatVertices(5, libs))
	}
}

func TestBG4(t *testing.T) {
	tests := []struct {
		name  string
		rows  []string
		steps []bridgeStep
	}{
		{
			name:  "BG-4 a stone removed alone by self-capture repeats the position",
			rows:  []string{".....", ".....", ".....", "O....", ".O..."},
			steps: []bridgeStep{{c: Black, v: "A1", err: ErrSuperko}},
		},
		{
			name: "BG-4 a self-capture may not recreate the position of two moves ago",
			rows: []string{".....", ".....", "O....", ".O...", "..O.."},
			steps: []bridgeStep{
				{c: Black, v: "B1"}, {c: White, v: "pass"},
				{c: Black, v: "A2", err: ErrSuperko},
				{c: Black, v: "E5"},
			},
		},
		{
			name: "BG-4 the same self-capture is legal when the position is new",
			rows: []string{".....", ".....", "O....", ".O...", ".XO.."},
			steps: []bridgeStep{
				{c: Black, v: "A2"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := bridgeTestGame(t, false, tt.rows...)
			for _, s := range tt.steps {
				next, _, err := g.Play(s.c, bridgePoint(t, 5, s.v))
				if !errors.Is(err, s.err) || (s.err != nil && err == nil) {
					t.Fatalf("%s %s: err %v, want %v", s.c, s.v, err, s.err)
				}
				if err != nil {
					if next.Board() != g.Board() || next.MoveNumber() != g.MoveNumber() {
						t.Fatalf("%s %s: a refused move changed the game", s.c, s.v)
					}
					if g.Check(s.c, bridgePoint(t, 5, s.v)) == nil {
						t.Errorf("%s %s: Check allows what Play refuses", s.c, s.v)
					}
					if slices.Contains(g.LegalPoints(s.c), bridgePoint(t, 5, s.v)) {
						t.Errorf("%s %s: LegalPoints lists a refused move", s.c, s.v)
					}
					continue
				}
				g = next
			}
		})
	}
}

// bridgeTranspose mirrors a board in its diagonal A1–NN: column x, row y
// goes to column y, row x. North and south become east and west.
func bridgeTranspose(b Board) Board {
	t := MustNewBoard(b.Size())
	for i := 0; i < b.Points(); i++ {
		t.Set(bridgeTransposePoint(b.Size(), Point(i)), b.At(Point(i)))
	}
	return t
}

func bridgeTransposePoint(size int, p Point) Point {
	if p < 0 {
		return p
	}
	x, y := p.XY(size)
	return PointAt(size, y, x)
}

func bridgeTransposePoints(size int, ps []Point) []Point {
	var out []Point
	for _, p := range ps {
		out = append(out, bridgeTransposePoint(size, p))
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
			g := bridgeTestGame(t, tt.perpendicular, walls...)
			move := bridgePoint(t, 7, "E4")
			if tt.transpose {
				g.board = bridgeTranspose(g.board)
				g.history = (*PositionHistory)(nil).Push(g.board)
				move = bridgeTransposePoint(7, move)
			}
			d4 := bridgePoint(t, 7, "D4")
			if got, want := g.ExternalLiberties(d4), bridgePoints(t, 7, tt.external); !slices.Equal(got, want) {
				t.Errorf("external liberties of D4: %s, want %s\n%s", FormatVertices(7, got), FormatVertices(7, want), g.Board())
			}
			next, res, err := g.Play(White, move)
			if err != nil {
				t.Fatal(err)
			}
			if want := bridgePoints(t, 7, tt.captured); !slices.Equal(res.Captured, want) {
				t.Errorf("captured %s, want %s\n%s", FormatVertices(7, res.Captured), FormatVertices(7, want), next.Board())
			}
			if len(res.SelfCaptured) != 0 || res.Winner != Empty {
				t.Errorf("unexpected self-capture %v or winner %v", res.SelfCaptured, res.Winner)
			}
		})
	}
}

// bridgeReferenceSides computes what bridgeRegionSides does the way BG-2
// reads: one flood fill from each side over the points without a stone of
// c, marking the points from which that side can be reached.
func bridgeReferenceSides(b *Board, c Color) [MaxPoints]uint8 {
	var sides [MaxPoints]uint8
	size := b.Size()
	for _, side := range []uint8{bridgeNorth, bridgeSouth, bridgeEast, bridgeWest} {
		var stack []Point
		for i := 0; i < b.Points(); i++ {
			if b.At(Point(i)) != c && bridgeSidesOf(size, Point(i))&side != 0 {
				sides[i] |= side
				stack = append(stack, Point(i))
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

// bridgeChainsAlive reports whether every chain on b has an external
// liberty by the reference computation, and whether some chain touches two
// opposite sides.
func bridgeChainsAlive(b *Board, perpendicular bool) (allAlive, anyBridge bool) {
	allAlive = true
	var seen [MaxPoints]bool
	ref := [3][MaxPoints]uint8{Black: bridgeReferenceSides(b, Black), White: bridgeReferenceSides(b, White)}
	for i := 0; i < b.Points(); i++ {
		c := b.At(Point(i))
		if c == Empty || seen[i] {
			continue
		}
		stones, _ := b.Chain(Point(i))
		alive := false
		for _, s := range stones {
			seen[s] = true
			ns, n := b.Neighbors(s)
			for _, q := range ns[:n] {
				if b.At(q) == Empty && bridgeExternal(b, s, q, ref[c][q], perpendicular) {
					alive = true
				}
			}
		}
		allAlive = allAlive && alive
		anyBridge = anyBridge || bridgeSpans(b, stones)
	}
	return allAlive, anyBridge
}

func bridgeSwapColors(b Board) Board {
	for i := 0; i < b.Points(); i++ {
		b.Set(Point(i), b.At(Point(i)).Opponent())
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
		g, err := NewBridgeGame(Options{Size: size, Perpendicular: perp})
		if err != nil {
			t.Fatal(err)
		}
		tg, sg := g, g // transposed, colours swapped
		seen := map[Board]bool{g.Board(): true}
		for i := 2; i+1 < len(data) && !g.Over(); i += 2 {
			c := Black
			if data[i]%2 == 1 {
				c = White
			}
			p := Point(int(data[i+1]) % (size*size + 1))
			if int(p) == size*size {
				p = Pass
			}
			before := g.Board()
			next, res, err := g.Play(c, p)
			tnext, tres, terr := tg.Play(c, bridgeTransposePoint(size, p))
			snext, sres, serr := sg.Play(c.Opponent(), p)
			if (err == nil) != (terr == nil) || (err == nil) != (serr == nil) {
				t.Fatalf("%v %s: err %v, transposed %v, swapped %v", c, p.Vertex(size), err, terr, serr)
			}
			if g.Board() != before {
				t.Fatal("Play changed the receiver")
			}
			if err != nil {
				if !errors.Is(err, ErrOccupied) && !errors.Is(err, ErrSuperko) {
					t.Fatalf("%v %s: unexpected error %v", c, p.Vertex(size), err)
				}
				continue
			}
			g, tg, sg = next, tnext, snext
			b := g.Board()
			if tb := tg.Board(); bridgeTranspose(b) != tb {
				t.Fatalf("transposed game differs:\n%s%s", b, tb)
			}
			if sb := sg.Board(); bridgeSwapColors(b) != sb {
				t.Fatalf("colour-swapped game differs:\n%s%s", b, sb)
			}
			if !slices.Equal(bridgeTransposePoints(size, res.Captured), tres.Captured) ||
				!slices.Equal(res.Captured, sres.Captured) || !slices.Equal(res.SelfCaptured, sres.SelfCaptured) ||
				(res.Winner == Empty) != (tres.Winner == Empty) || res.Winner.Opponent() != sres.Winner {
				t.Fatalf("results differ: %+v transposed %+v swapped %+v", res, tres, sres)
			}
			for _, col := range []Color{Black, White} {
				if got, want := bridgeRegionSides(&b, col), bridgeReferenceSides(&b, col); got != want {
					for q := 0; q < b.Points(); q++ {
						if b.At(Point(q)) != col && got[q] != want[q] {
							t.Fatalf("%v region sides at %s: %04b, reference %04b\n%s", col, Point(q).Vertex(size), got[q], want[q], b)
						}
					}
				}
			}
			if p == Pass {
				if b != before {
					t.Fatal("a pass changed the board")
				}
				continue
			}
			if n := b.Count(Black) + b.Count(White); n != before.Count(Black)+before.Count(White)+1-len(res.Captured)-len(res.SelfCaptured) {
				t.Fatalf("stones not conserved: %d after %+v\n%s", n, res, b)
			}
			if res.Winner != Empty {
				if res.Winner != c || !bridgeSpans(&b, res.WinningChain) || !slices.Contains(res.WinningChain, p) {
					t.Fatalf("bad win %+v for %v at %s\n%s", res, c, p.Vertex(size), b)
				}
				stones, _ := b.Chain(p)
				slices.Sort(stones)
				if !slices.Equal(stones, res.WinningChain) {
					t.Fatalf("winning chain %v is not the chain of the last stone %v", res.WinningChain, stones)
				}
				continue
			}
			if alive, bridge := bridgeChainsAlive(&b, perp); !alive || bridge {
				t.Fatalf("after %v %s: all chains alive %v, a bridge %v\n%s", c, p.Vertex(size), alive, bridge, b)
			}
			if seen[b] {
				t.Fatalf("position repeats:\n%s", b)
			}
			seen[b] = true
		}
	})
}

// bridgeMidGame plays random legal moves on an empty board until moves
// stones have been played, starting again when a game ends.
func bridgeMidGame(tb testing.TB, r *rand.Rand, size, moves int) BridgeGame {
	tb.Helper()
	for {
		g, err := NewBridgeGame(Options{Size: size})
		if err != nil {
			tb.Fatal(err)
		}
		for g.MoveNumber() < moves && !g.Over() {
			g = bridgeRandomMove(g, r)
		}
		if !g.Over() {
			return g
		}
	}
}

// bridgeRandomMove plays a random legal move of the player to move (a
// pass only when random tries find none).
func bridgeRandomMove(g BridgeGame, r *rand.Rand) BridgeGame {
	n := g.board.Points()
	for try := 0; try < 4*n; try++ {
		p := Point(r.IntN(n))
		if g.board.At(p) != Empty {
			continue
		}
		if next, _, err := g.Play(g.ToMove(), p); err == nil {
			return next
		}
	}
	next, _, _ := g.Play(g.ToMove(), Pass)
	return next
}

// BenchmarkBridgePlay19 measures Bridge Go moves on 19×19: random legal
// moves from a random mid-game position of 150 moves, starting again from
// it when the game ends or has run 100 moves further.
func BenchmarkBridgePlay19(b *testing.B) {
	r := rand.New(rand.NewPCG(19, 19))
	start := bridgeMidGame(b, r, 19, 150)
	g := start
	b.ResetTimer()
	for b.Loop() {
		if g.Over() || g.MoveNumber() >= start.MoveNumber()+100 {
			g = start
		}
		g = bridgeRandomMove(g, r)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}
