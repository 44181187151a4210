package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// useTerminalColours makes tview draw with the terminal's own colours (its
// default foreground and background) instead of its theme's white on black,
// yellow labels and blue fields, which do not read on a light terminal
// (UI-D25). What is focused or chosen is shown in reverse video, which
// reads on any terminal. It sets tview's global theme, so it is called
// before any widget is made.
func useTerminalColours() {
	d := tcell.ColorDefault
	tview.Styles = tview.Theme{
		PrimitiveBackgroundColor:    d,
		ContrastBackgroundColor:     d,
		MoreContrastBackgroundColor: d,
		BorderColor:                 d,
		TitleColor:                  d,
		GraphicsColor:               d,
		PrimaryTextColor:            d,
		SecondaryTextColor:          d,
		TertiaryTextColor:           d,
		InverseTextColor:            d,
		ContrastSecondaryTextColor:  d,
	}
}

// chosenStyle is how a focused button, a chosen list item and an open
// drop-down's choice are drawn: reverse video.
var chosenStyle = tcell.StyleDefault.Reverse(true)

// focusMark is put before the label of the form's focused field, so that
// the field being typed into shows on any terminal.
const focusMark = "▸ "
