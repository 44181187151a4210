package sgf

import (
	"errors"
	"reflect"
	"testing"

	"github.com/kakure/kakure/engine"
)

func TestValueText(t *testing.T) {
	tests := []struct {
		Name       string
		Raw        Value
		Text       string
		SimpleText string
	}{
		{"plain", "hello", "hello", "hello"},
		{"escaped bracket and backslash", `a\]b\\c`, `a]b\c`, `a]b\c`},
		{"any escaped character is itself", `\a\:\[`, `a:[`, `a:[`},
		{"hard line breaks", "a\nb\r\nc\n\rd\re", "a\nb\nc\nd\ne", "a b c d e"},
		{"soft line breaks are removed", "one \\\ntwo \\\r\nthree", "one two three", "one two three"},
		{"tabs and other white space become spaces", "a\tb\vc\fd", "a b c d", "a b c d"},
		{"escaped white space is still converted", "a\\\tb", "a b", "a b"},
		{"lone backslash at the end", `abc\`, "abc", "abc"},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			if got := tt.Raw.Text(); got != tt.Text {
				t.Errorf("Value(%q).Text() = %q, want %q", tt.Raw, got, tt.Text)
			}
			if got := tt.Raw.SimpleText(); got != tt.SimpleText {
				t.Errorf("Value(%q).SimpleText() = %q, want %q", tt.Raw, got, tt.SimpleText)
			}
		})
	}
}

func TestValueCompose(t *testing.T) {
	tests := []struct {
		Raw           Value
		First, Second Value
		OK            bool
	}{
		{"aa:cc", "aa", "cc", true},
		{`a\:b:c:d`, `a\:b`, "c:d", true},
		{`a\\:b`, `a\\`, "b", true},
		{"nocolon", "nocolon", "", false},
		{":", "", "", true},
	}
	for _, tt := range tests {
		first, second, ok := tt.Raw.Compose()
		if first != tt.First || second != tt.Second || ok != tt.OK {
			t.Errorf("Value(%q).Compose() = %q, %q, %v; want %q, %q, %v", tt.Raw, first, second, ok, tt.First, tt.Second, tt.OK)
		}
	}
	if v := ComposeValue("a:b", `c]\`); v != `a\:b:c\]\\` {
		t.Errorf("ComposeValue = %q", v)
	}
}

func TestValueNumbers(t *testing.T) {
	numbers := map[Value]int{"19": 19, "+5": 5, "-3": -3, "007": 7}
	for v, want := range numbers {
		if got, err := v.Number(); err != nil || got != want {
			t.Errorf("Value(%q).Number() = %d, %v; want %d", v, got, err, want)
		}
	}
	for _, v := range []Value{"", "+", "1.5", "19 ", "--1", "1e3", "0x10", "99999999999999999999999"} {
		if _, err := v.Number(); !errors.Is(err, ErrValue) {
			t.Errorf("Value(%q).Number() error %v, want ErrValue", v, err)
		}
	}
	reals := map[Value]float64{"7.5": 7.5, "0": 0, "-0.5": -0.5, "6": 6, "+1.25": 1.25}
	for v, want := range reals {
		if got, err := v.Real(); err != nil || got != want {
			t.Errorf("Value(%q).Real() = %v, %v; want %v", v, got, err, want)
		}
		if back, err := RealValue(want).Real(); err != nil || back != want {
			t.Errorf("RealValue(%v) reads back as %v, %v", want, back, err)
		}
	}
	for _, v := range []Value{"", ".", "NaN", "Inf", "1e400", "1e3", "7.5.1", "seven"} {
		if _, err := v.Real(); !errors.Is(err, ErrValue) {
			t.Errorf("Value(%q).Real() error %v, want ErrValue", v, err)
		}
	}
	if RealValue(7.5) != "7.5" || RealValue(-3) != "-3" || NumberValue(19) != "19" {
		t.Errorf("RealValue/NumberValue: %q %q %q", RealValue(7.5), RealValue(-3), NumberValue(19))
	}
}

func TestValueColor(t *testing.T) {
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if got, err := ColorValue(c).Color(); err != nil || got != c {
			t.Errorf("ColorValue(%v).Color() = %v, %v", c, got, err)
		}
	}
	for _, v := range []Value{"", "b", "black", "E"} {
		if _, err := v.Color(); !errors.Is(err, ErrValue) {
			t.Errorf("Value(%q).Color() error %v, want ErrValue", v, err)
		}
	}
}

// TestSGFD1Coordinates checks the mapping between engine points (rows from
// the bottom) and SGF points (rows from the top), decision SGF-D1.
func TestSGFD1Coordinates(t *testing.T) {
	tests := []struct {
		Size   int
		Vertex string
		SGF    Value
	}{
		{9, "A1", "ai"},
		{9, "A9", "aa"},
		{9, "J9", "ia"},
		{9, "J1", "ii"},
		{9, "E5", "ee"},
		{19, "D4", "dp"},
		{19, "Q16", "pd"},
		{19, "T19", "sa"},
		{13, "C3", "ck"},
	}
	for _, tt := range tests {
		p, err := engine.ParseVertex(tt.Size, tt.Vertex)
		if err != nil {
			t.Fatal(err)
		}
		if got := PointValue(tt.Size, p); got != tt.SGF {
			t.Errorf("PointValue(%d, %s) = %q, want %q", tt.Size, tt.Vertex, got, tt.SGF)
		}
		if got, err := tt.SGF.Point(tt.Size); err != nil || got != p {
			t.Errorf("Value(%q).Point(%d) = %v, %v; want %s", tt.SGF, tt.Size, got.Vertex(tt.Size), err, tt.Vertex)
		}
	}
	// Every point of every size survives the round trip.
	for size := engine.MinSize; size <= engine.MaxSize; size++ {
		for p := engine.Point(0); int(p) < size*size; p++ {
			if got, err := PointValue(size, p).Point(size); err != nil || got != p {
				t.Fatalf("size %d point %d: back %d, %v", size, p, got, err)
			}
		}
	}
}

func TestSGFD1Pass(t *testing.T) {
	if PointValue(9, engine.Pass) != "" {
		t.Errorf("PointValue(Pass) = %q, want the empty value of FF[4]", PointValue(9, engine.Pass))
	}
	for _, size := range []int{5, 9, 19} {
		for _, v := range []Value{"", "tt"} {
			if p, err := v.Point(size); err != nil || p != engine.Pass {
				t.Errorf("Value(%q).Point(%d) = %v, %v; want Pass", v, size, p, err)
			}
		}
	}
	if _, err := Value("tt").Points(19); !errors.Is(err, ErrValue) {
		t.Errorf("tt in a point list: error %v, want ErrValue", err)
	}
	bad := []Value{"a", "abc", "jj", "ai ", "AA", "a1", "??", "t"}
	for _, v := range bad {
		if _, err := v.Point(9); !errors.Is(err, ErrValue) {
			t.Errorf("Value(%q).Point(9) error %v, want ErrValue", v, err)
		}
	}
	if PointValue(9, 81) != "??" || PointValue(9, engine.NoPoint) != "??" {
		t.Errorf("off-board points must encode as ??")
	}
}

func TestValuePoints(t *testing.T) {
	v := func(s string) []engine.Point {
		var ps []engine.Point
		for _, x := range []string{s} {
			for i := 0; i+1 < len(x); i += 3 {
				p, err := engine.ParseVertex(5, x[i:i+2])
				if err != nil {
					t.Fatal(err)
				}
				ps = append(ps, p)
			}
		}
		return ps
	}
	tests := []struct {
		Raw  Value
		Want []engine.Point
	}{
		{"", nil},
		{"aa", v("A5")},
		{"aa:bb", v("A5 B5 A4 B4")},
		{"bb:aa", v("A5 B5 A4 B4")},
		{"ab:ca", v("A5 B5 C5 A4 B4 C4")},
		{"cc:cc", v("C3")},
		{"ae:ee", v("A1 B1 C1 D1 E1")},
	}
	for _, tt := range tests {
		got, err := tt.Raw.Points(5)
		if err != nil || !reflect.DeepEqual(got, tt.Want) {
			t.Errorf("Value(%q).Points(5) = %v, %v; want %v", tt.Raw, got, err, tt.Want)
		}
	}
	for _, raw := range []Value{"aa:", ":aa", "aa:ff", "aa:bb:cc", "zz"} {
		if _, err := raw.Points(5); !errors.Is(err, ErrValue) {
			t.Errorf("Value(%q).Points(5) error %v, want ErrValue", raw, err)
		}
	}
}
