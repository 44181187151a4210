package session_test

import (
	"sync/atomic"
	"testing"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// gomokuResigner plays like its inner player and resigns at its nth
// choice, whatever the step (a commitment, an announcement, an answer).
type gomokuResigner struct {
	bot.Player
	at, n int
}

func (r *gomokuResigner) Choose(v protocol.View) protocol.Action {
	if _, ok := v.Variant.(gomokurules.View); ok {
		if r.n++; r.n == r.at {
			return protocol.Resign{}
		}
	}
	return r.Player.Choose(v)
}

// TestGMD23GomokuResignationRunsTheAudit (GM-D23, GO-6, GM-8): after a
// resignation in gomoku both players still open their commitments and the
// whole game is audited, so both see the whole board (the record of every
// piece); the resignation stands, and Verify on both records says so.
// Each role resigns at several steps of a turn.
func TestGMD23GomokuResignationRunsTheAudit(t *testing.T) {
	t.Parallel()
	for _, resigner := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
		for _, at := range []int{3, 4, 5, 8} {
			p := newPair(t)
			players := [2]bot.Player{bot.NewRandom(31), bot.NewRandom(32)}
			r := &gomokuResigner{Player: players[resigner], at: at}
			players[resigner] = r
			a, b := playPlayers(t, p, gomokuOpts, players[0], players[1])
			if r.n < at {
				t.Fatalf("%s at %d: the game ended before the resignation", resigner, at)
			}
			for _, g := range []*session.Game{a, b} {
				out := g.Outcome()
				winner := g.View().Color
				if g.Role() == resigner {
					winner = winner.Opponent()
				}
				if out.Result.By != engine.ByResignation || out.Result.Winner != winner || out.Violation != nil {
					t.Errorf("%s resigns at %d: the %s's outcome %+v, want a resignation won by %v", resigner, at, g.Role(), out, winner)
				}
				gv := g.View().Variant.(gomokurules.View)
				if gv.Record == nil || gv.Audit != nil || gv.Closing {
					t.Errorf("%s resigns at %d: the %s's view has no audited record (%+v)", resigner, at, g.Role(), gv)
				}
				tr, err := session.LoadTranscript(g.RecordPath())
				if err != nil {
					t.Fatal(err)
				}
				if text, ok := protocol.Verify(tr).Describe(tr.Peers); !ok {
					t.Errorf("%s resigns at %d: kakure verify on the %s's record: %s", resigner, at, g.Role(), text)
				}
			}
		}
	}
}

// rowLiar returns a cheater's configuration (gomokuCheats) by which the
// inviter announces, in its first turn, a row or column that does not
// hold its committed point (GM-3), and the move of the lie.
func rowLiar() (func(i int, c *session.Config), *atomic.Int64) {
	var lie atomic.Int64
	return gomokuCheats(func(me protocol.Role, v gomoku.View, kind protocol.Kind, body any) (protocol.Kind, any) {
		if me != protocol.Inviter || kind != gomokurules.KindAnnounce || lie.Load() != 0 {
			return kind, body
		}
		b := body.(gomokurules.LineBody)
		b.Index = (b.Index + 1) % v.Size()
		lie.Store(int64(v.MoveNumber()))
		return kind, b
	}), &lie
}

// resignsAtLie is an honest player that resigns when the cheater's lie
// is on the table: at the answer it owes (answered, when answerFirst,
// with nothing first: the lying piece then stands hidden and its turn
// ends, and the resignation comes at the next choice).
type resignsAtLie struct {
	bot.Player
	lie         *atomic.Int64
	answerFirst bool
	resigned    bool
}

func (r *resignsAtLie) Choose(v protocol.View) protocol.Action {
	gv, ok := v.Variant.(gomokurules.View)
	lie := int(r.lie.Load())
	if !ok || lie == 0 {
		return r.Player.Choose(v)
	}
	if r.answerFirst && gv.Game.Phase() == gomoku.PhaseRespond && gv.Game.MoveNumber() == lie {
		return gomokurules.Respond{}
	}
	r.resigned = true
	return protocol.Resign{}
}

// TestGMD23GomokuAuditAfterResignationConvictsTheCheater (GM-D23, GM-3,
// GM-8): the cheater announces a line that does not hold its committed
// point; the honest player resigns, either instead of answering (the
// lying turn is under way: the cheater's openings must open it too) or
// after answering with nothing (the lying piece stands hidden). The audit
// after the resignation still runs and names the cheater: it loses by
// forfeit, the honest side that resigned is not blamed, and Verify on the
// honest record proves it. Before GM-D23 the resignation ended the game
// and the cheater won.
func TestGMD23GomokuAuditAfterResignationConvictsTheCheater(t *testing.T) {
	for _, answerFirst := range []bool{false, true} {
		name := "resigns instead of answering"
		if answerFirst {
			name = "answers, then resigns"
		}
		t.Run(name, func(t *testing.T) {
			cheats, lie := rowLiar()
			honest := &resignsAtLie{Player: bot.NewRandom(2), lie: lie, answerFirst: answerFirst}
			h := playGomokuCheaterWith(t, nil, cheats, noPass{bot.NewRandom(1)}, honest)
			if !honest.resigned {
				t.Fatal("the honest player never resigned")
			}
			checkCaught(t, h, "GM-3", "audit")
			gv := h.View().Variant.(gomokurules.View)
			if gv.Audit == nil || gv.Audit.Move != int(lie.Load()) {
				t.Errorf("audit %v, want the lie of move %d", gv.Audit, lie.Load())
			}
		})
	}
}

// crossMsg is one message of a scripted game with its acknowledgement.
type crossMsg struct {
	from protocol.Role
	kind protocol.Kind
	body any
	ack  int64
}

// TestGMD23GomokuCrossingAnswer (GM-D23): the mover (the inviter)
// resigns after announcing; the opponent's answer, sent before it saw the
// resignation, crosses it on the wire, so the two peers apply the same
// messages in two orders. Both machines reach the same outcome: the
// resignation, after an audit that checks the mover's point of the turn
// under way; or, when that point lies outside the announced row, the
// same GM-3 violation by the mover.
func TestGMD23GomokuCrossingAnswer(t *testing.T) {
	for _, point := range []string{"C3", "C4"} {
		id, err := protocol.NewGameID()
		if err != nil {
			t.Fatal(err)
		}
		o, _ := gomokuOpts.Normalize()
		var toss [2]commit.Opening
		var tossC [2]commit.Commitment
		for r := range 2 {
			tossC[r], toss[r], err = commit.New("kakure/toss/colours", id[:], uint8(r), 0, make([]byte, 32))
			if err != nil {
				t.Fatal(err)
			}
		}
		c, op, err := commit.New(gomokurules.PieceDomain, id[:], uint8(inv), 1, []byte(point))
		if err != nil {
			t.Fatal(err)
		}
		setup := []crossMsg{
			{inv, protocol.KindInvite, protocol.InviteBody{Version: protocol.Version, Options: protocol.OptionsToBody(o)}, -1},
			{ivt, protocol.KindAccept, struct{}{}, 0},
			{inv, protocol.KindTossCommit, protocol.CommitBody{Commitment: tossC[0]}, 0},
			{ivt, protocol.KindTossCommit, protocol.CommitBody{Commitment: tossC[1]}, 1},
			{inv, protocol.KindTossReveal, protocol.OpenBody{Opening: toss[0]}, 1},
			{ivt, protocol.KindTossReveal, protocol.OpenBody{Opening: toss[1]}, 2},
			{inv, gomokurules.KindOpening, gomokurules.PointBody{Point: "E5"}, 2},
			// The invitee takes X: the inviter is O and moves first.
			{ivt, gomokurules.KindSide, gomokurules.SideBody{Side: "x"}, 3},
			{inv, gomokurules.KindCommit, protocol.CommitBody{Commitment: c}, 3},
			{inv, gomokurules.KindAnnounce, gomokurules.LineBody{Line: "row", Index: 2}, 3},
		}
		resign := crossMsg{inv, protocol.KindResign, struct{}{}, 3}
		moverOpens := crossMsg{inv, gomokurules.KindOpenAll, gomokurules.OpeningsBody{Openings: []gomokurules.PieceOpening{{Move: 1, Opening: op}}}, 3}
		// Sent having seen the announcement (inviter's message 5), not
		// the resignation (its message 6).
		answer := crossMsg{ivt, gomokurules.KindResponse, gomokurules.OpeningsBody{Openings: []gomokurules.PieceOpening{}}, 5}
		opponentOpens := crossMsg{ivt, gomokurules.KindOpenAll, gomokurules.OpeningsBody{Openings: []gomokurules.PieceOpening{}}, 7}
		orders := map[string][]crossMsg{
			"the mover's":    {resign, moverOpens, answer, opponentOpens},
			"the opponent's": {answer, resign, moverOpens, opponentOpens},
		}
		var outcomes []string
		for name, order := range orders {
			m := protocol.NewMachine(id)
			var seq [2]uint64
			for i, x := range append(append([]crossMsg{}, setup...), order...) {
				msg := protocol.Message{Game: id, From: x.from, Seq: seq[x.from], Ack: x.ack, Kind: x.kind, Body: session.MustEncodeBody(x.body)}
				if _, err := m.Apply(&msg); err != nil {
					t.Fatalf("point %s, %s machine: message %d (%s of the %s): %v", point, name, i, x.kind, x.from, err)
				}
				seq[x.from]++
			}
			if m.Outcome == nil {
				t.Fatalf("point %s, %s machine: no outcome", point, name)
			}
			got := m.Outcome.Result.String()
			if v := m.Outcome.Violation; v != nil {
				got += " " + v.Rule + " by the " + v.Accused.String()
			}
			outcomes = append(outcomes, got)
		}
		want := "B+R"
		if point == "C4" {
			want = "B+F GM-3 by the inviter"
		}
		for _, got := range outcomes {
			if got != want {
				t.Errorf("point %s in row 3: outcomes %q, want %q in both orders", point, outcomes, want)
				break
			}
		}
	}
}

// TestGMD23GomokuWithheldOpeningsAfterResignation (GM-D23, T-11): a
// cheater resigns and then withholds its openings, so that its hidden
// pieces are never audited; the honest player's program reports it when
// the grace period runs out: the cheater loses by forfeit, not by its
// resignation, and Verify on the honest record names it. The cheater's
// own grace period is long: with the same one, its program, which
// believes it sent its openings, could report first that the honest one
// withheld its own (due after the cheater's); that report reaches the
// honest program after a gap in the cheater's messages and proves
// nothing (T-13), and the honest game stays adjourned, neither lost nor
// won (a CI run waited on it until go test's timeout).
func TestGMD23GomokuWithheldOpeningsAfterResignation(t *testing.T) {
	t.Parallel() // waits on a grace, a clock or a stalled peer: wall time, not CPU
	withhold := func(*session.Service) func(*protocol.Message, crypto.PrivKey) [][]byte {
		return func(m *protocol.Message, _ crypto.PrivKey) [][]byte {
			if m.Kind == gomokurules.KindOpenAll {
				return [][]byte{}
			}
			return nil
		}
	}
	cheaterWaits := withheldBy(protocol.Inviter)
	h := playGomokuCheaterWith(t, withhold, cheaterWaits, &gomokuResigner{Player: bot.NewRandom(1), at: 6}, bot.NewRandom(2))
	checkCaught(t, h, "T-11", "")
}
