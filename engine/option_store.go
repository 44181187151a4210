package engine

// Options described with nothing but their description (VAR-D7, issue
// 33): a variant added after the first six declares its options with
// NewChoiceOption, NewIntOption or NewBoolOption in its own file, and
// their values live in Options.Own, so that the variant needs no field of
// engine.Options, and the command line, the lobby's form, the wire and
// SGF take the option from its description as they take the older four.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// OwnValue returns the value options o hold for the option keyed key in
// Options.Own, and whether they hold one.
func (o Options) OwnValue(key string) (string, bool) {
	for line := range strings.SplitSeq(o.Own, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// setOwn sets the value of the option keyed key in o.Own, or removes it
// when present is false: the lines stay sorted, so that equal options
// compare equal.
func (o *Options) setOwn(key, value string, present bool) {
	var lines []string
	for line := range strings.SplitSeq(o.Own, "\n") {
		if k, _, _ := strings.Cut(line, "="); line != "" && k != key {
			lines = append(lines, line)
		}
	}
	if present {
		lines = append(lines, key+"="+value)
	}
	slices.Sort(lines)
	o.Own = strings.Join(lines, "\n")
}

// ownKeys lists the keys o.Own holds.
func (o Options) ownKeys() []string {
	var keys []string
	for line := range strings.SplitSeq(o.Own, "\n") {
		if k, _, _ := strings.Cut(line, "="); line != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

// ownOption describes the parts every option held in Options.Own shares:
// Format reads the value held ("" for none: NewIntOption and
// NewBoolOption then write their type's zero, as the options with a field
// of their own do, and the wire leaves it out), and Parse refuses a value
// Own cannot hold (a line break).
func ownOption(opt VariantOption, parse func(o *Options, s string) error) VariantOption {
	key := opt.Key
	opt.own = true
	opt.Format = func(o Options) string {
		v, _ := o.OwnValue(key)
		return v
	}
	opt.Parse = func(o *Options, s string) error {
		if strings.ContainsAny(s, "\n\r") {
			return fmt.Errorf("%s=%q holds a line break", key, s)
		}
		return parse(o, s)
	}
	return opt
}

// NewChoiceOption describes an option of variant v that is one of
// choices, the first the default, held in Options.Own (VAR-D7): a string
// flag --key, a drop-down labelled label in the lobby, a string on the
// wire, key=value in SGF's VO. doc says what it is in the flag's help.
func NewChoiceOption(v Variant, key, label, doc string, choices ...string) VariantOption {
	if len(choices) == 0 {
		panic(fmt.Sprintf("engine: option %s of %s has no choices", key, v))
	}
	opt := VariantOption{Key: key, Variant: v, Type: OptionChoice, Choices: choices, Default: choices[0], Label: label, Doc: doc}
	values := opt.Values()
	opt = ownOption(opt, func(o *Options, s string) error {
		o.setOwn(key, s, s != "")
		return nil
	})
	opt.isSet = func(o Options) bool { s, _ := o.OwnValue(key); return s != "" }
	opt.normalize = func(o *Options) error {
		s, _ := o.OwnValue(key)
		switch {
		case s == "":
			o.setOwn(key, choices[0], true)
		case !slices.Contains(choices, s):
			return fmt.Errorf("%w: unknown %s %q (%s)", ErrBadOptions, doc, s, values)
		}
		return nil
	}
	opt.Describe = func(o Options) string { s, _ := o.OwnValue(key); return s + " " + strings.ToLower(label) }
	return opt
}

// NewIntOption describes an option of variant v that is a whole number
// from lo to hi, def when not given, held in Options.Own (VAR-D7): an
// integer flag, a number field, a JSON number, key=n in VO. A value
// given, 0 included, is told from the default, as Hidden Move Go's cards
// are.
func NewIntOption(v Variant, key, label, doc string, lo, hi, def int) VariantOption {
	opt := VariantOption{Key: key, Variant: v, Type: OptionInt, Min: lo, Max: hi, Default: strconv.Itoa(def), Label: label, Doc: doc}
	opt = ownOption(opt, func(o *Options, s string) error {
		if _, err := strconv.Atoi(s); err != nil {
			return fmt.Errorf("%s=%q is not a number", key, s)
		}
		o.setOwn(key, s, true)
		return nil
	})
	format := opt.Format
	opt.Format = func(o Options) string {
		if s := format(o); s != "" {
			return s
		}
		return "0" // held by no options: its type's zero, as Cards's
	}
	opt.isSet = func(o Options) bool { s, ok := o.OwnValue(key); return ok && s != "0" }
	opt.chosen = func(o Options) bool { _, ok := o.OwnValue(key); return ok }
	opt.normalize = func(o *Options) error {
		s, ok := o.OwnValue(key)
		if !ok {
			o.setOwn(key, strconv.Itoa(def), true)
			return nil
		}
		if n, err := strconv.Atoi(s); err != nil || n < lo || n > hi {
			return fmt.Errorf("%w: %s %s (allowed %d to %d)", ErrBadOptions, doc, s, lo, hi)
		}
		return nil
	}
	opt.Describe = func(o Options) string { s, _ := o.OwnValue(key); return doc + " " + s }
	return opt
}

// NewBoolOption describes a switch of variant v, off by default, held in
// Options.Own (VAR-D7): a bool flag, a checkbox, a JSON bool, key=true or
// key=false in VO.
func NewBoolOption(v Variant, key, label, doc string) VariantOption {
	opt := VariantOption{Key: key, Variant: v, Type: OptionBool, Default: "false", Label: label, Doc: doc}
	opt = ownOption(opt, func(o *Options, s string) error {
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%s=%q is not true or false", key, s)
		}
		o.setOwn(key, "true", b)
		return nil
	})
	format := opt.Format
	opt.Format = func(o Options) string { return strconv.FormatBool(format(o) == "true") }
	opt.isSet = func(o Options) bool { return format(o) == "true" }
	opt.normalize = func(*Options) error { return nil }
	opt.Describe = func(o Options) string {
		if format(o) == "true" {
			return strings.ToLower(label)
		}
		return ""
	}
	return opt
}

// normalizeOwn removes from o.Own the options of the variants o is not
// for that o does not set (a zero value read from the wire), and refuses
// a key no option of any variant has.
func normalizeOwn(o *Options) error {
	all := allOptions()
	for _, key := range o.ownKeys() {
		i := slices.IndexFunc(all, func(opt VariantOption) bool { return opt.own && opt.Key == key })
		if i < 0 {
			return fmt.Errorf("%w: %q is no option of any variant", ErrBadOptions, key)
		}
		if all[i].Variant != o.Variant {
			o.setOwn(key, "", false)
		}
	}
	return nil
}
