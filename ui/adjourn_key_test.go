package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/protocol"
)

// TestCLKD13AdjournKey (CLK-D13, UI-D34): in a game with a clock ^O asks
// the opponent to adjourn, and agrees when the opponent asked; the log
// and the clock's line say who asked and that ^O agrees, then that the
// clocks stopped; ^O sends nothing in a game without a clock, while its
// own request waits, or once the game is adjourned; the help lists it.
func TestCLKD13AdjournKey(t *testing.T) {
	g := &fakeGame{view: goView(t, 9)}
	s := g.screen(t)
	press(s, "\x0f")
	if len(g.actions) != 0 || !strings.Contains(s.Model().Message, "no clock") {
		t.Errorf("^O without a clock: actions %q, message %q", g.played(9), s.Model().Message)
	}

	timed := func(c protocol.ClockView) protocol.View {
		v := goView(t, 9, "D4") // White (the opponent) to move
		c.Control, c.Lag = clock.MustParse("5m"), time.Second
		c.Clocks = [2]clock.State{{Main: 5 * time.Minute}, {Main: 5 * time.Minute}}
		c.Running, c.Since = protocol.Invitee, time.Now()
		v.Clock = &c
		return v
	}
	g.set(s, timed(protocol.ClockView{}))
	press(s, "\x0f")
	if got := g.played(9); got != "requestadjourn" {
		t.Fatalf("^O in a timed game sent %q, want a request to adjourn", got)
	}
	g.clear()
	g.view = timed(protocol.ClockView{AdjournAsked: true, AdjournBy: protocol.Inviter})
	s.Apply(protocol.EventAdjournRequested{By: protocol.Inviter}, g.view)
	press(s, "\x0f")
	if len(g.actions) != 0 || !strings.Contains(s.Model().Message, "waiting for the opponent") {
		t.Errorf("^O while its own request waits: actions %q, message %q", g.played(9), s.Model().Message)
	}
	if text := drawScreen(t, s, 120, 40); !strings.Contains(text, "You ask to adjourn") || strings.Contains(text, "(^O agrees)") {
		t.Errorf("after asking, the screen should say so and not offer ^O to agree:\n%s", text)
	}

	// The opponent asks: ^O agrees.
	g.view = timed(protocol.ClockView{AdjournAsked: true, AdjournBy: protocol.Invitee})
	s.Apply(protocol.EventAdjournRequested{By: protocol.Invitee}, g.view)
	text := drawScreen(t, s, 120, 40)
	for _, w := range []string{"White asks to adjourn (^O agrees)", "White asks to adjourn: ^O agrees"} {
		if !strings.Contains(text, w) {
			t.Errorf("the opponent's request: the screen lacks %q:\n%s", w, text)
		}
	}
	press(s, "\x0f")
	if got := g.played(9); got != "acceptadjourn" {
		t.Fatalf("^O after the opponent asked sent %q, want the acceptance", got)
	}
	g.clear()
	g.view = timed(protocol.ClockView{Adjourned: true, Stopped: true})
	s.Apply(protocol.EventAdjournAgreed{}, g.view)
	text = drawScreen(t, s, 120, 40)
	for _, w := range []string{"adjourned, the clocks stopped", "adjourned by agreement"} {
		if !strings.Contains(text, w) {
			t.Errorf("adjourned: the screen lacks %q:\n%s", w, text)
		}
	}
	press(s, "\x0f")
	if len(g.actions) != 0 || !strings.Contains(s.Model().Message, "adjourned already") {
		t.Errorf("^O once adjourned: actions %q, message %q", g.played(9), s.Model().Message)
	}
	if _, play, _ := s.Keys(); !strings.Contains(play.Help(), "adjourn") {
		t.Errorf("the help does not list ^O:\n%s", play.Help())
	}
}
