package ui

import (
	"errors"
	"strings"
	"unicode"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/node/rendezvous"
	"github.com/rivo/tview"
)

// CodeModel is the state of the lobby's invite-code dialogs: hosting a
// game with a code, or joining one with a code.
type CodeModel struct {
	// Hosting is true while the host dialog is open; Code is the code
	// hosted once the relays hold it ("" while it is being registered).
	Hosting bool
	Code    string
	// Joining is true while the join dialog is open; Connecting while a
	// code typed there is being looked up, connected to and invited.
	Joining    bool
	Connecting bool
	// Peer is the peer ID of the host met by code, once connected.
	Peer string
	// Progress says what is being done; Error what went wrong last.
	Progress, Error string
}

// codeDialogWidth is the width of the code dialogs: they fit 80 columns.
const codeDialogWidth = 76

// SetConn records the state of the connection to a peer and shows it.
func (l *Lobby) SetConn(peer string, c ConnState) {
	if l.model.Conns == nil {
		l.model.Conns = map[string]ConnState{}
	}
	l.model.Conns[peer] = c
	l.render()
}

// hostCode opens the host dialog: the owner registers a code.
func (l *Lobby) hostCode() {
	if l.model.Busy {
		l.model.Status = "already waiting for an answer (^X stops waiting)"
		return
	}
	if l.OnHostCode != nil {
		l.OnHostCode()
	}
}

// openJoin opens the join dialog; the field keeps what was typed before.
func (l *Lobby) openJoin() {
	if l.model.Busy {
		l.model.Status = "already waiting for an answer (^X stops waiting)"
		return
	}
	if l.model.Code.Hosting {
		return
	}
	l.model.Code = CodeModel{Joining: true}
	l.render()
}

// submitCode checks the code typed and the form's options and hands them
// to the owner; an error shows in the dialog and the code stays typed.
func (l *Lobby) submitCode() {
	c := &l.model.Code
	typed := l.codeField.GetText()
	code, err := rendezvous.ParseCode(typed)
	if err != nil {
		c.Error = badCodeMessage(typed, err)
		return
	}
	o, err := l.Options()
	if err != nil {
		c.Error = "The new-game form: " + err.Error() + " (Esc, then correct it)"
		return
	}
	c.Error = ""
	if l.OnJoinCode != nil {
		l.OnJoinCode(code, o)
	}
}

// badCodeMessage says why typed is not an invite code.
func badCodeMessage(typed string, err error) string {
	if strings.TrimSpace(typed) == "" {
		return "Type the code first: three words, such as maple-otter-quail."
	}
	why := err.Error()
	if strings.HasPrefix(why, rendezvous.ErrBadCode.Error()) {
		why = why[strings.LastIndex(why, ": ")+2:]
	}
	return "That is not an invite code: " + why + ". A code is three words, such as maple-otter-quail " +
		"(the first three letters of each word are enough)."
}

// cancelCode asks the owner to withdraw the code, or to stop joining, or
// to close the join dialog.
func (l *Lobby) cancelCode() {
	if l.OnCancelCode != nil {
		l.OnCancelCode()
		return
	}
	l.model.Code = CodeModel{}
}

// showCodeDialog opens, refreshes or closes the code dialog as the model
// says, unless another dialog is open.
func (l *Lobby) showCodeDialog() {
	c := &l.model.Code
	if l.dialog != nil && l.dialog != l.codeDialog {
		return
	}
	switch {
	case c.Hosting:
		l.codeDialog = l.hostDialog()
	case c.Joining:
		l.codeDialog = l.joinDialog()
	default:
		l.codeDialog = nil
	}
	l.dialog = l.codeDialog
}

// wrapLines cuts text into lines of the code dialogs' width.
func wrapLines(text string) []string {
	return tview.WordWrap(text, codeDialogWidth-6)
}

// spacedCode writes a code big: capitals spaced out, the words apart,
// e.g. "M A P L E   ·   O T T E R   ·   Q U A I L".
func spacedCode(code string) string {
	words := strings.Split(code, "-")
	for i, w := range words {
		words[i] = strings.Join(strings.Split(strings.ToUpper(w), ""), " ")
	}
	return strings.Join(words, "   ·   ")
}

// hostDialog is the dialog of the code hosted: the code, big, and this
// peer's ID; or what is being done, or the error.
func (l *Lobby) hostDialog() *dialog {
	c := &l.model.Code
	var d *dialog
	if c.Code == "" {
		var lines []string
		if c.Error != "" {
			lines = wrapLines("No code: " + c.Error)
		} else {
			lines = wrapLines(c.Progress)
		}
		if c.Error != "" {
			lines = append(lines, "", "Esc closes")
		} else {
			lines = append(lines, "", "Esc stops")
		}
		d = newDialog("Host with an invite code", lines...)
	} else {
		d = newDialog("Host with an invite code", "Read this code to your friend, who types it in their lobby (^E):")
		big := tview.NewTextView().SetDynamicColors(true).SetTextAlign(tview.AlignCenter)
		big.SetBackgroundColor(tcell.ColorDefault)
		big.SetText("[::b]" + tview.Escape(spacedCode(c.Code)) + "[::-]\n\n" + tview.Escape(c.Code))
		d.body, d.bodyHeight = big, 3
		d.footer = []string{"", "Your peer ID (your friend sees it when joining):", "  " + l.model.ID, ""}
		d.footer = append(d.footer, wrapLines(c.Progress)...)
		d.footer = append(d.footer, "", "Esc withdraws the code")
	}
	d.width = codeDialogWidth
	d.handle = func(ev *tcell.EventKey) {
		if ev.Key() == tcell.KeyEsc || ev.Key() == tcell.KeyCtrlX {
			l.cancelCode()
		}
	}
	return d
}

// joinDialog is the dialog where the guest types the code: the field,
// the game it will propose, and what happens (the host's peer ID and the
// connection to it once connected) or what went wrong.
func (l *Lobby) joinDialog() *dialog {
	c := &l.model.Code
	if l.codeField == nil {
		l.codeField = tview.NewInputField().SetLabel("Code: ").SetPlaceholder("maple otter quail").
			SetFieldBackgroundColor(tcell.ColorDefault)
		l.codeField.SetBackgroundColor(tcell.ColorDefault)
		l.codeField.SetPlaceholderStyle(tcell.StyleDefault.Dim(true))
	}
	l.codeField.Focus(func(tview.Primitive) {})
	d := newDialog("Join with a code", wrapLines("Type the code your friend reads to you (capitals, spaces and hyphens do not matter):")...)
	d.body, d.bodyHeight = l.codeField, 1
	var foot []string
	if o, err := l.Options(); err == nil {
		foot = append(foot, "", "You invite the host to "+DescribeOptions(o)+" (the form's options).")
	}
	if c.Peer != "" {
		foot = append(foot, "", "Host's peer ID: "+c.Peer)
		if cs, ok := l.model.Conns[c.Peer]; ok {
			foot = append(foot, "Connection: "+cs.String())
		}
	}
	if c.Progress != "" {
		foot = append(foot, "")
		foot = append(foot, wrapLines(c.Progress)...)
	}
	if c.Error != "" {
		foot = append(foot, "")
		foot = append(foot, wrapLines("Error: "+c.Error)...)
	}
	if c.Connecting {
		foot = append(foot, "", "Esc stops")
	} else {
		foot = append(foot, "", "Enter joins · Esc closes")
	}
	d.footer, d.width = foot, codeDialogWidth
	d.handle = func(ev *tcell.EventKey) {
		switch {
		case ev.Key() == tcell.KeyEsc:
			l.cancelCode()
		case c.Connecting:
		case ev.Key() == tcell.KeyEnter:
			l.submitCode()
		default:
			before := l.codeField.GetText()
			l.codeField.InputHandler()(ev, func(tview.Primitive) {})
			if l.codeField.GetText() != before {
				c.Error = ""
			}
		}
	}
	return d
}

// joinError says what went wrong joining with a code, in the player's
// words; errors of the network come with their own explanation.
func joinError(code string, err error) string {
	switch {
	case errors.Is(err, rendezvous.ErrNotFound):
		return "no one hosts the code " + code + ": check it with your friend (a code lasts while its host waits), or ask for a new one."
	case errors.Is(err, rendezvous.ErrBadCode):
		return badCodeMessage(code, err)
	}
	s := friendlyError(err)
	if s != "" {
		r := []rune(s)
		r[0] = unicode.ToUpper(r[0])
		s = string(r)
	}
	return s
}
