package bot_test

import (
	"slices"
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol"
)

// countView returns Black's view in the dead-stone agreement of a 5×5
// game after both passed, White's marking of every Black stone dead on
// the table, with the kinds Black may send.
type countView func(t *testing.T, kinds []protocol.Kind) protocol.View

// vertices reads 5×5 vertices.
func vertices(t *testing.T, vs ...string) []engine.Point {
	t.Helper()
	var ps []engine.Point
	for _, v := range vs {
		p, err := engine.ParseVertex(5, v)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// opening is the game of the count views, on 5×5 with komi 0.5: Black
// C3, C2 and B3, White E5 and E4, passes in between and at the end.
// Black, to move, wins the count with every stone alive (3 to 2.5) and
// loses it with its own stones dead, as White proposes; play has barely
// begun, so that Black's search, once play resumes, plays a stone.
var opening = []string{"C3", "E5", "C2", "pass", "B3", "E4", "pass", "pass"}

// goCountView: the opening in plain Go.
func goCountView(t *testing.T, kinds []protocol.Kind) protocol.View {
	o := engine.Options{Variant: engine.VariantGo, Size: 5, Komi: 0.5}
	g, err := engine.NewGoGame(o)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range vertices(t, opening...) {
		if g, _, err = g.Play([]engine.Color{engine.Black, engine.White}[i%2], p); err != nil {
			t.Fatal(err)
		}
	}
	board := g.Board()
	return protocol.View{Role: protocol.Inviter, Color: engine.Black, Options: o, Phase: protocol.PhasePlay, MyTurn: true, Kinds: kinds,
		Variant: gorules.View{Game: g, Scoring: true, HasProposal: true, Proposer: protocol.Invitee, Proposal: board.Stones(engine.Black)}}
}

// phantomCountView: the opening in Phantom Go, the boards revealed.
func phantomCountView(t *testing.T, kinds []protocol.Kind) protocol.View {
	o := engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon, Komi: 0.5}
	ref, err := phantom.NewReferee(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range vertices(t, opening...) {
		var out phantom.TryOutcome
		if ref, out, err = ref.Try(ref.ToMove(), p); err != nil || !out.Legal {
			t.Fatalf("try %s: %v %+v", p.Vertex(5), err, out)
		}
	}
	own, err := phantom.NewView(o, engine.Black)
	if err != nil {
		t.Fatal(err)
	}
	board := ref.Board()
	return protocol.View{Role: protocol.Inviter, Color: engine.Black, Options: o, Phase: protocol.PhasePlay, MyTurn: true, Kinds: kinds,
		Variant: phantomrules.View{Stage: phantomrules.StageScoring, Rules: o.Rules, ToMove: ref.ToMove(), Passes: 2, Revealed: true,
			Referee: ref, Scoring: true, HasProposal: true, Proposer: protocol.Invitee, Proposal: board.Stones(engine.Black), Own: own}}
}

// TestBOTD4CountEnds (BOT-D4, GO-4): against an opponent who insists on
// its marking, the bot counters, then resumes play with a stone when its
// view's kinds let it (Black to move) and agrees after its second
// counter when they do not (in plain Go and Phantom Go only the player to
// move may resume); it never answers with an action the protocol refuses
// in the count (a pass, or a move it may not send), which left the game
// waiting for ever. In Phantom Go, the boards revealed, its resumption is
// a stone the referee takes although play had ended.
func TestBOTD4CountEnds(t *testing.T) {
	mover := []protocol.Kind{protocol.KindAgree, protocol.KindMark, protocol.KindMove}
	answerer := []protocol.Kind{protocol.KindAgree, protocol.KindMark}
	for _, tc := range []struct {
		name   string
		view   countView
		kinds  []protocol.Kind
		resume bool // the bot must resume play by its second decision
	}{
		{"go, to move", goCountView, mover, true},
		{"go, not to move", goCountView, answerer, false},
		{"phantom, to move", phantomCountView, mover, true},
		{"phantom, not to move", phantomCountView, answerer, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			view := tc.view(t, tc.kinds)
			b := bot.New(bot.Level{Playouts: 200}, 1)
			var actions []protocol.Action
			ended := false
			for range 4 {
				a := b.Choose(view)
				actions = append(actions, a)
				switch a := a.(type) {
				case protocol.MarkDead:
					continue // the opponent insists: the same view again
				case protocol.AgreeScore:
					ended = true
				case protocol.Play:
					if a.Point == engine.Pass || !slices.Contains(tc.kinds, protocol.KindMove) {
						t.Fatalf("actions %#v: a play the protocol refuses in the count", actions)
					}
					if vv, ok := view.Variant.(phantomrules.View); ok {
						ref, _ := vv.Referee.Resume(engine.Black)
						if _, out, err := ref.Try(engine.Black, a.Point); err != nil || !out.Legal {
							t.Fatalf("resumes with %s, which the referee refuses: %v %+v", a.Point.Vertex(5), err, out)
						}
					}
					ended = true
				default:
					t.Fatalf("actions %#v: not an action of the count", actions)
				}
				break
			}
			if !ended || len(actions) > 3 {
				t.Fatalf("actions %#v: the count does not end by the bot's third decision", actions)
			}
			if _, resumed := actions[len(actions)-1].(protocol.Play); tc.resume && !resumed {
				t.Errorf("actions %#v: the bot, to move, does not resume play", actions)
			}
			t.Logf("%#v", actions)
		})
	}
}
