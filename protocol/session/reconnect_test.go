package session_test

import (
	"context"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestT11ReconnectWhileRunning cuts the connection between two running
// peers in the middle of a game: the game is adjourned, the inviter dials
// again by itself, and the game finishes with both records agreeing.
func TestT11ReconnectWhileRunning(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()
	guest := make(chan *session.Game, 1)
	go func() {
		g := <-p.services[1].Accepted()
		guest <- g
		bot.Run(ctx, g, slowPlayer{p: bot.NewRandom(2), delay: 2 * time.Millisecond})
	}()
	host, err := p.services[0].Invite(ctx, p.hosts[1].ID(), engine.Options{Variant: engine.VariantGo, Size: 7})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *protocol.Outcome, 1)
	go func() {
		out, _ := bot.Run(ctx, host, slowPlayer{p: bot.NewRandom(1), delay: 2 * time.Millisecond})
		done <- out
	}()
	g := <-guest
	// Cut the connection once the game is under way.
	for len(host.Transcript().Messages) < 20 {
		time.Sleep(5 * time.Millisecond)
	}
	if err := p.hosts[0].Network().ClosePeer(p.hosts[1].ID()); err != nil {
		t.Fatal(err)
	}
	cut := len(host.Transcript().Messages)
	out := <-done
	if err := g.Wait(ctx); err != nil {
		t.Fatalf("guest game did not end: %v", err)
	}
	if out == nil || g.Outcome() == nil || out.Result != g.Outcome().Result || out.Violation != nil {
		t.Fatalf("outcomes %+v and %+v", out, g.Outcome())
	}
	if n := len(host.Transcript().Messages); n <= cut+4 {
		t.Errorf("the game did not go on after the cut: %d messages at the cut, %d at the end", cut, n)
	}
	for _, gm := range []*session.Game{host, g} {
		if rep := protocol.Verify(gm.Transcript()); rep.Violation != nil || rep.Outcome == nil {
			t.Errorf("%s record: %+v", gm.Role(), rep)
		}
	}
}

// TestT11ReconnectTellsBothSides: when the connection of an idle game comes
// back, each side's events say so at once (an EventPhase after its
// EventAdjourned), not only at the next move: a screen stops saying
// "connection lost" as soon as the peer is back.
func TestT11ReconnectTellsBothSides(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(2*time.Minute))
	defer cancel()
	host, err := p.services[0].Invite(ctx, p.hosts[1].ID(), engine.Options{Variant: engine.VariantGo, Size: 7})
	if err != nil {
		t.Fatal(err)
	}
	var guest *session.Game
	select {
	case guest = <-p.services[1].Accepted():
	case <-ctx.Done():
		t.Fatal("the invitation was not accepted")
	}
	// Nobody moves: the game waits in play for the first move.
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for !ok() {
			select {
			case <-ctx.Done():
				t.Fatalf("%s: %v", what, ctx.Err())
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	waitFor("both in play", func() bool {
		return host.View().Phase == protocol.PhasePlay && guest.View().Phase == protocol.PhasePlay
	})
	type seen struct{ adjourned, back bool }
	watch := func(g *session.Game) <-chan seen {
		out := make(chan seen, 1)
		go func() {
			var s seen
			for {
				select {
				case e := <-g.Events():
					switch e.(type) {
					case protocol.EventAdjourned:
						s.adjourned = true
					case protocol.EventPhase:
						if s.adjourned {
							s.back = true
							out <- s
							return
						}
					}
				case <-ctx.Done():
					out <- s
					return
				}
			}
		}()
		return out
	}
	// Drain what came before the cut.
	for _, g := range []*session.Game{host, guest} {
	drain:
		for {
			select {
			case <-g.Events():
			default:
				break drain
			}
		}
	}
	hostSeen, guestSeen := watch(host), watch(guest)
	if err := p.hosts[0].Network().ClosePeer(p.hosts[1].ID()); err != nil {
		t.Fatal(err)
	}
	for name, ch := range map[string]<-chan seen{"inviter": hostSeen, "invitee": guestSeen} {
		s := <-ch
		if !s.adjourned || !s.back {
			t.Errorf("%s: adjourned event %v, event when the connection came back %v", name, s.adjourned, s.back)
		}
	}
	waitFor("both views connected", func() bool { return !host.View().Adjourned && !guest.View().Adjourned })
}

// TestNETD28GameLeavesRedialsToTheCaller: with Config.Redialled saying
// the caller redials the peer (kakure's node does), the inviter of a
// game whose connection is lost dials the invitee no more itself (its
// dial would join the caller's in go-libp2p's one dial per peer): the
// game stays adjourned while nobody dials, and goes on as soon as a
// connection made by someone else comes up, here by the invitee's side.
func TestNETD28GameLeavesRedialsToTheCaller(t *testing.T) {
	p := newPair(t, func(_ int, c *session.Config) { c.Redialled = func(peer.ID) bool { return true } })
	games := startGame(t, p, engine.Options{Variant: engine.VariantGo, Size: 7})
	host, guest := games[0], games[1]
	if err := p.hosts[0].Network().ClosePeer(p.hosts[1].ID()); err != nil {
		t.Fatal(err)
	}
	waitView(t, host, "adjourned when its connection closed", func(v protocol.View) bool { return v.Adjourned })
	// Without Redialled the inviter dials again after 1 s.
	time.Sleep(3 * time.Second)
	if c := p.hosts[0].Network().Connectedness(p.hosts[1].ID()); c == network.Connected {
		t.Fatal("the inviter's game dialled the invitee itself")
	}
	if !host.View().Adjourned {
		t.Fatal("the game went on without a connection")
	}
	connect(t, p.hosts[1], p.hosts[0]) // the caller's redial, from the other side
	deadline := testenv.Deadline(5 * time.Second)
	for host.View().Adjourned || guest.View().Adjourned {
		if time.Now().After(deadline) {
			t.Fatal("the game did not go on within 5 s of the connection's return")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
