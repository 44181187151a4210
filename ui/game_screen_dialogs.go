package ui

// The game screen's dialogs: questions (resign, leave, undo, adjourn),
// the reveal, help, estimate and rules texts, chat input, and saving the
// record. Moved from game_screen.go.
import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/mattn/go-runewidth"
	"github.com/rivo/tview"
)

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
