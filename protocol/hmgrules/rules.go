package hmgrules

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/hmg"
)

// Kinds of Hidden Move Go messages (docs/rules/hmg.md, "Network play").
// Regular moves are KindMove; dead stones are agreed with KindMark and
// KindAgree (GO-4).
const (
	// KindCards carries a player's commitments to its hidden moves
	// (HMG-1): Black's first, then White's, before Black's first move.
	KindCards protocol.Kind = "cards"
	// KindReveal reveals one card (HMG-2, HMG-3) by opening its
	// commitment.
	KindReveal protocol.Kind = "reveal"
	// KindOpenCards opens every card a player did not use, after the
	// dead stones are agreed (HMG-7, T-6). The program sends it by itself.
	KindOpenCards protocol.Kind = "open-cards"
)

// CardDomain separates the commitments of Hidden Move Go cards (T-5).
// A card commitment is commit.New(CardDomain, game ID, role, card
// index, GTP vertex of the point).
const CardDomain = "kakure/hmg/card"

// SetCards chooses the local player's hidden moves in Hidden Move Go
// (HMG-1): one point per card, in card order; a point may repeat. It may
// be done as soon as the colours are known; the commitments go when it is
// the player's turn to send them.
type SetCards struct{ Points []engine.Point }

// Reveal plays the local player's card number Card (0-based) in Hidden
// Move Go (HMG-2): the card's point is opened and the stone placed.
type Reveal struct{ Card int }

func (SetCards) IsAction() {}
func (Reveal) IsAction()   {}

// CardsBody is the body of KindCards: one commitment per card, in
// card order.
type CardsBody struct {
	Commitments []commit.Commitment `json:"commitments"`
	// ThinkMS and ChargeMS are the clock's part, in a game with a time
	// control (CLK-D8, CLK-D10): the card choice is its player's timed
	// turn.
	ThinkMS  int64 `json:"think_ms,omitempty"`
	ChargeMS int64 `json:"charge_ms,omitempty"`
}

// RevealBody is the body of KindReveal: the card's opening and, on
// a reveal that ends its player's turn (HMG-5) in a game with a time
// control, the clock's part (CLK-D8, CLK-D10).
type RevealBody struct {
	CardOpening
	ThinkMS  int64 `json:"think_ms,omitempty"`
	ChargeMS int64 `json:"charge_ms,omitempty"`
}

// CardOpening opens one card: its index, its point as a GTP vertex
// (the committed value) and the salt in lowercase hex. It is the body of
// KindReveal.
type CardOpening struct {
	Card  int    `json:"card"`
	Point string `json:"point"`
	Salt  string `json:"salt"`
}

// OpenCardsBody is the body of KindOpenCards: the openings of every
// unused card, in increasing card order.
type OpenCardsBody struct {
	Cards []CardOpening `json:"cards"`
}

// Stage is where a game of Hidden Move Go stands inside PhasePlay.
type Stage string

// The stages of a Hidden Move Go game.
const (
	StageCards   Stage = "cards"      // commitments are being exchanged
	StagePlay    Stage = "play"       // turns of reveals and moves
	StageScoring Stage = "scoring"    // dead stones are being agreed
	StageOpen    Stage = "open-cards" // unused cards are being opened
	StageDone    Stage = "done"
)

// View is what a player of Hidden Move Go sees. It never holds the
// opponent's unrevealed points: no program has them before the end.
type View struct {
	Stage Stage
	// Game is the game as this player knows it: the public board, turn
	// and superko history, this player's own card points once chosen,
	// and the opponent's points of revealed or opened cards only. Its
	// LegalActions for this player's colour include the reveals.
	Game hmg.Game
	// CardsChosen is true once the local player has chosen its cards
	// (SetCards); MyCards then holds their points and which were used.
	CardsChosen bool
	MyCards     []hmg.Card
	// OpponentCards has one entry per opponent card: Revealed tells which
	// were used; Point is engine.NoPoint unless revealed or opened.
	OpponentCards []hmg.Card
	// Committed tells, by role, whose commitments have been received.
	Committed [2]bool
	// The dead-stone agreement (GO-4): Proposal is the marking on the
	// table and Proposer who made it.
	HasProposal bool
	Proposer    protocol.Role
	Proposal    []engine.Point
}

// EventRevealed: a card was revealed (HMG-2). Undo is true when it undid
// the opponent's last move (HMG-5); Restored lists the revealer's stones
// that came back.
type EventRevealed struct {
	Color    engine.Color
	Card     int
	Point    engine.Point
	Captured []engine.Point
	Undo     bool
	Restored []engine.Point
}

// EventCardsCommitted: a player sent its card commitments (HMG-1).
type EventCardsCommitted struct{ Color engine.Color }

// EventCardsOpened: a player opened its unused cards at the end (HMG-7);
// Points are all its card points, in card order.
type EventCardsOpened struct {
	Color  engine.Color
	Points []engine.Point
}

func (EventRevealed) IsEvent()       {}
func (EventCardsCommitted) IsEvent() {}
func (EventCardsOpened) IsEvent()    {}

func init() {
	protocol.Register(protocol.VariantEntry{
		Variant: engine.VariantHMG,
		NewRules: func(m *protocol.Machine) (protocol.VariantRules, error) {
			g, err := hmg.NewGame(m.Options)
			if err != nil {
				return nil, err
			}
			return &Rules{m: m, Game: g}, nil
		},
		Kinds: map[protocol.Kind]protocol.KindAttrs{
			KindCards:     {Timed: true},
			KindReveal:    {Timed: true},
			KindOpenCards: {Automatic: true},
		},
		BroadcastMove: func(k protocol.Kind) bool { return k == protocol.KindMove || k == KindReveal },
	})
}

// Rules is Hidden Move Go over the network (HMG-1..HMG-8): card
// commitments, turns of reveals and a move, GO-4 scoring, the opening of
// the unused cards, the count with passing stones.
type Rules struct {
	m    *protocol.Machine
	Game hmg.Game
	// commits holds each role's card commitments; committed tells which
	// were received, opened whose unused cards were opened.
	commits   [2][]commit.Commitment
	Committed [2]bool
	opened    [2]bool
	Score     protocol.Scoring
}

// Stage returns where the game stands.
func (h *Rules) Stage() Stage {
	switch {
	case h.m.Options.Cards > 0 && !(h.Committed[protocol.Inviter] && h.Committed[protocol.Invitee]):
		return StageCards
	case h.Score.Agreed:
		if _, ok := h.owesOpening(); ok {
			return StageOpen
		}
		return StageDone
	case h.Score.Active:
		return StageScoring
	}
	return StagePlay
}

// TimedTurn returns the role whose turn the clock times (CLK-D10): the
// player sending its card commitments (Black's, then White's), and the
// player to move in play, its reveals included; no clock runs during the
// count or the opening of the unused cards.
func (h *Rules) TimedTurn() (protocol.Role, bool) {
	switch h.Stage() {
	case StageCards:
		r, _, _ := h.Expected()
		return r, true
	case StagePlay:
		return h.m.RoleOf(h.Game.ToMove()), true
	}
	return protocol.Inviter, false
}

// EndsTimedTurn reports whether a message ends its player's timed turn
// (CLK-D10): the card commitments, a move, or a reveal onto the
// opponent's last stone, which undoes it and ends the turn (HMG-5).
func (h *Rules) EndsTimedTurn(kind protocol.Kind, body json.RawMessage) bool {
	switch kind {
	case KindCards:
		return h.Stage() == StageCards
	case protocol.KindMove:
		return h.Stage() == StagePlay
	case KindReveal:
		if h.Stage() != StagePlay {
			return false
		}
		var o CardOpening
		if err := json.Unmarshal(body, &o); err != nil {
			return false
		}
		p, err := engine.ParseVertex(h.m.Options.Size, o.Point)
		if err != nil || p == engine.Pass {
			return false
		}
		last := h.Game.LastStone(h.Game.ToMove().Opponent())
		return last != engine.NoPoint && last == p
	}
	return false
}

// owesOpening returns the role that must open its unused cards next:
// Black's, then White's; a player with no unused card opens nothing.
func (h *Rules) owesOpening() (protocol.Role, bool) {
	for _, c := range []engine.Color{engine.Black, engine.White} {
		r := h.m.RoleOf(c)
		if !h.opened[r] && h.Game.UnusedCards(c) > 0 {
			return r, true
		}
	}
	return protocol.Inviter, false
}

func (h *Rules) Expected() (protocol.Role, []protocol.Kind, bool) {
	toMove := h.m.RoleOf(h.Game.ToMove())
	switch h.Stage() {
	case StageCards:
		r := h.m.RoleOf(engine.Black)
		if h.Committed[r] {
			r = r.Other()
		}
		return r, []protocol.Kind{KindCards}, false
	case StageOpen:
		r, _ := h.owesOpening()
		return r, []protocol.Kind{KindOpenCards}, false
	case StageDone:
		return protocol.Inviter, nil, true
	case StageScoring:
		r, kinds := h.Score.Expected(toMove)
		// Only the player to move may resume play, with a move or a
		// reveal (GO-4, HMG-D14).
		var ks []protocol.Kind
		for _, k := range kinds {
			if k != protocol.KindMove {
				ks = append(ks, k)
			}
		}
		if r == toMove {
			ks = append(ks, protocol.KindMove, KindReveal)
		}
		return r, ks, false
	}
	return toMove, []protocol.Kind{protocol.KindMove, KindReveal}, false
}

func (h *Rules) Apply(from protocol.Role, seq uint64, kind protocol.Kind, body json.RawMessage) ([]protocol.Event, error) {
	switch kind {
	case KindCards:
		return h.applyCards(from, seq, body)
	case protocol.KindMove:
		return h.applyMove(from, seq, body)
	case KindReveal:
		return h.applyReveal(from, seq, body)
	case KindOpenCards:
		return h.applyOpenCards(from, seq, body)
	}
	events, err := h.Score.Apply(h.Game.Board(), from, seq, kind, body)
	if err == nil && h.Stage() == StageOpen {
		events = append(events, protocol.EventPhase{Phase: protocol.Phase(StageOpen)})
	}
	return events, err
}

func (h *Rules) applyCards(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var b CardsBody
	if err := protocol.DecodeBody(body, &b); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	if n := h.m.Options.Cards; len(b.Commitments) != n {
		return nil, protocol.NewViolation(from, seq, "HMG-1", "commits to %d cards, the game has %d per player", len(b.Commitments), n)
	}
	h.commits[from] = b.Commitments
	h.Committed[from] = true
	return []protocol.Event{EventCardsCommitted{Color: h.m.Colors[from]}}, nil
}

func (h *Rules) applyMove(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var mb protocol.MoveBody
	if err := protocol.DecodeBody(body, &mb); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	p, err := protocol.ParseBodyPoint(h.m.Options.Size, mb.Point)
	if err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	resumed := h.Score.Active
	if resumed && p == engine.Pass {
		return nil, protocol.NewViolation(from, seq, "GO-4", "resumes play with a pass")
	}
	c := h.m.Colors[from]
	next, captured, err := h.Game.Play(c, p)
	if err != nil {
		return nil, protocol.NewViolation(from, seq, ruleOfHMGError(err), "illegal move %s: %v", mb.Point, err)
	}
	h.Game = next
	var events []protocol.Event
	if resumed {
		h.Score = protocol.Scoring{}
		events = append(events, protocol.EventResumed{By: from})
	}
	events = append(events, protocol.EventMoved{Color: c, Point: p, Captured: captured})
	if h.Game.PlayEnded() {
		h.Score.Start()
		events = append(events, protocol.EventPhase{Phase: protocol.Phase(StageScoring)})
	}
	return events, nil
}

// checkOpening checks that o opens card number o.Card of role from, and
// returns its point. An index outside the cards breaks HMG-3, a value that
// is not a point of the board HMG-1, and an opening that does not match
// its commitment T-5.
func (h *Rules) checkOpening(from protocol.Role, seq uint64, o CardOpening) (engine.Point, error) {
	if o.Card < 0 || o.Card >= len(h.commits[from]) {
		return engine.NoPoint, protocol.NewViolation(from, seq, "HMG-3", "card index %d: it has %d cards", o.Card, len(h.commits[from]))
	}
	size := h.m.Options.Size
	p, err := engine.ParseVertex(size, o.Point)
	if err != nil || p == engine.Pass || p.Vertex(size) != o.Point {
		return engine.NoPoint, protocol.NewViolation(from, seq, "HMG-1", "card index %d holds %q, not a point of the board", o.Card, o.Point)
	}
	salt, err := hex.DecodeString(o.Salt)
	if err != nil || len(salt) != commit.SaltSize || hex.EncodeToString(salt) != o.Salt {
		return engine.NoPoint, protocol.NewViolation(from, seq, "T-10", "card index %d: salt %q is not %d bytes of lowercase hex", o.Card, o.Salt, commit.SaltSize)
	}
	op := commit.Opening{Value: []byte(o.Point)}
	copy(op.Salt[:], salt)
	if err := commit.Verify(h.commits[from][o.Card], CardDomain, h.m.Game[:], uint8(from), uint32(o.Card), op); err != nil {
		return engine.NoPoint, &protocol.Violation{Accused: from, Rule: "T-5", Seq: int64(seq), Err: err,
			Detail: fmt.Sprintf("card index %d opened at %s does not match its commitment", o.Card, o.Point)}
	}
	return p, nil
}

func (h *Rules) applyReveal(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var rb RevealBody
	if err := protocol.DecodeBody(body, &rb); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	o := rb.CardOpening
	c := h.m.Colors[from]
	if o.Card >= 0 && o.Card < h.m.Options.Cards && h.Game.Cards(c)[o.Card].Revealed {
		return nil, protocol.NewViolation(from, seq, "HMG-3", "illegal reveal: card index %d was already revealed", o.Card)
	}
	p, err := h.checkOpening(from, seq, o)
	if err != nil {
		return nil, err
	}
	next, res, err := h.Game.Reveal(c, o.Card, p)
	if err != nil {
		return nil, protocol.NewViolation(from, seq, ruleOfHMGReveal(err), "illegal reveal of card index %d at %s: %v", o.Card, o.Point, err)
	}
	h.Game = next
	var events []protocol.Event
	if h.Score.Active {
		h.Score = protocol.Scoring{}
		events = append(events, protocol.EventResumed{By: from})
	}
	return append(events, EventRevealed{Color: c, Card: o.Card, Point: p, Captured: res.Captured,
		Undo: res.Undo, Restored: res.Restored}), nil
}

func (h *Rules) applyOpenCards(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var b OpenCardsBody
	if err := protocol.DecodeBody(body, &b); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	c := h.m.Colors[from]
	cards := h.Game.Cards(c)
	var unused []int
	points := make([]engine.Point, len(cards))
	for i, card := range cards {
		points[i] = card.Point
		if !card.Revealed {
			unused = append(unused, i)
		}
	}
	if len(b.Cards) != len(unused) {
		return nil, protocol.NewViolation(from, seq, "HMG-7", "opens %d cards, %d were not used", len(b.Cards), len(unused))
	}
	for i, o := range b.Cards {
		if o.Card != unused[i] {
			return nil, protocol.NewViolation(from, seq, "HMG-7", "opening number %d is of card index %d, want the unused card index %d", i, o.Card, unused[i])
		}
		p, err := h.checkOpening(from, seq, o)
		if err != nil {
			return nil, err
		}
		points[o.Card] = p
	}
	next, err := h.Game.OpenCards(c, points)
	if err != nil {
		return nil, protocol.NewViolation(from, seq, "HMG-7", "%v", err)
	}
	h.Game = next
	h.opened[from] = true
	return []protocol.Event{EventCardsOpened{Color: c, Points: points}}, nil
}

func (h *Rules) Result() engine.Result { return h.Game.Score(h.Score.Proposal).Result() }

func (h *Rules) View(r protocol.Role) protocol.VariantView {
	b := h.Game.Board()
	return View{Stage: h.Stage(), Game: h.Game, OpponentCards: h.Game.Cards(h.m.Colors[r].Opponent()),
		Committed: h.Committed, HasProposal: h.Score.HasProposal, Proposer: h.Score.Proposer,
		Proposal: h.Score.Proposal.Dead(b)}
}

// ruleOfHMGError names the rule id an illegal regular move broke.
func ruleOfHMGError(err error) string {
	switch {
	case errors.Is(err, engine.ErrSuperko):
		return "HMG-6"
	case errors.Is(err, engine.ErrNotYourTurn):
		return "HMG-2"
	case errors.Is(err, engine.ErrSuicide):
		return "GO-2"
	}
	return "GO-1"
}

// ruleOfHMGReveal names the rule id an illegal reveal broke: HMG-3 (a
// used card, a stone on the point, suicide), HMG-6 (superko) or HMG-2
// (out of turn).
func ruleOfHMGReveal(err error) string {
	switch {
	case errors.Is(err, engine.ErrSuperko):
		return "HMG-6"
	case errors.Is(err, engine.ErrNotYourTurn):
		return "HMG-2"
	}
	return "HMG-3"
}

// Progress implements [VariantView]: the turns played, what a player of
// Hidden Move Go counts.
func (vv View) Progress() string { return fmt.Sprintf("turn %d", vv.Game.Turns()) }

// OpponentJustPassed implements [VariantView]: in play, the last turn was
// a pass.
func (vv View) OpponentJustPassed(engine.Color) bool {
	return vv.Stage == StagePlay && vv.Game.Passes() > 0
}

// The clock stamp of its bodies (CLK-D8, clock_stamp.go):
// the card choice and a reveal that ends the turn carry
// both (CLK-D10).

// Stamp writes the clock stamp CardsBody carries (CLK-D8).
func (b CardsBody) Stamp(_ protocol.Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

// Stamp writes the clock stamp RevealBody carries (CLK-D8).
func (b RevealBody) Stamp(_ protocol.Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

// IsVariantView marks View as a [VariantView].
func (View) IsVariantView() {}
