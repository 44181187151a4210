package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/bridgerules"

	"slices"
	"testing"

	"github.com/kakure/kakure/engine"
)

var bridge5 = engine.Options{Variant: engine.VariantBridge, Size: 5}

// bridgeMoves plays moves in turn from Black, through the local players.
func (d *fbDriver) bridgeMoves(vs ...string) {
	d.t.Helper()
	for _, v := range vs {
		g := d.m.Rules.(*bridgerules.Rules).Game
		d.act(d.m.RoleOf(g.ToMove()), protocol.Play{Point: d.pt(v)})
	}
}

// TestBG1BridgeTurns checks that the machine enforces alternation, Black
// first (BG-1; the engine's Play does not, BG-D5), and that two passes
// draw.
func TestBG1BridgeTurns(t *testing.T) {
	t.Run("BG-1 White may not move first", func(t *testing.T) {
		d := newFBDriver(t, bridge5, engine.White)
		d.expect(protocol.Invitee, protocol.KindMove)
		d.violates("BG-1", protocol.Inviter, protocol.KindMove, protocol.MoveBody{Point: "C3"})
		if _, _, err := d.players[protocol.Inviter].message(d.m, protocol.Inviter, protocol.Play{Point: d.pt("C3")}); err == nil {
			t.Error("White's local player moves out of turn")
		}
	})
	t.Run("BG-1 no two moves in a row", func(t *testing.T) {
		d := newFBDriver(t, bridge5, engine.Black)
		d.bridgeMoves("C3")
		d.violates("BG-1", protocol.Inviter, protocol.KindMove, protocol.MoveBody{Point: "D3"})
		d.bridgeMoves("D3", "pass")
		d.violates("BG-1", protocol.Inviter, protocol.KindMove, protocol.MoveBody{Point: "pass"})
	})
	t.Run("BG-1 two passes draw", func(t *testing.T) {
		d := newFBDriver(t, bridge5, engine.Black)
		d.bridgeMoves("C3", "pass", "pass")
		if d.m.Outcome == nil || d.m.Outcome.Result != (engine.Result{By: engine.ByDraw}) || d.m.Phase != protocol.PhaseConfirm {
			t.Fatalf("outcome %+v phase %s, want a draw to confirm", d.m.Outcome, d.m.Phase)
		}
	})
	t.Run("BG-1 a pass between stones does not end the game", func(t *testing.T) {
		d := newFBDriver(t, bridge5, engine.Black)
		d.bridgeMoves("pass", "C3", "pass")
		if d.m.Outcome != nil {
			t.Fatalf("outcome %+v after passes that were not consecutive", d.m.Outcome)
		}
	})
}

// TestBG3BridgeWinOverProtocol checks that a bridge ends the game with a
// win and that the view shows the winning chain.
func TestBG3BridgeWinOverProtocol(t *testing.T) {
	for _, perpendicular := range []bool{false, true} {
		o := bridge5
		o.Perpendicular = perpendicular
		d := newFBDriver(t, o, engine.White)
		d.bridgeMoves("C1", "E1", "C2", "E2", "C3", "E3", "C4", "E4")
		if d.m.Outcome != nil {
			t.Fatalf("outcome %+v before the bridge", d.m.Outcome)
		}
		d.bridgeMoves("C5")
		want := engine.Result{Winner: engine.Black, By: engine.ByWin}
		if d.m.Outcome == nil || d.m.Outcome.Result != want || d.m.Outcome.Result.String() != "B+" {
			t.Fatalf("BG-3 outcome %+v, want %v", d.m.Outcome, want)
		}
		v := d.m.Rules.View(protocol.Inviter).(bridgerules.View)
		chain := []engine.Point{d.pt("C1"), d.pt("C2"), d.pt("C3"), d.pt("C4"), d.pt("C5")}
		if v.Winner != engine.Black || !slices.Equal(v.WinningChain, chain) {
			t.Errorf("BG-3 view winner %v chain %v, want Black %v", v.Winner, v.WinningChain, chain)
		}
		if _, kinds := d.m.Expected(); !slices.Equal(kinds, []protocol.Kind{protocol.KindResult}) {
			t.Errorf("after the bridge the machine expects %v, want the result", kinds)
		}
	}
}

// TestBG4BridgeIllegalMoves checks the rule named for an illegal move.
func TestBG4BridgeIllegalMoves(t *testing.T) {
	tests := []struct {
		name  string
		moves []string
		move  string
		rule  string
	}{
		{name: "BG-4 a self-capture that repeats the position", moves: []string{"E5", "A2", "E4", "B1"}, move: "A1", rule: "BG-4"},
		{name: "BG-1 an occupied point", moves: []string{"C3"}, move: "C3", rule: "BG-1"},
		{name: "BG-4 T-10 not a vertex", move: "K77", rule: "T-10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newFBDriver(t, bridge5, engine.Black)
			d.bridgeMoves(tt.moves...)
			mover := d.m.RoleOf(d.m.Rules.(*bridgerules.Rules).Game.ToMove())
			if p, err := engine.ParseVertex(5, tt.move); err == nil {
				if _, _, err := d.players[mover].message(d.m, mover, protocol.Play{Point: p}); err == nil {
					t.Errorf("the local player sends the illegal move %s", tt.move)
				}
			}
			d.violates(tt.rule, mover, protocol.KindMove, protocol.MoveBody{Point: tt.move})
		})
	}
}
