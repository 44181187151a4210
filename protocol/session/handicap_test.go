package session_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/sgfexport"
)

// TestHCD2ColourChoice (HC-D2, T-4): an invitation that chooses the
// inviter's colour gives each peer that colour, in every variant that
// takes a choice, whatever the coin toss (which still runs) draws.
func TestHCD2ColourChoice(t *testing.T) {
	for _, c := range []struct {
		variant engine.Variant
		color   engine.Color
	}{{engine.VariantGo, engine.White}, {engine.VariantGo, engine.Black}, {engine.VariantPhantom, engine.White}, {engine.VariantBridge, engine.White}} {
		t.Run(string(c.variant)+"-"+c.color.String(), func(t *testing.T) {
			p := newPair(t)
			games := startGame(t, p, engine.Options{Variant: c.variant, Size: 7, InviterColor: c.color})
			if got := games[0].View().Color; got != c.color {
				t.Errorf("the inviter plays %v, want %v as its invitation chose", got, c.color)
			}
			if got := games[1].View().Color; got != c.color.Opponent() {
				t.Errorf("the invitee plays %v, want %v", got, c.color.Opponent())
			}
			if o := games[1].View().Options; o.InviterColor != c.color {
				t.Errorf("the invitee's options say the inviter chose %v, want %v", o.InviterColor, c.color)
			}
		})
	}
}

// TestHCD1HandicapGame (HC-D1): a plain Go game with a handicap of 2,
// the invitee taking Black: both boards hold Black's two stones before
// any move, White moves first (Black may not), komi 0.5; random bots play
// it out, both records verify, and the SGF holds HA and AB.
func TestHCD1HandicapGame(t *testing.T) {
	p := newPair(t)
	o := engine.Options{Variant: engine.VariantGo, Size: 7, Handicap: 2, InviterColor: engine.White}
	games := startGame(t, p, o)
	black, white := byColor(games)
	if black != games[1] {
		t.Fatal("the inviter chose White, yet plays Black")
	}
	for _, g := range games {
		b := boardOf(g.View())
		if b.Count(engine.Black) != 2 || b.At(vertexOn(t, 7, "C3")) != engine.Black || b.At(vertexOn(t, 7, "E5")) != engine.Black {
			t.Errorf("the %s's board before the first move:\n%s\nwant Black's handicap stones on C3 and E5", g.Role(), b.String())
		}
		if k := g.View().Options.Komi; k != 0.5 {
			t.Errorf("komi %v, want 0.5 with a handicap", k)
		}
	}
	if err := black.Do(protocol.Play{Point: vertexOn(t, 7, "D4")}); err == nil {
		t.Error("Black moved first in a handicap game")
	}
	if err := white.Do(protocol.Play{Point: vertexOn(t, 7, "D4")}); err != nil {
		t.Fatalf("White's first move: %v", err)
	}
	for _, g := range games {
		g.Close()
	}

	p = newPair(t)
	a, b := playBots(t, p, o, 11)
	for _, g := range []*session.Game{a, b} {
		tr, err := session.LoadTranscript(g.RecordPath())
		if err != nil {
			t.Fatal(err)
		}
		if text, ok := protocol.Verify(tr).Describe(tr.Peers); !ok {
			t.Errorf("kakure verify on the %s's record of a handicap game: %s", g.Role(), text)
		}
		sgf, err := sgfexport.Export(tr)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(sgf, []byte("HA[2]")) || !bytes.Contains(sgf, []byte("AB[")) {
			t.Errorf("SGF of a handicap game without HA[2] and AB: %s", sgf)
		}
	}
}

// TestHCD1CheatBlackMovesFirst: the inviter, having chosen Black with a
// handicap, moves right after the coin toss as if Black moved first; the
// honest White catches it (T-3), wins by forfeit, and kakure verify on
// its record names the cheater, never the honest side.
func TestHCD1CheatBlackMovesFirst(t *testing.T) {
	hook := cheatOn(protocol.KindTossReveal, 1, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		extra := *m
		extra.Seq++
		extra.Prev = m.Hash()
		extra.Kind = protocol.KindMove
		extra.Body = session.MustEncodeBody(protocol.MoveBody{Point: "D4"})
		if err := extra.Sign(key); err != nil {
			t.Error(err)
		}
		return [][]byte{session.FrameOf(m), session.FrameOf(&extra)}
	})
	o := engine.Options{Variant: engine.VariantGo, Size: 7, Handicap: 2, InviterColor: engine.Black}
	h := playCheatingGame(t, o, func(c *session.Config) { session.SetTamper(c, hook) },
		&waitsForCheat{p: bot.NewRandom(2), after: 0})
	if h.View().Color != engine.White {
		t.Fatalf("the honest invitee plays %v, want White", h.View().Color)
	}
	checkCaught(t, h, "T-3", "move")
}

// TestHCD2NigiriWithheldOpeningForfeits (HC-D2, T-4, T-11): the invitee
// opens its coin toss contribution last, so it alone learns the colours
// before it has committed to them all; a cheating invitee that then
// withholds its opening (to restart the toss it did not like) does not
// get a new toss: challenged and silent, it abandons the game and loses
// by forfeit (REC-D12, REC-D13), and kakure verify on the honest
// inviter's record names it, not the honest side.
func TestHCD2NigiriWithheldOpeningForfeits(t *testing.T) {
	t.Parallel() // waits on a grace, a clock or a stalled peer: wall time, not CPU
	p := newPair(t, withheldBy(protocol.Invitee), func(i int, c *session.Config) {
		if i == 1 {
			// Every copy withheld, the answer to the challenge too: a
			// program that sent it again would answer the challenge and
			// the game would go on (REC-D12).
			session.SetTamper(c, func(m *protocol.Message, _ crypto.PrivKey) [][]byte {
				if m.Kind == protocol.KindTossReveal {
					return [][]byte{} // withheld
				}
				return nil
			})
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()
	go func() {
		select {
		case <-p.services[1].Accepted():
		case <-ctx.Done():
		}
	}()
	g, err := p.services[0].Invite(ctx, p.hosts[1].ID(), engine.Options{Variant: engine.VariantGo, Size: 7})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Wait(ctx); err != nil {
		t.Fatalf("the honest inviter's game did not end: %v", err)
	}
	out := g.Outcome()
	if out == nil || out.Violation == nil || out.Violation.Rule != "T-11" || out.Violation.Accused != protocol.Invitee ||
		out.Result.By != engine.ByForfeit {
		t.Fatalf("outcome %+v, want the invitee's forfeit for withholding its opening (T-11)", out)
	}
	tr, err := session.LoadTranscript(g.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	if rep := protocol.Verify(tr); rep.Violation == nil || rep.Violation.Rule != "T-11" || rep.Violation.Accused != protocol.Invitee {
		t.Errorf("kakure verify on the honest record: %+v, want T-11 by the invitee", rep.Violation)
	}
}
