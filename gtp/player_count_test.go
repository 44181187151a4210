package gtp_test

import (
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/fgo"
	"github.com/kakure/kakure/engine/hmg"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/gtp"
	"github.com/kakure/kakure/protocol"
)

// point reads a vertex of a 5×5 board.
func point(t *testing.T, v string) engine.Point {
	t.Helper()
	p, err := engine.ParseVertex(5, v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// countViews returns, for plain Go, F-Go, Hidden Move Go and Phantom Go
// (the boards revealed) on 5×5, Black's view in the dead-stone agreement
// after both passed: Black has C3, White has D4 (Phantom Go: Black C3
// and D3, White A2 and B1), and White's marking is on the table, which Black may answer by
// resuming play.
func countViews(t *testing.T) map[string]protocol.View {
	t.Helper()
	views := map[string]protocol.View{}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	c3, d4, pass := point(t, "C3"), point(t, "D4"), engine.Pass
	white := protocol.Invitee
	view := func(o engine.Options, kinds []protocol.Kind, v protocol.VariantView) protocol.View {
		return protocol.View{Role: protocol.Inviter, Color: engine.Black, Options: o, Phase: protocol.PhasePlay, MyTurn: true, Kinds: kinds, Variant: v}
	}

	o := engine.Options{Variant: engine.VariantGo, Size: 5, Komi: 7.5}
	g, err := engine.NewGoGame(o)
	must(err)
	for _, m := range []struct {
		c engine.Color
		p engine.Point
	}{{engine.Black, c3}, {engine.White, d4}, {engine.Black, pass}, {engine.White, pass}} {
		g, _, err = g.Play(m.c, m.p)
		must(err)
	}
	views["go"] = view(o, []protocol.Kind{protocol.KindAgree, protocol.KindMark, protocol.KindMove},
		gorules.View{Game: g, Scoring: true, HasProposal: true, Proposer: white})

	o = engine.Options{Variant: engine.VariantFGo, Size: 5}
	f, err := fgo.NewGame(o)
	must(err)
	for _, turn := range [][2]engine.Point{{c3, d4}, {pass, pass}} {
		f, _, err = f.Turn(turn[0], turn[1])
		must(err)
	}
	views["fgo"] = view(o, []protocol.Kind{protocol.KindAgree, protocol.KindMark, fgorules.KindCommit},
		fgorules.View{Game: f, MyChoice: engine.NoPoint, Scoring: true, HasProposal: true, Proposer: white})

	o = engine.Options{Variant: engine.VariantHMG, Size: 5, Cards: 1, Komi: 7.5}
	h, err := hmg.NewGame(o)
	must(err)
	h, err = h.SetCards(engine.Black, []engine.Point{point(t, "E5")})
	must(err)
	for _, m := range []struct {
		c engine.Color
		p engine.Point
	}{{engine.Black, c3}, {engine.White, d4}, {engine.Black, pass}, {engine.White, pass}} {
		h, _, err = h.Play(m.c, m.p)
		must(err)
	}
	views["hmg"] = view(o, []protocol.Kind{protocol.KindAgree, protocol.KindMark, protocol.KindMove, hmgrules.KindReveal},
		hmgrules.View{Stage: hmgrules.StageScoring, Game: h, CardsChosen: true, MyCards: h.Cards(engine.Black),
			OpponentCards: []hmg.Card{{Point: engine.NoPoint}}, HasProposal: true, Proposer: white})

	o = engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon, Komi: 7.5}
	ref, err := phantom.NewReferee(o)
	must(err)
	for _, p := range []engine.Point{c3, point(t, "A2"), point(t, "D3"), point(t, "B1"), pass, pass} {
		var out phantom.TryOutcome
		ref, out, err = ref.Try(ref.ToMove(), p)
		must(err)
		if !out.Legal {
			t.Fatalf("Phantom Go: %s illegal", p.Vertex(5))
		}
	}
	own, err := phantom.NewView(o, engine.Black)
	must(err)
	views["phantom"] = view(o, []protocol.Kind{protocol.KindAgree, protocol.KindMark, protocol.KindMove},
		phantomrules.View{Stage: phantomrules.StageScoring, Rules: o.Rules, ToMove: ref.ToMove(), Passes: 2,
			Revealed: true, Referee: ref, Scoring: true, HasProposal: true, Proposer: white, Own: own})
	return views
}

// TestGTPD9EngineResumesWithAStone (GTP-D9, GO-4): when the fallback
// resumes play in the count with a stone, an engine that answers pass
// does not replace it (a pass may not resume play: the protocol refuses
// it, and the game would wait for a move that never comes); an engine's
// stone does, in every variant with a count. In Phantom Go, where the
// boards are revealed, a move the referee refuses in the open (a suicide)
// is refused as illegal, and a legal one is played although play had
// ended.
func TestGTPD9EngineResumesWithAStone(t *testing.T) {
	views := countViews(t)
	fallbackMove := protocol.Play{Point: point(t, "B4")}
	for _, name := range []string{"go", "fgo", "hmg", "phantom"} {
		view := views[name]
		t.Run(name, func(t *testing.T) {
			c, _ := engineWithLog(t, "pass")
			p := gtp.NewEnginePlayer(c, &fixedPlayer{action: fallbackMove})
			if a := p.Choose(view); a != fallbackMove {
				t.Errorf("engine's pass: action %#v, want the fallback's %v", a, fallbackMove)
			}
			if p.Asked != 1 || p.Refused["no pass here"] != 1 || p.Fallbacks["no pass here"] != 1 {
				t.Errorf("asked %d, refused %v, fallbacks %v; want the engine asked and its pass refused", p.Asked, p.Refused, p.Fallbacks)
			}
			c, _ = engineWithLog(t, "E2")
			p = gtp.NewEnginePlayer(c, &fixedPlayer{action: fallbackMove})
			if a, ok := p.Choose(view).(protocol.Play); !ok || a.Point.Vertex(5) != "E2" {
				t.Errorf("engine's stone: action %#v, want the engine's E2", a)
			}
		})
	}
	t.Run("phantom suicide", func(t *testing.T) {
		// A1, between White's A2 and B1, is a suicide for Black.
		c, _ := engineWithLog(t, "A1")
		p := gtp.NewEnginePlayer(c, &fixedPlayer{action: fallbackMove})
		if a := p.Choose(views["phantom"]); a != fallbackMove || p.Refused["illegal"] != 1 {
			t.Errorf("engine's suicide A1: action %#v, refused %v; want the fallback's %v, refused as illegal", a, p.Refused, fallbackMove)
		}
	})
}
