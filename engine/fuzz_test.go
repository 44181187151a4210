package engine_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

// fuzzGoSizes are the board sides the plain Go fuzz target plays on; small
// boards give many captures, kos and suicides.
var fuzzGoSizes = []int{5, 6, 7, 9, 13}

// fuzzGoStep is one legal move of a fuzzed game and what followed it.
type fuzzGoStep struct {
	color    engine.Color
	move     engine.Point
	board    engine.Board
	captured []engine.Point
	captures [3]int
}

// FuzzGoGameInvariants plays the moves the input bytes name (one byte per
// try: a point, or pass for the value one past the last point) for the
// player to move and checks the invariants of plain Go after every try:
//   - Check and Play agree, and an illegal try leaves the game value as it
//     was (GO-2, GO-3);
//   - no chain without liberties remains on the board (GO-1, GO-2);
//   - the board changed by exactly the new stone and the captured stones,
//     and no position after a move repeats an earlier one (GO-3);
//   - per colour, stones placed minus stones lost equals stones on the
//     board, and the capture counts add up;
//   - replaying the legal moves from a new game reproduces every position
//     and capture;
//   - LegalPoints lists exactly the empty points Check accepts.
func FuzzGoGameInvariants(f *testing.F) {
	// Hand-made seeds: a ko fight and a suicide attempt on 5×5, passes.
	f.Add(uint8(0), []byte{7, 11, 13, 17, 25, 25, 12, 12, 0, 1, 5, 6})
	f.Add(uint8(0), []byte{1, 0, 5, 6, 0, 0, 2, 25, 10, 25, 25})
	// Random games on every size, long enough to fill the board and make
	// the players capture big chains and retake kos.
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2 * len(fuzzGoSizes) {
		size := fuzzGoSizes[i%len(fuzzGoSizes)]
		moves := make([]byte, 4*size*size)
		for j := range moves {
			moves[j] = byte(rng.IntN(size*size + 1))
		}
		f.Add(uint8(i%len(fuzzGoSizes)), moves)
	}
	f.Fuzz(func(t *testing.T, sizeIndex uint8, tries []byte) {
		size := fuzzGoSizes[int(sizeIndex)%len(fuzzGoSizes)]
		if len(tries) > 6*size*size {
			tries = tries[:6*size*size]
		}
		g, err := engine.NewGoGame(engine.Options{Variant: engine.VariantGo, Size: size})
		if err != nil {
			t.Fatal(err)
		}
		positions := []engine.Board{g.Board()}
		var steps []fuzzGoStep
		var placed [3]int
		for _, b := range tries {
			c := g.ToMove()
			p := engine.Point(int(b) % (size*size + 1))
			if int(p) == size*size {
				p = engine.Pass
			}
			before := g
			checkErr := g.Check(c, p)
			next, captured, err := g.Play(c, p)
			if (checkErr == nil) != (err == nil) {
				t.Fatalf("%s: Check = %v but Play = %v", fuzzGoMoves(size, steps), checkErr, err)
			}
			if err != nil {
				if !errors.Is(err, engine.ErrOccupied) && !errors.Is(err, engine.ErrSuicide) && !errors.Is(err, engine.ErrSuperko) {
					t.Fatalf("%s: %v %s refused for an unexpected reason: %v", fuzzGoMoves(size, steps), c, p.Vertex(size), err)
				}
				if !errors.Is(checkErr, fuzzGoReason(err)) {
					t.Fatalf("%s: Check says %v, Play says %v", fuzzGoMoves(size, steps), checkErr, err)
				}
				if next != before || g != before || captured != nil {
					t.Fatalf("%s: illegal %v %s changed the game value", fuzzGoMoves(size, steps), c, p.Vertex(size))
				}
				continue
			}
			if g != before {
				t.Fatalf("Play changed its receiver")
			}
			fuzzGoCheckMove(t, size, steps, before, next, c, p, captured)
			if p != engine.Pass {
				placed[c]++
				board := next.Board()
				for _, old := range positions {
					if old == board {
						t.Fatalf("%s: %v %s repeats an earlier position (GO-3)", fuzzGoMoves(size, steps), c, p.Vertex(size))
					}
				}
				positions = append(positions, board)
			}
			for _, col := range []engine.Color{engine.Black, engine.White} {
				board := next.Board()
				if got, want := board.Count(col), placed[col]-next.Captures(col.Opponent()); got != want {
					t.Fatalf("%s: %d %v stones on the board, %d placed minus captured", fuzzGoMoves(size, steps), got, col, want)
				}
			}
			g = next
			steps = append(steps, fuzzGoStep{
				color: c, move: p, board: g.Board(), captured: captured,
				captures: [3]int{0, g.Captures(engine.Black), g.Captures(engine.White)},
			})
		}
		fuzzGoCheckLegalMoves(t, size, steps, g)
		fuzzGoCheckReplay(t, size, steps, g)
	})
}

// fuzzGoReason returns the sentinel error err wraps.
func fuzzGoReason(err error) error {
	for _, s := range []error{engine.ErrOccupied, engine.ErrSuicide, engine.ErrSuperko} {
		if errors.Is(err, s) {
			return s
		}
	}
	return err
}

// fuzzGoCheckMove checks one legal move: the board changed by the new stone
// and the captures only, captured stones were the opponent's, no chain is
// left without a liberty, and the counters moved on.
func fuzzGoCheckMove(t *testing.T, size int, steps []fuzzGoStep, before, next engine.GoGame, c engine.Color, p engine.Point, captured []engine.Point) {
	t.Helper()
	was, now := before.Board(), next.Board()
	if p == engine.Pass {
		if now != was || captured != nil || next.Passes() != before.Passes()+1 {
			t.Fatalf("%s: a pass changed the board or the pass count is wrong", fuzzGoMoves(size, steps))
		}
	} else {
		if now.At(p) != c || next.Passes() != 0 {
			t.Fatalf("%s: %v %s: the stone is not on the board", fuzzGoMoves(size, steps), c, p.Vertex(size))
		}
		expect := was
		expect.Set(p, c)
		for _, q := range captured {
			if was.At(q) != c.Opponent() {
				t.Fatalf("%s: %v %s captured %s, which was not an opponent stone", fuzzGoMoves(size, steps), c, p.Vertex(size), q.Vertex(size))
			}
			expect.Set(q, engine.Empty)
		}
		if now != expect {
			t.Fatalf("%s: %v %s: the board changed by more than the stone and its captures:\n%v", fuzzGoMoves(size, steps), c, p.Vertex(size), now)
		}
	}
	if next.Captures(c) != before.Captures(c)+len(captured) || next.Captures(c.Opponent()) != before.Captures(c.Opponent()) {
		t.Fatalf("%s: capture counts did not add up", fuzzGoMoves(size, steps))
	}
	if next.ToMove() != c.Opponent() || next.LastMove() != p || next.MoveNumber() != before.MoveNumber()+1 {
		t.Fatalf("%s: turn, last move or move number wrong", fuzzGoMoves(size, steps))
	}
	var seen [engine.MaxPoints]bool
	for i := 0; i < size*size; i++ {
		q := engine.Point(i)
		if seen[q] || now.At(q) == engine.Empty {
			continue
		}
		stones, libs := now.Chain(q)
		for _, s := range stones {
			seen[s] = true
		}
		if len(libs) == 0 {
			t.Fatalf("%s: the chain at %s has no liberty (GO-1)\n%v", fuzzGoMoves(size, steps), q.Vertex(size), now)
		}
	}
}

// fuzzGoCheckLegalMoves checks that LegalPoints and Check agree for both
// players on every point.
func fuzzGoCheckLegalMoves(t *testing.T, size int, steps []fuzzGoStep, g engine.GoGame) {
	t.Helper()
	board := g.Board()
	for _, c := range []engine.Color{engine.Black, engine.White} {
		legal := make(map[engine.Point]bool)
		for _, p := range g.LegalPoints(c) {
			legal[p] = true
		}
		for i := 0; i < size*size; i++ {
			p := engine.Point(i)
			err := g.Check(c, p)
			if (err == nil) != legal[p] {
				t.Fatalf("%s: LegalPoints(%v) and Check(%s) = %v disagree", fuzzGoMoves(size, steps), c, p.Vertex(size), err)
			}
			if board.At(p) != engine.Empty && err == nil {
				t.Fatalf("%s: %v may play on the stone at %s", fuzzGoMoves(size, steps), c, p.Vertex(size))
			}
		}
		if g.Check(c, engine.Pass) != nil {
			t.Fatalf("pass refused")
		}
	}
}

// fuzzGoCheckReplay replays the legal moves on a new game and compares
// every position and capture.
func fuzzGoCheckReplay(t *testing.T, size int, steps []fuzzGoStep, final engine.GoGame) {
	t.Helper()
	g, err := engine.NewGoGame(engine.Options{Variant: engine.VariantGo, Size: size})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range steps {
		next, captured, err := g.Play(s.color, s.move)
		if err != nil {
			t.Fatalf("%s: replayed move %d %v %s refused: %v", fuzzGoMoves(size, steps[:i]), i+1, s.color, s.move.Vertex(size), err)
		}
		if next.Board() != s.board || engine.FormatVertices(size, captured) != engine.FormatVertices(size, s.captured) ||
			next.Captures(engine.Black) != s.captures[engine.Black] || next.Captures(engine.White) != s.captures[engine.White] {
			t.Fatalf("%s: replay differs after move %d", fuzzGoMoves(size, steps[:i+1]), i+1)
		}
		g = next
	}
	if g.Board() != final.Board() || g.ToMove() != final.ToMove() || g.Passes() != final.Passes() ||
		g.MoveNumber() != final.MoveNumber() || g.LastMove() != final.LastMove() {
		t.Fatalf("replayed game ends in another state")
	}
}

// fuzzGoMoves formats the legal moves of a fuzzed game as GTP commands,
// so that a failure can be reproduced with any GTP engine.
func fuzzGoMoves(size int, steps []fuzzGoStep) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "moves as GTP: boardsize %d; clear_board", size)
	for _, s := range steps {
		fmt.Fprintf(&sb, "; play %s %s", s.color, s.move.Vertex(size))
	}
	return sb.String()
}
