package engine

import (
	"errors"
	"slices"
	"testing"
)

func TestPointAtXY(t *testing.T) {
	for size := MinSize; size <= MaxSize; size++ {
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				p := PointAt(size, x, y)
				if gx, gy := p.XY(size); gx != x || gy != y {
					t.Fatalf("size %d: PointAt(%d,%d) = %d, XY = (%d,%d)", size, x, y, p, gx, gy)
				}
			}
		}
	}
}

func TestVertex(t *testing.T) {
	tests := []struct {
		name string
		size int
		p    Point
		want string
	}{
		{"bottom-left corner", 9, 0, "A1"},
		{"column H before the skipped I", 9, PointAt(9, 7, 0), "H1"},
		{"column after H is J (I skipped)", 9, PointAt(9, 8, 0), "J1"},
		{"top-right 9x9", 9, PointAt(9, 8, 8), "J9"},
		{"D4 on 9x9", 9, PointAt(9, 3, 3), "D4"},
		{"top-right 19x19", 19, PointAt(19, 18, 18), "T19"},
		{"two-digit row", 13, PointAt(13, 2, 10), "C11"},
		{"pass", 9, Pass, "pass"},
		{"no point", 9, NoPoint, "?"},
		{"past the board", 9, 81, "?"},
		{"negative", 9, -7, "?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Vertex(tt.size); got != tt.want {
				t.Errorf("Point(%d).Vertex(%d) = %q, want %q", tt.p, tt.size, got, tt.want)
			}
		})
	}
}

func TestParseVertex(t *testing.T) {
	tests := []struct {
		name string
		size int
		in   string
		want Point
	}{
		{"A1", 9, "A1", 0},
		{"lower case", 9, "d4", PointAt(9, 3, 3)},
		{"upper case", 9, "D4", PointAt(9, 3, 3)},
		{"J is the ninth column", 9, "J1", PointAt(9, 8, 0)},
		{"J lower case", 9, "j9", PointAt(9, 8, 8)},
		{"T19 on 19x19", 19, "T19", PointAt(19, 18, 18)},
		{"K10 on 19x19", 19, "k10", PointAt(19, 9, 9)},
		{"last point of 5x5", 5, "E5", 24},
		{"pass", 9, "pass", Pass},
		{"PASS", 9, "PASS", Pass},
		{"Pass", 9, "Pass", Pass},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseVertex(tt.size, tt.in)
			if err != nil || got != tt.want {
				t.Errorf("ParseVertex(%d, %q) = %d, %v; want %d, nil", tt.size, tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseVertexErrors(t *testing.T) {
	tests := []struct {
		name string
		size int
		in   string
	}{
		{"empty", 9, ""},
		{"column only", 9, "A"},
		{"I is skipped", 9, "I5"},
		{"i lower case is skipped", 19, "i5"},
		{"row 0", 9, "A0"},
		{"leading zero", 9, "A01"},
		{"row past the board", 9, "A10"},
		{"column past the board", 9, "K1"},
		{"column past 19x19", 19, "U1"},
		{"plus sign", 9, "A+1"},
		{"minus sign", 9, "A-1"},
		{"digit first", 9, "1A"},
		{"too long", 19, "A100"},
		{"space inside", 9, "A 1"},
		{"trailing space", 9, "A1 "},
		{"not a letter", 9, "@1"},
		{"passes", 9, "passes"},
		{"resign is not a vertex", 9, "resign"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseVertex(tt.size, tt.in)
			if !errors.Is(err, ErrBadVertex) {
				t.Errorf("ParseVertex(%d, %q) = %d, %v; want an error wrapping ErrBadVertex", tt.size, tt.in, got, err)
			}
			if got != NoPoint {
				t.Errorf("ParseVertex(%d, %q) returned point %d with an error, want NoPoint", tt.size, tt.in, got)
			}
		})
	}
}

// TestVertexRoundTrip formats and parses back every point of every size.
func TestVertexRoundTrip(t *testing.T) {
	for size := MinSize; size <= MaxSize; size++ {
		seen := make(map[string]bool)
		for i := 0; i < size*size; i++ {
			p := Point(i)
			v := p.Vertex(size)
			if seen[v] {
				t.Fatalf("size %d: vertex %q names two points", size, v)
			}
			seen[v] = true
			back, err := ParseVertex(size, v)
			if err != nil || back != p {
				t.Fatalf("size %d: ParseVertex(%q) = %d, %v; want %d", size, v, back, err, p)
			}
		}
	}
}

func TestFormatVertices(t *testing.T) {
	tests := []struct {
		name string
		ps   []Point
		want string
	}{
		{"none", nil, "-"},
		{"empty slice", []Point{}, "-"},
		{"one", []Point{0}, "A1"},
		{"several in the given order", []Point{PointAt(9, 8, 8), 0, Pass}, "J9,A1,pass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatVertices(9, tt.ps); got != tt.want {
				t.Errorf("FormatVertices(9, %v) = %q, want %q", tt.ps, got, tt.want)
			}
		})
	}
}

func TestParseColor(t *testing.T) {
	tests := []struct {
		in   string
		want Color
		ok   bool
	}{
		{"b", Black, true},
		{"B", Black, true},
		{"black", Black, true},
		{"BLACK", Black, true},
		{"w", White, true},
		{"White", White, true},
		{"", Empty, false},
		{"empty", Empty, false},
		{"bl", Empty, false},
	}
	for _, tt := range tests {
		got, err := ParseColor(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseColor(%q) = %v, %v; want %v, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	if Black.Opponent() != White || White.Opponent() != Black || Empty.Opponent() != Empty {
		t.Errorf("Opponent: black→%v white→%v empty→%v", Black.Opponent(), White.Opponent(), Empty.Opponent())
	}
}

// TestParseVertexList: vertex lists as the variants' tests write them,
// sorted, with "" and "-" for none, and a bad vertex refused.
func TestParseVertexList(t *testing.T) {
	for _, c := range []struct {
		list string
		want []Point
		bad  bool
	}{
		{list: "", want: nil},
		{list: "-", want: nil},
		{list: "b1", want: []Point{1}},
		{list: "c1, a1,B2", want: []Point{0, 2, 6}},
		{list: "a1,i1", bad: true},
		{list: "a1,", bad: true},
	} {
		got, err := ParseVertexList(5, c.list)
		if (err != nil) != c.bad || !slices.Equal(got, c.want) {
			t.Errorf("ParseVertexList(5, %q) = %v, %v; want %v (error %v)", c.list, got, err, c.want, c.bad)
		}
	}
}
