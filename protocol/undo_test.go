package protocol_test

import (
	"errors"
	"github.com/kakure/kakure/protocol"
	_ "github.com/kakure/kakure/protocol/variants"
	"testing"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/engine"
)

// TestUNDOD1RequestCrossingAMove: Black asks to take back E5 while White,
// not having seen the request, plays F6. Black's program takes the
// request then the move (the request lapses), White's the move then the
// request (it crossed the move: kept without effect). Both reach the
// same game, with no request pending and no one blamed; the same request
// sent after seeing F6 is Black's violation (T-3).
func TestUNDOD1RequestCrossingAMove(t *testing.T) {
	o, err := engine.Options{Variant: engine.VariantGo, Size: 7}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	msg := func(from protocol.Role, seq uint64, ack int64, kind protocol.Kind, body any) protocol.Message {
		raw, err := protocol.EncodeBody(body)
		if err != nil {
			t.Fatal(err)
		}
		return protocol.Message{Game: protocol.GameID{1}, From: from, Seq: seq, Ack: ack, Kind: kind, Body: raw}
	}
	start := []protocol.Message{
		msg(protocol.Inviter, 0, -1, protocol.KindMove, protocol.MoveBody{Point: "C3"}),
		msg(protocol.Invitee, 0, 0, protocol.KindMove, protocol.MoveBody{Point: "D4"}),
		msg(protocol.Inviter, 1, 0, protocol.KindMove, protocol.MoveBody{Point: "E5"}),
	}
	request := msg(protocol.Inviter, 2, 0, protocol.KindUndoRequest, protocol.UndoBody{Move: 3})
	move := msg(protocol.Invitee, 1, 1, protocol.KindMove, protocol.MoveBody{Point: "F6"})
	run := func(order ...protocol.Message) (*protocol.Machine, error) {
		m := protocol.NewMachine(protocol.GameID{1})
		m.Options, m.Colors = o, [2]engine.Color{engine.Black, engine.White}
		v, err := protocol.NewVariantRules[o.Variant](m)
		if err != nil {
			t.Fatal(err)
		}
		m.Rules, m.Phase = v, protocol.PhasePlay
		for _, x := range append(append([]protocol.Message{}, start...), order...) {
			if _, err := m.Apply(&x); err != nil {
				return m, err
			}
		}
		return m, nil
	}
	blacks, err := run(request, move)
	if err != nil {
		t.Fatalf("Black's order: %v", err)
	}
	whites, err := run(move, request)
	if err != nil {
		t.Fatalf("White's order: %v", err)
	}
	for name, m := range map[string]*protocol.Machine{"Black's": blacks, "White's": whites} {
		g := m.Rules.(*gorules.Rules).Game
		b := g.Board()
		if m.Undo != nil || b.At(mustVertex(t, 7, "E5")) != engine.Black || b.At(mustVertex(t, 7, "F6")) != engine.White || g.ToMove() != engine.Black {
			t.Errorf("%s game: request %+v, E5 %v, F6 %v, %v to move", name, m.Undo, b.At(mustVertex(t, 7, "E5")), b.At(mustVertex(t, 7, "F6")), g.ToMove())
		}
	}
	late := msg(protocol.Inviter, 2, 1, protocol.KindUndoRequest, protocol.UndoBody{Move: 3})
	_, err = run(move, late)
	var v *protocol.Violation
	if !errors.As(err, &v) || v.Rule != "T-3" || v.Accused != protocol.Inviter {
		t.Errorf("a request of E5 after seeing F6: %v, want T-3 by the inviter", err)
	}
}

func mustVertex(t *testing.T, size int, v string) engine.Point {
	t.Helper()
	p, err := engine.ParseVertex(size, v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestUNDOD3TakesBackTheMoveAndItsAnswer (UNDO-D3): after White answered
// Black's E5 with F6, Black asks to take back both (move 3 and the
// answer, {"move":3,"moves":2}); White's acceptance takes both back in
// either program, Black to move again. A request of two moves whose first
// is not the sender's, one sent before the answer came (crossed, without
// effect), and one of another count are judged as UNDO-D1 judges
// requests; the body of one move reads as before (older records).
func TestUNDOD3TakesBackTheMoveAndItsAnswer(t *testing.T) {
	o, err := engine.Options{Variant: engine.VariantGo, Size: 7}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	msg := func(from protocol.Role, seq uint64, ack int64, kind protocol.Kind, body any) protocol.Message {
		raw, err := protocol.EncodeBody(body)
		if err != nil {
			t.Fatal(err)
		}
		return protocol.Message{Game: protocol.GameID{1}, From: from, Seq: seq, Ack: ack, Kind: kind, Body: raw}
	}
	start := []protocol.Message{
		msg(protocol.Inviter, 0, -1, protocol.KindMove, protocol.MoveBody{Point: "C3"}),
		msg(protocol.Invitee, 0, 0, protocol.KindMove, protocol.MoveBody{Point: "D4"}),
		msg(protocol.Inviter, 1, 0, protocol.KindMove, protocol.MoveBody{Point: "E5"}),
		msg(protocol.Invitee, 1, 1, protocol.KindMove, protocol.MoveBody{Point: "F6"}),
	}
	run := func(more ...protocol.Message) (*protocol.Machine, []protocol.Event, error) {
		m := protocol.NewMachine(protocol.GameID{1})
		m.Options, m.Colors = o, [2]engine.Color{engine.Black, engine.White}
		v, err := protocol.NewVariantRules[o.Variant](m)
		if err != nil {
			t.Fatal(err)
		}
		m.Rules, m.Phase = v, protocol.PhasePlay
		var events []protocol.Event
		for _, x := range append(append([]protocol.Message{}, start...), more...) {
			ev, err := m.Apply(&x)
			if err != nil {
				return m, events, err
			}
			events = append(events, ev...)
		}
		return m, events, nil
	}
	request := msg(protocol.Inviter, 2, 1, protocol.KindUndoRequest, protocol.UndoBody{Move: 3, Moves: 2})
	if raw := string(request.Body); raw != `{"move":3,"moves":2}` {
		t.Errorf("two-move body %s", raw)
	}
	if raw := string(msg(protocol.Inviter, 2, 1, protocol.KindUndoRequest, protocol.UndoBody{Move: 3}).Body); raw != `{"move":3}` {
		t.Errorf("one-move body %s, want the older form", raw)
	}
	m, events, err := run(request, msg(protocol.Invitee, 2, 2, protocol.KindUndoAccept, protocol.UndoBody{Move: 3, Moves: 2}))
	if err != nil {
		t.Fatalf("two-move undo: %v", err)
	}
	g := m.Rules.(*gorules.Rules).Game
	b := g.Board()
	if b.At(mustVertex(t, 7, "E5")) != engine.Empty || b.At(mustVertex(t, 7, "F6")) != engine.Empty ||
		b.At(mustVertex(t, 7, "D4")) != engine.White || g.ToMove() != engine.Black || m.Undo != nil {
		t.Errorf("after the undo: E5 %v, F6 %v, D4 %v, %v to move, request %+v",
			b.At(mustVertex(t, 7, "E5")), b.At(mustVertex(t, 7, "F6")), b.At(mustVertex(t, 7, "D4")), g.ToMove(), m.Undo)
	}
	want := []protocol.Event{protocol.EventUndoRequested{By: protocol.Inviter, Move: 3, Moves: 2}, protocol.EventUndone{By: protocol.Inviter, Move: 3, Moves: 2}}
	if got := events[len(events)-2:]; got[0] != want[0] || got[1] != want[1] {
		t.Errorf("events %+v, want %+v", got, want)
	}
	// Black plays again: the game goes on from move 3.
	if _, _, err := run(request, msg(protocol.Invitee, 2, 2, protocol.KindUndoAccept, protocol.UndoBody{Move: 3, Moves: 2}),
		msg(protocol.Inviter, 3, 2, protocol.KindMove, protocol.MoveBody{Point: "E5"})); err != nil {
		t.Errorf("Black's move after the undo: %v", err)
	}
	// A refusal leaves both moves; so does Black moving instead.
	for name, more := range map[string][]protocol.Message{
		"refused": {request, msg(protocol.Invitee, 2, 2, protocol.KindUndoDecline, protocol.UndoBody{Move: 3, Moves: 2})},
		"lapsed":  {request, msg(protocol.Inviter, 3, 1, protocol.KindMove, protocol.MoveBody{Point: "G7"})},
	} {
		m, _, err := run(more...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b := m.Rules.(*gorules.Rules).Game.Board()
		if b.At(mustVertex(t, 7, "E5")) != engine.Black || b.At(mustVertex(t, 7, "F6")) != engine.White || m.Undo != nil {
			t.Errorf("%s: E5 %v, F6 %v, request %+v", name, b.At(mustVertex(t, 7, "E5")), b.At(mustVertex(t, 7, "F6")), m.Undo)
		}
	}
	// An acceptance of one move answers no request of two.
	if _, _, err := run(request, msg(protocol.Invitee, 2, 2, protocol.KindUndoAccept, protocol.UndoBody{Move: 3})); !isViolation(err, "T-3", protocol.Invitee) {
		t.Errorf("one-move acceptance of a two-move request: %v, want T-3 by the invitee", err)
	}
	// White may not take back Black's E5 with its own F6.
	if _, _, err := run(msg(protocol.Invitee, 2, 1, protocol.KindUndoRequest, protocol.UndoBody{Move: 3, Moves: 2})); !isViolation(err, "T-3", protocol.Invitee) {
		t.Errorf("White asks to take back E5 and F6: %v, want T-3 by the invitee", err)
	}
	// Two moves from the wrong move.
	if _, _, err := run(msg(protocol.Inviter, 2, 1, protocol.KindUndoRequest, protocol.UndoBody{Move: 2, Moves: 2})); !isViolation(err, "T-3", protocol.Inviter) {
		t.Errorf("Black asks to take back moves 2 and 3: %v, want T-3 by the inviter", err)
	}
	// Counts other than two (or none) are malformed: one request, one body.
	for _, n := range []int{1, 3, -1} {
		if _, _, err := run(msg(protocol.Inviter, 2, 1, protocol.KindUndoRequest, protocol.UndoBody{Move: 3, Moves: n})); !isViolation(err, "T-10", protocol.Inviter) {
			t.Errorf("a request of %d moves: %v, want T-10 by the inviter", n, err)
		}
	}
	// The one-move request of E5, sent after F6 came, is still a violation
	// (UNDO-D1, as older records judged it).
	if _, _, err := run(msg(protocol.Inviter, 2, 1, protocol.KindUndoRequest, protocol.UndoBody{Move: 3})); !isViolation(err, "T-3", protocol.Inviter) {
		t.Errorf("a one-move request of E5 after F6: %v, want T-3 by the inviter", err)
	}
	// White asks to take back F6 while Black asks to take back E5 and F6:
	// the requests cross. Each program takes its own first and keeps the
	// other's without effect (it crossed a request); no one is blamed,
	// and Black's next move lapses what waits, so both games agree again.
	mine := msg(protocol.Inviter, 2, 1, protocol.KindUndoRequest, protocol.UndoBody{Move: 3, Moves: 2})
	theirs := msg(protocol.Invitee, 2, 1, protocol.KindUndoRequest, protocol.UndoBody{Move: 4})
	next := msg(protocol.Inviter, 3, 1, protocol.KindMove, protocol.MoveBody{Point: "G7"})
	for name, order := range map[string][]protocol.Message{"Black's": {mine, theirs, next}, "White's": {theirs, mine, next}} {
		m, _, err := run(order...)
		if err != nil {
			t.Fatalf("%s order: %v", name, err)
		}
		b := m.Rules.(*gorules.Rules).Game.Board()
		if m.Undo != nil || b.At(mustVertex(t, 7, "F6")) != engine.White || b.At(mustVertex(t, 7, "G7")) != engine.Black {
			t.Errorf("%s order: request %+v, F6 %v, G7 %v", name, m.Undo, b.At(mustVertex(t, 7, "F6")), b.At(mustVertex(t, 7, "G7")))
		}
	}
}

// isViolation reports whether err is a violation of rule by the accused.
func isViolation(err error, rule string, accused protocol.Role) bool {
	var v *protocol.Violation
	return errors.As(err, &v) && v.Rule == rule && v.Accused == accused
}
