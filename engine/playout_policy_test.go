package engine

import (
	"math/rand/v2"
	"testing"
)

// TestPOD6PolicyPlayoutMatchesPlace plays policy playouts move by move
// and checks each against Board.Place (GO-1, GO-2): the policy plays only
// legal moves, captures as the rules say, and the count is AreaScore's.
func TestPOD6PolicyPlayoutMatchesPlace(t *testing.T) {
	for _, size := range []int{5, 7, 9, 13} {
		rng := rand.New(rand.NewPCG(uint64(size), 6))
		for g := 0; g < 10; g++ {
			pb := NewPlayoutBoard(MustNewBoard(size), Black, NoPoint)
			for moves := 0; pb.Passes() < 2 && moves < PlayoutMoveCap*size*size; moves++ {
				before := pb.Board()
				c := pb.ToMove()
				if !pb.playPolicyMove(rng) && !pb.playRandomSafeMove(rng) {
					pb.Pass()
					continue
				}
				p := pb.lastPlayed(before)
				want, res := before.Place(p, c)
				if res.Occupied || res.Suicide {
					t.Fatalf("%dx%d: the policy played an illegal %v at %s\n%v", size, size, c, p.Vertex(size), before)
				}
				if got := pb.Board(); got != want {
					t.Fatalf("%dx%d: after %v %s:\n%v\nwant\n%v", size, size, c, p.Vertex(size), got, want)
				}
			}
			s := AreaScore(pb.Board(), Marking{}, 0.5)
			if got := pb.ScoreArea(0.5); got != s.Black-s.White {
				t.Fatalf("ScoreArea %v, AreaScore %v", got, s.Black-s.White)
			}
		}
	}
}

// TestPOD6PolicyAnswers: the policy captures the last stone when it is in
// atari, saves an own chain the last stone put in atari (by capturing
// around it, or by extending), and gives atari to a last stone with two
// liberties.
func TestPOD6PolicyAnswers(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name    string
		diagram []string
		mover   Color
		last    string
		want    []string
	}{
		// White plays C3 into atari (its only liberty D3): Black captures.
		{"capture the last stone", []string{".....", "..X..", ".XO..", "..X..", "....."}, White, "C3", []string{"D3"}},
		// White's D3 puts Black's B3-C3 in atari (its liberty C2): Black
		// extends there, which gives it two more.
		{"extend out of atari", []string{".....", ".OO..", "OXXO.", ".O...", "....."}, White, "D3", []string{"C2"}},
		// White's D3 has two liberties: atari from one that keeps two.
		{"atari the last stone", []string{".....", ".....", "..XO.", "...X.", "....."}, White, "D3", []string{"D4", "E3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := MustParseBoard(tc.diagram...)
			p, err := ParseVertex(5, tc.last)
			if err != nil {
				t.Fatal(err)
			}
			// Take the last stone off and play it, so that it is the
			// board's last move.
			b.Set(p, Empty)
			pb := NewPlayoutBoard(b, tc.mover, NoPoint)
			if !pb.Play(p) {
				t.Fatalf("the last move %s is illegal", tc.last)
			}
			before := pb.Board()
			if !pb.playPolicyMove(rng) {
				t.Fatalf("no answer to %s\n%v", tc.last, before)
			}
			got := pb.lastPlayed(before).Vertex(5)
			for _, w := range tc.want {
				if got == w {
					return
				}
			}
			t.Errorf("the policy answered %s, want one of %v\n%v", got, tc.want, before)
		})
	}
}
