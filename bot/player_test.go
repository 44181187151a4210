package bot_test

import (
	"context"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// newService starts a protocol service on a fresh loopback host.
func newService(t *testing.T) (host.Host, *session.Service) {
	t.Helper()
	return testnet.Service(t)
}

// TestBotsPlayOverTheNetwork plays the built-in bots against the random
// player through the protocol, exactly as a user interface would, in every
// variant whose network view they know: the games end with an outcome on
// which both peers agree. Phantom Go, whose tries go through a secure
// computation that takes seconds per game, is left to
// TestBotsPhantomView.
func TestBotsPlayOverTheNetwork(t *testing.T) {
	level := bot.Level{Playouts: 60}
	for i, o := range []engine.Options{
		{Variant: engine.VariantGo, Size: 5},
		{Variant: engine.VariantFGo, Size: 5},
		{Variant: engine.VariantBridge, Size: 5},
		{Variant: engine.VariantHMG, Size: 5, Cards: 2},
		{Variant: engine.VariantGomoku, Size: 7},
	} {
		t.Run(string(o.Variant), func(t *testing.T) {
			ha, sa := newService(t)
			hb, sb := newService(t)
			ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(60*time.Second))
			defer cancel()
			if err := ha.Connect(ctx, peer.AddrInfo{ID: hb.ID(), Addrs: hb.Addrs()}); err != nil {
				t.Fatal(err)
			}
			outs := testnet.StartBotGame(ctx, sa, sb, hb.ID(), o, [2]bot.Player{bot.New(level, uint64(i)), bot.NewRandom(uint64(i))}).Wait(t)
			out, other := outs[protocol.Inviter], outs[protocol.Invitee]
			if out == nil || other == nil || out.Result != other.Result {
				t.Fatalf("outcomes %v and %v", out, other)
			}
			t.Logf("%s: %v", o.Variant, out.Result)
		})
	}
}

// TestBotsPhantomView gives bot.New the protocol view of a Phantom Go
// player to move, with its own view after a few tries: it answers a try
// that the view finds sensible, and nothing when it is not its try.
func TestBotsPhantomView(t *testing.T) {
	o := engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon, Komi: 7.5, KomiSet: true}
	r, _ := phantom.NewReferee(o)
	own, _ := phantom.NewView(o, engine.Black)
	for _, v := range []string{"C3", "D3", "C2", "B4"} {
		p, _ := engine.ParseVertex(5, v)
		next, out, err := r.Try(r.ToMove(), p)
		if err != nil || !out.Legal {
			t.Fatalf("%s: %v %+v", v, err, out)
		}
		if own, err = own.Apply(phantom.Announce(o.Rules, 5, out, engine.Black)); err != nil {
			t.Fatal(err)
		}
		r = next
	}
	view := protocol.View{Color: engine.Black, Options: o, MyTurn: true,
		Variant: phantomrules.View{Stage: phantomrules.StagePlay, Rules: o.Rules, ToMove: engine.Black, Own: own, MyTry: true}}
	a, ok := bot.New(bot.Level{Playouts: 200}, 1).Choose(view).(protocol.Play)
	if !ok {
		t.Fatalf("action %#v, want a Play", a)
	}
	sensible := own.SensibleTries()
	found := a.Point == engine.Pass
	for _, p := range sensible {
		found = found || p == a.Point
	}
	if !found {
		t.Errorf("try %s is not one of the sensible tries %s", a.Point.Vertex(5), engine.FormatVertices(5, sensible))
	}
	view.Variant = phantomrules.View{Stage: phantomrules.StagePlay, Rules: o.Rules, ToMove: engine.White, Own: own}
	if a := bot.New(bot.Level{Playouts: 200}, 1).Choose(view); a != nil {
		t.Errorf("action %#v while it is not the player's try", a)
	}
}

// TestUNDOD4BotLetsTakeBacks: a person plays plain Go against the bot
// (bot.Run) over the protocol. Once the bot answered, the person's undo
// request takes back the move and the answer (UNDO-D3), which the bot
// accepts; a request sent in the same breath as the move is accepted as
// well, before or instead of the bot's answer (or, when it lapsed under
// the answer already sent, asked again for both). Each time the board is
// empty again and it is the person's turn.
func TestUNDOD4BotLetsTakeBacks(t *testing.T) {
	ha, sa := newService(t)
	hb, sb := newService(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := ha.Connect(ctx, peer.AddrInfo{ID: hb.ID(), Addrs: hb.Addrs()}); err != nil {
		t.Fatal(err)
	}
	go func() {
		select {
		case g := <-sb.Accepted():
			if _, err := bot.Run(ctx, g, bot.New(bot.Level{Playouts: 30}, 1)); err != nil && ctx.Err() == nil {
				t.Errorf("bot: %v", err)
			}
		case <-ctx.Done():
		}
	}()
	g, err := sa.Invite(ctx, hb.ID(), engine.Options{Variant: engine.VariantGo, Size: 7, InviterColor: engine.Black})
	if err != nil {
		t.Fatal(err)
	}
	wait := func(what string, cond func(protocol.View) bool) protocol.View {
		t.Helper()
		for {
			v := g.View()
			if cond(v) {
				return v
			}
			select {
			case <-ctx.Done():
				t.Fatalf("no %s: view %+v", what, v)
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	stones := func(v protocol.View) int {
		b := v.Variant.(gorules.View).Game.Board()
		return b.Count(engine.Black) + b.Count(engine.White)
	}
	myTurn := func(v protocol.View) bool {
		_, ok := v.Variant.(gorules.View)
		return ok && v.MyTurn && v.UndoMove == 0
	}
	wait("the game", myTurn)
	c3, _ := engine.ParseVertex(7, "C3")
	if err := g.Do(protocol.Play{Point: c3}); err != nil {
		t.Fatal(err)
	}
	wait("the bot's answer", func(v protocol.View) bool { return myTurn(v) && stones(v) == 2 })
	if err := g.Do(protocol.RequestUndo{}); err != nil {
		t.Fatalf("asking to take back C3 and the answer: %v", err)
	}
	wait("both moves taken back", func(v protocol.View) bool { return myTurn(v) && stones(v) == 0 })

	// The move and the request in one breath.
	if err := g.Do(protocol.Play{Point: c3}); err != nil {
		t.Fatal(err)
	}
	if err := g.Do(protocol.RequestUndo{}); err != nil {
		t.Fatalf("asking at once to take back C3: %v", err)
	}
	v := wait("the answer to the request", func(v protocol.View) bool { return myTurn(v) && v.UndoMove == 0 })
	if stones(v) != 0 {
		t.Logf("the request lapsed under the bot's answer (%d stones): asking for both", stones(v))
		if err := g.Do(protocol.RequestUndo{}); err != nil {
			t.Fatalf("asking again: %v", err)
		}
		v = wait("both moves taken back", func(v protocol.View) bool { return myTurn(v) && stones(v) == 0 })
	}
	if stones(v) != 0 || !v.MyTurn {
		t.Errorf("after the take-back: %d stones, my turn %v", stones(v), v.MyTurn)
	}
}
