package session_test

import (
	"errors"
	"testing"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// These tests drive the public gomoku machine with hand-made messages, as
// Verify and both peers run it: each table case is a game script, and the
// case says which rule its last message breaks at once, or which rule the
// audit at the end finds broken (GM-8).

// gscript is a game being scripted: the machine and the openings of every
// commitment made so far.
type gscript struct {
	t     *testing.T
	m     *protocol.Machine
	seq   [2]uint64
	opens [2]map[int]commit.Opening
}

// gstep makes one message of the script.
type gstep func(s *gscript) (protocol.Role, protocol.Kind, any)

const (
	inv = protocol.Inviter
	ivt = protocol.Invitee
)

func newGScript(t *testing.T) *gscript {
	t.Helper()
	id, err := protocol.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	s := &gscript{t: t, m: protocol.NewMachine(id), opens: [2]map[int]commit.Opening{{}, {}}}
	o, _ := gomokuOpts.Normalize()
	s.must(inv, protocol.KindInvite, protocol.InviteBody{Version: protocol.Version, Options: protocol.OptionsToBody(o)})
	s.must(ivt, protocol.KindAccept, struct{}{})
	var toss [2]commit.Opening
	for r := range 2 {
		c, op, err := commit.New("kakure/toss/colours", id[:], uint8(r), 0, make([]byte, 32))
		if err != nil {
			t.Fatal(err)
		}
		toss[r] = op
		s.must(protocol.Role(r), protocol.KindTossCommit, protocol.CommitBody{Commitment: c})
	}
	for r := range 2 {
		s.must(protocol.Role(r), protocol.KindTossReveal, protocol.OpenBody{Opening: toss[r]})
	}
	return s
}

func (s *gscript) apply(r protocol.Role, kind protocol.Kind, body any) ([]protocol.Event, error) {
	msg := protocol.Message{Game: s.m.Game, From: r, Seq: s.seq[r], Kind: kind, Body: session.MustEncodeBody(body)}
	events, err := s.m.Apply(&msg)
	if err == nil {
		s.seq[r]++
	}
	return events, err
}

func (s *gscript) must(r protocol.Role, kind protocol.Kind, body any) []protocol.Event {
	s.t.Helper()
	events, err := s.apply(r, kind, body)
	if err != nil {
		s.t.Fatalf("%s %s refused: %v", r, kind, err)
	}
	return events
}

func (s *gscript) piece(r protocol.Role, move int) gomokurules.PieceOpening {
	o, ok := s.opens[r][move]
	if !ok {
		s.t.Fatalf("no commitment of the %s at move %d in the script", r, move)
	}
	return gomokurules.PieceOpening{Move: move, Opening: o}
}

// Steps.

func opening(v string) gstep {
	return func(*gscript) (protocol.Role, protocol.Kind, any) {
		return inv, gomokurules.KindOpening, gomokurules.PointBody{Point: v}
	}
}

func side(x string) gstep {
	return func(*gscript) (protocol.Role, protocol.Kind, any) {
		return ivt, gomokurules.KindSide, gomokurules.SideBody{Side: x}
	}
}

// commitTo commits r to the value v (a vertex, or anything) at move.
func commitTo(r protocol.Role, move int, v string) gstep {
	return func(s *gscript) (protocol.Role, protocol.Kind, any) {
		c, o, err := commit.New(gomokurules.PieceDomain, s.m.Game[:], uint8(r), uint32(move), []byte(v))
		if err != nil {
			s.t.Fatal(err)
		}
		s.opens[r][move] = o
		return r, gomokurules.KindCommit, protocol.CommitBody{Commitment: c}
	}
}

func announce(r protocol.Role, line string, index int) gstep {
	return func(*gscript) (protocol.Role, protocol.Kind, any) {
		return r, gomokurules.KindAnnounce, gomokurules.LineBody{Line: line, Index: index}
	}
}

// respond answers for r with the openings of its moves.
func respond(r protocol.Role, moves ...int) gstep {
	return func(s *gscript) (protocol.Role, protocol.Kind, any) {
		b := gomokurules.OpeningsBody{Openings: []gomokurules.PieceOpening{}}
		for _, k := range moves {
			b.Openings = append(b.Openings, s.piece(r, k))
		}
		return r, gomokurules.KindResponse, b
	}
}

// respondWith answers for r with the opening of from's commitment of move
// k presented as move as.
func respondWith(r protocol.Role, k, as int, value string) gstep {
	return func(s *gscript) (protocol.Role, protocol.Kind, any) {
		o := s.piece(r, k)
		o.Move = as
		if value != "" {
			o.Opening.Value = []byte(value)
		}
		return r, gomokurules.KindResponse, gomokurules.OpeningsBody{Openings: []gomokurules.PieceOpening{o}}
	}
}

// reveal opens r's committed point of move; a non-empty value replaces the
// committed one (a lie).
func reveal(r protocol.Role, move int, value string) gstep {
	return func(s *gscript) (protocol.Role, protocol.Kind, any) {
		o := s.piece(r, move).Opening
		if value != "" {
			o.Value = []byte(value)
		}
		return r, gomokurules.KindReveal, protocol.OpenBody{Opening: o}
	}
}

func declare(r protocol.Role, five bool) gstep {
	return func(*gscript) (protocol.Role, protocol.Kind, any) {
		return r, gomokurules.KindDeclare, gomokurules.DeclareBody{Five: five}
	}
}

// claim claims the win for r with two windows (start vertex, direction)
// and the openings of its moves.
func claim(r protocol.Role, five bool, l1, l2 gomokurules.FiveBody, moves ...int) gstep {
	return func(s *gscript) (protocol.Role, protocol.Kind, any) {
		b := gomokurules.DeclareBody{Five: five, Claim: true, Lines: []gomokurules.FiveBody{l1, l2}}
		for _, k := range moves {
			b.Openings = append(b.Openings, s.piece(r, k))
		}
		return r, gomokurules.KindDeclare, b
	}
}

func pass(r protocol.Role) gstep {
	return func(*gscript) (protocol.Role, protocol.Kind, any) {
		return r, gomokurules.KindPass, struct{}{}
	}
}

func noLegalPoint(r protocol.Role) gstep {
	return func(*gscript) (protocol.Role, protocol.Kind, any) {
		return r, gomokurules.KindNoLegalPoint, struct{}{}
	}
}

// openAll opens r's commitments of moves at the end; a non-empty value
// replaces the first one's.
func openAll(r protocol.Role, value string, moves ...int) gstep {
	return func(s *gscript) (protocol.Role, protocol.Kind, any) {
		b := gomokurules.OpeningsBody{Openings: []gomokurules.PieceOpening{}}
		for i, k := range moves {
			o := s.piece(r, k)
			if i == 0 && value != "" {
				o.Opening.Value = []byte(value)
			}
			b.Openings = append(b.Openings, o)
		}
		return r, gomokurules.KindOpenAll, b
	}
}

// hidden is a whole turn of r that places a piece at v, announces line and
// stands hidden.
func hidden(r protocol.Role, move int, v, line string, index int, five bool) []gstep {
	return []gstep{commitTo(r, move, v), announce(r, line, index), respond(r.Other()), declare(r, five)}
}

func steps(parts ...[]gstep) []gstep {
	var all []gstep
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}

func one(s ...gstep) []gstep { return s }

// The invitee chooses O: it moves at odd turns, the inviter (X, Black, who
// owns the opening piece on E5) at even ones.
var gStart = one(opening("E5"), side("o"))

// gBase: O hides A1; X commits B1 on row 1, O reveals A1, X's B1 stands
// revealed; O hides A2 on column A; two passes; the openings.
func gBase() []gstep {
	return steps(gStart,
		hidden(ivt, 1, "A1", "row", 0, false),
		one(commitTo(inv, 2, "B1"), announce(inv, "row", 0), respond(ivt, 1), reveal(inv, 2, ""), declare(inv, false)),
		hidden(ivt, 3, "A2", "column", 0, false),
		one(pass(inv), pass(ivt)))
}

// gomokuCase is a scripted game. With rule set, either its last message is
// refused at once as a violation of rule by accused, or (audit) every
// message is accepted and the audit at the end finds the violation.
type gomokuCase struct {
	name    string
	steps   []gstep
	rule    string
	accused protocol.Role
	audit   bool
	// result is the expected result of a game without violation.
	result string
}

func runGomokuCases(t *testing.T, cases []gomokuCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newGScript(t)
			last := len(tc.steps) - 1
			for i, st := range tc.steps {
				r, kind, body := st(s)
				if i == last && tc.rule != "" && !tc.audit {
					before, kinds := s.m.Expected()
					_, err := s.apply(r, kind, body)
					var v *protocol.Violation
					if !errors.As(err, &v) {
						t.Fatalf("%s %s: got %v, want a violation of %s", r, kind, err, tc.rule)
					}
					if v.Rule != tc.rule || v.Accused != tc.accused {
						t.Errorf("violation %v, want %s by the %s", v, tc.rule, tc.accused)
					}
					if after, kinds2 := s.m.Expected(); after != before || len(kinds2) != len(kinds) || s.m.Outcome != nil {
						t.Errorf("the refused message changed the machine")
					}
					return
				}
				s.must(r, kind, body)
			}
			if s.m.Phase != protocol.PhaseConfirm || s.m.Outcome == nil {
				t.Fatalf("script ended in phase %s without an outcome", s.m.Phase)
			}
			out := s.m.Outcome
			if tc.rule == "" {
				if out.Violation != nil || out.Result.String() != tc.result {
					t.Fatalf("outcome %v (violation %v), want %s", out.Result, out.Violation, tc.result)
				}
				return
			}
			v := out.Violation
			if v == nil || v.Rule != tc.rule || v.Accused != tc.accused {
				t.Fatalf("audit found %v, want %s by the %s", v, tc.rule, tc.accused)
			}
			if want := s.m.Colors[tc.accused.Other()]; out.Result != (engine.Result{Winner: want, By: engine.ByForfeit}) {
				t.Errorf("result %v, want a forfeit win for %v", out.Result, want)
			}
		})
	}
}

func TestGM2GomokuPie(t *testing.T) {
	s := newGScript(t)
	if s.m.Phase != protocol.PhasePlay || s.m.Colors != [2]engine.Color{} {
		t.Fatalf("after the toss: phase %s, colours %v; want play with no colours yet", s.m.Phase, s.m.Colors)
	}
	s.must(inv, gomokurules.KindOpening, gomokurules.PointBody{Point: "C3"})
	if s.m.Colors != [2]engine.Color{} {
		t.Fatalf("colours %v before the side is chosen", s.m.Colors)
	}
	events := s.must(ivt, gomokurules.KindSide, gomokurules.SideBody{Side: "x"})
	if want := [2]engine.Color{gomoku.O, gomoku.X}; s.m.Colors != want {
		t.Errorf("colours %v after the invitee chose x, want %v", s.m.Colors, want)
	}
	var colors bool
	for _, e := range events {
		if ec, ok := e.(protocol.EventColors); ok && ec.Colors == s.m.Colors {
			colors = true
		}
	}
	if !colors {
		t.Errorf("no EventColors among %v", events)
	}
	// O moves first: the inviter.
	if r, kinds := s.m.Expected(); r != inv || kinds[0] != gomokurules.KindCommit {
		t.Errorf("expected %v from the %s, want a commitment of the inviter (O)", kinds, r)
	}
	runGomokuCases(t, []gomokuCase{
		{name: "GM-2 the invitee chooses neither x nor o", steps: one(opening("E5"), side("z")), rule: "GM-2", accused: ivt},
		{name: "GM-2 the opening piece is a pass", steps: one(opening("pass")), rule: "GM-2", accused: inv},
		{name: "GM-2 the opening piece is off the board", steps: one(opening("K10")), rule: "T-10", accused: inv},
	})
}

func TestGM3GomokuTurn(t *testing.T) {
	runGomokuCases(t, []gomokuCase{
		{name: "GM-3 honest turns and two passes: a draw", steps: steps(gBase(), one(openAll(inv, ""), openAll(ivt, "", 3))), result: "0"},
		{name: "GM-3 the move fails on a just revealed point", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, false),
			one(commitTo(inv, 2, "A1"), announce(inv, "column", 0), respond(ivt, 1), reveal(inv, 2, "")),
			// The failed move is over: O commits next.
			hidden(ivt, 3, "B2", "row", 1, false),
			one(pass(inv), pass(ivt), openAll(inv, ""), openAll(ivt, "", 3))), result: "0"},
		{name: "GM-3 an answer outside the announced line", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, false),
			one(commitTo(inv, 2, "B1"), announce(inv, "column", 1), respond(ivt, 1))), rule: "GM-3", accused: ivt},
		{name: "GM-3 an answer opens a turn that placed no hidden piece of its own", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, false),
			one(commitTo(inv, 2, "B1"), announce(inv, "row", 0), respondWith(ivt, 1, 2, ""))), rule: "GM-3", accused: ivt},
		{name: "GM-3 an answer opens the same piece twice", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, false),
			one(commitTo(inv, 2, "B1"), announce(inv, "row", 0), respond(ivt, 1, 1))), rule: "GM-3", accused: ivt},
		{name: "GM-3 a revealed committed point off the announced line", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, false),
			one(commitTo(inv, 2, "B2"), announce(inv, "row", 0), respond(ivt, 1), reveal(inv, 2, ""))), rule: "GM-3", accused: inv},
		{name: "GM-3 an answer reveals a piece whose own turn announced another line", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 1, false),
			one(commitTo(inv, 2, "B1"), announce(inv, "row", 0), respond(ivt, 1))), rule: "GM-3", accused: ivt},
		{name: "GM-3 a commitment to something that is no point", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, false),
			one(commitTo(inv, 2, "Z99"), announce(inv, "row", 0), respond(ivt, 1), reveal(inv, 2, ""))), rule: "GM-3", accused: inv},
		{name: "GM-3 a line that is no row of the board", steps: steps(gStart,
			one(commitTo(ivt, 1, "A1"), announce(ivt, "row", 9))), rule: "GM-3", accused: ivt},
		{name: "GM-3 a row lie stays hidden until the audit", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 1, false),
			hidden(inv, 2, "B1", "row", 0, false),
			one(pass(ivt), pass(inv), openAll(inv, "", 2), openAll(ivt, "", 1))), rule: "GM-3", accused: ivt, audit: true},
	})
}

func TestGM4GomokuPlacement(t *testing.T) {
	runGomokuCases(t, []gomokuCase{
		{name: "GM-4 a placement on a hidden piece of the opponent is legal", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, false),
			hidden(inv, 2, "A1", "column", 0, false),
			one(pass(ivt), pass(inv), openAll(inv, "", 2), openAll(ivt, "", 1))), result: "0"},
		{name: "GM-4 a revealed committed point on a revealed point", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, false),
			hidden(inv, 2, "D5", "column", 3, false),
			one(commitTo(ivt, 3, "E5"), announce(ivt, "row", 4), respond(inv, 2), reveal(ivt, 3, ""))), rule: "GM-4", accused: ivt},
		{name: "GM-4 an answer reveals a piece placed on a revealed point", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, false),
			hidden(inv, 2, "E5", "row", 4, false),
			one(commitTo(ivt, 3, "A5"), announce(ivt, "row", 4), respond(inv, 2))), rule: "GM-4", accused: inv},
		{name: "GM-4 two hidden pieces on one point, found by the audit", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, false),
			one(pass(inv)),
			hidden(ivt, 3, "A1", "column", 0, false),
			one(pass(inv), pass(ivt), openAll(inv, ""), openAll(ivt, "", 1, 3))), rule: "GM-4", accused: ivt, audit: true},
		{name: "GM-4 a hidden piece on a revealed point, found by the audit", steps: steps(gBase()[:11],
			hidden(ivt, 3, "B1", "row", 0, false),
			one(pass(inv), pass(ivt), openAll(inv, ""), openAll(ivt, "", 3))), rule: "GM-4", accused: ivt, audit: true},
	})
}

// fiveAndClaim: O hides A1..E1 (five at move 9) and A3..E3 while X passes,
// then claims with both rows.
func fiveAndClaim(five9, five19 bool, l1, l2 gomokurules.FiveBody, claimed ...int) []gstep {
	var all []gstep
	all = append(all, gStart...)
	cols := "ABCDE"
	for i := range 10 {
		move := 2*i + 1
		v := string(cols[i%5]) + map[bool]string{false: "1", true: "3"}[i >= 5]
		row := 0
		if i >= 5 {
			row = 2
		}
		if move == 19 {
			all = append(all, commitTo(ivt, move, v), announce(ivt, "row", row), respond(inv), claim(ivt, five19, l1, l2, claimed...))
			break
		}
		all = append(all, hidden(ivt, move, v, "row", row, move == 9 && five9)...)
		all = append(all, pass(inv))
	}
	return all
}

var (
	rowA1 = gomokurules.FiveBody{Start: "A1", Dir: "horizontal"}
	rowA3 = gomokurules.FiveBody{Start: "A3", Dir: "horizontal"}
	allO  = []int{1, 3, 5, 7, 9, 11, 13, 15, 17, 19}
)

func TestGM5GomokuFive(t *testing.T) {
	runGomokuCases(t, []gomokuCase{
		{name: "GM-5 five said when the first five is made", steps: steps(fiveAndClaim(true, false, rowA1, rowA3, allO...),
			one(openAll(inv, ""), openAll(ivt, ""))), result: "W+"},
		{name: "GM-5 a five said late, found by the audit", steps: steps(fiveAndClaim(false, true, rowA1, rowA3, allO...),
			one(openAll(inv, ""), openAll(ivt, ""))), rule: "GM-5", accused: ivt, audit: true},
		{name: "GM-5 a five of revealed pieces never said, at once", steps: fiveAndClaim(false, false, rowA1, rowA3, allO...), rule: "GM-5", accused: ivt},
		{name: "GM-5 a five said without a five, found by the audit", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, true),
			one(pass(inv), pass(ivt), openAll(inv, ""), openAll(ivt, "", 1))), rule: "GM-5", accused: ivt, audit: true},
		{name: "GM-5 a second five, at once", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, true),
			one(pass(inv)),
			hidden(ivt, 3, "A2", "row", 1, true)), rule: "GM-5", accused: ivt},
	})
}

func TestGM6GomokuClaim(t *testing.T) {
	runGomokuCases(t, []gomokuCase{
		{name: "GM-6 a true claim wins", steps: steps(fiveAndClaim(true, false, rowA1, rowA3, allO...),
			one(openAll(inv, ""), openAll(ivt, ""))), result: "W+"},
		{name: "GM-6 a claim of pieces that are not there", steps: steps(gStart,
			one(commitTo(ivt, 1, "A1"), announce(ivt, "row", 0), respond(inv), claim(ivt, false, rowA1, rowA3, 1))), rule: "GM-6", accused: ivt},
		{name: "GM-6 a claim whose lines share two pieces", steps: fiveAndClaim(true, false, rowA1,
			gomokurules.FiveBody{Start: "B1", Dir: "horizontal"}, allO...), rule: "GM-6", accused: ivt},
		{name: "GM-6 a claim with a line off the board", steps: fiveAndClaim(true, false, rowA1,
			gomokurules.FiveBody{Start: "F3", Dir: "horizontal"}, allO...), rule: "GM-6", accused: ivt},
		{name: "GM-6 a claim that does not open its hidden pieces", steps: fiveAndClaim(true, false, rowA1, rowA3, allO[:9]...), rule: "GM-6", accused: ivt},
		{name: "GM-6 a claim that opens a piece of no hidden turn", steps: steps(gStart,
			one(commitTo(ivt, 1, "A1"), announce(ivt, "row", 0), respond(inv), claim(ivt, false, rowA1, rowA3, 1, 1))), rule: "GM-6", accused: ivt},
	})
}

func TestGM7GomokuEnd(t *testing.T) {
	runGomokuCases(t, []gomokuCase{
		{name: "GM-7 two passes draw", steps: one(opening("E5"), side("x"), pass(inv), pass(ivt), openAll(inv, ""), openAll(ivt, "")), result: "0"},
		{name: "GM-7 a false declaration of no legal point, found by the audit", steps: one(opening("E5"), side("x"),
			noLegalPoint(inv), openAll(inv, ""), openAll(ivt, "")), rule: "GM-7", accused: inv, audit: true},
	})
}

func TestGM8GomokuOpenings(t *testing.T) {
	runGomokuCases(t, []gomokuCase{
		{name: "GM-8 the final openings leave a commitment closed", steps: steps(gBase(), one(openAll(inv, ""), openAll(ivt, ""))), rule: "GM-8", accused: ivt},
		{name: "GM-8 the final openings open a commitment of the opponent", steps: steps(gBase(), one(func(s *gscript) (protocol.Role, protocol.Kind, any) {
			return inv, gomokurules.KindOpenAll, gomokurules.OpeningsBody{Openings: []gomokurules.PieceOpening{s.piece(ivt, 3)}}
		})), rule: "GM-8", accused: inv},
		{name: "GM-8 the final openings open a commitment opened before", steps: steps(gBase(), one(openAll(inv, "", 2))), rule: "GM-8", accused: inv},
	})
}

func TestT5GomokuOpenings(t *testing.T) {
	runGomokuCases(t, []gomokuCase{
		{name: "T-5 an answer opens another point than committed", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, false),
			one(commitTo(inv, 2, "B1"), announce(inv, "row", 0), respondWith(ivt, 1, 1, "C1"))), rule: "T-5", accused: ivt},
		{name: "T-5 a revealed point other than committed", steps: steps(gStart,
			hidden(ivt, 1, "A1", "row", 0, false),
			one(commitTo(inv, 2, "B1"), announce(inv, "row", 0), respond(ivt, 1), reveal(inv, 2, "C1"))), rule: "T-5", accused: inv},
		{name: "T-5 a final opening of another point", steps: steps(gBase(), one(openAll(inv, ""), openAll(ivt, "B2", 3))), rule: "T-5", accused: ivt},
	})
}
