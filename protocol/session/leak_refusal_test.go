package session_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/fgorules"
	"github.com/kakure/kakure/protocol/gomokurules"
	"github.com/kakure/kakure/protocol/hmgrules"
	"github.com/kakure/kakure/protocol/leakcheck"
	"github.com/kakure/kakure/protocol/session"
)

// refusalProbe is a player that, at each of its turns, first asks its
// game for actions its rules refuse from what the player itself knows (a
// stone on an occupied point, a card already revealed, a gomoku piece on
// one of its own or a revealed point), and keeps the errors, with the
// point each action named; then its player chooses.
type refusalProbe struct {
	p    bot.Player
	game chan *session.Game // holds the game once known

	mu     sync.Mutex
	g      *session.Game
	errors []refusal
	// accepted counts probes the game took: they changed the game, so
	// the probe lets the next event call it again.
	accepted int
}

type refusal struct {
	point string // the point the refused action named, "" if none
	err   error
}

func (r *refusalProbe) Choose(v protocol.View) protocol.Action {
	r.mu.Lock()
	if r.g == nil {
		select {
		case r.g = <-r.game:
		default:
		}
	}
	g := r.g
	r.mu.Unlock()
	if g == nil || v.Phase != protocol.PhasePlay || !v.MyTurn {
		return r.p.Choose(v)
	}
	size := v.Options.Size
	type probe struct {
		a     protocol.Action
		point string
	}
	var probes []probe
	switch vv := v.Variant.(type) {
	case hmgrules.View:
		if vv.Stage != hmgrules.StagePlay {
			break
		}
		b := vv.Game.Board()
		for p := engine.Point(0); int(p) < size*size; p++ {
			if b.At(p) != engine.Empty {
				probes = append(probes, probe{protocol.Play{Point: p}, p.Vertex(size)})
			}
		}
		for i, c := range vv.MyCards {
			if c.Revealed || b.At(c.Point) == v.Color {
				probes = append(probes, probe{hmgrules.Reveal{Card: i}, c.Point.Vertex(size)})
			}
		}
		probes = append(probes, probe{hmgrules.Reveal{Card: len(vv.MyCards)}, ""})
	case fgorules.View:
		b := vv.Game.Board()
		if vv.Committed || vv.Scoring {
			break
		}
		for p := engine.Point(0); int(p) < size*size; p++ {
			if b.At(p) != engine.Empty {
				probes = append(probes, probe{protocol.Play{Point: p}, p.Vertex(size)})
			}
		}
	case gomokurules.View:
		if vv.Game.Size() == 0 || vv.Phase != gomoku.PhaseCommit {
			break
		}
		for p := engine.Point(0); int(p) < size*size; p++ {
			if vv.Game.Own(p) != gomoku.NoPiece || vv.Game.OpponentPiece(p) {
				probes = append(probes, probe{gomokurules.Place{Point: p}, p.Vertex(size)})
			}
		}
	}
	for _, pr := range probes {
		err := g.Do(pr.a)
		r.mu.Lock()
		if err == nil {
			r.accepted++
			r.mu.Unlock()
			return nil
		}
		r.errors = append(r.errors, refusal{pr.point, err})
		r.mu.Unlock()
	}
	return r.p.Choose(v)
}

// TestT5RefusedActionsTellNoHiddenValue plays games where each player,
// at each turn, first tries actions its rules refuse: the errors its
// user reads name the point the action named and nothing the opponent
// keeps hidden (the errors come from what this program knows, the public
// board and its own values, never the opponent's).
func TestT5RefusedActionsTellNoHiddenValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		o    engine.Options
		seed uint64
	}{
		{"HMG 5x5 4 cards", engine.Options{Variant: engine.VariantHMG, Size: 5, Cards: 4, CardsSet: true}, 61},
		{"F-Go 5x5", engine.Options{Variant: engine.VariantFGo, Size: 5}, 63},
		{"gomoku 7x7", engine.Options{Variant: engine.VariantGomoku, Size: 7}, 65},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := newPair(t)
			probes := [2]*refusalProbe{
				{p: quickBot(tt.seed, 20), game: make(chan *session.Game, 1)},
				{p: quickBot(tt.seed+1, 20), game: make(chan *session.Game, 1)},
			}
			// The games are known once the invitation is made; until
			// then the probes only choose.
			go func() {
				for i := 0; i < 200; i++ {
					ids := [2][]string{}
					for j := range 2 {
						paths, _ := filepath.Glob(filepath.Join(p.dirs[j], "*.record.json"))
						ids[j] = paths
					}
					if len(ids[0]) == 1 && len(ids[1]) == 1 {
						for j := range 2 {
							base := strings.TrimSuffix(filepath.Base(ids[j][0]), ".record.json")
							id, err := protocol.ParseGameID(base)
							if err == nil {
								probes[j].game <- p.services[j].Game(id)
							}
						}
						return
					}
					time.Sleep(5 * time.Millisecond)
				}
			}()
			playPlayers(t, p, tt.o, probes[0], probes[1])
			total, named := 0, 0
			for i, pr := range probes {
				// The other peer's values, and which of them were opened
				// by the end; a value opened later was hidden when the
				// error was made, so every one counts.
				secrets := takeSnapshot(p.dirs, [2]*lockedBuffer{{}, {}}).secrets[1-i]
				_, vals, err := leakcheck.Values(secrets)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range pr.errors {
					total++
					if r.point != "" {
						named++
					}
					for _, v := range vals {
						if v.Text != r.point && v.In(r.err.Error()) {
							t.Errorf("peer %d: the refusal %q names %s, a hidden value of the other peer", i, r.err, v.Text)
						}
					}
				}
				if i == 0 && len(pr.errors) > 0 {
					t.Logf("for example: %v", pr.errors[0].err)
				}
			}
			t.Logf("%d refusals checked (%d of an action at a point)", total, named)
			if total == 0 {
				t.Error("no action was refused: nothing checked")
			}
		})
	}
}

// TestT5DeclineTellsNoHiddenValue: a peer in the middle of a game with
// hidden values declines a second invitation (one game per peer at
// most); the reason it sends, which the inviter's user reads, holds none
// of the values of the running game.
func TestT5DeclineTellsNoHiddenValue(t *testing.T) {
	t.Parallel()
	p := newPair(t, func(i int, c *session.Config) { c.MaxGamesPerPeer = 1 })
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(30*time.Second))
	defer cancel()
	o := engine.Options{Variant: engine.VariantHMG, Size: 5, Cards: 5, CardsSet: true}
	go func() {
		select {
		case g := <-p.services[1].Accepted():
			bot.Run(ctx, g, slowPlayer{p: quickBot(71, 12), delay: 20 * time.Millisecond})
		case <-ctx.Done():
		}
	}()
	g, err := p.services[0].Invite(ctx, p.hosts[1].ID(), o)
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	go bot.Run(ctx, g, slowPlayer{p: quickBot(72, 12), delay: 20 * time.Millisecond})
	// The invitee's cards are chosen once its secrets hold them.
	var vals []leakcheck.Value
	for len(vals) < o.Cards+1 {
		s := takeSnapshot(p.dirs, [2]*lockedBuffer{{}, {}})
		if s.secrets[1] != nil {
			_, vals, _ = leakcheck.Values(s.secrets[1])
		}
		if ctx.Err() != nil {
			t.Fatal("the invitee never chose its cards")
		}
		time.Sleep(5 * time.Millisecond)
	}
	_, err = p.services[0].Invite(ctx, p.hosts[1].ID(), o)
	if err == nil {
		t.Fatal("the second invitation was accepted")
	}
	for _, v := range vals {
		if v.In(err.Error()) {
			t.Errorf("the decline %q names %s, a value of the decliner's running game", err, v.Text)
		}
	}
	t.Logf("decline %q checked against %d values", err, len(vals))
	if err := g.Wait(ctx); err != nil {
		t.Fatalf("the first game did not end: %v", err)
	}
}
