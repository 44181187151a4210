package sgf

import (
	"errors"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

func TestCustomPropertiesAreNotStandard(t *testing.T) {
	ids := CustomPropertyIDs()
	if len(ids) == 0 {
		t.Fatal("no custom properties")
	}
	for i, id := range ids {
		if !validPropertyID(id) {
			t.Errorf("%q is not an FF[4] identifier", id)
		}
		if slices.Contains(standardProperties, id) {
			t.Errorf("%s is a standard SGF property", id)
		}
		if slices.Contains(ids[:i], id) {
			t.Errorf("%s listed twice", id)
		}
		if !IsCustomProperty(id) {
			t.Errorf("IsCustomProperty(%s) = false", id)
		}
	}
	for _, id := range []string{"B", "W", "C", "AN", "LN", "VW", ""} {
		if IsCustomProperty(id) {
			t.Errorf("IsCustomProperty(%q) = true", id)
		}
	}
	ids[0] = "ZZ"
	if CustomPropertyIDs()[0] == "ZZ" {
		t.Errorf("CustomPropertyIDs returns the package's own slice")
	}
}

// TestCustomPropertiesDocumented checks that docs/sgf.md has a table row for
// every custom property, and no row for one the package does not know.
func TestCustomPropertiesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/sgf.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| `([A-Z]+)` \\|").FindAllStringSubmatch(string(doc), -1)
	var documented []string
	for _, r := range rows {
		documented = append(documented, r[1])
	}
	for _, id := range CustomPropertyIDs() {
		if !slices.Contains(documented, id) {
			t.Errorf("docs/sgf.md has no row for %s", id)
		}
	}
	for _, id := range documented {
		if !IsCustomProperty(id) {
			t.Errorf("docs/sgf.md documents %s, which is not a custom property", id)
		}
	}
}

func TestGameInfoRoundTrip(t *testing.T) {
	tests := []struct {
		Name    string
		Options engine.Options
		// Want lists properties expected in the root, Absent those that
		// must not be there.
		Want, Absent map[string]Value
	}{
		{
			Name:    "plain Go has no custom property",
			Options: engine.Options{Size: 9},
			Want:    map[string]Value{"GM": "1", "KM": "7.5", "RU": "Chinese"},
			Absent:  map[string]Value{"VA": "", "VO": ""},
		},
		{
			Name:    "phantom",
			Options: engine.Options{Variant: engine.VariantPhantom, Size: 13, Rules: engine.RulesHamburg},
			Want:    map[string]Value{"GM": "1", "SZ": "13", "VA": "phantom", "VO": "rules=hamburg", "RU": "Chinese"},
		},
		{
			Name:    "hmg with no cards",
			Options: engine.Options{Variant: engine.VariantHMG, Cards: 0, CardsSet: true},
			Want:    map[string]Value{"SZ": "19", "VA": "hmg", "VO": "cards=0"},
		},
		{
			Name:    "gomoku",
			Options: engine.Options{Variant: engine.VariantGomoku, Size: 15},
			Want:    map[string]Value{"GM": "4", "VA": "gomoku", "KM": "0"},
			Absent:  map[string]Value{"VO": "", "RU": ""},
		},
		{
			Name:    "fgo",
			Options: engine.Options{Variant: engine.VariantFGo, Suicide: engine.SuicideForbid},
			Want:    map[string]Value{"VA": "fgo", "VO": "suicide=forbid", "KM": "0", "RU": "Chinese"},
		},
		{
			Name:    "bridge",
			Options: engine.Options{Variant: engine.VariantBridge, Perpendicular: true, Komi: -2, KomiSet: true},
			Want:    map[string]Value{"VA": "bridge", "VO": "perpendicular=true", "KM": "-2"},
			Absent:  map[string]Value{"RU": ""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			info := GameInfo{Options: tt.Options, Black: "B", White: "W", Date: "2025-01-02", Version: "9.9",
				Result: engine.Result{Winner: engine.White, By: engine.ByWin}}
			root, err := info.Root()
			if err != nil {
				t.Fatal(err)
			}
			for id, want := range tt.Want {
				if got, ok := root.Get(id); !ok || got != want {
					t.Errorf("%s = %q, %v; want %q", id, got, ok, want)
				}
			}
			for id := range tt.Absent {
				if root.Has(id) {
					t.Errorf("root holds %s", id)
				}
			}
			back, err := ReadGameInfo(&root)
			if err != nil {
				t.Fatal(err)
			}
			want := info
			if want.Options.Variant == "" {
				want.Options.Variant = engine.VariantGo
			}
			if want.Options, err = want.Options.Normalize(); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, want) {
				t.Errorf("ReadGameInfo\n got  %+v\n want %+v", back, want)
			}
		})
	}
}

func TestReadGameInfoErrors(t *testing.T) {
	tests := map[string]string{
		"unknown variant":          "(;VA[chess])",
		"gomoku without GM[4]":     "(;GM[1]VA[gomoku]SZ[9])",
		"go with GM[4]":            "(;GM[4]SZ[9])",
		"option of another":        "(;VA[phantom]VO[cards=3])",
		"option without value":     "(;VA[phantom]VO[rules])",
		"bad option value":         "(;VA[phantom]VO[rules=chess])",
		"bad card count":           "(;VA[hmg]VO[cards=many])",
		"bad perpendicular":        "(;VA[bridge]VO[perpendicular=maybe])",
		"gomoku board too small":   "(;GM[4]VA[gomoku]SZ[5])",
		"options on plain Go":      "(;VO[rules=common])",
		"too many cards for hmg":   "(;VA[hmg]VO[cards=10])",
		"unknown suicide for F-Go": "(;VA[fgo]VO[suicide=sometimes])",
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			c, err := Parse([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ReadGameInfo(c[0].Root()); !errors.Is(err, ErrValue) || !strings.HasPrefix(err.Error(), "sgf: ") {
				t.Errorf("error %v, want ErrValue", err)
			}
		})
	}
	if _, err := ReadGameInfo(nil); !errors.Is(err, ErrEmptyGameTree) {
		t.Errorf("ReadGameInfo(nil): %v", err)
	}
	if _, err := (GameInfo{Options: engine.Options{Variant: "chess"}}).Root(); !errors.Is(err, ErrValue) || !errors.Is(err, engine.ErrBadOptions) {
		t.Errorf("Root of bad options: %v", err)
	}
}

func TestVariantValues(t *testing.T) {
	const size = 9
	e5, _ := engine.ParseVertex(size, "E5")
	c3, _ := engine.ParseVertex(size, "C3")

	if v := CardValue(size, 2, e5); v != "2:ee" {
		t.Errorf("CardValue = %q", v)
	}
	if i, p, err := CardValue(size, 7, c3).Card(size); err != nil || i != 7 || p != c3 {
		t.Errorf("Card = %d %v %v", i, p, err)
	}
	for _, bad := range []Value{"2", "0:ee", "x:ee", "2:", "2:zz"} {
		if _, _, err := bad.Card(size); !errors.Is(err, ErrValue) {
			t.Errorf("Value(%q).Card: %v", bad, err)
		}
	}

	v := CommitmentValue(engine.White, "sha256:ab]cd")
	if v != `W:sha256\:ab\]cd` {
		t.Errorf("CommitmentValue = %q", v)
	}
	if c, s, err := v.Commitment(); err != nil || c != engine.White || s != "sha256:ab]cd" {
		t.Errorf("Commitment = %v %q %v", c, s, err)
	}
	for _, bad := range []Value{"abc", "X:abc"} {
		if _, _, err := bad.Commitment(); !errors.Is(err, ErrValue) {
			t.Errorf("Value(%q).Commitment: %v", bad, err)
		}
	}

	if v := ChoiceValue(size, engine.Black, engine.Pass); v != "B:" {
		t.Errorf("ChoiceValue of a pass = %q", v)
	}
	if c, p, err := ChoiceValue(size, engine.White, c3).Choice(size); err != nil || c != engine.White || p != c3 {
		t.Errorf("Choice = %v %v %v", c, p, err)
	}
	for _, bad := range []Value{"B", "E:ee", "B:zz"} {
		if _, _, err := bad.Choice(size); !errors.Is(err, ErrValue) {
			t.Errorf("Value(%q).Choice: %v", bad, err)
		}
	}

	lines := map[Line]Value{
		{Index: 0}:               "row:i", // row 1 is the bottom, SGF row i
		{Index: 8}:               "row:a",
		{Column: true, Index: 0}: "col:a",
		{Column: true, Index: 4}: "col:e",
	}
	for l, want := range lines {
		if got := LineValue(size, l); got != want {
			t.Errorf("LineValue(%+v) = %q, want %q", l, got, want)
		}
		if back, err := want.Line(size); err != nil || back != l {
			t.Errorf("Value(%q).Line = %+v, %v; want %+v", want, back, err, l)
		}
	}
	for _, l := range []Line{{Index: 9}, {Index: -1}, {Column: true, Index: 9}} {
		if v := LineValue(size, l); !strings.HasSuffix(string(v), ":?") {
			t.Errorf("LineValue(%+v) off the board = %q", l, v)
		}
	}
	for _, bad := range []Value{"row", "row:j", "diag:a", "col:aa", "row:?"} {
		if _, err := bad.Line(size); !errors.Is(err, ErrValue) {
			t.Errorf("Value(%q).Line: %v", bad, err)
		}
	}
}

func TestNodePlayerAndMoves(t *testing.T) {
	tests := []struct {
		Input  string
		Player engine.Color
		OK     bool
		Moves  []Move
	}{
		{"(;B[ee])", engine.Black, true, []Move{{engine.Black, 40}}},
		{"(;W[])", engine.White, true, []Move{{engine.White, engine.Pass}}},
		{"(;TO[W]HR[1:ee]HU[])", engine.White, true, nil},
		{"(;B[aa]W[ii])", engine.Empty, false, []Move{{engine.Black, 72}, {engine.White, 8}}},
		{"(;FC[ee])", engine.Empty, false, nil},
		{"(;TO[X])", engine.Empty, false, nil},
	}
	for _, tt := range tests {
		c, err := Parse([]byte(tt.Input))
		if err != nil {
			t.Fatal(err)
		}
		n := c[0].Root()
		if p, ok := n.Player(); p != tt.Player || ok != tt.OK {
			t.Errorf("%s: Player() = %v, %v; want %v, %v", tt.Input, p, ok, tt.Player, tt.OK)
		}
		if ms, err := n.Moves(9); err != nil || !reflect.DeepEqual(ms, tt.Moves) {
			t.Errorf("%s: Moves() = %v, %v; want %v", tt.Input, ms, err, tt.Moves)
		}
	}
}

// variantRecords builds one sample record per variant with the custom
// properties, as the variants' exporters will write them. They are the
// golden files testdata/<variant>.sgf and the examples of docs/sgf.md.
func variantRecords(t *testing.T) map[string]GameTree {
	t.Helper()
	const size = 9
	pt := func(v string) engine.Point {
		p, err := engine.ParseVertex(size, v)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	root := func(o engine.Options, result engine.Result) Node {
		n, err := GameInfo{Options: o, Black: "Alice", White: "Bob", Date: "2025-04-01", Version: "0.1.0", Result: result}.Root()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	move := func(c engine.Color, v string) Node {
		var n Node
		p := engine.Pass
		if v != "pass" {
			p = pt(v)
		}
		n.AddMove(size, Move{Color: c, Point: p})
		return n
	}
	B, W := engine.Black, engine.White
	records := map[string]GameTree{}

	// Phantom Go: White tries E5 (Black's stone) and D5 before playing E4;
	// Black makes a try whose point this record does not know, then passes.
	// The reasons are made up for the example.
	ph := []Node{root(engine.Options{Variant: engine.VariantPhantom, Size: size}, engine.Result{Winner: W, By: engine.ByResignation})}
	n := move(B, "E5")
	n.AddText(PropAnnouncement, "Black has moved")
	ph = append(ph, n)
	n = move(W, "E4")
	n.AddPoints(PropIllegalTry, size, pt("E5"), pt("D5"))
	n.AddText(PropIllegalReason, ReasonOpponentStone, ReasonKo)
	n.AddText(PropAnnouncement, "Illegal move", "Illegal move", "White has moved")
	ph = append(ph, n)
	n = move(B, "pass")
	n.Add(PropIllegalTry, "")
	n.Add(PropIllegalReason, "")
	n.AddText(PropAnnouncement, "Illegal move", "Black passes")
	ph = append(ph, n)
	records["phantom"] = GameTree{Nodes: ph}

	// Hidden Move Go with two cards each.
	hr := root(engine.Options{Variant: engine.VariantHMG, Size: size, Cards: 2, CardsSet: true}, engine.Result{Winner: B, Margin: 4.5, By: engine.ByScore})
	hr.Add(PropCardCommitment,
		CommitmentValue(B, "3f1a9c"), CommitmentValue(B, "77d0e2"),
		CommitmentValue(W, "b40c11"), CommitmentValue(W, "0e9f5a"))
	hm := []Node{hr, move(B, "E5")}
	n = move(W, "C3")
	n.Add(PropCardReveal, CardValue(size, 1, pt("D6")))
	hm = append(hm, n)
	n = Node{}
	n.Add(PropTurn, ColorValue(B))
	n.Add(PropCardReveal, CardValue(size, 2, pt("C3")))
	n.Add(PropUndo, "")
	hm = append(hm, n, move(W, "pass"), move(B, "pass"))
	n = Node{}
	n.Add(PropTurn, ColorValue(W))
	n.Add(PropCardOpened, CardValue(size, 2, pt("G7")))
	hm = append(hm, n)
	records["hmg"] = GameTree{Nodes: hm}

	// Hidden Move Double Gomoku: X (Black) opened at E5; O moves first.
	gr := root(engine.Options{Variant: engine.VariantGomoku, Size: size}, engine.Result{Winner: B, By: engine.ByWin})
	gr.AddPoints("AB", size, pt("E5"))
	gm := []Node{gr}
	n = move(W, "D6")
	n.Add(PropLineAnnounced, LineValue(size, Line{Index: 5}))
	gm = append(gm, n)
	n = Node{}
	n.Add(PropTurn, ColorValue(B))
	n.Add(PropLineAnnounced, LineValue(size, Line{Column: true, Index: 3}))
	n.AddPoints(PropPiecesRevealed, size, pt("D6"))
	n.AddPoints(PropFailedPlacement, size, pt("D6"))
	gm = append(gm, n)
	n = move(W, "F4")
	n.Add(PropLineAnnounced, LineValue(size, Line{Column: true, Index: 5}))
	n.AddPoints(PropPiecesRevealed, size)
	gm = append(gm, n)
	n = move(B, "E1")
	n.Add(PropLineAnnounced, LineValue(size, Line{Index: 0}))
	n.Add(PropFiveAnnounced, "")
	n.AddPoints(PropWinClaim, size, pt("E1"), pt("E2"), pt("E3"), pt("E4"), pt("E5"), pt("A1"), pt("B1"), pt("C1"), pt("D1"))
	gm = append(gm, n)
	records["gomoku"] = GameTree{Nodes: gm}

	// F-Go: a normal turn, a collision, a turn that clears the mark, a
	// void turn, both pass.
	fr := root(engine.Options{Variant: engine.VariantFGo, Size: size}, engine.Result{By: engine.ByDraw})
	fg := []Node{fr}
	n = move(B, "E5")
	n.AddMove(size, Move{Color: W, Point: pt("D4")})
	fg = append(fg, n)
	n = Node{}
	n.AddPoints(PropCollision, size, pt("C3"))
	n.AddPoints(PropUnavailable, size, pt("C3"))
	fg = append(fg, n)
	n = move(B, "F5")
	n.AddMove(size, Move{Color: W, Point: engine.Pass})
	n.AddPoints(PropUnavailable, size)
	fg = append(fg, n)
	n = Node{}
	n.Add(PropVoidTurn, ChoiceValue(size, B, pt("G6")), ChoiceValue(size, W, engine.Pass))
	n.AddPoints(PropUnavailable, size, pt("G6"))
	fg = append(fg, n)
	n = move(B, "pass")
	n.AddMove(size, Move{Color: W, Point: engine.Pass})
	fg = append(fg, n)
	records["fgo"] = GameTree{Nodes: fg}

	// Bridge Go: Black joins north and south on E1.
	br := root(engine.Options{Variant: engine.VariantBridge, Size: size}, engine.Result{Winner: B, By: engine.ByWin})
	bg := []Node{br}
	for i, v := range []string{"E9", "D5", "E8", "D6", "E7", "D4", "E6", "D3", "E5", "D7", "E4", "C1", "E3", "D8", "E2", "D2"} {
		bg = append(bg, move([2]engine.Color{B, W}[i%2], v))
	}
	n = move(B, "E1")
	n.AddPoints(PropBridge, size, pt("E9"), pt("E8"), pt("E7"), pt("E6"), pt("E5"), pt("E4"), pt("E3"), pt("E2"), pt("E1"))
	bg = append(bg, n)
	records["bridge"] = GameTree{Nodes: bg}
	return records
}

func TestVariantRecordsGolden(t *testing.T) {
	used := map[string]bool{}
	for name, tree := range variantRecords(t) {
		t.Run(name, func(t *testing.T) {
			data, err := Format(Collection{tree})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".sgf", data)
			c, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c, Collection{tree}) {
				t.Errorf("reads back differently:\n got  %#v\n want %#v", c, tree)
			}
			info, err := ReadGameInfo(c[0].Root())
			if err != nil || string(info.Options.Variant) != name {
				t.Errorf("ReadGameInfo: %+v, %v", info, err)
			}
			if _, err := GoRecordFromTree(c[0]); !errors.Is(err, ErrNotPlainGo) {
				t.Errorf("a %s record read as plain Go: %v", name, err)
			}
			for _, n := range c[0].MainLine() {
				for _, p := range n.Properties {
					used[p.ID] = true
				}
			}
		})
	}
	for _, id := range CustomPropertyIDs() {
		if !used[id] {
			t.Errorf("no sample record uses %s", id)
		}
	}
}
