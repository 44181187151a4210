package ui

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/rivo/tview"
)

// panelMinWidth is the narrowest side panel the game screen keeps beside
// the board.
const panelMinWidth = 36

// GameScreen is the screen of one game: the board widget, a side panel
// (the players, whose turn, the variant's own lines, the log, the chat)
// and a line of key hints. It draws a [GameModel] and keeps no game state
// of its own. The application gives it the game's events (Apply) and the
// answers to its actions (ActionDone); it keeps the focus for itself and
// routes each key: to an open dialog, to the chat line, to its own key
// table, or to the board (UI-D8).
type GameScreen struct {
	*tview.Flex
	// clockWarned is set while the local clock is in its last 10 s.
	clockWarned bool
	conn        GameConn
	model       *GameModel
	variant     variantScreen
	act         func(protocol.Action)
	leave       func()

	title, info, log, chat, hints *tview.TextView
	input                         *tview.InputField
	board                         *Board
	body, side                    *tview.Flex
	// infoLines are the lines of the info panel, sized in Draw.
	infoLines []string

	playKeys, reviewKeys KeyTable
	dialog               *dialog
	undoDialog           *dialog // the open answer to an undo request
	// choiceKey is the variant's question asked now (chooser), choiceOpen
	// whether the dialog shows it, choiceHidden whether the player hid it
	// (^D shows it again).
	choiceKey                string
	choiceOpen, choiceHidden bool
	chatting                 bool
	review                   *review
	// saveDir is where the record is written unless the player says
	// otherwise.
	saveDir string
	// logHeader names the log; logTop is the first line shown when the
	// player scrolled the log back (-1: the log follows the game).
	logHeader *tview.TextView
	logTop    int
	// queue runs a function on the application's goroutine (nil in
	// tests: at once).
	queue func(func())
}

// NewGameScreen returns the screen of the game conn. act sends an action
// of the player (its answer comes back through ActionDone); leave is
// called when the player leaves the screen.
func NewGameScreen(conn GameConn, act func(protocol.Action), leave func()) *GameScreen {
	v := conn.View()
	s := &GameScreen{
		Flex:    tview.NewFlex().SetDirection(tview.FlexRow),
		conn:    conn,
		model:   NewGameModel(v, conn.Peer().String()),
		variant: screenFor(v.Options.Variant),
		act:     act,
		leave:   leave,
		board:   NewBoard(),
		input:   tview.NewInputField(),
	}
	s.saveDir, _ = os.Getwd()
	text := func() *tview.TextView {
		t := tview.NewTextView().SetDynamicColors(true).SetWrap(true).SetWordWrap(true)
		t.SetBackgroundColor(tcell.ColorDefault)
		return t
	}
	s.title, s.info, s.log, s.chat, s.hints = text(), text(), text(), text(), text()
	s.logHeader, s.logTop = header("log"), -1
	s.input.SetLabel("> ").SetPlaceholder("Tab to chat").SetFieldBackgroundColor(tcell.ColorDefault).
		SetBackgroundColor(tcell.ColorDefault)
	s.input.SetPlaceholderStyle(tcell.StyleDefault.Dim(true))
	s.board.SetPlayFunc(func(p engine.Point) { s.command(command{kind: cmdPoint, point: p}) })
	if !v.Options.Variant.Descriptor().Stones {
		s.board.SetGlyphs(GomokuGlyphs)
	}
	s.board.SetHelpFunc(s.showHelp)

	s.side = tview.NewFlex().SetDirection(tview.FlexRow).
		AddItem(s.info, 1, 0, false).
		AddItem(s.logHeader, 1, 0, false).
		AddItem(s.log, 0, 3, false).
		AddItem(header("chat"), 1, 0, false).
		AddItem(s.chat, 0, 2, false).
		AddItem(s.input, 1, 0, false)
	s.body = tview.NewFlex().AddItem(s.board, 0, 1, false).AddItem(s.side, 0, 1, false)
	s.Flex.AddItem(s.title, 1, 0, false).AddItem(s.body, 0, 1, false).AddItem(s.hints, 1, 0, false)
	s.playKeys = s.makePlayKeys()
	s.reviewKeys = s.makeReviewKeys()
	if v.Outcome != nil {
		s.startReview()
	}
	s.render()
	return s
}

// header returns a line that names a part of the side panel.
func header(name string) *tview.TextView {
	t := tview.NewTextView().SetText("── " + name + " " + strings.Repeat("─", 60))
	t.SetTextStyle(tcell.StyleDefault.Dim(true)).SetBackgroundColor(tcell.ColorDefault)
	return t
}

// GomokuGlyphs draw gomoku's pieces as X and O.
var GomokuGlyphs = Glyphs{
	Black: 'X', White: 'O', BlackUncertain: 'x', WhiteUncertain: 'o',
	Empty: UnicodeGlyphs.Empty, Star: UnicodeGlyphs.Star, Unavailable: UnicodeGlyphs.Unavailable, Note: UnicodeGlyphs.Note,
	Both: '&', Row: UnicodeGlyphs.Row, Column: UnicodeGlyphs.Column,
}

// makePlayKeys is the screen's key table during the game: every key is a
// control key or Tab, so none is a letter or digit of a typed point.
func (s *GameScreen) makePlayKeys() KeyTable {
	cmd := func(k commandKind) func() { return func() { s.command(command{kind: k}) } }
	return KeyTable{
		{Key: "Ctrl-D", Name: "confirm", Help: "send what you prepared (cards, F-Go choice, dead stones)", Action: cmd(cmdConfirm)},
		{Key: "Ctrl-U", Name: "take back", Help: "take back what you prepared and did not send", Action: cmd(cmdTakeBack)},
		{Key: "Ctrl-A", Name: "accept", Help: "accept the opponent's dead stones (or F-Go offer)", Action: cmd(cmdAccept)},
		{Key: "Ctrl-P", Name: "resume", Help: "during the count: resume play with your next stone", Action: cmd(cmdResume)},
		{Key: "Ctrl-V", Name: "reveal", Help: "Hidden Move Go: reveal one of your hidden moves", Action: s.showReveal},
		{Key: "Tab", Name: "chat", Help: "write to the opponent (Enter sends, Esc returns)", Action: s.startChat},
		{Key: "Ctrl-R", Name: "resign", Help: "resign the game (asks first)", Action: s.askResign},
		{Key: "Ctrl-K", Name: "undo", Help: "take back your last move, or it and the answer (plain Go, Bridge Go)", Action: func() { s.act(protocol.RequestUndo{}) }},
		{Key: "Ctrl-O", Name: "adjourn", Help: "ask to adjourn, or agree when asked (clocks stop)", Action: s.adjourn},
		{Key: "Ctrl-Q", Name: "leave", Help: "leave the game; it stays saved (asks first)", Action: s.askLeave},
		{Key: "Ctrl-T", Name: "rules", Help: "the rules of this game", Action: s.showRules},
		{Key: "Ctrl-E", Name: "estimate", Help: "estimate the score as the board stands (plain Go, F-Go)", Action: s.showEstimate},
		{Key: "PgUp", Name: "log back", Help: "scroll the log back a page", Action: func() { s.scrollLog(1) }},
		{Key: "PgDn", Name: "log forward", Help: "scroll forward; at the end the log follows play", Action: func() { s.scrollLog(-1) }},
	}
}

// logRows returns how many screen rows the log takes wrapped at its
// width. tview's TextView.GetWrappedLineCount would index the text at its
// maximum width, none, and the next draw would keep that index: the log
// unwrapped, its lines cut at the panel's edge (UI-D40).
func (s *GameScreen) logRows() int {
	_, _, w, _ := s.log.GetInnerRect()
	rows := 0
	for _, l := range s.model.Log {
		if w <= 0 {
			rows++
			continue
		}
		rows += max(len(tview.WordWrap(tview.Escape(l), w)), 1)
	}
	return rows
}

// scrollLog scrolls the log back (pages > 0) or forward by pages of its
// height; back at the end, the log follows the game again.
func (s *GameScreen) scrollLog(pages int) {
	_, _, _, h := s.log.GetInnerRect()
	s.logTop = scrolledLogTop(s.logTop, s.logRows(), h, pages)
	s.placeLog()
}

// placeLog shows the end of the log, or the part the player scrolled back
// to (which stays in place as the game goes on), and says in the log's
// header when the log does not follow the game.
func (s *GameScreen) placeLog() {
	if s.logTop < 0 {
		s.log.ScrollToEnd()
		s.logHeader.SetText("── log " + strings.Repeat("─", 60))
		return
	}
	_, _, _, h := s.log.GetInnerRect()
	back := s.logRows() - h - s.logTop
	s.log.ScrollTo(s.logTop, 0)
	s.logHeader.SetText(fmt.Sprintf("── log: %d lines back · PgDn forward ", max(back, 0)) + strings.Repeat("─", 60))
}

// Keys returns the key tables of the screen: the board's, the game's and
// the review's, for the help screen.
func (s *GameScreen) Keys() (board, play, review KeyTable) {
	return s.board.Keys(), s.playKeys, s.reviewKeys
}

// Model returns the screen's model.
func (s *GameScreen) Model() *GameModel { return s.model }

// Tick redraws the clocks at now and reports whether the bell should ring:
// the local player's clock entered its last 10 s (CLK-D12).
func (s *GameScreen) Tick(now time.Time) (bell bool) {
	warn := clockWarnsMe(s.model, now)
	bell = warn && !s.clockWarned
	s.clockWarned = warn
	s.render()
	return bell
}

// Board returns the board widget.
func (s *GameScreen) Board() *Board { return s.board }

// SetSaveDir sets the directory the record is written to by default.
func (s *GameScreen) SetSaveDir(dir string) { s.saveDir = dir }

// Prefill writes what happened before into the log: for a resumed game,
// whose earlier events were not delivered, the transcript is replayed, up
// to what the record held when it was loaded (ResumedConn): the events of
// the messages after that come from the game.
func (s *GameScreen) Prefill() {
	t := s.conn.Transcript()
	if r, ok := s.conn.(ResumedConn); ok {
		t.Messages = t.Messages[:min(max(r.Loaded(), 0), len(t.Messages))]
	}
	m := protocol.NewMachine(t.Game)
	vs := s.variant // it keeps its count of the events (gomoku, Phantom Go)
	// The replay is of messages taken while connected: the connection's
	// state now is no part of it.
	view := s.model.View
	view.Adjourned = false
	model := NewGameModel(view, s.model.Opponent)
	model.petnames = s.model.petnames
	for i := range t.Messages {
		events, err := m.Apply(&t.Messages[i])
		if err != nil {
			break
		}
		for _, e := range events {
			model.Apply(vs, e, view)
		}
	}
	s.model.Log = append(model.Log, s.model.Log...)
	s.model.Last = model.Last
	s.model.played = append(model.played, s.model.played...)
	s.render()
}

// SetConnection shows the state of the connection to the opponent.
func (s *GameScreen) SetConnection(c ConnState) {
	s.model.Conn = &c
	s.render()
}

// Apply takes an event of the game and the view that follows it.
func (s *GameScreen) Apply(e protocol.Event, v protocol.View) {
	s.model.Apply(s.variant, e, v)
	switch e := e.(type) {
	case protocol.EventUndoRequested:
		if e.By != v.Role && !s.model.Over() {
			s.askUndo(e.Move, e.Moves)
		}
	case protocol.EventUndone, protocol.EventUndoDeclined:
		if s.undoDialog != nil && s.dialog == s.undoDialog {
			s.dialog = nil
		}
		s.undoDialog = nil
	}
	s.afterChange()
}

// adjourn asks the opponent to adjourn the game or, when the opponent
// asked, agrees (CLK-D13, UI-D34): both clocks then stop until the next
// move.
func (s *GameScreen) adjourn() {
	c, me := s.model.View.Clock, s.model.View.Role
	switch {
	case c == nil:
		s.model.Message = "this game has no clock: leave it (^Q) and it waits for you both"
	case c.Adjourned:
		s.model.Message = "the game is adjourned already: the clocks stopped until the next move"
	case c.AdjournAsked && c.AdjournBy == me:
		s.model.Message = "you asked to adjourn: waiting for the opponent to agree"
	case c.AdjournAsked:
		s.act(protocol.AcceptAdjourn{})
		return
	default:
		s.act(protocol.RequestAdjourn{})
		return
	}
	s.render()
}

// askUndo asks the player to answer the opponent's request to take back
// moves from move n on (UNDO-D1, UNDO-D3), naming their points: y lets
// it, n or Esc refuses.
func (s *GameScreen) askUndo(n, count int) {
	what, let := s.model.movesWords(n, count)+".", "y lets the move be taken back · n or Esc refuses"
	if count >= 2 {
		what = s.model.movesWords(n, count) + ":"
		what = fmt.Sprintf("%s\nits move and your answer.", what)
		let = "y lets both be taken back · n or Esc refuses"
	}
	d := newDialog("Undo", append([]string{s.model.OpponentLabel() + " asks to take back"},
		append(strings.Split(what, "\n"), "", let)...)...)
	d.handle = func(ev *tcell.EventKey) {
		switch {
		case ev.Key() == tcell.KeyRune && (ev.Rune() == 'y' || ev.Rune() == 'Y'):
			s.dialog, s.undoDialog = nil, nil
			s.act(protocol.AnswerUndo{Accept: true})
		case ev.Key() == tcell.KeyEsc || ev.Key() == tcell.KeyRune && (ev.Rune() == 'n' || ev.Rune() == 'N'):
			s.dialog, s.undoDialog = nil, nil
			s.act(protocol.AnswerUndo{Accept: false})
		}
	}
	s.dialog, s.undoDialog = d, d
}

// ActionDone takes the answer to an action and the view that follows it.
func (s *GameScreen) ActionDone(a protocol.Action, err error, v protocol.View) {
	s.model.ActionDone(a, err, v)
	s.afterChange()
}

// afterChange sends what the model says is due, starts the review when
// the game is over, and draws the model again.
func (s *GameScreen) afterChange() {
	if a := s.variant.due(s.model); a != nil {
		s.act(a)
	}
	if s.model.Over() {
		s.startReview()
	}
	s.render()
}

// command hands a command of the player to the variant and sends the
// action it returns. ^D shows the variant's question again if the player
// hid it.
func (s *GameScreen) command(c command) {
	if s.model.Over() {
		return
	}
	if c.kind == cmdConfirm && s.choiceHidden && s.choiceKey != "" {
		s.choiceHidden = false
		return
	}
	if s.askPass(c) {
		return
	}
	s.run(c)
}

// run carries out a command: the variant's action, sent.
func (s *GameScreen) run(c command) {
	a, err := s.variant.do(s.model, c)
	if err != nil {
		s.model.Message = err.Error()
		return
	}
	if a != nil {
		s.act(a)
	}
}

// Focus keeps the focus on the screen itself: it routes keys.
func (s *GameScreen) Focus(delegate func(p tview.Primitive)) { s.Flex.Box.Focus(delegate) }

// HasFocus reports whether the screen has the focus.
func (s *GameScreen) HasFocus() bool { return s.Flex.Box.HasFocus() }

// InputHandler routes the keys (UI-D8).
func (s *GameScreen) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return s.WrapInputHandler(func(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
		s.HandleKey(ev)
	})
}

// HandleKey handles one key.
func (s *GameScreen) HandleKey(ev *tcell.EventKey) {
	s.model.Message = ""
	switch {
	case s.dialog != nil:
		s.dialog.handle(ev)
	case s.chatting:
		s.chatKey(ev)
	case s.review != nil:
		if kb, ok := s.reviewKeys.Lookup(ev); ok {
			kb.Action()
		}
	default:
		if kb, ok := s.playKeys.Lookup(ev); ok {
			kb.Action()
		} else {
			s.board.InputHandler()(ev, func(tview.Primitive) {})
		}
	}
	s.render()
}

// MouseHandler gives mouse events on the board to the board during play.
func (s *GameScreen) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return s.WrapMouseHandler(func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		if !s.InRect(event.Position()) {
			return false, nil
		}
		if s.dialog == nil && !s.chatting && s.review == nil && s.board.InRect(event.Position()) {
			consumed, _ := s.board.MouseHandler()(action, event, func(tview.Primitive) {})
			s.render()
			return consumed, nil
		}
		return true, nil
	})
}

// Draw sizes the board for the screen (spacious when it fits beside a
// panel of panelMinWidth columns), draws, then draws the open dialog.
func (s *GameScreen) Draw(screen tcell.Screen) {
	_, _, w, _ := s.GetRect()
	n := s.model.Size()
	// One blank column after the board keeps its right-hand row numbers
	// (10–19) apart from the panel.
	compact, spacious := boardWidth(n, 2)+1, boardWidth(n, 4)+1
	bw := min(max(w-panelMinWidth, compact), spacious)
	s.body.ResizeItem(s.board, bw, 0)
	// The info panel takes the lines it needs, wrapped, leaving at least
	// six lines to the log, the chat and the chat line.
	pw := max(w-bw, 1)
	_, _, _, h := s.GetRect()
	need := 0
	for _, l := range s.infoLines {
		need += max(len(tview.WordWrap(l, pw)), 1)
	}
	s.side.ResizeItem(s.info, min(need, max(h-2-8, 1)), 0)
	// A message longer than the line wraps, up to three lines, so that
	// no error is cut at 80 columns.
	hint := 1
	if m := s.model.Message; m != "" {
		hint = min(max(len(tview.WordWrap(m, max(w, 1))), 1), 3)
	}
	s.Flex.ResizeItem(s.hints, hint, 0)
	s.Flex.Draw(screen)
	if s.dialog != nil {
		s.dialog.SetRect(s.GetRect())
		s.dialog.Draw(screen)
	}
}

// offerChoice opens the variant's question (chooser) in a dialog when it
// has one and no other dialog is open, and closes it when the question is
// gone.
func (s *GameScreen) offerChoice() {
	c, ok := s.variant.(chooser)
	if !ok {
		return
	}
	var question []string
	var answers []answer
	if s.review == nil && !s.model.Over() {
		question, answers = c.choices(s.model)
	}
	key := strings.Join(question, "\n")
	if len(answers) == 0 {
		if s.choiceOpen {
			s.dialog, s.choiceOpen = nil, false
		}
		s.choiceKey = ""
		return
	}
	if key != s.choiceKey {
		if s.choiceOpen {
			s.dialog, s.choiceOpen = nil, false
		}
		s.choiceKey, s.choiceHidden = key, false
	}
	if s.dialog != nil || s.choiceHidden || s.model.Local.Sending {
		return
	}
	lines := append(append([]string(nil), question...), "")
	for _, a := range answers {
		lines = append(lines, fmt.Sprintf("  %c  %s", a.Key, a.Text))
	}
	lines = append(lines, "", "Esc hides this, ^D shows it again")
	d := newDialog("Your move", lines...)
	d.handle = func(ev *tcell.EventKey) {
		if ev.Key() == tcell.KeyEsc {
			s.dialog, s.choiceOpen, s.choiceHidden = nil, false, true
			return
		}
		for _, a := range answers {
			if ev.Key() == tcell.KeyRune && ev.Rune() == a.Key {
				s.dialog, s.choiceOpen = nil, false
				s.model.Local.Sending = true
				s.act(a.Action)
				return
			}
		}
	}
	s.dialog, s.choiceOpen = d, true
}

// render writes the model into the widgets.
func (s *GameScreen) render() {
	s.offerChoice()
	m := s.model
	v := m.View
	title := DescribeOptions(v.Options)
	if c := m.Me(); c != engine.Empty {
		title += " · you: " + m.Name(c)
		if g := m.Glyph(c); g != m.Name(c) {
			title += " " + g
		}
	}
	title = " " + tview.Escape(title+" · vs "+m.OpponentLabel())
	if m.Adjourned {
		// The tags go around the escaped text, never through tview.Escape.
		title += " · [::b]connection lost[::-]"
	}
	s.title.SetText(title)

	var info []string
	if r := s.review; r != nil {
		s.board.SetModel(s.reviewBoard())
		info = append(info, "Result: "+DescribeOutcome(*v.Outcome, m.Me(), v.Options.Variant))
		if r.building && len(r.frames) == 0 {
			info = append(info, "Replay: reading the record…")
		}
		if len(r.frames) > 0 && r.at >= 0 {
			which := "your own view"
			if r.full {
				which = "the full view"
			}
			f := r.frames[r.at]
			at, _ := s.moveList()
			move := 0
			for i, fi := range at {
				if fi <= r.at {
					move = i
				}
			}
			try := ""
			if f.Try {
				try = ", an illegal try"
			}
			info = append(info, fmt.Sprintf("Replay %d/%d (%s%s): %s", move, len(at)-1, which, try, f.Caption))
		}
		if _, sc, ok := s.finalCount(); ok {
			info = append(info, countLines(sc, v.Options.Variant)...)
		}
	} else {
		s.board.SetModel(s.variant.board(m))
	}
	if (v.Phase == protocol.PhaseToss || v.Phase == protocol.PhaseAnswer) && v.Options.Variant.Descriptor().Colors == engine.ColorsByChoice {
		info = append(info, tossLine(v.Options))
	}
	info = append(info, s.panel()...)
	info = append(info, ClockLines(m, time.Now())...)
	if m.Conn != nil {
		info = append(info, "Opponent's peer ID: "+m.Opponent, "Connection: "+m.Conn.String())
	}
	s.info.SetText(tview.Escape(strings.Join(info, "\n")))
	s.infoLines = info

	s.log.SetText(tview.Escape(strings.Join(m.Log, "\n")))
	s.placeLog()
	var chat []string
	for _, l := range v.Chat {
		// The opponent by name (and short peer ID, so that no name can
		// pass for "you" or another peer: UI-D30), not by colour.
		who := m.OpponentLabel()
		if l.From == v.Role {
			who = "you"
		}
		chat = append(chat, who+": "+l.Text)
	}
	s.chat.SetText(tview.Escape(strings.Join(chat, "\n"))).ScrollToEnd()

	switch {
	case m.Message != "":
		s.hints.SetText("[red::b]" + tview.Escape(m.Message))
	case s.chatting:
		s.hints.SetText(" Enter sends · Esc or Tab back to the board")
	case s.review != nil:
		s.hints.SetText(" ←→ moves · Home End · v own/full view · w write record · q leave · ? help")
	default:
		s.hints.SetText(" Enter play · p Enter pass · ^R resign · Tab chat · ^Q leave · ? help")
	}
}

// SetQueue sets the function that runs a function on the application's
// goroutine (QueueUpdateDraw); without one, the replay is built at once.
func (s *GameScreen) SetQueue(queue func(func())) { s.queue = queue }

// panel returns the variant's lines of the side panel: of the game as it
// stands, or in the replay of the position shown (captures, turn), as far
// as the public view of that position tells them; the end's lines where
// the position's view tells nothing.
func (s *GameScreen) panel() []string {
	r := s.review
	if r == nil || len(r.frames) == 0 || r.at < 0 || r.variant == nil || r.at == len(r.frames)-1 {
		return s.variant.panel(s.model)
	}
	at := *s.model
	at.View.Variant = r.frames[r.at].Public
	if lines := r.variant.panel(&at); len(lines) > 0 {
		return lines
	}
	return s.variant.panel(s.model)
}

// scrolledLogTop returns a log's first row shown after scrolling it back
// by pages pages (forward if negative) of a view h rows high, from top
// (-1: following its end) among rows rows; -1 once it reaches the end.
func scrolledLogTop(top, rows, h, pages int) int {
	if top < 0 {
		top = max(rows-h, 0)
	}
	top -= pages * max(h-1, 1)
	if top >= rows-h {
		return -1
	}
	return max(top, 0)
}
