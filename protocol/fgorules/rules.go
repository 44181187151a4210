package fgorules

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/fgo"
)

// F-Go over the network (FG-1..FG-7, docs/rules/fgo.md "Network play").
//
// Each turn has a first player, Black on even turn numbers and White on
// odd ones (FG-N1), and runs, one role at a time:
//
//	first:  fgo-commit          (or fgo-offer, at most once a turn)
//	second: fgo-commit          (after an offer: fgo-accept, fgo-decline or fgo-commit)
//	first:  fgo-open            (automatic)
//	second: fgo-open            (automatic); the engine plays the turn
//
// A commitment (T-5) binds the player's choice, a GTP vertex or "pass",
// under ChoiceDomain with the turn number as index and the role as
// player; neither choice is opened before both are committed. Each opening
// is checked at once (T-6): against its commitment (T-5) and against FG-1
// and FG-5. A turn in which both pass ends play; the dead stones are then
// agreed as in plain Go (GO-4, kinds mark and agree), and a commitment to a
// new turn resumes play.

// Kinds of F-Go messages.
const (
	// KindCommit commits to this turn's choice (commitBody).
	KindCommit protocol.Kind = "fgo-commit"
	// KindOpen opens it (openBody); sent by the program itself.
	KindOpen protocol.Kind = "fgo-open"
	// KindOffer makes a bargaining offer for this turn (fgoOfferBody, FG-7).
	KindOffer protocol.Kind = "fgo-offer"
	// KindAccept accepts the offer on the table: it is played as the turn.
	KindAccept protocol.Kind = "fgo-accept"
	// KindDecline declines it: the turn goes on by commitments.
	KindDecline protocol.Kind = "fgo-decline"
)

// ChoiceDomain is the domain-separation tag of F-Go choice commitments.
const ChoiceDomain = "kakure/fgo/choice"

// OfferBody is an offer of FG-7 from the sender: "if you play
// IfYouPlay, I play IPlay", each a GTP vertex or "pass".
type OfferBody struct {
	IfYouPlay string `json:"if_you_play"`
	IPlay     string `json:"i_play"`
}

// Offer offers the opponent a turn (FG-7): "if you play IfYouPlay, I play
// IPlay" (either may be engine.Pass). Only the first player of a turn may
// offer, once, before committing.
type Offer struct{ IfYouPlay, IPlay engine.Point }

// AcceptOffer accepts the offer on the table; it is played as the turn.
type AcceptOffer struct{}

// DeclineOffer declines the offer on the table. Committing a choice (Play)
// declines it too.
type DeclineOffer struct{}

func (Offer) IsAction()        {}
func (AcceptOffer) IsAction()  {}
func (DeclineOffer) IsAction() {}

// EventCommitted: a player committed to its choice for the turn.
type EventCommitted struct{ By protocol.Role }

// EventOpened: a player opened its commitment (the turn is played once
// both have).
type EventOpened struct{ By protocol.Role }

// EventOffered: the first player offered a turn (FG-7).
type EventOffered struct {
	By    protocol.Role
	Offer fgo.Offer
}

// EventDeclined: the offer on the table was declined.
type EventDeclined struct{ By protocol.Role }

// EventTurn: a turn was taken; Result says what it did. Accepted is
// true when the turn was an accepted offer.
type EventTurn struct {
	Result   fgo.TurnResult
	Accepted bool
}

func (EventCommitted) IsEvent() {}
func (EventOpened) IsEvent()    {}
func (EventOffered) IsEvent()   {}
func (EventDeclined) IsEvent()  {}
func (EventTurn) IsEvent()      {}

func init() {
	protocol.Register(protocol.VariantEntry{
		Variant: engine.VariantFGo,
		NewRules: func(m *protocol.Machine) (protocol.VariantRules, error) {
			g, err := fgo.NewGame(m.Options)
			if err != nil {
				return nil, err
			}
			return &Rules{m: m, Game: g}, nil
		},
		Kinds: map[protocol.Kind]protocol.KindAttrs{
			KindCommit:  {Timed: true},
			KindOpen:    {Timed: true, Automatic: true},
			KindOffer:   {},
			KindAccept:  {},
			KindDecline: {},
		},
		BroadcastMove: func(k protocol.Kind) bool { return k == KindCommit || k == KindAccept },
		TurnCount:     protocol.TurnInviterMove,
	})
}

// fgoTurn is what the messages of the current turn have set.
type fgoTurn struct {
	commits [2]*commit.Commitment // by role
	opened  [2]bool
	choices [2]engine.Point // by role, once opened
	offer   *fgo.Offer
	offered bool // an offer was made this turn (one a turn)
	resumed bool // the turn resumed play after both passed (GO-4)
	resumer protocol.Role
}

// Rules is the public state machine of a game of F-Go. It sees the
// commitments, never a choice before it is opened.
type Rules struct {
	m     *protocol.Machine
	Game  fgo.Game
	turn  fgoTurn
	Last  *fgo.TurnResult
	Score protocol.Scoring
}

// View is what a player of F-Go sees: the public game and its own
// choice, never the opponent's unopened one.
type View struct {
	Game fgo.Game
	// Unavailable lists the points nobody may choose this turn (FG-2, FG-4).
	Unavailable []engine.Point
	// First is the role that commits first this turn and may offer (FG-N1).
	First protocol.Role
	// MyChoice is the local player's choice this turn, NoPoint before it
	// chose; Committed tells whether its commitment is sent.
	MyChoice  engine.Point
	Committed bool
	// OpponentCommitted is true once the opponent committed this turn.
	OpponentCommitted bool
	// Waiting is true while the opponent (or its program) is to act.
	Waiting bool
	// Offer is the offer on the table, if any (FG-7).
	Offer *fgo.Offer
	// LastTurn is what the last turn did, with both choices (nil before
	// the first turn).
	LastTurn *fgo.TurnResult
	// Scoring is true while dead stones are being marked (GO-4); Proposal
	// is the marking on the table and Proposer who made it.
	Scoring     bool
	HasProposal bool
	Proposer    protocol.Role
	Proposal    []engine.Point
}

// FirstRole returns the role that commits and opens first this turn:
// Black's on even turn numbers, White's on odd ones (FG-N1).
func (g *Rules) FirstRole() protocol.Role {
	if g.Game.TurnNumber()%2 == 0 {
		return g.m.RoleOf(engine.Black)
	}
	return g.m.RoleOf(engine.White)
}

func (g *Rules) View(r protocol.Role) protocol.VariantView {
	b := g.Game.Board()
	from, _, done := g.Expected()
	v := View{Game: g.Game, Unavailable: g.Game.Unavailable(), First: g.FirstRole(), MyChoice: engine.NoPoint,
		Committed: g.turn.commits[r] != nil, OpponentCommitted: g.turn.commits[r.Other()] != nil,
		Waiting: !done && from != r && !g.ChoosesEarly(r, KindCommit), Scoring: g.Score.Active, HasProposal: g.Score.HasProposal,
		Proposer: g.Score.Proposer, Proposal: g.Score.Proposal.Dead(b)}
	if g.turn.offer != nil {
		o := *g.turn.offer
		v.Offer = &o
	}
	if g.Last != nil {
		l := *g.Last
		l.Removed = slices.Clone(l.Removed)
		l.Unavailable = slices.Clone(l.Unavailable)
		v.LastTurn = &l
	}
	return v
}

func (g *Rules) Expected() (protocol.Role, []protocol.Kind, bool) {
	if g.Score.Agreed {
		return protocol.Inviter, nil, true
	}
	first := g.FirstRole()
	second := first.Other()
	if g.Score.Active {
		r, kinds := g.Score.Expected(first)
		kinds = slices.Clone(kinds)
		for i, k := range kinds {
			if k == protocol.KindMove {
				kinds[i] = KindCommit // a new turn resumes play
			}
		}
		return r, kinds, false
	}
	t := &g.turn
	switch {
	case t.offer != nil:
		return second, []protocol.Kind{KindAccept, KindDecline, KindCommit}, false
	case t.commits[first] == nil && t.commits[second] == nil && !t.offered && !g.timedFGo():
		return first, []protocol.Kind{KindCommit, KindOffer}, false
	case t.commits[first] == nil:
		return first, []protocol.Kind{KindCommit}, false
	case t.commits[second] == nil:
		return second, []protocol.Kind{KindCommit}, false
	case !t.opened[first]:
		return first, []protocol.Kind{KindOpen}, false
	}
	return second, []protocol.Kind{KindOpen}, false
}

func (g *Rules) Apply(from protocol.Role, seq uint64, kind protocol.Kind, body json.RawMessage) ([]protocol.Event, error) {
	switch kind {
	case protocol.KindMark, protocol.KindAgree:
		return g.Score.Apply(g.Game.Board(), from, seq, kind, body)
	case KindCommit:
		var b CommitBody
		if err := protocol.DecodeBody(body, &b); err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
		}
		var events []protocol.Event
		if g.Score.Active {
			g.Score = protocol.Scoring{}
			g.turn = fgoTurn{resumed: true, resumer: from}
			events = append(events, protocol.EventResumed{By: from})
		}
		if g.turn.offer != nil {
			g.turn.offer = nil
			events = append(events, EventDeclined{By: from})
		}
		c := b.Commitment
		g.turn.commits[from] = &c
		return append(events, EventCommitted{By: from}), nil
	case KindOpen:
		return g.applyOpen(from, seq, body)
	case KindOffer:
		var b OfferBody
		if err := protocol.DecodeBody(body, &b); err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
		}
		size := g.m.Options.Size
		yours, err1 := parseFGoChoice(size, b.IfYouPlay)
		mine, err2 := parseFGoChoice(size, b.IPlay)
		if err := errors.Join(err1, err2); err != nil {
			return nil, protocol.NewViolation(from, seq, "FG-7", "offer: %v", err)
		}
		o := fgo.Offer{From: g.m.Colors[from], IfYouPlay: yours, IPlay: mine}
		if err := g.Game.CheckOffer(o); err != nil {
			return nil, protocol.NewViolation(from, seq, "FG-7", "offer: %v", err)
		}
		g.turn.offer, g.turn.offered = &o, true
		return []protocol.Event{EventOffered{By: from, Offer: o}}, nil
	case KindAccept:
		if err := protocol.DecodeBody(body, &struct{}{}); err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
		}
		next, res, err := g.Game.AcceptOffer(*g.turn.offer)
		if err != nil {
			return nil, protocol.NewViolation(from, seq, "FG-7", "accepts a bad offer: %v", err)
		}
		return g.played(next, res, true), nil
	case KindDecline:
		if err := protocol.DecodeBody(body, &struct{}{}); err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
		}
		g.turn.offer = nil
		return []protocol.Event{EventDeclined{By: from}}, nil
	}
	return nil, protocol.NewViolation(from, seq, "T-3", "unexpected %s", kind)
}

// applyOpen checks an opening at once (T-6): it must open the sender's
// commitment of this turn (T-5) and be a choice the sender may make
// (FG-1, FG-5). The second opening plays the turn.
func (g *Rules) applyOpen(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var b OpenBody
	if err := protocol.DecodeBody(body, &b); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	turn := g.Game.TurnNumber()
	if err := commit.Verify(*g.turn.commits[from], ChoiceDomain, g.m.Game[:], uint8(from), uint32(turn), b.Opening); err != nil {
		return nil, &protocol.Violation{Accused: from, Rule: "T-5", Seq: int64(seq),
			Detail: fmt.Sprintf("the opening of turn %d does not match its commitment", turn), Err: err}
	}
	p, err := parseFGoChoice(g.m.Options.Size, string(b.Opening.Value))
	if err != nil {
		return nil, protocol.NewViolation(from, seq, "FG-1", "opens the choice %q: %v", b.Opening.Value, err)
	}
	c := g.m.Colors[from]
	if err := g.Game.CheckChoice(c, p); err != nil {
		return nil, &protocol.Violation{Accused: from, Rule: ruleOfFGoChoiceError(err), Seq: int64(seq),
			Detail: fmt.Sprintf("illegal choice %s: %v", p.Vertex(g.m.Options.Size), err), Err: err}
	}
	if g.turn.resumed && g.turn.resumer == from && p == engine.Pass {
		return nil, protocol.NewViolation(from, seq, "GO-4", "resumes play with a pass")
	}
	other := from.Other()
	if !g.turn.opened[other] {
		g.turn.opened[from], g.turn.choices[from] = true, p
		return []protocol.Event{EventOpened{By: from}}, nil
	}
	var black, white engine.Point
	if c == engine.Black {
		black, white = p, g.turn.choices[other]
	} else {
		black, white = g.turn.choices[other], p
	}
	next, res, err := g.Game.Turn(black, white)
	if err != nil {
		return nil, protocol.NewViolation(from, seq, "FG-1", "turn refused: %v", err)
	}
	return append([]protocol.Event{EventOpened{By: from}}, g.played(next, res, false)...), nil
}

// played moves to the game after a turn and starts the next turn, or the
// scoring phase when both passed (FG-6).
func (g *Rules) played(next fgo.Game, res fgo.TurnResult, accepted bool) []protocol.Event {
	g.Game = next
	g.Last = &res
	g.turn = fgoTurn{}
	events := []protocol.Event{EventTurn{Result: res, Accepted: accepted}}
	if res.PlayEnded {
		g.Score.Start()
		events = append(events, protocol.EventPhase{Phase: "scoring"})
	}
	return events
}

func (g *Rules) Result() engine.Result { return g.Game.Score(g.Score.Proposal).Result() }

// parseFGoChoice reads a choice in its canonical form: a GTP vertex as
// Point.Vertex writes it, or "pass".
func parseFGoChoice(size int, s string) (engine.Point, error) {
	return protocol.ParseBodyPoint(size, s)
}

// ruleOfFGoChoiceError names the rule a refused choice breaks: a suicide
// under --suicide forbid breaks FG-5, anything else (occupied, marked
// unavailable, off the board) FG-1.
func ruleOfFGoChoiceError(err error) string {
	if errors.Is(err, engine.ErrSuicide) {
		return "FG-5"
	}
	return "FG-1"
}

// Progress implements [VariantView]: the turns played, what a player of
// F-Go counts.
func (vv View) Progress() string { return fmt.Sprintf("turn %d", vv.Game.TurnNumber()) }

// OpponentJustPassed implements [VariantView]: the other colour's choice
// of the last turn was a pass, outside the dead-stone agreement.
func (vv View) OpponentJustPassed(me engine.Color) bool {
	if vv.Scoring {
		return false
	}
	black, white := vv.Game.LastChoices()
	if me == engine.Black {
		return white == engine.Pass && vv.Game.TurnNumber() > 0
	}
	return black == engine.Pass && vv.Game.TurnNumber() > 0
}

// IsVariantView marks View as a [VariantView].
func (View) IsVariantView() {}
