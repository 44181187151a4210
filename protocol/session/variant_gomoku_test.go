package session_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

var gomokuOpts = engine.Options{Variant: engine.VariantGomoku, Size: 9}

// noFiles keeps a service's games in memory: saving the whole transcript
// at every message makes long games slow, and these tests check the
// records in memory.
func noFiles(_ int, c *session.Config) { c.Dir = "" }

// TestGM8RandomGomokuGamesOverLoopback plays whole random games on 9×9
// between two real hosts: each ends with a win or a draw that both peers
// agree on, the audit passes, Verify accepts both records, and no view
// ever shows a hidden piece of the opponent.
func TestGM8RandomGomokuGamesOverLoopback(t *testing.T) {
	hiddenSeen := 0
	for seed := uint64(1); seed <= 2; seed++ {
		p := newPair(t, noFiles)
		a, b := playBots(t, p, gomokuOpts, 10*seed)
		out := a.Outcome()
		if out.Violation != nil || out.Result.By != engine.ByWin && out.Result.By != engine.ByDraw {
			t.Fatalf("seed %d: outcome %v (violation %v), want a win or a draw", seed, out.Result, out.Violation)
		}
		for _, g := range []*session.Game{a, b} {
			tr := g.Transcript()
			rep := protocol.Verify(tr)
			if rep.Violation != nil || rep.Outcome == nil || rep.Outcome.Result != out.Result || rep.Messages != len(tr.Messages) {
				t.Fatalf("seed %d: Verify of the %s's record: %+v", seed, g.Role(), rep)
			}
			v := g.View()
			gv, ok := v.Variant.(gomokurules.View)
			if !ok || gv.Record == nil || gv.Audit != nil || !gv.Game.Over() || gv.Game.Result() != out.Result {
				t.Fatalf("seed %d: the %s's final view %+v", seed, g.Role(), v.Variant)
			}
			if v.Color != gv.Game.Me() {
				t.Errorf("seed %d: the %s plays %v, its gomoku view says %v", seed, g.Role(), v.Color, gv.Game.Me())
			}
			hiddenSeen += checkNoHiddenShown(t, gv)
		}
	}
	if hiddenSeen == 0 {
		t.Error("no game ended with a hidden piece: the check of the views checked nothing")
	}
}

// checkNoHiddenShown checks that the pieces of the opponent that stayed
// hidden until the final openings never showed in the player's view, and
// returns how many there were.
func checkNoHiddenShown(t *testing.T, gv gomokurules.View) int {
	t.Helper()
	n := 0
	for k, note := range gv.Game.History() {
		if note.Mover == gv.Game.Me() || note.Outcome != gomoku.PlacedHidden || note.Turn.Point != engine.NoPoint {
			continue
		}
		n++
		if p := gv.Record.Turns[k].Point; gv.Game.OpponentPiece(p) {
			t.Errorf("the view shows the opponent's hidden piece of move %d at %s", k+1, p.Vertex(gv.Game.Size()))
		}
	}
	if gv.Game.OpponentHidden() != n {
		t.Errorf("the view counts %d hidden pieces of the opponent, its history %d", gv.Game.OpponentHidden(), n)
	}
	return n
}

// passBack is an honest player that passes as soon as its opponent has
// passed, so that a game ends quickly after a cheater starts passing.
type passBack struct{ *bot.Random }

func (p passBack) Choose(v protocol.View) protocol.Action {
	if gv, ok := v.Variant.(gomokurules.View); ok && gv.Game.Phase() == gomoku.PhaseCommit && gv.Game.MyTurn() {
		if h := gv.Game.History(); len(h) > 0 && h[len(h)-1].Outcome == gomoku.Passed && len(gv.Game.LegalPoints()) > 0 {
			return protocol.Play{Point: engine.Pass}
		}
	}
	return p.Random.Choose(v)
}

// noPass is a random player that never passes.
type noPass struct{ *bot.Random }

func (p noPass) Choose(v protocol.View) protocol.Action {
	a := p.Random.Choose(v)
	if pl, ok := a.(protocol.Play); ok && pl.Point == engine.Pass {
		gv := v.Variant.(gomokurules.View)
		return gomokurules.Place{Point: gv.Game.LegalPoints()[0]}
	}
	return a
}

// playGomokuCheater plays a gomoku game in which the inviter (peer 0)
// cheats through the wire hook (may be nil) made for its service, and
// returns the honest invitee's game once it is over.
func playGomokuCheater(t *testing.T, wire func(cheater *session.Service) func(*protocol.Message, crypto.PrivKey) [][]byte, cheater, honest bot.Player) *session.Game {
	t.Helper()
	return playGomokuCheaterWith(t, wire, nil, cheater, honest)
}

// gomokuCheats returns the configuration (for playGomokuCheaterWith) by
// which the cheater's gomoku players pass what they send through tamper.
func gomokuCheats(tamper func(me protocol.Role, v gomoku.View, kind protocol.Kind, body any) (protocol.Kind, any)) func(i int, c *session.Config) {
	return func(i int, c *session.Config) {
		if i == 0 {
			session.SetRewrite(c, session.GomokuCheats(tamper))
		}
	}
}

// playGomokuCheaterWith is playGomokuCheater with configure, when not
// nil, applied to the cheater's configuration (i 0) and the honest one's
// (i 1).
func playGomokuCheaterWith(t *testing.T, wire func(cheater *session.Service) func(*protocol.Message, crypto.PrivKey) [][]byte, configure func(i int, c *session.Config), cheater, honest bot.Player) *session.Game {
	t.Helper()
	var svc *session.Service
	p := newPair(t, func(i int, c *session.Config) {
		if configure != nil {
			configure(i, c)
		}
		if i == 0 {
			// Only the honest peer's record is read.
			noFiles(i, c)
			if wire != nil {
				session.SetTamper(c, func(m *protocol.Message, key crypto.PrivKey) [][]byte { return wire(svc)(m, key) })
			}
		}
	})
	svc = p.services[0]
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()
	h := testnet.StartBotGame(ctx, p.services[0], p.services[1], p.hosts[1].ID(), gomokuOpts, [2]bot.Player{cheater, honest}).Started(t)[protocol.Invitee]
	if err := h.Wait(ctx); err != nil {
		t.Fatalf("the honest game did not end: %v", err)
	}
	return h
}

// onFirst returns a wire hook that rewrites, with f, the first message of
// the cheater for which f returns true.
func onFirst(t *testing.T, f func(svc *session.Service, m *protocol.Message) bool) func(*session.Service) func(*protocol.Message, crypto.PrivKey) [][]byte {
	done := false
	return func(svc *session.Service) func(*protocol.Message, crypto.PrivKey) [][]byte {
		return func(m *protocol.Message, key crypto.PrivKey) [][]byte {
			if done || !f(svc, m) {
				return nil
			}
			done = true
			resign(t, m, key)
			return [][]byte{session.FrameOf(m)}
		}
	}
}

// decode reads a message body the cheater sent.
func decode(t *testing.T, m *protocol.Message, v any) {
	if err := json.Unmarshal(m.Body, v); err != nil {
		t.Errorf("body of %s: %v", m.Kind, err)
	}
}

func TestT5GomokuOpeningOfAnotherPoint(t *testing.T) {
	h := playGomokuCheater(t, onFirst(t, func(_ *session.Service, m *protocol.Message) bool {
		switch m.Kind {
		case gomokurules.KindResponse, gomokurules.KindOpenAll:
			var b gomokurules.OpeningsBody
			decode(t, m, &b)
			if len(b.Openings) == 0 {
				return false
			}
			b.Openings[0].Opening.Value = []byte(otherVertex(string(b.Openings[0].Opening.Value)))
			m.Body = session.MustEncodeBody(b)
		case gomokurules.KindReveal:
			var b protocol.OpenBody
			decode(t, m, &b)
			b.Opening.Value = []byte(otherVertex(string(b.Opening.Value)))
			m.Body = session.MustEncodeBody(b)
		default:
			return false
		}
		return true
	}), bot.NewRandom(1), bot.NewRandom(2))
	checkCaught(t, h, "T-5", "does not match its commitment")
}

func TestGM3GomokuAnswerOutsideTheLine(t *testing.T) {
	h := playGomokuCheater(t, onFirst(t, func(svc *session.Service, m *protocol.Message) bool {
		if m.Kind != gomokurules.KindResponse {
			return false
		}
		g := svc.Game(m.Game)
		gv := g.View().Variant.(gomokurules.View).Game
		line := gv.Announced()
		for k, n := range gv.History() {
			p := n.Turn.Point
			if n.Mover != gv.Me() || n.Outcome != gomoku.PlacedHidden || gv.Own(p) != gomoku.HiddenPiece || line.Contains(gv.Size(), p) {
				continue
			}
			o, ok := session.GomokuOpeningOf(g, k+1)
			if !ok {
				t.Errorf("no opening of move %d", k+1)
				return false
			}
			var b gomokurules.OpeningsBody
			decode(t, m, &b)
			b.Openings = append(b.Openings, gomokurules.PieceOpening{Move: k + 1, Opening: o})
			m.Body = session.MustEncodeBody(b)
			return true
		}
		return false
	}), bot.NewRandom(1), bot.NewRandom(2))
	checkCaught(t, h, "GM-3", "outside the announced")
}

func TestGM6GomokuFalseClaim(t *testing.T) {
	h := playGomokuCheater(t, onFirst(t, func(_ *session.Service, m *protocol.Message) bool {
		if m.Kind != gomokurules.KindDeclare {
			return false
		}
		var b gomokurules.DeclareBody
		decode(t, m, &b)
		b.Claim = true
		b.Lines = []gomokurules.FiveBody{{Start: "A1", Dir: "horizontal"}, {Start: "A3", Dir: "vertical"}}
		m.Body = session.MustEncodeBody(b)
		return true
	}), bot.NewRandom(1), bot.NewRandom(2))
	checkCaught(t, h, "GM-6", "false win claim")
}

// lineName is the wire name of a line kind.
func lineName(k gomoku.LineKind) string {
	if k == gomoku.Column {
		return "column"
	}
	return "row"
}

// TestGM8GomokuRowLieCaughtByAudit (ARCH-D5: the cheat goes through the
// generic rewrite hook, GomokuCheats): the cheater announces, on its first
// turn, a line that does not hold its committed point, chosen so that no
// hidden piece of the opponent lies on it (nothing is revealed, so nothing
// can be checked at once); then it only passes and never reveals that
// piece. The audit at the end finds the lie (GM-3).
func TestGM8GomokuRowLieCaughtByAudit(t *testing.T) {
	lie := 0
	tamper := func(me protocol.Role, v gomoku.View, kind protocol.Kind, body any) (protocol.Kind, any) {
		if me != protocol.Inviter {
			return kind, body
		}
		switch kind {
		case gomokurules.KindAnnounce:
			if lie != 0 {
				break
			}
			lk := gomoku.Row
			if body.(gomokurules.LineBody).Line == "column" {
				lk = gomoku.Column
			}
			kinds := map[gomoku.LineKind]bool{}
			used := map[int]bool{}
			for _, n := range v.History() {
				if n.Mover != v.Me() && n.Outcome == gomoku.PlacedHidden && n.Turn.Point == engine.NoPoint {
					kinds[n.Turn.Line.Kind] = true
					used[n.Turn.Line.Index] = true
				}
			}
			if len(kinds) > 1 {
				break
			}
			for k := range kinds {
				lk = k
			}
			own := gomoku.LineOf(v.Size(), v.Committed(), lk).Index
			for i := range v.Size() {
				if i != own && !used[i] {
					lie = v.MoveNumber()
					return kind, gomokurules.LineBody{Line: lineName(lk), Index: i}
				}
			}
		case gomokurules.KindCommit:
			if lie != 0 {
				return gomokurules.KindPass, struct{}{}
			}
		case gomokurules.KindResponse:
			b := body.(gomokurules.OpeningsBody)
			kept := []gomokurules.PieceOpening{}
			for _, o := range b.Openings {
				if o.Move != lie {
					kept = append(kept, o)
				}
			}
			return kind, gomokurules.OpeningsBody{Openings: kept}
		}
		return kind, body
	}
	h := playGomokuCheaterWith(t, nil, gomokuCheats(tamper), noPass{bot.NewRandom(1)}, passBack{bot.NewRandom(2)})
	checkCaught(t, h, "GM-3", "audit")
	if lie == 0 {
		t.Fatal("the cheater never lied")
	}
	gv := h.View().Variant.(gomokurules.View)
	if gv.Audit == nil || gv.Audit.Move != lie || gv.Record == nil {
		t.Errorf("audit %v, want the lie of move %d", gv.Audit, lie)
	}
}

// TestGM8GomokuFalseFiveCaughtByAudit: the cheater says "five" after its
// first placement, then only passes; only the audit can tell (GM-5).
func TestGM8GomokuFalseFiveCaughtByAudit(t *testing.T) {
	lie := 0
	tamper := func(me protocol.Role, v gomoku.View, kind protocol.Kind, body any) (protocol.Kind, any) {
		if me != protocol.Inviter {
			return kind, body
		}
		switch kind {
		case gomokurules.KindDeclare:
			if b := body.(gomokurules.DeclareBody); lie == 0 && !b.Five && !b.Claim {
				b.Five = true
				lie = v.MoveNumber()
				return kind, b
			}
		case gomokurules.KindCommit:
			if lie != 0 {
				return gomokurules.KindPass, struct{}{}
			}
		}
		return kind, body
	}
	h := playGomokuCheaterWith(t, nil, gomokuCheats(tamper), noPass{bot.NewRandom(1)}, passBack{bot.NewRandom(2)})
	checkCaught(t, h, "GM-5", "audit")
	if gv := h.View().Variant.(gomokurules.View); gv.Audit == nil || gv.Audit.Move != lie {
		t.Errorf("audit %v, want the false five of move %d", gv.Audit, lie)
	}
}
