package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/mattn/go-runewidth"
	"github.com/rivo/tview"
)

// Glyphs are the characters the board draws. Every pair that matters is
// told apart by its shape, not by colour (UI-D2).
type Glyphs struct {
	// Black and White are the stones; BlackUncertain and WhiteUncertain a
	// stone of the player that may have been captured.
	Black, White                   rune
	BlackUncertain, WhiteUncertain rune
	// Empty is an empty point, Star an empty star point.
	Empty, Star rune
	// Unavailable is a point no one may play (F-Go); Note the player's
	// private note on an empty point.
	Unavailable, Note rune
	// Both is a point where both players have a piece (gomoku).
	Both rune
	// BlackTerritory and WhiteTerritory are empty points the count gives
	// to each colour.
	BlackTerritory, WhiteTerritory rune
	// Row and Column are the empty points of an announced row or column
	// (gomoku).
	Row, Column rune
}

// UnicodeGlyphs draw stones as ● (Black) and ○ (White).
var UnicodeGlyphs = Glyphs{
	Black: '●', White: '○', BlackUncertain: '?', WhiteUncertain: '?',
	Empty: '·', Star: '+', Unavailable: '×', Note: '*', Both: '&',
	BlackTerritory: '▪', WhiteTerritory: '▫', Row: '─', Column: '│',
}

// ASCIIGlyphs draw stones as X (Black) and O (White), for terminals that
// cannot show the Unicode ones.
var ASCIIGlyphs = Glyphs{
	Black: 'X', White: 'O', BlackUncertain: '?', WhiteUncertain: '?',
	Empty: '.', Star: '+', Unavailable: '#', Note: '*', Both: '&',
	BlackTerritory: 'b', WhiteTerritory: 'w', Row: '-', Column: '|',
}

// stone returns the glyph of a stone of colour c.
func (g Glyphs) stone(c engine.Color, uncertain bool) rune {
	switch {
	case c == engine.Black && uncertain:
		return g.BlackUncertain
	case c == engine.Black:
		return g.Black
	case uncertain:
		return g.WhiteUncertain
	}
	return g.White
}

// highlightColor is the one named colour of the board, for highlighted
// points and errors: red reads on dark and on light backgrounds.
const highlightColor = tcell.ColorRed

// maxTyped is the longest typed text kept: one more than the longest point
// ("pass", "t19"), so that "passx" reads as no point rather than a pass.
const maxTyped = 5

// Board is the Go board widget: it draws a [BoardModel] and turns keys and
// mouse clicks into plays at points. It holds no game: its owner gives it
// a fresh model after every event and is called back with the player's
// choices. Like every tview primitive it is used from the application's
// goroutine only; the callbacks run there too, so they must not call
// QueueUpdateDraw and wait.
type Board struct {
	*tview.Box
	model  BoardModel
	keys   KeyTable
	glyphs Glyphs

	// typed is the point being typed, shown under the board.
	typed string
	// kept is a column letter just used as a command (h, j, k, l, m): if
	// a digit follows, undo reverts the command and the letter starts a
	// typed point instead (UI-D1).
	kept rune
	undo func()
	// message is an error shown under the board until the next key.
	message string

	onPlay func(engine.Point)
	onNote func(p engine.Point, on bool)
	onHelp func()
}

// NewBoard returns a board widget showing an empty 19×19 board, with the
// terminal's default colours.
func NewBoard() *Board {
	b := &Board{Box: tview.NewBox()}
	b.SetBackgroundColor(tcell.ColorDefault)
	b.keys = b.boardKeys()
	b.SetModel(NewBoardModel(engine.MaxSize, engine.Empty))
	return b
}

// boardKeys is the board's key table: the only place its keys are bound.
func (b *Board) boardKeys() KeyTable {
	move := func(dx, dy int) func() { return func() { b.moveCursor(dx, dy) } }
	return KeyTable{
		{Key: "Left", Name: "left", Help: "move the cursor left", Action: move(-1, 0)},
		{Key: "h", Name: "left", Action: move(-1, 0)},
		{Key: "Down", Name: "down", Help: "move the cursor down", Action: move(0, -1)},
		{Key: "j", Name: "down", Action: move(0, -1)},
		{Key: "Up", Name: "up", Help: "move the cursor up", Action: move(0, 1)},
		{Key: "k", Name: "up", Action: move(0, 1)},
		{Key: "Right", Name: "right", Help: "move the cursor right", Action: move(1, 0)},
		{Key: "l", Name: "right", Action: move(1, 0)},
		{Key: "Enter", Name: "play", Help: "play at the cursor, or at the typed point", Action: b.enter},
		{Key: "Space", Name: "play", Action: b.enter},
		{Key: "d4", Name: "type", Help: "type a point (letter, then row), Enter plays there"},
		{Key: "Backspace", Name: "erase", Help: "erase the last typed character", Action: b.erase},
		{Key: "Esc", Name: "cancel", Help: "forget the typed point and the error", Action: b.cancel},
		{Key: "m", Name: "note", Help: "put or take away a private note at the cursor", Action: b.toggleNote},
		{Key: "p", Name: "pass", Help: "pass: p, then Enter to confirm", Action: b.startPass},
		{Key: "?", Name: "help", Help: "show the keys", Action: b.help},
	}
}

// Keys returns the board's key table, for a help screen that lists it with
// other widgets' keys.
func (b *Board) Keys() KeyTable { return slices.Clone(b.keys) }

// SetModel shows m. The cursor and the private notes belong to the player,
// not to the game, and survive a new model of the same size: the cursor
// stays unless m.Cursor names a point, and each note stays (notes in m are
// added). A model of another size starts with no notes and the cursor at
// the centre (unless m.Cursor names a point).
func (b *Board) SetModel(m BoardModel) *Board {
	old := b.model
	if m.Size == old.Size && m.Valid() {
		for p := range m.Size * m.Size {
			m.Points[p].Marks |= old.Points[p].Marks & MarkNote
		}
		if !m.OnBoard(m.Cursor) {
			m.Cursor = old.Cursor
		}
	}
	if !m.OnBoard(m.Cursor) && m.Valid() {
		m.Cursor = engine.PointAt(m.Size, m.Size/2, m.Size/2)
	}
	b.model = m
	return b
}

// Model returns the model shown, with the widget's cursor and notes.
func (b *Board) Model() BoardModel { return b.model }

// Cursor returns the point under the cursor.
func (b *Board) Cursor() engine.Point { return b.model.Cursor }

// SetCursor moves the cursor to p; a point off the board is ignored.
func (b *Board) SetCursor(p engine.Point) *Board {
	if b.model.OnBoard(p) {
		b.model.Cursor = p
	}
	return b
}

// ClearNotes takes away every private note.
func (b *Board) ClearNotes() *Board {
	for p := range b.model.Points {
		b.model.Points[p].Marks &^= MarkNote
	}
	return b
}

// Typed returns the point being typed ("" when none).
func (b *Board) Typed() string { return b.typed }

// Message returns the error shown under the board ("" when none).
func (b *Board) Message() string { return b.message }

// ShowError shows text under the board until the next key, as the owner
// does when the game refuses a play.
func (b *Board) ShowError(text string) *Board {
	b.message = text
	return b
}

// SetPlayFunc sets what to call when the player plays at a point, or
// passes (engine.Pass).
func (b *Board) SetPlayFunc(f func(p engine.Point)) *Board {
	b.onPlay = f
	return b
}

// SetNoteFunc sets what to call when the player puts (on) or takes away a
// private note, so that the owner can keep the notes with the game.
func (b *Board) SetNoteFunc(f func(p engine.Point, on bool)) *Board {
	b.onNote = f
	return b
}

// SetHelpFunc sets what to call when the player asks for help.
func (b *Board) SetHelpFunc(f func()) *Board {
	b.onHelp = f
	return b
}

// SetGlyphs sets the characters to draw with. Without it the board uses
// [UnicodeGlyphs] where the terminal can show them and [ASCIIGlyphs]
// elsewhere.
func (b *Board) SetGlyphs(g Glyphs) *Board {
	b.glyphs = g
	return b
}

// NaturalSize returns the width and height the board needs in its compact
// layout (two columns and one line per point): 2n+7 by n+3 for side n,
// 45×22 for 19×19. Larger rectangles get a spacious layout (UI-D3).
func (b *Board) NaturalSize() (width, height int) {
	return boardWidth(b.model.Size, 2), boardHeight(b.model.Size, 1)
}

// The layout: labelWidth columns of row numbers each side; a point every
// sx columns and sy lines; a line of column letters above and below; the
// typing line last.
const labelWidth = 2

func boardWidth(n, sx int) int  { return labelWidth + 1 + sx/2 + sx*(n-1) + 1 + sx/2 + 1 + labelWidth }
func boardHeight(n, sy int) int { return sy*(n+1) + 2 }

// boardLayout places a board on the screen.
type boardLayout struct {
	n          int
	x, y, w, h int // the board's rectangle (within the inner rectangle)
	sx, sy     int // columns and lines from a point to the next
	x0, y0     int // screen cell of column A of the top row
}

// layout returns the layout of the model in the widget's inner rectangle:
// spacious if it fits, else compact; centred.
func (b *Board) layout() boardLayout {
	ix, iy, iw, ih := b.GetInnerRect()
	n := b.model.Size
	l := boardLayout{n: n, sx: 2, sy: 1}
	if iw >= boardWidth(n, 4) && ih >= boardHeight(n, 2) {
		l.sx, l.sy = 4, 2
	}
	l.w, l.h = boardWidth(n, l.sx), boardHeight(n, l.sy)
	l.x, l.y = ix+max(0, (iw-l.w)/2), iy+max(0, (ih-l.h)/2)
	l.x0, l.y0 = l.x+labelWidth+1+l.sx/2, l.y+l.sy
	return l
}

// cell returns the screen cell of the point at column x and row y (from
// the bottom).
func (l boardLayout) cell(x, y int) (cx, cy int) {
	return l.x0 + l.sx*x, l.y0 + l.sy*(l.n-1-y)
}

// point returns the point drawn at or beside the screen cell (cx, cy):
// each point owns the cells from half a step before it to just before
// half a step after it.
func (l boardLayout) point(cx, cy int) (engine.Point, bool) {
	x, okx := nearest(cx-l.x0, l.sx, l.n)
	row, oky := nearest(cy-l.y0, l.sy, l.n)
	if !okx || !oky {
		return engine.NoPoint, false
	}
	return engine.PointAt(l.n, x, l.n-1-row), true
}

// nearest returns the index i in [0, n) whose cell step*i is nearest to d,
// breaking ties toward the later index.
func nearest(d, step, n int) (int, bool) {
	d += step / 2
	if d < 0 {
		return 0, false
	}
	i := d / step
	return i, i < n
}

// Draw draws the board.
func (b *Board) Draw(screen tcell.Screen) {
	b.Box.DrawForSubclass(screen, b)
	ix, iy, iw, ih := b.GetInnerRect()
	put := func(x, y int, r rune, st tcell.Style) {
		if x >= ix && x < ix+iw && y >= iy && y < iy+ih {
			screen.SetContent(x, y, r, nil, st)
		}
	}
	text := func(x, y int, s string, st tcell.Style) {
		for _, r := range s {
			put(x, y, r, st)
			x++
		}
	}
	m := b.model
	if !m.Valid() {
		text(ix, iy, fmt.Sprintf("no board of side %d", m.Size), tcell.StyleDefault)
		return
	}
	g := b.glyphs
	if g == (Glyphs{}) {
		g = glyphsFor(screen)
	}
	l := b.layout()
	plain := tcell.StyleDefault

	// Labels: column letters above and below, row numbers each side.
	for x := range l.n {
		cx, _ := l.cell(x, 0)
		letter := rune(engine.PointAt(l.n, x, 0).Vertex(l.n)[0])
		put(cx, l.y, letter, plain)
		put(cx, l.y+l.h-2, letter, plain)
	}
	for y := range l.n {
		_, cy := l.cell(0, y)
		num := strconv.Itoa(y + 1)
		text(l.x+labelWidth-len(num), cy, num, plain)
		text(l.x+l.w-labelWidth, cy, num, plain)
	}

	// Points, then the brackets of pending choices and last moves in the
	// cells beside them.
	var star [engine.MaxPoints]bool
	for _, p := range StarPoints(l.n) {
		star[p] = true
	}
	for p := engine.Point(0); int(p) < l.n*l.n; p++ {
		r, st := pointGlyph(m, p, g, star[p])
		cx, cy := l.cell(p.XY(l.n))
		put(cx, cy, r, st)
	}
	for _, frame := range []struct {
		is          func(engine.Point) bool
		open, close rune
	}{
		{func(p engine.Point) bool { return m.Points[p].Has(MarkPending) }, '[', ']'},
		{m.IsLast, '(', ')'},
	} {
		for p := engine.Point(0); int(p) < l.n*l.n; p++ {
			if frame.is(p) {
				cx, cy := l.cell(p.XY(l.n))
				put(cx-1, cy, frame.open, plain.Bold(true))
				put(cx+1, cy, frame.close, plain.Bold(true))
			}
		}
	}

	// The typing line.
	line, st := "", plain
	switch {
	case b.message != "":
		line, st = b.message, plain.Bold(true).Foreground(highlightColor)
	case strings.EqualFold(b.typed, "p"):
		line = "> p   Enter: pass"
	case b.typed != "":
		line = "> " + b.typed
	}
	text(l.x, l.y+l.h-1, line, st)
}

// glyphsFor returns the glyphs the screen can show, one cell each: the
// Unicode ones are East Asian ambiguous and take two cells where tcell is
// told so (RUNEWIDTH_EASTASIAN), which would break the columns.
func glyphsFor(screen tcell.Screen) Glyphs {
	g := UnicodeGlyphs
	for _, r := range []rune{g.Black, g.White, g.BlackUncertain, g.Empty, g.Unavailable, g.BlackTerritory, g.WhiteTerritory, g.Row, g.Column} {
		if !screen.CanDisplay(r, false) || runewidth.RuneWidth(r) != 1 {
			return ASCIIGlyphs
		}
	}
	return g
}

// pointGlyph returns how point p of m is drawn (UI-D2): the stone or the
// empty point, then the attributes of its marks and of the cursor.
func pointGlyph(m BoardModel, p engine.Point, g Glyphs, star bool) (rune, tcell.Style) {
	pm := m.Points[p]
	st := tcell.StyleDefault
	var r rune
	switch {
	case pm.Has(MarkBoth):
		r = cmp.Or(g.Both, '&')
	case pm.Stone != engine.Empty:
		r = g.stone(pm.Stone, pm.Has(MarkUncertain))
		if pm.Has(MarkUncertain) {
			st = st.Dim(true)
		}
		if pm.Has(MarkLearnt) {
			st = st.Underline(true)
		}
	case pm.Has(MarkUnavailable):
		r = g.Unavailable
	case pm.Has(MarkTerritoryBlack):
		r, st = cmp.Or(g.BlackTerritory, 'b'), st.Dim(true)
	case pm.Has(MarkTerritoryWhite):
		r, st = cmp.Or(g.WhiteTerritory, 'w'), st.Dim(true)
	case pm.Has(MarkRowAnnounced):
		r = cmp.Or(g.Row, '-')
	case pm.Has(MarkColumnAnnounced):
		r = cmp.Or(g.Column, '|')
	case pm.Has(MarkPending) && m.Me != engine.Empty:
		r, st = g.stone(m.Me, false), st.Dim(true)
	case pm.Has(MarkNote):
		r, st = g.Note, st.Bold(true)
	case star:
		r = g.Star
	default:
		r, st = g.Empty, st.Dim(true)
	}
	if pm.Has(MarkHighlight) {
		st = st.Bold(true).Foreground(highlightColor)
	}
	if p == m.Cursor {
		st = st.Reverse(true)
	}
	return r, st
}

// InputHandler returns the handler of the board's keys.
func (b *Board) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return b.WrapInputHandler(func(ev *tcell.EventKey, _ func(p tview.Primitive)) {
		b.handleKey(ev)
	})
}

// handleKey is the board's key handling (UI-D1): a column letter kept from
// the key before becomes a typed point when a digit follows; letters and
// digits extend a typed point; everything else goes through the key table;
// an unbound letter starts a typed point.
func (b *Board) handleKey(ev *tcell.EventKey) {
	b.message = ""
	r := ev.Rune()
	isRune := ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0
	isDigit := isRune && r >= '0' && r <= '9'
	isLetter := isRune && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')

	kept, undo := b.kept, b.undo
	b.kept, b.undo = 0, nil
	if kept != 0 && isDigit {
		undo()
		b.typed = string(kept) + string(r)
		return
	}
	if b.typed != "" && (isDigit || isLetter) {
		if len(b.typed) < maxTyped {
			b.typed += string(r)
		}
		return
	}
	if kb, ok := b.keys.Lookup(ev); ok {
		kb.Action()
		if !isLetter || !isColumnLetter(b.model.Size, r) {
			b.undo = nil
		}
		if b.undo != nil {
			b.kept = r
		}
		return
	}
	switch {
	case isLetter:
		b.typed = string(r)
	case isDigit:
		b.message = "type the letter first: d4"
	}
}

// isColumnLetter reports whether r names a column of a board of side n.
func isColumnLetter(n int, r rune) bool {
	if r >= 'a' && r <= 'z' {
		r -= 'a' - 'A'
	}
	_, err := engine.ParseVertex(n, string(r)+"1")
	return err == nil
}

// moveCursor moves the cursor by dx columns and dy rows, stopping at the
// edges; the move can be undone (UI-D1).
func (b *Board) moveCursor(dx, dy int) {
	b.typed = ""
	n, old := b.model.Size, b.model.Cursor
	if !b.model.OnBoard(old) {
		return
	}
	x, y := old.XY(n)
	x, y = min(max(x+dx, 0), n-1), min(max(y+dy, 0), n-1)
	b.model.Cursor = engine.PointAt(n, x, y)
	b.undo = func() { b.model.Cursor = old }
}

// enter plays the typed point, or the point under the cursor.
func (b *Board) enter() {
	if b.typed == "" {
		b.play(b.model.Cursor)
		return
	}
	t := b.typed
	b.typed = ""
	if strings.EqualFold(t, "p") {
		t = "pass"
	}
	p, err := engine.ParseVertex(b.model.Size, t)
	if err != nil {
		last := engine.PointAt(b.model.Size, b.model.Size-1, b.model.Size-1)
		b.message = fmt.Sprintf("no point %q (A1–%s)", t, last.Vertex(b.model.Size))
		return
	}
	if p != engine.Pass {
		b.model.Cursor = p
	}
	b.play(p)
}

// play calls the play callback.
func (b *Board) play(p engine.Point) {
	if b.onPlay != nil && (p == engine.Pass || b.model.OnBoard(p)) {
		b.onPlay(p)
	}
}

// erase erases the last typed character.
func (b *Board) erase() {
	if b.typed != "" {
		b.typed = b.typed[:len(b.typed)-1]
	}
}

// cancel forgets the typed point and the error.
func (b *Board) cancel() { b.typed, b.message = "", "" }

// toggleNote puts or takes away the note at the cursor; undoable (UI-D1).
func (b *Board) toggleNote() {
	b.typed = ""
	p := b.model.Cursor
	if !b.model.OnBoard(p) {
		return
	}
	b.flipNote(p)
	b.undo = func() { b.flipNote(p) }
}

// flipNote flips the note at p and tells the owner.
func (b *Board) flipNote(p engine.Point) {
	b.model.Points[p].Marks ^= MarkNote
	if b.onNote != nil {
		b.onNote(p, b.model.Points[p].Has(MarkNote))
	}
}

// startPass starts typing "p": Enter then passes, a digit makes it a
// point of column P (UI-D1).
func (b *Board) startPass() { b.typed = "p" }

// help calls the help callback.
func (b *Board) help() {
	if b.onHelp != nil {
		b.onHelp()
	}
}

// MouseHandler returns the handler of mouse events (UI-D4): a left click
// on a point moves the cursor there, and a click on the point already
// under the cursor plays it; a right click puts or takes away a note.
func (b *Board) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (consumed bool, capture tview.Primitive) {
	return b.WrapMouseHandler(func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		x, y := event.Position()
		if !b.InRect(x, y) {
			return false, nil
		}
		switch action {
		case tview.MouseLeftDown, tview.MouseRightDown:
			setFocus(b)
			return true, nil
		case tview.MouseLeftClick, tview.MouseLeftDoubleClick, tview.MouseRightClick:
		default:
			return false, nil
		}
		if !b.model.Valid() {
			return true, nil
		}
		p, ok := b.layout().point(x, y)
		if !ok {
			return true, nil
		}
		b.typed, b.kept, b.undo, b.message = "", 0, nil, ""
		switch {
		case action == tview.MouseRightClick:
			b.model.Cursor = p
			b.flipNote(p)
		case p == b.model.Cursor:
			b.play(p)
		default:
			b.model.Cursor = p
		}
		return true, nil
	})
}
