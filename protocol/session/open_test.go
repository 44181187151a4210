package session_test

import (
	"context"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestFinishedGamesOpen: a finished game is listed by Finished (and not by
// Unfinished) in a new service on the same games directory, and Open gives
// its view and outcome without connecting to anybody; an unknown game is
// refused.
func TestFinishedGamesOpen(t *testing.T) {
	p := newPair(t)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(60*time.Second))
	defer cancel()
	go func() {
		g := <-p.services[1].Accepted()
		bot.Run(ctx, g, bot.NewRandom(2))
	}()
	host, err := p.services[0].Invite(ctx, p.hosts[1].ID(), engine.Options{Variant: engine.VariantGo, Size: 5})
	if err != nil {
		t.Fatal(err)
	}
	out, err := bot.Run(ctx, host, bot.NewRandom(1))
	if err != nil || out == nil {
		t.Fatalf("the game did not finish: %v", err)
	}
	p.services[0].Close()
	key := p.hosts[0].Peerstore().PrivKey(p.hosts[0].ID())
	p.hosts[0].Close()
	h, err := libp2p.New(libp2p.Identity(key), libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	again, err := session.NewService(session.Config{Host: h, Dir: p.dirs[0]})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	finished, err := again.Finished()
	if err != nil || len(finished) != 1 || finished[0] != host.ID() {
		t.Fatalf("Finished() = %v, %v; want [%s]", finished, err, host.ID())
	}
	if unfinished, _ := again.Unfinished(); len(unfinished) != 0 {
		t.Errorf("Unfinished() = %v, want none", unfinished)
	}
	g, err := again.Open(host.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	v := g.View()
	if v.Outcome == nil || v.Outcome.Result != out.Result || len(g.Transcript().Messages) != len(host.Transcript().Messages) {
		t.Errorf("the opened game: outcome %+v, %d messages; want %+v, %d", v.Outcome, len(g.Transcript().Messages), out.Result, len(host.Transcript().Messages))
	}
	if _, err := again.Open(protocol.GameID{1, 2, 3}); err == nil {
		t.Error("Open of a game that does not exist succeeded")
	}
}
