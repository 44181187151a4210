package main

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

// TestEveryVariantHasItsFlags checks that the flags of the commands that
// start games (variantFlags) know every variant of engine.Variants: the
// help of --variant names it, --variant takes it, and every option of its
// descriptor has its flag --KEY (VariantOption.Key: the flag, the SGF VO
// pair and the lobby's field share the name). A variant or an option the
// flags lack is named (issue 33).
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
