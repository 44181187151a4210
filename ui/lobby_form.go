package ui

// The lobby's new-game form: the options it offers, its defaults, and
// the options it describes. lobby_sides.go has its fields of the colours
// and the clock.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/rivo/tview"
)

// optionField is the form's field of a variant's option, made from the
// option's description (engine.VariantOption, issue 33): a drop-down of
// its choices, a number field or a checkbox, labelled with the option's
// label and its variant. Exactly one of choices, number and checkbox is
// set.
type optionField struct {
	opt      engine.VariantOption
	choices  *tview.DropDown
	number   *tview.InputField
	checkbox *tview.Checkbox
}

// newOptionField makes the field of opt; field makes a number field.
func newOptionField(opt engine.VariantOption, field func(label, placeholder string, width int) *tview.InputField) optionField {
	label := opt.Label + " (" + string(opt.Variant) + ") "
	f := optionField{opt: opt}
	switch opt.Type {
	case engine.OptionInt:
		f.number = field(label, "default", 8)
	case engine.OptionBool:
		f.checkbox = tview.NewCheckbox().SetLabel(label)
		f.checkbox.SetActivatedStyle(chosenStyle)
	default:
		f.choices = tview.NewDropDown().SetLabel(label).SetOptions(opt.Choices, nil)
		f.choices.SetFocusedStyle(chosenStyle).SetListStyles(tcell.StyleDefault, chosenStyle)
	}
	return f
}

// item is the field as the form holds it.
func (f optionField) item() tview.FormItem {
	switch {
	case f.number != nil:
		return f.number
	case f.checkbox != nil:
		return f.checkbox
	}
	return f.choices
}

// setDefault shows o's value of the option: the chosen choice (the first,
// the default, when o leaves it), the number o chose (empty for the
// default), the switch.
func (f optionField) setDefault(o engine.Options) {
	switch {
	case f.number != nil:
		if f.opt.Chosen(o) {
			f.number.SetText(f.opt.Format(o))
		}
	case f.checkbox != nil:
		f.checkbox.SetChecked(f.opt.Format(o) == "true")
	default:
		f.choices.SetCurrentOption(0)
		for i, c := range f.opt.Choices {
			if c == f.opt.Format(o) {
				f.choices.SetCurrentOption(i)
			}
		}
	}
}

// read sets the option in o from the field: the chosen choice, the number
// given (none: the default), the switch. num reads a number field.
func (f optionField) read(o *engine.Options, num func(*tview.InputField, string) (float64, bool, error)) error {
	switch {
	case f.number != nil:
		n, set, err := num(f.number, strings.ToLower(f.opt.Label))
		if err != nil || !set {
			return err
		}
		return f.opt.Parse(o, strconv.Itoa(int(n)))
	case f.checkbox != nil:
		return f.opt.Parse(o, strconv.FormatBool(f.checkbox.IsChecked()))
	}
	i, _ := f.choices.GetCurrentOption()
	return f.opt.Parse(o, f.opt.Choices[max(i, 0)])
}

// SetDefaults fills the form with o (zero fields stay empty: the
// variant's default).
func (l *Lobby) SetDefaults(o engine.Options) {
	l.lag, l.lambda, l.garbling, l.inputOT = o.Lag, o.Lambda, o.Garbling, o.InputOT
	for i, v := range l.variants {
		if v == o.Variant {
			l.variant.SetCurrentOption(i)
		}
	}
	if _, cur := l.variant.GetCurrentOption(); cur == "" {
		l.variant.SetCurrentOption(0)
	}
	if o.Size != 0 {
		l.size.SetText(strconv.Itoa(o.Size))
	}
	if o.KomiSet || o.Komi != 0 {
		l.komi.SetText(strconv.FormatFloat(o.Komi, 'f', -1, 64))
	}
	for _, f := range l.options {
		f.setDefault(o)
	}
	l.setSideDefaults(o)
}

func (l *Lobby) chosenVariant() engine.Variant {
	i, _ := l.variant.GetCurrentOption()
	if i < 0 || i >= len(l.variants) {
		return engine.VariantGo
	}
	return l.variants[i]
}

// readOption sets the variant's option opt in o from its field of the
// form; an option the form has no field for is an error that names it.
func (l *Lobby) readOption(opt engine.VariantOption, o *engine.Options, num func(*tview.InputField, string) (float64, bool, error)) error {
	for _, f := range l.options {
		if f.opt.Key == opt.Key && f.opt.Variant == opt.Variant {
			return f.read(o, num)
		}
	}
	return fmt.Errorf("the form has no field for option %q of %s", opt.Key, opt.Variant)
}

// Options returns the options the form describes, checked.
func (l *Lobby) Options() (engine.Options, error) {
	o := engine.Options{Variant: l.chosenVariant()}
	num := func(f *tview.InputField, what string) (float64, bool, error) {
		s := strings.TrimSpace(f.GetText())
		if s == "" {
			return 0, false, nil
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, false, fmt.Errorf("%s: %q is not a number", what, s)
		}
		return x, true, nil
	}
	size, _, err := num(l.size, "size")
	if err != nil {
		return o, err
	}
	o.Size = int(size)
	d, err := engine.LookupDescriptor(o.Variant)
	if err != nil {
		return o, err
	}
	if d.Komi {
		if o.Komi, o.KomiSet, err = num(l.komi, "komi"); err != nil {
			return o, err
		}
	}
	for _, opt := range d.Options {
		if err := l.readOption(opt, &o, num); err != nil {
			return o, err
		}
	}
	if o.Variant == engine.VariantPhantom {
		o.Lambda = l.lambda // T-8(b): the command line's --lambda
		// MPC-D26: the command line's --garbling (half-gates if none).
		o.Garbling = l.garbling
		// MPC-D28: the command line's --input-ot (the game's one OT
		// extension if none).
		o.InputOT = l.inputOT
	}
	if err := l.readSides(&o); err != nil {
		return o, err
	}
	o, err = o.Normalize()
	if err != nil {
		return o, errors.New(strings.TrimPrefix(friendlyError(err), "bad options: "))
	}
	return o, nil
}
