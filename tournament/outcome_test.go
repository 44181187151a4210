package tournament

import (
	"crypto/rand"
	"encoding/json"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// TestTRND8to13HowOutcomesCount: the report of each kind of ending, as
// protocol.Verify gives it, counts as docs/tournaments.md says: a win by
// the rules or on time (confirmed) and a proven forfeit count; a
// disputed or abandoned game, an unproven forfeit, an unconfirmed loss on
// time and an unfinished record do not (TRN-D8..TRN-D13).
func TestTRND8to13HowOutcomesCount(t *testing.T) {
	var peers [2]protocol.PeerID
	resign := &protocol.Outcome{Result: engine.Result{Winner: engine.White, By: engine.ByResignation}}
	drawn := &protocol.Outcome{Result: engine.Result{By: engine.ByDraw}}
	timeLoss := &protocol.Outcome{Result: engine.Result{Winner: engine.Black, By: engine.ByTime}}
	v := &protocol.Violation{Accused: protocol.Invitee, Rule: "GO-2", Detail: "a move onto a stone"}
	forfeit := &protocol.Outcome{Result: engine.Result{Winner: engine.Black, By: engine.ByForfeit}, Violation: v, Proven: true}
	unproven := &protocol.Outcome{Result: engine.Result{Winner: engine.Black, By: engine.ByForfeit}, Violation: v}
	abandoned := &protocol.Outcome{Result: engine.Result{Winner: engine.Black, By: engine.ByForfeit}, Violation: v, Abandoned: true}
	j := &protocol.Judgement{Verdict: protocol.VerdictUnproven, Reporter: protocol.Inviter, Reported: v, Violation: v, Why: "the evidence shows a legal move"}
	disputed := &protocol.Outcome{Result: engine.Result{By: engine.ByDispute}, Violation: v, Report: j}
	for _, tt := range []struct {
		name         string
		rep          protocol.Report
		counted      bool
		black, white int
		how          string
	}{
		{"win by resignation", protocol.Report{Outcome: resign, Finished: true}, true, 0, win, "W+R (TRN-D8)"},
		{"draw", protocol.Report{Outcome: drawn, Finished: true}, true, draw, draw, "(TRN-D8)"},
		{"loss on time confirmed", protocol.Report{Outcome: timeLoss, Finished: true, Violation: v, Proven: true}, true, win, 0, "TRN-D9"},
		{"loss on time not confirmed", protocol.Report{Outcome: timeLoss, Violation: v}, false, 0, 0, "TRN-D12"},
		{"proven forfeit", protocol.Report{Outcome: forfeit, Finished: true, Violation: v, Proven: true}, true, win, 0, "TRN-D10"},
		{"unproven forfeit", protocol.Report{Outcome: unproven, Finished: true, Violation: v}, false, 0, 0, "TRN-D12"},
		{"abandoned", protocol.Report{Outcome: abandoned, Finished: true, Violation: v}, false, 0, 0, "TRN-D12"},
		{"disputed", protocol.Report{Outcome: disputed, Finished: true, Violation: v, Judgement: j}, false, 0, 0, "TRN-D11"},
		{"unfinished", protocol.Report{}, false, 0, 0, "TRN-D13"},
		{"result not stated by both", protocol.Report{Outcome: resign}, false, 0, 0, "TRN-D13"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			counted, b, w, how := classifyReport(&tt.rep, peers)
			if counted != tt.counted || b != tt.black || w != tt.white || !strings.Contains(how, tt.how) {
				t.Errorf("classifyReport = %v %d-%d %q; want %v %d-%d and %q", counted, b, w, how, tt.counted, tt.black, tt.white, tt.how)
			}
		})
	}
}

// TestTRND16SwissByeScores: a Swiss bye is one point, a round robin's
// none; the player who sits out is named (TRN-D16).
func TestTRND16SwissByeScores(t *testing.T) {
	for _, tc := range []struct {
		system string
		rounds int
		want   int
	}{{SystemSwiss, 2, win}, {SystemRoundRobin, 3, 0}} {
		tt, _ := testTournament(t, 3, tc.system, tc.rounds)
		st := Compute(tt, nil)
		bye := st.Rounds[0].Bye
		if bye < 0 {
			t.Fatalf("%s of 3: no bye in round 1", tc.system)
		}
		for _, r := range st.Table {
			if r.Seat == bye && (r.Points != tc.want || r.Byes < 1) {
				t.Errorf("%s: the bye's player has %s points, %d byes; want %s", tc.system, Quarters(r.Points), r.Byes, Quarters(tc.want))
			}
		}
		if !strings.Contains(string(st.Text()), "  bye: ") {
			t.Errorf("%s: the bye is not named:\n%s", tc.system, st.Text())
		}
	}
}

// TestTRND6BadReferenceRefused: an invitation whose tournament
// reference is not well formed (an ID that is not 64 hex digits, a round
// or a board out of range) breaks T-10, so no record names a
// tournament game it cannot mean; a good one is kept in the machine
// (TRN-D6).
func TestTRND6BadReferenceRefused(t *testing.T) {
	k1, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	k2, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	a, _ := peer.IDFromPrivateKey(k1)
	b, _ := peer.IDFromPrivateKey(k2)
	id := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		ref protocol.TournamentRef
		ok  bool
	}{
		{protocol.TournamentRef{ID: id, Round: 1, Board: 1}, true},
		{protocol.TournamentRef{ID: id[:62], Round: 1, Board: 1}, false},
		{protocol.TournamentRef{ID: strings.ToUpper(id), Round: 1, Board: 1}, false},
		{protocol.TournamentRef{ID: id, Round: 0, Board: 1}, false},
		{protocol.TournamentRef{ID: id, Round: 1, Board: 0}, false},
		{protocol.TournamentRef{ID: id, Round: protocol.MaxTournamentRounds + 1, Board: 1}, false},
	} {
		ref := tc.ref
		body, _ := json.Marshal(protocol.InviteBody{Version: protocol.Version, Inviter: a.String(), Invitee: b.String(),
			Options: protocol.OptionsBody{Variant: "go", Size: 5, Komi: 7.5, InviterColor: "black"}, Tournament: &ref})
		game, _ := protocol.NewGameID()
		msg := protocol.Message{Game: game, From: protocol.Inviter, Ack: -1, Kind: protocol.KindInvite, Body: body}
		if err := msg.Sign(k1); err != nil {
			t.Fatal(err)
		}
		m := protocol.NewMachine(game)
		_, err := m.Apply(&msg)
		if got := err == nil; got != tc.ok {
			t.Errorf("reference %+v: Apply error %v", tc.ref, err)
		}
		if tc.ok && (m.Tournament == nil || *m.Tournament != tc.ref) {
			t.Errorf("reference %+v not kept: %+v", tc.ref, m.Tournament)
		}
	}
}
