package ui

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/rivo/tview"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/varianttest"
)

// missingScreens names each variant of engine.Descriptors that lacks a
// game screen (variantScreens), a section of its rules text (UI-D23: the
// rules of docs/spec/rules.md in the game) or a field of the lobby form
// for one of its options, and each screen of no variant.
func missingScreens() []string {
	var missing []string
	l := NewLobby("12D3KooWLobbyTestPeerIDxxxxxxxxxxxxxxxxxxxxxxxxxxx", nil, engine.Options{Variant: engine.VariantGo})
	num := func(*tview.InputField, string) (float64, bool, error) { return 0, false, nil }
	for _, d := range engine.Descriptors {
		if variantScreens[d.Variant] == nil {
			missing = append(missing, fmt.Sprintf("variant %s has no screen (variantScreens)", d.Variant))
		} else if _, none := screenFor(d.Variant).(noScreen); none {
			missing = append(missing, fmt.Sprintf("variant %s: screenFor gives the no-screen stub", d.Variant))
		}
		text := RulesText(engine.Options{Variant: d.Variant})
		for _, id := range d.RuleSections {
			if !strings.Contains(text, id+"-1") {
				missing = append(missing, fmt.Sprintf("variant %s: the rules text has no %s-1 (docs/spec/rules.md)", d.Variant, id))
			}
		}
		var o engine.Options
		for _, opt := range d.Options {
			if err := l.readOption(opt, &o, num); err != nil {
				missing = append(missing, fmt.Sprintf("variant %s: the lobby form: %v", d.Variant, err))
			}
		}
	}
	for v := range variantScreens {
		if _, err := engine.LookupDescriptor(v); err != nil {
			missing = append(missing, fmt.Sprintf("screen registered for %v", err))
		}
	}
	return missing
}

// TestEveryVariantHasAScreen checks that every variant of engine.Variants
// has a game screen (variantScreens), its rules text (UI-D23: the rules of
// docs/spec/rules.md in the game) and a lobby form that reads every one of
// its options; a variant that lacks one is named (missingScreens).
func TestEveryVariantHasAScreen(t *testing.T) {
	for _, m := range missingScreens() {
		t.Error(m)
	}
	l := NewLobby("12D3KooWLobbyTestPeerIDxxxxxxxxxxxxxxxxxxxxxxxxxxx", nil, engine.Options{Variant: engine.VariantGo})
	num := func(*tview.InputField, string) (float64, bool, error) { return 0, false, nil }
	if err := l.readOption(engine.VariantOption{Key: "colour", Variant: "chess"}, new(engine.Options), num); err == nil || !strings.Contains(err.Error(), `"colour" of chess`) {
		t.Errorf("an option the form lacks: %v", err)
	}
}

// TestVARD8SeventhVariantNamedScreen: with a seventh descriptor added and
// no file of its own here, the UI's completeness check names its missing
// screen and rules section, the lobby form offers it and its option with
// no field written for them, and nothing panics (VAR-D8).
func TestVARD8SeventhVariantNamedScreen(t *testing.T) {
	varianttest.Add(t)
	varianttest.Expect(t, missingScreens, "variant seventh-test has no screen (variantScreens)", "variant seventh-test: the rules text has no T7-1")
	TestEveryOptionInTheLobbyForm(t)
	l := NewLobby("12D3KooWLobbyTestPeerIDxxxxxxxxxxxxxxxxxxxxxxxxxxx", nil, engine.Options{Variant: varianttest.Variant})
	if got := l.chosenVariant(); got != varianttest.Variant {
		t.Errorf("the lobby form offers %s first, want the seventh variant it was given", got)
	}
}

// TestEveryOptionInTheLobbyForm checks that the lobby's form has a field
// for every option of every descriptor, made from its description (issue
// 33, VAR-D6), that shows every value the description gives and reads it
// back: each choice, the bounds of a number, a switch on and off.
func TestEveryOptionInTheLobbyForm(t *testing.T) {
	l := NewLobby("12D3KooWLobbyTestPeerIDxxxxxxxxxxxxxxxxxxxxxxxxxxx", nil, engine.Options{Variant: engine.VariantGo})
	num := func(f *tview.InputField, _ string) (float64, bool, error) {
		x, err := strconv.ParseFloat(f.GetText(), 64)
		return x, err == nil, nil
	}
	for _, d := range engine.Descriptors {
		for _, opt := range d.Options {
			var values []string
			switch opt.Type {
			case engine.OptionChoice:
				values = opt.Choices
			case engine.OptionInt:
				values = []string{strconv.Itoa(opt.Min), strconv.Itoa(opt.Max)}
			case engine.OptionBool:
				values = []string{"true", "false"}
			}
			if len(values) == 0 {
				t.Errorf("variant %s: option %s has no values to offer (type %d)", d.Variant, opt.Key, opt.Type)
			}
			for _, value := range values {
				shown := engine.Options{Variant: d.Variant}
				if err := opt.Parse(&shown, value); err != nil {
					t.Fatalf("variant %s: option %s: Parse(%q): %v", d.Variant, opt.Key, value, err)
				}
				l.SetDefaults(shown)
				read := engine.Options{Variant: d.Variant}
				if err := l.readOption(opt, &read, num); err != nil {
					t.Errorf("variant %s: the lobby form: %v", d.Variant, err)
					continue
				}
				if got := opt.Format(read); got != value {
					t.Errorf("variant %s: the form shows option %s=%s and reads it back as %q", d.Variant, opt.Key, value, got)
				}
			}
		}
	}
}
