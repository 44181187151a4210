package ui

import (
	"slices"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

// TestUID50TryFlipsStartsChecked (UI-D50, UI-D49): with the defaults
// kakure's commands give the lobby for a Phantom Go game where the
// evaluator's tries by flips apply (try-flips=true among the own
// options, λ = 4, the authenticated input OTs), the form's "Try flips"
// starts checked, on the screen and in the options it gives; unchecked
// (Tab to it, space), the options have no switch at all (absent, as on
// the wire without flips). With defaults that lack it (--lambda 1, or
// --try-flips=false) it starts unchecked.
func TestUID50TryFlipsStartsChecked(t *testing.T) {
	flips := slices.IndexFunc(engine.VariantPhantom.Descriptor().Options, func(opt engine.VariantOption) bool {
		return opt.Key == engine.OptionTryFlips
	})
	if flips < 0 {
		t.Fatalf("Phantom Go has no option %s", engine.OptionTryFlips)
	}
	opt := engine.VariantPhantom.Descriptor().Options[flips]
	defaults := engine.Options{Variant: engine.VariantPhantom, Size: 9,
		Lambda: 4, Garbling: engine.GarblingThreeHalves, InputOT: engine.InputOTAuthenticatedMAC64}
	if err := opt.Parse(&defaults, "true"); err != nil {
		t.Fatal(err)
	}
	l, setFocus := focusedLobby(t, defaults)
	if line := tryFlipsLine(t, l); !strings.Contains(line, "X") {
		t.Errorf("Try flips does not start checked: %q", line)
	}
	o, err := l.Options()
	if err != nil || !o.TryFlips() || o.Lambda != 4 || o.InputOT != engine.InputOTAuthenticatedMAC64 {
		t.Fatalf("the form's options with the command's defaults: %+v, %v; want try-flips=true, λ = 4, %s", o, err, engine.InputOTAuthenticatedMAC64)
	}
	// Opponent, Variant, Size, Komi, then the options' fields in the
	// descriptors' order (TestUID32FormColourAndHandicap).
	field := slices.IndexFunc(l.options, func(f optionField) bool { return f.opt.Key == engine.OptionTryFlips })
	lobbyKeys(l, setFocus, strings.Repeat("\t", 4+field)+" ")
	if line := tryFlipsLine(t, l); strings.Contains(line, "X") {
		t.Errorf("Try flips is still checked after space: %q", line)
	}
	o, err = l.Options()
	if _, present := o.OwnValue(engine.OptionTryFlips); err != nil || o.TryFlips() || present {
		t.Errorf("unchecked, the form gives %+v (own %q), %v; want no try-flips", o, o.Own, err)
	}
	// Defaults without the switch: unchecked.
	for _, d := range []engine.Options{
		{Variant: engine.VariantPhantom, Size: 9, Lambda: 1, Garbling: engine.GarblingThreeHalves},
		{Variant: engine.VariantPhantom, Size: 9, Lambda: 4, Garbling: engine.GarblingThreeHalves, InputOT: engine.InputOTAuthenticatedMAC64},
	} {
		l, _ := focusedLobby(t, d)
		if line := tryFlipsLine(t, l); strings.Contains(line, "X") {
			t.Errorf("λ = %d, %q: Try flips starts checked without the switch in the defaults: %q", d.Lambda, d.InputOT, line)
		}
		if o, err := l.Options(); err != nil || o.TryFlips() {
			t.Errorf("λ = %d, %q: the form gives %+v, %v; want no try-flips", d.Lambda, d.InputOT, o, err)
		}
	}
}

// tryFlipsLine draws the lobby on a simulation screen and returns the
// line of the form's "Try flips" (from its label on).
func tryFlipsLine(t *testing.T, l *Lobby) string {
	t.Helper()
	text := drawScreen(t, l, 100, 30)
	for line := range strings.SplitSeq(text, "\n") {
		if _, after, ok := strings.Cut(line, "Try flips (phantom)"); ok {
			// The form's column only: the lists beside it start at a
			// box's edge.
			before, _, _ := strings.Cut(after, "║")
			return before
		}
	}
	t.Fatalf("no Try flips on the screen:\n%s", text)
	return ""
}
