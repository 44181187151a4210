package session_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// timedHMG returns Hidden Move Go on 9×9 with two cards a player and the
// time control text.
func timedHMG(text string) engine.Options {
	return engine.Options{Variant: engine.VariantHMG, Size: 9, Cards: 2, CardsSet: true, Time: clock.MustParse(text)}
}

// TestCLKD10HMGStalledCardChoiceLosesOnTime (CLK-D10, CLK-D9, HMG-1):
// in Hidden Move Go the card choice is its player's time. With 2 s
// absolute, Black never chooses its cards: White's program claims the loss
// on time once Black's clock and the lag allowance ran out, Black's
// program confirms it, and the record verifies as a loss on time naming
// Black.
func TestCLKD10HMGStalledCardChoiceLosesOnTime(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, timedHMG("2s"))
	black, white := byColor(games)
	start := time.Now()
	for _, g := range games {
		o := gameOver(t, g)
		if o.Result.By != engine.ByTime || o.Result.Winner != engine.White {
			t.Errorf("%s: result %v (%s), want White on time", g.Role(), o.Result, o.Result.By)
		}
		if o.Violation == nil || o.Violation.Accused != black.Role() {
			t.Errorf("%s: violation %+v, want Black's flag named", g.Role(), o.Violation)
		}
	}
	if d := time.Since(start); d < 2*time.Second {
		t.Errorf("the game ended on time after %v, before Black's 2 s ran out", d)
	}
	checkVerifiedLossOnTime(t, p, white)
}

// clockParts returns the clock's part of each message of kind from role r
// in g's record.
func clockParts(t *testing.T, g *session.Game, r protocol.Role, kind protocol.Kind) []map[string]json.RawMessage {
	t.Helper()
	var out []map[string]json.RawMessage
	for _, m := range g.Transcript().Messages {
		if m.From != r || m.Kind != kind {
			continue
		}
		var b map[string]json.RawMessage
		if err := json.Unmarshal(m.Body, &b); err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// TestCLKD10HMGTimedTurns (CLK-D10, CLK-D8, HMG-2, HMG-5): in Hidden Move
// Go the card commitments, a move and a reveal onto the opponent's last
// stone (which ends the turn) carry their player's think time; a reveal
// within a turn carries none, its time going into the turn's move; both
// programs hold the same clocks, charged with the think times claimed.
func TestCLKD10HMGTimedTurns(t *testing.T) {
	t.Parallel()
	p := newPair(t)
	games := startGame(t, p, timedHMG("10m"))
	black, white := byColor(games)
	const think = 300 * time.Millisecond
	do := func(g *session.Game, a protocol.Action) {
		t.Helper()
		time.Sleep(think)
		if err := g.Do(a); err != nil {
			t.Fatalf("%s: %T: %v", g.View().Color, a, err)
		}
	}
	hmg := func(v protocol.View) hmgrules.View { return v.Variant.(hmgrules.View) }
	do(black, hmgrules.SetCards{Points: []engine.Point{vertex(t, "D4"), vertex(t, "F6")}})
	waitView(t, white, "Black's cards", func(v protocol.View) bool { return hmg(v).Committed[black.Role()] })
	do(white, hmgrules.SetCards{Points: []engine.Point{vertex(t, "E5"), vertex(t, "C3")}})
	waitView(t, black, "its first turn", func(v protocol.View) bool { return v.MyTurn && hmg(v).Stage == hmgrules.StagePlay })
	do(black, protocol.Play{Point: vertex(t, "E5")})
	waitView(t, white, "its turn", func(v protocol.View) bool { return v.MyTurn })
	do(white, hmgrules.Reveal{Card: 0}) // onto Black's last stone: undoes E5, ends the turn (HMG-5)
	waitView(t, black, "its fresh turn", func(v protocol.View) bool {
		b := hmg(v).Game.Board()
		return v.MyTurn && b.At(vertex(t, "E5")) == engine.White
	})
	do(black, hmgrules.Reveal{Card: 1}) // within the turn
	do(black, protocol.Play{Point: vertex(t, "G7")})

	const charges = 5 // two card choices, E5, the undoing reveal, G7
	var views [2]protocol.View
	for i, g := range games {
		views[i] = waitClockView(t, g, "the last move charged", func(v protocol.View) bool {
			return v.Clock != nil && v.Clock.Clocks[0].Moves+v.Clock.Clocks[1].Moves == charges
		})
	}
	if views[0].Clock.Clocks != views[1].Clock.Clocks {
		t.Errorf("the programs hold different clocks: %+v and %+v", views[0].Clock.Clocks, views[1].Clock.Clocks)
	}
	thinkOf := func(b map[string]json.RawMessage) time.Duration {
		var n int64
		if raw, ok := b["think_ms"]; ok {
			if err := json.Unmarshal(raw, &n); err != nil {
				t.Fatal(err)
			}
		}
		return time.Duration(n) * time.Millisecond
	}
	for _, c := range []struct {
		what string
		g    *session.Game
		kind protocol.Kind
		want []time.Duration // the least think time of each, -1 for none
	}{
		{"Black's cards", black, hmgrules.KindCards, []time.Duration{think}},
		{"White's cards", white, hmgrules.KindCards, []time.Duration{think}},
		{"Black's moves", black, protocol.KindMove, []time.Duration{think, 2 * think}},
		{"White's undoing reveal", white, hmgrules.KindReveal, []time.Duration{think}},
		{"Black's reveal within its turn", black, hmgrules.KindReveal, []time.Duration{-1}},
	} {
		parts := clockParts(t, c.g, c.g.Role(), c.kind)
		if len(parts) != len(c.want) {
			t.Fatalf("%s: %d messages, want %d", c.what, len(parts), len(c.want))
		}
		for i, w := range c.want {
			_, has := parts[i]["think_ms"]
			switch {
			case w < 0 && has:
				t.Errorf("%s %d carries a think time: %s", c.what, i, parts[i]["think_ms"])
			case w >= 0 && (!has || thinkOf(parts[i]) < w):
				t.Errorf("%s %d: think time %v, want at least %v", c.what, i, thinkOf(parts[i]), w)
			}
		}
	}
	used := func(r protocol.Role) time.Duration { return 10*time.Minute - views[0].Clock.Clocks[r].Main }
	if u := used(black.Role()); u < 4*think {
		t.Errorf("Black's clock shows %v used, want at least its cards, E5 and (reveal and) G7: %v", u, 4*think)
	}
	if u := used(white.Role()); u < 2*think {
		t.Errorf("White's clock shows %v used, want at least its cards and its reveal: %v", u, 2*think)
	}
}

// TestT10HMGClockTimesOnAReveal (CLK-D10, T-10): a cheating program
// writes a think time into a reveal that does not end its turn, to have
// it charged apart from its move. The honest program refuses it as a
// violation of T-10 by the cheater, wins, and the record proves it; the
// honest side is not the one blamed.
func TestT10HMGClockTimesOnAReveal(t *testing.T) {
	const cheater = 1
	p := newPair(t, func(i int, c *session.Config) {
		if i != cheater {
			return
		}
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if rb, ok := body.(hmgrules.RevealBody); ok {
				rb.ThinkMS = 5
				return kind, rb, true
			}
			return kind, body, false
		})
	})
	games := startGame(t, p, timedHMG("10m"))
	black, white := byColor(games)
	if err := black.Do(hmgrules.SetCards{Points: []engine.Point{vertex(t, "D4"), vertex(t, "F6")}}); err != nil {
		t.Fatal(err)
	}
	if err := white.Do(hmgrules.SetCards{Points: []engine.Point{vertex(t, "E5"), vertex(t, "C3")}}); err != nil {
		t.Fatal(err)
	}
	waitView(t, black, "its first turn", func(v protocol.View) bool {
		return v.MyTurn && v.Variant.(hmgrules.View).Stage == hmgrules.StagePlay
	})
	if games[cheater] == white {
		if err := black.Do(protocol.Play{Point: vertex(t, "G7")}); err != nil {
			t.Fatal(err)
		}
		waitView(t, white, "its turn", func(v protocol.View) bool { return v.MyTurn })
	}
	_ = games[cheater].Do(hmgrules.Reveal{Card: 1}) // within the turn: the cheater's own machine refuses it
	honest := games[1-cheater]
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(10*time.Second))
	defer cancel()
	if err := honest.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	out := honest.Outcome()
	if out == nil || out.Violation == nil || out.Violation.Rule != "T-10" || out.Violation.Accused != protocol.Role(cheater) {
		t.Fatalf("honest outcome %+v, want T-10 by the cheater", out)
	}
	if !strings.Contains(out.Violation.Detail, "ends no timed turn") {
		t.Errorf("the violation says %q, want the clock times on a reveal named", out.Violation.Detail)
	}
	if out.Result.Winner != honest.View().Color {
		t.Errorf("result %v, want a win for the honest %v", out.Result, honest.View().Color)
	}
	rep := protocol.Verify(honest.Transcript())
	if rep.Violation == nil || rep.Violation.Accused != protocol.Role(cheater) || !rep.Proven {
		t.Errorf("verify: %+v (proven %v), want the cheater's violation proven", rep.Violation, rep.Proven)
	}
}
