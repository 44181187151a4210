package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
)

// TestUID34FormClock (UI-D34, CLK-D2, CLK-D10): the new-game form's clock
// field, reached with Tab after the handicap, takes the --time syntax for
// the variants with clocks and gives the options' time control (with the
// command line's lag allowance); bad text is refused with the parse error
// under the form and stays in the field to be corrected; the other
// variants do not read the field; the command line's --time fills it in.
func TestUID34FormClock(t *testing.T) {
	l, setFocus := focusedLobby(t, engine.Options{Variant: engine.VariantGo, Lag: 2 * time.Second})
	var invited []engine.Options
	l.OnInvite = func(_ string, o engine.Options) { invited = append(invited, o) }
	l.opponent.SetText("12D3KooWOpponentPeerIDxxxxxxxxxxxxxxxxxxxxxxxxxxQa")
	// Opponent, Variant, Size, Komi, the field of each variant's option
	// (counted, VAR-D7), Your colour, Handicap, then the clock.
	lobbyKeys(l, setFocus, strings.Repeat("\t", 4+len(l.options)+2)+"5m+3x30s")
	o, err := l.Options()
	want := clock.Control{Kind: clock.Japanese, Main: 5 * time.Minute, Periods: 3, Period: 30 * time.Second}
	if err != nil || o.Time != want || o.Lag != 2*time.Second {
		t.Fatalf("clock 5m+3x30s: %+v, %v; want %v with the lag 2s", o, err, want)
	}
	l.invite()
	if len(invited) != 1 || invited[0].Time != want {
		t.Fatalf("invited with %+v, want the clock %v", invited, want)
	}

	// Bad text: no invitation, the parse error under the form, the text
	// kept.
	lobbyKeys(l, setFocus, "+")
	l.invite()
	text := drawScreen(t, l, 80, 24)
	if len(invited) != 1 {
		t.Errorf("a bad clock sent an invitation: %+v", invited[1:])
	}
	if got := l.sides.clock.GetText(); got != "5m+3x30s+" {
		t.Errorf("the clock field holds %q after the error, want the typed text kept", got)
	}
	for _, w := range []string{"bad time control", "5m+3x30s+", "10m+25/5m"} {
		if !strings.Contains(text, w) {
			t.Errorf("the lobby does not show %q after a bad clock:\n%s", w, text)
		}
	}
	// Corrected, it is read again; "none" is no clock.
	lobbyKeys(l, setFocus, "\x7f")
	if o, err := l.Options(); err != nil || o.Time != want {
		t.Errorf("after erasing the '+': %v, %v", o.Time, err)
	}
	l.sides.clock.SetText("none")
	if o, err := l.Options(); err != nil || !o.Time.IsNone() {
		t.Errorf("clock none: %v, %v", o.Time, err)
	}

	// Every variant reads it (CLK-D14..D16).
	for _, v := range []engine.Variant{engine.VariantBridge, engine.VariantHMG, engine.VariantFGo, engine.VariantGomoku, engine.VariantPhantom} {
		l.sides.clock.SetText("10m+5s")
		l.SetDefaults(engine.Options{Variant: v})
		if o, err := l.Options(); err != nil || o.Time.Kind != clock.Fischer {
			t.Errorf("%s with 10m+5s: %v, %v", v, o.Time, err)
		}
	}

	// kakure play --time fills the field in its canonical form.
	l2, _ := focusedLobby(t, engine.Options{Variant: engine.VariantGo, Time: clock.Control{Kind: clock.Absolute, Main: 90 * time.Second}})
	if got := l2.sides.clock.GetText(); got != "1m30s" {
		t.Errorf("the field after --time 90s holds %q, want 1m30s", got)
	}
	if !strings.Contains(drawScreen(t, l2, 80, 24), "Clock") {
		t.Error("the form does not show the clock field")
	}
}
