package session_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// hmgOpts is Hidden Move Go on 9×9 with cards hidden moves each.
func hmgOpts(cards int) engine.Options {
	return engine.Options{Variant: engine.VariantHMG, Size: 9, Cards: cards, CardsSet: true}
}

// vertex parses a GTP vertex of a 9×9 board.
func vertex(t *testing.T, v string) engine.Point { return vertexOn(t, 9, v) }

// vertexOn parses a GTP vertex of a board of side size.
func vertexOn(t *testing.T, size int, v string) engine.Point {
	t.Helper()
	p, err := engine.ParseVertex(size, v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// hmgPrivacy wraps a player and records any view that shows an opponent
// card point the rules have not made public (HMG-1).
type hmgPrivacy struct {
	bot.Player
	mu   sync.Mutex
	errs []string
	seen int
}

func (p *hmgPrivacy) Choose(v protocol.View) protocol.Action {
	if vv, ok := v.Variant.(hmgrules.View); ok && vv.Stage != hmgrules.StageOpen && vv.Stage != hmgrules.StageDone {
		p.mu.Lock()
		p.seen++
		for i, card := range vv.OpponentCards {
			if !card.Revealed && card.Point != engine.NoPoint {
				p.errs = append(p.errs, fmt.Sprintf("stage %s: opponent card %d shown at %d", vv.Stage, i, card.Point))
			}
		}
		for i, card := range vv.Game.Cards(v.Color.Opponent()) {
			if !card.Revealed && card.Point != engine.NoPoint {
				p.errs = append(p.errs, fmt.Sprintf("stage %s: the game shows opponent card %d at %d", vv.Stage, i, card.Point))
			}
		}
		if vv.Stage != hmgrules.StageCards && (!vv.CardsChosen || len(vv.MyCards) != v.Options.Cards) {
			p.errs = append(p.errs, fmt.Sprintf("stage %s: own cards %v (chosen %v)", vv.Stage, vv.MyCards, vv.CardsChosen))
		}
		p.mu.Unlock()
	}
	return p.Player.Choose(v)
}

// hmgRun is a game played by hmgPlay.
type hmgRun struct {
	games [2]*session.Game
	// errs delivers what each role's bot.Run returned.
	errs [2]chan error
	ctx  context.Context
}

// hmgPlay plays o on a fresh pair between players[0] (the inviter) and
// players[1], with the configurations cfgs, and returns once the
// invitee's game is over. inviter, if not nil, receives the inviter's
// game before its player starts.
func hmgPlay(t *testing.T, o engine.Options, players [2]bot.Player, inviter *atomic.Pointer[session.Game], cfgs ...func(int, *session.Config)) *hmgRun {
	t.Helper()
	p := newPair(t, cfgs...)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	t.Cleanup(cancel)
	run := &hmgRun{errs: [2]chan error{make(chan error, 1), make(chan error, 1)}, ctx: ctx}
	guest := make(chan *session.Game, 1)
	go func() {
		select {
		case g := <-p.services[1].Accepted():
			guest <- g
			_, err := bot.Run(ctx, g, players[1])
			run.errs[1] <- err
		case <-ctx.Done():
			guest <- nil
			run.errs[1] <- ctx.Err()
		}
	}()
	host, err := p.services[0].Invite(ctx, p.hosts[1].ID(), o)
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	if inviter != nil {
		inviter.Store(host)
	}
	go func() {
		_, err := bot.Run(ctx, host, players[0])
		run.errs[0] <- err
	}()
	g := <-guest
	if g == nil {
		t.Fatal("the invitee never got the game")
	}
	select {
	case <-g.Done():
	case err := <-run.errs[0]:
		if err != nil {
			t.Fatalf("the inviter's player: %v", err)
		}
		run.errs[0] <- err
		if err := g.Wait(ctx); err != nil {
			t.Fatalf("the invitee's game did not end: %v", err)
		}
	case <-ctx.Done():
		t.Fatalf("the invitee's game did not end: %v", ctx.Err())
	}
	run.games = [2]*session.Game{host, g}
	return run
}

func TestHMG7GamesOverLoopback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		cards int
		seed  uint64
	}{
		{"HMG-7 9x9 3 cards", 3, 1},
		{"HMG-7 9x9 0 cards", 0, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parallelUnlessRace(t) // the games are independent (issue 32)
			players := [2]*hmgPrivacy{{Player: bot.NewRandom(tc.seed)}, {Player: bot.NewRandom(tc.seed + 1)}}
			run := hmgPlay(t, hmgOpts(tc.cards), [2]bot.Player{players[0], players[1]}, nil)
			games := run.games
			if err := games[0].Wait(run.ctx); err != nil {
				t.Fatal(err)
			}
			for i, errs := range run.errs {
				if err := <-errs; err != nil {
					t.Errorf("player %d: %v", i, err)
				}
			}
			out := [2]*protocol.Outcome{games[0].Outcome(), games[1].Outcome()}
			if out[0] == nil || out[1] == nil || out[0].Result != out[1].Result {
				t.Fatalf("outcomes %+v and %+v, want the same", out[0], out[1])
			}
			if out[0].Result.By != engine.ByScore || out[0].Violation != nil {
				t.Fatalf("outcome %+v, want a count", out[0])
			}
			for i, p := range players {
				p.mu.Lock()
				if p.seen == 0 || len(p.errs) > 0 {
					t.Errorf("player %d saw %d views; privacy errors: %v", i, p.seen, p.errs)
				}
				p.mu.Unlock()
			}
			v := games[1].View().Variant.(hmgrules.View)
			if v.Stage != hmgrules.StageDone {
				t.Errorf("final stage %s, want done", v.Stage)
			}
			// HMG-7: every unused card is opened and gives the opponent a point.
			unused := [3]int{}
			for _, c := range []engine.Color{engine.Black, engine.White} {
				for _, card := range v.Game.Cards(c) {
					if card.Point == engine.NoPoint {
						t.Errorf("%s card not opened at the end: %+v", c, v.Game.Cards(c))
					}
					if !card.Revealed {
						unused[c]++
					}
				}
			}
			b := v.Game.Board()
			score := engine.AreaScore(b, engine.MarkingOf(b, v.Proposal), v.Game.Options().Komi)
			score.Black += float64(unused[engine.White])
			score.White += float64(unused[engine.Black])
			if want := score.Result(); out[0].Result != want {
				t.Errorf("result %v, want %v (area count plus %d/%d passing stones)", out[0].Result, want, unused[engine.White], unused[engine.Black])
			}
			for _, g := range games {
				tr, err := session.LoadTranscript(g.RecordPath())
				if err != nil {
					t.Fatalf("saved record: %v", err)
				}
				rep := protocol.Verify(tr)
				if rep.Violation != nil || rep.Outcome == nil || rep.Outcome.Result != out[0].Result {
					t.Errorf("Verify on the %s's record: violation %v, outcome %+v", g.Role(), rep.Violation, rep.Outcome)
				}
				kinds := map[protocol.Kind]int{}
				for _, m := range tr.Messages {
					kinds[m.Kind]++
				}
				openers := 0
				for _, n := range unused[1:] {
					if n > 0 {
						openers++
					}
				}
				wantCards := 2
				if tc.cards == 0 {
					wantCards = 0
				}
				if kinds[hmgrules.KindCards] != wantCards || kinds[hmgrules.KindOpenCards] != openers {
					t.Errorf("record of the %s: %d cards and %d open-cards messages, want %d and %d",
						g.Role(), kinds[hmgrules.KindCards], kinds[hmgrules.KindOpenCards], wantCards, openers)
				}
				if n := kinds[hmgrules.KindReveal]; tc.cards == 0 && n != 0 || tc.cards > 0 && n == 0 {
					t.Errorf("%d reveals in a game with %d cards", n, tc.cards)
				}
			}
		})
	}
}

// waitView polls g's view until ok holds.
func waitView(t *testing.T, g *session.Game, what string, ok func(protocol.View) bool) protocol.View {
	t.Helper()
	deadline := testenv.Deadline(10 * time.Second)
	for {
		v := g.View()
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("the %s's game never reached: %s (view %+v)", g.Role(), what, v)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestHMG1CardsAndHMG5UndoOverLoopback(t *testing.T) {
	p := newPair(t)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(20*time.Second))
	defer cancel()
	accepted := make(chan *session.Game, 1)
	go func() {
		select {
		case g := <-p.services[1].Accepted():
			accepted <- g
		case <-ctx.Done():
			accepted <- nil
		}
	}()
	host, err := p.services[0].Invite(ctx, p.hosts[1].ID(), hmgOpts(3))
	if err != nil {
		t.Fatal(err)
	}
	guest := <-accepted
	if guest == nil {
		t.Fatal("no game accepted")
	}
	games := [2]*session.Game{host, guest}
	for _, g := range games {
		v := waitView(t, g, "the card stage", func(v protocol.View) bool {
			hv, ok := v.Variant.(hmgrules.View)
			return ok && v.Phase == protocol.PhasePlay && hv.Stage == hmgrules.StageCards
		})
		if err := g.Do(protocol.Play{Point: vertex(t, "E5")}); err == nil || !strings.Contains(err.Error(), "SetCards") {
			t.Errorf("the %s (%s) plays before choosing cards: %v, want an error telling to choose them", g.Role(), v.Color, err)
		}
		if err := g.Do(hmgrules.SetCards{Points: []engine.Point{vertex(t, "E5")}}); err == nil {
			t.Errorf("the %s sets 1 card of 3: no error", g.Role())
		}
	}
	// White chooses first, before its turn to commit: its commitments
	// wait for Black's (HMG-1).
	white := games[0]
	if games[0].View().Color == engine.Black {
		white = games[1]
	}
	black := games[0]
	if white == games[0] {
		black = games[1]
	}
	cards := map[*session.Game][]engine.Point{
		white: {vertex(t, "C3"), vertex(t, "C3"), vertex(t, "G7")},
		black: {vertex(t, "D4"), vertex(t, "F6"), vertex(t, "A1")},
	}
	if err := white.Do(hmgrules.SetCards{Points: cards[white]}); err != nil {
		t.Fatalf("White chooses its cards early: %v", err)
	}
	if v := white.View().Variant.(hmgrules.View); v.Committed != [2]bool{} || !v.CardsChosen {
		t.Errorf("after White's early choice: committed %v, chosen %v; want nothing sent yet", v.Committed, v.CardsChosen)
	}
	if err := black.Do(hmgrules.SetCards{Points: cards[black]}); err != nil {
		t.Fatalf("Black chooses its cards: %v", err)
	}
	for _, g := range games {
		v := waitView(t, g, "the play stage", func(v protocol.View) bool {
			return v.Variant.(hmgrules.View).Stage == hmgrules.StagePlay
		})
		hv := v.Variant.(hmgrules.View)
		for i, card := range hv.MyCards {
			if card.Point != cards[g][i] || card.Revealed {
				t.Errorf("the %s's card %d: %+v, want %s unused", v.Color, i, card, cards[g][i].Vertex(9))
			}
		}
		if len(hv.OpponentCards) != 3 {
			t.Errorf("the %s sees %d opponent cards, want 3", v.Color, len(hv.OpponentCards))
		}
		for i, card := range hv.OpponentCards {
			if card.Point != engine.NoPoint || card.Revealed {
				t.Errorf("the %s sees opponent card %d as %+v", v.Color, i, card)
			}
		}
		if err := g.Do(hmgrules.SetCards{Points: cards[g]}); err == nil {
			t.Errorf("the %s changes its cards after committing: no error", v.Color)
		}
	}
	// Black reveals card 1 (F6): White sees it and its point, not the others.
	if err := black.Do(hmgrules.Reveal{Card: 1}); err != nil {
		t.Fatalf("Black reveals card 1: %v", err)
	}
	v := waitView(t, white, "Black's reveal", func(v protocol.View) bool {
		return v.Variant.(hmgrules.View).OpponentCards[1].Revealed
	})
	hv := v.Variant.(hmgrules.View)
	board := hv.Game.Board()
	if hv.OpponentCards[1].Point != vertex(t, "F6") || hv.OpponentCards[0].Point != engine.NoPoint || board.At(vertex(t, "F6")) != engine.Black {
		t.Errorf("White's view after Black's reveal: cards %+v, F6 holds %v", hv.OpponentCards, board.At(vertex(t, "F6")))
	}
	if err := black.Do(hmgrules.Reveal{Card: 1}); err == nil {
		t.Error("Black reveals card 1 again: no error")
	}
	// HMG-5: Black plays C3, White reveals its card 0 there: Black's move
	// is undone and White's turn ends.
	if err := black.Do(protocol.Play{Point: vertex(t, "C3")}); err != nil {
		t.Fatalf("Black plays C3: %v", err)
	}
	waitView(t, white, "White's turn", func(v protocol.View) bool { return v.MyTurn })
	if err := white.Do(hmgrules.Reveal{Card: 0}); err != nil {
		t.Fatalf("White reveals card 0 onto Black's last stone: %v", err)
	}
	for _, g := range games {
		v := waitView(t, g, "the undo", func(v protocol.View) bool {
			b := v.Variant.(hmgrules.View).Game.Board()
			return b.At(vertex(t, "C3")) == engine.White
		})
		hv := v.Variant.(hmgrules.View)
		if hv.Game.ToMove() != engine.Black || hv.Game.Turns() != 2 {
			t.Errorf("the %s's view after the undo: %s to move after %d turns, want Black after 2", v.Color, hv.Game.ToMove(), hv.Game.Turns())
		}
	}
	if err := white.Do(hmgrules.Reveal{Card: 1}); err == nil {
		t.Error("White reveals out of turn: no error")
	}
	if err := black.Do(protocol.Resign{}); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if err := g.Wait(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// hmgCheater plays Hidden Move Go for the cheating tests: cards are its
// card points; eager reveals whenever a card may be revealed, otherwise it
// never reveals; it plays the first legal point of prefer, otherwise a
// random legal point that fills no own eye, otherwise passes.
type hmgCheater struct {
	cards  []engine.Point
	eager  bool
	prefer []engine.Point
	rnd    *rand.Rand
	random *bot.Random
}

func newHMGCheater(cards []engine.Point, eager bool, prefer ...engine.Point) *hmgCheater {
	return &hmgCheater{cards: cards, eager: eager, prefer: prefer, rnd: rand.New(rand.NewPCG(5, 6)), random: bot.NewRandom(9)}
}

func (p *hmgCheater) Choose(v protocol.View) protocol.Action {
	vv, ok := v.Variant.(hmgrules.View)
	if !ok {
		return nil
	}
	g, c := vv.Game, v.Color
	switch vv.Stage {
	case hmgrules.StageCards:
		if vv.CardsChosen {
			return nil
		}
		return hmgrules.SetCards{Points: p.cards}
	case hmgrules.StagePlay:
		if cards := g.RevealableCards(c); p.eager && len(cards) > 0 {
			return hmgrules.Reveal{Card: cards[0]}
		}
		for _, q := range p.prefer {
			if g.CheckPlay(c, q) == nil {
				return protocol.Play{Point: q}
			}
		}
		b := g.Board()
		var ps []engine.Point
		for _, q := range g.LegalPoints(c) {
			ns, n := b.Neighbors(q)
			eye := true
			for _, r := range ns[:n] {
				eye = eye && b.At(r) == c
			}
			if !eye {
				ps = append(ps, q)
			}
		}
		if len(ps) > 0 {
			return protocol.Play{Point: ps[p.rnd.IntN(len(ps))]}
		}
		if !g.CanPass(c) {
			return protocol.Play{Point: g.LegalPoints(c)[0]}
		}
		return protocol.Play{Point: engine.Pass}
	}
	return p.random.Choose(v)
}

// cheatHMG plays 7×7 Hidden Move Go with 3 cards where the inviter plays
// cheater and its messages go through hook; the honest invitee is a random
// bot. It returns the honest game.
func cheatHMG(t *testing.T, cheater bot.Player, hook func(*protocol.Message, crypto.PrivKey) [][]byte, game *atomic.Pointer[session.Game], cfgs ...func(int, *session.Config)) *session.Game {
	t.Helper()
	cfgs = append([]func(int, *session.Config){func(i int, c *session.Config) {
		if i == 0 {
			session.SetTamper(c, hook)
		}
	}}, cfgs...)
	o := engine.Options{Variant: engine.VariantHMG, Size: 7, Cards: 3, CardsSet: true}
	return hmgPlay(t, o, [2]bot.Player{cheater, bot.NewRandom(2)}, game, cfgs...).games[1]
}

// otherVertex returns a vertex other than v.
func otherVertex(v string) string {
	if v == "A1" {
		return "B1"
	}
	return "A1"
}

func TestT5CheatHMGRevealAtAnotherPoint(t *testing.T) {
	cheater := newHMGCheater([]engine.Point{vertexOn(t, 7, "C3"), vertexOn(t, 7, "G7"), vertexOn(t, 7, "E5")}, true)
	h := cheatHMG(t, cheater, cheatOn(hmgrules.KindReveal, 1, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		var o hmgrules.CardOpening
		if err := json.Unmarshal(m.Body, &o); err != nil {
			t.Error(err)
			return nil
		}
		o.Point = otherVertex(o.Point)
		m.Body = session.MustEncodeBody(o)
		resign(t, m, key)
		return [][]byte{session.FrameOf(m)}
	}), nil)
	checkCaught(t, h, "T-5", "does not match its commitment")
}

func TestHMG3CheatRevealSameCardTwice(t *testing.T) {
	cheater := newHMGCheater([]engine.Point{vertexOn(t, 7, "C3"), vertexOn(t, 7, "G7"), vertexOn(t, 7, "E5")}, true)
	var first []byte
	h := cheatHMG(t, cheater, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		if m.Kind != hmgrules.KindReveal {
			return nil
		}
		if first == nil {
			first = m.Body
			return nil
		}
		m.Body = first
		resign(t, m, key)
		return [][]byte{session.FrameOf(m)}
	}, nil)
	checkCaught(t, h, "HMG-3", "already revealed")
}

func TestHMG3CheatRevealOntoOwnStone(t *testing.T) {
	// The cheater plays stones on its own card points first; once one of
	// them holds a stone the other peer has seen, the hook replaces its
	// move by a reveal of that card there, with a valid opening (HMG-3
	// case 3).
	cards := []string{"E5", "C3", "G7"}
	var points []engine.Point
	for _, v := range cards {
		points = append(points, vertexOn(t, 7, v))
	}
	var game atomic.Pointer[session.Game]
	cheater := newHMGCheater(points, false, points...)
	hook := func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		if m.Kind != protocol.KindMove {
			return nil
		}
		var mb protocol.MoveBody
		if err := json.Unmarshal(m.Body, &mb); err != nil {
			t.Error(err)
			return nil
		}
		g := game.Load()
		v := g.View()
		b := v.Variant.(hmgrules.View).Game.Board()
		for i, c := range cards {
			if c == mb.Point || b.At(points[i]) != v.Color {
				continue
			}
			o, ok := session.HMGOpeningOf(g, i)
			if !ok {
				t.Errorf("no opening of card %d", i)
				return nil
			}
			m.Kind = hmgrules.KindReveal
			m.Body = session.MustEncodeBody(hmgrules.CardOpening{Card: i, Point: c, Salt: hex.EncodeToString(o.Salt[:])})
			resign(t, m, key)
			return [][]byte{session.FrameOf(m)}
		}
		return nil
	}
	h := cheatHMG(t, cheater, hook, &game)
	checkCaught(t, h, "HMG-3", "own stone")
}

// refuseAfter returns a hook that lets messages through until the first
// of kind, which it swallows with every message after it.
func refuseAfter(kind protocol.Kind) func(*protocol.Message, crypto.PrivKey) [][]byte {
	refusing := false
	return func(m *protocol.Message, _ crypto.PrivKey) [][]byte {
		refusing = refusing || m.Kind == kind
		if refusing {
			return [][]byte{}
		}
		return nil
	}
}

func TestT11CheatHMGRefusesToOpenCards(t *testing.T) {
	t.Parallel() // waits on graces: wall time
	cheater := newHMGCheater([]engine.Point{vertexOn(t, 7, "C3"), vertexOn(t, 7, "G7"), vertexOn(t, 7, "E5")}, false)
	start := time.Now()
	h := cheatHMG(t, cheater, refuseAfter(hmgrules.KindOpenCards), nil, func(i int, c *session.Config) {
		// The honest invitee waits briefly; the cheater's own clock must
		// not run out first.
		c.AutoGrace = time.Second
		if i == 0 {
			c.AutoGrace = time.Minute
		}
	})
	checkCaught(t, h, "T-11", string(hmgrules.KindOpenCards))
	t.Logf("forfeited after %s", time.Since(start))
}

func TestT5CheatHMGOpensUnusedCardAtAnotherPoint(t *testing.T) {
	cheater := newHMGCheater([]engine.Point{vertexOn(t, 7, "C3"), vertexOn(t, 7, "G7"), vertexOn(t, 7, "E5")}, false)
	h := cheatHMG(t, cheater, cheatOn(hmgrules.KindOpenCards, 1, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		var body hmgrules.OpenCardsBody
		if err := json.Unmarshal(m.Body, &body); err != nil || len(body.Cards) == 0 {
			t.Errorf("open-cards body %s: %v", m.Body, err)
			return nil
		}
		body.Cards[0].Point = otherVertex(body.Cards[0].Point)
		m.Body = session.MustEncodeBody(body)
		resign(t, m, key)
		return [][]byte{session.FrameOf(m)}
	}), nil)
	checkCaught(t, h, "T-5", "does not match its commitment")
}
