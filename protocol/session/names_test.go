package session_test

import (
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestNamesCarriedSigned (UI-D30): each service's Config.Name goes in its
// invitation and its acceptance; both peers' views give both names, the
// invitee's OnInvite sees the inviter's, and the saved records (signed
// bodies) give them back after a reload.
func TestNamesCarriedSigned(t *testing.T) {
	names := [2]string{"Alice", "Bob [b]"}
	var seen string
	p := newPair(t, func(i int, c *session.Config) {
		c.Name = names[i]
		if i == 1 {
			c.OnInvite = func(_ peer.ID, name string, _ engine.Options) error {
				seen = name
				return nil
			}
		}
	})
	a, b := playBots(t, p, engine.Options{Variant: engine.VariantGo, Size: 5}, 3)
	if seen != names[0] {
		t.Errorf("OnInvite saw the name %q, want %q", seen, names[0])
	}
	for _, g := range []*session.Game{a, b} {
		if got := g.View().Names; got != names {
			t.Errorf("%s: View.Names %q, want %q", g.Role(), got, names)
		}
		tr, err := session.LoadTranscript(g.RecordPath())
		if err != nil {
			t.Fatal(err)
		}
		m := protocol.NewMachine(tr.Game)
		for i := range tr.Messages {
			if _, err := m.Apply(&tr.Messages[i]); err != nil {
				t.Fatalf("%s: record message %d: %v", g.Role(), i, err)
			}
		}
		if m.Names != names {
			t.Errorf("%s: the record gives the names %q, want %q", g.Role(), m.Names, names)
		}
	}
}

// TestNamesOverTheCapRefusedLocally: a service is not started with a
// name the other side would refuse.
func TestNamesOverTheCapRefusedLocally(t *testing.T) {
	h := newHost(t)
	long := make([]byte, protocol.MaxNameLength+1)
	for i := range long {
		long[i] = 'a'
	}
	if _, err := session.NewService(session.Config{Host: h, Name: string(long)}); err == nil {
		t.Error("NewService took a name over the cap")
	}
}
