package protocol

import (
	"errors"
	"testing"

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
	msg := func(from Role, seq uint64, ack int64, kind Kind, body any) Message {
		raw, err := encodeBody(body)
		if err != nil {
			t.Fatal(err)
		}
		return Message{Game: GameID{1}, From: from, Seq: seq, Ack: ack, Kind: kind, Body: raw}
	}
	start := []Message{
		msg(Inviter, 0, -1, KindMove, MoveBody{Point: "C3"}),
		msg(Invitee, 0, 0, KindMove, MoveBody{Point: "D4"}),
		msg(Inviter, 1, 0, KindMove, MoveBody{Point: "E5"}),
	}
	request := msg(Inviter, 2, 0, KindUndoRequest, UndoBody{Move: 3})
	move := msg(Invitee, 1, 1, KindMove, MoveBody{Point: "F6"})
	run := func(order ...Message) (*Machine, error) {
		m := NewMachine(GameID{1})
		m.Options, m.Colors = o, [2]engine.Color{engine.Black, engine.White}
		v, err := newVariantRules[o.Variant](m)
		if err != nil {
			t.Fatal(err)
		}
		m.variant, m.Phase = v, PhasePlay
		for _, x := range append(append([]Message{}, start...), order...) {
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
	for name, m := range map[string]*Machine{"Black's": blacks, "White's": whites} {
		g := m.variant.(*goRules).game
		b := g.Board()
		if m.undo != nil || b.At(mustVertex(t, 7, "E5")) != engine.Black || b.At(mustVertex(t, 7, "F6")) != engine.White || g.ToMove() != engine.Black {
			t.Errorf("%s game: request %+v, E5 %v, F6 %v, %v to move", name, m.undo, b.At(mustVertex(t, 7, "E5")), b.At(mustVertex(t, 7, "F6")), g.ToMove())
		}
	}
	late := msg(Inviter, 2, 1, KindUndoRequest, UndoBody{Move: 3})
	_, err = run(move, late)
	var v *Violation
	if !errors.As(err, &v) || v.Rule != "T-3" || v.Accused != Inviter {
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
