package engine

import (
	"errors"
	"testing"
)

// TestHandicapPoints: HC-D1 places handicap stones as GTP's fixed_handicap
// does (the GTP specification's list for 19×19, the third line on 9×9).
func TestHandicapPoints(t *testing.T) {
	for _, c := range []struct {
		size, n int
		want    string
	}{
		{19, 2, "D4,Q16"},
		{19, 3, "D4,Q16,D16"},
		{19, 4, "D4,Q16,D16,Q4"},
		{19, 5, "D4,Q16,D16,Q4,K10"},
		{19, 6, "D4,Q16,D16,Q4,D10,Q10"},
		{19, 7, "D4,Q16,D16,Q4,D10,Q10,K10"},
		{19, 8, "D4,Q16,D16,Q4,D10,Q10,K4,K16"},
		{19, 9, "D4,Q16,D16,Q4,D10,Q10,K4,K16,K10"},
		{13, 5, "D4,K10,D10,K4,G7"},
		{9, 2, "C3,G7"},
		{9, 9, "C3,G7,C7,G3,C5,G5,E3,E7,E5"},
		{7, 4, "C3,E5,C5,E3"},
		{8, 3, "C3,F6,C6"},
	} {
		ps, err := HandicapPoints(c.size, c.n)
		if err != nil {
			t.Fatalf("%dx%d handicap %d: %v", c.size, c.n, c.n, err)
		}
		if got := FormatVertices(c.size, ps); got != c.want {
			t.Errorf("%dx%d handicap %d: %s, want %s", c.size, c.size, c.n, got, c.want)
		}
	}
	for _, c := range []struct{ size, n int }{{19, 1}, {19, 10}, {9, 10}, {8, 5}, {7, 5}, {6, 2}, {5, 2}} {
		if _, err := HandicapPoints(c.size, c.n); !errors.Is(err, ErrBadOptions) {
			t.Errorf("%dx%d handicap %d: %v, want ErrBadOptions", c.size, c.size, c.n, err)
		}
	}
}

// TestHandicapGame: a plain Go game with a handicap starts with Black's
// stones on their points and White to move, komi 0.5 unless set (HC-D1);
// the options refuse a handicap in another variant, one without a colour
// choice, and a colour choice in gomoku (HC-D2, GM-2).
func TestHandicapGame(t *testing.T) {
	g, err := NewGoGame(Options{Variant: VariantGo, Size: 9, Handicap: 3, InviterColor: White})
	if err != nil {
		t.Fatal(err)
	}
	b := g.Board()
	for _, v := range []string{"C3", "G7", "C7"} {
		p, _ := ParseVertex(9, v)
		if b.At(p) != Black {
			t.Errorf("no handicap stone at %s", v)
		}
	}
	if b.Count(Black) != 3 || b.Count(White) != 0 {
		t.Errorf("%d black and %d white stones, want 3 and 0", b.Count(Black), b.Count(White))
	}
	if g.ToMove() != White || g.Options().Komi != 0.5 {
		t.Errorf("to move %v, komi %v; want White, 0.5", g.ToMove(), g.Options().Komi)
	}
	if _, _, err := g.Play(White, PointAt(9, 4, 4)); err != nil {
		t.Errorf("White's first move: %v", err)
	}
	g, err = NewGoGame(Options{Variant: VariantGo, Size: 9, Handicap: 2, InviterColor: Black, Komi: 0, KomiSet: true})
	if err != nil || g.Options().Komi != 0 {
		t.Errorf("komi 0 set on purpose: %v, %v", g.Options().Komi, err)
	}
	for _, o := range []Options{
		{Variant: VariantPhantom, Handicap: 2, InviterColor: Black},
		{Variant: VariantBridge, Handicap: 2, InviterColor: Black},
		{Variant: VariantGo, Handicap: 2},
		{Variant: VariantGo, Handicap: 10, InviterColor: Black},
		{Variant: VariantGomoku, InviterColor: Black},
		{Variant: VariantGo, InviterColor: Color(7)},
	} {
		if _, err := o.Normalize(); !errors.Is(err, ErrBadOptions) {
			t.Errorf("%+v: %v, want ErrBadOptions", o, err)
		}
	}
	for _, v := range []Variant{VariantGo, VariantPhantom, VariantHMG, VariantFGo, VariantBridge} {
		if _, err := (Options{Variant: v, InviterColor: White}).Normalize(); err != nil {
			t.Errorf("%s with a colour choice: %v", v, err)
		}
	}
}
