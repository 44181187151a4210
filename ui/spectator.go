package ui

// The spectator screen of `kakure watch` (issue 36, SPEC-3, SPEC-4,
// UI-D48): the public board of a watched game, live, its players and
// clocks, the log of every public event with how far it was checked, the
// review by move, and after the end the whole game from the record with
// kakure verify's verdict.
import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/rivo/tview"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/watch"
)

// SpectatorState is what a spectator screen shows of a watched game's
// state, copied out of the watch's spectator (SpectatorStateOf) so that
// the screen reads it on the application's goroutine.
type SpectatorState struct {
	Publisher peer.ID
	Game      protocol.GameID
	// Peers are the players' peer IDs by role, once the invitation came.
	Peers     [2]protocol.PeerID
	HavePeers bool
	// Messages are the messages the spectator's replay of the rules took,
	// all published whole; Live is false once a message was withheld
	// (then Messages are those before it: SPEC-D1).
	Messages []protocol.Message
	Live     bool
	// Clock is the game's clocks as the replay knows them (nil without).
	Clock *protocol.ClockView
	// Announcements are Phantom Go's public announcements by try.
	Announcements map[uint64]string
	// Record is the game's record once it came and was checked; Done and
	// OK as watch.Spectator.Done says.
	Record   *protocol.Transcript
	Done, OK bool
}

// SpectatorStateOf copies the state of s. Call it inside
// watch.Watch.Spectator.
func SpectatorStateOf(publisher peer.ID, s *watch.Spectator) SpectatorState {
	st := SpectatorState{Publisher: publisher, Game: s.Game(), Announcements: s.Announcements(), Record: s.Record()}
	st.Peers, st.HavePeers = s.Peers()
	st.Done, st.OK = s.Done()
	if m := s.Machine(); m != nil {
		st.Live = true
		st.Messages = m.History()
		if c, ok := m.Clock(); ok {
			st.Clock = &c
		}
	}
	return st
}

// SpectatorScreen is the screen of a watched game. It is fed the
// watch's lines and states (Take) and used from the application's
// goroutine only, as every tview primitive.
type SpectatorScreen struct {
	*tview.Flex
	title, info, log, hints *tview.TextView
	board                   *Board
	body, side              *tview.Flex
	keys                    KeyTable
	dialog                  *dialog
	onQuit                  func()
	now                     func() time.Time
	// petnames is the player's petname book (UI-D33) the players'
	// labels take; nil outside an App (kakure watch).
	petnames *petnameBook

	lines []watch.Line
	state SpectatorState
	// messages are the whole messages last seen while the replay was
	// live: kept when a withheld message stops it.
	messages []protocol.Message
	// frames are the board's positions: from messages during the game,
	// from the record after its end (ended); built is how many messages
	// they come from.
	frames []Frame
	vs     variantScreen
	final  protocol.View
	colors [2]engine.Color
	built  int
	ended  bool
	// at is the position shown; -1 follows the game.
	at int
	// clockSince is when the newest message came: the running clock
	// runs from then.
	clockSince time.Time
	// logTop is the first log row shown; -1 follows the log.
	logTop int
}

// NewSpectatorScreen returns the screen of a watch of publisher's games;
// quit is called on q.
func NewSpectatorScreen(publisher peer.ID, quit func()) *SpectatorScreen {
	s := &SpectatorScreen{Flex: tview.NewFlex().SetDirection(tview.FlexRow), board: NewBoard(), onQuit: quit,
		now: time.Now, at: -1, logTop: -1, built: -1}
	s.state.Publisher = publisher
	text := func() *tview.TextView {
		t := tview.NewTextView().SetDynamicColors(true).SetWrap(true).SetWordWrap(true)
		t.SetBackgroundColor(tcell.ColorDefault)
		return t
	}
	s.title, s.info, s.log, s.hints = text(), text(), text(), text()
	s.side = tview.NewFlex().SetDirection(tview.FlexRow).
		AddItem(s.info, 6, 0, false).
		AddItem(header("public events"), 1, 0, false).
		AddItem(s.log, 0, 1, false)
	s.body = tview.NewFlex().AddItem(s.board, 0, 1, false).AddItem(s.side, 0, 1, false)
	s.Flex.AddItem(s.title, 1, 0, false).AddItem(s.body, 0, 1, false).AddItem(s.hints, 1, 0, false)
	s.keys = s.makeKeys()
	s.render()
	return s
}

// makeKeys is the spectator screen's key table: the game screen's review
// keys where they apply (UI-D48).
func (s *SpectatorScreen) makeKeys() KeyTable {
	step := func(d int, tries bool) func() { return func() { s.step(d, tries) } }
	return KeyTable{
		{Key: "Left", Name: "back", Help: "one move back", Action: step(-1, false)},
		{Key: "h", Name: "back", Action: step(-1, false)},
		{Key: "Right", Name: "forward", Help: "one move forward", Action: step(1, false)},
		{Key: "l", Name: "forward", Action: step(1, false)},
		{Key: ",", Name: "try back", Help: "one position back, illegal tries too (Phantom Go)", Action: step(-1, true)},
		{Key: ".", Name: "try forward", Help: "one position forward, illegal tries too", Action: step(1, true)},
		{Key: "g", Name: "moves", Help: "the list of moves: jump to any", Action: s.showMoves},
		{Key: "Home", Name: "start", Help: "the start of the game", Action: func() { s.at = 0 }},
		{Key: "End", Name: "end", Help: "the latest position: the board follows the game again", Action: func() { s.at = -1 }},
		{Key: "PgUp", Name: "log back", Help: "scroll the log back a page", Action: func() { s.scrollLog(1) }},
		{Key: "PgDn", Name: "log forward", Help: "scroll forward; at the end the log follows the game", Action: func() { s.scrollLog(-1) }},
		{Key: "Ctrl-T", Name: "rules", Help: "the rules of this game", Action: s.showRules},
		{Key: "?", Name: "help", Help: "show the keys and the marks", Action: s.showHelp},
		{Key: "q", Name: "quit", Help: "stop watching", Action: s.quit},
		{Key: "Ctrl-Q", Name: "quit", Action: s.quit},
	}
}

// spectatorMarks explains the log's marks (SPEC-3) in the help.
const spectatorMarks = `Marks of the log
  [verified]      signed by its player, in sequence, chained, and taken by the rules
  [signed]        signed, in sequence and chained; the rules could not be run
                  on it (a message before it was withheld)
  [not verified]  not checked yet (a withheld message's header, a Phantom Go
                  announcement): the record at the end checks it
  [REFUSED]       a publication refused, and why: it changed nothing shown
  [verdict]       the checks of the record at the end, and kakure verify's verdict

The board shows what the rules make public: every stone in plain Go and
Bridge Go, the visible stones in Hidden Move Go, the announcements in Phantom
Go (the stones they say were captured are highlighted; no hidden stone). After
the end the board replays the whole game from the checked record.
`

func (s *SpectatorScreen) showHelp() {
	s.dialog = helpDialog("Keys\n"+s.keys.Help()+"\n"+spectatorMarks, func() { s.dialog = nil })
}

// showMoves opens the list of the positions, as the game screen's replay
// does.
func (s *SpectatorScreen) showMoves() {
	if len(s.frames) == 0 {
		return
	}
	s.dialog = movesDialog(listEntriesOf(s.frames), s.shown(), func(at int) {
		s.at = at
		if at == len(s.frames)-1 {
			s.at = -1
		}
	}, func() { s.dialog = nil })
}

func (s *SpectatorScreen) showRules() {
	if s.final.Options.Size == 0 {
		return
	}
	s.dialog = rulesDialog(s.final.Options, func() { s.dialog = nil })
}

func (s *SpectatorScreen) quit() {
	if s.onQuit != nil {
		s.onQuit()
	}
}

// Board returns the board widget (for tests).
func (s *SpectatorScreen) Board() *Board { return s.board }

// SetClock sets the function that tells the time the clocks show (for
// tests).
func (s *SpectatorScreen) SetClock(now func() time.Time) { s.now = now }

// Take shows lines the watch gave and the spectator's state after them.
func (s *SpectatorScreen) Take(lines []watch.Line, st SpectatorState) {
	s.lines = append(s.lines, lines...)
	s.state = st
	if st.Live || len(s.messages) == 0 {
		if len(st.Messages) != len(s.messages) {
			// The running clock counts from the message that started
			// it, as this spectator took it.
			s.clockSince = s.now()
		}
		s.messages = st.Messages
	}
	s.rebuild()
	s.render()
}

// rebuild builds the board's positions again when there are more
// messages, or the record came.
func (s *SpectatorScreen) rebuild() {
	st := s.state
	switch {
	case st.Record != nil && st.Done && !s.ended:
		s.final, s.colors = spectatorView(st.Record.Messages, st.Clock)
		s.frames, s.vs = buildFrames(st.Record, s.final)
		s.ended, s.built = true, len(st.Record.Messages)
	case !s.ended && len(s.messages) != s.built:
		s.final, s.colors = spectatorView(s.messages, st.Clock)
		t := &protocol.Transcript{Game: st.Game, Peers: st.Peers, Messages: s.messages}
		s.frames, s.vs = buildFrames(t, s.final)
		s.built = len(s.messages)
	}
	if s.at >= len(s.frames) {
		s.at = -1
	}
}

// spectatorView is a spectator's view of a game whose messages are ms:
// the public view of the rules' replay, no colour of its own (the
// inviter's stands in where a variant's view needs one); and the
// players' colours by role once the toss gave them.
func spectatorView(ms []protocol.Message, clock *protocol.ClockView) (protocol.View, [2]engine.Color) {
	m := protocol.NewMachine(protocol.GameID{})
	if len(ms) > 0 {
		m = protocol.NewMachine(ms[0].Game)
	}
	for i := range ms {
		if _, err := m.Apply(&ms[i]); err != nil {
			break
		}
	}
	color := m.Colors[protocol.Inviter]
	if color == engine.Empty {
		color = engine.Black
	}
	v := protocol.View{Role: protocol.Inviter, Color: color, Options: m.Options, Phase: m.Phase,
		Variant: m.PublicView(protocol.Inviter), Names: m.Names, Clock: clock}
	if m.Outcome != nil {
		o := *m.Outcome
		v.Outcome = &o
	}
	if c, ok := m.Clock(); ok && clock == nil {
		v.Clock = &c
	}
	return v, m.Colors
}

// shown returns the index of the position shown.
func (s *SpectatorScreen) shown() int {
	if s.at < 0 || s.at >= len(s.frames) {
		return len(s.frames) - 1
	}
	return s.at
}

// step steps the board by d positions: by moves (over Phantom Go's
// illegal tries) unless tries.
func (s *SpectatorScreen) step(d int, tries bool) {
	if len(s.frames) == 0 {
		return
	}
	at := s.shown()
	for {
		next := at + d
		if next < 0 || next >= len(s.frames) {
			break
		}
		at = next
		if tries || !s.frames[at].Try {
			break
		}
	}
	s.at = at
	if at == len(s.frames)-1 && d > 0 {
		s.at = -1 // at the end again: follow the game
	}
}

// capturedNamed returns the points the public announcements say were
// captured (Phantom Go under the common rules names them, SPEC-1).
func capturedNamed(size int, announcements map[uint64]string) []engine.Point {
	var points []engine.Point
	for _, text := range announcements {
		_, rest, ok := strings.Cut(text, "has captured ")
		if !ok {
			continue
		}
		rest, _, _ = strings.Cut(rest, ";")
		if ps, err := engine.ParseVertexList(size, strings.TrimSpace(rest)); err == nil {
			points = append(points, ps...)
		}
	}
	return points
}

// boardModel returns the board of the position shown: the replay's
// position, or while the rules cannot be replayed (Phantom Go) the
// board the announcements name.
func (s *SpectatorScreen) boardModel() BoardModel {
	size := s.final.Options.Size
	if size == 0 {
		size = engine.MaxSize
	}
	if !s.ended && !s.state.Live && s.state.HavePeers {
		return NewBoardModel(size, engine.Empty).With(MarkHighlight, capturedNamed(size, s.state.Announcements)...)
	}
	if len(s.frames) == 0 || s.vs == nil {
		return NewBoardModel(size, engine.Empty)
	}
	f := s.frames[s.shown()]
	return s.vs.replayBoard(f, s.final, s.ended).With(MarkHighlight, f.Effect...)
}

// maxLogLine is the most runes of a log line the screen shows of a
// public event.
const maxLogLine = 72

// render writes the screen's texts from its state.
func (s *SpectatorScreen) render() {
	s.board.SetModel(s.boardModel())
	if s.final.Options.Size > 0 && !s.final.Options.Variant.Descriptor().Stones {
		s.board.SetGlyphs(GomokuGlyphs)
	}
	st := s.state
	var title string
	switch {
	case st.Game == (protocol.GameID{}):
		title = "Watching the next game of " + ShortPeer(st.Publisher.String())
	default:
		title = "Watching " + VariantName(s.final.Options.Variant) + " · game " + st.Game.String()[:8]
	}
	switch {
	case st.Done && st.OK:
		title += " · over: the record checked"
	case st.Done:
		title += " · over: [red]the record did not check[-]"
	case s.final.Outcome != nil:
		title += " · over: waiting for the record"
	case !st.Live && st.HavePeers:
		title += " · live: the public part"
	}
	s.title.SetText(title)
	s.info.SetText(strings.Join(s.infoLines(), "\n"))
	var log strings.Builder
	for i, l := range s.lines {
		if i > 0 {
			log.WriteByte('\n')
		}
		line := l.String()
		if r := []rune(line); l.Status != watch.Refused && l.Status != watch.Verdict && len(r) > maxLogLine {
			// A message's body is cut (the text output keeps it
			// whole); a refusal and the verdict are not.
			line = string(r[:maxLogLine-1]) + "…"
		}
		text := tview.Escape(line)
		switch l.Status {
		case watch.Refused:
			text = "[red]" + text + "[-]"
		case watch.Verdict:
			text = "[::b]" + text + "[::-]"
		}
		log.WriteString(text)
	}
	s.log.SetText(log.String())
	if s.logTop < 0 {
		s.log.ScrollToEnd()
	} else {
		s.log.ScrollTo(s.logTop, 0)
	}
	hint := "←→ moves · Home End · ? help · q quit"
	if len(s.frames) > 0 {
		hint = fmt.Sprintf("position %d of %d · ", s.shown()+1, len(s.frames)) + hint
		if s.at >= 0 {
			hint = "reviewing · End follows the game · " + hint
		}
	}
	s.hints.SetText(hint)
}

// infoLines are the side panel's lines: the players, the position's
// words, the clocks, Hidden Move Go's hidden moves.
func (s *SpectatorScreen) infoLines() []string {
	st, v := s.state, s.final
	if !st.HavePeers {
		return []string{"Waiting for the game's invitation", "(a spectator sees a game from its start on: SPEC-D5)"}
	}
	var lines []string
	m := &GameModel{View: v}
	if st.Clock != nil {
		c := *st.Clock
		c.Since = s.clockSince
		m.View.Clock = &c
	}
	for _, r := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
		who := s.petnames.get().PeerLabel(SafeName(v.Names[r]), st.Peers[r].String())
		col := ""
		if v.Phase != protocol.PhaseInvite && v.Phase != protocol.PhaseAnswer && v.Phase != protocol.PhaseToss {
			if cc := s.colors[r]; cc != engine.Empty {
				col = stoneGlyph(cc) + " " + ColorName(v.Options.Variant, cc) + " "
			}
		}
		lines = append(lines, tview.Escape(fmt.Sprintf("%s%s (%s)", col, who, r)))
	}
	if len(s.frames) > 0 {
		if c := s.frames[s.shown()].Caption; c != "" {
			lines = append(lines, tview.Escape(c))
		}
	}
	if hv, ok := hmgViewOf(s.frameView()); ok && v.Options.Cards > 0 {
		var parts []string
		for _, c := range []engine.Color{engine.Black, engine.White} {
			hidden := 0
			for _, card := range hv.Game.Cards(c) {
				if !card.Revealed {
					hidden++
				}
			}
			parts = append(parts, fmt.Sprintf("%s %s", Name(c), hiddenMoves(hidden)))
		}
		lines = append(lines, "Hidden: "+strings.Join(parts, " · "))
	}
	if st.Live && !s.ended {
		lines = append(lines, ClockLines(m, s.now())...)
	}
	if v.Outcome != nil {
		lines = append(lines, tview.Escape(ResultString(v.Outcome.Result, v.Options.Variant)))
	}
	return lines
}

// frameView is the variant view of the position shown.
func (s *SpectatorScreen) frameView() protocol.VariantView {
	if len(s.frames) == 0 {
		return nil
	}
	return s.frames[s.shown()].Public
}

func (s *SpectatorScreen) scrollLog(pages int) {
	_, _, _, h := s.log.GetInnerRect()
	s.logTop = scrolledLogTop(s.logTop, strings.Count(s.log.GetText(false), "\n")+1, h, pages)
}

// InputHandler handles the keys.
func (s *SpectatorScreen) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return s.WrapInputHandler(func(ev *tcell.EventKey, _ func(p tview.Primitive)) { s.HandleKey(ev) })
}

// HandleKey handles one key.
func (s *SpectatorScreen) HandleKey(ev *tcell.EventKey) {
	if s.dialog != nil {
		s.dialog.handle(ev)
	} else if kb, ok := s.keys.Lookup(ev); ok {
		kb.Action()
	}
	s.render()
}

// Draw draws the screen, the board as wide as the game screen's.
func (s *SpectatorScreen) Draw(screen tcell.Screen) {
	_, _, w, h := s.GetRect()
	n := s.final.Options.Size
	if n == 0 {
		n = engine.MaxSize
	}
	compact, spacious := boardWidth(n, 2)+1, boardWidth(n, 4)+1
	bw := min(max(w-panelMinWidth, compact), spacious)
	s.body.ResizeItem(s.board, bw, 0)
	pw := max(w-bw, 1)
	need := 0
	for _, l := range strings.Split(s.info.GetText(false), "\n") {
		need += max(len(tview.WordWrap(l, pw)), 1)
	}
	s.side.ResizeItem(s.info, min(need, max(h-2-6, 1)), 0)
	s.render()
	s.Flex.Draw(screen)
	if s.dialog != nil {
		s.dialog.SetRect(s.GetRect())
		s.dialog.Draw(screen)
	}
}

// SpectatorApp runs a spectator screen on the terminal: `kakure watch`
// feeds it the watch's lines (Take) until its user quits.
type SpectatorApp struct {
	tv     *tview.Application
	screen *SpectatorScreen
}

// NewSpectatorApp returns the application of a watch of publisher's
// games, on screen (nil: the terminal).
func NewSpectatorApp(publisher peer.ID, screen tcell.Screen) *SpectatorApp {
	useTerminalColours()
	a := &SpectatorApp{tv: tview.NewApplication()}
	if screen == nil {
		// The terminal, as the game's application takes it (UI-D39);
		// tview makes tcell's own when this fails.
		if s, err := terminalScreen(); err == nil {
			screen = s
		}
	}
	if screen != nil {
		a.tv.SetScreen(screen)
	}
	a.screen = NewSpectatorScreen(publisher, a.Stop)
	a.tv.SetRoot(a.screen, true).SetFocus(a.screen)
	return a
}

// Screen returns the spectator screen.
func (a *SpectatorApp) Screen() *SpectatorScreen { return a.screen }

// Take shows lines and the state after them, from any goroutine.
func (a *SpectatorApp) Take(lines []watch.Line, st SpectatorState) {
	a.tv.QueueUpdateDraw(func() { a.screen.Take(lines, st) })
}

// Redraw draws the screen again (the clocks run), from any goroutine.
func (a *SpectatorApp) Redraw() { a.tv.QueueUpdateDraw(func() {}) }

// Run runs the application until Stop or q.
func (a *SpectatorApp) Run() error { return a.tv.Run() }

// Stop stops the application.
func (a *SpectatorApp) Stop() { a.tv.Stop() }
