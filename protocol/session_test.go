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

// playBots plays one game between two random bots on real hosts and
// returns both games.
func playBots(t *testing.T, p *pair, o engine.Options, seed uint64) (*protocol.Game, *protocol.Game) {
	t.Helper()
	return playPlayers(t, p, o, bot.NewRandom(seed), bot.NewRandom(seed+1))
}

// playPlayers plays one game between the inviter's and the invitee's
// players on real hosts and returns both games.
func playPlayers(t *testing.T, p *pair, o engine.Options, inviter, invitee bot.Player) (*protocol.Game, *protocol.Game) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()
	type res struct {
		out *protocol.Outcome
		err error
	}
	guestDone := make(chan res, 1)
	guestGame := make(chan *protocol.Game, 1)
	go func() {
		select {
		case g := <-p.services[1].Accepted():
			guestGame <- g
			out, err := bot.Run(ctx, g, invitee)
			guestDone <- res{out, err}
		case <-ctx.Done():
			guestDone <- res{nil, ctx.Err()}
		}
	}()
	host, err := p.services[0].Invite(ctx, p.hosts[1].ID(), o)
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	out, err := bot.Run(ctx, host, inviter)
	if err != nil {
		t.Fatalf("inviter bot: %v", err)
	}
	r := <-guestDone
	if r.err != nil {
		t.Fatalf("invitee bot: %v", r.err)
	}
	if out == nil || r.out == nil {
		t.Fatalf("a game ended without outcome: %v %v", out, r.out)
	}
	if out.Result != r.out.Result {
		t.Fatalf("the peers disagree on the result: %v vs %v", out.Result, r.out.Result)
	}
	return host, <-guestGame
}

func TestPlainGoGameOverLoopback(t *testing.T) {
	p := newPair(t)
	a, b := playBots(t, p, engine.Options{Variant: engine.VariantGo, Size: 5}, 1)
	if a.Outcome().Result.By != engine.ByScore {
		t.Errorf("result %v, want a count", a.Outcome().Result)
	}
	for _, g := range []*protocol.Game{a, b} {
		tr, err := protocol.LoadTranscript(g.RecordPath())
		if err != nil {
			t.Fatalf("saved record: %v", err)
		}
		if len(tr.Messages) < 10 {
			t.Errorf("record of %s holds %d messages", g.Role(), len(tr.Messages))
		}
	}
}
