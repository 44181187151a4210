package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/watch"
	"github.com/rivo/tview"
)

// lanRow is one row of the lobby's LAN list: a peer found on the LAN,
// or (game set) one of the games it plays now.
type lanRow struct {
	peer string
	game *watch.LiveGame
}

// LANPeer is a kakure peer found on the local network, or news of one:
// it left (Gone), or does not answer (Stale).
type LANPeer struct {
	ID    string
	Addrs []string
	// Stale means a dial to it failed since it was last heard of: it is
	// listed as not answering until it is heard of again.
	Stale bool
	// Gone means it left the LAN (its goodbye, or its record expired):
	// AddLANPeer drops it from the list.
	Gone bool
}

// LobbyModel is what the lobby shows: this peer, the peers on the LAN,
// the invitations waiting for an answer and a status line.
type LobbyModel struct {
	ID      string
	Addrs   []string
	LAN     []LANPeer
	Pending []*Invitation
	Status  string
	// Busy is true while an invitation of this peer waits for its answer.
	Busy bool
	// Unfinished are the saved games that are not over.
	Unfinished []SavedGame
	// Finished are the saved games that are over, listed after them.
	Finished []SavedGame
	// GamesLoading is true while the saved games are first read (the
	// application reads them off its goroutine: Phantom Go's records take
	// a while): ^G says so rather than "no saved game" (UI-D43).
	GamesLoading bool
	// Code is the state of the invite-code dialogs.
	Code CodeModel
	// Conns are the connections to other peers last measured, by peer
	// ID: the inviters and the host met by code.
	Conns map[string]ConnState
	// Internet is where this peer stands on the internet (DHT peers,
	// reachability, relay reservations: NetStatuses), shown under its
	// ID; empty when the network does not tell.
	Internet string
	// Live are the games the peers on the LAN play now, by peer ID, as
	// they listed them (SPEC-D14): listed under each peer, Enter watches
	// one.
	Live map[string][]watch.LiveGame
}

// AddLANPeer adds or refreshes a peer found on the LAN, marks it stale,
// or drops it when it is gone (NET-D25).
func (m *LobbyModel) AddLANPeer(p LANPeer) {
	for i := range m.LAN {
		if m.LAN[i].ID == p.ID {
			switch {
			case p.Gone:
				m.LAN = append(m.LAN[:i], m.LAN[i+1:]...)
				delete(m.Live, p.ID)
			case len(p.Addrs) == 0:
				m.LAN[i].Stale = p.Stale
			default:
				m.LAN[i] = p
			}
			return
		}
	}
	if !p.Gone {
		m.LAN = append(m.LAN, p)
	}
}

// Lobby is the screen where games start: this peer's ID and addresses
// (selectable text, and a key that writes them to a file), the peers found
// on the LAN, the invitations received, and the new-game form (the
// opponent and the variant with its options). Its owner is called back
// with the player's choices.
type Lobby struct {
	*tview.Flex
	model LobbyModel
	// variants are the variants the form offers: engine.Variants when the
	// lobby was made, in the descriptors' order.
	variants []engine.Variant
	// lag is the lag allowance of the command line (kakure play --lag),
	// which the form's games with a clock take (CLK-D7).
	lag time.Duration
	// lambda is Phantom Go's garblings per try of the command line
	// (kakure play --lambda, default 4; T-8(b)), which the form's Phantom
	// Go games take.
	lambda int
	// garbling is Phantom Go's garbling scheme of the command line
	// (kakure play --garbling; MPC-D26), which the form's Phantom Go
	// games take.
	garbling string
	// inputOT is the form of Phantom Go's input OTs of the command line
	// (kakure play --input-ot; MPC-D28), which the form's checked Phantom
	// Go games take.
	inputOT string
	// petnames is the player's petname book (UI-D33) the peers the lobby
	// lists take; nil outside an App.
	petnames *petnameBook

	me, invites, status, hints *tview.TextView
	lan, saved                 *tview.List
	form                       *tview.Form
	opponent, size, komi       *tview.InputField
	variant                    *tview.DropDown
	sides                      lobbySides
	// options are the fields of the variants' own options, made from
	// their descriptions, in the descriptors' order.
	options []optionField

	keys   KeyTable
	dialog *dialog
	// labels are the form's labels without the focus mark.
	labels map[tview.FormItem]string
	// meWidth is the width the lines of this peer were cut for.
	meWidth int
	// shownInvitation is the invitation the open dialog asks about.
	shownInvitation *Invitation
	// lanRows are the rows of the LAN list: a peer, or one of its live
	// games.
	lanRows []lanRow

	// OnInvite is called with the opponent field and the form's options.
	OnInvite func(peer string, o engine.Options)
	// OnBot is called to play the built-in bot with the form's options.
	OnBot func(o engine.Options)
	// OnCancel is called to stop waiting for the answer to an invitation.
	OnCancel func()
	// OnWriteAddrs writes this peer's addresses to a file and returns its
	// path.
	OnWriteAddrs func() (string, error)
	// OnQuit is called to quit the program.
	OnQuit func()
	// OnWatch is called to watch a live game of a peer on the LAN
	// (SPEC-D14).
	OnWatch func(peer string, game protocol.GameID)
	// OnResume is called to resume a saved game.
	OnResume func(id protocol.GameID)
	// OnOpen is called to replay a finished game.
	OnOpen func(id protocol.GameID)
	// OnHostCode is called to host a game with an invite code.
	OnHostCode func()
	// OnJoinCode is called with a code typed in the join dialog, in its
	// canonical form, and the form's options.
	OnJoinCode func(code string, o engine.Options)
	// OnCancelCode is called to withdraw the code hosted, to stop
	// joining, or to close the join dialog.
	OnCancelCode func()

	// codeField is the join dialog's field: it keeps what was typed
	// across errors. codeDialog is the open code dialog.
	codeField  *tview.InputField
	codeDialog *dialog
}

// NewLobby returns the lobby of the peer id reachable at addrs; the form
// starts with the options defaults.
func NewLobby(id string, addrs []string, defaults engine.Options) *Lobby {
	l := &Lobby{Flex: tview.NewFlex().SetDirection(tview.FlexRow), model: LobbyModel{ID: id, Addrs: addrs}}
	text := func() *tview.TextView {
		t := tview.NewTextView().SetDynamicColors(true).SetWrap(true).SetWordWrap(false)
		t.SetBackgroundColor(tcell.ColorDefault)
		return t
	}
	l.me, l.invites, l.status, l.hints = text(), text(), text(), text()
	l.invites.SetBorder(true).SetTitle(" Invitations ").SetTitleAlign(tview.AlignLeft)
	l.lan = tview.NewList().ShowSecondaryText(false).SetHighlightFullLine(true)
	l.lan.SetBorder(true).SetTitle(" Peers on the LAN (^P) ").SetTitleAlign(tview.AlignLeft)
	l.lan.SetBackgroundColor(tcell.ColorDefault)
	l.lan.SetSelectedStyle(chosenStyle)
	l.saved = tview.NewList().SetHighlightFullLine(true)
	l.saved.SetSecondaryTextStyle(tcell.StyleDefault.Dim(true))
	l.saved.SetBorder(true).SetTitle(" Games (^G) ").SetTitleAlign(tview.AlignLeft)
	l.saved.SetBackgroundColor(tcell.ColorDefault)
	l.saved.SetSelectedStyle(chosenStyle)
	l.saved.SetSelectedFunc(func(i int, _, _ string, _ rune) {
		switch n := len(l.model.Unfinished); {
		case i < n && l.OnResume != nil:
			l.OnResume(l.model.Unfinished[i].ID)
		case i >= n && i-n < len(l.model.Finished) && l.OnOpen != nil:
			l.OnOpen(l.model.Finished[i-n].ID)
		}
	})

	// No padding above and below the fields: at 80×24 the buttons row
	// (Invite, Play the bot) would be cut off (UI-D43).
	l.form = tview.NewForm().SetItemPadding(0).SetFieldBackgroundColor(tcell.ColorDefault)
	l.form.SetBorderPadding(0, 0, 1, 1)
	l.form.SetBorder(true).SetTitle(" New game ").SetTitleAlign(tview.AlignLeft)
	l.form.SetBackgroundColor(tcell.ColorDefault)
	l.form.SetButtonStyle(tcell.StyleDefault).SetButtonActivatedStyle(chosenStyle)
	field := func(label, placeholder string, width int) *tview.InputField {
		f := tview.NewInputField().SetLabel(label).SetFieldWidth(width).SetPlaceholder(placeholder)
		f.SetPlaceholderStyle(tcell.StyleDefault.Dim(true))
		return f
	}
	l.opponent = field("Opponent ", "multiaddr or peer ID", 0)
	l.opponent.SetDoneFunc(func(k tcell.Key) {
		if k == tcell.KeyEnter && strings.TrimSpace(l.opponent.GetText()) != "" {
			l.invite()
		}
	})
	l.size = field("Size ", "default", 8)
	l.komi = field("Komi ", "default", 8)
	l.variants = engine.Variants
	variants := make([]string, len(l.variants))
	for i, v := range l.variants {
		variants[i] = string(v) + " — " + VariantName(v)
	}
	l.variant = tview.NewDropDown().SetLabel("Variant ").SetOptions(variants, nil)
	l.variant.SetFocusedStyle(chosenStyle).SetListStyles(tcell.StyleDefault, chosenStyle)
	l.form.AddFormItem(l.opponent).AddFormItem(l.variant).AddFormItem(l.size).AddFormItem(l.komi)
	// Each option names the variant it is for; the form's options use
	// only the chosen variant's (disabling the others would move tview's
	// focus under the player's fingers).
	for _, d := range engine.Descriptors {
		for _, opt := range d.Options {
			f := newOptionField(opt, field)
			l.options = append(l.options, f)
			l.form.AddFormItem(f.item())
		}
	}
	l.form.AddButton("Invite", l.invite).AddButton("Play the bot", l.playBot)
	l.addSideFields()
	l.SetDefaults(defaults)
	// Enter on a peer found on the LAN invites it with the form's
	// options: its addresses came with it (mDNS), so its peer ID is
	// enough.
	// Enter on one of its live games watches it (SPEC-D14).
	l.lan.SetSelectedFunc(func(i int, _, _ string, _ rune) {
		if i >= len(l.lanRows) {
			return
		}
		switch r := l.lanRows[i]; {
		case r.game != nil:
			if l.OnWatch != nil {
				l.OnWatch(r.peer, r.game.Game)
			}
		default:
			l.opponent.SetText(r.peer)
			l.invite()
		}
	})

	side := tview.NewFlex().SetDirection(tview.FlexRow).
		AddItem(l.lan, 0, 1, false).AddItem(l.invites, 0, 1, false).AddItem(l.saved, 0, 1, false)
	middle := tview.NewFlex().AddItem(l.form, 0, 3, true).AddItem(side, 0, 2, false)
	title := text().SetText(" [::b]kakure[::-] — lobby")
	l.Flex.AddItem(title, 1, 0, false).AddItem(l.me, 4, 0, false).AddItem(middle, 0, 1, true).
		AddItem(l.status, 1, 0, false).AddItem(l.hints, 2, 0, false)
	l.keys = l.makeKeys()
	l.render()
	return l
}

// makeKeys is the lobby's key table; the form's own keys (Tab, Enter,
// arrows) work besides it.
func (l *Lobby) makeKeys() KeyTable {
	return KeyTable{
		{Key: "Tab", Name: "next", Help: "next field of the form (Shift-Tab: back)"},
		{Key: "Enter", Name: "invite", Help: "in the Opponent field: invite the peer with the form's options"},
		{Key: "Ctrl-O", Name: "host", Help: "host a game with an invite code, to read to a friend on the internet", Action: l.hostCode},
		{Key: "Ctrl-E", Name: "join", Help: "join with the code a friend reads to you (with the form's options)", Action: l.openJoin},
		{Key: "Ctrl-B", Name: "bot", Help: "play the built-in bot with the form's options", Action: l.playBot},
		{Key: "Ctrl-P", Name: "peers", Help: "choose a peer found on the LAN (Enter invites it with the form's options) or a game it plays (Enter watches it)", Action: l.focusLAN},
		{Key: "Ctrl-G", Name: "resume", Help: "choose a saved game: Enter resumes an unfinished one, replays a finished one", Action: l.focusLAN},
		{Key: "Ctrl-W", Name: "write", Help: "write your peer ID and addresses to a file, to send them", Action: l.writeAddrs},
		{Key: "Ctrl-X", Name: "cancel", Help: "stop waiting for the answer to your invitation", Action: l.cancel},
		{Key: "?", Name: "help", Help: "show the keys", Action: l.showHelp},
		{Key: "Ctrl-T", Name: "rules", Help: "the rules of the variant chosen in the form", Action: l.showRules},
		{Key: "Ctrl-Q", Name: "quit", Help: "quit kakure", Action: l.quit},
	}
}

// Keys returns the lobby's key table.
func (l *Lobby) Keys() KeyTable { return l.keys }

// Model returns what the lobby shows.
func (l *Lobby) Model() *LobbyModel { return &l.model }

func (l *Lobby) invite() {
	peer := strings.TrimSpace(l.opponent.GetText())
	if peer == "" {
		l.model.Status = "type the opponent's address (or choose a peer on the LAN, ^P) first"
		l.render()
		return
	}
	if l.model.Busy {
		l.model.Status = "already waiting for an answer (^X stops waiting)"
		l.render()
		return
	}
	o, err := l.Options()
	if err != nil {
		l.model.Status = err.Error()
		l.render()
		return
	}
	if l.OnInvite != nil {
		l.OnInvite(peer, o)
	}
}

// showRules opens the rules of the game the form describes.
func (l *Lobby) showRules() {
	o, err := l.Options()
	if err != nil {
		o = engine.Options{Variant: l.chosenVariant()}
	}
	if n, err := o.Normalize(); err == nil {
		o = n
	}
	l.dialog = rulesDialog(o, func() { l.dialog = nil })
}

func (l *Lobby) playBot() {
	o, err := l.Options()
	if err != nil {
		l.model.Status = err.Error()
		l.render()
		return
	}
	if l.OnBot != nil {
		l.OnBot(o)
	}
}

func (l *Lobby) cancel() {
	if l.model.Busy && l.OnCancel != nil {
		l.OnCancel()
	}
}

func (l *Lobby) quit() {
	if l.OnQuit != nil {
		l.OnQuit()
	}
}

// focusLAN stands in the key table for the keys that move the focus to a
// list (peers, resume), which HandleKey carries out itself: it needs the
// function that moves the focus.
func (l *Lobby) focusLAN() {}

func (l *Lobby) writeAddrs() {
	if l.OnWriteAddrs == nil {
		return
	}
	path, err := l.OnWriteAddrs()
	if err != nil {
		l.model.Status = "not written: " + err.Error()
	} else {
		l.model.Status = "Your ID and addresses are in " + path
	}
}

func (l *Lobby) showHelp() {
	l.dialog = helpDialog("Lobby\n"+l.keys.Help(), func() { l.dialog = nil })
}

// Render writes the model into the widgets; call it after changing the
// model.
func (l *Lobby) Render() { l.render() }

func (l *Lobby) render() {
	m := &l.model
	l.me.SetText(strings.Join(l.meLines(l.meWidth), "\n"))

	cur := l.lan.GetCurrentItem()
	l.lan.Clear()
	l.lanRows = l.lanRows[:0]
	for _, p := range m.LAN {
		addr := ""
		if len(p.Addrs) > 0 {
			addr = " " + p.Addrs[0]
		}
		if p.Stale {
			addr += " (not answering)"
		}
		l.lan.AddItem(tview.Escape(l.petnames.get().PeerShort(p.ID)+addr), "", 0, nil)
		l.lanRows = append(l.lanRows, lanRow{peer: p.ID})
		for i := range m.Live[p.ID] {
			g := &m.Live[p.ID][i]
			l.lan.AddItem(tview.Escape("  watch: "+DescribeLiveGame(*g, l.petnames.get())), "", 0, nil)
			l.lanRows = append(l.lanRows, lanRow{peer: p.ID, game: g})
		}
	}
	if cur < len(l.lanRows) {
		l.lan.SetCurrentItem(cur)
	}
	var inv []string
	for _, in := range m.Pending {
		left := time.Until(in.Deadline).Round(time.Second)
		inv = append(inv, fmt.Sprintf("%s: %s (%s left)", l.petnames.get().PeerLabel(in.Name, in.From), DescribeOptions(in.Options), left))
	}
	if len(inv) == 0 {
		inv = []string{"none"}
	}
	l.invites.SetText(tview.Escape(strings.Join(inv, "\n")))
	cur = l.saved.GetCurrentItem()
	l.saved.Clear()
	for _, g := range m.Unfinished {
		l.saved.AddItem(tview.Escape(g.Title(l.petnames.get())), " "+tview.Escape(g.Progress()), 0, nil)
	}
	for _, g := range m.Finished {
		l.saved.AddItem(tview.Escape(g.Title(l.petnames.get())), " "+tview.Escape(g.Progress()), 0, nil)
	}
	if cur < len(m.Unfinished)+len(m.Finished) {
		l.saved.SetCurrentItem(cur)
	}
	l.status.SetText(" " + tview.Escape(m.Status))
	l.hints.SetText(" ^O host with an invite code · ^E join with a code · ^B play the bot\n" +
		" Tab field · ^P LAN · ^G resume · ^W save address · ? help · ^Q quit")
	l.showInvitation()
	l.showCodeDialog()
}

// OfferResume asks the player whether to resume the unfinished game g
// (Enter or r) or to start a new one (n) instead.
func (l *Lobby) OfferResume(g SavedGame, resume, fresh func()) {
	d := newDialog("Unfinished game", "You have an unfinished game:", g.Describe(l.petnames.get()), "",
		"Enter or r resumes it · n starts a new game", "(it stays in the list, ^G, either way)")
	d.handle = func(ev *tcell.EventKey) {
		switch {
		case ev.Key() == tcell.KeyEnter || ev.Key() == tcell.KeyRune && (ev.Rune() == 'r' || ev.Rune() == 'R'):
			l.dialog = nil
			resume()
		case ev.Key() == tcell.KeyRune && (ev.Rune() == 'n' || ev.Rune() == 'N'):
			l.dialog = nil
			fresh()
		}
	}
	l.dialog = d
}

// InputHandler handles the lobby's keys, then gives the others to the
// focused field of the form (or the LAN list).
func (l *Lobby) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return l.WrapInputHandler(func(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
		l.HandleKey(ev, setFocus)
	})
}

// HandleKey handles one key; setFocus moves the focus between the form
// and the LAN list.
func (l *Lobby) HandleKey(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
	defer l.render()
	if l.dialog != nil {
		l.dialog.handle(ev)
		return
	}
	for _, list := range []*tview.List{l.lan, l.saved} {
		if !list.HasFocus() {
			continue
		}
		switch ev.Key() {
		case tcell.KeyEnter:
			list.InputHandler()(ev, setFocus)
			setFocus(l.form)
			return
		case tcell.KeyEsc, tcell.KeyTab:
			setFocus(l.form)
			return
		}
	}
	if kb, ok := l.keys.Lookup(ev); ok && !(ev.Key() == tcell.KeyRune && l.typing()) {
		switch kb.Name {
		case "peers":
			if len(l.model.LAN) == 0 {
				l.model.Status = "no peer found on the LAN (yet)"
				return
			}
			setFocus(l.lan)
			return
		case "resume":
			if len(l.model.Unfinished)+len(l.model.Finished) == 0 {
				l.model.Status = noSavedGame
				if l.model.GamesLoading {
					l.model.Status = readingGames
				}
				return
			}
			setFocus(l.saved)
			return
		}
		kb.Action()
		return
	}
	l.Flex.InputHandler()(ev, setFocus)
}

// What ^G says when the list of games is empty: none, or not read yet.
const (
	noSavedGame  = "no saved game"
	readingGames = "the saved games are still being read: ^G again in a moment"
)

// GamesRead takes the saved games once read: the lists, and the end of
// ^G's message that they were not there yet.
func (l *Lobby) GamesRead(unfinished, finished []SavedGame) {
	m := &l.model
	m.Unfinished, m.Finished, m.GamesLoading = unfinished, finished, false
	if m.Status == readingGames || m.Status == noSavedGame {
		m.Status = ""
	}
	l.render()
}

// typing reports whether a text field of the form has the focus (where
// '?' is a character, not the help key).
func (l *Lobby) typing() bool {
	for _, f := range []*tview.InputField{l.opponent, l.size, l.komi} {
		if f.HasFocus() && f.GetText() != "" {
			return true
		}
	}
	for _, f := range l.options {
		if f.number != nil && f.number.HasFocus() && f.number.GetText() != "" {
			return true
		}
	}
	return false
}

// meLines returns the lines that show this peer at width w: the ID, then
// each address cut into lines of the width.
func (l *Lobby) meLines(w int) []string {
	m := &l.model
	lines := []string{fmt.Sprintf(" You: [::b]%s[::-]", tview.Escape(m.ID))}
	if m.Internet != "" {
		lines = append(lines, " Internet: "+tview.Escape(m.Internet))
	}
	if len(m.Addrs) == 0 {
		lines = append(lines, " (no address to give)")
	}
	const indent = "  "
	w = max(w-len(indent), 20)
	for _, a := range m.Addrs {
		for len(a) > w {
			lines = append(lines, indent+tview.Escape(a[:w]))
			a = a[w:]
		}
		lines = append(lines, indent+tview.Escape(a))
	}
	return lines
}

// markFocusedField puts focusMark before the label of the form's focused
// field and spaces before the others, so that every label keeps its width.
func (l *Lobby) markFocusedField() {
	if l.labels == nil {
		l.labels = map[tview.FormItem]string{}
	}
	for i := range l.form.GetFormItemCount() {
		item := l.form.GetFormItem(i)
		base, ok := l.labels[item]
		if !ok {
			base = item.GetLabel()
			l.labels[item] = base
		}
		label := "  " + base
		if item.HasFocus() {
			label = focusMark + base
		}
		switch it := item.(type) {
		case *tview.InputField:
			it.SetLabel(label)
		case *tview.DropDown:
			it.SetLabel(label)
		case *tview.Checkbox:
			it.SetLabel(label)
		}
	}
}

// SetNetStatus shows where this peer stands on the internet.
func (l *Lobby) SetNetStatus(s string) {
	l.model.Internet = s
	l.render()
}

// Draw draws the lobby, then the open dialog. This peer's addresses take
// the lines they need, wrapped, up to six.
func (l *Lobby) Draw(screen tcell.Screen) {
	_, _, w, _ := l.GetRect()
	if w != l.meWidth {
		l.meWidth = w
		l.me.SetText(strings.Join(l.meLines(w), "\n"))
	}
	l.ResizeItem(l.me, min(len(l.meLines(w)), 7), 0)
	l.markFocusedField()
	// A long status (an error with its cause) wraps onto up to four
	// lines rather than being cut at the screen's edge.
	l.status.SetWrap(true).SetWordWrap(true)
	l.ResizeItem(l.status, min(max(len(tview.WordWrap(" "+l.model.Status, max(w, 1))), 1), 4), 0)
	l.Flex.Draw(screen)
	if l.dialog != nil {
		l.dialog.SetRect(l.GetRect())
		l.dialog.Draw(screen)
	}
}
