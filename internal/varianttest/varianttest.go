// Package varianttest adds a seventh variant to engine's descriptors for
// the tests of every layer (VAR-D8): each layer's completeness check,
// fed the six variants and this one, must name every piece of its own
// the seventh lacks, by variant and registry, and panic on none. Only
// tests import it.
package varianttest

import (
	"slices"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

// Variant is the seventh variant's name, and OptionKey the key of its
// one option: names no real variant or option takes, so that a real
// seventh variant added piece by piece is told apart from this one.
const (
	Variant   engine.Variant = "seventh-test"
	OptionKey string         = "seventh-tilt"
)

// Descriptor returns the seventh variant's descriptor: Bridge Go's
// (public board, take-backs, clocks, no komi) with one switch of its own
// held in engine.Options.Own (VAR-D7), and a rules section "T7" no
// document has.
func Descriptor() *engine.Descriptor {
	return &engine.Descriptor{
		Variant: Variant, Title: "Seventh Test Go", ColorNames: [2]string{"Black", "White"}, ResultLetters: [2]string{"B", "W"}, Stones: true,
		MinSize: engine.MinSize, DefaultSize: 9,
		Colors: engine.ColorsByChoice, Timed: true, Undo: true, SGFGame: 1,
		RuleSections: []string{"T7", "GO"},
		Options:      []engine.VariantOption{engine.NewBoolOption(Variant, OptionKey, "Tilt", "the board is tilted")},
	}
}

// Add makes the seventh variant the last of engine.Descriptors and
// engine.Variants until t ends, as one line in engine.Descriptors would,
// and returns its descriptor. What is made from the descriptors when
// asked (Normalize, the flags, the lobby form, the wire) then knows it;
// a layer's registries, filled from its variants' files, do not. The
// descriptors are package variables: a test that calls Add must not be
// parallel (nor may one of its package run beside it, as none does
// before the sequential tests end).
func Add(t testing.TB) *engine.Descriptor {
	t.Helper()
	d := Descriptor()
	for _, old := range engine.Descriptors {
		if old.Variant == d.Variant {
			t.Fatalf("variant %s is in engine.Descriptors already", d.Variant)
		}
		for _, opt := range old.Options {
			if opt.Key == OptionKey {
				t.Fatalf("option %s is in engine.Descriptors already", OptionKey)
			}
		}
	}
	saved, savedVariants := engine.Descriptors, engine.Variants
	engine.Descriptors = append(slices.Clip(saved), d)
	engine.Variants = append(slices.Clip(savedVariants), d.Variant)
	t.Cleanup(func() { engine.Descriptors, engine.Variants = saved, savedVariants })
	return d
}

// Expect runs a layer's completeness check with the seventh variant
// added (Add) and checks what it says of it: the check panics on
// nothing, and the seventh's missing pieces are said one a line, each
// line holding one of want (the variant and the registry, test file or
// document it lacks), no more and no fewer. What it says of the other
// variants is the layer's TestEvery… test's to report.
func Expect(t *testing.T, check func() []string, want ...string) {
	t.Helper()
	missing, panicked := run(check)
	if panicked != nil {
		t.Fatalf("the completeness check panics with a seventh variant: %v", panicked)
	}
	left := slices.Clone(want)
	for _, line := range missing {
		if !containsWord(line, string(Variant)) {
			continue
		}
		i := slices.IndexFunc(left, func(w string) bool { return strings.Contains(line, w) })
		if i < 0 {
			t.Errorf("said of the seventh variant, not expected: %s", line)
			continue
		}
		left = slices.Delete(left, i, i+1)
	}
	for _, w := range left {
		t.Errorf("the seventh variant's missing piece is not named: no line says %q (said: %q)", w, missing)
	}
}

func run(check func() []string) (missing []string, panicked any) {
	defer func() { panicked = recover() }()
	return check(), nil
}

// containsWord reports whether s holds w as a word.
func containsWord(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i:i+len(w)] == w && (i == 0 || !isWordByte(s[i-1])) && (i+len(w) == len(s) || !isWordByte(s[i+len(w)])) {
			return true
		}
	}
	return false
}

func isWordByte(b byte) bool {
	return b == '_' || b == '-' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}
