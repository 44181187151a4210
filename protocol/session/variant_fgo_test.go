package session_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// checkRecords verifies both saved records of a finished game with
// protocol.Verify: no violation, and the outcome the peers agreed on. A
// record that holds the same game, peers and signed messages as one
// verified before gives the same report (Verify reads nothing else) and
// is not verified again: the audit of a Phantom Go game replays it whole.
func checkRecords(t *testing.T, games ...*session.Game) map[protocol.Kind]int {
	t.Helper()
	want := games[0].Outcome()
	kinds := map[protocol.Kind]int{}
	var verified []*protocol.Transcript
	var reports []*protocol.Report
	for i, g := range games {
		tr, err := session.LoadTranscript(g.RecordPath())
		if err != nil {
			t.Fatalf("saved record: %v", err)
		}
		k := slices.IndexFunc(verified, func(v *protocol.Transcript) bool { return sameTranscript(v, tr) })
		var rep *protocol.Report
		if k >= 0 {
			rep = reports[k]
		} else {
			rep = protocol.Verify(tr)
			verified, reports = append(verified, tr), append(reports, rep)
		}
		if rep.Violation != nil {
			t.Errorf("Verify on the %s's record: %v", g.Role(), rep.Violation)
		}
		if rep.Outcome == nil || rep.Outcome.Result != want.Result {
			t.Errorf("Verify on the %s's record gives %+v, the game %v", g.Role(), rep.Outcome, want.Result)
		}
		if i == 0 {
			for _, m := range tr.Messages {
				kinds[m.Kind]++
			}
		}
	}
	return kinds
}

// quickBot is a random bot that passes after max moves (Bridge Go) or
// turns (F-Go), to keep games over the network short.
func quickBot(seed uint64, max int) *bot.Random {
	r := bot.NewRandom(seed)
	r.MaxMoves = max
	return r
}

// TestFG6FGoGamesOverLoopback plays whole games of F-Go between random
// bots on real hosts: both peers agree on the result (FG-6: a count with
// komi 0), and Verify accepts both records.
func TestFG6FGoGamesOverLoopback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		o    engine.Options
		seed uint64
	}{
		{"FG-6 9x9 suicide nz", engine.Options{Variant: engine.VariantFGo, Size: 9}, 11},
		{"FG-5 9x9 suicide forbid", engine.Options{Variant: engine.VariantFGo, Size: 9, Suicide: engine.SuicideForbid}, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := newPair(t)
			a, b := playPlayers(t, p, tt.o, quickBot(tt.seed, 30), quickBot(tt.seed+1, 30))
			out := a.Outcome()
			if out.Violation != nil || out.Result.By != engine.ByScore {
				t.Fatalf("outcome %+v, want a count", out)
			}
			v := a.View()
			if v.Options.Komi != 0 || v.Options.Suicide != tt.o.Suicide && tt.o.Suicide != "" {
				t.Errorf("options %+v", v.Options)
			}
			fv := v.Variant.(fgorules.View)
			if fv.Game.TurnNumber() < 20 || !fv.Game.PlayEnded() {
				t.Errorf("the game ended after %d turns, play ended %v", fv.Game.TurnNumber(), fv.Game.PlayEnded())
			}
			if want := fv.Game.Score(engine.Marking{}).Result(); out.Result != want {
				t.Errorf("result %v, the final position counts %v", out.Result, want)
			}
			kinds := checkRecords(t, a, b)
			if kinds[fgorules.KindCommit] != kinds[fgorules.KindOpen] || kinds[fgorules.KindCommit] == 0 {
				t.Errorf("%d commitments and %d openings", kinds[fgorules.KindCommit], kinds[fgorules.KindOpen])
			}
			t.Logf("%d turns, result %v, %d offers (%d accepted, %d declined), %d messages",
				fv.Game.TurnNumber(), out.Result, kinds[fgorules.KindOffer], kinds[fgorules.KindAccept],
				kinds[fgorules.KindDecline], len(a.Transcript().Messages))
		})
	}
}

// slowPlayer thinks a while before each action, so that a cheater's
// message out of turn reaches its peer before the honest answer.
type slowPlayer struct {
	p     bot.Player
	delay time.Duration
}

func (s slowPlayer) Choose(v protocol.View) protocol.Action {
	time.Sleep(s.delay)
	return s.p.Choose(v)
}

// waitsForCheat is an honest player that, once the cheater (the inviter)
// has sent `after` moves, does not answer until its game is over: the
// cheater's message out of turn, sent right behind its move, is then
// read while it is still the honest player's turn, every time (a sync
// point, not a race won by thinking long). playCheatingGameWith binds it
// to its game.
type waitsForCheat struct {
	p     bot.Player
	after int
	game  atomic.Pointer[session.Game]
}

// bind gives w its game.
func (w *waitsForCheat) bind(g *session.Game) { w.game.Store(g) }

func (w *waitsForCheat) Choose(v protocol.View) protocol.Action {
	if g := w.game.Load(); g != nil && movesFrom(g.Transcript(), protocol.Inviter) >= w.after {
		// Bounded, so that a cheat not caught fails the test (on the
		// violation found) instead of hanging it.
		deadline := testenv.Deadline(10 * time.Second)
		for g.Outcome() == nil && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
	return w.p.Choose(v)
}

// movesFrom counts the move messages of role r in tr.
func movesFrom(tr *protocol.Transcript, r protocol.Role) int {
	n := 0
	for _, m := range tr.Messages {
		if m.From == r && m.Kind == protocol.KindMove {
			n++
		}
	}
	return n
}

// playCheatingGame plays random bots where the inviter (peer 0) cheats as
// setup configures it, and returns the honest invitee's game once over.
func playCheatingGame(t *testing.T, o engine.Options, setup func(c *session.Config), honest bot.Player) *session.Game {
	t.Helper()
	return playCheatingGameWith(t, o, setup, bot.NewRandom(1), honest)
}

// playCheatingGameWith is playCheatingGame with the cheater's player
// given, and further configurations of both peers (as newPair takes
// them).
func playCheatingGameWith(t *testing.T, o engine.Options, setup func(c *session.Config), cheater, honest bot.Player, cfgs ...func(i int, c *session.Config)) *session.Game {
	t.Helper()
	cfgs = append(cfgs, func(i int, c *session.Config) {
		if i == 0 {
			setup(c)
		}
	})
	p := newPair(t, cfgs...)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()
	h, _ := playCheatOn(t, ctx, p, o, cheater, honest)
	return h
}

// playCheatOn plays o on p's services between the cheater's player (the
// inviter, peer 0) and the honest one (the invitee, which is given its
// game first if it has a bind method), and returns both games once the
// honest one is over.
func playCheatOn(t *testing.T, ctx context.Context, p *pair, o engine.Options, cheater, honest bot.Player) (h, g *session.Game) {
	t.Helper()
	done := make(chan *session.Game, 1)
	go func() {
		select {
		case g := <-p.services[1].Accepted():
			if b, ok := honest.(interface{ bind(*session.Game) }); ok {
				b.bind(g)
			}
			done <- g
			bot.Run(ctx, g, honest)
		case <-ctx.Done():
			done <- nil
		}
	}()
	g, err := p.services[0].Invite(ctx, p.hosts[1].ID(), o)
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	go bot.Run(ctx, g, cheater)
	h = <-done
	if h == nil {
		t.Fatal("the honest peer never got the game")
	}
	if err := h.Wait(ctx); err != nil {
		t.Fatalf("the honest game did not end: %v", err)
	}
	return h, g
}

var fgo9 = engine.Options{Variant: engine.VariantFGo, Size: 9}

// TestT5CheatFGoOpensAnotherChoice: the cheater opens a choice other than
// the one it committed to; the honest peer catches it at once (T-5, T-6).
func TestT5CheatFGoOpensAnotherChoice(t *testing.T) {
	hook := cheatOn(fgorules.KindOpen, 3, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		var b protocol.OpenBody
		if err := json.Unmarshal(m.Body, &b); err != nil {
			t.Error(err)
			return nil
		}
		if string(b.Opening.Value) == "A1" {
			b.Opening.Value = []byte("B1")
		} else {
			b.Opening.Value = []byte("A1")
		}
		m.Body = session.MustEncodeBody(b)
		resign(t, m, key)
		return [][]byte{session.FrameOf(m)}
	})
	h := playCheatingGame(t, fgo9, func(c *session.Config) { session.SetTamper(c, hook) }, bot.NewRandom(2))
	checkCaught(t, h, "T-5", "does not match its commitment")
}

// TestFG1CheatFGoOpensOccupiedPoint: the cheater commits to a point that
// holds a stone and opens it correctly; its own program would refuse
// that, so the test rewrites its messages before they are recorded. The
// honest peer checks the opened choice at once (T-6) and catches FG-1.
func TestFG1CheatFGoOpensOccupiedPoint(t *testing.T) {
	var mu sync.Mutex // the cheater's loop writes, the test reads
	var fake *commit.Opening
	var occupied string
	opened := false
	rewrite := func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case kind == fgorules.KindCommit && fake == nil:
			v := g.View()
			fv := v.Variant.(fgorules.View)
			b := fv.Game.Board()
			stones := append(b.Stones(engine.Black), b.Stones(engine.White)...)
			if len(stones) == 0 {
				return kind, body, false
			}
			occupied = stones[0].Vertex(b.Size())
			id := g.ID()
			c, o, err := commit.New(fgorules.ChoiceDomain, id[:], uint8(v.Role), uint32(fv.Game.TurnNumber()), []byte(occupied))
			if err != nil {
				t.Error(err)
				return kind, body, false
			}
			fake = &o
			return kind, protocol.CommitBody{Commitment: c}, true
		case kind == fgorules.KindOpen && fake != nil && !opened:
			opened = true
			return kind, protocol.OpenBody{Opening: *fake}, true
		}
		return kind, body, false
	}
	h := playCheatingGame(t, fgo9, func(c *session.Config) { session.SetRewrite(c, rewrite) }, bot.NewRandom(2))
	mu.Lock()
	detail := "illegal choice " + occupied
	mu.Unlock()
	checkCaught(t, h, "FG-1", detail)
}
