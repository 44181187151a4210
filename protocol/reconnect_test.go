package protocol_test

import (
	"context"
	"testing"
	"time"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
)

// TestT11ReconnectWhileRunning cuts the connection between two running
// peers in the middle of a game: the game is adjourned, the inviter dials
// again by itself, and the game finishes with both records agreeing.
func TestT11ReconnectWhileRunning(t *testing.T) {
	p := newPair(t)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()
	guest := make(chan *protocol.Game, 1)
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
	for _, gm := range []*protocol.Game{host, g} {
		if rep := protocol.Verify(gm.Transcript()); rep.Violation != nil || rep.Outcome == nil {
			t.Errorf("%s record: %+v", gm.Role(), rep)
		}
	}
}
