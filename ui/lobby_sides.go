package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
)

// lobbySides are the new-game form's fields of the colours (UI-D32): the
// colour the player takes (nigiri by default) and plain Go's handicap;
// and its clock (UI-D34): the time control in the --time syntax (CLK-D2)
// for the variants that have clocks.
type lobbySides struct {
	color    *tview.DropDown
	handicap *tview.InputField
	clock    *tview.InputField
}

// formColors are the colour field's choices, in its order: nigiri first
// (the default, the coin toss of T-4).
var formColors = []struct {
	label string
	color engine.Color
}{{"nigiri (coin toss)", engine.Empty}, {"black", engine.Black}, {"white", engine.White}}

// addSideFields adds the colour and handicap fields to the form.
func (l *Lobby) addSideFields() {
	labels := make([]string, len(formColors))
	for i, c := range formColors {
		labels[i] = c.label
	}
	l.sides.color = tview.NewDropDown().SetLabel("Your colour ").SetOptions(labels, nil)
	l.sides.color.SetFocusedStyle(chosenStyle).SetListStyles(tcell.StyleDefault, chosenStyle)
	l.sides.color.SetCurrentOption(0)
	l.sides.handicap = tview.NewInputField().SetLabel("Handicap (go) ").SetFieldWidth(8).SetPlaceholder("none")
	l.sides.handicap.SetPlaceholderStyle(tcell.StyleDefault.Dim(true))
	l.sides.clock = tview.NewInputField().SetLabel("Clock ").SetFieldWidth(12).SetPlaceholder("none")
	l.sides.clock.SetPlaceholderStyle(tcell.StyleDefault.Dim(true))
	l.form.AddFormItem(l.sides.color).AddFormItem(l.sides.handicap).AddFormItem(l.sides.clock)
}

// setSideDefaults fills the colour and handicap fields from o.
func (l *Lobby) setSideDefaults(o engine.Options) {
	for i, c := range formColors {
		if c.color == o.InviterColor {
			l.sides.color.SetCurrentOption(i)
		}
	}
	if o.Handicap != 0 {
		l.sides.handicap.SetText(strconv.Itoa(o.Handicap))
	}
	if !o.Time.IsNone() {
		l.sides.clock.SetText(o.Time.String())
	}
}

// readSides sets o's colour choice, handicap and clock from the form. The
// handicap is read for plain Go only (HC-D1), the colour for every
// variant but gomoku, whose pie rule chooses (GM-2), the clock for the
// variants that have clocks (CLK-D10, UI-D34), with the lag allowance of
// the command line.
func (l *Lobby) readSides(o *engine.Options) error {
	if engine.HasClocks(o.Variant) {
		c, err := clock.Parse(l.sides.clock.GetText())
		if err != nil {
			return err // it names the clock and shows the five forms (CLK-D2)
		}
		o.Time = c
		if !c.IsNone() {
			o.Lag = l.lag
		}
	}
	d, err := engine.LookupDescriptor(o.Variant)
	if err != nil {
		return err
	}
	if d.Colors == engine.ColorsByChoice {
		i, _ := l.sides.color.GetCurrentOption()
		o.InviterColor = formColors[max(i, 0)].color
	}
	if !d.Handicap {
		return nil
	}
	s := strings.TrimSpace(l.sides.handicap.GetText())
	if s == "" {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("handicap: %q is not a number of stones", s)
	}
	o.Handicap = n
	return nil
}

// describeSides writes the colour choice and the handicap of o for the
// player who receives the invitation: "You play White (their choice),
// handicap 2", "Colours by nigiri (coin toss)".
func describeSides(o engine.Options) string {
	s := "Colours by nigiri (coin toss)"
	switch o.InviterColor {
	case engine.Black:
		s = "You play White (their choice)"
	case engine.White:
		s = "You play Black (their choice)"
	}
	if d, err := engine.LookupDescriptor(o.Variant); err == nil && d.Colors == engine.ColorsByPie {
		s = "Colours by the pie rule"
	}
	if o.Handicap > 0 {
		s += fmt.Sprintf(", handicap %d", o.Handicap)
	}
	return s
}
