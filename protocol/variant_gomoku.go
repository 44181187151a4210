package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
)

// Hidden Move Double Gomoku over the network (GM-1..GM-8). This file holds
// the public side that both peers and Verify run: the messages, their
// checks and the audit at the end. player_gomoku.go holds the local side
// with this peer's secrets. docs/rules/gomoku.md, section "Network play",
// describes the exchange.

// Kinds of the gomoku messages.
const (
	// KindGomokuOpening: the inviter places the X opening piece (GM-2).
	KindGomokuOpening Kind = "gomoku-opening"
	// KindGomokuSide: the invitee chooses X or O (GM-2).
	KindGomokuSide Kind = "gomoku-side"
	// KindGomokuCommit: the mover commits to its point (GM-3, T-5).
	KindGomokuCommit Kind = "gomoku-commit"
	// KindGomokuPass: the mover passes (GM-7).
	KindGomokuPass Kind = "gomoku-pass"
	// KindGomokuNoLegalPoint: the mover has no legal point; a draw (GM-7).
	// The program sends it by itself.
	KindGomokuNoLegalPoint Kind = "gomoku-no-legal-point"
	// KindGomokuAnnounce: the mover announces a row or a column (GM-3).
	KindGomokuAnnounce Kind = "gomoku-announce"
	// KindGomokuResponse: the opponent reveals hidden pieces in the
	// announced line, possibly none (GM-3).
	KindGomokuResponse Kind = "gomoku-response"
	// KindGomokuReveal: the mover opens its committed point (GM-3);
	// automatic.
	KindGomokuReveal Kind = "gomoku-reveal"
	// KindGomokuDeclare: the mover's "five" and win claim after a
	// placement (GM-5, GM-6); automatic.
	KindGomokuDeclare Kind = "gomoku-declare"
	// KindGomokuOpenAll: at the end, a player opens every commitment still
	// closed (GM-8); automatic.
	KindGomokuOpenAll Kind = "gomoku-open"
)

// GomokuPieceDomain is the domain-separation tag of the commitment to a
// gomoku point (T-5). The item index is the turn number (GM-D4), the
// player the committer's role, the value the point's GTP vertex.
const GomokuPieceDomain = "kakure/gomoku/piece"

// GomokuPointBody carries a point as a GTP vertex: the opening piece.
type GomokuPointBody struct {
	Point string `json:"point"`
	// ThinkMS and ChargeMS are the clock's part, in a game with a time
	// control (CLK-D8, CLK-D15).
	ThinkMS  int64 `json:"think_ms,omitempty"`
	ChargeMS int64 `json:"charge_ms,omitempty"`
}

// GomokuSideBody carries the invitee's choice, "x" or "o".
type GomokuSideBody struct {
	Side string `json:"side"`
	// ThinkMS and ChargeMS are the clock's part (CLK-D15).
	ThinkMS  int64 `json:"think_ms,omitempty"`
	ChargeMS int64 `json:"charge_ms,omitempty"`
}

// GomokuLineBody carries an announced line: "row" or "column", and its
// index from 0 (row 1, column A).
type GomokuLineBody struct {
	Line  string `json:"line"`
	Index int    `json:"index"`
	// ThinkMS and ChargeMS are the clock's part (CLK-D15).
	ThinkMS  int64 `json:"think_ms,omitempty"`
	ChargeMS int64 `json:"charge_ms,omitempty"`
}

// GomokuPieceOpening opens the commitment of turn Move.
type GomokuPieceOpening struct {
	Move    int            `json:"move"`
	Opening commit.Opening `json:"opening"`
}

// GomokuOpeningsBody carries openings: an answer to an announcement, or
// the openings at the end.
type GomokuOpeningsBody struct {
	Openings []GomokuPieceOpening `json:"openings"`
	// ThinkMS and ChargeMS are the clock's part of an answer (CLK-D15).
	ThinkMS  int64 `json:"think_ms,omitempty"`
	ChargeMS int64 `json:"charge_ms,omitempty"`
}

// GomokuFiveBody names a window of five: its first point and direction
// ("horizontal", "vertical", "diagonal", "anti-diagonal").
type GomokuFiveBody struct {
	Start string `json:"start"`
	Dir   string `json:"dir"`
}

// GomokuDeclareBody is the declaration after a placement: Five (GM-5) and
// a win claim (GM-6) with its two lines and the openings of their pieces
// still hidden.
type GomokuDeclareBody struct {
	Five     bool                 `json:"five,omitempty"`
	Claim    bool                 `json:"claim,omitempty"`
	Lines    []GomokuFiveBody     `json:"lines,omitempty"`
	Openings []GomokuPieceOpening `json:"openings,omitempty"`
}

// GomokuView is what a player of Hidden Move Double Gomoku sees.
type GomokuView struct {
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

// EventGomoku is one step of the game as both players see it: From's
// message told the opponent Event (gomoku.Event: a commitment shows
// no point; answers, revealed points and claims carry the opened points).
type EventGomoku struct {
	From  Role
	Event gomoku.Event
}

// EventGomokuOpened: at the end, From opened its remaining commitments.
type EventGomokuOpened struct {
	From     Role
	Openings []gomoku.Opening
}

// EventGomokuAudited: both players opened everything and the whole game
// was audited (GM-8); Violation is nil when the audit passed.
type EventGomokuAudited struct {
	Record    gomoku.Record
	Violation *gomoku.Violation
}

func (EventGomoku) event()        {}
func (EventGomokuOpened) event()  {}
func (EventGomokuAudited) event() {}

func init() {
	newVariantRules[engine.VariantGomoku] = newGomokuRules
	for _, k := range []Kind{KindGomokuReveal, KindGomokuDeclare, KindGomokuOpenAll} {
		automaticKinds[k] = true
	}
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
	mover       Role
	pass        bool
	noLegal     bool
	commitment  commit.Commitment
	line        gomoku.Line
	revealed    []engine.Point
	point       engine.Point // NoPoint while the commitment is closed
	outcome     gomoku.Outcome
	declaration gomoku.Declaration
}

// gomokuLogEntry is one step for the players' own views to replay.
type gomokuLogEntry struct {
	from  Role
	event gomoku.Event
}

// gomokuRules is the public state machine of a gomoku game. It holds no
// secret: it checks at once what opened values allow (T-6) and audits the
// whole game once every commitment is opened (GM-8).
type gomokuRules struct {
	m       *Machine
	size    int
	phase   gomoku.Phase
	opening engine.Point
	// choice is the invitee's side.
	choice engine.Color
	move   int
	mover  Role
	passes int
	// turns are the finished turns, turns[k-1] for turn k; cur is the
	// turn in progress. Elements of turns are copied before any write.
	turns  []gomokuTurn
	cur    gomokuTurn
	points [engine.MaxPoints]gomokuPoint
	// hidden and shown count each role's hidden and revealed pieces.
	hidden, shown [2]int
	// five[r]: role r has announced five.
	five [2]bool
	// log lists the steps of play for the local views (player_gomoku.go).
	log []gomokuLogEntry
	// board is the result on the board.
	board engine.Result
	// opened[r]: role r has sent its openings at the end.
	opened [2]bool
	record *gomoku.Record
	audit  *gomoku.Violation
	// violation is the audit's violation in protocol terms.
	violation *Violation
	// resigned: a player resigned during play and both still open their
	// commitments for the audit (GM-D23); suspended while a message that
	// crossed the resignation is judged. curPoint is the point of the
	// commitment of the turn under way, opened after the resignation
	// (NoPoint before, or when that turn has none).
	resigned, suspended bool
	curPoint            engine.Point
}

func newGomokuRules(m *Machine) (variantRules, error) {
	g, err := gomoku.NewGame(m.Options)
	if err != nil {
		return nil, err
	}
	r := &gomokuRules{m: m, size: g.Size(), phase: gomoku.PhaseOpening, opening: engine.NoPoint}
	for i := range r.points {
		r.points[i] = gomokuPoint{piece: [2]int16{-1, -1}, revealedAt: gomokuNever}
	}
	r.cur = gomokuTurn{point: engine.NoPoint}
	r.curPoint = engine.NoPoint
	return r, nil
}

// colorsByPie tells the machine that the coin toss does not give the
// colours: the invitee's choice does (GM-2).
func (g *gomokuRules) colorsByPie() {}

// colorOf returns role r's colour once the side is chosen.
func (g *gomokuRules) colorOf(r Role) engine.Color {
	if g.choice == engine.Empty {
		return engine.Empty
	}
	if r == Invitee {
		return g.choice
	}
	return g.choice.Opponent()
}

// roleOf returns the role playing colour c.
func (g *gomokuRules) roleOf(c engine.Color) Role {
	if c == g.choice {
		return Invitee
	}
	return Inviter
}

func (g *gomokuRules) expected() (Role, []Kind, bool) {
	if g.resigned && !g.suspended {
		return g.openingsDue()
	}
	switch g.phase {
	case gomoku.PhaseOpening:
		return Inviter, []Kind{KindGomokuOpening}, false
	case gomoku.PhaseChooseSide:
		return Invitee, []Kind{KindGomokuSide}, false
	case gomoku.PhaseCommit:
		return g.mover, []Kind{KindGomokuCommit, KindGomokuPass, KindGomokuNoLegalPoint}, false
	case gomoku.PhaseAnnounce:
		return g.mover, []Kind{KindGomokuAnnounce}, false
	case gomoku.PhaseRespond:
		return g.mover.Other(), []Kind{KindGomokuResponse}, false
	case gomoku.PhaseReveal:
		return g.mover, []Kind{KindGomokuReveal}, false
	case gomoku.PhaseDeclare:
		return g.mover, []Kind{KindGomokuDeclare}, false
	}
	return g.openingsDue()
}

// openingsDue is what is expected once play is over (GM-8) or resigned
// (GM-D23): each role's openings, the inviter's first.
func (g *gomokuRules) openingsDue() (Role, []Kind, bool) {
	for _, r := range []Role{Inviter, Invitee} {
		if !g.opened[r] {
			return r, []Kind{KindGomokuOpenAll}, false
		}
	}
	return Inviter, nil, true
}

// auditAfterResign has both players open their commitments and the game
// audited after a resignation during play (GM-D23); a resignation before
// the sides are chosen (nothing hidden yet) or once play is over (the
// openings under way) ends the game at once.
func (g *gomokuRules) auditAfterResign(Role) ([]Event, bool) {
	switch g.phase {
	case gomoku.PhaseOpening, gomoku.PhaseChooseSide, gomoku.PhaseOver:
		return nil, false
	}
	g.resigned = true
	return nil, true
}

// suspendResign has the rules judge a message as the game stood before
// the resignation (a message that crossed it).
func (g *gomokuRules) suspendResign(on bool) { g.suspended = on }

// curPending reports whether role r's commitment of the turn under way is
// still closed: r committed in this turn and its point was not revealed.
// After a resignation r's openings must open it (GM-D23).
func (g *gomokuRules) curPending(r Role) bool {
	switch g.phase {
	case gomoku.PhaseAnnounce, gomoku.PhaseRespond, gomoku.PhaseReveal, gomoku.PhaseDeclare:
		return g.cur.mover == r && g.cur.point == engine.NoPoint
	}
	return false
}

func (g *gomokuRules) result() engine.Result {
	if g.audit != nil {
		return g.audit.Result()
	}
	return g.board
}

// auditViolation returns the violation the audit at the end found (GM-8),
// or nil.
func (g *gomokuRules) auditViolation() *Violation { return g.violation }

// endAudit reports whether the players are opening their remaining
// commitments for the audit of GM-8 (T-15: a report then ends nothing).
func (g *gomokuRules) endAudit() bool {
	_, kinds, done := g.expected()
	return !done && len(kinds) == 1 && kinds[0] == KindGomokuOpenAll
}

func (g *gomokuRules) view(Role) VariantView {
	return GomokuView{Phase: g.phase, Closing: (g.phase == gomoku.PhaseOver || g.resigned) && g.record == nil,
		Record: g.record, Audit: g.audit}
}

// apply checks and applies one message. It works on a copy and keeps it
// only when the message is good, so a refused message changes nothing.
func (g *gomokuRules) apply(from Role, seq uint64, kind Kind, body json.RawMessage) ([]Event, error) {
	if g.move >= gomokuMaxTurns {
		return nil, violation(from, seq, "T-10", "game longer than %d turns", gomokuMaxTurns)
	}
	next := *g
	var events []Event
	var err error
	switch kind {
	case KindGomokuOpening:
		events, err = next.applyOpening(from, seq, body)
	case KindGomokuSide:
		events, err = next.applySide(from, seq, body)
	case KindGomokuCommit:
		events, err = next.applyCommit(from, seq, body)
	case KindGomokuPass, KindGomokuNoLegalPoint:
		events, err = next.applyPass(from, seq, kind, body)
	case KindGomokuAnnounce:
		events, err = next.applyAnnounce(from, seq, body)
	case KindGomokuResponse:
		events, err = next.applyResponse(from, seq, body)
	case KindGomokuReveal:
		events, err = next.applyReveal(from, seq, body)
	case KindGomokuDeclare:
		events, err = next.applyDeclare(from, seq, body)
	case KindGomokuOpenAll:
		events, err = next.applyOpenAll(from, seq, body)
	default:
		return nil, violation(from, seq, "T-10", "%s is no gomoku message", kind)
	}
	if err != nil {
		return nil, err
	}
	*g = next
	if kind == KindGomokuSide {
		g.m.Colors = [2]engine.Color{g.colorOf(Inviter), g.colorOf(Invitee)}
	}
	return events, nil
}

// logged appends a step to the log and returns its event.
func (g *gomokuRules) logged(from Role, e gomoku.Event) []Event {
	// Appending never writes an element below len, so a copy of g whose
	// message is refused leaves g's log intact.
	g.log = append(g.log, gomokuLogEntry{from: from, event: e})
	return []Event{EventGomoku{From: from, Event: e}}
}

func (g *gomokuRules) applyOpening(from Role, seq uint64, body json.RawMessage) ([]Event, error) {
	var b GomokuPointBody
	if err := decodeBody(body, &b); err != nil {
		return nil, violation(from, seq, "T-10", "%v", err)
	}
	p, err := parseBodyPoint(g.size, b.Point)
	if err != nil {
		return nil, violation(from, seq, "T-10", "opening piece: %v", err)
	}
	if p == engine.Pass {
		return nil, violation(from, seq, "GM-2", "the opening piece is a pass")
	}
	g.opening = p
	g.points[p].revealedAt = 0
	g.phase = gomoku.PhaseChooseSide
	return g.logged(from, gomoku.Event{Kind: gomoku.EventOpening, Point: p}), nil
}

func (g *gomokuRules) applySide(from Role, seq uint64, body json.RawMessage) ([]Event, error) {
	var b GomokuSideBody
	if err := decodeBody(body, &b); err != nil {
		return nil, violation(from, seq, "T-10", "%v", err)
	}
	var side engine.Color
	switch b.Side {
	case "x":
		side = gomoku.X
	case "o":
		side = gomoku.O
	default:
		return nil, violation(from, seq, "GM-2", "chose side %q (want x or o)", b.Side)
	}
	g.choice = side
	x := g.roleOf(gomoku.X)
	g.points[g.opening].piece[x] = 0
	g.shown[x] = 1
	// The first turn is O's (GM-2).
	g.move, g.mover = 0, x
	g.nextTurn()
	events := g.logged(from, gomoku.Event{Kind: gomoku.EventSide, Side: side})
	return append(events, EventColors{Colors: [2]engine.Color{g.colorOf(Inviter), g.colorOf(Invitee)}}), nil
}

// nextTurn starts the next turn, of the other role.
func (g *gomokuRules) nextTurn() {
	g.move++
	g.mover = g.mover.Other()
	g.phase = gomoku.PhaseCommit
	g.cur = gomokuTurn{mover: g.mover, point: engine.NoPoint}
}

// finish ends the turn in progress with outcome.
func (g *gomokuRules) finish(outcome gomoku.Outcome) {
	g.cur.outcome = outcome
	g.turns = append(g.turns, g.cur)
}

// end ends the game on the board; the openings of GM-8 follow.
func (g *gomokuRules) end(r engine.Result) {
	g.board = r
	g.phase = gomoku.PhaseOver
}

func (g *gomokuRules) applyCommit(from Role, seq uint64, body json.RawMessage) ([]Event, error) {
	var b CommitBody
	if err := decodeBody(body, &b); err != nil {
		return nil, violation(from, seq, "T-10", "%v", err)
	}
	g.cur.commitment = b.Commitment
	g.phase = gomoku.PhaseAnnounce
	return g.logged(from, gomoku.Event{Kind: gomoku.EventCommit}), nil
}

func (g *gomokuRules) applyPass(from Role, seq uint64, kind Kind, body json.RawMessage) ([]Event, error) {
	if err := decodeBody(body, &GomokuPassBody{}); err != nil {
		return nil, violation(from, seq, "T-10", "%v", err)
	}
	if kind == KindGomokuNoLegalPoint {
		// Only the mover can know it; the audit checks it (GM-7).
		g.cur.noLegal = true
		g.finish(gomoku.Stuck)
		g.end(engine.Result{By: engine.ByDraw})
		return g.logged(from, gomoku.Event{Kind: gomoku.EventNoLegalPoint}), nil
	}
	g.cur.pass = true
	g.finish(gomoku.Passed)
	g.passes++
	if g.passes >= 2 {
		g.end(engine.Result{By: engine.ByDraw})
	} else {
		g.nextTurn()
	}
	return g.logged(from, gomoku.Event{Kind: gomoku.EventPass}), nil
}

func (g *gomokuRules) applyAnnounce(from Role, seq uint64, body json.RawMessage) ([]Event, error) {
	var b GomokuLineBody
	if err := decodeBody(body, &b); err != nil {
		return nil, violation(from, seq, "T-10", "%v", err)
	}
	l := gomoku.Line{Index: b.Index}
	switch b.Line {
	case "row":
		l.Kind = gomoku.Row
	case "column":
		l.Kind = gomoku.Column
	}
	if !l.Valid(g.size) {
		return nil, violation(from, seq, "GM-3", "announced %s %d, no row or column of the board", b.Line, b.Index)
	}
	g.cur.line = l
	g.phase = gomoku.PhaseRespond
	return g.logged(from, gomoku.Event{Kind: gomoku.EventAnnounce, Line: l}), nil
}

// openPoint checks the opening o of the commitment c of turn move, made by
// role r, and returns the point it holds: a mismatch breaks T-5, a value
// that is no point of the board GM-3.
func (g *gomokuRules) openPoint(r Role, seq uint64, move int, c commit.Commitment, o commit.Opening) (engine.Point, error) {
	if err := commit.Verify(c, GomokuPieceDomain, g.m.Game[:], uint8(r), uint32(move), o); err != nil {
		return engine.NoPoint, &Violation{Accused: r, Rule: "T-5", Seq: int64(seq),
			Detail: fmt.Sprintf("the opening of move %d does not match its commitment", move), Err: err}
	}
	p, err := parseBodyPoint(g.size, string(o.Value))
	if err != nil || p == engine.Pass {
		return engine.NoPoint, violation(r, seq, "GM-3", "the commitment of move %d holds %q, no point of the board", move, o.Value)
	}
	return p, nil
}

// openHidden checks the opening of a hidden piece of role r, opened in
// answer to an announcement or in a win claim, and records it. badRef is
// the rule broken by opening a turn that left no hidden piece of r
// (GM-3 in an answer, GM-6 in a claim); where reports a point that is not
// where this opening may be (outside the announced line, off the claimed
// lines). The caller has copied g.turns.
func (g *gomokuRules) openHidden(r Role, seq uint64, o GomokuPieceOpening, badRef string, where func(engine.Point) error) (engine.Point, error) {
	k := o.Move
	var t *gomokuTurn
	switch {
	case k >= 1 && k <= len(g.turns) && g.turns[k-1].mover == r &&
		g.turns[k-1].outcome == gomoku.PlacedHidden && g.turns[k-1].point == engine.NoPoint:
		t = &g.turns[k-1]
	case k == g.move && g.phase == gomoku.PhaseDeclare && g.cur.mover == r &&
		g.cur.outcome == gomoku.PlacedHidden && g.cur.point == engine.NoPoint:
		t = &g.cur
	default:
		return engine.NoPoint, violation(r, seq, badRef, "opened move %d, which placed no hidden piece of its own", k)
	}
	p, err := g.openPoint(r, seq, k, t.commitment, o.Opening)
	if err != nil {
		return p, err
	}
	if err := where(p); err != nil {
		return p, err
	}
	v := p.Vertex(g.size)
	switch {
	case !t.line.Contains(g.size, p):
		return p, violation(r, seq, "GM-3", "move %d announced %s for a piece at %s", k, t.line.Format(g.size), v)
	case int(g.points[p].revealedAt) < k:
		return p, violation(r, seq, "GM-4", "move %d placed a piece on %s, revealed in move %d", k, v, g.points[p].revealedAt)
	case g.points[p].piece[r] >= 0:
		j := int(g.points[p].piece[r])
		return p, violation(r, seq, "GM-4", "placed a piece on %s, where it had one already (moves %d and %d)", v, min(j, k), max(j, k))
	}
	g.points[p].piece[r] = int16(k)
	g.points[p].revealedAt = min(g.points[p].revealedAt, int16(g.move))
	g.hidden[r]--
	g.shown[r]++
	t.point = p
	return p, nil
}

func (g *gomokuRules) applyResponse(from Role, seq uint64, body json.RawMessage) ([]Event, error) {
	var b GomokuOpeningsBody
	if err := decodeBody(body, &b); err != nil {
		return nil, violation(from, seq, "T-10", "%v", err)
	}
	if len(b.Openings) > 0 {
		g.turns = slices.Clone(g.turns)
	}
	line := g.cur.line
	inLine := func(p engine.Point) error {
		if !line.Contains(g.size, p) {
			return violation(from, seq, "GM-3", "revealed %s, outside the announced %s", p.Vertex(g.size), line.Format(g.size))
		}
		return nil
	}
	revealed := make([]engine.Point, 0, len(b.Openings))
	openings := make([]gomoku.Opening, 0, len(b.Openings))
	for _, o := range b.Openings {
		p, err := g.openHidden(from, seq, o, "GM-3", inLine)
		if err != nil {
			return nil, err
		}
		revealed = append(revealed, p)
		openings = append(openings, gomoku.Opening{Move: o.Move, Point: p})
	}
	slices.Sort(revealed)
	g.cur.revealed = revealed
	if len(revealed) > 0 {
		g.phase = gomoku.PhaseReveal
	} else {
		g.cur.outcome = gomoku.PlacedHidden
		g.hidden[g.mover]++
		g.phase = gomoku.PhaseDeclare
	}
	return g.logged(from, gomoku.Event{Kind: gomoku.EventResponse, Openings: openings}), nil
}

func (g *gomokuRules) applyReveal(from Role, seq uint64, body json.RawMessage) ([]Event, error) {
	var b OpenBody
	if err := decodeBody(body, &b); err != nil {
		return nil, violation(from, seq, "T-10", "%v", err)
	}
	p, err := g.openPoint(from, seq, g.move, g.cur.commitment, b.Opening)
	if err != nil {
		return nil, err
	}
	v := p.Vertex(g.size)
	if !g.cur.line.Contains(g.size, p) {
		return nil, violation(from, seq, "GM-3", "committed to %s and announced %s", v, g.cur.line.Format(g.size))
	}
	if at := int(g.points[p].revealedAt); at < g.move {
		return nil, violation(from, seq, "GM-4", "committed to %s, revealed in move %d", v, at)
	}
	g.cur.point = p
	events := g.logged(from, gomoku.Event{Kind: gomoku.EventReveal, Point: p})
	if slices.Contains(g.cur.revealed, p) {
		g.finish(gomoku.Failed)
		g.passes = 0
		g.nextTurn()
		return events, nil
	}
	g.points[p].piece[from] = int16(g.move)
	g.points[p].revealedAt = int16(g.move)
	g.shown[from]++
	g.cur.outcome = gomoku.PlacedRevealed
	g.phase = gomoku.PhaseDeclare
	return events, nil
}

// parseFive reads a window of five.
func parseFive(size int, b GomokuFiveBody) (gomoku.Five, error) {
	p, err := parseBodyPoint(size, b.Start)
	if err != nil {
		return gomoku.Five{}, err
	}
	for _, d := range []gomoku.Direction{gomoku.Horizontal, gomoku.Vertical, gomoku.Diagonal, gomoku.AntiDiagonal} {
		if d.String() == b.Dir {
			return gomoku.Five{Start: p, Dir: d}, nil
		}
	}
	return gomoku.Five{}, fmt.Errorf("bad direction %q", b.Dir)
}

// fiveBody writes a window of five.
func fiveBody(size int, f gomoku.Five) GomokuFiveBody {
	return GomokuFiveBody{Start: f.Start.Vertex(size), Dir: f.Dir.String()}
}

// known returns a board with role r's known pieces in its colour.
func (g *gomokuRules) known(r Role) engine.Board {
	b, _ := engine.NewBoard(g.size)
	c := g.colorOf(r)
	for p := engine.Point(0); int(p) < g.size*g.size; p++ {
		if g.points[p].piece[r] >= 0 {
			b.Set(p, c)
		}
	}
	return b
}

func (g *gomokuRules) applyDeclare(from Role, seq uint64, body json.RawMessage) ([]Event, error) {
	var b GomokuDeclareBody
	if err := decodeBody(body, &b); err != nil {
		return nil, violation(from, seq, "T-10", "%v", err)
	}
	d := gomoku.Declaration{Five: b.Five, Claim: b.Claim}
	switch {
	case !b.Claim && (len(b.Lines) > 0 || len(b.Openings) > 0):
		return nil, violation(from, seq, "T-10", "a declaration without a claim names lines or opens pieces")
	case b.Claim && len(b.Lines) != 2:
		return nil, violation(from, seq, "T-10", "a win claim names %d lines (want 2)", len(b.Lines))
	}
	for i, lb := range b.Lines {
		f, err := parseFive(g.size, lb)
		if err != nil {
			return nil, violation(from, seq, "T-10", "claimed line %d: %v", i+1, err)
		}
		d.Lines[i] = f
	}
	if n := g.hidden[from] + g.shown[from]; n > g.size*g.size {
		return nil, violation(from, seq, "GM-4", "has %d pieces on %d points", n, g.size*g.size)
	}
	var openings []gomoku.Opening
	if d.Claim {
		var onLines [engine.MaxPoints]bool
		for i, f := range d.Lines {
			ps, ok := f.Points(g.size)
			if !ok {
				return nil, violation(from, seq, "GM-6", "false win claim: line %d (%s) is not a window of five of the board", i+1, f.Format(g.size))
			}
			for _, p := range ps {
				onLines[p] = true
			}
		}
		if n := d.Lines[0].Shared(g.size, d.Lines[1]); n > 1 {
			return nil, violation(from, seq, "GM-6", "false win claim: %s and %s share %d pieces", d.Lines[0].Format(g.size), d.Lines[1].Format(g.size), n)
		}
		if len(b.Openings) > 0 {
			g.turns = slices.Clone(g.turns)
		}
		onClaim := func(p engine.Point) error {
			if !onLines[p] {
				return violation(from, seq, "GM-6", "opened %s, not on the claimed lines", p.Vertex(g.size))
			}
			return nil
		}
		for _, o := range b.Openings {
			p, err := g.openHidden(from, seq, o, "GM-6", onClaim)
			if err != nil {
				return nil, err
			}
			openings = append(openings, gomoku.Opening{Move: o.Move, Point: p})
		}
		if err := gomoku.CheckDoubleFive(g.known(from), g.colorOf(from), d.Lines); err != nil {
			return nil, violation(from, seq, "GM-6", "false win claim: %v", err)
		}
	}
	switch {
	case d.Five && g.five[from]:
		return nil, violation(from, seq, "GM-5", "announced five again (its first five came earlier)")
	case !d.Five && !g.five[from] && gomoku.HasFive(g.known(from), g.colorOf(from)):
		return nil, violation(from, seq, "GM-5", "has a line of five of revealed pieces and never announced five")
	}
	g.five[from] = g.five[from] || d.Five
	g.cur.declaration = d
	g.finish(g.cur.outcome)
	g.passes = 0
	if d.Claim {
		g.end(engine.Result{Winner: g.colorOf(from), By: engine.ByWin})
	} else {
		g.nextTurn()
	}
	return g.logged(from, gomoku.Event{Kind: gomoku.EventDeclare, Declaration: d, Openings: openings}), nil
}

// closed returns the turns of role r whose commitment is still closed.
func (g *gomokuRules) closed(r Role) []int {
	var ks []int
	for i, t := range g.turns {
		if t.mover == r && !t.pass && !t.noLegal && t.point == engine.NoPoint {
			ks = append(ks, i+1)
		}
	}
	return ks
}

func (g *gomokuRules) applyOpenAll(from Role, seq uint64, body json.RawMessage) ([]Event, error) {
	var b GomokuOpeningsBody
	if err := decodeBody(body, &b); err != nil {
		return nil, violation(from, seq, "T-10", "%v", err)
	}
	g.turns = slices.Clone(g.turns)
	openings := make([]gomoku.Opening, 0, len(b.Openings))
	curDue := g.resigned && g.curPending(from)
	for _, o := range b.Openings {
		k := o.Move
		if curDue && k == g.move && g.curPoint == engine.NoPoint {
			// The turn under way at a resignation (GM-D23): its point is
			// checked at the audit, once every point is known.
			p, err := g.openPoint(from, seq, k, g.cur.commitment, o.Opening)
			if err != nil {
				return nil, err
			}
			g.curPoint = p
			openings = append(openings, gomoku.Opening{Move: k, Point: p})
			continue
		}
		if k < 1 || k > len(g.turns) || g.turns[k-1].mover != from || g.turns[k-1].pass || g.turns[k-1].noLegal || g.turns[k-1].point != engine.NoPoint {
			return nil, violation(from, seq, "GM-8", "opened move %d, which is no closed commitment of its own", k)
		}
		p, err := g.openPoint(from, seq, k, g.turns[k-1].commitment, o.Opening)
		if err != nil {
			return nil, err
		}
		g.turns[k-1].point = p
		openings = append(openings, gomoku.Opening{Move: k, Point: p})
	}
	if left := g.closed(from); len(left) > 0 {
		return nil, violation(from, seq, "GM-8", "did not open the commitment of move %d", left[0])
	}
	if curDue && g.curPoint == engine.NoPoint {
		return nil, violation(from, seq, "GM-8", "did not open the commitment of move %d, under way at the resignation", g.move)
	}
	g.opened[from] = true
	events := []Event{EventGomokuOpened{From: from, Openings: openings}}
	if !g.opened[from.Other()] {
		return events, nil
	}
	rec := g.gomokuRecord()
	err := gomoku.Audit(rec)
	if err == nil {
		err = g.auditTurnUnderWay()
	}
	var gv gomoku.Violation
	switch {
	case err == nil:
	case errors.As(err, &gv):
		g.audit = &gv
		g.violation = &Violation{Accused: g.roleOf(gv.Player), Rule: gv.Rule, Seq: -1, Detail: "audit: " + gv.Error(), Err: gv}
	default:
		// The machine builds only records that are games; this cannot
		// happen, but if it did the record would prove nothing.
		return nil, violation(from, seq, "GM-8", "the game does not audit: %v", err)
	}
	g.record = &rec
	events = append(events, EventGomokuAudited{Record: rec, Violation: g.audit})
	if g.violation != nil {
		events = append(events, EventViolation{Violation: g.violation})
	}
	return events, nil
}

// auditTurnUnderWay checks the commitment of the turn a resignation cut
// short (GM-D23), once every point is known: the point must lie in the
// line its mover announced (GM-3), and not on a point revealed before
// this turn nor on a piece of its own (GM-4). The turn is not in the
// record: it placed nothing for good, and its mover never declared.
func (g *gomokuRules) auditTurnUnderWay() error {
	p := g.curPoint
	if !g.resigned || p == engine.NoPoint {
		return nil
	}
	r, k := g.cur.mover, g.move
	bad := func(rule, format string, args ...any) error {
		return gomoku.Violation{Player: g.colorOf(r), Rule: rule, Move: k, Detail: fmt.Sprintf(format, args...)}
	}
	v := p.Vertex(g.size)
	if g.phase != gomoku.PhaseAnnounce && !g.cur.line.Contains(g.size, p) {
		return bad("GM-3", "committed to %s and announced %s (the turn under way at the resignation)", v, g.cur.line.Format(g.size))
	}
	if at := int(g.points[p].revealedAt); at < k {
		return bad("GM-4", "committed to %s, revealed in move %d (the turn under way at the resignation)", v, at)
	}
	own := g.colorOf(r) == gomoku.X && p == g.opening
	for j, t := range g.turns {
		own = own || t.mover == r && t.point == p && (t.outcome == gomoku.PlacedHidden || t.outcome == gomoku.PlacedRevealed) && j+1 < k
	}
	if own {
		return bad("GM-4", "committed to %s, where it has a piece already (the turn under way at the resignation)", v)
	}
	return nil
}

// gomokuRecord returns the record of the game with every commitment
// opened, for the audit.
func (g *gomokuRules) gomokuRecord() gomoku.Record {
	rec := gomoku.Record{Size: g.size, Opening: g.opening, InviteeChoice: g.choice, Turns: make([]gomoku.Turn, len(g.turns))}
	for i, t := range g.turns {
		rec.Turns[i] = gomoku.Turn{Pass: t.pass, NoLegalPoint: t.noLegal, Point: t.point, Line: t.line,
			Revealed: slices.Clone(t.revealed), Declaration: t.declaration}
	}
	return rec
}
