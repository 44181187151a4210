package ui_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/ui"
	"github.com/rivo/tview"
)

// boardRows is a 9×9 position for the drawing tests: Black at C8, C4,
// White at D7, G4.
var boardRows = []string{
	".........",
	"..X......",
	"...O.....",
	".........",
	".........",
	"..X...O..",
	".........",
	".........",
	".........",
}

func TestUID2DrawsStonesWhereTheyAre(t *testing.T) {
	m := ui.ModelFromBoard(engine.MustParseBoard(boardRows...), engine.Black, engine.NoPoint)
	s := drawNatural(t, ui.NewBoard().SetModel(m))
	for _, tc := range []struct {
		vertex string
		want   rune
	}{
		{"C8", '●'}, {"C4", '●'}, {"D7", '○'}, {"G4", '○'},
		{"A1", '·'}, {"J9", '·'}, {"D8", '·'}, {"C7", '+'},
	} {
		x, y := compactCell(t, 9, tc.vertex)
		if r, _ := cellAt(s, x, y); r != tc.want {
			t.Errorf("%s at (%d,%d): %q, want %q\n%s", tc.vertex, x, y, r, tc.want, screenText(s))
		}
	}
	// Nothing else on the board is a stone.
	if got := strings.Count(screenText(s), "●") + strings.Count(screenText(s), "○"); got != 4 {
		t.Errorf("%d stones drawn, want 4\n%s", got, screenText(s))
	}
}

func TestUID2ASCIIGlyphs(t *testing.T) {
	m := ui.ModelFromBoard(engine.MustParseBoard(boardRows...), engine.Black, engine.NoPoint)
	m = m.With(ui.MarkUncertain, vertex(t, 9, "C4"))
	s := drawNatural(t, ui.NewBoard().SetModel(m).SetGlyphs(ui.ASCIIGlyphs))
	for v, want := range map[string]rune{"C8": 'X', "C4": '?', "D7": 'O', "A1": '.', "G3": '+'} {
		x, y := compactCell(t, 9, v)
		if r, _ := cellAt(s, x, y); r != want {
			t.Errorf("%s: %q, want %q", v, r, want)
		}
	}
}

func TestUID3LabelsGTPStyle(t *testing.T) {
	for _, n := range []int{5, 9, 13, 19} {
		s := drawNatural(t, ui.NewBoard().SetModel(ui.NewBoardModel(n, engine.Black)))
		w, h := ui.NewBoard().SetModel(ui.NewBoardModel(n, engine.Black)).NaturalSize()
		letters := "ABCDEFGHJKLMNOPQRST"[:n]
		for i, want := range letters {
			x := 4 + 2*i
			for _, y := range []int{0, n + 1} {
				if r, _ := cellAt(s, x, y); r != want {
					t.Errorf("%d×%d: column %d at line %d: %q, want %q", n, n, i, y, r, want)
				}
			}
		}
		for _, y := range []int{0, n + 1} {
			line := strings.Split(screenText(s), "\n")[y]
			if strings.ContainsRune(line, 'I') {
				t.Errorf("%d×%d: letter line has an I: %q", n, n, line)
			}
			if got := strings.Join(strings.Fields(line), ""); got != letters {
				t.Errorf("%d×%d: letter line %q, want %q", n, n, got, letters)
			}
		}
		lines := strings.Split(screenText(s), "\n")
		for row := 1; row <= n; row++ {
			line := lines[1+n-row]
			fields := strings.Fields(line)
			want := []string{strconv.Itoa(row), strconv.Itoa(row)}
			if got := []string{fields[0], fields[len(fields)-1]}; got[0] != want[0] || got[1] != want[1] {
				t.Errorf("%d×%d: row %d labelled %v: %q", n, n, row, got, line)
			}
			if left := strings.TrimLeft(line[:2], " "); left != strconv.Itoa(row) {
				t.Errorf("%d×%d: row %d: left label %q not right-aligned in two columns", n, n, row, line[:2])
			}
			if x := len([]rune(line)) - len(strconv.Itoa(row)); x != w-2 {
				t.Errorf("%d×%d: row %d: right label at column %d, want %d", n, n, row, x, w-2)
			}
		}
		if h != n+3 || w != 2*n+7 {
			t.Errorf("%d×%d: natural size %d×%d, want %d×%d", n, n, w, h, 2*n+7, n+3)
		}
	}
}

func TestUID5StarPointsDrawn(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{5, "-"},
		{9, "C3,G3,E5,C7,G7"},
		{13, "D4,K4,G7,D10,K10"},
		{19, "D4,K4,Q4,D10,K10,Q10,D16,K16,Q16"},
	} {
		s := drawNatural(t, ui.NewBoard().SetModel(ui.NewBoardModel(tc.n, engine.Black)))
		var stars []engine.Point
		for p := engine.Point(0); int(p) < tc.n*tc.n; p++ {
			x, y := compactCell(t, tc.n, p.Vertex(tc.n))
			if r, _ := cellAt(s, x, y); r == '+' {
				stars = append(stars, p)
			}
		}
		if got := engine.FormatVertices(tc.n, stars); got != tc.want {
			t.Errorf("%d×%d: star points %s, want %s", tc.n, tc.n, got, tc.want)
		}
	}
}

func TestUID2LastMoveMarker(t *testing.T) {
	m := ui.ModelFromBoard(engine.MustParseBoard(boardRows...), engine.Black, vertex(t, 9, "D7"))
	s := drawNatural(t, ui.NewBoard().SetModel(m))
	x, y := compactCell(t, 9, "D7")
	line := strings.Split(screenText(s), "\n")[y]
	if got := string([]rune(line)[x-1 : x+2]); got != "(○)" {
		t.Errorf("last move drawn %q, want (○)\n%s", got, screenText(s))
	}
	if n := strings.Count(screenText(s), "("); n != 1 {
		t.Errorf("%d last-move markers, want 1", n)
	}
	// F-Go's second last move.
	m = m.With(ui.MarkLast, vertex(t, 9, "C4"))
	s = drawNatural(t, ui.NewBoard().SetModel(m))
	x, y = compactCell(t, 9, "C4")
	if got := string([]rune(strings.Split(screenText(s), "\n")[y])[x-1 : x+2]); got != "(●)" {
		t.Errorf("second last move drawn %q, want (●)", got)
	}
}

func TestUID2Cursor(t *testing.T) {
	b := ui.NewBoard().SetModel(ui.NewBoardModel(9, engine.Black))
	if got := b.Cursor().Vertex(9); got != "E5" {
		t.Fatalf("cursor starts at %s, want E5 (the centre)", got)
	}
	b.SetCursor(vertex(t, 9, "B7"))
	s := drawNatural(t, b)
	cells, w, _ := s.GetContents()
	var reversed []string
	for i, c := range cells {
		if _, _, attr := c.Style.Decompose(); attr&tcell.AttrReverse != 0 {
			reversed = append(reversed, strconv.Itoa(i%w)+","+strconv.Itoa(i/w))
		}
	}
	x, y := compactCell(t, 9, "B7")
	if want := strconv.Itoa(x) + "," + strconv.Itoa(y); len(reversed) != 1 || reversed[0] != want {
		t.Errorf("reversed cells %v, want only %s", reversed, want)
	}
}

func TestUID2Marks(t *testing.T) {
	m := ui.NewBoardModel(9, engine.Black)
	set := func(v string, c engine.Color, mk ui.Mark) {
		p := vertex(t, 9, v)
		m.Points[p] = ui.PointMark{Stone: c, Marks: mk}
	}
	set("A1", engine.Black, ui.MarkUncertain)
	set("B1", engine.White, ui.MarkLearnt)
	set("C1", engine.Empty, ui.MarkUnavailable)
	set("D1", engine.Empty, ui.MarkPending)
	set("F1", engine.Empty, ui.MarkNote)
	set("H1", engine.Black, ui.MarkHighlight)
	set("A9", engine.White, 0)
	m.Cursor = vertex(t, 9, "E9")
	s := drawNatural(t, ui.NewBoard().SetModel(m))
	for _, tc := range []struct {
		vertex     string
		want       rune
		attr       tcell.AttrMask
		foreground tcell.Color
	}{
		{"A1", '?', tcell.AttrDim, tcell.ColorDefault},
		{"B1", '○', tcell.AttrUnderline, tcell.ColorDefault},
		{"C1", '×', 0, tcell.ColorDefault},
		{"D1", '●', tcell.AttrDim, tcell.ColorDefault},
		{"F1", '*', tcell.AttrBold, tcell.ColorDefault},
		{"H1", '●', tcell.AttrBold, tcell.ColorRed},
		{"A9", '○', 0, tcell.ColorDefault},
		{"B9", '·', tcell.AttrDim, tcell.ColorDefault},
		{"E9", '·', tcell.AttrDim | tcell.AttrReverse, tcell.ColorDefault},
	} {
		x, y := compactCell(t, 9, tc.vertex)
		r, st := cellAt(s, x, y)
		fg, _, attr := st.Decompose()
		if r != tc.want || attr != tc.attr || fg != tc.foreground {
			t.Errorf("%s: %q attr %v fg %v, want %q attr %v fg %v", tc.vertex, r, attr, fg, tc.want, tc.attr, tc.foreground)
		}
	}
	x, y := compactCell(t, 9, "D1")
	if got := string([]rune(strings.Split(screenText(s), "\n")[y])[x-1 : x+2]); got != "[●]" {
		t.Errorf("pending choice drawn %q, want [●]", got)
	}
}

func TestUID3Fits80x24(t *testing.T) {
	b := ui.NewBoard().SetModel(ui.NewBoardModel(19, engine.White))
	if w, h := b.NaturalSize(); w > 80 || h > 24 {
		t.Fatalf("19×19 needs %d×%d", w, h)
	}
	keys(b, "z")
	key(b, tcell.KeyEnter) // an error on the typing line
	s := drawBoard(t, b, 80, 24)
	text := screenText(s)
	if got := strings.Count(text, "·") + strings.Count(text, "+"); got != 361 {
		t.Errorf("%d points drawn, want 361\n%s", got, text)
	}
	lines := strings.Split(text, "\n")
	for _, want := range []string{"19  ·", "·  19", " 1  ·", "·  1", "A B C D E F G H J K L M N O P Q R S T"} {
		if !strings.Contains(text, want) {
			t.Errorf("80×24 screen lacks %q\n%s", want, text)
		}
	}
	if !strings.Contains(text, `no point "z" (A1–T19)`) {
		t.Errorf("80×24 screen lacks the error line\n%s", text)
	}
	if len(lines) > 24 {
		t.Errorf("%d lines", len(lines))
	}
}

func TestUID3SpaciousLayout(t *testing.T) {
	m := ui.NewBoardModel(19, engine.Black)
	m.Points[vertex(t, 19, "T1")].Stone = engine.Black
	m.Points[vertex(t, 19, "A19")].Stone = engine.White
	b := ui.NewBoard().SetModel(m)
	// 83×42 is the spacious size of 19×19: four columns and two lines
	// per point.
	s := drawBoard(t, b, 83, 42)
	if r, _ := cellAt(s, 5, 2); r != '○' {
		t.Errorf("A19 at (5,2): %q\n%s", r, screenText(s))
	}
	if r, _ := cellAt(s, 5+4*18, 2+2*18); r != '●' {
		t.Errorf("T1 at (77,38): %q\n%s", r, screenText(s))
	}
	// One column less: compact, centred.
	s = drawBoard(t, b, 82, 42)
	x0, y0 := (82-45)/2, (42-22)/2
	if r, _ := cellAt(s, x0+4, y0+1); r != '○' {
		t.Errorf("compact A19 at (%d,%d): %q\n%s", x0+4, y0+1, r, screenText(s))
	}
}

func TestUID1CursorKeys(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		start string
		keys  string
		want  string
	}{
		{"hjkl", 9, "E5", "h", "D5"},
		{"hjkl", 9, "E5", "l", "F5"},
		{"hjkl", 9, "E5", "k", "E6"},
		{"hjkl", 9, "E5", "j", "E4"},
		{"several", 19, "K10", "hhhkk", "G12"},
		{"clamp bottom-left", 9, "A1", "hhjj", "A1"},
		{"clamp top-right", 9, "J9", "llkk", "J9"},
		{"clamp on 5×5", 5, "C3", "lllllkkkkk", "E5"},
		{"k not a column of 9×9", 9, "E5", "kl", "F6"},
	} {
		b := ui.NewBoard().SetModel(ui.NewBoardModel(tc.n, engine.Black))
		b.SetCursor(vertex(t, tc.n, tc.start))
		keys(b, tc.keys)
		if got := b.Cursor().Vertex(tc.n); got != tc.want {
			t.Errorf("%s: %s + %q: cursor %s, want %s", tc.name, tc.start, tc.keys, got, tc.want)
		}
	}
	// Arrow keys, clamped.
	b := ui.NewBoard().SetModel(ui.NewBoardModel(9, engine.Black)).SetCursor(vertex(t, 9, "B2"))
	for _, k := range []tcell.Key{tcell.KeyLeft, tcell.KeyLeft, tcell.KeyDown, tcell.KeyDown, tcell.KeyUp, tcell.KeyRight} {
		key(b, k)
	}
	if got := b.Cursor().Vertex(9); got != "B2" {
		t.Errorf("arrows: cursor %s, want B2", got)
	}
}

func TestUID1PlayKeys(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n      int
		keys   string
		plays  string
		cursor string
	}{
		{"Enter at the cursor", 19, "hh\n", "H10", "H10"},
		{"Space at the cursor", 9, "j ", "E4", "E4"},
		{"typed d4", 19, "d4\n", "D4", "D4"},
		{"upper case", 19, "Q16\n", "Q16", "Q16"},
		{"column H after a move", 19, "h4\n", "H4", "H4"},
		{"column K two digits", 19, "k10\n", "K10", "K10"},
		{"column L", 19, "l19\n", "L19", "L19"},
		{"column J on 9×9", 9, "j9\n", "J9", "J9"},
		{"column M", 19, "m3\n", "M3", "M3"},
		{"column P", 19, "p4\n", "P4", "P4"},
		{"pass with p Enter", 19, "p\n", "pass", "K10"},
		{"pass typed", 9, "pass\n", "pass", "E5"},
		{"backspace", 19, "d44\b\n", "D4", "D4"},
		{"esc forgets", 19, "d4\x1b\n", "K10", "K10"},
		{"p then Esc cancels the pass", 19, "p\x1b\n", "K10", "K10"},
		{"two plays", 9, "c3\ng7\n", "C3,G7", "G7"},
	} {
		b := ui.NewBoard().SetModel(ui.NewBoardModel(tc.n, engine.Black))
		rec := recordPlays(b)
		keys(b, tc.keys)
		if got := rec.played(tc.n); got != tc.plays {
			t.Errorf("%s: %q played %s, want %s", tc.name, tc.keys, got, tc.plays)
		}
		if got := b.Cursor().Vertex(tc.n); got != tc.cursor {
			t.Errorf("%s: %q: cursor %s, want %s", tc.name, tc.keys, got, tc.cursor)
		}
		if notes := b.Model().Notes(); len(notes) != 0 {
			t.Errorf("%s: notes %v left", tc.name, notes)
		}
		if b.Typed() != "" || b.Message() != "" {
			t.Errorf("%s: typed %q, message %q left", tc.name, b.Typed(), b.Message())
		}
	}
}

func TestUID1TypedLineShown(t *testing.T) {
	b := ui.NewBoard().SetModel(ui.NewBoardModel(9, engine.Black))
	keys(b, "d4")
	lastLine := func() string {
		lines := strings.Split(screenText(drawNatural(t, b)), "\n")
		return lines[len(lines)-2]
	}
	if got := lastLine(); got != "> d4" {
		t.Errorf("typing line %q, want \"> d4\"", got)
	}
	keys(b, "\x1bp")
	if got := lastLine(); !strings.Contains(got, "> p") || !strings.Contains(got, "pass") {
		t.Errorf("typing line %q, want the pass prompt", got)
	}
}

func TestUID1BadPoint(t *testing.T) {
	for _, tc := range []struct {
		n       int
		keys    string
		message string
	}{
		{9, "z9\n", `no point "z9" (A1–J9)`},
		{9, "j10\n", `no point "j10" (A1–J9)`},
		{9, "i5\n", `no point "i5" (A1–J9)`},
		{9, "d\n", `no point "d" (A1–J9)`},
		{19, "u1\n", `no point "u1" (A1–T19)`},
		{19, "d0\n", `no point "d0" (A1–T19)`},
		{19, "4", "type the letter first: d4"},
		// Issue 20, bug 10: a typed word longer than "pass" is no pass.
		{9, "passx\n", `no point "passx" (A1–J9)`},
		{9, "d44444\n", `no point "d4444" (A1–J9)`},
	} {
		b := ui.NewBoard().SetModel(ui.NewBoardModel(tc.n, engine.Black))
		rec := recordPlays(b)
		cursor := b.Cursor()
		keys(b, tc.keys)
		if len(rec.plays) != 0 {
			t.Errorf("%q played %s", tc.keys, rec.played(tc.n))
		}
		if b.Cursor() != cursor {
			t.Errorf("%q moved the cursor to %s", tc.keys, b.Cursor().Vertex(tc.n))
		}
		if b.Message() != tc.message {
			t.Errorf("%q: message %q, want %q", tc.keys, b.Message(), tc.message)
		}
		lines := strings.Split(screenText(drawNatural(t, b)), "\n")
		if got := lines[len(lines)-2]; got != tc.message {
			t.Errorf("%q: typing line %q, want %q", tc.keys, got, tc.message)
		}
		key(b, tcell.KeyLeft)
		if b.Message() != "" {
			t.Errorf("%q: message %q stays after a key", tc.keys, b.Message())
		}
	}
}

func TestUID7NoteKey(t *testing.T) {
	b := ui.NewBoard().SetModel(ui.NewBoardModel(9, engine.Black))
	rec := recordPlays(b)
	keys(b, "m")
	keys(b, "lm")
	keys(b, "m")
	if got, want := strings.Join(rec.notes, "; "), "E5 true; F5 true; F5 false"; got != want {
		t.Errorf("notes told %q, want %q", got, want)
	}
	if got := engine.FormatVertices(9, b.Model().Notes()); got != "E5" {
		t.Fatalf("notes %s, want E5", got)
	}
	x, y := compactCell(t, 9, "E5")
	if r, _ := cellAt(drawNatural(t, b), x, y); r != '*' {
		t.Errorf("note drawn %q", r)
	}
	// A new model of the same size keeps the notes and the cursor.
	b.SetModel(ui.NewBoardModel(9, engine.Black).With(ui.MarkNote, vertex(t, 9, "A1")))
	if got := engine.FormatVertices(9, b.Model().Notes()); got != "A1,E5" {
		t.Errorf("notes after SetModel %s, want A1,E5", got)
	}
	if got := b.Cursor().Vertex(9); got != "F5" {
		t.Errorf("cursor after SetModel %s, want F5", got)
	}
	// m then a digit is column M on 19×19: the note is taken back.
	b.SetModel(ui.NewBoardModel(19, engine.Black))
	rec.notes = nil
	keys(b, "m5")
	if got := strings.Join(rec.notes, "; "); got != "K10 true; K10 false" {
		t.Errorf("m5: notes told %q", got)
	}
	if len(b.Model().Notes()) != 0 || b.Typed() != "m5" {
		t.Errorf("m5: notes %v, typed %q", b.Model().Notes(), b.Typed())
	}
	keys(b, "\x1bm")
	if got := engine.FormatVertices(19, b.Model().Notes()); got != "K10" {
		t.Fatalf("notes %s, want K10", got)
	}
	b.ClearNotes()
	if len(b.Model().Notes()) != 0 {
		t.Errorf("ClearNotes left %v", b.Model().Notes())
	}
}

func TestUID7NewSizeResetsCursorAndNotes(t *testing.T) {
	b := ui.NewBoard().SetModel(ui.NewBoardModel(9, engine.Black))
	keys(b, "hm")
	m := ui.NewBoardModel(13, engine.Black)
	b.SetModel(m)
	if got := b.Cursor().Vertex(13); got != "G7" || len(b.Model().Notes()) != 0 {
		t.Errorf("13×13 after 9×9: cursor %s, notes %v", got, b.Model().Notes())
	}
	m.Cursor = vertex(t, 13, "A13")
	if got := b.SetModel(m).Cursor().Vertex(13); got != "A13" {
		t.Errorf("model cursor A13 ignored: %s", got)
	}
}

// mouse sends a mouse action at screen cell (x, y) to b.
func mouse(b *ui.Board, action tview.MouseAction, x, y int) bool {
	button := tcell.Button1
	if action == tview.MouseRightClick {
		button = tcell.Button2
	}
	consumed, _ := b.MouseHandler()(action, tcell.NewEventMouse(x, y, button, tcell.ModNone), func(tview.Primitive) {})
	return consumed
}

func TestUID4MouseMapsCellsToPoints(t *testing.T) {
	for _, n := range []int{5, 9, 19} {
		b := ui.NewBoard().SetModel(ui.NewBoardModel(n, engine.Black))
		drawNatural(t, b)
		for p := engine.Point(0); int(p) < n*n; p++ {
			x, y := compactCell(t, n, p.Vertex(n))
			// The glyph and the cell left of it belong to the point.
			for _, dx := range []int{0, -1} {
				b.SetCursor(engine.PointAt(n, 0, 0))
				if p == b.Cursor() {
					b.SetCursor(engine.PointAt(n, 1, 0))
				}
				mouse(b, tview.MouseLeftClick, x+dx, y)
				if b.Cursor() != p {
					t.Fatalf("%d×%d: click at (%d,%d) selected %s, want %s", n, n, x+dx, y, b.Cursor().Vertex(n), p.Vertex(n))
				}
			}
		}
	}
	// Spacious layout of 19×19 at 83×42.
	b := ui.NewBoard().SetModel(ui.NewBoardModel(19, engine.Black))
	drawBoard(t, b, 83, 42)
	for _, tc := range []struct {
		x, y int
		want string
	}{{5, 2, "A19"}, {3, 1, "A19"}, {6, 3, "A18"}, {77, 38, "T1"}, {78, 38, "T1"}, {9, 38, "B1"}} {
		mouse(b, tview.MouseLeftClick, tc.x, tc.y)
		if got := b.Cursor().Vertex(19); got != tc.want {
			t.Errorf("spacious: click at (%d,%d) selected %s, want %s", tc.x, tc.y, got, tc.want)
		}
	}
}

func TestUID4ClickSelectsThenPlays(t *testing.T) {
	b := ui.NewBoard().SetModel(ui.NewBoardModel(9, engine.Black))
	rec := recordPlays(b)
	drawNatural(t, b)
	x, y := compactCell(t, 9, "C3")
	mouse(b, tview.MouseLeftClick, x, y)
	if len(rec.plays) != 0 || b.Cursor().Vertex(9) != "C3" {
		t.Fatalf("first click: plays %s, cursor %s", rec.played(9), b.Cursor().Vertex(9))
	}
	mouse(b, tview.MouseLeftDoubleClick, x, y)
	if got := rec.played(9); got != "C3" {
		t.Errorf("second click played %s, want C3", got)
	}
	// Clicks on the labels, or outside the board, do nothing.
	for _, c := range [][2]int{{0, 0}, {1, 5}, {x, 0}, {x, 10}, {24, 5}} {
		mouse(b, tview.MouseLeftClick, c[0], c[1])
	}
	if got := rec.played(9); got != "C3" || b.Cursor().Vertex(9) != "C3" {
		t.Errorf("label clicks: plays %s, cursor %s", got, b.Cursor().Vertex(9))
	}
	if mouse(b, tview.MouseLeftClick, 40, 5) {
		t.Errorf("a click outside the widget was consumed")
	}
	// A right click puts a note and moves the cursor.
	x, y = compactCell(t, 9, "G7")
	mouse(b, tview.MouseRightClick, x, y)
	if got := strings.Join(rec.notes, ";"); got != "G7 true" || b.Cursor().Vertex(9) != "G7" {
		t.Errorf("right click: notes %q, cursor %s", got, b.Cursor().Vertex(9))
	}
}

func TestUID1HelpKey(t *testing.T) {
	b := ui.NewBoard()
	asked := 0
	b.SetHelpFunc(func() { asked++ })
	keys(b, "?")
	if asked != 1 {
		t.Errorf("help asked %d times", asked)
	}
}

func TestUIDrawsNothingForBadSize(t *testing.T) {
	for _, n := range []int{0, 3, 20, 25} {
		b := ui.NewBoard().SetModel(ui.NewBoardModel(n, engine.Black))
		b.SetModel(ui.NewBoardModel(n, engine.Black).With(ui.MarkNote, 0, 399))
		rec := recordPlays(b)
		keys(b, "hjklm d4\n")
		mouse(b, tview.MouseLeftClick, 5, 2)
		s := drawBoard(t, b, 30, 5)
		if got, want := screenText(s), "no board of side "+strconv.Itoa(n); !strings.HasPrefix(got, want) {
			t.Errorf("%d: screen %q, want %q", n, got, want)
		}
		if len(rec.plays) != 0 || len(rec.notes) != 0 || len(b.Model().Notes()) != 0 {
			t.Errorf("%d: plays %v, notes %v", n, rec.plays, rec.notes)
		}
	}
}
