// Package bot holds kakure's computer players. A bot plays a game through
// protocol exactly as the user interface does: it reads the game's events,
// looks at its own view and acts. It never sees more than its side may.
package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// Player chooses the local player's next action from its view, or returns
// nil to wait for the next event.
type Player interface {
	Choose(v protocol.View) protocol.Action
}

// Run plays g with p until the game is over or ctx ends. It returns the
// game's outcome.
func Run(ctx context.Context, g *protocol.Game, p Player) (*protocol.Outcome, error) {
	act := func() error {
		for i := 0; i < 1000; i++ {
			v := g.View()
			if !v.MyTurn || v.Outcome != nil {
				return nil
			}
			a := p.Choose(v)
			if a == nil {
				return nil
			}
			if err := g.Do(a); err != nil {
				if errors.Is(err, engine.ErrGameOver) {
					return nil
				}
				return fmt.Errorf("bot: %T: %w", a, err)
			}
		}
		return errors.New("bot: no progress after 1000 actions")
	}
	if err := act(); err != nil {
		return nil, err
	}
	events := g.Events()
	for {
		select {
		case _, ok := <-events:
			if !ok {
				return g.Outcome(), nil
			}
			if err := act(); err != nil {
				return g.Outcome(), err
			}
		case <-ctx.Done():
			return g.Outcome(), ctx.Err()
		}
	}
}

// Random is a player that picks uniformly among legal moves that do not
// fill one of its own eyes, passes when there are none, marks nothing dead
// and agrees to any marking.
type Random struct {
	Rand *rand.Rand
	// MaxMoves, when positive, makes the bot pass once a game of Bridge Go
	// has had that many moves or a game of F-Go that many turns; zero
	// means three moves per point (Bridge Go) and two turns per point
	// (F-Go), so that every game ends.
	MaxMoves int
}

// NewRandom returns a random player with the given seed.
func NewRandom(seed uint64) *Random { return &Random{Rand: rand.New(rand.NewPCG(seed, 0x6b616b75))} }

// Choose implements Player.
func (r *Random) Choose(v protocol.View) protocol.Action {
	switch vv := v.Variant.(type) {
	case protocol.GoView:
		if vv.Scoring {
			if vv.HasProposal && vv.Proposer != v.Role {
				return protocol.AgreeScore{}
			}
			return protocol.MarkDead{}
		}
		return protocol.Play{Point: r.randomMove(vv.Game.Board(), v.Color, func(p engine.Point) bool { return vv.Game.Check(v.Color, p) == nil })}
	case protocol.BridgeView:
		return r.chooseBridge(v, vv)
	case protocol.FGoView:
		return r.chooseFGo(v, vv)
	}
	return nil
}

// maxMoves returns r.MaxMoves if set, else def.
func (r *Random) maxMoves(def int) int {
	if r.MaxMoves > 0 {
		return r.MaxMoves
	}
	return def
}

// chooseBridge plays a uniformly random legal Bridge Go move (there are
// no eyes to keep in Bridge Go), and passes when there is none or when
// the game has run MaxMoves moves (three per point by default), so that a
// game always ends.
func (r *Random) chooseBridge(v protocol.View, vv protocol.BridgeView) protocol.Action {
	g := vv.Game
	if g.Over() || g.ToMove() != v.Color {
		return nil
	}
	b := g.Board()
	if g.MoveNumber() >= r.maxMoves(3*b.Points()) {
		return protocol.Play{Point: engine.Pass}
	}
	moves := g.LegalMoves(v.Color)
	if len(moves) == 0 {
		return protocol.Play{Point: engine.Pass}
	}
	return protocol.Play{Point: moves[r.Rand.IntN(len(moves))]}
}

// chooseFGo chooses a random F-Go point that is not an own eye (or
// passes); as the first player of a turn it sometimes offers a random
// turn instead (FG-7), and it accepts or declines an offer at random.
// After MaxMoves turns (two per point by default) it passes, so that a
// game always ends.
func (r *Random) chooseFGo(v protocol.View, vv protocol.FGoView) protocol.Action {
	if vv.Scoring {
		if vv.HasProposal && vv.Proposer != v.Role {
			return protocol.AgreeScore{}
		}
		return protocol.MarkDead{}
	}
	g := vv.Game
	b := g.Board()
	choose := func(c engine.Color) engine.Point {
		if g.TurnNumber() >= r.maxMoves(2*b.Points()) {
			return engine.Pass
		}
		return r.randomMove(b, c, func(p engine.Point) bool { return g.CheckChoice(c, p) == nil })
	}
	switch {
	case slices.Contains(v.Kinds, protocol.KindFGoAccept):
		switch r.Rand.IntN(3) {
		case 0:
			return protocol.AcceptOffer{}
		case 1:
			return protocol.DeclineOffer{}
		}
	case slices.Contains(v.Kinds, protocol.KindFGoOffer) && r.Rand.IntN(6) == 0:
		o := engine.FGoOffer{From: v.Color, IfYouPlay: choose(v.Color.Opponent()), IPlay: choose(v.Color)}
		if g.CheckOffer(o) == nil {
			return protocol.Offer{IfYouPlay: o.IfYouPlay, IPlay: o.IPlay}
		}
	}
	if !slices.Contains(v.Kinds, protocol.KindFGoCommit) {
		return nil
	}
	return protocol.Play{Point: choose(v.Color)}
}

// randomMove picks a random point where legal(p) holds and which is not an
// own eye, or Pass.
func (r *Random) randomMove(b engine.Board, c engine.Color, legal func(engine.Point) bool) engine.Point {
	var candidates []engine.Point
	for i := 0; i < b.Points(); i++ {
		p := engine.Point(i)
		if b.At(p) == engine.Empty && !ownEye(b, p, c) && legal(p) {
			candidates = append(candidates, p)
		}
	}
	if len(candidates) == 0 {
		return engine.Pass
	}
	return candidates[r.Rand.IntN(len(candidates))]
}

// ownEye reports whether every neighbour of the empty point p is c's.
func ownEye(b engine.Board, p engine.Point, c engine.Color) bool {
	ns, n := b.Neighbors(p)
	for _, q := range ns[:n] {
		if b.At(q) != c {
			return false
		}
	}
	return true
}
