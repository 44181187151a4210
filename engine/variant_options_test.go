package engine

import (
	"strconv"
	"strings"
	"testing"
)

// optionSamples are the values of opt to try: every choice, the bounds of
// a number, both values of a switch; refused are values Normalize must
// refuse (none for a switch, whose Parse refuses what is no bool).
func optionSamples(opt VariantOption) (accepted, refused []string) {
	switch opt.Type {
	case OptionChoice:
		return opt.Choices, []string{"no-such-" + opt.Key}
	case OptionInt:
		return []string{strconv.Itoa(opt.Min), strconv.Itoa(opt.Max)}, []string{strconv.Itoa(opt.Min - 1), strconv.Itoa(opt.Max + 1)}
	case OptionBool:
		return []string{"false", "true"}, nil
	}
	return nil, nil
}

// TestVariantOptionsAsDescribed checks every option of every descriptor
// against its description (VAR-D6, issue 33: options are described once,
// and the flags, the lobby's form, the wire and SGF are made from the
// description): it has
// a type, a label and a doc and every function; its Default is what
// Normalize fills in; every value it says it takes (each choice, the
// bounds of a number, both values of a switch) goes through Parse and
// Normalize and comes back from Format as it was; values beyond its
// range are refused; and a value other than the default that sets the option,
// given to another variant, is refused naming --Key. An option that lacks a piece is named.
func TestVariantOptionsAsDescribed(t *testing.T) {
	checkOptionsAsDescribed(t)
}

// checkOptionsAsDescribed checks every option of every descriptor of
// Descriptors against its description (TestVariantOptionsAsDescribed).
func checkOptionsAsDescribed(t *testing.T) {
	t.Helper()
	owner := map[string]Variant{}
	for _, d := range Descriptors {
		for _, opt := range d.Options {
			// One key, one flag, one wire field, one VO pair (VAR-D7).
			if v, ok := owner[opt.Key]; ok {
				t.Errorf("%s option %s: %s has an option of the same key", d.Variant, opt.Key, v)
			}
			owner[opt.Key] = d.Variant
		}
	}
	for _, d := range Descriptors {
		for _, opt := range d.Options {
			name := string(d.Variant) + " option " + opt.Key
			if opt.Variant != d.Variant {
				t.Errorf("%s: belongs to %s", name, opt.Variant)
			}
			if opt.Type < OptionChoice || opt.Type > OptionBool || opt.Label == "" || opt.Doc == "" {
				t.Errorf("%s: type %d, label %q, doc %q: the description is incomplete", name, opt.Type, opt.Label, opt.Doc)
			}
			if opt.isSet == nil || opt.normalize == nil || opt.Format == nil || opt.Parse == nil || opt.Describe == nil {
				t.Errorf("%s: lacks isSet, normalize, Format, Parse or Describe", name)
				continue
			}
			if opt.Type == OptionChoice && len(opt.Choices) == 0 || opt.Type == OptionInt && opt.Min > opt.Max {
				t.Errorf("%s: no values (choices %q, range %d-%d)", name, opt.Choices, opt.Min, opt.Max)
			}
			def, err := Options{Variant: d.Variant}.Normalize()
			if err != nil {
				t.Errorf("%s: the default options: %v", name, err)
				continue
			}
			if got := opt.Format(def); got != opt.Default {
				t.Errorf("%s: Normalize fills in %q, the description says the default is %q", name, got, opt.Default)
			}
			accepted, refused := optionSamples(opt)
			for _, value := range accepted {
				o := Options{Variant: d.Variant}
				if err := opt.Parse(&o, value); err != nil {
					t.Errorf("%s: Parse(%q): %v", name, value, err)
					continue
				}
				if !opt.Chosen(o) && value != opt.Default {
					t.Errorf("%s: options parsed from %q do not show it chosen", name, value)
				}
				n, err := o.Normalize()
				if err != nil {
					t.Errorf("%s: %q is refused: %v", name, value, err)
				} else if got := opt.Format(n); got != value {
					t.Errorf("%s: %q comes back as %q", name, value, got)
				}
				if value == opt.Default || !opt.isSet(o) {
					// Nothing set: a zero value (0 cards) is no
					// setting outside its variant.
					continue
				}
				for _, other := range Descriptors {
					if other.Variant == d.Variant {
						continue
					}
					o.Variant = other.Variant
					if _, err := o.Normalize(); err == nil || !strings.Contains(err.Error(), "--"+opt.Key) {
						t.Errorf("%s=%s given to %s: %v, want a refusal naming --%s", name, value, other.Variant, err, opt.Key)
					}
				}
			}
			for _, value := range refused {
				o := Options{Variant: d.Variant}
				if err := opt.Parse(&o, value); err != nil {
					continue
				}
				if _, err := o.Normalize(); err == nil {
					t.Errorf("%s: %q, beyond what the description says, is accepted", name, value)
				}
			}
		}
	}
}

// TestVariantOptionValues pins the values of the options as the help of
// their flags writes them.
func TestVariantOptionValues(t *testing.T) {
	for opt, want := range map[*VariantOption]string{
		&optionRules: "common, hamburg or kriegspiel", &optionCards: "0-9", &optionSuicide: "nz or forbid", &optionPerpendicular: "",
	} {
		if got := opt.Values(); got != want {
			t.Errorf("option %s: values %q, want %q", opt.Key, got, want)
		}
	}
}
