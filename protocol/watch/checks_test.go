package watch_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/watch"
)

// feed gives the spectator each publication by author and returns the
// lines it showed.
func feed(t *testing.T, s *watch.Spectator, p *player, pubs ...session.Publication) []watch.Line {
	t.Helper()
	var lines []watch.Line
	for _, pub := range pubs {
		data, err := session.MarshalPublication(pub)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, s.Take(p.h.ID(), data)...)
	}
	return lines
}

// refusedWith reports whether lines hold a refusal whose text holds
// words.
func refusedWith(lines []watch.Line, words string) bool {
	for _, l := range lines {
		if l.Status == watch.Refused && strings.Contains(l.Text, words) {
			return true
		}
	}
	return false
}

// TestSPEC3SpectatorChecks gives a spectator the publications of a real
// game of plain Go, with one message replaced by one its sender signed
// (the publisher is a player and signs what it likes): a message after a
// gap, one that does not chain, one that acknowledges a message not sent
// or another one than sent, one the rules refuse. Each is refused and
// named, and the spectator's view stays what it was. A copy of a
// publication changes nothing; a different message at a position taken
// is refused; and a message the spectator took that the record does
// not hold (the publisher equivocated to its spectators) is named when
// the record comes (SPEC-3, SPEC-4).
func TestSPEC3SpectatorChecks(t *testing.T) {
	g := playWatched(t, engine.Options{Variant: engine.VariantGo, Size: 5}, nil, nil)
	pubs := g.a.rec.published()
	keys := map[protocol.Role]crypto.PrivKey{
		protocol.Inviter: g.a.h.Peerstore().PrivKey(g.a.h.ID()),
		protocol.Invitee: g.b.h.Peerstore().PrivKey(g.b.h.ID()),
	}
	// k is the position of the second move: a move before it has taken
	// a point.
	k, moves := -1, 0
	var firstMove *protocol.Message
	for i, p := range pubs {
		if p.Message != nil && p.Message.Kind == protocol.KindMove {
			moves++
			if moves == 1 {
				firstMove = p.Message
			}
			if moves == 2 {
				k = i
				break
			}
		}
	}
	if k < 0 {
		t.Fatal("the game has fewer than two moves")
	}
	honest := *pubs[k].Message
	forge := func(change func(m *protocol.Message)) session.Publication {
		c := honest
		change(&c)
		if err := c.Sign(keys[c.From]); err != nil {
			t.Fatal(err)
		}
		return session.Publication{Game: c.Game, Pos: uint64(k), Message: &c}
	}
	for _, tc := range []struct {
		name  string
		pub   session.Publication
		words string
	}{
		{"gap", forge(func(m *protocol.Message) { m.Seq++ }), "out of order"},
		{"chain", forge(func(m *protocol.Message) { m.Prev = protocol.Hash{1} }), "does not chain"},
		{"ack", forge(func(m *protocol.Message) { m.Ack += 5 }), "acknowledges"},
		{"ack hash", forge(func(m *protocol.Message) { m.AckHash = protocol.Hash{2} }), "names another"},
		{"rules", forge(func(m *protocol.Message) { m.Body = firstMove.Body }), "the rules refuse it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := watch.NewSpectator(g.a.h.ID(), protocol.GameID{})
			feed(t, s, g.a, pubs[:k]...)
			before := s.Items()
			lines := feed(t, s, g.a, tc.pub)
			if !refusedWith(lines, tc.words) {
				t.Errorf("the forged message was not refused with %q: %v", tc.words, lines)
			}
			if len(s.Items()) != len(before) {
				t.Errorf("the refused message changed the spectator's view")
			}
			// The honest message is taken after it.
			if lines := feed(t, s, g.a, pubs[k]); len(lines) != 1 || lines[0].Status != watch.Verified {
				t.Errorf("the honest message after it: %v", lines)
			}
		})
	}
	t.Run("held", func(t *testing.T) {
		// A forgery and the honest message both come before their turn
		// (GossipSub reorders): when their turn comes the forgery is
		// refused and the honest one taken.
		s := watch.NewSpectator(g.a.h.ID(), protocol.GameID{})
		feed(t, s, g.a, pubs[:k-1]...)
		gap := forge(func(m *protocol.Message) { m.Seq++ })
		if lines := feed(t, s, g.a, gap, pubs[k]); len(lines) != 0 {
			t.Fatalf("publications before their turn showed %v", lines)
		}
		lines := feed(t, s, g.a, pubs[k-1])
		if !refusedWith(lines, "out of order") {
			t.Errorf("the held forgery was not refused: %v", lines)
		}
		if items := s.Items(); len(items) != k+1 || items[k].Hash != honest.Hash() {
			t.Errorf("the honest message held with it was not taken: %d messages, %v", len(items), lines)
		}
	})
	t.Run("late", func(t *testing.T) {
		// A spectator of the next game that subscribed after the game
		// began (SPEC-D33): the first message it sees names the game
		// watched; it holds what it sees, behind from the first
		// position, until the game's beginning comes (the backlog), and
		// then takes the whole game.
		s := watch.NewSpectator(g.a.h.ID(), protocol.GameID{})
		if lines := feed(t, s, g.a, pubs[k:]...); len(lines) != 0 {
			t.Fatalf("the publications after the beginning showed %v", lines)
		}
		if s.Game() != pubs[k].Game {
			t.Fatalf("the spectator watches game %s, not %s", s.Game(), pubs[k].Game)
		}
		if from, behind := s.Behind(); !behind || from != 0 {
			t.Errorf("Behind() = %d, %v; want 0, true", from, behind)
		}
		feed(t, s, g.a, pubs[:k]...)
		positioned := 0
		for _, p := range pubs {
			if p.Message != nil || p.Withheld != nil {
				positioned++
			}
		}
		if done, ok := s.Done(); !done || !ok || len(s.Items()) != positioned {
			t.Errorf("done %v, ok %v, %d messages of %d", done, ok, len(s.Items()), positioned)
		}
	})
	t.Run("copy and different", func(t *testing.T) {
		s := watch.NewSpectator(g.a.h.ID(), protocol.GameID{})
		feed(t, s, g.a, pubs[:k+1]...)
		if lines := feed(t, s, g.a, pubs[k]); len(lines) != 0 {
			t.Errorf("a copy showed %v", lines)
		}
		resign := forge(func(m *protocol.Message) { m.Kind, m.Body = protocol.KindResign, json.RawMessage(`{}`) })
		if lines := feed(t, s, g.a, resign); !refusedWith(lines, "a different publication at position") {
			t.Errorf("a different message at a position taken: %v", lines)
		}
	})
	t.Run("equivocation", func(t *testing.T) {
		// A resignation signed in the place of the move: the rules take
		// it; the record shows the move.
		s := watch.NewSpectator(g.a.h.ID(), protocol.GameID{})
		feed(t, s, g.a, pubs[:k]...)
		resign := forge(func(m *protocol.Message) { m.Kind, m.Body = protocol.KindResign, json.RawMessage(`{}`) })
		if lines := feed(t, s, g.a, resign); len(lines) != 1 || lines[0].Status != watch.Verified {
			t.Fatalf("the signed resignation: %v", lines)
		}
		var records []session.Publication
		for _, p := range pubs {
			if p.Record != nil {
				records = append(records, p)
			}
		}
		feed(t, s, g.a, records...)
		lines := s.Finish()
		if !refusedWith(lines, "is not the record's message there") {
			t.Errorf("the equivocation was not named at the end: %v", lines)
		}
		if done, ok := s.Done(); !done || ok {
			t.Errorf("done %v, ok %v after an equivocation", done, ok)
		}
	})
}

// checkPhantomLies gives fresh spectators the publications of a Phantom
// Go game with one lie each: an announcement of a try that the audit
// does not give (refused when the record comes, SPEC-4), and a message
// of the secure referee published whole (refused at once, SPEC-1).
func checkPhantomLies(t *testing.T, g *watchedGame) {
	t.Helper()
	pubs := g.a.rec.published()
	lied := slices.Clone(pubs)
	liedTry := -1
	for i, p := range lied {
		if p.Announcement != nil {
			a := *p.Announcement
			a.Text += "; Black puts White into atari"
			lied[i].Announcement, liedTry = &a, int(a.Try)
			break
		}
	}
	if liedTry < 0 {
		t.Fatal("no announcement published")
	}
	s := watch.NewSpectator(g.a.h.ID(), protocol.GameID{})
	lines := feed(t, s, g.a, lied...)
	if !refusedWith(lines, fmt.Sprintf("the announcement of try %d", liedTry)) || !refusedWith(lines, "the record's audit gives") {
		t.Errorf("the false announcement was not named at the end:\n%s", linesText(lines))
	}
	if done, ok := s.Done(); !done || ok {
		t.Errorf("done %v, ok %v after a false announcement", done, ok)
	}
	// A message of the secure referee, whole, in its place.
	tr := record(t, g.a)
	for i, p := range pubs {
		if p.Withheld == nil {
			continue
		}
		whole := tr.Messages[p.Pos]
		s := watch.NewSpectator(g.a.h.ID(), protocol.GameID{})
		feed(t, s, g.a, pubs[:i]...)
		lines := feed(t, s, g.a, session.Publication{Game: p.Game, Pos: p.Pos, Message: &whole})
		if !refusedWith(lines, "published whole, which SPEC-1 withholds") {
			t.Errorf("the %s message published whole was not refused: %v", whole.Kind, lines)
		}
		break
	}
}
