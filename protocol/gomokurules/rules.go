package gomokurules

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
)

// Hidden Move Double Gomoku over the network (GM-1..GM-8). This file and
// its two companions hold the public side that both peers and Verify run:
// here the messages, the views and events, the public state and the
// dispatch of a message; turn.go the checks of each message
// of play; audit.go the openings and the audit at the end.
// player_gomoku.go holds the local side with this peer's secrets.
// docs/rules/gomoku.md, section "Network play", describes the exchange.

// Actions of Hidden Move Double Gomoku. Play{Point: engine.Pass} passes
// (GM-7); Play with a point places the opening piece in the opening and
// commits in a turn. The program itself opens the committed point when it
// must, says "five" when it is due, claims the win as soon as the player
// has a double five, declares that it has no legal point, and opens every
// commitment at the end.

// Opening places the X opening piece on Point; the inviter does it
// (GM-2).
type Opening struct{ Point engine.Point }

// ChooseSide chooses X (gomoku.X, which is engine.Black) or O
// (gomoku.O, engine.White) after the opening piece; the invitee does
// it (GM-2). X owns the opening piece; O moves first.
type ChooseSide struct{ Side engine.Color }

// Place commits the mover to Point, one of its legal points (GM-3,
// GM-4). Only a commitment is sent; the point stays secret.
type Place struct{ Point engine.Point }

// Announce announces the row of the committed point, or with Column
// its column (GM-3).
type Announce struct{ Column bool }

// Respond answers the opponent's announcement: the local player
// reveals its hidden pieces at Reveal, all in the announced line (any
// subset of View.Game.HiddenInLine(Announced()), possibly none).
type Respond struct{ Reveal []engine.Point }

func (Opening) IsAction()    {}
func (ChooseSide) IsAction() {}
func (Place) IsAction()      {}
func (Announce) IsAction()   {}
func (Respond) IsAction()    {}

// Kinds of the gomoku messages.
const (
	// KindOpening: the inviter places the X opening piece (GM-2).
	KindOpening protocol.Kind = "gomoku-opening"
	// KindSide: the invitee chooses X or O (GM-2).
	KindSide protocol.Kind = "gomoku-side"
	// KindCommit: the mover commits to its point (GM-3, T-5).
	KindCommit protocol.Kind = "gomoku-commit"
	// KindPass: the mover passes (GM-7).
	KindPass protocol.Kind = "gomoku-pass"
	// KindNoLegalPoint: the mover has no legal point; a draw (GM-7).
	// The program sends it by itself.
	KindNoLegalPoint protocol.Kind = "gomoku-no-legal-point"
	// KindAnnounce: the mover announces a row or a column (GM-3).
	KindAnnounce protocol.Kind = "gomoku-announce"
	// KindResponse: the opponent reveals hidden pieces in the
	// announced line, possibly none (GM-3).
	KindResponse protocol.Kind = "gomoku-response"
	// KindReveal: the mover opens its committed point (GM-3);
	// automatic.
	KindReveal protocol.Kind = "gomoku-reveal"
	// KindDeclare: the mover's "five" and win claim after a
	// placement (GM-5, GM-6); automatic.
	KindDeclare protocol.Kind = "gomoku-declare"
	// KindOpenAll: at the end, a player opens every commitment still
	// closed (GM-8); automatic.
	KindOpenAll protocol.Kind = "gomoku-open"
)

// PieceDomain is the domain-separation tag of the commitment to a
// gomoku point (T-5). The item index is the turn number (GM-D4), the
// player the committer's role, the value the point's GTP vertex.
const PieceDomain = "kakure/gomoku/piece"

// PointBody carries a point as a GTP vertex: the opening piece.
type PointBody struct {
	Point string `json:"point"`
	// ThinkMS and ChargeMS are the clock's part, in a game with a time
	// control (CLK-D8, CLK-D15).
	ThinkMS  int64 `json:"think_ms,omitempty"`
	ChargeMS int64 `json:"charge_ms,omitempty"`
}

// SideBody carries the invitee's choice, "x" or "o".
type SideBody struct {
	Side string `json:"side"`
	// ThinkMS and ChargeMS are the clock's part (CLK-D15).
	ThinkMS  int64 `json:"think_ms,omitempty"`
	ChargeMS int64 `json:"charge_ms,omitempty"`
}

// LineBody carries an announced line: "row" or "column", and its
// index from 0 (row 1, column A).
type LineBody struct {
	Line  string `json:"line"`
	Index int    `json:"index"`
	// ThinkMS and ChargeMS are the clock's part (CLK-D15).
	ThinkMS  int64 `json:"think_ms,omitempty"`
	ChargeMS int64 `json:"charge_ms,omitempty"`
}

// PieceOpening opens the commitment of turn Move.
type PieceOpening struct {
	Move    int            `json:"move"`
	Opening commit.Opening `json:"opening"`
}

// OpeningsBody carries openings: an answer to an announcement, or
// the openings at the end.
type OpeningsBody struct {
	Openings []PieceOpening `json:"openings"`
	// ThinkMS and ChargeMS are the clock's part of an answer (CLK-D15).
	ThinkMS  int64 `json:"think_ms,omitempty"`
	ChargeMS int64 `json:"charge_ms,omitempty"`
}

// FiveBody names a window of five: its first point and direction
// ("horizontal", "vertical", "diagonal", "anti-diagonal").
type FiveBody struct {
	Start string `json:"start"`
	Dir   string `json:"dir"`
}

// DeclareBody is the declaration after a placement: Five (GM-5) and
// a win claim (GM-6) with its two lines and the openings of their pieces
// still hidden.
type DeclareBody struct {
	Five     bool           `json:"five,omitempty"`
	Claim    bool           `json:"claim,omitempty"`
	Lines    []FiveBody     `json:"lines,omitempty"`
	Openings []PieceOpening `json:"openings,omitempty"`
}

// View is what a player of Hidden Move Double Gomoku sees.
type View struct {
	// Game is the local player's own view: its pieces, hidden or
	// revealed, the opponent's revealed pieces, every announced line and
	// answer, and how many hidden pieces the opponent has (never where).
	// A bot or a user interface plays from it (Phase, MyTurn,
	// LegalPoints, HiddenInLine, Announced ...). It is set only in the
	// view of a running game (Game.View), not in a view made from the
	// public record alone.
	Game gomoku.View
	// Phase is the step of the turn that is due; gomoku.PhaseOver once the
	// game is over on the board.
	Phase gomoku.Phase
	// Closing is true while the players open their remaining
	// commitments at the end (GM-8).
	Closing bool
	// Record is the whole game with every commitment opened, once the
	// audit has run; Audit is the violation it found, if any.
	Record *gomoku.Record
	Audit  *gomoku.Violation
}

// EventStep is one step of the game as both players see it: From's
// message told the opponent Event (gomoku.Event: a commitment shows
// no point; answers, revealed points and claims carry the opened points).
type EventStep struct {
	From  protocol.Role
	Event gomoku.Event
}

// EventOpened: at the end, From opened its remaining commitments.
type EventOpened struct {
	From     protocol.Role
	Openings []gomoku.Opening
}

// EventAudited: both players opened everything and the whole game
// was audited (GM-8); Violation is nil when the audit passed.
type EventAudited struct {
	Record    gomoku.Record
	Violation *gomoku.Violation
}

func (EventStep) IsEvent()    {}
func (EventOpened) IsEvent()  {}
func (EventAudited) IsEvent() {}

func init() {
	protocol.Register(protocol.VariantEntry{
		Variant:  engine.VariantGomoku,
		NewRules: newGomokuRules,
		Kinds: map[protocol.Kind]protocol.KindAttrs{
			KindOpening:      {Timed: true},
			KindSide:         {Timed: true},
			KindCommit:       {},
			KindPass:         {Timed: true},
			KindNoLegalPoint: {Timed: true},
			KindAnnounce:     {Timed: true},
			KindResponse:     {Timed: true},
			KindReveal:       {Automatic: true},
			KindDeclare:      {Automatic: true},
			KindOpenAll:      {Timed: true, Automatic: true},
		},
		BroadcastMove: func(k protocol.Kind) bool { return k == KindOpening || k == KindCommit || k == KindPass },
	})
}

// gomokuNever is the reveal time of a point where nothing was revealed.
const gomokuNever = math.MaxInt16

// gomokuMaxTurns bounds the turn number, as gomoku.View does: a
// real game has fewer than 10·size² turns.
const gomokuMaxTurns = 30000

// gomokuPoint is what the public knows of one point.
type gomokuPoint struct {
	// piece[r] is the turn that placed role r's known (revealed) piece
	// here, or -1 (0 is the opening piece).
	piece [2]int16
	// revealedAt is the first turn in which a piece here was revealed.
	revealedAt int16
}

// gomokuTurn is one turn as the public knows it.
type gomokuTurn struct {
	Mover       protocol.Role
	pass        bool
	noLegal     bool
	commitment  commit.Commitment
	line        gomoku.Line
	revealed    []engine.Point
	point       engine.Point // NoPoint while the commitment is closed
	Outcome     gomoku.Outcome
	declaration gomoku.Declaration
}

// gomokuLogEntry is one step for the players' own views to replay.
type gomokuLogEntry struct {
	From  protocol.Role
	Event gomoku.Event
}

// Rules is the public state machine of a gomoku game. It holds no
// secret: it checks at once what opened values allow (T-6) and audits the
// whole game once every commitment is opened (GM-8).
type Rules struct {
	m       *protocol.Machine
	size    int
	Phase   gomoku.Phase
	opening engine.Point
	// choice is the invitee's side.
	choice engine.Color
	Move   int
	mover  protocol.Role
	passes int
	// Turns are the finished turns, Turns[k-1] for turn k; cur is the
	// turn in progress. Elements of Turns are copied before any write.
	Turns  []gomokuTurn
	cur    gomokuTurn
	points [engine.MaxPoints]gomokuPoint
	// hidden and shown count each role's hidden and revealed pieces.
	hidden, shown [2]int
	// five[r]: role r has announced five.
	five [2]bool
	// Log lists the steps of play for the local views (player_gomoku.go).
	Log []gomokuLogEntry
	// board is the result on the board.
	board engine.Result
	// opened[r]: role r has sent its openings at the end.
	opened [2]bool
	Record *gomoku.Record
	audit  *gomoku.Violation
	// violation is the audit's violation in protocol terms.
	violation *protocol.Violation
	// Resigned: a player resigned during play and both still open their
	// commitments for the audit (GM-D23); suspended while a message that
	// crossed the resignation is judged. curPoint is the point of the
	// commitment of the turn under way, opened after the resignation
	// (NoPoint before, or when that turn has none).
	Resigned, suspended bool
	curPoint            engine.Point
}

func newGomokuRules(m *protocol.Machine) (protocol.VariantRules, error) {
	g, err := gomoku.NewGame(m.Options)
	if err != nil {
		return nil, err
	}
	r := &Rules{m: m, size: g.Size(), Phase: gomoku.PhaseOpening, opening: engine.NoPoint}
	for i := range r.points {
		r.points[i] = gomokuPoint{piece: [2]int16{-1, -1}, revealedAt: gomokuNever}
	}
	r.cur = gomokuTurn{point: engine.NoPoint}
	r.curPoint = engine.NoPoint
	return r, nil
}

// ColorsByPie tells the machine that the coin toss does not give the
// colours: the invitee's choice does (GM-2).
func (g *Rules) ColorsByPie() {}

// colorOf returns role r's colour once the side is chosen.
func (g *Rules) colorOf(r protocol.Role) engine.Color {
	if g.choice == engine.Empty {
		return engine.Empty
	}
	if r == protocol.Invitee {
		return g.choice
	}
	return g.choice.Opponent()
}

// roleOf returns the role playing colour c.
func (g *Rules) roleOf(c engine.Color) protocol.Role {
	if c == g.choice {
		return protocol.Invitee
	}
	return protocol.Inviter
}

func (g *Rules) Expected() (protocol.Role, []protocol.Kind, bool) {
	if g.Resigned && !g.suspended {
		return g.openingsDue()
	}
	switch g.Phase {
	case gomoku.PhaseOpening:
		return protocol.Inviter, []protocol.Kind{KindOpening}, false
	case gomoku.PhaseChooseSide:
		return protocol.Invitee, []protocol.Kind{KindSide}, false
	case gomoku.PhaseCommit:
		return g.mover, []protocol.Kind{KindCommit, KindPass, KindNoLegalPoint}, false
	case gomoku.PhaseAnnounce:
		return g.mover, []protocol.Kind{KindAnnounce}, false
	case gomoku.PhaseRespond:
		return g.mover.Other(), []protocol.Kind{KindResponse}, false
	case gomoku.PhaseReveal:
		return g.mover, []protocol.Kind{KindReveal}, false
	case gomoku.PhaseDeclare:
		return g.mover, []protocol.Kind{KindDeclare}, false
	}
	return g.openingsDue()
}

func (g *Rules) Result() engine.Result {
	if g.audit != nil {
		return g.audit.Result()
	}
	return g.board
}

func (g *Rules) View(protocol.Role) protocol.VariantView {
	return View{Phase: g.Phase, Closing: (g.Phase == gomoku.PhaseOver || g.Resigned) && g.Record == nil,
		Record: g.Record, Audit: g.audit}
}

// Apply checks and applies one message. It works on a copy and keeps it
// only when the message is good, so a refused message changes nothing.
func (g *Rules) Apply(from protocol.Role, seq uint64, kind protocol.Kind, body json.RawMessage) ([]protocol.Event, error) {
	if g.Move >= gomokuMaxTurns {
		return nil, protocol.NewViolation(from, seq, "T-10", "game longer than %d turns", gomokuMaxTurns)
	}
	next := *g
	var events []protocol.Event
	var err error
	switch kind {
	case KindOpening:
		events, err = next.applyOpening(from, seq, body)
	case KindSide:
		events, err = next.applySide(from, seq, body)
	case KindCommit:
		events, err = next.applyCommit(from, seq, body)
	case KindPass, KindNoLegalPoint:
		events, err = next.applyPass(from, seq, kind, body)
	case KindAnnounce:
		events, err = next.applyAnnounce(from, seq, body)
	case KindResponse:
		events, err = next.applyResponse(from, seq, body)
	case KindReveal:
		events, err = next.applyReveal(from, seq, body)
	case KindDeclare:
		events, err = next.applyDeclare(from, seq, body)
	case KindOpenAll:
		events, err = next.applyOpenAll(from, seq, body)
	default:
		return nil, protocol.NewViolation(from, seq, "T-10", "%s is no gomoku message", kind)
	}
	if err != nil {
		return nil, err
	}
	*g = next
	if kind == KindSide {
		g.m.Colors = [2]engine.Color{g.colorOf(protocol.Inviter), g.colorOf(protocol.Invitee)}
	}
	return events, nil
}

// logged appends a step to the log and returns its event.
func (g *Rules) logged(from protocol.Role, e gomoku.Event) []protocol.Event {
	// Appending never writes an element below len, so a copy of g whose
	// message is refused leaves g's log intact.
	g.Log = append(g.Log, gomokuLogEntry{From: from, Event: e})
	return []protocol.Event{EventStep{From: from, Event: e}}
}

// Progress implements [VariantView]: the moves played.
func (vv View) Progress() string { return fmt.Sprintf("move %d", vv.Game.MoveNumber()) }

// OpponentJustPassed implements [VariantView]: false, a gomoku turn has
// no pass.
func (View) OpponentJustPassed(engine.Color) bool { return false }

// The clock stamp of its bodies (CLK-D8, clock_stamp.go):
// the messages that end a timed turn carry both (CLK-D15).

// Stamp writes the clock stamp PointBody carries (CLK-D8).
func (b PointBody) Stamp(_ protocol.Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

// Stamp writes the clock stamp SideBody carries (CLK-D8).
func (b SideBody) Stamp(_ protocol.Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

// Stamp writes the clock stamp LineBody carries (CLK-D8).
func (b LineBody) Stamp(_ protocol.Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

// Stamp writes the clock stamp OpeningsBody carries (CLK-D8).
func (b OpeningsBody) Stamp(_ protocol.Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

// Stamp writes the clock stamp PassBody carries (CLK-D8).
func (b PassBody) Stamp(_ protocol.Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

// IsVariantView marks View as a [VariantView].
func (View) IsVariantView() {}
