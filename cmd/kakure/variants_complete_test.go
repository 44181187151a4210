package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/varianttest"
)

// optionFlagSamples are command lines that set opt to each value its
// description says it takes (each choice, the bounds of a number, a
// switch on and off), with the value normalized options then hold.
func optionFlagSamples(opt engine.VariantOption) []struct {
	args []string
	want string
} {
	type sample = struct {
		args []string
		want string
	}
	flag := "--" + opt.Key
	var samples []sample
	switch opt.Type {
	case engine.OptionChoice:
		for _, c := range opt.Choices {
			samples = append(samples, sample{[]string{flag, c}, c})
		}
	case engine.OptionInt:
		for _, n := range []int{opt.Min, opt.Max} {
			samples = append(samples, sample{[]string{flag, strconv.Itoa(n)}, strconv.Itoa(n)})
		}
	case engine.OptionBool:
		samples = append(samples, sample{[]string{flag}, "true"}, sample{[]string{flag + "=false"}, "false"})
	}
	return append(samples, sample{nil, flagDefault(opt)})
}

// flagDefault is the value of opt that the variant flags give without its
// flag: the option's default, but for the evaluator's tries by flips,
// which kakure switches on where they apply (UI-D50), as they do in a
// game of the default --lambda and --input-ot.
func flagDefault(opt engine.VariantOption) string {
	if opt.Key == engine.OptionTryFlips {
		return "true"
	}
	return opt.Default
}

// TestEveryVariantHasItsFlags checks that the flags of the commands that
// start games (variantFlags) know every variant of engine.Variants: the
// help of --variant names it, --variant takes it, and every option of its
// descriptor has its flag --KEY (VariantOption.Key: the flag, the SGF VO
// pair and the lobby's field share the name), which sets the option to
// every value its description says it takes; without the flag the
// option has its default (kakure's, UI-D50: flagDefault). A variant or
// an option the flags lack is named (VAR-D6, issue 33).
func TestEveryVariantHasItsFlags(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var vf variantFlags
	vf.register(fs, "go")
	help := strings.FieldsFunc(fs.Lookup("variant").Usage, func(r rune) bool { return r == ' ' || r == ',' || r == ':' })
	for _, d := range engine.Descriptors {
		if !slices.Contains(help, string(d.Variant)) {
			t.Errorf("variant %s: the help of --variant does not name it: %q", d.Variant, help)
		}
		for _, opt := range d.Options {
			if fs.Lookup(opt.Key) == nil {
				t.Errorf("variant %s: option %s has no flag --%s", d.Variant, opt.Key, opt.Key)
				continue
			}
			for _, c := range optionFlagSamples(opt) {
				fs := flag.NewFlagSet("test", flag.ContinueOnError)
				fs.SetOutput(io.Discard)
				var vf variantFlags
				vf.register(fs, "go")
				args := append([]string{"--variant", string(d.Variant)}, c.args...)
				if err := fs.Parse(args); err != nil {
					t.Errorf("variant %s: %q: %v", d.Variant, args, err)
					continue
				}
				o, err := vf.options(fs)
				if err != nil || opt.Format(o) != c.want {
					t.Errorf("variant %s: %q gives %s=%q (%v), want %q", d.Variant, args, opt.Key, opt.Format(o), err, c.want)
					continue
				}
				// VAR-D7: the lobby's form starts with the option given.
				if l := lobbyDefaults(fs, o); c.args != nil && (opt.Format(l) != c.want || opt.Type == engine.OptionInt && !opt.Chosen(l)) {
					t.Errorf("variant %s: option %s: %q gives the lobby's form %s=%q (chosen %v), want %q", d.Variant, opt.Key, args, opt.Key, opt.Format(l), opt.Chosen(l), c.want)
				}
			}
		}
		o, err := optionsOf(t, []string{"--variant", string(d.Variant)})
		if err != nil || o.Variant != d.Variant {
			t.Errorf("variant %s: --variant %s gives options %+v, %v", d.Variant, d.Variant, o, err)
		}
	}
}

// TestVARD7HelpOfSizeAndKomiFromDescriptors checks that the help of
// --size and --komi is written from the descriptors (VAR-D7): perVariant
// names the value most variants share and each other value after its
// variants, and the help read back gives every variant of
// engine.Descriptors its smallest and default board side and its default
// komi, so a seventh variant with other defaults is named without a help
// text written for it.
func TestVARD7HelpOfSizeAndKomiFromDescriptors(t *testing.T) {
	d := func(v string, size int) *engine.Descriptor {
		return &engine.Descriptor{Variant: engine.Variant(v), DefaultSize: size}
	}
	size := func(d *engine.Descriptor) (string, bool) { return strconv.Itoa(d.DefaultSize), d.DefaultSize != 0 }
	for _, tt := range []struct {
		ds   []*engine.Descriptor
		want string
	}{
		{nil, "none"},
		{[]*engine.Descriptor{d("go", 9), d("phantom", 9)}, "9"},
		{[]*engine.Descriptor{d("go", 9), d("hmg", 19), d("phantom", 9)}, "9 (hmg 19)"},
		{[]*engine.Descriptor{d("go", 9), d("hmg", 19), d("phantom", 9), d("toy", 13), d("big", 19)}, "9 (hmg and big 19; toy 13)"},
		{[]*engine.Descriptor{d("hmg", 19), d("go", 9), d("phantom", 9)}, "9 (hmg 19)"},
		{[]*engine.Descriptor{d("go", 9), d("none", 0)}, "9"},
	} {
		if got := perVariant(tt.ds, size); got != tt.want {
			t.Errorf("perVariant(%d descriptors) = %q, want %q", len(tt.ds), got, tt.want)
		}
	}
	sizes, defaults, _ := strings.Cut(strings.TrimPrefix(sizeUsage(), "board size: "), ", default ")
	komi, none, _ := strings.Cut(strings.TrimPrefix(komiUsage(), "komi for White: default "), ", not counted in ")
	for _, d := range engine.Descriptors {
		v := d.Variant
		if got, want := helpValue(sizes, v), fmt.Sprintf("%d to %d", d.MinSize, engine.MaxSize); got != want {
			t.Errorf("variant %s: --size help %q gives sizes %q, want %q", v, sizeUsage(), got, want)
		}
		if got, want := helpValue(defaults, v), strconv.Itoa(d.DefaultSize); got != want {
			t.Errorf("variant %s: --size help %q gives the default %q, want %q", v, sizeUsage(), got, want)
		}
		if named := slices.Contains(strings.Fields(strings.ReplaceAll(none, ",", "")), string(v)); named == d.Komi {
			t.Errorf("variant %s: --komi help %q says its komi is not counted: %v, want %v", v, komiUsage(), named, !d.Komi)
		} else if got, want := helpValue(komi, v), strconv.FormatFloat(d.DefaultKomi, 'f', -1, 64); d.Komi && got != want {
			t.Errorf("variant %s: --komi help %q gives the default %q, want %q", v, komiUsage(), got, want)
		}
	}
}

// helpValue reads back what perVariant wrote for variant v: the value
// after v's name in the parentheses, else the value before them.
func helpValue(s string, v engine.Variant) string {
	common, others, _ := strings.Cut(s, " (")
	for clause := range strings.SplitSeq(strings.TrimSuffix(others, ")"), "; ") {
		words := strings.Fields(strings.ReplaceAll(clause, ",", ""))
		i, named := 0, false
		for ; i < len(words); i++ {
			if words[i] == string(v) {
				named = true
			} else if words[i] != "and" && !slices.Contains(engine.Variants, engine.Variant(words[i])) {
				break
			}
		}
		if named {
			return strings.Join(words[i:], " ")
		}
	}
	return common
}

// TestVARD8SeventhVariantOnTheCommandLine: with a seventh descriptor
// added and no file of its own, the command line has its flags (--variant
// seventh, --tilt, the help of --size and --komi) with no flag written
// for them, kakure match's list of games plays it, and a match of it is
// refused with the pieces it lacks named (the core's rules, the
// session's player), not by a panic (VAR-D8).
func TestVARD8SeventhVariantOnTheCommandLine(t *testing.T) {
	varianttest.Add(t)
	TestEveryVariantHasItsFlags(t)
	TestVARD7HelpOfSizeAndKomiFromDescriptors(t)
	played := false
	for _, args := range matchTestVariants(t) {
		played = played || slices.Contains(args, string(varianttest.Variant))
	}
	if !played {
		t.Error("kakure match's test plays no game of the seventh variant")
	}
	code, out := runCommandWithin(t, time.Minute, "match", "--games", "1", "--out", t.TempDir(), "--variant", string(varianttest.Variant), "--size", "7", "--"+varianttest.OptionKey)
	if code == 0 || !strings.Contains(out, "protocol.Register") || !strings.Contains(out, "newVariantPlayer") || strings.Contains(out, "panic") {
		t.Errorf("a match of the seventh variant exited %d, want a refusal naming protocol.Register and newVariantPlayer:\n%s", code, out)
	}
}
