package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// playoutReference is the value-board side of the differential tests: the
// core's Board.Place with the simple ko of PG-4 tracked here, since GoGame
// uses superko instead.
type playoutReference struct {
	board    Board
	toMove   Color
	ko       Point
	passes   int
	captures [3]int
}

// check returns the position after p and the captured stones, or ok false
// when p is illegal for the player to move under GO-1, GO-2 and PG-4.
func (r *playoutReference) check(p Point) (next Board, captured []Point, ok bool) {
	next, res := r.board.Place(p, r.toMove)
	if res.Occupied || res.Suicide {
		return r.board, nil, false
	}
	if p == r.ko && len(res.Captured) == 1 {
		return r.board, nil, false
	}
	return next, res.Captured, true
}

func (r *playoutReference) play(p Point) bool {
	if p == Pass {
		r.passes++
		r.ko = NoPoint
		r.toMove = r.toMove.Opponent()
		return true
	}
	next, captured, ok := r.check(p)
	if !ok {
		return false
	}
	r.ko = NoPoint
	if len(captured) == 1 {
		if stones, libs := next.Chain(p); len(stones) == 1 && len(libs) == 1 {
			r.ko = captured[0]
		}
	}
	r.board = next
	r.captures[r.toMove] += len(captured)
	r.passes = 0
	r.toMove = r.toMove.Opponent()
	return true
}

// checkPlayoutInvariants recomputes the chains, pseudo-liberties and the
// list of empty points of pb from its cells and compares them with what pb
// keeps up to date.
func checkPlayoutInvariants(t testing.TB, pb *PlayoutBoard) {
	t.Helper()
	b := pb.Board()
	size := pb.size
	for i := range playoutCells {
		if p := pb.geo.toPoint[i]; p == NoPoint && i <= (size+2)*pb.stride && pb.cells[i] != playoutBorderColor {
			t.Fatalf("border cell %d holds %v", i, pb.cells[i])
		}
	}
	empties := 0
	var checked [MaxPoints]bool
	for p := Point(0); int(p) < size*size; p++ {
		i := pb.geo.toIndex[p]
		if b.At(p) == Empty {
			empties++
			k := pb.emptyAt[i]
			if int(k) >= pb.nEmpty || pb.empty[k] != i {
				t.Fatalf("empty point %s is not in the empty list", p.Vertex(size))
			}
			continue
		}
		if checked[p] {
			continue
		}
		stones, _ := b.Chain(p)
		ch := pb.chain[i]
		if int(pb.stones[ch]) != len(stones) {
			t.Fatalf("chain at %s: %d stones kept, %d on the board", p.Vertex(size), pb.stones[ch], len(stones))
		}
		pseudo := 0
		for _, s := range stones {
			checked[s] = true
			if pb.chain[pb.geo.toIndex[s]] != ch {
				t.Fatalf("stones %s and %s of one chain have different ids", p.Vertex(size), s.Vertex(size))
			}
			ns, n := b.Neighbors(s)
			for _, q := range ns[:n] {
				if b.At(q) == Empty {
					pseudo++
				}
			}
		}
		if int(pb.libs[ch]) != pseudo {
			t.Fatalf("chain at %s: %d pseudo-liberties kept, %d on the board", p.Vertex(size), pb.libs[ch], pseudo)
		}
		walked := 0
		for q := ch; ; {
			walked++
			if pb.chain[q] != ch || walked > len(stones) {
				t.Fatalf("stone list of the chain at %s is broken", p.Vertex(size))
			}
			q = pb.nextStone[q]
			if q == ch {
				break
			}
		}
		if walked != len(stones) {
			t.Fatalf("stone list of the chain at %s has %d stones, want %d", p.Vertex(size), walked, len(stones))
		}
	}
	if pb.nEmpty != empties {
		t.Fatalf("empty list holds %d points, the board %d", pb.nEmpty, empties)
	}
}

// comparePlayout fails unless pb and the reference agree on the position,
// the player to move, the ko point and the captures.
func comparePlayout(t testing.TB, pb *PlayoutBoard, ref *playoutReference, context string) {
	t.Helper()
	if got := pb.Board(); got != ref.board {
		t.Fatalf("%s: playout board\n%vreference\n%v", context, got, ref.board)
	}
	if pb.ToMove() != ref.toMove || pb.Ko() != ref.ko || pb.Passes() != ref.passes {
		t.Fatalf("%s: to move %v ko %v passes %d, reference %v %v %d", context,
			pb.ToMove(), pb.Ko(), pb.Passes(), ref.toMove, ref.ko, ref.passes)
	}
	for _, c := range []Color{Black, White} {
		if pb.Captures(c) != ref.captures[c] {
			t.Fatalf("%s: %v captured %d, reference %d", context, c, pb.Captures(c), ref.captures[c])
		}
	}
}

// playoutDifferentialStats counts the situations a differential game met,
// so that the test can fail if its random games never reach them.
type playoutDifferentialStats struct {
	moves, illegalTries, koRefusals, suicides, multiCaptures, koCaptures int
}

// playDifferentialGame plays one random game on pb and the reference side
// by side. Odd games use the playout policy, even ones any legal move, so
// that eyes get filled and big chains die too.
func playDifferentialGame(t *testing.T, size int, rng *rand.Rand, policy bool, stats *playoutDifferentialStats) {
	t.Helper()
	ref := &playoutReference{board: MustNewBoard(size), toMove: Black, ko: NoPoint}
	pb := NewPlayoutBoard(ref.board, Black, NoPoint)
	n := Point(size * size)
	var legal []Point
	for move := 0; move < 3*size*size && ref.passes < 2; move++ {
		legal = legal[:0]
		for p := Point(0); p < n; p++ {
			_, captured, ok := ref.check(p)
			if got := pb.IsLegal(p); got != ok {
				t.Fatalf("move %d, %v at %s: IsLegal %v, reference %v\n%v", move, ref.toMove, p.Vertex(size), got, ok, ref.board)
			}
			if ok {
				legal = append(legal, p)
				continue
			}
			if ref.board.At(p) == Empty {
				if p == ref.ko && len(captured) == 0 {
					stats.koRefusals++
				} else {
					stats.suicides++
				}
			}
		}
		// Now and then try an illegal point: nothing may change.
		if rng.IntN(4) == 0 {
			p := Point(rng.IntN(int(n)))
			if _, _, ok := ref.check(p); !ok {
				stats.illegalTries++
				if pb.Play(p) {
					t.Fatalf("move %d: illegal %s accepted", move, p.Vertex(size))
				}
				comparePlayout(t, pb, ref, fmt.Sprintf("after illegal %s", p.Vertex(size)))
			}
		}
		var p Point
		switch {
		case policy:
			// The playout policy itself, checked against the reference.
			before := pb.Board()
			if !pb.playRandomMove(rng) {
				pb.Pass()
				p = Pass
				for _, q := range legal {
					if !pb.ownEyeAt(q, ref.toMove) {
						t.Fatalf("policy passed with %s playable\n%v", q.Vertex(size), before)
					}
				}
				break
			}
			p = pb.lastPlayed(before)
		case len(legal) == 0 || rng.IntN(20) == 0:
			p = Pass
			pb.Pass()
		default:
			p = legal[rng.IntN(len(legal))]
			if !pb.Play(p) {
				t.Fatalf("move %d: legal %s refused", move, p.Vertex(size))
			}
		}
		before := ref.captures[ref.toMove]
		if !ref.play(p) {
			t.Fatalf("move %d: policy played %s, illegal on the reference", move, p.Vertex(size))
		}
		if took := ref.captures[ref.toMove.Opponent()] - before; took > 1 {
			stats.multiCaptures++
		} else if took == 1 && ref.ko != NoPoint {
			stats.koCaptures++
		}
		stats.moves++
		comparePlayout(t, pb, ref, fmt.Sprintf("move %d (%s)", move, p.Vertex(size)))
		checkPlayoutInvariants(t, pb)
	}
}

// ownEyeAt is ownEye for a Point, for tests.
func (pb *PlayoutBoard) ownEyeAt(p Point, c Color) bool {
	return pb.ownEye(pb.geo.toIndex[p], c)
}

// lastPlayed finds the stone that appeared since before: the point that was
// empty in before and holds the opponent of the player to move now.
func (pb *PlayoutBoard) lastPlayed(before Board) Point {
	mover := pb.toMove.Opponent()
	for p := Point(0); int(p) < pb.size*pb.size; p++ {
		if before.At(p) == Empty && pb.At(p) == mover {
			return p
		}
	}
	return NoPoint
}

// TestGO1GO2PG4PlayoutMatchesPlace plays random games on the playout board
// and on Board.Place side by side: after every move the same legality for
// every point, the same captures, the same board, the same ko point.
func TestGO1GO2PG4PlayoutMatchesPlace(t *testing.T) {
	games := map[int]int{5: 20, 9: 4, 13: 2, 19: 2}
	if testing.Short() {
		games = map[int]int{5: 8, 9: 2, 13: 1, 19: 1}
	}
	for _, size := range []int{5, 9, 13, 19} {
		t.Run(fmt.Sprintf("%dx%d", size, size), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(size), 0x6b616b75))
			var stats playoutDifferentialStats
			for g := 0; g < games[size]; g++ {
				playDifferentialGame(t, size, rng, g%2 == 1, &stats)
			}
			t.Logf("%+v", stats)
			if testing.Short() {
				return // too few games to be sure of reaching every case; each move was still compared
			}
			if stats.multiCaptures == 0 || stats.suicides == 0 || stats.illegalTries == 0 {
				t.Errorf("the random games did not reach captures of several stones, suicides and illegal tries: %+v", stats)
			}
			if size <= 9 && (stats.koRefusals == 0 || stats.koCaptures == 0) {
				t.Errorf("the random games met no ko: %+v", stats)
			}
		})
	}
}

// playoutMoves reads GTP vertices ("c3", "pass").
func playoutMoves(t *testing.T, size int, vertices ...string) []Point {
	t.Helper()
	ps := make([]Point, len(vertices))
	for k, v := range vertices {
		p, err := ParseVertex(size, v)
		if err != nil {
			t.Fatal(err)
		}
		ps[k] = p
	}
	return ps
}

// TestGO1PlayoutCaptures checks the captures of single moves.
func TestGO1PlayoutCaptures(t *testing.T) {
	tests := []struct {
		name   string
		before []string
		toMove Color
		move   string
		after  []string
		taken  int
	}{
		{
			name:   "GO-1 a stone in the corner",
			before: []string{".....", ".....", ".....", "X....", "O...."},
			toMove: Black, move: "b1",
			after: []string{".....", ".....", ".....", "X....", ".X..."},
			taken: 1,
		},
		{
			name:   "GO-1 a chain of three",
			before: []string{".....", ".XXX.", "XOOO.", ".XXX.", "....."},
			toMove: Black, move: "e3",
			after: []string{".....", ".XXX.", "X...X", ".XXX.", "....."},
			taken: 3,
		},
		{
			name:   "GO-1 two chains at once, which also saves the mover from suicide",
			before: []string{".....", ".....", "X....", "OX...", ".OX.."},
			toMove: Black, move: "a1",
			after: []string{".....", ".....", "X....", ".X...", "X.X.."},
			taken: 2,
		},
		{
			name:   "GO-1 white captures",
			before: []string{"XO...", ".....", ".....", ".....", "....."},
			toMove: White, move: "a4",
			after: []string{".O...", "O....", ".....", ".....", "....."},
			taken: 1,
		},
		{
			name:   "GO-1 a stone with a liberty left stays",
			before: []string{".....", ".....", ".....", ".....", "X...."},
			toMove: White, move: "b1",
			after: []string{".....", ".....", ".....", ".....", "XO..."},
			taken: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := MustParseBoard(tt.before...)
			pb := NewPlayoutBoard(b, tt.toMove, NoPoint)
			p := playoutMoves(t, b.Size(), tt.move)[0]
			if !pb.Play(p) {
				t.Fatalf("%s refused", tt.move)
			}
			if want := MustParseBoard(tt.after...); pb.Board() != want {
				t.Errorf("got\n%vwant\n%v", pb.Board(), want)
			}
			if got := pb.Captures(tt.toMove); got != tt.taken {
				t.Errorf("captured %d, want %d", got, tt.taken)
			}
			if pb.ToMove() != tt.toMove.Opponent() {
				t.Errorf("to move %v after the move", pb.ToMove())
			}
			checkPlayoutInvariants(t, pb)
		})
	}
}

// TestGO2PlayoutSuicide checks that suicide is refused and changes nothing.
func TestGO2PlayoutSuicide(t *testing.T) {
	tests := []struct {
		name   string
		before []string
		toMove Color
		move   string
		legal  bool
	}{
		{"GO-2 a single stone", []string{".....", ".....", ".....", "X....", ".X..."}, White, "a1", false},
		{"GO-2 a stone that fills its chain's last liberty", []string{".....", ".....", "X....", "OX...", ".X..."}, White, "a1", false},
		{"GO-2 in the middle", []string{".....", "..O..", ".O.O.", "..O..", "....."}, Black, "c3", false},
		{"GO-2 the chain joined keeps a liberty", []string{".....", ".....", ".....", "X....", ".X..."}, Black, "a1", true},
		{"GO-2 a capture gives the liberty", []string{".....", ".....", "X....", "OX...", ".OX.."}, Black, "a1", true},
		{"GO-2 the only liberty of a joined chain is elsewhere", []string{".....", ".....", "OX...", ".OX..", "O.OX."}, White, "b1", true},
		{"GO-2 occupied", []string{".....", ".....", ".....", ".....", "X...."}, White, "a1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := MustParseBoard(tt.before...)
			p := playoutMoves(t, b.Size(), tt.move)[0]
			pb := NewPlayoutBoard(b, tt.toMove, NoPoint)
			ref := &playoutReference{board: b, toMove: tt.toMove, ko: NoPoint}
			if _, _, ok := ref.check(p); ok != tt.legal {
				t.Fatalf("the table is wrong: Board.Place says legal=%v", ok)
			}
			if got := pb.IsLegal(p); got != tt.legal {
				t.Errorf("IsLegal(%s) = %v, want %v", tt.move, got, tt.legal)
			}
			if got := pb.Play(p); got != tt.legal {
				t.Errorf("Play(%s) = %v, want %v", tt.move, got, tt.legal)
			}
			if !tt.legal {
				comparePlayout(t, pb, ref, "after a refused move")
			}
			checkPlayoutInvariants(t, pb)
		})
	}
}

// TestPG4PlayoutSimpleKo plays move sequences through ko fights.
func TestPG4PlayoutSimpleKo(t *testing.T) {
	// White B2 has one liberty, C2; black C2 takes it and is then a single
	// stone with one liberty, B2: a ko.
	koShape := []string{".....", ".....", ".XO..", "XO.O.", ".XO.."}
	type step struct {
		move  string
		legal bool
		ko    string // ko point after the step, "" for none
	}
	tests := []struct {
		name   string
		before []string
		toMove Color
		ko     string
		steps  []step
	}{
		{
			name: "PG-4 the immediate take-back is refused", before: koShape, toMove: Black,
			steps: []step{{"c2", true, "b2"}, {"b2", false, "b2"}},
		},
		{
			name: "PG-4 a move elsewhere lifts the ko", before: koShape, toMove: Black,
			steps: []step{{"c2", true, "b2"}, {"e5", true, ""}, {"a5", true, ""}, {"b2", true, "c2"}, {"c2", false, "c2"}},
		},
		{
			name: "PG-4 a pass lifts the ko", before: koShape, toMove: Black,
			steps: []step{{"c2", true, "b2"}, {"pass", true, ""}, {"pass", true, ""}, {"b2", true, "c2"}},
		},
		{
			name:   "PG-4 capturing two stones is no ko",
			before: []string{".....", ".XXO.", "XOO.O", ".XXO.", "....."}, toMove: Black,
			steps: []step{{"d3", true, ""}, {"c3", true, ""}},
		},
		{
			name:   "PG-4 a capture by a stone that joins a chain is no ko",
			before: []string{".....", ".....", ".XO..", "XO.O.", ".XX.."}, toMove: Black,
			steps: []step{{"c2", true, ""}},
		},
		{
			name:   "PG-4 a given ko point forbids the single capture",
			before: []string{".....", ".....", ".XO..", "X.XO.", ".XO.."}, toMove: White, ko: "b2",
			steps: []step{{"b2", false, "b2"}, {"pass", true, ""}, {"pass", true, ""}, {"b2", true, "c2"}},
		},
		{
			// Black A2 and B1 each have A1 as their only liberty; white
			// A1 takes both, which a ko at A1 does not forbid.
			name:   "PG-4 a move at the ko point that captures two stones is legal",
			before: []string{".....", ".....", "O....", "XO...", ".XO.."}, toMove: White, ko: "a1",
			steps: []step{{"a1", true, ""}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := MustParseBoard(tt.before...)
			ko := NoPoint
			if tt.ko != "" {
				ko = playoutMoves(t, b.Size(), tt.ko)[0]
			}
			pb := NewPlayoutBoard(b, tt.toMove, ko)
			ref := &playoutReference{board: b, toMove: tt.toMove, ko: ko}
			for k, s := range tt.steps {
				p := playoutMoves(t, b.Size(), s.move)[0]
				if got := pb.Play(p); got != s.legal {
					t.Fatalf("step %d: Play(%s) = %v, want %v", k, s.move, got, s.legal)
				}
				if got := ref.play(p); got != s.legal {
					t.Fatalf("step %d: the table is wrong, the reference says %v", k, got)
				}
				wantKo := NoPoint
				if s.ko != "" {
					wantKo = playoutMoves(t, b.Size(), s.ko)[0]
				}
				if pb.Ko() != wantKo {
					t.Fatalf("step %d: ko %s, want %s", k, pb.Ko().Vertex(b.Size()), s.ko)
				}
				comparePlayout(t, pb, ref, fmt.Sprintf("step %d", k))
				checkPlayoutInvariants(t, pb)
			}
		})
	}
}

// TestPOD2PlayoutEyes checks which points the playout policy takes for a
// player's own eyes.
func TestPOD2PlayoutEyes(t *testing.T) {
	tests := []struct {
		name    string
		diagram []string
		color   Color
		point   string
		eye     bool
	}{
		{"PO-D2 centre, no diagonal taken", []string{".....", "..X..", ".X.X.", "..X..", "....."}, Black, "c3", true},
		{"PO-D2 centre, one opponent diagonal", []string{".....", ".OX..", ".X.X.", "..X..", "....."}, Black, "c3", true},
		{"PO-D2 centre, two opponent diagonals", []string{".....", ".OX..", ".X.X.", "..XO.", "....."}, Black, "c3", false},
		{"PO-D2 centre, an opponent's eye is not mine", []string{".....", "..X..", ".X.X.", "..X..", "....."}, White, "c3", false},
		{"PO-D2 centre, one neighbour empty", []string{".....", "..X..", ".X...", "..X..", "....."}, Black, "c3", false},
		{"PO-D2 edge, empty diagonal", []string{".....", ".....", ".....", ".XX..", "X.X.."}, Black, "b1", true},
		{"PO-D2 edge, own diagonals", []string{".....", ".....", ".....", "XXX..", "X.X.."}, Black, "b1", true},
		{"PO-D2 edge, one opponent diagonal", []string{".....", ".....", ".....", "XXO..", "X.X.."}, Black, "b1", false},
		{"PO-D2 corner, diagonal empty", []string{".....", ".....", ".....", "X....", ".X..."}, Black, "a1", true},
		{"PO-D2 corner, opponent diagonal", []string{".....", ".....", ".....", "XO...", ".X..."}, Black, "a1", false},
		{"PO-D2 occupied neighbour of the opponent", []string{".....", "..X..", ".X.O.", "..X..", "....."}, Black, "c3", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := MustParseBoard(tt.diagram...)
			pb := NewPlayoutBoard(b, tt.color, NoPoint)
			p := playoutMoves(t, b.Size(), tt.point)[0]
			if got := pb.ownEyeAt(p, tt.color); got != tt.eye {
				t.Errorf("eye of %v at %s: %v, want %v", tt.color, tt.point, got, tt.eye)
			}
		})
	}
}

// TestPOD2PlayoutEndsWithOnlyEyes checks finished playouts: two passes, and
// no point left that the player to move could play outside its own eyes.
func TestPOD2PlayoutEndsWithOnlyEyes(t *testing.T) {
	finished := 0
	for _, size := range []int{5, 9, 19} {
		rng := rand.New(rand.NewPCG(uint64(size), 7))
		start := NewPlayoutBoard(MustNewBoard(size), Black, NoPoint)
		var pb PlayoutBoard
		for range 10 {
			pb.CopyFrom(start)
			n := pb.RandomPlayout(rng)
			if pb.Passes() < 2 {
				if n < PlayoutMoveCap*size*size {
					t.Fatalf("%dx%d: playout stopped after %d moves without two passes", size, size, n)
				}
				continue
			}
			finished++
			for _, c := range []Color{Black, White} {
				pb.toMove = c
				for p := Point(0); int(p) < size*size; p++ {
					if pb.IsLegal(p) && !pb.ownEyeAt(p, c) {
						t.Fatalf("%dx%d: playout ended with %s playable for %v\n%v", size, size, p.Vertex(size), c, pb.Board())
					}
				}
			}
		}
	}
	if finished == 0 {
		t.Fatal("no playout ended with two passes")
	}
}

// TestGO5PlayoutScoreArea checks ScoreArea against AreaScore without dead
// stones, on finished playouts and on positions in the middle of them.
func TestGO5PlayoutScoreArea(t *testing.T) {
	tests := []struct {
		name    string
		diagram []string
		komi    float64
		want    float64
	}{
		{"GO-5 empty board", []string{".....", ".....", ".....", ".....", "....."}, 7.5, -7.5},
		{"GO-5 black wall, white wall, dame between", []string{".X.O.", ".X.O.", ".X.O.", ".X.O.", ".X.O."}, 0, 0},
		{"GO-5 each wall owns its side", []string{".XO..", ".XO..", ".XO..", ".XO..", ".XO.."}, 0.5, 10 - 15 - 0.5},
		{"GO-5 single-point eyes", []string{"X.XO.", ".XXOO", "XXOO.", "X.XO.", ".XXO."}, 7, 14 - 11 - 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := MustParseBoard(tt.diagram...)
			pb := NewPlayoutBoard(b, Black, NoPoint)
			s := AreaScore(b, Marking{}, tt.komi)
			if ref := s.Black - s.White; ref != tt.want {
				t.Fatalf("the table is wrong: AreaScore gives %v", ref)
			}
			if got := pb.ScoreArea(tt.komi); got != tt.want {
				t.Errorf("ScoreArea(%v) = %v, want %v", tt.komi, got, tt.want)
			}
		})
	}
	t.Run("GO-5 random playouts", func(t *testing.T) {
		finished := 0
		for _, size := range []int{5, 7, 9, 13, 19} {
			rng := rand.New(rand.NewPCG(uint64(size), 11))
			start := NewPlayoutBoard(MustNewBoard(size), Black, NoPoint)
			var pb PlayoutBoard
			for g := range 20 {
				pb.CopyFrom(start)
				// Stop some playouts half way to check positions with
				// larger empty regions too.
				for range g * size {
					if !pb.playRandomMove(rng) {
						pb.Pass()
					}
				}
				if g%2 == 0 {
					pb.RandomPlayout(rng)
					finished++
				}
				komi := float64(g) - 4.5
				s := AreaScore(pb.Board(), Marking{}, komi)
				if got, want := pb.ScoreArea(komi), s.Black-s.White; got != want {
					t.Fatalf("%dx%d: ScoreArea %v, AreaScore %v\n%v", size, size, got, want, pb.Board())
				}
			}
		}
		if finished == 0 {
			t.Fatal("no playout finished")
		}
	})
}

// TestPlayoutDeterministic checks that the same seed gives the same playout
// and that the seed matters.
func TestPlayoutDeterministic(t *testing.T) {
	for _, size := range []int{9, 19} {
		start := NewPlayoutBoard(MustNewBoard(size), Black, NoPoint)
		run := func(seed uint64) (Board, int, int, int) {
			var pb PlayoutBoard
			pb.CopyFrom(start)
			n := pb.RandomPlayout(rand.New(rand.NewPCG(seed, seed^0x9e3779b9)))
			return pb.Board(), n, pb.Captures(Black), pb.Captures(White)
		}
		distinct := map[Board]bool{}
		for seed := uint64(1); seed <= 5; seed++ {
			b1, n1, cb1, cw1 := run(seed)
			b2, n2, cb2, cw2 := run(seed)
			if b1 != b2 || n1 != n2 || cb1 != cb2 || cw1 != cw2 {
				t.Fatalf("%dx%d seed %d: two runs differ", size, size, seed)
			}
			distinct[b1] = true
		}
		if len(distinct) < 2 {
			t.Errorf("%dx%d: five seeds gave %d final position(s)", size, size, len(distinct))
		}
	}
}

// TestPlayoutResetAndBoard checks the round trip through a Board, the
// refusal of points off the board and Reset reusing a board.
func TestPlayoutResetAndBoard(t *testing.T) {
	b := MustParseBoard(
		"X.O.X..",
		".XO.XO.",
		"OOXX.O.",
		"..X.OO.",
		"XXXO...",
		"OO.O.XX",
		".O...X.",
	)
	pb := NewPlayoutBoard(MustNewBoard(9), White, NoPoint)
	pb.Reset(b, Black, PointAt(7, 2, 0))
	if pb.Board() != b || pb.Size() != 7 || pb.ToMove() != Black || pb.Ko() != PointAt(7, 2, 0) {
		t.Fatalf("Reset: got\n%vsize %d to move %v ko %v", pb.Board(), pb.Size(), pb.ToMove(), pb.Ko())
	}
	checkPlayoutInvariants(t, pb)
	for p := Point(0); p < 49; p++ {
		if pb.At(p) != b.At(p) {
			t.Fatalf("At(%s) = %v, want %v", p.Vertex(7), pb.At(p), b.At(p))
		}
	}
	for _, p := range []Point{NoPoint, 49, 361, -7} {
		if pb.IsLegal(p) || pb.Play(p) || pb.At(p) != Empty {
			t.Errorf("point %d off the board is playable or coloured", p)
		}
	}
	if pb.Reset(b, Black, PointAt(7, 1, 0)); pb.Ko() != NoPoint {
		t.Errorf("a ko on a stone was kept: %v", pb.Ko())
	}
}

// TestPlayoutNoAllocs checks that Play, Reset, CopyFrom, RandomPlayout and
// ScoreArea allocate nothing.
func TestPlayoutNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	start := MustNewBoard(9)
	ref := &playoutReference{board: start, toMove: Black, ko: NoPoint}
	var moves []Point
	for len(moves) < 60 {
		p := Point(rng.IntN(81))
		if ref.play(p) {
			moves = append(moves, p)
		}
	}
	pb := NewPlayoutBoard(start, Black, NoPoint)
	allocs := testing.AllocsPerRun(20, func() {
		pb.Reset(start, Black, NoPoint)
		for _, p := range moves {
			if !pb.Play(p) {
				panic("move refused")
			}
		}
	})
	if allocs != 0 {
		t.Errorf("Reset and %d moves: %v allocations", len(moves), allocs)
	}
	if pb.Board() != ref.board {
		t.Fatalf("replayed game differs from the reference")
	}
	origin := NewPlayoutBoard(start, Black, NoPoint)
	sum := 0.0
	allocs = testing.AllocsPerRun(20, func() {
		pb.CopyFrom(origin)
		pb.RandomPlayout(rng)
		sum += pb.ScoreArea(7)
	})
	if allocs != 0 {
		t.Errorf("CopyFrom, RandomPlayout and ScoreArea: %v allocations", allocs)
	}
}

// FuzzPlayoutBoard plays the fuzzer's moves on the playout board and the
// reference and compares them after each: byte 0 picks the size, then
// each byte is a point (or a pass when it is past the last point).
func FuzzPlayoutBoard(f *testing.F) {
	f.Add([]byte{0, 1, 5, 6, 0, 2, 10, 7, 11, 12})
	f.Add([]byte{4, 10, 11, 19, 1, 20, 0, 18, 2, 9, 8, 200, 255})
	f.Add([]byte{0, 7, 11, 13, 12, 17, 6, 8, 16, 12, 2, 6, 7})
	f.Add([]byte{14, 0, 1, 19, 20, 38, 40, 57, 2, 255, 255})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		size := MinSize + int(data[0])%(MaxSize-MinSize+1)
		ref := &playoutReference{board: MustNewBoard(size), toMove: Black, ko: NoPoint}
		pb := NewPlayoutBoard(ref.board, Black, NoPoint)
		for k, x := range data[1:] {
			p := Point(x)
			if int(p) >= size*size {
				p = Pass
			}
			want := ref.play(p)
			if got := pb.Play(p); got != want {
				t.Fatalf("move %d (%s): Play %v, reference %v", k, p.Vertex(size), got, want)
			}
			comparePlayout(t, pb, ref, fmt.Sprintf("move %d (%s)", k, p.Vertex(size)))
			checkPlayoutInvariants(t, pb)
		}
		// Finish the game with the policy: it must end, and the score must
		// be the area count.
		pb.RandomPlayout(rand.New(rand.NewPCG(uint64(len(data)), 1)))
		checkPlayoutInvariants(t, pb)
		s := AreaScore(pb.Board(), Marking{}, 7.5)
		if got := pb.ScoreArea(7.5); got != s.Black-s.White {
			t.Fatalf("ScoreArea %v, AreaScore %v", got, s.Black-s.White)
		}
	})
}

var playoutBenchmarkSink float64

func benchmarkPlayout(b *testing.B, size int) {
	start := NewPlayoutBoard(MustNewBoard(size), Black, NoPoint)
	rng := rand.New(rand.NewPCG(1, 2))
	var pb PlayoutBoard
	playouts, moves := 0, 0
	for b.Loop() {
		pb.CopyFrom(start)
		moves += pb.RandomPlayout(rng)
		playoutBenchmarkSink += pb.ScoreArea(7.5)
		playouts++
	}
	seconds := b.Elapsed().Seconds()
	b.ReportMetric(float64(playouts)/seconds, "playouts/s")
	b.ReportMetric(float64(moves)/seconds, "moves/s")
	b.ReportMetric(float64(moves)/float64(playouts), "moves/playout")
}

// BenchmarkPlayout9x9 measures random playouts from the empty 9×9 board.
func BenchmarkPlayout9x9(b *testing.B) { benchmarkPlayout(b, 9) }

// BenchmarkPlayout19x19 measures random playouts from the empty 19×19 board.
func BenchmarkPlayout19x19(b *testing.B) { benchmarkPlayout(b, 19) }
