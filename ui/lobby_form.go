package ui

// The lobby's new-game form: the options it offers, its defaults, and
// the options it describes. lobby_sides.go has its fields of the colours
// and the clock.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/kakure/kakure/engine"
	"github.com/rivo/tview"
)

// The options the form offers.
var (
	formVariants = engine.Variants // every variant, in the descriptors' order
	formRules    = []engine.PhantomRules{engine.RulesCommon, engine.RulesHamburg, engine.RulesKriegspiel}
	formSuicide  = []engine.SuicideRule{engine.SuicideNZ, engine.SuicideForbid}
)

// SetDefaults fills the form with o (zero fields stay empty: the
// variant's default).
func (l *Lobby) SetDefaults(o engine.Options) {
	l.lag, l.lambda, l.garbling, l.inputOT = o.Lag, o.Lambda, o.Garbling, o.InputOT
	for i, v := range formVariants {
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
	if o.CardsSet || o.Cards != 0 {
		l.cards.SetText(strconv.Itoa(o.Cards))
	}
	l.rules.SetCurrentOption(0)
	for i, r := range formRules {
		if r == o.Rules {
			l.rules.SetCurrentOption(i)
		}
	}
	l.suicide.SetCurrentOption(0)
	for i, s := range formSuicide {
		if s == o.Suicide {
			l.suicide.SetCurrentOption(i)
		}
	}
	l.perpendicular.SetChecked(o.Perpendicular)
	l.setSideDefaults(o)
}

func (l *Lobby) chosenVariant() engine.Variant {
	i, _ := l.variant.GetCurrentOption()
	if i < 0 || i >= len(formVariants) {
		return engine.VariantGo
	}
	return formVariants[i]
}

// readOption sets the variant's option opt in o from its field of the
// form; an option the form has no field for is an error that names it.
func (l *Lobby) readOption(opt engine.VariantOption, o *engine.Options, num func(*tview.InputField, string) (float64, bool, error)) error {
	switch opt.Key {
	case "rules":
		i, _ := l.rules.GetCurrentOption()
		o.Rules = formRules[max(i, 0)]
	case "cards":
		cards, set, err := num(l.cards, "hidden moves")
		if err != nil {
			return err
		}
		o.Cards, o.CardsSet = int(cards), set
	case "suicide":
		i, _ := l.suicide.GetCurrentOption()
		o.Suicide = formSuicide[max(i, 0)]
	case "perpendicular":
		o.Perpendicular = l.perpendicular.IsChecked()
	default:
		return fmt.Errorf("the form has no field for option %q of %s", opt.Key, opt.Variant)
	}
	return nil
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
