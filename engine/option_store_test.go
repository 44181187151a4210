package engine

import (
	"slices"
	"strings"
	"testing"
)

// toyVariant is a seventh variant that exists only in tests: its options
// are held in Options.Own (VAR-D7).
const toyVariant Variant = "toy"

// toyDescriptor describes toyVariant with one option of each type, each
// made by a constructor of option_store.go.
func toyDescriptor() *Descriptor {
	return &Descriptor{
		Variant: toyVariant, Title: "Toy Go", ColorNames: goColorNames, ResultLetters: goResultLetters, Stones: true,
		MinSize: MinSize, DefaultSize: 9, Colors: ColorsByChoice, SGFGame: 1,
		RuleSections: []string{"GO"},
		Options: []VariantOption{
			NewChoiceOption(toyVariant, "shape", "Shape", "board shape", "square", "torus"),
			NewIntOption(toyVariant, "stones", "Stones", "stones in hand", 0, 5, 2),
			NewBoolOption(toyVariant, "wrap", "Wrap", "edges wrap around"),
		},
	}
}

// withDescriptors makes ds engine's descriptors until the test ends:
// Descriptors and Variants (the options Normalize checks are read from
// Descriptors). Only tests that do not run in parallel may call it
// (engine has none that do); other packages' tests add a seventh variant
// with internal/varianttest (VAR-D8).
func withDescriptors(t *testing.T, ds []*Descriptor) {
	t.Helper()
	saved, savedVariants := Descriptors, Variants
	Descriptors, Variants = ds, variantsOf(ds)
	t.Cleanup(func() { Descriptors, Variants = saved, savedVariants })
}

// TestVARD7OptionsHeldInOwn checks the options described by
// NewChoiceOption, NewIntOption and NewBoolOption (VAR-D7) with the same
// checks as the options with a field of their own
// (TestVariantOptionsAsDescribed, TestVariantOptionsRoundTrip), on a
// seventh variant added to the descriptors: each option's default is
// filled in, its values go through Parse, Normalize and Format, values
// beyond its range are refused, and it is refused for another variant.
// Then what Own adds: a zero value of another variant's option (as the
// wire reads it) is dropped, a key of no option is refused, and options
// set in any order compare equal.
func TestVARD7OptionsHeldInOwn(t *testing.T) {
	withDescriptors(t, append(slices.Clone(Descriptors), toyDescriptor()))
	checkOptionsAsDescribed(t)
	TestVariantOptionsRoundTrip(t)

	for _, opt := range Descriptors[len(Descriptors)-1].Options {
		// The wire leaves out what another variant's options give.
		if got, want := opt.Format(Options{Variant: VariantGo}), map[OptionType]string{OptionChoice: "", OptionInt: "0", OptionBool: "false"}[opt.Type]; got != want {
			t.Errorf("toy option %s of go's options: %q, want its type's zero %q", opt.Key, got, want)
		}
	}
	def, err := Options{Variant: toyVariant}.Normalize()
	if err != nil || def.Own != "shape=square\nstones=2" {
		t.Errorf("toy's default options hold %q (%v), want shape=square and stones=2", def.Own, err)
	}
	stones, wrap := Descriptors[len(Descriptors)-1].Options[1], Descriptors[len(Descriptors)-1].Options[2]
	var zero Options
	if err := stones.Parse(&zero, "0"); err != nil || !stones.Chosen(zero) {
		t.Errorf("stones=0: %v, chosen %v: a 0 given is no default", err, stones.Chosen(zero))
	}
	zero.Variant = VariantGo
	if o, err := zero.Normalize(); err != nil || o.Own != "" {
		t.Errorf("go with toy's stones=0: Own %q (%v), want it dropped", o.Own, err)
	}
	if _, err := (Options{Variant: toyVariant, Own: "colour=red"}).Normalize(); err == nil || !strings.Contains(err.Error(), `"colour"`) {
		t.Errorf("a key of no option: %v, want it refused by name", err)
	}
	var a, b Options
	for _, step := range []struct {
		o          *Options
		opt        VariantOption
		key, value string
	}{{&a, wrap, "wrap", "true"}, {&a, stones, "stones", "4"}, {&b, stones, "stones", "4"}, {&b, wrap, "wrap", "true"}} {
		if err := step.opt.Parse(step.o, step.value); err != nil {
			t.Fatalf("%s=%s: %v", step.key, step.value, err)
		}
	}
	if a != b {
		t.Errorf("the same options set in two orders differ: %q and %q", a.Own, b.Own)
	}
	if err := wrap.Parse(&a, "false"); err != nil || a.Own != "stones=4" {
		t.Errorf("wrap=false: Own %q (%v), want the switch removed", a.Own, err)
	}
	if err := stones.Parse(&a, "1\nshape=torus"); err == nil {
		t.Errorf("a value with a line break is taken: Own %q", a.Own)
	}
}
