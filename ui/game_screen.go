package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/mattn/go-runewidth"
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
	Both: '&',
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
		{Key: "Ctrl-K", Name: "undo", Help: "ask to take back your last move (plain Go, Bridge Go)", Action: func() { s.act(protocol.RequestUndo{}) }},
		{Key: "Ctrl-O", Name: "adjourn", Help: "ask to adjourn, or agree when asked (clocks stop)", Action: s.adjourn},
		{Key: "Ctrl-Q", Name: "leave", Help: "leave the game; it stays saved (asks first)", Action: s.askLeave},
		{Key: "Ctrl-T", Name: "rules", Help: "the rules of this game", Action: s.showRules},
		{Key: "Ctrl-E", Name: "estimate", Help: "estimate the score as the board stands (plain Go, F-Go)", Action: s.showEstimate},
		{Key: "PgUp", Name: "log back", Help: "scroll the log back a page", Action: func() { s.scrollLog(1) }},
		{Key: "PgDn", Name: "log forward", Help: "scroll forward; at the end the log follows play", Action: func() { s.scrollLog(-1) }},
	}
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

// scrollLog scrolls the log back (pages > 0) or forward by pages of its
// height; back at the end, the log follows the game again.
func (s *GameScreen) scrollLog(pages int) {
	_, _, _, h := s.log.GetInnerRect()
	page := max(h-1, 1)
	total := s.log.GetWrappedLineCount()
	top := max(total-h, 0)
	if s.logTop >= 0 {
		top = s.logTop
	}
	top -= pages * page
	if top >= total-h {
		s.logTop = -1
	} else {
		s.logTop = max(top, 0)
	}
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
	// Only counted once the player scrolled: counting wrapped lines
	// before the first draw would fix the wrapping at width 0.
	_, _, _, h := s.log.GetInnerRect()
	back := s.log.GetWrappedLineCount() - h - s.logTop
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
// whose earlier events were not delivered, the transcript is replayed.
func (s *GameScreen) Prefill() {
	t := s.conn.Transcript()
	m := protocol.NewMachine(t.Game)
	vs := s.variant // it keeps its count of the events (gomoku, Phantom Go)
	model := NewGameModel(s.model.View, s.model.Opponent)
	for i := range t.Messages {
		events, err := m.Apply(&t.Messages[i])
		if err != nil {
			break
		}
		for _, e := range events {
			model.Apply(vs, e, s.model.View)
		}
	}
	s.model.Log = append(model.Log, s.model.Log...)
	s.model.Last = model.Last
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
			s.askUndo(e.Move)
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
// move n (UNDO-D1): y lets it, n or Esc refuses.
func (s *GameScreen) askUndo(n int) {
	d := newDialog("Undo", fmt.Sprintf("%s asks to take back move %d.", s.model.OpponentLabel(), n), "",
		"y lets the move be taken back · n or Esc refuses")
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
			info = append(info, countLines(sc)...)
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
		who := m.RoleName(l.From)
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

// startChat gives the keys to the chat line.
func (s *GameScreen) startChat() {
	s.chatting = true
	s.input.Focus(func(tview.Primitive) {})
}

// chatKey handles a key while chatting.
func (s *GameScreen) chatKey(ev *tcell.EventKey) {
	switch ev.Key() {
	case tcell.KeyEsc, tcell.KeyTab:
		s.chatting = false
		s.input.Blur()
	case tcell.KeyEnter:
		text := strings.TrimSpace(s.input.GetText())
		if text == "" {
			return
		}
		if len(text) > protocol.MaxChatLength {
			s.model.Message = fmt.Sprintf("a chat line holds at most %d bytes", protocol.MaxChatLength)
			return
		}
		s.input.SetText("")
		s.act(protocol.Chat{Text: text})
	default:
		s.input.InputHandler()(ev, func(tview.Primitive) {})
	}
}

// ask opens a yes-or-no dialog: y runs yes, n or Esc closes it.
func (s *GameScreen) ask(title string, lines []string, yes func()) {
	d := newDialog(title, lines...)
	d.handle = func(ev *tcell.EventKey) {
		switch {
		case ev.Key() == tcell.KeyRune && (ev.Rune() == 'y' || ev.Rune() == 'Y'):
			s.dialog = nil
			yes()
		case ev.Key() == tcell.KeyEsc || ev.Key() == tcell.KeyRune && (ev.Rune() == 'n' || ev.Rune() == 'N'):
			s.dialog = nil
		}
	}
	s.dialog = d
}

func (s *GameScreen) askResign() {
	if s.model.View.Phase != protocol.PhasePlay {
		s.model.Message = "there is no game in play to resign"
		return
	}
	s.ask("Resign", []string{"Resign this game? You lose it.", "", "y resigns · n or Esc keeps playing"},
		func() { s.act(protocol.Resign{}) })
}

func (s *GameScreen) askLeave() {
	s.ask("Leave", []string{"Leave this game? It stays saved: the lobby",
		"resumes it when you and the opponent are back.", "", "y leaves · n or Esc stays"}, s.doLeave)
}

func (s *GameScreen) doLeave() {
	if s.leave != nil {
		s.leave()
	}
}

// showReveal opens the list of the hidden moves the player may reveal.
func (s *GameScreen) showReveal() {
	r, ok := s.variant.(revealer)
	if !ok {
		s.model.Message = "this variant has no hidden moves to reveal"
		return
	}
	cards := r.revealable(s.model)
	if len(cards) == 0 {
		s.model.Message = "no hidden move can be revealed now"
		return
	}
	lines := []string{"Reveal which hidden move?"}
	for _, c := range cards {
		lines = append(lines, fmt.Sprintf("  %d  %s", c.Card+1, s.model.Vertex(c.Point)))
	}
	// A reveal cannot be taken back: a number chooses, Enter confirms, and
	// a bare Enter reveals nothing (issue 20, bug 10).
	lines = append(lines, "", "its number, then Enter · Esc cancels")
	d := newDialog("Reveal", lines...)
	chosen := -1
	d.handle = func(ev *tcell.EventKey) {
		switch {
		case ev.Key() == tcell.KeyEsc:
			s.dialog = nil
		case ev.Key() == tcell.KeyEnter && chosen >= 0:
			s.dialog = nil
			s.command(command{kind: cmdReveal, card: chosen})
		case ev.Key() == tcell.KeyRune && ev.Rune() >= '1' && ev.Rune() <= '9':
			card := int(ev.Rune() - '1')
			for _, c := range cards {
				if c.Card == card {
					chosen = card
					d.lines[len(d.lines)-1] = fmt.Sprintf("reveal %d at %s: Enter confirms · another number · Esc cancels", card+1, s.model.Vertex(c.Point))
				}
			}
		}
	}
	s.dialog = d
}

// showHelp opens the help: the key tables that handle the keys.
func (s *GameScreen) showHelp() {
	text := "Board\n" + s.board.Keys().Help() + "\nGame\n" + s.playKeys.Help() +
		"\nAfter the game\n" + s.reviewKeys.Help()
	s.dialog = helpDialog(text, func() { s.dialog = nil })
}

// showEstimate shows the score estimate of a public board on request
// (UI-D35), or says why there is none.
func (s *GameScreen) showEstimate() {
	e, ok := s.variant.(estimator)
	if !ok {
		s.model.Message = "No estimate here: in a hidden variant it would need the stones you cannot see."
		return
	}
	sc, ok := e.estimate(s.model.View)
	if !ok {
		s.model.Message = "No estimate: the board is not known yet."
		return
	}
	lines := append([]string{
		"The board as it stands: every stone counts as alive,",
		"an empty point for the colour whose stones are nearer.",
		"Dead stones are not guessed; the count at the end decides.",
		"",
	}, estimateLines(sc)...)
	s.dialog = textDialog("Score estimate — Esc closes", strings.Join(lines, "\n"), func() { s.dialog = nil })
}

// showRules opens the rules of this game.
func (s *GameScreen) showRules() {
	s.dialog = rulesDialog(s.model.View.Options, func() { s.dialog = nil })
}

// helpDialog returns a dialog that shows text, scrolls with the arrow
// keys and closes with Esc, q or ?.
func helpDialog(text string, closeIt func()) *dialog {
	return textDialog("Keys — Esc closes, ↑↓ scroll", text, closeIt)
}

// rulesDialog returns a dialog that shows the rules of the game with
// options o (RulesText), scrolls and closes as helpDialog.
func rulesDialog(o engine.Options, closeIt func()) *dialog {
	return textDialog("Rules — Esc closes, ↑↓ PgUp PgDn scroll", RulesText(o), closeIt)
}

// textDialog returns a dialog that shows text under title, scrolls with
// the arrow keys and closes with Esc, q or ?.
func textDialog(title, text string, closeIt func()) *dialog {
	tv := tview.NewTextView().SetText(text).SetWrap(false)
	tv.SetBackgroundColor(tcell.ColorDefault)
	d := newDialog(title)
	d.body = tv
	lines := strings.Split(text, "\n")
	for _, l := range lines {
		d.width = max(d.width, runewidth.StringWidth(l)+4)
	}
	d.height = len(lines) + 2
	d.handle = func(ev *tcell.EventKey) {
		switch {
		case ev.Key() == tcell.KeyEsc, ev.Key() == tcell.KeyRune && (ev.Rune() == 'q' || ev.Rune() == '?'):
			closeIt()
		default:
			tv.InputHandler()(ev, func(tview.Primitive) {})
		}
	}
	return d
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

// SetQueue sets the function that runs a function on the application's
// goroutine (QueueUpdateDraw); without one, the replay is built at once.
func (s *GameScreen) SetQueue(queue func(func())) { s.queue = queue }

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

// moveList returns the replay's moves: the index of each position that is
// a move, and its line for the list (number and caption).
func (s *GameScreen) moveList() (at []int, lines []string) {
	r := s.review
	n := 0
	for i, f := range r.frames {
		if f.Try {
			continue
		}
		at = append(at, i)
		if i == 0 {
			lines = append(lines, "   start")
			continue
		}
		n++
		lines = append(lines, fmt.Sprintf("%3d  %s", n, f.Caption))
	}
	return at, lines
}

// showMoves opens the list of the game's moves: ↑↓ choose, Enter jumps to
// the move, Esc closes.
func (s *GameScreen) showMoves() {
	r := s.review
	if r == nil || len(r.frames) == 0 {
		s.model.Message = "the replay is still being read"
		return
	}
	at, lines := s.moveList()
	list := tview.NewList().ShowSecondaryText(false).SetHighlightFullLine(true).SetSelectedStyle(chosenStyle)
	list.SetBackgroundColor(tcell.ColorDefault)
	current := 0
	for i, line := range lines {
		list.AddItem(tview.Escape(line), "", 0, nil)
		if at[i] <= r.at {
			current = i
		}
	}
	list.SetCurrentItem(current)
	d := newDialog("Moves — ↑↓ choose, Enter jumps, Esc closes")
	d.body, d.width, d.height = list, 60, min(len(lines), 20)+2
	d.handle = func(ev *tcell.EventKey) {
		switch ev.Key() {
		case tcell.KeyEsc:
			s.dialog = nil
		case tcell.KeyEnter:
			r.at = at[list.GetCurrentItem()]
			s.dialog = nil
		default:
			list.InputHandler()(ev, func(tview.Primitive) {})
		}
	}
	s.dialog = d
}

func (s *GameScreen) stepReview(d int) {
	r := s.review
	r.at = min(max(r.at+d, 0), max(len(r.frames)-1, 0))
}

func (s *GameScreen) toggleView() { s.review.full = !s.review.full }

// askSave asks where to write the record and writes it with its SGF.
func (s *GameScreen) askSave() {
	v := s.model.View
	id := s.conn.ID().String()
	if len(id) > 8 {
		id = id[:8]
	}
	def := filepath.Join(s.saveDir, fmt.Sprintf("kakure-%s-%s.record.json", v.Options.Variant, id))
	field := tview.NewInputField().SetText(def).SetFieldBackgroundColor(tcell.ColorDefault)
	field.SetBackgroundColor(tcell.ColorDefault)
	field.Focus(func(tview.Primitive) {})
	d := newDialog("Write the record", "The record (and its SGF beside it) goes to:")
	d.body, d.bodyHeight, d.width = field, 1, 76
	d.footer = []string{"", "Enter writes · Esc cancels"}
	d.handle = func(ev *tcell.EventKey) {
		switch ev.Key() {
		case tcell.KeyEsc:
			s.dialog = nil
		case tcell.KeyEnter:
			s.dialog = nil
			path := strings.TrimSpace(field.GetText())
			if dir := filepath.Dir(path); path != "" {
				if err := os.MkdirAll(dir, 0o700); err != nil {
					s.model.Message = "not written: " + friendlyError(err)
					return
				}
			}
			sgfPath, err := SaveRecord(s.conn.Transcript(), path)
			if err != nil {
				s.model.Message = "not written: " + friendlyError(err)
				return
			}
			s.model.Log = append(s.model.Log, fmt.Sprintf("Wrote %s and %s.", path, sgfPath))
		default:
			field.InputHandler()(ev, func(tview.Primitive) {})
		}
	}
	s.dialog = d
}
