package session_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/protocol/bridgerules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// startGame invites the invitee to a game of o on the pair and returns
// both games, inviter first, once play started.
func startGame(t *testing.T, p *pair, o engine.Options) [2]*session.Game {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(20*time.Second))
	defer cancel()
	games := testnet.InviteAccepted(t, ctx, p.services[0], p.services[1], p.hosts[1].ID(), o)
	for _, g := range games {
		waitView(t, g, "play", func(v protocol.View) bool { return v.Phase == protocol.PhasePlay && v.Color != engine.Empty })
	}
	return games
}

// byColor returns Black's and White's games.
func byColor(games [2]*session.Game) (black, white *session.Game) {
	if games[0].View().Color == engine.Black {
		return games[0], games[1]
	}
	return games[1], games[0]
}

// boardOf returns the board of a plain-Go or Bridge-Go view.
func boardOf(v protocol.View) engine.Board {
	switch vv := v.Variant.(type) {
	case gorules.View:
		return vv.Game.Board()
	case bridgerules.View:
		return vv.Game.Board()
	}
	return engine.Board{}
}

// TestUNDOD1UndoInPlainGoAndBridgeGo (UNDO-D1, UNDO-D3): the player who
// moved last asks to take the move back; a refusal leaves it, the
// opponent's signed acceptance takes it back in both programs (the board,
// the player to move); the opponent may not ask to take back the other's
// move; once the opponent answered, the request takes back the move and
// the answer; both records verify.
func TestUNDOD1UndoInPlainGoAndBridgeGo(t *testing.T) {
	for _, variant := range []engine.Variant{engine.VariantGo, engine.VariantBridge} {
		t.Run(string(variant), func(t *testing.T) {
			p := newPair(t)
			games := startGame(t, p, engine.Options{Variant: variant, Size: 7})
			black, white := byColor(games)
			c3, d4 := vertexOn(t, 7, "C3"), vertexOn(t, 7, "D4")
			if err := black.Do(protocol.Play{Point: c3}); err != nil {
				t.Fatal(err)
			}
			if err := white.Do(protocol.RequestUndo{}); err == nil {
				t.Error("White asks to take back Black's move: no error")
			}
			if err := black.Do(protocol.RequestUndo{}); err != nil {
				t.Fatalf("Black asks to take back C3: %v", err)
			}
			waitView(t, white, "Black's request", func(v protocol.View) bool { return v.UndoMove == 1 && v.UndoBy == black.Role() })
			if err := white.Do(protocol.AnswerUndo{Accept: false}); err != nil {
				t.Fatalf("White refuses: %v", err)
			}
			for _, g := range games {
				v := waitView(t, g, "the refusal", func(v protocol.View) bool { return v.UndoMove == 0 })
				if b := boardOf(v); b.At(c3) != engine.Black {
					t.Errorf("%s: C3 holds %v after the refusal", g.Role(), b.At(c3))
				}
			}
			if err := white.Do(protocol.Play{Point: d4}); err != nil {
				t.Fatal(err)
			}
			waitView(t, black, "White's move", func(v protocol.View) bool { return v.MyTurn })
			// Once White answered, Black's request takes back C3 and the
			// answer (UNDO-D3); White refuses it.
			if err := black.Do(protocol.RequestUndo{}); err != nil {
				t.Fatalf("Black asks to take back C3 and D4: %v", err)
			}
			waitView(t, white, "Black's request of two moves", func(v protocol.View) bool {
				return v.UndoMove == 1 && v.UndoMoves == 2 && v.UndoBy == black.Role()
			})
			if err := white.Do(protocol.AnswerUndo{Accept: false}); err != nil {
				t.Fatalf("White refuses: %v", err)
			}
			for _, g := range games {
				v := waitView(t, g, "the refusal", func(v protocol.View) bool { return v.UndoMove == 0 })
				if b := boardOf(v); b.At(c3) != engine.Black || b.At(d4) != engine.White {
					t.Errorf("%s after the refusal: C3 %v, D4 %v", g.Role(), b.At(c3), b.At(d4))
				}
			}
			if err := white.Do(protocol.RequestUndo{}); err != nil {
				t.Fatalf("White asks to take back D4: %v", err)
			}
			waitView(t, black, "White's request", func(v protocol.View) bool { return v.UndoMove == 2 })
			if err := black.Do(protocol.AnswerUndo{Accept: true}); err != nil {
				t.Fatalf("Black accepts: %v", err)
			}
			for _, g := range games {
				v := waitView(t, g, "the undo", func(v protocol.View) bool { b := boardOf(v); return b.At(d4) == engine.Empty })
				if b := boardOf(v); b.At(c3) != engine.Black || v.UndoMove != 0 {
					t.Errorf("%s after the undo: C3 %v, request %d", g.Role(), b.At(c3), v.UndoMove)
				}
				if mine := v.Color == engine.White; v.MyTurn != mine {
					t.Errorf("%s (%v) after the undo: my turn %v, want White to move", g.Role(), v.Color, v.MyTurn)
				}
			}
			// White plays again elsewhere: the game goes on from there.
			e5 := vertexOn(t, 7, "E5")
			if err := white.Do(protocol.Play{Point: e5}); err != nil {
				t.Fatalf("White plays after the undo: %v", err)
			}
			waitView(t, black, "White's new move", func(v protocol.View) bool { b := boardOf(v); return b.At(e5) == engine.White })
			// Black takes back C3 and White's answer E5 (UNDO-D3): the
			// board is empty and Black moves again.
			if err := black.Do(protocol.RequestUndo{}); err != nil {
				t.Fatalf("Black asks to take back C3 and E5: %v", err)
			}
			waitView(t, white, "Black's second request", func(v protocol.View) bool { return v.UndoMove == 1 && v.UndoMoves == 2 })
			if err := white.Do(protocol.AnswerUndo{Accept: true}); err != nil {
				t.Fatalf("White accepts: %v", err)
			}
			for _, g := range games {
				v := waitView(t, g, "the undo of two moves", func(v protocol.View) bool { b := boardOf(v); return b.At(c3) == engine.Empty })
				if b := boardOf(v); b.At(e5) != engine.Empty || v.UndoMove != 0 {
					t.Errorf("%s after the undo of two moves: E5 %v, request %d", g.Role(), b.At(e5), v.UndoMove)
				}
				if mine := v.Color == engine.Black; v.MyTurn != mine {
					t.Errorf("%s (%v) after the undo of two moves: my turn %v, want Black to move", g.Role(), v.Color, v.MyTurn)
				}
			}
			if err := black.Do(protocol.Play{Point: d4}); err != nil {
				t.Fatalf("Black plays after the undo of two moves: %v", err)
			}
			waitView(t, white, "Black's new move", func(v protocol.View) bool { return v.MyTurn })
			if err := black.Do(protocol.Resign{}); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(10*time.Second))
			defer cancel()
			for _, g := range games {
				if err := g.Wait(ctx); err != nil {
					t.Fatal(err)
				}
				rep := protocol.Verify(g.Transcript())
				if !rep.Finished || rep.Violation != nil || rep.Outcome.Result.By != engine.ByResignation {
					t.Errorf("%s: verify %+v", g.Role(), rep)
				}
			}
		})
	}
}

// TestUNDOD1RefusedInHiddenVariants: in Phantom Go an undo would reveal
// the hidden board; the request is refused politely (ErrNoUndo) and
// nothing is sent.
func TestUNDOD1RefusedInHiddenVariants(t *testing.T) {
	p := newPair(t)
	games := startGame(t, p, engine.Options{Variant: engine.VariantPhantom, Size: 5})
	for _, g := range games {
		n := len(g.Transcript().Messages)
		if err := g.Do(protocol.RequestUndo{}); !errors.Is(err, protocol.ErrNoUndo) {
			t.Errorf("%s: undo request in Phantom Go: %v, want ErrNoUndo", g.Role(), err)
		}
		if err := g.Do(protocol.AnswerUndo{Accept: true}); !errors.Is(err, protocol.ErrNoUndo) {
			t.Errorf("%s: undo answer in Phantom Go: %v, want ErrNoUndo", g.Role(), err)
		}
		if m := len(g.Transcript().Messages); m < n {
			t.Errorf("%s: the record shrank", g.Role())
		}
	}
}

// TestUNDOD1CheaterTakesBackAMoveNotItsOwn: a cheating program asks to
// take back a move that is not its last (move 2, White's) after the
// opponent's move was acknowledged; the honest side convicts it (T-3),
// and the honest side is not blamed.
func TestUNDOD1CheaterTakesBackAMoveNotItsOwn(t *testing.T) {
	for cheater := range 2 {
		t.Run([]string{"inviter", "invitee"}[cheater], func(t *testing.T) {
			p := newPair(t, func(i int, c *session.Config) {
				if i == cheater {
					session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
						if kind == protocol.KindUndoRequest {
							return kind, protocol.UndoBody{Move: body.(protocol.UndoBody).Move + 1}, true
						}
						return kind, body, false
					})
				}
			})
			games := startGame(t, p, engine.Options{Variant: engine.VariantGo, Size: 7})
			black, white := byColor(games)
			if err := black.Do(protocol.Play{Point: vertexOn(t, 7, "C3")}); err != nil {
				t.Fatal(err)
			}
			waitView(t, white, "Black's move", func(v protocol.View) bool { return v.MyTurn })
			if err := white.Do(protocol.Play{Point: vertexOn(t, 7, "D4")}); err != nil {
				t.Fatal(err)
			}
			waitView(t, black, "White's move", func(v protocol.View) bool { return v.MyTurn })
			if err := black.Do(protocol.Play{Point: vertexOn(t, 7, "E5")}); err != nil {
				t.Fatal(err)
			}
			waitView(t, white, "Black's second move", func(v protocol.View) bool { return v.MyTurn })
			asker := black
			if games[cheater] == white {
				asker = white
				if err := white.Do(protocol.Play{Point: vertexOn(t, 7, "F6")}); err != nil {
					t.Fatal(err)
				}
				waitView(t, black, "White's second move", func(v protocol.View) bool { return v.MyTurn })
			}
			_ = asker.Do(protocol.RequestUndo{}) // the cheater's own machine refuses what it sends
			honest := games[1-cheater]
			ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(10*time.Second))
			defer cancel()
			if err := honest.Wait(ctx); err != nil {
				t.Fatal(err)
			}
			out := honest.Outcome()
			if out == nil || out.Violation == nil || out.Violation.Rule != "T-3" || out.Violation.Accused != protocol.Role(cheater) {
				t.Fatalf("honest outcome %+v, want T-3 by the cheater", out)
			}
			if out.Result.Winner != honest.View().Color {
				t.Errorf("result %v, want a win for the honest %v", out.Result, honest.View().Color)
			}
			rep := protocol.Verify(honest.Transcript())
			if rep.Violation == nil || rep.Violation.Accused != protocol.Role(cheater) || !rep.Proven {
				t.Errorf("verify: %+v (proven %v), want the cheater's violation proven", rep.Violation, rep.Proven)
			}
		})
	}
}
