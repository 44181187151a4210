package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// TestUID32FormColourAndHandicap (UI-D32, HC-D1, HC-D2): the form's
// colour field (reached with Tab after the variant's options, its first
// letters choose) and handicap field give the options' colour choice and
// handicap; the handicap is read for plain Go only, the colour for every
// variant but gomoku; a handicap without a colour choice, or one the board
// does not take, is an error that names it.
func TestUID32FormColourAndHandicap(t *testing.T) {
	l, setFocus := focusedLobby(t, engine.Options{Variant: engine.VariantGo})
	// Opponent, Variant, Size, Komi, the field of each variant's option
	// (Rules, Hidden moves, Suicide, Perpendicular: counted, so that a
	// new variant's option needs no change here, VAR-D7), then the
	// colour.
	lobbyKeys(l, setFocus, strings.Repeat("\t", 4+len(l.options))+"w\n")
	l.sides.handicap.SetText("3")
	o, err := l.Options()
	if err != nil || o.InviterColor != engine.White || o.Handicap != 3 || o.Komi != 0.5 {
		t.Fatalf("white with handicap 3: %+v, %v; want the inviter White, handicap 3, komi 0.5", o, err)
	}
	l.sides.handicap.SetText("12")
	if _, err := l.Options(); err == nil || !strings.Contains(err.Error(), "handicap 12") {
		t.Errorf("handicap 12 on 9×9: %v, want an error naming it", err)
	}
	l.sides.handicap.SetText("x")
	if _, err := l.Options(); err == nil || !strings.Contains(err.Error(), "handicap") {
		t.Errorf("handicap x: %v, want an error naming the field", err)
	}
	l.sides.handicap.SetText("2")
	l.sides.color.SetCurrentOption(0)
	if _, err := l.Options(); err == nil || !strings.Contains(err.Error(), "colour choice") {
		t.Errorf("handicap with nigiri: %v, want an error asking for a colour", err)
	}
	// Another variant: the handicap field is not read, the colour is.
	l.sides.color.SetCurrentOption(1)
	l.SetDefaults(engine.Options{Variant: engine.VariantPhantom, InviterColor: engine.Black})
	if o, err := l.Options(); err != nil || o.Handicap != 0 || o.InviterColor != engine.Black {
		t.Errorf("phantom, black, handicap field 2: %+v, %v", o, err)
	}
	l.SetDefaults(engine.Options{Variant: engine.VariantGomoku})
	if o, err := l.Options(); err != nil || o.InviterColor != engine.Empty {
		t.Errorf("gomoku takes no colour choice: %+v, %v", o, err)
	}
}

// TestUID32InvitationSaysColours (UI-D32): the invitation's dialog tells
// the invitee the colour it will play and the handicap, or that a coin
// toss decides.
func TestUID32InvitationSaysColours(t *testing.T) {
	for _, c := range []struct {
		o    engine.Options
		want string
	}{
		{engine.Options{Variant: engine.VariantGo, Size: 9, InviterColor: engine.White, Handicap: 2}, "You play Black (their choice), handicap 2"},
		{engine.Options{Variant: engine.VariantGo, Size: 9, InviterColor: engine.Black}, "You play White (their choice)"},
		{engine.Options{Variant: engine.VariantPhantom, Size: 9}, "Colours by nigiri (coin toss)"},
	} {
		l, _ := focusedLobby(t, engine.Options{Variant: engine.VariantGo})
		o, err := c.o.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		l.Invited(&Invitation{From: "12D3KooWFirstInviterxxxxxxxxxxxxxxxxxxxxxxxxAAAA", Options: o,
			Deadline: time.Now().Add(time.Minute), Answer: func(error) {}})
		if text := drawScreen(t, l, 80, 24); !strings.Contains(text, c.want) {
			t.Errorf("invitation to %+v: the dialog does not say %q:\n%s", o, c.want, text)
		}
	}
}

// TestUID32LogSaysWhoChoseTheColours (UI-D32, HC-D2): when the invitation
// chose the colours, the game's log does not speak of a coin toss: it
// says the invitation chose them; with nigiri it says a coin is tossed.
func TestUID32LogSaysWhoChoseTheColours(t *testing.T) {
	for _, c := range []struct {
		choice     engine.Color
		toss, play string
	}{
		{engine.White, "The invitation chose the colours…", "You play Black ●, as the invitation chose."},
		{engine.Empty, "Tossing a coin for the colours…", "You play Black ●."},
	} {
		o, err := (engine.Options{Variant: engine.VariantGo, InviterColor: c.choice}).Normalize()
		if err != nil {
			t.Fatal(err)
		}
		var m GameModel
		v := protocol.View{Role: protocol.Invitee, Options: o, Phase: protocol.PhaseToss}
		m.Apply(nil, protocol.EventPhase{Phase: protocol.PhaseToss}, v)
		v.Phase, v.Color = protocol.PhasePlay, engine.Black
		m.Apply(nil, protocol.EventColors{Colors: [2]engine.Color{engine.White, engine.Black}}, v)
		if got := strings.Join(m.Log, "\n"); got != c.toss+"\n"+c.play {
			t.Errorf("inviter's choice %v: the log says %q, want %q then %q", c.choice, got, c.toss, c.play)
		}
	}
}

// TestInvitationWarnsOfLambdaOne (issue 31): an invitation to Phantom Go
// whose tries are not checked during play (λ = 1) says so in its dialog;
// one of checked tries, or of another variant, does not.
func TestInvitationWarnsOfLambdaOne(t *testing.T) {
	for _, c := range []struct {
		o    engine.Options
		warn bool
	}{
		{engine.Options{Variant: engine.VariantPhantom, Size: 9, Lambda: 1}, true},
		{engine.Options{Variant: engine.VariantPhantom, Size: 9}, true},
		{engine.Options{Variant: engine.VariantPhantom, Size: 9, Lambda: 4}, false},
		{engine.Options{Variant: engine.VariantGo, Size: 9}, false},
	} {
		l, _ := focusedLobby(t, engine.Options{Variant: engine.VariantGo})
		o, err := c.o.Normalize()
		if err != nil {
			t.Fatal(err)
		}
		l.Invited(&Invitation{From: "12D3KooWFirstInviterxxxxxxxxxxxxxxxxxxxxxxxxAAAA", Options: o,
			Deadline: time.Now().Add(time.Minute), Answer: func(error) {}})
		text := drawScreen(t, l, 100, 30)
		if got := strings.Contains(text, "λ = 1, the tries are not checked"); got != c.warn {
			t.Errorf("invitation to %+v: warning shown %v, want %v:\n%s", o, got, c.warn, text)
		}
	}
}
