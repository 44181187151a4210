package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine/clock"
)

// TestDescriptorsOnePerVariant checks that every variant has exactly one
// descriptor and that the descriptor is complete: a title, the sides'
// names, sizes in range, a colour assignment, an SGF game, rule sections.
func TestDescriptorsOnePerVariant(t *testing.T) {
	if len(Descriptors) != len(Variants) {
		t.Fatalf("%d descriptors for %d variants", len(Descriptors), len(Variants))
	}
	seen := map[Variant]bool{}
	for i, d := range Descriptors {
		if d.Variant != Variants[i] {
			t.Errorf("descriptor %d is %q, Variants[%d] is %q", i, d.Variant, i, Variants[i])
		}
		if seen[d.Variant] {
			t.Errorf("variant %q has two descriptors", d.Variant)
		}
		seen[d.Variant] = true
		if d.Variant.Descriptor() != d {
			t.Errorf("%s: Descriptor() does not return its descriptor", d.Variant)
		}
		missing := func(what string) { t.Errorf("variant %s: descriptor has no %s", d.Variant, what) }
		if d.Title == "" {
			missing("title")
		}
		if d.ColorNames[0] == "" || d.ColorNames[1] == "" || d.ColorNames[0] == d.ColorNames[1] {
			missing("two names of the sides")
		}
		if d.ResultLetters[0] == "" || d.ResultLetters[1] == "" || d.ResultLetters[0] == d.ResultLetters[1] {
			missing("two result letters")
		}
		if d.MinSize < MinSize || d.MinSize > d.DefaultSize || d.DefaultSize > MaxSize {
			t.Errorf("variant %s: sizes min %d default %d out of %d..%d", d.Variant, d.MinSize, d.DefaultSize, MinSize, MaxSize)
		}
		if d.Colors != ColorsByChoice && d.Colors != ColorsByPie {
			missing("colour assignment")
		}
		if d.SGFGame == 0 {
			missing("SGF game (GM)")
		}
		if len(d.RuleSections) == 0 {
			missing("rule sections")
		}
		for _, opt := range d.Options {
			if opt.Variant != d.Variant {
				t.Errorf("variant %s lists option %s of %s", d.Variant, opt.Key, opt.Variant)
			}
		}
	}
}

// TestUnknownVariantFailsLoudly checks that a variant kakure does not
// have is named in the error or panic, never taken for another.
func TestUnknownVariantFailsLoudly(t *testing.T) {
	if _, err := LookupDescriptor("chess"); !errors.Is(err, ErrUnknownVariant) || !errors.Is(err, ErrBadOptions) || !strings.Contains(err.Error(), `"chess"`) {
		t.Errorf("LookupDescriptor(chess) = %v, want ErrUnknownVariant naming chess", err)
	}
	for name, f := range map[string]func(){
		"Descriptor":  func() { Variant("chess").Descriptor() },
		"DefaultSize": func() { DefaultSize("chess") },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `"chess"`) {
					t.Errorf("%s(chess) panicked with %v, want a panic naming chess", name, r)
				}
			}()
			f()
		}()
	}
	if HasClocks("chess") {
		t.Error("HasClocks(chess) = true")
	}
	names := make([]string, len(Variants))
	for i, v := range Variants {
		names[i] = string(v)
	}
	if _, err := (Options{Variant: "chess"}).Normalize(); err == nil || !strings.Contains(err.Error(), `unknown variant "chess" (one of `+strings.Join(names, ", ")+")") {
		t.Errorf("Normalize(chess) = %v", err)
	}
}

// TestNormalizeReadsDescriptor checks that the defaults Normalize fills
// in are the descriptor's: the size, the komi (GO-5; HC-D1 with a
// handicap), the options, and that the colour choice (GM-2), the clock
// (CLK-D10) and the handicap are refused where the descriptor says so.
func TestNormalizeReadsDescriptor(t *testing.T) {
	for _, d := range Descriptors {
		o, err := Options{Variant: d.Variant}.Normalize()
		if err != nil {
			t.Fatalf("%s: %v", d.Variant, err)
		}
		if o.Size != d.DefaultSize || o.Komi != d.DefaultKomi {
			t.Errorf("%s: size %d komi %v, descriptor %d %v", d.Variant, o.Size, o.Komi, d.DefaultSize, d.DefaultKomi)
		}
		if _, err := (Options{Variant: d.Variant, Size: d.MinSize - 1}).Normalize(); err == nil {
			t.Errorf("%s: size %d accepted below the minimum %d", d.Variant, d.MinSize-1, d.MinSize)
		}
		_, err = Options{Variant: d.Variant, InviterColor: Black}.Normalize()
		if (err == nil) != (d.Colors == ColorsByChoice) {
			t.Errorf("%s: colour choice gives %v with colours %v", d.Variant, err, d.Colors)
		}
		_, err = Options{Variant: d.Variant, InviterColor: Black, Handicap: 2}.Normalize()
		if (err == nil) != d.Handicap {
			t.Errorf("%s: handicap gives %v, descriptor handicap %t", d.Variant, err, d.Handicap)
		}
		if d.Handicap {
			h, _ := Options{Variant: d.Variant, InviterColor: Black, Handicap: 2}.Normalize()
			if h.Komi != HandicapKomi {
				t.Errorf("%s: handicap komi %v, want %v (HC-D1)", d.Variant, h.Komi, HandicapKomi)
			}
		}
		timed := Options{Variant: d.Variant, InviterColor: Black}
		if d.Colors != ColorsByChoice {
			timed.InviterColor = Empty
		}
		if timed.Time, err = clock.Parse("5m"); err != nil {
			t.Fatal(err)
		}
		_, err = timed.Normalize()
		if (err == nil) != d.Timed || HasClocks(d.Variant) != d.Timed {
			t.Errorf("%s: a clock gives %v, descriptor timed %t", d.Variant, err, d.Timed)
		}
		for _, opt := range allOptions() {
			if opt.Variant == d.Variant {
				continue
			}
			other, err := nonDefault(opt)
			if err != nil {
				t.Errorf("%s: %v", d.Variant, err)
				continue
			}
			bad := Options{Variant: d.Variant}
			_ = opt.Parse(&bad, opt.Format(other))
			if !opt.isSet(bad) {
				continue
			}
			if _, err := bad.Normalize(); err == nil || !strings.Contains(err.Error(), "--"+opt.Key+" applies to "+string(opt.Variant)+" only") {
				t.Errorf("%s with option %s of %s: %v", d.Variant, opt.Key, opt.Variant, err)
			}
		}
	}
}

// nonDefault returns normalized options of opt's variant whose value of
// opt differs from the default, a value its description gives: the first
// other choice, the largest number, a switch on.
func nonDefault(opt VariantOption) (Options, error) {
	value := "true"
	switch opt.Type {
	case OptionChoice:
		value = ""
		for _, c := range opt.Choices {
			if c != opt.Default {
				value = c
				break
			}
		}
	case OptionInt:
		value = strconv.Itoa(opt.Max)
	}
	o := Options{Variant: opt.Variant}
	if err := opt.Parse(&o, value); err != nil {
		return o, fmt.Errorf("option %s: no value but its default: Parse(%q): %w", opt.Key, value, err)
	}
	o, err := o.Normalize()
	if err == nil && opt.Format(o) == opt.Default {
		err = fmt.Errorf("option %s: no value but its default %q", opt.Key, opt.Default)
	}
	return o, err
}

// TestVariantOptionsRoundTrip checks that each option's Format and Parse
// agree, that Parse refuses a bad value where the value has a type, and
// that Describe says something of a value that is not the default.
func TestVariantOptionsRoundTrip(t *testing.T) {
	for _, opt := range allOptions() {
		want, err := nonDefault(opt)
		if err != nil {
			t.Error(err)
			continue
		}
		got := Options{Variant: opt.Variant}
		if err := opt.Parse(&got, opt.Format(want)); err != nil {
			t.Fatalf("%s: Parse(Format) = %v", opt.Key, err)
		}
		got, err = got.Normalize()
		if err != nil {
			t.Fatalf("%s: %v", opt.Key, err)
		}
		if opt.Format(got) != opt.Format(want) {
			t.Errorf("%s: %q after a round trip, want %q", opt.Key, opt.Format(got), opt.Format(want))
		}
		if opt.Describe(want) == "" {
			t.Errorf("%s: Describe says nothing of %q", opt.Key, opt.Format(want))
		}
	}
	var o Options
	if err := optionCards.Parse(&o, "many"); err == nil || !strings.Contains(err.Error(), `cards="many"`) {
		t.Errorf("cards=many: %v", err)
	}
	if err := optionPerpendicular.Parse(&o, "maybe"); err == nil || !strings.Contains(err.Error(), `perpendicular="maybe"`) {
		t.Errorf("perpendicular=maybe: %v", err)
	}
}
