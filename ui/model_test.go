package ui_test

import (
	"testing"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/ui"
)

func TestUID5StarPoints(t *testing.T) {
	for _, tc := range []struct {
		size int
		want string
	}{
		{5, "-"}, {6, "-"},
		{7, "C3,E3,C5,E5"},
		{8, "C3,F3,C6,F6"},
		{9, "C3,G3,E5,C7,G7"},
		{11, "C3,J3,F6,C9,J9"},
		{13, "D4,K4,G7,D10,K10"},
		{14, "D4,L4,D11,L11"},
		{15, "D4,H4,M4,D8,H8,M8,D12,H12,M12"},
		{19, "D4,K4,Q4,D10,K10,Q10,D16,K16,Q16"},
		{20, "-"},
	} {
		if got := engine.FormatVertices(tc.size, ui.StarPoints(tc.size)); got != tc.want {
			t.Errorf("StarPoints(%d) = %s, want %s", tc.size, got, tc.want)
		}
	}
}

// stonesOf lists the points of m holding a stone of colour c.
func stonesOf(m ui.BoardModel, c engine.Color) string {
	var ps []engine.Point
	for p := engine.Point(0); int(p) < m.Size*m.Size; p++ {
		if m.At(p).Stone == c {
			ps = append(ps, p)
		}
	}
	return engine.FormatVertices(m.Size, ps)
}

// marked lists the points of m carrying mark mk.
func marked(m ui.BoardModel, mk ui.Mark) string {
	var ps []engine.Point
	for p := engine.Point(0); int(p) < m.Size*m.Size; p++ {
		if m.At(p).Has(mk) {
			ps = append(ps, p)
		}
	}
	return engine.FormatVertices(m.Size, ps)
}

func TestUIModelFromBoard(t *testing.T) {
	b := engine.MustParseBoard(boardRows...)
	m := ui.ModelFromBoard(b, engine.White, vertex(t, 9, "G4"))
	if m.Size != 9 || m.Me != engine.White || m.Cursor != engine.NoPoint {
		t.Errorf("size %d, me %v, cursor %v", m.Size, m.Me, m.Cursor)
	}
	if got := stonesOf(m, engine.Black); got != "C4,C8" {
		t.Errorf("black %s", got)
	}
	if got := stonesOf(m, engine.White); got != "G4,D7" {
		t.Errorf("white %s", got)
	}
	if !m.IsLast(vertex(t, 9, "G4")) || m.IsLast(vertex(t, 9, "C4")) {
		t.Errorf("last move %v", m.LastMove)
	}
	if m := ui.ModelFromBoard(b, engine.White, engine.Pass); m.LastMove != engine.NoPoint {
		t.Errorf("a pass as last move: %v", m.LastMove)
	}
	for p := engine.Point(0); int(p) < 81; p++ {
		if m.At(p).Marks != 0 {
			t.Errorf("%s marked %v", p.Vertex(9), m.At(p).Marks)
		}
	}
}

func TestUID6ModelFromGoView(t *testing.T) {
	g, err := engine.NewGoGame(engine.Options{Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range []string{"C3", "G7", "D4"} {
		c := []engine.Color{engine.Black, engine.White}[i%2]
		if g, _, err = g.Play(c, vertex(t, 9, v)); err != nil {
			t.Fatal(err)
		}
	}
	v := gorules.View{Game: g}
	m := ui.ModelFromGoView(v, engine.Black)
	if stonesOf(m, engine.Black) != "C3,D4" || stonesOf(m, engine.White) != "G7" || m.LastMove.Vertex(9) != "D4" {
		t.Errorf("black %s, white %s, last %s", stonesOf(m, engine.Black), stonesOf(m, engine.White), m.LastMove.Vertex(9))
	}
	if got := marked(m, ui.MarkHighlight); got != "-" {
		t.Errorf("highlighted %s in play", got)
	}
	v.Scoring, v.HasProposal, v.Proposal = true, true, []engine.Point{vertex(t, 9, "G7")}
	if got := marked(ui.ModelFromGoView(v, engine.Black), ui.MarkHighlight); got != "G7" {
		t.Errorf("highlighted %s while scoring, want G7", got)
	}
}

func TestUIModelFromPhantomView(t *testing.T) {
	o := engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesHamburg}
	ref, err := phantom.NewReferee(o)
	if err != nil {
		t.Fatal(err)
	}
	white, err := phantom.NewView(o, engine.White)
	if err != nil {
		t.Fatal(err)
	}
	// As in engine's PG-D3 hamburg test: Black's capture at B1 takes A1 or
	// E5, and White does not know which.
	for _, v := range []string{"A2", "A1", "D2", "E5", "B1"} {
		var out phantom.TryOutcome
		if ref, out, err = ref.Try(ref.ToMove(), vertex(t, 5, v)); err != nil {
			t.Fatal(err)
		}
		if white, err = white.Apply(phantom.Announce(ref.Rules(), 5, out, engine.White)); err != nil {
			t.Fatal(err)
		}
	}
	m := ui.ModelFromPhantomView(white)
	if m.Me != engine.White || m.Size != 5 {
		t.Fatalf("me %v, size %d", m.Me, m.Size)
	}
	if got := marked(m, ui.MarkUncertain); got != "A1,E5" {
		t.Errorf("uncertain %s, want A1,E5", got)
	}
	for p := engine.Point(0); p < 25; p++ {
		pm := m.At(p)
		var want ui.PointMark
		switch white.At(p) {
		case phantom.Own:
			want = ui.PointMark{Stone: engine.White}
		case phantom.OwnUncertain:
			want = ui.PointMark{Stone: engine.White, Marks: ui.MarkUncertain}
		case phantom.Opponent:
			want = ui.PointMark{Stone: engine.Black, Marks: ui.MarkLearnt}
		}
		if pm != want {
			t.Errorf("%s: %+v, want %+v (knowledge %v)", p.Vertex(5), pm, want, white.At(p))
		}
	}
	if stonesOf(m, engine.Black) == "-" && len(white.OpponentStones()) > 0 {
		t.Errorf("learnt stones %v not shown", white.OpponentStones())
	}
}

func TestUIModelMarks(t *testing.T) {
	m := ui.NewBoardModel(9, engine.Black)
	if !m.Valid() || ui.NewBoardModel(4, engine.Black).Valid() || ui.NewBoardModel(20, engine.Black).Valid() {
		t.Errorf("Valid wrong")
	}
	a1, j9 := vertex(t, 9, "A1"), vertex(t, 9, "J9")
	m2 := m.With(ui.MarkNote|ui.MarkPending, a1, j9, engine.Pass, 81)
	if got := marked(m, ui.MarkNote); got != "-" {
		t.Errorf("With changed the original: %s", got)
	}
	if got := marked(m2, ui.MarkNote|ui.MarkPending); got != "A1,J9" {
		t.Errorf("With: %s", got)
	}
	m3 := m2.Without(ui.MarkNote, j9)
	if got := engine.FormatVertices(9, m3.Notes()); got != "A1" {
		t.Errorf("Notes after Without: %s", got)
	}
	if got := marked(m3, ui.MarkPending); got != "A1,J9" {
		t.Errorf("Without took other marks: %s", got)
	}
	if m.At(81) != (ui.PointMark{}) || m.At(engine.NoPoint) != (ui.PointMark{}) || m.IsLast(engine.NoPoint) {
		t.Errorf("off-board points show something")
	}
}
