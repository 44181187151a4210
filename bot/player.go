package bot

import (
	"slices"
	"time"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/protocol/bridgerules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/protocol"
)

// Bots is a [Player] that plays every variant with the built-in bots of
// one level: it reads the variant's view in the protocol's View and asks
// the variant's bot. It creates each variant's bot on first use, seeded
// from its own seed. A view of no variant yet it leaves to the [Random]
// player; a variant with no bot is a panic that names it.
type Bots struct {
	Level Level
	seed  uint64

	goBot      *GoBot
	fgoBot     *FGoBot
	bridgeBot  *BridgeBot
	hmgBot     *HMGBot
	gomokuBot  *GomokuBot
	phantomBot *PhantomBot
	random     *Random

	// countBoard is the board of the dead-stone agreement the bot last
	// took part in (GO-4), and counters how many markings it made there
	// against the opponent's (BOT-D4): after one it resumes play when it
	// can, after maxCounters it agrees.
	countBoard string
	counters   int
}

// maxCounters is how many markings the bot makes against the opponent's
// in one count before it agrees to the opponent's (BOT-D4): the first
// counters, the second lets an opponent who is to move resume play.
const maxCounters = 2

// New returns the built-in bots at the given level; their choices depend
// only on seed and what they are shown (a level without a time limit).
func New(level Level, seed uint64) *Bots {
	return &Bots{Level: level, seed: seed, random: NewRandom(seed)}
}

// Choose implements Player. With a level's Wait, it returns no sooner
// than Wait after it was called, within the game's clock (BOT-D8).
func (b *Bots) Choose(v protocol.View) protocol.Action {
	if b.Level.Wait > 0 {
		defer b.pace(v, time.Now())
	}
	if vb, ok := botFor(v); ok {
		if a, ok := vb.level(b, v); ok {
			return a
		}
	}
	return b.random.Choose(v)
}

// pace waits until the level's Wait has passed since start, or until
// the move's share of the bot's clock is spent, whichever comes first
// (the share a bot thinks within, CLK-D11, at its largest): waiting
// never costs a game on time (BOT-D8).
func (b *Bots) pace(v protocol.View, start time.Time) {
	wait := b.Level.Wait
	if c := v.Clock; c != nil && !c.Stopped && c.Runs[v.Role] {
		left := c.Control.Budget(c.Clocks[v.Role], 0, clockMargin) - c.Used[v.Role]
		if !c.Since.IsZero() {
			left -= start.Sub(c.Since)
		}
		wait = min(wait, left)
	}
	time.Sleep(wait - time.Since(start))
}

// clockMargin is what a bot keeps back from each move's think budget
// for signing, saving and sending the move (CLK-D11).
const clockMargin = 500 * time.Millisecond

// moveLevel returns the level of the bot's next move under the game's
// clock (CLK-D11): the level's own time limit, or less when the clock
// allows less, counted from when the bot's clock started. The bot
// expects to play a third of the empty points still.
func (b *Bots) moveLevel(v protocol.View, board engine.Board) Level {
	l := b.Level
	c := v.Clock
	if c == nil || c.Stopped || !c.Runs[v.Role] {
		return l
	}
	empty := board.Points() - board.Count(engine.Black) - board.Count(engine.White)
	budget := c.Control.Budget(c.Clocks[v.Role], empty/3, clockMargin)
	if !c.Since.IsZero() {
		budget -= time.Since(c.Since)
	}
	budget -= c.Used[v.Role] // Phantom Go: the move's illegal tries (CLK-D16)
	return l.WithinTime(max(budget, 20*time.Millisecond))
}

func (b *Bots) goPlayer() *GoBot {
	if b.goBot == nil {
		b.goBot = NewGoBot(b.Level, b.seed)
	}
	return b.goBot
}

// chooseGo plays plain Go, and marks dead stones at the end (GO-4).
func (b *Bots) chooseGo(v protocol.View, vv gorules.View) protocol.Action {
	gb := b.goPlayer()
	if vv.Scoring {
		board := vv.Game.Board()
		count := func(dead []engine.Point) engine.Result { return vv.Game.Score(engine.MarkingOf(board, dead)).Result() }
		return b.score(v, board, vv.Game.ToMove(), vv.HasProposal, vv.Proposer, vv.Proposal, count, func() protocol.Action {
			// The passes that ended play are no reason to pass again: a
			// resumption is a stone (GO-4), the pass would agree.
			_, legal, _ := goPosition(vv.Game, v.Color)
			return protocol.Play{Point: gb.chooseOnBoard(board, v.Color, vv.Game.Options().Komi, legal, false)}
		})
	}
	gb.Level = b.moveLevel(v, vv.Game.Board())
	p, resign := gb.ChooseMoveOrResign(vv.Game, v.Color)
	if resign {
		return protocol.Resign{}
	}
	return protocol.Play{Point: p}
}

// score is the bot's part of the dead-stone agreement (GO-4, BOT-D4): it
// proposes the dead stones it estimates; it accepts a proposal of the
// opponent that gives the same winner as its own estimate (count gives the
// result of a marking); otherwise it counters with its own. If the
// opponent insists, it resumes play with resume, so that the disputed
// stones are settled on the board — when the protocol lets it (its view's
// kinds: in plain Go, Hidden Move Go and Phantom Go only the player to
// move may) and resume gives a stone, a reveal or a resignation: a pass
// does not resume play (GO-4). Otherwise it counters once more, which
// lets an opponent who is to move resume, and then agrees to the
// opponent's marking. A count between two bots always ends, never waits
// on an action the protocol refuses.
func (b *Bots) score(v protocol.View, board engine.Board, toMove engine.Color, hasProposal bool, proposer protocol.Role, proposal []engine.Point, count func([]engine.Point) engine.Result, resume func() protocol.Action) protocol.Action {
	if key := board.String(); key != b.countBoard {
		b.countBoard, b.counters = key, 0 // a new count
	}
	mine := b.goPlayer().MarkDead(board, toMove)
	if !hasProposal {
		b.counters = 0
		return protocol.MarkDead{Dead: mine}
	}
	if proposer == v.Role {
		return nil
	}
	if count(proposal).Winner == count(mine).Winner {
		b.counters = 0
		return protocol.AgreeScore{}
	}
	if b.counters == 0 {
		b.counters++
		return protocol.MarkDead{Dead: mine}
	}
	// The opponent insists.
	if mayResume(v) {
		switch a := resume().(type) {
		case protocol.Play:
			if a.Point != engine.Pass {
				b.counters = 0
				return a
			}
		case hmgrules.Reveal, protocol.Resign:
			b.counters = 0
			return a
		}
	}
	if b.counters < maxCounters {
		b.counters++
		return protocol.MarkDead{Dead: mine}
	}
	b.counters = 0
	return protocol.AgreeScore{}
}

// mayResume reports whether the protocol lets the player of v resume play
// in the count now (GO-4): a move (plain Go, Phantom Go, Hidden Move Go),
// a reveal (Hidden Move Go) or a commitment to a new turn (F-Go) is among
// the kinds it may send.
func mayResume(v protocol.View) bool {
	return slices.ContainsFunc(v.Kinds, func(k protocol.Kind) bool {
		return k == protocol.KindMove || k == fgorules.KindCommit || k == hmgrules.KindReveal
	})
}

// chooseFGo plays F-Go: its choice for the turn, an answer to an offer
// (it makes none), and the dead-stone agreement.
func (b *Bots) chooseFGo(v protocol.View, vv fgorules.View) protocol.Action {
	if b.fgoBot == nil {
		b.fgoBot = NewFGoBot(b.Level, b.seed)
	}
	g := vv.Game
	choose := func() protocol.Action {
		// BOT-FG-D5: pass after two turns per point, so that a game ends.
		if g.TurnNumber() >= 2*g.Options().Size*g.Options().Size {
			return protocol.Play{Point: engine.Pass}
		}
		b.fgoBot.Level = b.moveLevel(v, g.Board()) // CLK-D11, CLK-D14
		p, resign := b.fgoBot.ChooseFGoOrResign(g, v.Color)
		if resign {
			return protocol.Resign{}
		}
		return protocol.Play{Point: p}
	}
	if vv.Scoring {
		board := g.Board()
		count := func(dead []engine.Point) engine.Result { return g.Score(engine.MarkingOf(board, dead)).Result() }
		return b.score(v, board, v.Color, vv.HasProposal, vv.Proposer, vv.Proposal, count, choose)
	}
	if slices.Contains(v.Kinds, fgorules.KindAccept) && vv.Offer != nil {
		if b.fgoBot.AcceptOffer(g, v.Color, *vv.Offer) {
			return fgorules.AcceptOffer{}
		}
		return fgorules.DeclineOffer{}
	}
	if !slices.Contains(v.Kinds, fgorules.KindCommit) || vv.Committed {
		return nil
	}
	return choose()
}

// chooseBridge plays Bridge Go.
func (b *Bots) chooseBridge(v protocol.View, vv bridgerules.View) protocol.Action {
	if b.bridgeBot == nil {
		b.bridgeBot = NewBridgeBot(b.Level, b.seed)
	}
	g := vv.Game
	if g.Over() || g.ToMove() != v.Color {
		return nil
	}
	b.bridgeBot.Level = b.moveLevel(v, g.Board())
	p, resign := b.bridgeBot.ChooseMoveOrResign(g, v.Color)
	if resign {
		return protocol.Resign{}
	}
	return protocol.Play{Point: p}
}

// chooseHMG plays Hidden Move Go: the cards at the start, the actions of
// each turn, and the dead-stone agreement, where play resumes with a
// move or a reveal.
func (b *Bots) chooseHMG(v protocol.View, vv hmgrules.View) protocol.Action {
	if b.hmgBot == nil {
		b.hmgBot = NewHMGBot(b.Level, b.seed)
	}
	g := vv.Game
	act := func() protocol.Action {
		a, resign := b.hmgBot.ChooseActionOrResign(g, v.Color)
		if resign {
			return protocol.Resign{}
		}
		if a.Reveal {
			return hmgrules.Reveal{Card: a.Card}
		}
		return protocol.Play{Point: a.Point}
	}
	switch vv.Stage {
	case hmgrules.StageCards:
		if vv.CardsChosen {
			return nil
		}
		o := g.Options()
		return hmgrules.SetCards{Points: b.hmgBot.ChooseCards(o.Size, o.Cards)}
	case hmgrules.StagePlay:
		if g.ToMove() != v.Color {
			return nil
		}
		// The board search keeps within the clock, as in plain Go
		// (CLK-D11); a turn's reveals come out of the same budget.
		lvl := b.moveLevel(v, g.Board())
		b.hmgBot.Level, b.hmgBot.board.Level = lvl, lvl
		return act()
	case hmgrules.StageScoring:
		board := g.Board()
		count := func(dead []engine.Point) engine.Result { return g.Score(engine.MarkingOf(board, dead)).Result() }
		return b.score(v, board, g.ToMove(), vv.HasProposal, vv.Proposer, vv.Proposal, count, act)
	}
	return nil
}

// chooseGomoku plays Hidden Move Double Gomoku; the program itself makes
// the moves that are not choices (revealing the committed point, "five",
// the claim, declaring no legal point, the openings at the end).
func (b *Bots) chooseGomoku(vv gomokurules.View) protocol.Action {
	if b.gomokuBot == nil {
		b.gomokuBot = NewGomokuBot(b.Level, b.seed)
	}
	v := vv.Game
	if !v.MyTurn() || vv.Closing {
		return nil
	}
	gb := b.gomokuBot
	switch v.Phase() {
	case gomoku.PhaseOpening:
		return gomokurules.Opening{Point: gb.ChooseOpening(v)}
	case gomoku.PhaseChooseSide:
		return gomokurules.ChooseSide{Side: gb.ChooseSide(v)}
	case gomoku.PhaseCommit:
		p := gb.ChooseCommit(v)
		if p == engine.NoPoint {
			return nil
		}
		return gomokurules.Place{Point: p}
	case gomoku.PhaseAnnounce:
		return gomokurules.Announce{Column: gb.ChooseLine(v) == gomoku.Column}
	case gomoku.PhaseRespond:
		return gomokurules.Respond{Reveal: gb.ChooseResponse(v)}
	}
	return nil
}

// choosePhantom plays Phantom Go: its tries from its own view only
// (phantomrules.View.Own), then, once the boards are revealed, the
// dead-stone agreement and any play resumed in the open, as in Go on the
// revealed board. After six announcements per point it passes, so that a
// game between bots ends.
func (b *Bots) choosePhantom(v protocol.View, vv phantomrules.View) protocol.Action {
	if b.phantomBot == nil {
		b.phantomBot = NewPhantomBot(b.Level, v.Options.Komi, b.seed)
	}
	ref := vv.Referee
	open := func() protocol.Action {
		ref := ref
		if vv.Scoring {
			// Play resumes from the count (GO-4): the referee as the
			// move will find it, with play going on and the bot to move.
			if resumed, err := ref.Resume(v.Color); err == nil {
				ref = resumed
			}
		}
		board := ref.Board()
		var legal []engine.Point
		for p := engine.Point(0); int(p) < board.Points(); p++ {
			if _, out, err := ref.Try(v.Color, p); board.At(p) == engine.Empty && err == nil && out.Legal {
				legal = append(legal, p)
			}
		}
		return protocol.Play{Point: b.goPlayer().chooseOnBoard(board, v.Color, v.Options.Komi, legal, ref.Passes() > 0)}
	}
	switch {
	case vv.Scoring:
		board := ref.Board()
		count := func(dead []engine.Point) engine.Result { return ref.Score(engine.MarkingOf(board, dead)).Result() }
		return b.score(v, board, ref.ToMove(), vv.HasProposal, vv.Proposer, vv.Proposal, count, open)
	case vv.Stage == phantomrules.StageOpen:
		if ref.ToMove() != v.Color || ref.PlayEnded() {
			return nil
		}
		return open()
	case !vv.MyTry:
		return nil
	}
	if n := vv.Own.Size(); len(vv.Own.Log()) >= 6*n*n {
		return protocol.Play{Point: engine.Pass}
	}
	// CLK-D11, CLK-D16: the budget of a try, as if the board were empty
	// (the bot does not know where the other's stones are).
	empty, _ := engine.NewBoard(vv.Own.Size())
	b.phantomBot.Level = b.moveLevel(v, empty)
	p, resign := b.phantomBot.ChooseTryOrResign(vv.Own)
	if resign {
		return protocol.Resign{}
	}
	return protocol.Play{Point: p}
}
