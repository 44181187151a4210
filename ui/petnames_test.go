package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
)

// TestUID33Petnames (UI-D33): a peer the player gave a petname shows as
// that name marked with PetnameMark instead of its short peer ID, in
// labels and short columns, with the peer's own display name beside it
// when it differs; no peer's display name can carry the mark, so none can
// pass for a petname; peers without a petname show as before.
func TestUID33Petnames(t *testing.T) {
	const bob = "12D3KooWPetnameTestBobxxxxxxxxxxxxxxxxxxxxxxxxBOBB"
	const eve = "12D3KooWPetnameTestEvexxxxxxxxxxxxxxxxxxxxxxxxEVEE"
	SetPetnames(Petnames{bob: "Bob"})
	t.Cleanup(func() { SetPetnames(nil) })
	for _, tt := range []struct{ name, id, want string }{
		{"", bob, "@Bob"},
		{"Bob", bob, "@Bob"},
		{"Robert", bob, "@Bob (Robert)"},
		{"", eve, ShortPeer(eve)},
		{"@Bob", eve, "Bob (" + ShortPeer(eve) + ")"},
		{" @@Bob", eve, "Bob (" + ShortPeer(eve) + ")"},
		{"＠Bob", eve, "Bob (" + ShortPeer(eve) + ")"},
	} {
		if got := PeerLabel(tt.name, tt.id); got != tt.want {
			t.Errorf("PeerLabel(%q, %s) = %q, want %q", tt.name, ShortPeer(tt.id), got, tt.want)
		}
	}
	if got := PeerShort(bob); got != "@Bob" {
		t.Errorf("PeerShort(Bob's ID) = %q, want @Bob", got)
	}
	if got := PeerShort(eve); got != ShortPeer(eve) {
		t.Errorf("PeerShort(Eve's ID) = %q, want the short ID", got)
	}

	// The lobby: the invitation dialog and the list of peers on the LAN.
	l, _ := focusedLobby(t, engine.Options{Variant: engine.VariantGo})
	l.Model().AddLANPeer(LANPeer{ID: bob})
	o, _ := (engine.Options{Variant: engine.VariantGo}).Normalize()
	l.Invited(&Invitation{From: bob, Name: "Robert", Options: o, Deadline: time.Now().Add(time.Minute), Answer: func(error) {}})
	text := drawScreen(t, l, 100, 30)
	if !strings.Contains(text, "@Bob (Robert) invites you") || strings.Contains(text, ShortPeer(bob)+" ") {
		t.Errorf("the lobby does not show Bob by his petname:\n%s", text)
	}
}
