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

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/protocol/bridgerules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/engine/fgo"
	"github.com/kakure/kakure/engine/gomoku"
)

// Player chooses the local player's next action from its view, or returns
// nil to wait for the next event.
type Player interface {
	Choose(v protocol.View) protocol.Action
}

// Game is what Run plays: a game as its local player sees it, as
// protocol/session's Game gives it. Run needs nothing else of the
// session, so the bots depend on the core alone (ARCH-D2).
type Game interface {
	// View is the local player's view of the game now.
	View() protocol.View
	// Do sends the local player's action.
	Do(a protocol.Action) error
	// Events delivers what happens in the game; it is closed at the end.
	Events() <-chan protocol.Event
	// Outcome is the game's result, nil while it is not decided.
	Outcome() *protocol.Outcome
}

// Run plays g with p until the game is over or ctx ends. It returns the
// game's outcome. It lets the opponent take back moves (UNDO-D4): an
// undo request is accepted at once, before the bot's turn is looked at,
// and one that came while p was choosing is answered instead of sending
// the move chosen (the request would lapse under it).
func Run(ctx context.Context, g Game, p Player) (*protocol.Outcome, error) {
	act := func() error {
		for i := 0; i < 1000; i++ {
			v := g.View()
			if v.Outcome != nil {
				return nil
			}
			if undoAsked(v) {
				if err := acceptUndo(g); err != nil {
					return err
				}
				continue
			}
			if !v.MyTurn {
				return nil
			}
			a := p.Choose(v)
			if a == nil {
				return nil
			}
			if undoAsked(g.View()) {
				continue // answered at the top; the view has changed
			}
			if err := g.Do(a); err != nil {
				if errors.Is(err, engine.ErrGameOver) {
					return nil
				}
				if errors.Is(err, engine.ErrWrongPhase) {
					// The game moved on between the view and the action
					// (a time-out claim of this player's went out, and
					// waits for its answer, CLK-D17): the next event
					// tells when to choose again.
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

// undoAsked reports whether the opponent's undo request waits for the
// local player's answer.
func undoAsked(v protocol.View) bool { return v.UndoMove != 0 && v.UndoBy != v.Role }

// acceptUndo accepts the opponent's undo request (UNDO-D4). A request
// gone meanwhile (it lapsed, or the game ended) is no error.
func acceptUndo(g Game) error {
	err := g.Do(protocol.AnswerUndo{Accept: true})
	if err != nil && !errors.Is(err, protocol.ErrNotNow) && !errors.Is(err, engine.ErrGameOver) {
		return fmt.Errorf("bot: accepting an undo request: %w", err)
	}
	if err != nil && !undoAsked(g.View()) {
		return nil
	}
	return err
}

// Random is a player that picks uniformly among legal moves that do not
// fill one of its own eyes, passes when there are none, marks nothing dead
// and agrees to any marking. In Hidden Move Go it chooses random card
// points and reveals a card on one action in four when it can.
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

// Choose implements Player. It plays nothing (nil) for a view of no
// variant yet.
func (r *Random) Choose(v protocol.View) protocol.Action {
	if vb, ok := botFor(v); ok {
		if a, ok := vb.random(r, v); ok {
			return a
		}
	}
	return nil
}

// chooseGo plays plain Go: random legal moves; during the count it marks
// nothing dead and agrees to the opponent's marking.
func (r *Random) chooseGo(v protocol.View, vv gorules.View) protocol.Action {
	if vv.Scoring {
		if vv.HasProposal && vv.Proposer != v.Role {
			return protocol.AgreeScore{}
		}
		return protocol.MarkDead{}
	}
	return protocol.Play{Point: r.randomMove(vv.Game.Board(), v.Color, func(p engine.Point) bool { return vv.Game.Check(v.Color, p) == nil })}
}

// choosePhantom plays Phantom Go from the player's own view: a random
// sensible try (phantom.View.SensibleTries) that is not an own eye as far
// as the player knows, a pass when there is none or when the game has had
// MaxMoves announcements (four per point by default), so that every game
// ends. It marks nothing dead, agrees to any marking and, if play resumes
// in the open, plays random legal moves as in Go.
func (r *Random) choosePhantom(v protocol.View, vv phantomrules.View) protocol.Action {
	switch {
	case vv.Scoring:
		if vv.HasProposal && vv.Proposer != v.Role {
			return protocol.AgreeScore{}
		}
		return protocol.MarkDead{}
	case vv.Stage == phantomrules.StageOpen:
		ref := vv.Referee
		if ref.ToMove() != v.Color {
			return nil
		}
		return protocol.Play{Point: r.randomMove(ref.Board(), v.Color, func(p engine.Point) bool {
			_, out, err := ref.Try(v.Color, p)
			return err == nil && out.Legal
		})}
	case !vv.MyTry:
		return nil
	}
	own := vv.Own
	b, err := engine.NewBoard(own.Size())
	if err != nil {
		return nil
	}
	for _, p := range own.OwnStones() {
		b.Set(p, v.Color)
	}
	if len(own.Log()) >= r.maxMoves(4*b.Points()) {
		return protocol.Play{Point: engine.Pass}
	}
	var tries []engine.Point
	for _, p := range own.SensibleTries() {
		if !ownEye(b, p, v.Color) {
			tries = append(tries, p)
		}
	}
	if len(tries) == 0 {
		return protocol.Play{Point: engine.Pass}
	}
	return protocol.Play{Point: tries[r.Rand.IntN(len(tries))]}
}

// chooseHMG plays Hidden Move Go: random card points, then on each action
// of a turn a reveal one time in four when a card may be revealed,
// otherwise a random move as in Go. It marks nothing dead and agrees to
// any marking.
func (r *Random) chooseHMG(v protocol.View, vv hmgrules.View) protocol.Action {
	g := vv.Game
	switch vv.Stage {
	case hmgrules.StageCards:
		if vv.CardsChosen {
			return nil
		}
		b := g.Board()
		points := make([]engine.Point, g.Options().Cards)
		for i := range points {
			points[i] = engine.Point(r.Rand.IntN(b.Points()))
		}
		return hmgrules.SetCards{Points: points}
	case hmgrules.StageScoring:
		if vv.HasProposal && vv.Proposer != v.Role {
			return protocol.AgreeScore{}
		}
		return protocol.MarkDead{}
	case hmgrules.StagePlay:
		if cards := g.RevealableCards(v.Color); len(cards) > 0 && r.Rand.IntN(4) == 0 {
			return hmgrules.Reveal{Card: cards[r.Rand.IntN(len(cards))]}
		}
		p := r.randomMove(g.Board(), v.Color, func(p engine.Point) bool { return g.CheckPlay(v.Color, p) == nil })
		if p == engine.Pass && !g.CanPass(v.Color) {
			// After reveals a pass may repeat a position (HMG-6): play.
			if ps := g.LegalPoints(v.Color); len(ps) > 0 {
				p = ps[0]
			}
		}
		return protocol.Play{Point: p}
	}
	return nil
}

// gomoku chooses a gomoku action: a random opening point and side, a
// random legal point (a pass one time in gomokuPassOdds), a random row or
// column, and in answer each hidden piece of the line with probability
// one in three. It leaves to the program what the program does by itself
// (reveals, "five", claims, no legal point, the openings at the end).
func (r *Random) gomoku(v gomoku.View) protocol.Action {
	if !v.MyTurn() {
		return nil
	}
	switch v.Phase() {
	case gomoku.PhaseOpening:
		return gomokurules.Opening{Point: engine.Point(r.Rand.IntN(v.Size() * v.Size()))}
	case gomoku.PhaseChooseSide:
		side := gomoku.X
		if r.Rand.IntN(2) == 1 {
			side = gomoku.O
		}
		return gomokurules.ChooseSide{Side: side}
	case gomoku.PhaseCommit:
		legal := v.LegalPoints()
		if len(legal) == 0 {
			return nil
		}
		if r.Rand.IntN(gomokuPassOdds) == 0 {
			return protocol.Play{Point: engine.Pass}
		}
		return gomokurules.Place{Point: legal[r.Rand.IntN(len(legal))]}
	case gomoku.PhaseAnnounce:
		return gomokurules.Announce{Column: r.Rand.IntN(2) == 1}
	case gomoku.PhaseRespond:
		var reveal []engine.Point
		for _, p := range v.HiddenInLine(v.Announced()) {
			if r.Rand.IntN(3) == 0 {
				reveal = append(reveal, p)
			}
		}
		return gomokurules.Respond{Reveal: reveal}
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
func (r *Random) chooseBridge(v protocol.View, vv bridgerules.View) protocol.Action {
	g := vv.Game
	if g.Over() || g.ToMove() != v.Color {
		return nil
	}
	b := g.Board()
	if g.MoveNumber() >= r.maxMoves(3*b.Points()) {
		return protocol.Play{Point: engine.Pass}
	}
	moves := g.LegalPoints(v.Color)
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
func (r *Random) chooseFGo(v protocol.View, vv fgorules.View) protocol.Action {
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
	case slices.Contains(v.Kinds, fgorules.KindAccept):
		switch r.Rand.IntN(3) {
		case 0:
			return fgorules.AcceptOffer{}
		case 1:
			return fgorules.DeclineOffer{}
		}
	case slices.Contains(v.Kinds, fgorules.KindOffer) && r.Rand.IntN(6) == 0:
		o := fgo.Offer{From: v.Color, IfYouPlay: choose(v.Color.Opponent()), IPlay: choose(v.Color)}
		if g.CheckOffer(o) == nil {
			return fgorules.Offer{IfYouPlay: o.IfYouPlay, IPlay: o.IPlay}
		}
	}
	if !slices.Contains(v.Kinds, fgorules.KindCommit) {
		return nil
	}
	return protocol.Play{Point: choose(v.Color)}
}

// gomokuPassOdds: the random gomoku player passes once in this many turns.
const gomokuPassOdds = 40

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
