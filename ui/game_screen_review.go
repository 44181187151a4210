package ui

// The game screen's review of a game: stepping through its moves, the
// frames of the board, the move list and the final count. Moved from
// game_screen.go.
import (
	"fmt"
	"slices"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/mattn/go-runewidth"
	"github.com/rivo/tview"
)

// review is the replay after the game: the positions, the one shown, and
// whether the full view is shown.
type review struct {
	frames []Frame
	// at is the position shown (-1 until the positions are built: the
	// end).
	at   int
	full bool
	// variant is the variant screen that built the frames; it draws them.
	variant variantScreen
	// built is the length of the record the frames come from; building
	// is true while they are being built, again when the record grew
	// meanwhile.
	built           int
	building, again bool
}

// makeReviewKeys is the screen's key table once the game is over: the
// board only shows the replay, so letters are free.
func (s *GameScreen) makeReviewKeys() KeyTable {
	step := func(d int) func() { return func() { s.stepMoves(d) } }
	stepAll := func(d int) func() { return func() { s.stepReview(d) } }
	return KeyTable{
		{Key: "Left", Name: "back", Help: "one move back", Action: step(-1)},
		{Key: "h", Name: "back", Action: step(-1)},
		{Key: "Right", Name: "forward", Help: "one move forward", Action: step(1)},
		{Key: "l", Name: "forward", Action: step(1)},
		{Key: ",", Name: "try back", Help: "one position back, illegal tries too (Phantom Go)", Action: stepAll(-1)},
		{Key: ".", Name: "try forward", Help: "one position forward, illegal tries too", Action: stepAll(1)},
		{Key: "g", Name: "moves", Help: "the list of moves: jump to any", Action: s.showMoves},
		{Key: "Home", Name: "start", Help: "the start of the game", Action: step(-1 << 20)},
		{Key: "End", Name: "end", Help: "the end of the game", Action: step(1 << 20)},
		{Key: "v", Name: "view", Help: "switch between your own view and the full view", Action: s.toggleView},
		{Key: "w", Name: "write", Help: "write the record and its SGF where you choose", Action: s.askSave},
		{Key: "Tab", Name: "chat", Help: "write to the opponent", Action: s.startChat},
		{Key: "?", Name: "help", Help: "show the keys", Action: s.showHelp},
		{Key: "Ctrl-T", Name: "rules", Help: "the rules of this game", Action: s.showRules},
		{Key: "q", Name: "leave", Help: "leave the game screen", Action: s.doLeave},
		{Key: "Ctrl-Q", Name: "leave", Action: s.doLeave},
		{Key: "PgUp", Name: "log back", Help: "scroll the log back a page", Action: func() { s.scrollLog(1) }},
		{Key: "PgDn", Name: "log forward", Help: "scroll the log forward a page", Action: func() { s.scrollLog(-1) }},
	}
}

// startReview turns the screen into the replay of the finished game, at
// its end in the full view (the full reveal). The positions are rebuilt
// from the record whenever it grew (the result's confirmation, cards
// opened at the end); with a queue (SetQueue) they are built off the
// application's goroutine, as replaying a Phantom Go audit takes a while.
func (s *GameScreen) startReview() {
	if s.review == nil {
		s.review = &review{full: true, at: -1}
		s.chatting = false
		s.dialog, s.choiceOpen = nil, false
	}
	s.refreshFrames()
}

// refreshFrames rebuilds the replay's positions if the record grew.
func (s *GameScreen) refreshFrames() {
	r := s.review
	if r.building {
		r.again = true
		return
	}
	t, final := s.conn.Transcript(), s.model.View
	if r.variant != nil && !slices.ContainsFunc(t.Messages[min(r.built, len(t.Messages)):], func(m protocol.Message) bool {
		return m.Kind != protocol.KindResult && m.Kind != protocol.KindChat
	}) {
		r.built = len(t.Messages) // the results' confirmations and chat add no position
		return
	}
	var frames []Frame
	var vs variantScreen
	done := func() {
		atEnd := r.at < 0 || r.at >= len(r.frames)-1
		r.frames, r.variant, r.built, r.building = frames, vs, len(t.Messages), false
		if atEnd || r.at >= len(frames) {
			r.at = len(frames) - 1
		}
		r.at = max(r.at, 0)
		if r.again {
			r.again = false
			s.refreshFrames()
		}
		s.render()
	}
	if s.queue == nil {
		frames, vs = buildFrames(t, final)
		done()
		return
	}
	r.building = true
	go func() {
		frames, vs = buildFrames(t, final)
		s.queue(done)
	}()
}

// reviewBoard returns the board of the position the replay shows.
func (s *GameScreen) reviewBoard() BoardModel {
	r := s.review
	if len(r.frames) == 0 || r.at < 0 || r.variant == nil {
		return s.variant.board(s.model)
	}
	f := r.frames[r.at]
	bm := r.variant.replayBoard(f, s.model.View, r.full).With(MarkHighlight, f.Effect...)
	if dead, sc, ok := s.finalCount(); ok && r.at == len(r.frames)-1 && r.full {
		// The end of a game decided by the count: the agreed dead stones
		// and the territory they give (GO-5).
		bm = territory(bm.With(MarkHighlight, dead...), sc)
	}
	return bm
}

// finalCount returns the agreed marking and its count when the game ended
// by the count.
func (s *GameScreen) finalCount() ([]engine.Point, engine.Score, bool) {
	v := s.model.View
	c, ok := s.variant.(counter)
	if !ok || v.Outcome == nil || v.Outcome.Result.By != engine.ByScore || v.Outcome.Violation != nil {
		return nil, engine.Score{}, false
	}
	return c.finalCount(v)
}

// stepMoves steps the replay by d moves: over the positions that are no
// move (Phantom Go's illegal tries), to the next or previous move.
func (s *GameScreen) stepMoves(d int) {
	r := s.review
	if d < -1 || d > 1 {
		s.stepReview(d)
		return
	}
	at := r.at
	for {
		next := at + d
		if next < 0 || next >= len(r.frames) {
			break
		}
		at = next
		if !r.frames[at].Try {
			break
		}
	}
	r.at = at
}

// listEntry is one line of the replay's list: the position it jumps to,
// its words, and whether it is a move (not an illegal try).
type listEntry struct {
	at   int
	line string
	move bool
}

// listEntries returns the replay's list: the start, each move with its
// number and caption, each illegal try (Phantom Go) unnumbered under the
// move it preceded, marked ✗. The numbers are the game's: a take-back has
// none (↶), and the move after it has the number of the first move it
// took back.
func (s *GameScreen) listEntries() []listEntry { return listEntriesOf(s.review.frames) }

// listEntriesOf returns the list of a replay's positions frames (see
// GameScreen.listEntries); the spectator screen lists its own.
func listEntriesOf(frames []Frame) []listEntry {
	var entries []listEntry
	n := 0
	for i, f := range frames {
		switch {
		case f.Try:
			entries = append(entries, listEntry{at: i, line: "  ✗  " + f.Caption})
		case i == 0:
			entries = append(entries, listEntry{at: i, line: "   start", move: true})
		case f.Undone > 0:
			n = max(n-f.Undone, 0)
			entries = append(entries, listEntry{at: i, line: "  ↶  " + f.Caption, move: true})
		default:
			n++
			entries = append(entries, listEntry{at: i, line: fmt.Sprintf("%3d  %s", n, f.Caption), move: true})
		}
	}
	return entries
}

// moveList returns the replay's moves: the index of each position that is
// a move, and its line for the list (number and caption).
func (s *GameScreen) moveList() (at []int, lines []string) {
	for _, e := range s.listEntries() {
		if e.move {
			at, lines = append(at, e.at), append(lines, e.line)
		}
	}
	return at, lines
}

// showMoves opens the list of the game's moves, and of the illegal tries
// between them: ↑↓ choose, Enter jumps to the position, Esc closes.
func (s *GameScreen) showMoves() {
	r := s.review
	if r == nil || len(r.frames) == 0 {
		s.model.Message = "the replay is still being read"
		return
	}
	s.dialog = movesDialog(s.listEntries(), r.at, func(at int) { r.at = at }, func() { s.dialog = nil })
}

// movesDialog is the list of a replay's entries: ↑↓ choose, Enter jumps
// to the position (jump), Esc closes (closeIt); at is the position shown.
func movesDialog(entries []listEntry, at int, jump func(at int), closeIt func()) *dialog {
	list := tview.NewList().ShowSecondaryText(false).SetHighlightFullLine(true).SetSelectedStyle(chosenStyle)
	list.SetBackgroundColor(tcell.ColorDefault)
	current, width := 0, 60
	for i, e := range entries {
		list.AddItem(tview.Escape(e.line), "", 0, nil)
		if e.at <= at {
			current = i
		}
		width = max(width, runewidth.StringWidth(e.line)+6)
	}
	list.SetCurrentItem(current)
	d := newDialog("Moves — ↑↓ choose, Enter jumps, Esc closes")
	// As wide as the longest line, within the screen (Draw clips).
	d.body, d.width, d.height = list, width, min(len(entries), 20)+2
	d.handle = func(ev *tcell.EventKey) {
		switch ev.Key() {
		case tcell.KeyEsc:
			closeIt()
		case tcell.KeyEnter:
			jump(entries[list.GetCurrentItem()].at)
			closeIt()
		default:
			list.InputHandler()(ev, func(tview.Primitive) {})
		}
	}
	return d
}

func (s *GameScreen) stepReview(d int) {
	r := s.review
	r.at = min(max(r.at+d, 0), max(len(r.frames)-1, 0))
}

func (s *GameScreen) toggleView() { s.review.full = !s.review.full }
