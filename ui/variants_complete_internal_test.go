package ui

import (
	"strings"
	"testing"

	"github.com/rivo/tview"

	"github.com/kakure/kakure/engine"
)

// TestEveryVariantHasAScreen checks that every variant of engine.Variants
// has a game screen (variantScreens), its rules text (UI-D23: the rules of
// docs/spec/rules.md in the game) and a lobby form that reads every one of
// its options; a variant that lacks one is named.
func TestEveryVariantHasAScreen(t *testing.T) {
	l := NewLobby("12D3KooWLobbyTestPeerIDxxxxxxxxxxxxxxxxxxxxxxxxxxx", nil, engine.Options{Variant: engine.VariantGo})
	num := func(*tview.InputField, string) (float64, bool, error) { return 0, false, nil }
	for _, d := range engine.Descriptors {
		if variantScreens[d.Variant] == nil {
			t.Errorf("variant %s has no screen (variantScreens)", d.Variant)
		} else if _, none := screenFor(d.Variant).(noScreen); none {
			t.Errorf("variant %s: screenFor gives the no-screen stub", d.Variant)
		}
		text := RulesText(engine.Options{Variant: d.Variant})
		for _, id := range d.RuleSections {
			if !strings.Contains(text, id+"-1") {
				t.Errorf("variant %s: the rules text has no %s-1", d.Variant, id)
			}
		}
		var o engine.Options
		for _, opt := range d.Options {
			if err := l.readOption(opt, &o, num); err != nil {
				t.Errorf("variant %s: the lobby form: %v", d.Variant, err)
			}
		}
	}
	for v := range variantScreens {
		if _, err := engine.LookupDescriptor(v); err != nil {
			t.Errorf("screen registered for %v", err)
		}
	}
	if err := l.readOption(engine.VariantOption{Key: "colour", Variant: "chess"}, new(engine.Options), num); err == nil || !strings.Contains(err.Error(), `"colour" of chess`) {
		t.Errorf("an option the form lacks: %v", err)
	}
}
