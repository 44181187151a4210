package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// TestUID33Petnames (UI-D33): a peer the player gave a petname shows as
// that name marked with PetnameMark instead of its short peer ID, in
// labels and short columns, with the peer's own display name beside it
// when it differs; no peer's display name can carry the mark, so none can
// pass for a petname; peers without a petname show as before.
func TestUID33Petnames(t *testing.T) {
	const bob = "12D3KooWPetnameTestBobxxxxxxxxxxxxxxxxxxxxxxxxBOBB"
	const eve = "12D3KooWPetnameTestEvexxxxxxxxxxxxxxxxxxxxxxxxEVEE"
	book := Petnames{bob: "Bob"}
	for _, tt := range []struct{ name, id, want string }{
		{"", bob, "@Bob"},
		{"Bob", bob, "@Bob"},
		{"Robert", bob, "@Bob (Robert)"},
		{"", eve, ShortPeer(eve)},
		{"@Bob", eve, "Bob (" + ShortPeer(eve) + ")"},
		{" @@Bob", eve, "Bob (" + ShortPeer(eve) + ")"},
		{"＠Bob", eve, "Bob (" + ShortPeer(eve) + ")"},
	} {
		if got := book.PeerLabel(tt.name, tt.id); got != tt.want {
			t.Errorf("PeerLabel(%q, %s) = %q, want %q", tt.name, ShortPeer(tt.id), got, tt.want)
		}
	}
	if got := book.PeerShort(bob); got != "@Bob" {
		t.Errorf("PeerShort(Bob's ID) = %q, want @Bob", got)
	}
	if got := book.PeerShort(eve); got != ShortPeer(eve) {
		t.Errorf("PeerShort(Eve's ID) = %q, want the short ID", got)
	}

	// The lobby: the invitation dialog and the list of peers on the LAN.
	l, _ := focusedLobby(t, engine.Options{Variant: engine.VariantGo})
	l.petnames = newPetnameBook(book)
	l.Model().AddLANPeer(LANPeer{ID: bob})
	o, _ := (engine.Options{Variant: engine.VariantGo}).Normalize()
	l.Invited(&Invitation{From: bob, Name: "Robert", Options: o, Deadline: time.Now().Add(time.Minute), Answer: func(error) {}})
	text := drawScreen(t, l, 100, 30)
	if !strings.Contains(text, "@Bob (Robert) invites you") || strings.Contains(text, ShortPeer(bob)+" ") {
		t.Errorf("the lobby does not show Bob by his petname:\n%s", text)
	}
}

// TestUID33AppPetnames (UI-D33, UI-D45): the App gives the petname book
// of its configuration to the lobby and the screens it opens, and
// SetPetnames replaces it for all of them, a copy: changing the map
// given changes nothing shown.
func TestUID33AppPetnames(t *testing.T) {
	const bob = "12D3KooWPetnameTestBobxxxxxxxxxxxxxxxxxxxxxxxxBOBB"
	sim := tcell.NewSimulationScreen("UTF-8")
	if err := sim.Init(); err != nil {
		t.Fatal(err)
	}
	defer sim.Fini()
	book := Petnames{bob: "Bob"}
	a := NewApp(AppConfig{Network: &fakeNetwork{}, Defaults: options(t, engine.VariantGo, 5), Screen: sim, Petnames: book})
	a.lobby.Model().AddLANPeer(LANPeer{ID: bob})
	a.lobby.Render()
	if text := drawScreen(t, a.lobby, 100, 30); !strings.Contains(text, "@Bob") {
		t.Errorf("the App's lobby does not show Bob by the petname of its configuration:\n%s", text)
	}
	book[bob] = "Changed"
	a.lobby.Render()
	if text := drawScreen(t, a.lobby, 100, 30); strings.Contains(text, "@Changed") || !strings.Contains(text, "@Bob") {
		t.Errorf("the App's lobby does not show a copy of the book it was given:\n%s", text)
	}
	a.SetPetnames(Petnames{bob: "Robert"})
	a.lobby.Render()
	if text := drawScreen(t, a.lobby, 100, 30); !strings.Contains(text, "@Robert") || strings.Contains(text, "@Bob") {
		t.Errorf("after SetPetnames the lobby does not show Bob's new petname:\n%s", text)
	}
	conn := newLiveRecord(t, "go", protocol.Inviter)
	opp := conn.Peer().String()
	a.SetPetnames(Petnames{opp: "Opp"})
	a.openGame(conn)
	if got := a.game.Model().OpponentLabel(); !strings.HasPrefix(got, "@Opp") {
		t.Errorf("the game screen the App opened labels the opponent %q, want @Opp", got)
	}
	s, _ := newRecordScreen(t, "go", protocol.Inviter)
	if got := s.Model().OpponentLabel(); strings.HasPrefix(got, PetnameMark) {
		t.Errorf("a game screen made outside an App labels its opponent %q, a petname", got)
	}
}
