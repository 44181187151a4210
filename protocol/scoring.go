package protocol

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/kakure/kakure/engine"
)

// Kinds of the scoring phase (GO-4), shared by the variants counted by area.
const (
	// KindMark proposes a set of dead stones (whole chains).
	KindMark Kind = "mark"
	// KindAgree accepts the other player's proposal; it repeats it.
	KindAgree Kind = "agree"
)

// MoveBody is one move: a GTP vertex or "pass". In a game with a time
// control (CLK-D8) ThinkMS is the mover's own measurement of its think
// time in milliseconds, and ChargeMS, when not 0, the think time the
// mover's measurement settles the other's last move at (more than that
// move claimed, CLK-D7). Both are absent without a clock, so records of
// games without one read as before.
type MoveBody struct {
	Point    string `json:"point"`
	ThinkMS  int64  `json:"think_ms,omitempty"`
	ChargeMS int64  `json:"charge_ms,omitempty"`
}

// MarkBody lists dead stones as GTP vertices.
type MarkBody struct {
	Dead []string `json:"dead"`
}

// Scoring is the dead-stone agreement of GO-4: after two passes the player
// to move proposes a marking; the other accepts it, counters it, or
// resumes play with a move.
type Scoring struct {
	Active      bool
	HasProposal bool
	Proposer    Role
	Proposal    engine.Marking
	Agreed      bool
}

// Start opens the phase.
func (s *Scoring) Start() { *s = Scoring{Active: true} }

// Expected returns who sends next given the role to move when play
// stopped.
func (s *Scoring) Expected(toMove Role) (Role, []Kind) {
	if !s.HasProposal {
		return toMove, []Kind{KindMark, KindMove}
	}
	return s.Proposer.Other(), []Kind{KindAgree, KindMark, KindMove}
}

// ParseBodyPoint reads a point of a message body (or of a committed
// value) in its one canonical form, as Point.Vertex writes it: an upper
// case column letter and a row ("D4"), or "pass". "d4", "PASS" or "D04"
// name the same point but are refused: a body has one form, so that two
// readers never disagree on what was signed.
func ParseBodyPoint(size int, s string) (engine.Point, error) {
	p, err := engine.ParseVertex(size, s)
	if err != nil {
		return engine.NoPoint, err
	}
	if p.Vertex(size) != s {
		return engine.NoPoint, fmt.Errorf("%w: %q is not in its canonical form %q", engine.ErrBadVertex, s, p.Vertex(size))
	}
	return p, nil
}

// parsePoints reads a list of vertices on a board of side size.
func parsePoints(size int, vs []string) ([]engine.Point, error) {
	ps := make([]engine.Point, 0, len(vs))
	for _, v := range vs {
		p, err := ParseBodyPoint(size, v)
		if err != nil || p == engine.Pass {
			return nil, errBadVertex(v)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// Apply handles a mark or agree message on board b. It returns an event
// for the caller.
func (s *Scoring) Apply(b engine.Board, from Role, seq uint64, kind Kind, body json.RawMessage) ([]Event, error) {
	var mb MarkBody
	if err := DecodeBody(body, &mb); err != nil {
		return nil, NewViolation(from, seq, "T-10", "%v", err)
	}
	ps, err := parsePoints(b.Size(), mb.Dead)
	if err != nil {
		return nil, NewViolation(from, seq, "GO-4", "%v", err)
	}
	for _, p := range ps {
		if b.At(p) == engine.Empty {
			return nil, NewViolation(from, seq, "GO-4", "marks the empty point %s dead", p.Vertex(b.Size()))
		}
	}
	m := engine.MarkingOf(b, ps)
	switch kind {
	case KindMark:
		s.HasProposal, s.Proposer, s.Proposal = true, from, m
		return []Event{EventScoring{Proposer: from, Dead: m.Dead(b)}}, nil
	case KindAgree:
		if !slices.Equal(m.Dead(b), s.Proposal.Dead(b)) {
			return nil, NewViolation(from, seq, "GO-4", "agrees to a marking that was not proposed")
		}
		s.Agreed = true
		return nil, nil
	}
	return nil, NewViolation(from, seq, "T-3", "unexpected %s", kind)
}

// WireMarking writes a marking in wire form.
func WireMarking(b engine.Board, dead []engine.Point) MarkBody {
	m := engine.MarkingOf(b, dead)
	vs := []string{}
	for _, p := range m.Dead(b) {
		vs = append(vs, p.Vertex(b.Size()))
	}
	return MarkBody{Dead: vs}
}

// errBadVertex reports a vertex a peer sent that names no point.
type errBadVertex string

func (e errBadVertex) Error() string { return fmt.Sprintf("bad vertex %q", string(e)) }
