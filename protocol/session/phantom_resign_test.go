package session_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// resigningBot plays like its inner player and resigns at its player's
// nth try.
type resigningBot struct {
	bot.Player
	at    int
	tries int
}

func (r *resigningBot) Choose(v protocol.View) protocol.Action {
	if pv, ok := v.Variant.(phantomrules.View); ok && pv.MyTry {
		r.tries++
		if r.tries == r.at {
			return protocol.Resign{}
		}
	}
	return r.Player.Choose(v)
}

// checkResignedAndRevealed checks that game g ended by the resignation of
// the resigner's colour, that its view holds the whole board (both
// colours' stones, the same board as the other peer's), and that Verify
// on its saved record gives that result with no violation (PN-D13).
func checkResignedAndRevealed(t *testing.T, g *session.Game, resigner protocol.Role, board engine.Board) {
	t.Helper()
	out := g.Outcome()
	winner := g.View().Color
	if g.Role() == resigner {
		winner = winner.Opponent()
	}
	if out == nil || out.Result.By != engine.ByResignation || out.Result.Winner != winner || out.Violation != nil {
		t.Fatalf("%s: outcome %+v, want a resignation won by %v", g.Role(), out, winner)
	}
	v := g.View().Variant.(phantomrules.View)
	if !v.Revealed {
		t.Fatalf("%s: the board was not revealed after the resignation (stage %s)", g.Role(), v.Stage)
	}
	b := v.Referee.Board()
	if b.Count(engine.Black) == 0 || b.Count(engine.White) == 0 {
		t.Errorf("%s: the revealed board holds %d black and %d white stones, want both", g.Role(), b.Count(engine.Black), b.Count(engine.White))
	}
	if board.Size() != 0 && b.String() != board.String() {
		t.Errorf("%s: the revealed board differs from the other peer's", g.Role())
	}
	tr, err := session.LoadTranscript(g.RecordPath())
	if err != nil {
		t.Fatalf("%s: saved record: %v", g.Role(), err)
	}
	rep := protocol.Verify(tr)
	if !rep.Finished || rep.Violation != nil || rep.Outcome == nil || rep.Outcome.Result != out.Result {
		t.Errorf("%s: verify %+v, want ok with %v", g.Role(), rep, out.Result)
	}
}

// TestPN10PhantomResignationRunsTheAudit: after a resignation in Phantom
// Go both seeds and all tries are still revealed and audited (T-8), so
// both players see the whole game; the resignation's result stands, and
// `kakure verify` on both records says ok with it (GO-6, PN-D13). Each
// role resigns once.
func TestPN10PhantomResignationRunsTheAudit(t *testing.T) {
	t.Parallel()
	for _, resigner := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
		t.Run(resigner.String(), func(t *testing.T) {
			p := newPair(t)
			players := [2]bot.Player{shortBot(21), shortBot(22)}
			players[resigner] = &resigningBot{Player: players[resigner], at: 4}
			a, b := playPlayers(t, p, engine.Options{Variant: engine.VariantPhantom, Size: 5}, players[0], players[1])
			ab := a.View().Variant.(phantomrules.View).Referee.Board()
			checkResignedAndRevealed(t, a, resigner, engine.Board{})
			checkResignedAndRevealed(t, b, resigner, ab)
		})
	}
}

// TestT8PhantomAuditAfterResignationConvictsTheCheater: an evaluator's
// program alters its share at its third try (caught only by the audit);
// the honest garbler then resigns. The audit after the resignation still
// runs and names the evaluator: the cheater loses by forfeit, the honest
// side that resigned is not blamed, and Verify proves it.
func TestT8PhantomAuditAfterResignationConvictsTheCheater(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	p := newPair(t)
	honest := &resigningBot{Player: shortBot(11), at: 7}
	cheater := &cheatingBot{Player: shortBot(12), cheat: session.PhantomAlterShare{}}
	a, _ := playPlayersAnyResult(t, p, engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesKriegspiel}, honest, cheater, true)
	if honest.tries < honest.at {
		t.Fatalf("the honest garbler never resigned (%d tries)", honest.tries)
	}
	checkPhantomCaught(t, a, "T-8", "OT request")
}

// playPlayersAnyResult plays a game between two players on loopback and
// returns both games once the invitee's (and with both, the inviter's)
// ended, whatever the result.
func playPlayersAnyResult(t *testing.T, p *pair, o engine.Options, inviter, invitee bot.Player, both bool) (*session.Game, *session.Game) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()
	started := testnet.StartBotGame(ctx, p.services[0], p.services[1], p.hosts[1].ID(), o, [2]bot.Player{inviter, invitee}).Started(t)
	host, g := started[protocol.Inviter], started[protocol.Invitee]
	games := []*session.Game{g}
	if both {
		games = append(games, host)
	}
	for _, x := range games {
		if err := x.Wait(ctx); err != nil {
			t.Fatalf("%s: the game did not end: %v", x.Role(), err)
		}
	}
	return host, g
}

// TestT11PhantomWithheldRevealAfterResignation: the invitee resigns; the
// inviter (the winner, who reveals first) withholds its reveal. Past the
// grace period it loses by forfeit, named as reported (T-11), and Verify
// on the honest record names the same.
func TestT11PhantomWithheldRevealAfterResignation(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	p := newPair(t, func(i int, c *session.Config) {
		c.AutoGrace = time.Second
		if i == 0 {
			c.AutoGrace = time.Minute
			session.SetTamper(c, refuseAfter(phantomrules.KindReveal))
		}
	})
	resigner := &resigningBot{Player: shortBot(32), at: 3}
	_, h := playPlayersAnyResult(t, p, engine.Options{Variant: engine.VariantPhantom, Size: 5}, shortBot(31), resigner, false)
	out := h.Outcome()
	if out == nil || out.Violation == nil || out.Violation.Rule != "T-11" || out.Violation.Accused != protocol.Inviter {
		t.Fatalf("outcome %+v, want T-11 by the inviter", out)
	}
	if out.Result.By != engine.ByForfeit || out.Result.Winner != h.View().Color {
		t.Errorf("result %v, want a forfeit win for the honest %v", out.Result, h.View().Color)
	}
	tr, err := session.LoadTranscript(h.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	rep := protocol.Verify(tr)
	if rep.Violation == nil || rep.Violation.Rule != "T-11" || rep.Violation.Accused != protocol.Inviter {
		t.Errorf("Verify found %+v, want T-11 by the inviter", rep.Violation)
	}
}

// TestPN10PhantomResignationCrossingAMessage: a player resigns while the
// other program is sending (not at its own try), so that the resignation
// and the other's messages cross on the wire and reach the two peers in
// different orders. Both peers still agree: the audit runs on the same
// game, both see the same whole board, both records verify with the
// resignation (PN-D13: a message that crossed the resignation is judged
// as the game stood before it). Six games in the full tier
// (KAKURE_TEST_FULL=1), each side resigning at three tries; two by
// default and under the race detector.
func TestPN10PhantomResignationCrossingAMessage(t *testing.T) {
	t.Parallel()
	for i, at := range []uint64{3, 4, 5, 6, 7, 8} {
		if i >= testenv.Size(2, 6) {
			break // each side resigns once; the full tier plays all six
		}
		resigner := protocol.Role(i % 2)
		t.Run(fmt.Sprintf("%s at try %d", resigner, at), func(t *testing.T) {
			p := newPair(t)
			ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
			defer cancel()
			guest := make(chan *session.Game, 1)
			go func() {
				select {
				case g := <-p.services[1].Accepted():
					guest <- g
					_, _ = bot.Run(ctx, g, shortBot(40+at))
				case <-ctx.Done():
					guest <- nil
				}
			}()
			host, err := p.services[0].Invite(ctx, p.hosts[1].ID(), engine.Options{Variant: engine.VariantPhantom, Size: 5})
			if err != nil {
				t.Fatalf("Invite: %v", err)
			}
			go func() { _, _ = bot.Run(ctx, host, shortBot(50+at)) }()
			g := <-guest
			if g == nil {
				t.Fatal("the invitee never got the game")
			}
			games := [2]*session.Game{host, g}
			// Resign from outside the bot, once the game reached the try,
			// at whatever message the secure computation is at.
			for {
				v, ok := games[resigner].View().Variant.(phantomrules.View)
				if ok && v.Tries >= at || games[resigner].Outcome() != nil {
					break
				}
				select {
				case <-ctx.Done():
					t.Fatal("the game never reached the try")
				case <-time.After(time.Millisecond):
				}
			}
			if err := games[resigner].Do(protocol.Resign{}); err != nil {
				t.Fatalf("resign: %v", err)
			}
			for _, x := range games {
				if err := x.Wait(ctx); err != nil {
					t.Fatalf("%s: the game did not end: %v", x.Role(), err)
				}
			}
			board := host.View().Variant.(phantomrules.View).Referee.Board()
			checkResignedAndRevealed(t, host, resigner, engine.Board{})
			checkResignedAndRevealed(t, g, resigner, board)
		})
	}
}
