package main

import (
	"flag"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
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
	return append(samples, sample{nil, opt.Default})
}

// TestEveryVariantHasItsFlags checks that the flags of the commands that
// start games (variantFlags) know every variant of engine.Variants: the
// help of --variant names it, --variant takes it, and every option of its
// descriptor has its flag --KEY (VariantOption.Key: the flag, the SGF VO
// pair and the lobby's field share the name), which sets the option to
// every value its description says it takes; without the flag the
// option has its default. A variant or an option the flags lack is named
// (VAR-D6, issue 33).
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
				}
			}
		}
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var vf variantFlags
		vf.register(fs, "go")
		if err := fs.Parse([]string{"--variant", string(d.Variant)}); err != nil {
			t.Fatal(err)
		}
		o, err := vf.options(fs)
		if err != nil || o.Variant != d.Variant {
			t.Errorf("variant %s: --variant %s gives options %+v, %v", d.Variant, d.Variant, o, err)
		}
	}
}
