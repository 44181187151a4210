package testnet

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// BotGame is a game between two services, each side played by a
// bot.Player until the game ends, in the background (StartBotGame): the
// inviter's side invites, the invitee's side takes the next game its
// service accepts.
type BotGame struct {
	games    [2]atomic.Pointer[session.Game]
	outcomes [2]*protocol.Outcome
	errs     [2]error
	// started[r] is closed when side r has its game, or never will
	// (its error is set); done[r] when side r's player stopped (its
	// outcome and error are set).
	started, done [2]chan struct{}
}

// StartBotGame has inviter invite the peer inviteeID (whose service is
// invitee) to a game of o, and both sides play it by their players
// (players[protocol.Inviter], players[protocol.Invitee]) in the
// background, until the game ends or ctx ends.
func StartBotGame(ctx context.Context, inviter, invitee *session.Service, inviteeID peer.ID, o engine.Options, players [2]bot.Player) *BotGame {
	g := &BotGame{}
	for r := range 2 {
		g.started[r], g.done[r] = make(chan struct{}), make(chan struct{})
	}
	go func() {
		defer close(g.done[protocol.Invitee])
		select {
		case gb := <-invitee.Accepted():
			g.games[protocol.Invitee].Store(gb)
			close(g.started[protocol.Invitee])
			g.outcomes[protocol.Invitee], g.errs[protocol.Invitee] = bot.Run(ctx, gb, players[protocol.Invitee])
		case <-ctx.Done():
			g.errs[protocol.Invitee] = fmt.Errorf("no game accepted: %w", ctx.Err())
			close(g.started[protocol.Invitee])
		}
	}()
	go func() {
		defer close(g.done[protocol.Inviter])
		ga, err := inviter.Invite(ctx, inviteeID, o)
		if err != nil {
			g.errs[protocol.Inviter] = fmt.Errorf("invite: %w", err)
			close(g.started[protocol.Inviter])
			return
		}
		g.games[protocol.Inviter].Store(ga)
		close(g.started[protocol.Inviter])
		g.outcomes[protocol.Inviter], g.errs[protocol.Inviter] = bot.Run(ctx, ga, players[protocol.Inviter])
	}()
	return g
}

// Started waits until both sides have their game and returns both, the
// inviter's first, failing t if the invitation failed or the invitee's
// service accepted no game (before the context of StartBotGame ended).
func (g *BotGame) Started(t testing.TB) [2]*session.Game {
	t.Helper()
	var games [2]*session.Game
	for _, r := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
		<-g.started[r]
		if games[r] = g.games[r].Load(); games[r] == nil {
			t.Fatalf("%s: no game: %v", sideName[r], g.errs[r])
		}
	}
	return games
}

// Game returns side r's game, or nil before it exists (or when it never
// did: the invitation failed).
func (g *BotGame) Game(r protocol.Role) *session.Game { return g.games[r].Load() }

// Done is closed when side r's player stopped, or the invitation failed
// (for the inviter) or no game was accepted (for the invitee).
func (g *BotGame) Done(r protocol.Role) <-chan struct{} { return g.done[r] }

// Result returns side r's outcome and error, once Done(r) is closed.
func (g *BotGame) Result(r protocol.Role) (*protocol.Outcome, error) {
	<-g.done[r]
	return g.outcomes[r], g.errs[r]
}

// Wait waits for both sides, the inviter's first, failing t at the first
// that stopped with an error ("inviter: …", "invitee: …"), and returns
// both outcomes, the inviter's first. The players stop when the context
// of StartBotGame ends, so Wait does too.
func (g *BotGame) Wait(t testing.TB) [2]*protocol.Outcome {
	t.Helper()
	for _, r := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
		if _, err := g.Result(r); err != nil {
			t.Fatalf("%s: %v", sideName[r], err)
		}
	}
	return g.outcomes
}

var sideName = [2]string{protocol.Inviter: "inviter", protocol.Invitee: "invitee"}

// InviteAccepted has inviter invite the peer inviteeID (whose service is
// invitee) to a game of o and returns both games, the inviter's first,
// once the invitee's service accepted it; it fails t if either does not
// come before ctx ends.
func InviteAccepted(t testing.TB, ctx context.Context, inviter, invitee *session.Service, inviteeID peer.ID, o engine.Options) [2]*session.Game {
	t.Helper()
	accepted := make(chan *session.Game, 1)
	go func() {
		select {
		case g := <-invitee.Accepted():
			accepted <- g
		case <-ctx.Done():
			accepted <- nil
		}
	}()
	host, err := inviter.Invite(ctx, inviteeID, o)
	if err != nil {
		t.Fatal(err)
	}
	guest := <-accepted
	if guest == nil {
		t.Fatal("no game accepted")
	}
	return [2]*session.Game{host, guest}
}
