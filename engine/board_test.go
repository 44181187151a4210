package engine

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// vertexList parses a space-separated list of GTP vertices for tests.
func vertexList(t *testing.T, size int, list string) []Point {
	t.Helper()
	var ps []Point
	for _, v := range strings.Fields(list) {
		p, err := ParseVertex(size, v)
		if err != nil {
			t.Fatalf("test data: %v", err)
		}
		ps = append(ps, p)
	}
	return ps
}

// sortedVertices returns ps sorted and formatted, to compare sets of points.
func sortedVertices(size int, ps []Point) string {
	s := slices.Clone(ps)
	slices.Sort(s)
	return FormatVertices(size, s)
}

func TestNewBoard(t *testing.T) {
	for _, size := range []int{1, 5, 9, 19} {
		b, err := NewBoard(size)
		if err != nil || b.Size() != size || b.Points() != size*size {
			t.Errorf("NewBoard(%d) = size %d, %d points, %v", size, b.Size(), b.Points(), err)
		}
		if b.Count(Black) != 0 || b.Count(White) != 0 || b.Count(Empty) != size*size {
			t.Errorf("NewBoard(%d) is not empty", size)
		}
	}
	for _, size := range []int{-1, 0, 20, 361} {
		if _, err := NewBoard(size); !errors.Is(err, ErrBadOptions) {
			t.Errorf("NewBoard(%d): err = %v, want ErrBadOptions", size, err)
		}
	}
}

func TestBoardNeighbors(t *testing.T) {
	tests := []struct {
		name   string
		vertex string
		want   string // south, west, east, north
	}{
		{"corner A1", "A1", "B1 A2"},
		{"corner J9", "J9", "J8 H9"},
		{"corner A9", "A9", "A8 B9"},
		{"corner J1", "J1", "H1 J2"},
		{"edge E1", "E1", "D1 F1 E2"},
		{"edge A5", "A5", "A4 B5 A6"},
		{"edge J5", "J5", "J4 H5 J6"},
		{"edge E9", "E9", "E8 D9 F9"},
		{"centre E5", "E5", "E4 D5 F5 E6"},
	}
	b := MustNewBoard(9)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := vertexList(t, 9, tt.vertex)[0]
			ns, n := b.Neighbors(p)
			got := FormatVertices(9, ns[:n])
			want := FormatVertices(9, vertexList(t, 9, tt.want))
			if got != want {
				t.Errorf("Neighbors(%s) = %s, want %s", tt.vertex, got, want)
			}
		})
	}
}

func TestBoardAtSetOffBoard(t *testing.T) {
	b := MustNewBoard(5)
	b.Set(25, Black)
	b.Set(-1, White)
	b.Set(Pass, White)
	if b != MustNewBoard(5) {
		t.Errorf("Set off the board changed the board:\n%v", b)
	}
	if b.At(25) != Empty || b.At(-3) != Empty || b.OnBoard(25) || b.OnBoard(Pass) || !b.OnBoard(24) {
		t.Errorf("At/OnBoard off the board are wrong")
	}
	b.Set(12, White)
	if b.At(12) != White || b.Count(White) != 1 {
		t.Errorf("Set(12, White) did not place a stone")
	}
	b.Set(12, Empty)
	if b != MustNewBoard(5) {
		t.Errorf("Set(12, Empty) did not clear the point")
	}
}

func TestBoardChain(t *testing.T) {
	b := MustParseBoard(
		"X X O . .",
		"X . O . .",
		"O O O X .",
		". . X X .",
		"X . . . .",
	)
	tests := []struct {
		name      string
		at        string
		stones    string
		liberties string
	}{
		{"two stones in the corner share liberty B4", "A5", "A5 B5 A4", "B4"},
		{"white group of five", "C3", "C5 C4 A3 B3 C3", "D5 B4 D4 A2 B2"},
		{"black group of three", "D2", "D3 C2 D2", "E3 D4 B2 E2 C1 D1"},
		{"lone stone in the corner", "A1", "A1", "A2 B1"},
		{"empty point", "E5", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := vertexList(t, 5, tt.at)[0]
			stones, libs := b.Chain(p)
			if got, want := sortedVertices(5, stones), sortedVertices(5, vertexList(t, 5, tt.stones)); got != want {
				t.Errorf("Chain(%s) stones = %s, want %s", tt.at, got, want)
			}
			if got, want := sortedVertices(5, libs), sortedVertices(5, vertexList(t, 5, tt.liberties)); got != want {
				t.Errorf("Chain(%s) liberties = %s, want %s", tt.at, got, want)
			}
			if got := b.Liberties(p); got != len(libs) {
				t.Errorf("Liberties(%s) = %d, want %d", tt.at, got, len(libs))
			}
		})
	}
}

func TestBoardPlaceLeavesReceiverUnchanged(t *testing.T) {
	b := MustParseBoard(
		". X . . .",
		"X O X . .",
		". . . . .",
		". . . . .",
		". . . . .",
	)
	before := b
	next, res := b.Place(vertexList(t, 5, "B3")[0], Black)
	if b != before {
		t.Fatalf("Place changed its receiver")
	}
	if len(res.Captured) != 1 || next.At(vertexList(t, 5, "B4")[0]) != Empty {
		t.Fatalf("Place B3 did not capture B4: %+v\n%v", res, next)
	}
	same, res := b.Place(vertexList(t, 5, "B4")[0], Black)
	if !res.Occupied || same != b || res.Suicide || len(res.Captured) != 0 {
		t.Errorf("Place on a stone: %+v", res)
	}
}

func TestBoardCountStonesHash(t *testing.T) {
	b := MustParseBoard(
		"X . . . O",
		". . . . .",
		". . X . .",
		". . . . .",
		"O . . . X",
	)
	if b.Count(Black) != 3 || b.Count(White) != 2 || b.Count(Empty) != 20 {
		t.Errorf("Count = %d black, %d white, %d empty", b.Count(Black), b.Count(White), b.Count(Empty))
	}
	if got := FormatVertices(5, b.Stones(Black)); got != "E1,C3,A5" {
		t.Errorf("Stones(Black) = %s, want E1,C3,A5 (increasing order)", got)
	}
	if got := FormatVertices(5, b.Stones(White)); got != "A1,E5" {
		t.Errorf("Stones(White) = %s, want A1,E5", got)
	}

	// Equal positions hash equally; a changed colour or point changes it.
	c := b
	if c.Hash() != b.Hash() {
		t.Errorf("equal boards hash differently")
	}
	c.Set(12, White)
	if c.Hash() == b.Hash() {
		t.Errorf("changing a stone's colour kept the hash")
	}
	c.Set(12, Empty)
	if c.Hash() == b.Hash() {
		t.Errorf("removing a stone kept the hash")
	}
	c.Set(12, Black)
	if c.Hash() != b.Hash() {
		t.Errorf("restoring the stone did not restore the hash")
	}
	e5, e9 := MustNewBoard(5), MustNewBoard(9)
	if e5.Hash() == e9.Hash() {
		t.Errorf("empty boards of different sizes hash equally")
	}
}

func TestBoardStringParseRoundTrip(t *testing.T) {
	rows := []string{
		"X . . . O",
		". O . . .",
		". . X . .",
		". . . X .",
		"O . . . X",
	}
	b := MustParseBoard(rows...)
	want := "    A B C D E\n" +
		" 5  X . . . O  5\n" +
		" 4  . O . . .  4\n" +
		" 3  . . X . .  3\n" +
		" 2  . . . X .  2\n" +
		" 1  O . . . X  1\n" +
		"    A B C D E\n"
	if got := b.String(); got != want {
		t.Errorf("String() =\n%s\nwant\n%s", got, want)
	}
	// Parse the drawn rows back.
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	var drawn []string
	for _, l := range lines[1 : len(lines)-1] {
		f := strings.Fields(l)
		drawn = append(drawn, strings.Join(f[1:len(f)-1], ""))
	}
	back, err := ParseBoard(drawn...)
	if err != nil || back != b {
		t.Errorf("ParseBoard(String rows) = %v, %v", back, err)
	}
	alt := MustParseBoard("x++++", "+oBW+", "+++++", "+++++", "+++++")
	if alt.At(vertexList(t, 5, "A5")[0]) != Black || alt.At(vertexList(t, 5, "B4")[0]) != White ||
		alt.At(vertexList(t, 5, "C4")[0]) != Black || alt.At(vertexList(t, 5, "D4")[0]) != White {
		t.Errorf("alternative marks misread:\n%v", alt)
	}
}

func TestParseBoardErrors(t *testing.T) {
	tests := []struct {
		name string
		rows []string
	}{
		{"no rows", nil},
		{"row too long", []string{"......", ".....", ".....", ".....", "....."}},
		{"row too short", []string{"....", ".....", ".....", ".....", "....."}},
		{"unknown mark", []string{"..?..", ".....", ".....", ".....", "....."}},
		{"too many rows", make([]string, 20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ParseBoard(tt.rows...); err == nil {
				t.Errorf("ParseBoard(%q) accepted a bad diagram", tt.rows)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Errorf("MustParseBoard did not panic on a bad diagram")
		}
	}()
	MustParseBoard("..", ".")
}
