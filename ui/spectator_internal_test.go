package ui

import (
	"slices"
	"testing"

	"github.com/kakure/kakure/protocol/watch"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestUID48CapturedNamed: under the common rules Phantom Go's public
// announcements name the captured stones (as phantom.Announcement writes
// them), and the spectator's live board highlights those points and
// draws no stone (UI-D48).
func TestUID48CapturedNamed(t *testing.T) {
	const size = 5
	c3, _ := engine.ParseVertex(size, "C3")
	d3, _ := engine.ParseVertex(size, "D3")
	a := phantom.Announcement{Rules: engine.RulesCommon, Size: size, Mover: engine.White, Event: phantom.Moved,
		Point: engine.NoPoint, Captures: 2, Captured: []engine.Point{c3, d3}}
	text := session.PublicAnnouncementText(a)
	got := capturedNamed(size, map[uint64]string{0: "Black has moved", 1: text})
	slices.Sort(got)
	if !slices.Equal(got, []engine.Point{c3, d3}) {
		t.Fatalf("the points %q names: %s", text, engine.FormatVertices(size, got))
	}
	s := NewSpectatorScreen("", nil)
	s.state = SpectatorState{HavePeers: true, Announcements: map[uint64]string{1: text}}
	s.final.Options.Size = size
	bm := s.boardModel()
	for _, p := range []engine.Point{c3, d3} {
		if pm := bm.At(p); !pm.Has(MarkHighlight) || pm.Stone != engine.Empty {
			t.Errorf("%s: %+v, want highlighted and no stone", p.Vertex(size), pm)
		}
	}
}

// spectatorOfRecord returns the spectator screen of the recorded game
// testdata/NAME.record.json after its first n messages, published as its
// inviter's program publishes them (session.PublicOf).
func spectatorOfRecord(t *testing.T, name string, n int) *SpectatorScreen {
	t.Helper()
	tr, err := session.LoadTranscript("testdata/" + name + ".record.json")
	if err != nil {
		t.Fatal(err)
	}
	m := protocol.NewMachine(tr.Game)
	if _, err := m.Apply(&tr.Messages[0]); err != nil {
		t.Fatal(err)
	}
	publisher := peer.ID(tr.Peers[protocol.Inviter])
	spec := watch.NewSpectator(publisher, tr.Game)
	s := NewSpectatorScreen(publisher, nil)
	for i := range min(n, len(tr.Messages)) {
		data, err := session.MarshalPublication(session.PublicOf(m.Options.Variant, i, &tr.Messages[i]))
		if err != nil {
			t.Fatal(err)
		}
		s.Take(spec.Take(publisher, data), SpectatorStateOf(publisher, spec))
	}
	return s
}
