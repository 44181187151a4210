package gtp_test

import (
	"context"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/gtp"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	protosession "github.com/kakure/kakure/protocol/session"
)

// newLoopbackService starts a protocol service on a fresh loopback host.
func newLoopbackService(t *testing.T) (host.Host, *protosession.Service) {
	t.Helper()
	return testnet.Service(t)
}

// insister is an honest player who plays the random player's stones as
// its first moves (as many as stones says), then passes whenever it may
// and, in the count, proposes the opponent's stones all dead, again and again: it
// never agrees to another marking and never resumes play (GO-4 lets a
// player insist). Its other decisions (Hidden Move Go's cards, F-Go's
// offers) are the random player's.
type insister struct {
	random *bot.Random
	stones int
}

// Choose implements bot.Player.
func (p *insister) Choose(v protocol.View) protocol.Action {
	var scoring, hasProposal bool
	var proposer protocol.Role
	var board engine.Board
	canPass := true
	switch vv := v.Variant.(type) {
	case gorules.View:
		scoring, hasProposal, proposer, board = vv.Scoring, vv.HasProposal, vv.Proposer, vv.Game.Board()
	case fgorules.View:
		scoring, hasProposal, proposer, board = vv.Scoring, vv.HasProposal, vv.Proposer, vv.Game.Board()
	case hmgrules.View:
		scoring, hasProposal, proposer, board = vv.Stage == hmgrules.StageScoring, vv.HasProposal, vv.Proposer, vv.Game.Board()
		canPass = vv.Game.CanPass(v.Color)
	}
	if scoring {
		if hasProposal && proposer == v.Role {
			return nil
		}
		return protocol.MarkDead{Dead: board.Stones(v.Color.Opponent())}
	}
	a := p.random.Choose(v)
	switch a := a.(type) {
	case protocol.Play:
		if p.stones > 0 && a.Point != engine.Pass {
			p.stones--
			return a
		}
		if canPass {
			return protocol.Play{Point: engine.Pass}
		}
	case hmgrules.Reveal:
		if canPass {
			return protocol.Play{Point: engine.Pass}
		}
	}
	return a
}

// playAgainstInsister plays a game of options o over loopback between
// black, the inviter, and white, the insister, and returns its outcome,
// or fails the test when the game has none within a stretched minute (it
// stalled, or its count never ends): the last view of each side tells
// where.
func playAgainstInsister(t *testing.T, o engine.Options, black bot.Player, white *insister) *protocol.Outcome {
	t.Helper()
	ha, sa := newLoopbackService(t)
	hb, sb := newLoopbackService(t)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(60*time.Second))
	defer cancel()
	if err := ha.Connect(ctx, peer.AddrInfo{ID: hb.ID(), Addrs: hb.Addrs()}); err != nil {
		t.Fatal(err)
	}
	o.InviterColor = engine.Black
	bots := testnet.StartBotGame(ctx, sa, sb, hb.ID(), o, [2]bot.Player{black, white})
	out, err := bots.Result(protocol.Inviter)
	g := bots.Game(protocol.Inviter)
	if g == nil {
		t.Fatal(err)
	}
	_, otherErr := bots.Result(protocol.Invitee)
	other := bots.Game(protocol.Invitee)
	if out == nil || other == nil || other.Outcome() == nil {
		v := g.View()
		var w protocol.View
		if other != nil {
			w = other.View()
		}
		t.Fatalf("no outcome (%v, %v): the game did not end (a stall, or a count that never ends); Black's view: my turn %v, kinds %v, %+v; White's: my turn %v, kinds %v",
			err, otherErr, v.MyTurn, v.Kinds, v.Variant, w.MyTurn, w.Kinds)
	}
	if o := other.Outcome(); out.Result != o.Result {
		t.Fatalf("outcomes %v and %v", out.Result, o.Result)
	}
	return out
}

// TestGTPD9EngineCountEnds (GTP-D9, GO-4, BOT-D4): an engine player
// (its fallback the level-1 bot that never resigns, as kakure match and
// kakure bot --engine make it) whose engine plays C3 and then passes
// meets, over loopback, a player who insists on its marking in the count
// (all of the engine's stones dead): the game ends by the count in plain
// Go, F-Go and Hidden Move Go, and so does one of the built-in bot. Each
// case stalled before GTP-D9: the fallback resumed play in plain Go and
// Hidden Move Go when it was not its move, and with a pass in F-Go; in
// "fgo engine pass" the fallback resumed with a stone and the engine's
// pass took its place (the stall CI saw), which the protocol refuses.
func TestGTPD9EngineCountEnds(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    engine.Options
		// stones is how many stones the insister plays before it passes.
		stones int
		// builtIn plays the built-in bot instead of the engine player.
		builtIn bool
	}{
		{"go", engine.Options{Variant: engine.VariantGo, Size: 5}, 0, false},
		{"fgo", engine.Options{Variant: engine.VariantFGo, Size: 5}, 0, false},
		{"fgo engine pass", engine.Options{Variant: engine.VariantFGo, Size: 5}, 1, false},
		{"hmg", engine.Options{Variant: engine.VariantHMG, Size: 5, Cards: 1}, 0, false},
		{"go built-in bot", engine.Options{Variant: engine.VariantGo, Size: 5}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			white := &insister{random: bot.NewRandom(7), stones: tc.stones}
			if tc.builtIn {
				out := playAgainstInsister(t, tc.o, bot.New(bot.Level{Playouts: 60}, 1), white)
				if out.Result.By != engine.ByScore {
					t.Errorf("result %v, want a count", out.Result)
				}
				return
			}
			c, commands := engineWithLog(t, "C3,pass")
			fallback := bot.Levels[1]
			fallback.NoResign = true
			p := gtp.NewEnginePlayer(c, bot.New(fallback, 1))
			out := playAgainstInsister(t, tc.o, p, white)
			if out.Result.By != engine.ByScore {
				t.Errorf("result %v, want a count", out.Result)
			}
			genmoves := 0
			for _, cmd := range commands() {
				if cmd == "genmove black" {
					genmoves++
				}
			}
			if genmoves < 2 || p.Moves < 1 {
				t.Errorf("the engine was asked %d times and played %d moves; want its C3 and a pass", genmoves, p.Moves)
			}
			if tc.name == "fgo engine pass" && p.Refused["no pass here"] == 0 {
				t.Errorf("the engine's pass never answered a resumption (refused %v): the case does not test it", p.Refused)
			}
			t.Logf("%s: %v; engine asked %d, moves %d, refused %v, fallbacks %v", tc.name, out.Result, p.Asked, p.Moves, p.Refused, p.Fallbacks)
		})
	}
}
