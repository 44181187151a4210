package session_test

import (
	"context"
	"crypto/rand"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// Live tests of T-13..T-15: a cheating program (made with the package's
// test hooks) sends reports, and the honest peer's outcome and kakure
// verify's verdict on both records are checked: no report makes the
// honest player lose or look guilty.

// reportGame is a game between a cheating and an honest program.
type reportGame struct {
	cheater, honest *session.Game
	// withheld: the cheater withholds on the wire messages its record
	// holds as sent, so its record may void the honest abandonment as
	// crossed by them (REC-D13's limit); checkReportGame then holds the
	// cheater's record only to proving nothing against the honest player.
	withheld bool
}

// playReportGame plays o between random bots on two hosts; the peer of
// role cheater is set up by setup (its test hooks). It returns both games
// once the honest one is over (the cheater's is closed if it still runs).
func playReportGame(t *testing.T, o engine.Options, cheater protocol.Role, setup func(c *session.Config),
	players [2]bot.Player, cfgs ...func(i int, c *session.Config)) reportGame {
	t.Helper()
	cfgs = append(cfgs, func(i int, c *session.Config) {
		if protocol.Role(i) == cheater {
			setup(c)
		}
	})
	p := newPair(t, cfgs...)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(120*time.Second))
	defer cancel()
	invitee := make(chan *session.Game, 1)
	go func() {
		select {
		case g := <-p.services[1].Accepted():
			invitee <- g
			bot.Run(ctx, g, players[1])
		case <-ctx.Done():
			invitee <- nil
		}
	}()
	g0, err := p.services[0].Invite(ctx, p.hosts[1].ID(), o)
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	go bot.Run(ctx, g0, players[0])
	g1 := <-invitee
	if g1 == nil {
		t.Fatal("the invitee never got the game")
	}
	games := [2]*session.Game{g0, g1}
	rg := reportGame{cheater: games[cheater], honest: games[cheater.Other()]}
	if err := rg.honest.Wait(ctx); err != nil {
		for _, g := range games {
			tr := g.Transcript()
			from := max(0, len(tr.Messages)-8)
			for _, m := range tr.Messages[from:] {
				t.Logf("%s's record: %s's message %d, %s, ack %d", g.Role(), m.From, m.Seq, m.Kind, m.Ack)
			}
		}
		t.Fatalf("the honest game did not end: %v", err)
	}
	// The cheater's program ends too once it has the honest peer's last
	// message; give it a moment, then stop it.
	wait, stop := context.WithTimeout(ctx, 5*time.Second)
	defer stop()
	if rg.cheater.Wait(wait) != nil {
		rg.cheater.Close()
	}
	return rg
}

// honestVerdict is what a test expects of the honest peer's outcome.
type honestVerdict int

const (
	// honestWins: the honest player wins (by forfeit, or by the rules).
	honestWins honestVerdict = iota
	// disputed: no winner.
	disputed
	// rulesDecide: the outcome is whatever the rules or the audit give,
	// never a win for the cheater by a report.
	rulesDecide
	// rulesOrFalse: the rules decide, or the cheater's report is proven
	// false and the honest player wins.
	rulesOrFalse
	// rulesOrTime: the rules decide, or the cheater loses on time.
	rulesOrTime
	// rulesOrAbandoned: the rules decide, or the cheater's program, unable
	// to make again the message it replaced, stops answering and the honest
	// player wins by its abandonment (REC-D13).
	rulesOrAbandoned
)

// checkReportGame checks the honest peer's live outcome against want,
// and that kakure verify on both records gives that same result, says
// what (text) and never names the honest player as proven guilty.
func checkReportGame(t *testing.T, rg reportGame, want honestVerdict, text string) {
	t.Helper()
	h := rg.honest
	out := h.Outcome()
	if out == nil {
		t.Fatal("the honest game has no outcome")
	}
	me := h.View().Color
	t.Logf("honest %s (%v): %v, violation %v", h.Role(), me, out.Result, out.Violation)
	switch want {
	case honestWins:
		if out.Result.Winner != me {
			t.Errorf("honest outcome %v (%v), want a win for the honest %v", out.Result, out.Violation, me)
		}
	case disputed:
		if !out.Disputed() || out.Result.Winner != engine.Empty {
			t.Errorf("honest outcome %v (%v), want disputed with no winner", out.Result, out.Violation)
		}
	case rulesDecide:
		if out.Report != nil || out.Disputed() {
			t.Errorf("honest outcome %v decided by a report %+v, want the rules or the audit to decide", out.Result, out.Report)
		}
	case rulesOrFalse:
		if out.Report != nil && out.Report.Verdict == protocol.VerdictFalse {
			if out.Result.Winner != me {
				t.Errorf("honest outcome %v (%v), want a win for the honest %v", out.Result, out.Violation, me)
			}
			want = honestWins
		} else if out.Report != nil || out.Disputed() || out.Abandoned {
			t.Errorf("honest outcome %v decided by a report %+v, want the rules to decide", out.Result, out.Report)
		} else {
			want = rulesDecide
		}
	case rulesOrTime:
		if out.Result.By == engine.ByTime {
			if out.Result.Winner != me {
				t.Errorf("honest outcome %v (%v), want a win on time for the honest %v", out.Result, out.Violation, me)
			}
			want = honestWins
		} else if out.Report != nil || out.Disputed() || out.Abandoned {
			t.Errorf("honest outcome %v decided by a report %+v, want the rules or the clock to decide", out.Result, out.Report)
		} else {
			want = rulesDecide
		}
	case rulesOrAbandoned:
		if out.Abandoned {
			if out.Result.Winner != me || out.Violation == nil || out.Violation.Accused != rg.cheater.Role() {
				t.Errorf("honest outcome %v (%v), want the cheater's abandonment", out.Result, out.Violation)
			}
			want = honestWins
		} else if out.Report != nil || out.Disputed() {
			t.Errorf("honest outcome %v decided by a report %+v, want the rules or the audit to decide", out.Result, out.Report)
		} else {
			want = rulesDecide
		}
	}
	if out.Violation != nil && out.Violation.Accused == h.Role() && (out.Proven || out.Result.Winner != engine.Empty) {
		t.Errorf("the honest %s is found guilty: %v", h.Role(), out.Violation)
	}
	for _, g := range []*session.Game{rg.honest, rg.cheater} {
		tr, err := session.LoadTranscript(g.RecordPath())
		if err != nil {
			t.Fatalf("the %s's record: %v", g.Role(), err)
		}
		rep := protocol.Verify(tr)
		says, ok := rep.Describe(tr.Peers)
		t.Logf("kakure verify on the %s's record: %s", g.Role(), says)
		if g == rg.cheater && (!rep.Finished || rg.withheld) {
			// The cheater's record may stop short of the honest peer's
			// last message (it was closed), or hold messages it never
			// delivered; it must not blame the honest player even so.
			if rep.Violation != nil && rep.Violation.Accused == h.Role() && rep.Proven {
				t.Errorf("kakure verify on the cheater's unfinished record blames the honest player: %s", says)
			}
			continue
		}
		if !rep.Finished || rep.Outcome == nil || rep.Outcome.Result != out.Result {
			t.Errorf("kakure verify on the %s's record: %q, want the finished result %v", g.Role(), says, out.Result)
		}
		if !strings.Contains(says, text) {
			t.Errorf("kakure verify on the %s's record: %q, want it to mention %q", g.Role(), says, text)
		}
		if wantOK := want == rulesDecide && out.Violation == nil || out.Result.By == engine.ByTime && !out.Abandoned; ok != wantOK {
			t.Errorf("kakure verify on the %s's record says ok=%v: %q", g.Role(), ok, says)
		}
		if v := rep.Violation; v != nil && v.Accused == h.Role() && rep.Proven {
			t.Errorf("kakure verify on the %s's record finds the honest player guilty: %q", g.Role(), says)
		}
	}
}

// reportInstead returns a rewrite hook that replaces the cheater's nth
// message of one of kinds by a violation report against the other peer,
// with the evidence evidence(g) makes from the cheater's game; the
// cheater's program goes on as usual after it.
func reportInstead(n int, rule string, evidence func(g *session.Game) [][]byte, kinds ...protocol.Kind) func(c *session.Config) {
	var mu sync.Mutex
	seen := 0
	return func(c *session.Config) {
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			mu.Lock()
			defer mu.Unlock()
			match := len(kinds) == 0 && kind != protocol.KindViolation
			for _, k := range kinds {
				match = match || k == kind
			}
			if !match {
				return kind, body, false
			}
			if seen++; seen != n {
				return kind, body, false
			}
			var ev [][]byte
			if evidence != nil {
				ev = evidence(g)
			}
			return protocol.KindViolation, protocol.ViolationBody{Accused: g.Role().Other(), Rule: rule,
				Detail: "a report made up by a cheating program", Evidence: ev}, false
		})
	}
}

// lastOfOther is evidence: a copy of the other peer's newest message,
// which both records already hold.
func lastOfOther(g *session.Game) [][]byte {
	tr := g.Transcript()
	for i := len(tr.Messages) - 1; i >= 0; i-- {
		if m := tr.Messages[i]; m.From != g.Role() {
			return [][]byte{session.FrameOf(&m)}
		}
	}
	return nil
}

// variantsForReports are the variants a report test runs in, with bots
// that keep games short.
func variantsForReports() []struct {
	name string
	o    engine.Options
	bots func() [2]bot.Player
} {
	quick := func(max int) func() [2]bot.Player {
		return func() [2]bot.Player { return [2]bot.Player{quickBot(1, max), quickBot(2, max)} }
	}
	return []struct {
		name string
		o    engine.Options
		bots func() [2]bot.Player
	}{
		{"go", engine.Options{Variant: engine.VariantGo, Size: 5}, quick(20)},
		{"bridge", engine.Options{Variant: engine.VariantBridge, Size: 5}, quick(20)},
		{"fgo", engine.Options{Variant: engine.VariantFGo, Size: 5}, quick(10)},
		{"hmg", engine.Options{Variant: engine.VariantHMG, Size: 5, Cards: 2, CardsSet: true}, quick(20)},
		{"gomoku", gomokuOpts, func() [2]bot.Player { return [2]bot.Player{bot.NewRandom(1), bot.NewRandom(2)} }},
		{"phantom", engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon},
			func() [2]bot.Player { return [2]bot.Player{shortBot(1), shortBot(2)} }},
	}
}

// TestT13LiveReportsThatProveNothing (T-14, REC-D11): in every variant, a
// cheating program replaces one of its messages during play with a
// report whose evidence proves nothing against the honest peer: a copy of
// the honest peer's newest message (duplicate), a message of the honest
// peer forged with another key, or no evidence at all. The honest peer
// judges it at once: it changes nothing, play goes on to the end by the
// rules, and kakure verify lists the report as proving nothing on both
// records. (Before REC-D11 such a report voided the game: a loser's exit.)
func TestT13LiveReportsThatProveNothing(t *testing.T) {
	t.Parallel() // games of their own, nothing shared
	otherKey, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	forged := func(g *session.Game) [][]byte {
		// The honest peer's next message, an illegal one, signed by
		// another key.
		tr := g.Transcript()
		other := g.Role().Other()
		seq, prev := tr.Next(other)
		ack, ackHash := tr.AckFor(other)
		m := protocol.Message{Game: g.ID(), From: other, Seq: seq, Prev: prev, Ack: ack, AckHash: ackHash,
			Kind: protocol.KindResult, Body: session.MustEncodeBody(protocol.ResultBody{Result: "B+99"})}
		resign(t, &m, otherKey)
		return [][]byte{session.FrameOf(&m)}
	}
	evidence := []struct {
		name string
		make func(g *session.Game) [][]byte
		text string
	}{
		{"duplicate", lastOfOther, "which the record holds"},
		{"forged", forged, "not signed by the accused"},
		{"none", nil, "no evidence"},
	}
	for _, v := range variantsForReports() {
		for _, ev := range evidence {
			t.Run(v.name+"/"+ev.name, func(t *testing.T) {
				if testing.Short() && v.name == "phantom" && ev.name != "duplicate" {
					t.Skip("one Phantom Go case in -short")
				}
				t.Parallel() // Phantom Go's cases wait on graces: wall time
				// The cheater's 8th message: in play in every variant.
				// In Phantom Go its second garbling, a message on a grace:
				// the 8th may be a try of its player's, which an untimed
				// game lets the player think over for ever (REC-D14), and
				// the bot whose try became the report does not try again.
				instead := reportInstead(8, "T-3", ev.make)
				var cfgs []func(i int, c *session.Config)
				if v.name == "phantom" {
					instead = reportInstead(2, "T-3", ev.make, phantomrules.KindGarbling)
					cfgs = append(cfgs, withheldBy(protocol.Inviter))
				}
				rg := playReportGame(t, v.o, protocol.Inviter, instead, v.bots(), cfgs...)
				checkReportGame(t, rg, rulesOrAbandoned, ev.text)
			})
		}
	}
}

// TestT13LiveOtherGameEvidence: the evidence is a real message of the
// honest peer from another game between the same two peers. It proves
// nothing and changes nothing: the rules decide (REC-D11).
func TestT13LiveOtherGameEvidence(t *testing.T) {
	var mu sync.Mutex
	var fromFirst []protocol.Message // the honest peer's messages of the first game
	setup := reportInstead(2, "T-3", func(g *session.Game) [][]byte {
		mu.Lock()
		defer mu.Unlock()
		if len(fromFirst) == 0 {
			return nil
		}
		m := fromFirst[len(fromFirst)-1]
		return [][]byte{session.FrameOf(&m)}
	}, protocol.KindMove)
	p := newPair(t, func(i int, c *session.Config) {
		if i == 0 {
			setup(c)
		}
	})
	// First game: the cheater resigns at once, so that its report hook
	// (its second move) fires in the second game.
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(120*time.Second))
	defer cancel()
	first := playBothOn(t, ctx, p, goOpts, resigner{}, bot.NewRandom(2))
	mu.Lock()
	for _, m := range first[1].Transcript().Messages {
		if m.From == protocol.Invitee {
			fromFirst = append(fromFirst, m)
		}
	}
	mu.Unlock()
	second := playBothOn(t, ctx, p, goOpts, bot.NewRandom(1), bot.NewRandom(2))
	checkReportGame(t, reportGame{cheater: second[0], honest: second[1]}, rulesDecide, "another game")
}

// resigner resigns at its first turn of play.
type resigner struct{}

func (resigner) Choose(v protocol.View) protocol.Action {
	if v.Phase == protocol.PhasePlay {
		return protocol.Resign{}
	}
	return nil
}

// playBothOn plays one game on the pair p and returns both games once
// both are over.
func playBothOn(t *testing.T, ctx context.Context, p *pair, o engine.Options, inviter, invitee bot.Player) [2]*session.Game {
	t.Helper()
	games := testnet.StartBotGame(ctx, p.services[0], p.services[1], p.hosts[1].ID(), o, [2]bot.Player{inviter, invitee}).Started(t)
	for _, g := range games {
		if err := g.Wait(ctx); err != nil {
			t.Fatalf("the %s's game did not end: %v", g.Role(), err)
		}
	}
	return games
}

// TestT14LiveFalseAccusationOfWithholding: the cheater reports, in place
// of a move, that the honest program withheld an automatic message while
// it owed none (it is the cheater's own turn). The report is proven
// false: the cheater loses (T-14), live and in both records.
func TestT14LiveFalseAccusationOfWithholding(t *testing.T) {
	for _, v := range variantsForReports()[:3] {
		t.Run(v.name, func(t *testing.T) {
			rg := playReportGame(t, v.o, protocol.Inviter, reportInstead(2, "T-11", nil, protocol.KindMove, fgorules.KindCommit), v.bots())
			checkReportGame(t, rg, honestWins, "false accusation")
			if out := rg.honest.Outcome(); out.Violation == nil || out.Violation.Accused != protocol.Inviter || out.Violation.Rule != "T-14" || !out.Proven {
				t.Errorf("honest outcome %+v, want a proven T-14 by the cheating inviter", out)
			}
		})
	}
}

// TestT13LiveEquivocationBothRecords: the cheater sends two different
// messages with one sequence number. The honest peer proves it with the
// second as evidence; the cheater's own record, which holds the first,
// proves it too (T-13): the cheater loses in both.
func TestT13LiveEquivocationBothRecords(t *testing.T) {
	hook := equivocateOnMove(3)(t)
	rg := playReportGame(t, goOpts, protocol.Inviter, func(c *session.Config) { session.SetTamper(c, hook) },
		[2]bot.Player{bot.NewRandom(1), bot.NewRandom(2)})
	checkReportGame(t, rg, honestWins, "equivocation")
}

// TestT14LiveReportInConfirmPhase: once the rules fixed the result, the
// cheater sends a report that proves nothing in place of its result
// statement. It changes nothing: the cheater still states the result, and
// the result by the rules stands, in every variant.
func TestT14LiveReportInConfirmPhase(t *testing.T) {
	t.Parallel()
	for _, v := range variantsForReports() {
		t.Run(v.name, func(t *testing.T) {
			parallelUnlessRace(t) // the games are independent (issue 32)
			if testing.Short() && v.name == "phantom" {
				t.Skip("Phantom Go games are long")
			}
			rg := playReportGame(t, v.o, protocol.Inviter, reportInstead(1, "T-3", lastOfOther, protocol.KindResult), v.bots())
			checkReportGame(t, rg, rulesDecide, "unproven report")
			out := rg.honest.Outcome()
			if out.Violation == nil && out.Result.Winner == rg.cheater.View().Color && out.Result.By == engine.ByForfeit {
				t.Errorf("the cheater won by forfeit: %v", out.Result)
			}
		})
	}
}

// TestT14LiveRecordCutOffOrAppended: the honest peer's record of a
// finished game, cut before one or both result statements, does not
// verify as finished; a report the cheater signs and appends to its own
// record after both results is not part of the game.
func TestT14LiveRecordCutOffOrAppended(t *testing.T) {
	p := newPair(t)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(120*time.Second))
	defer cancel()
	games := playBothOn(t, ctx, p, goOpts, bot.NewRandom(1), bot.NewRandom(2))
	want := games[1].Outcome().Result
	for i, g := range games {
		tr, err := session.LoadTranscript(g.RecordPath())
		if err != nil {
			t.Fatal(err)
		}
		n := len(tr.Messages)
		for _, drop := range []int{1, 2} {
			cutTr := cut(t, tr, n-drop)
			rep := protocol.Verify(cutTr)
			if says, ok := rep.Describe(cutTr.Peers); ok || rep.Finished || !strings.Contains(says, "not a finished game") {
				t.Errorf("the %s's record without its last %d message(s): ok %v %q", g.Role(), drop, ok, says)
			}
		}
		// The peer signs a report after the end and appends it.
		key := p.hosts[i].Peerstore().PrivKey(p.hosts[i].ID())
		r := g.Role()
		seq, prev := tr.Next(r)
		ack, ackHash := tr.AckFor(r)
		m := protocol.Message{Game: tr.Game, From: r, Seq: seq, Prev: prev, Ack: ack, AckHash: ackHash, Kind: protocol.KindViolation,
			Body: session.MustEncodeBody(protocol.ViolationBody{Accused: r.Other(), Rule: "T-3", Detail: "after the end"})}
		resign(t, &m, key)
		if err := tr.Append(m); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "appended.record.json")
		if err := session.SaveTranscript(tr, path); err != nil {
			t.Fatal(err)
		}
		tr, err = session.LoadTranscript(path)
		if err != nil {
			t.Fatal(err)
		}
		rep := protocol.Verify(tr)
		says, ok := rep.Describe(tr.Peers)
		if !ok || rep.Ignored != 1 || rep.Outcome.Result != want || rep.Violation != nil {
			t.Errorf("the %s's record with a report after both results: ok %v %q, want ok %v", g.Role(), ok, says, want)
		}
	}
}

// swallowAfter returns a tamper hook that lets the cheater's messages
// through until its first report, and swallows every message of kinds
// after it: the cheater withholds what it owes.
func swallowAfter(kinds ...protocol.Kind) func(*protocol.Message, crypto.PrivKey) [][]byte {
	var mu sync.Mutex
	reported := false
	return func(m *protocol.Message, _ crypto.PrivKey) [][]byte {
		mu.Lock()
		defer mu.Unlock()
		if m.Kind == protocol.KindViolation {
			reported = true
			return nil
		}
		for _, k := range kinds {
			if reported && m.Kind == k {
				return [][]byte{}
			}
		}
		return nil
	}
}

// TestT15LiveReportInPlaceOfAnAuditOpening: at the end audit (the Phantom
// Go reveals, the HMG-7 openings of unused cards, the GM-8 openings) the
// cheater sends a report in place of its own opening. The report proves
// nothing and ends nothing: either the cheater then opens (the audit
// decides, as without the report) or it withholds its opening and loses
// by forfeit (T-11) — never a forfeit win for the reporter, never an end
// without the audit.
func TestT15LiveReportInPlaceOfAnAuditOpening(t *testing.T) {
	t.Parallel() // waits on a grace, a clock or a stalled peer: wall time, not CPU
	cases := []struct {
		name    string
		o       engine.Options
		cheater protocol.Role
		kind    protocol.Kind
		bots    func() [2]bot.Player
	}{
		// The garbler (inviter) reveals first; the evaluator reports in
		// place of its own reveal.
		{"phantom", engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon}, protocol.Invitee,
			phantomrules.KindReveal, func() [2]bot.Player { return [2]bot.Player{shortBot(3), shortBot(4)} }},
		// Cards never revealed stay to be opened at the end.
		{"hmg", engine.Options{Variant: engine.VariantHMG, Size: 7, Cards: 3, CardsSet: true}, protocol.Inviter,
			hmgrules.KindOpenCards, func() [2]bot.Player {
				return [2]bot.Player{newHMGCheater([]engine.Point{vertexOn(t, 7, "C3"), vertexOn(t, 7, "G7"), vertexOn(t, 7, "E5")}, false), bot.NewRandom(2)}
			}},
		// The inviter opens first; the invitee reports in place of its
		// openings.
		{"gomoku", gomokuOpts, protocol.Invitee, gomokurules.KindOpenAll,
			func() [2]bot.Player { return [2]bot.Player{bot.NewRandom(1), bot.NewRandom(2)} }},
	}
	for _, tc := range cases {
		for _, withhold := range []bool{false, true} {
			name := tc.name + "/then opens"
			if withhold {
				name = tc.name + "/then withholds"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel() // waits on graces: wall time
				setup := func(c *session.Config) {
					reportInstead(1, "T-3", lastOfOther, tc.kind)(c)
					if withhold {
						session.SetTamper(c, swallowAfter(tc.kind))
					}
				}
				grace := func(i int, c *session.Config) {
					// The honest peer waits briefly for an opening that
					// is withheld, and long enough for one that comes
					// (under -race an audit takes seconds).
					c.AutoGrace = time.Minute
					if withhold && protocol.Role(i) != tc.cheater {
						c.AutoGrace = time.Second
					}
				}
				rg := playReportGame(t, tc.o, tc.cheater, setup, tc.bots(), grace)
				tr := rg.honest.Transcript()
				reports := 0
				for _, m := range tr.Messages {
					if m.Kind == protocol.KindViolation && m.From == rg.cheater.Role() {
						reports++
					}
				}
				if reports != 1 {
					t.Fatalf("the honest record holds %d reports of the cheater, want 1 (the test did not run its case)", reports)
				}
				if withhold {
					// Challenged, then abandoned after another grace
					// (REC-D12, REC-D13): a win for the honest player,
					// as reported.
					checkReportGame(t, rg, honestWins, "ABANDONED")
					if out := rg.honest.Outcome(); out.Violation == nil || out.Violation.Rule != "T-11" || out.Violation.Accused != rg.cheater.Role() || !out.Abandoned || out.Proven {
						t.Errorf("honest outcome %+v, want the cheater's abandonment, as reported", out)
					}
					return
				}
				checkReportGame(t, rg, rulesDecide, "unproven report")
				audited := false
				for _, m := range tr.Messages {
					audited = audited || (m.Kind == tc.kind && m.From == rg.cheater.Role())
				}
				if !audited {
					t.Errorf("the cheater never opened its secrets: no audit")
				}
			})
		}
	}
}

// TestT15PhantomAccusationOpensNothingFirst: a program that accuses the
// other of deviating (phantom-accuse) opens none of its secrets with the
// accusation; the accused reveals first and the accuser after it, and the
// audit decides (here: nobody deviated, so the accuser loses, T-14). Run
// with the garbler and with the evaluator as the accuser.
func TestT15PhantomAccusationOpensNothingFirst(t *testing.T) {
	t.Parallel()
	for _, accuser := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
		t.Run(accuser.String(), func(t *testing.T) {
			h := playPhantomCheat(t, engine.RulesHamburg, int(accuser), nil,
				&cheatingBot{Player: shortBot(uint64(11 + accuser)), cheat: session.PhantomFalseAccusation{}})
			checkPhantomCaught(t, h, "T-14", "false accusation")
			tr, err := session.LoadTranscript(h.RecordPath())
			if err != nil {
				t.Fatal(err)
			}
			var order []protocol.Role
			accused := false
			for _, m := range tr.Messages {
				switch m.Kind {
				case phantomrules.KindAccuse:
					accused = true
					if m.From != accuser || strings.Contains(string(m.Body), "seed") || strings.Contains(string(m.Body), "tries") {
						t.Errorf("the accusation %s from the %s carries secrets or comes from the wrong side", m.Body, m.From)
					}
				case phantomrules.KindReveal:
					order = append(order, m.From)
				}
			}
			if !accused || len(order) != 2 || order[0] != accuser.Other() || order[1] != accuser {
				t.Errorf("accusation %v, reveals by %v; want the accused (%s) to reveal first, then the accuser", accused, order, accuser.Other())
			}
		})
	}
}

// chattyPlayer chats twice at its second turn of play before it moves, so
// that two of its messages follow each other without one of the other
// peer's in between.
type chattyPlayer struct {
	bot.Player
	mu    sync.Mutex
	turns int
	chats int
}

func (p *chattyPlayer) Choose(v protocol.View) protocol.Action {
	p.mu.Lock()
	defer p.mu.Unlock()
	if v.Phase == protocol.PhasePlay {
		if p.turns == 1 && p.chats < 2 {
			p.chats++
			return protocol.Chat{Text: "hello"}
		}
		p.turns++
	}
	return p.Player.Choose(v)
}

// TestT13LiveGapEvidence: the cheater reports with the honest peer's
// newest message as evidence, and on the wire lowers its report's
// acknowledgement so that the evidence is a later message than the next
// one the report acknowledges (a gap). A gap proves nothing: the report
// changes nothing (REC-D11), and the honest record says why. The report
// on the wire is not the one the cheater signed into its own record:
// its next message chains to the other, which the honest peer proves
// (T-3), and the cheater loses.
func TestT13LiveGapEvidence(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	var mu sync.Mutex
	var cheaterGame *session.Game
	rewrite := func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
		mu.Lock()
		defer mu.Unlock()
		if kind != protocol.KindMove || cheaterGame != nil {
			return kind, body, false
		}
		chats := 0
		for _, m := range g.Transcript().Messages {
			if m.From != g.Role() && m.Kind == protocol.KindChat {
				chats++
			}
		}
		if chats < 2 {
			return kind, body, false
		}
		cheaterGame = g
		return protocol.KindViolation, protocol.ViolationBody{Accused: g.Role().Other(), Rule: "T-3",
			Detail: "a gap made up by a cheating program", Evidence: lastOfOther(g)}, false
	}
	tamper := func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		if m.Kind != protocol.KindViolation {
			return nil
		}
		mu.Lock()
		g := cheaterGame
		mu.Unlock()
		// Acknowledge two messages fewer: the evidence is then two ahead.
		c := *m
		c.Ack -= 2
		c.AckHash = g.Transcript().Find(g.Role().Other(), uint64(c.Ack)).Hash()
		resign(t, &c, key)
		return [][]byte{session.FrameOf(&c)}
	}
	setup := func(c *session.Config) {
		session.SetRewrite(c, rewrite)
		session.SetTamper(c, tamper)
	}
	rg := playReportGame(t, goOpts, protocol.Inviter, setup, [2]bot.Player{bot.NewRandom(1), &chattyPlayer{Player: bot.NewRandom(2)}})
	out := rg.honest.Outcome()
	if out == nil || out.Report == nil || out.Report.Verdict != protocol.VerdictProven || out.Violation.Rule != "T-3" || out.Violation.Accused != rg.cheater.Role() {
		t.Fatalf("honest outcome %+v, want the cheater's broken chain proven", out)
	}
	tr, err := session.LoadTranscript(rg.honest.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	rep := protocol.Verify(tr)
	says, ok := rep.Describe(tr.Peers)
	if ok || !rep.Finished || len(rep.Standing) != 1 || !strings.Contains(says, "gap") || !strings.Contains(says, "does not chain") {
		t.Errorf("kakure verify on the honest record: %q, want the gap report standing and the broken chain proven", says)
	}
	// The cheater's own record holds the report it signed first (with
	// the full acknowledgement); the honest report's acknowledgement names
	// the other version, which its program drops: nothing there blames
	// the honest player.
	tr, err = session.LoadTranscript(rg.cheater.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	rep = protocol.Verify(tr)
	says, _ = rep.Describe(tr.Peers)
	if rep.Violation != nil && rep.Violation.Accused == rg.honest.Role() {
		t.Errorf("kakure verify on the cheater's record blames the honest player: %q", says)
	}
}

// TestT3LiveBrokenChainAndBadAck: the cheater sends a move whose prev
// does not chain to its previous message, or whose acknowledgement names
// a version of the honest peer's message that does not exist. The honest
// peer's transcript check refuses each at once (T-3). A broken chain is
// the cheater's own signed word: proven, the cheater loses. A bad
// acknowledgement proves nothing against its signer (REC-D2): dropped
// (T-10), the stream started again, on which the cheater's program sends
// its move as it signed it: the rules decide.
func TestT3LiveBrokenChainAndBadAck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(m *protocol.Message)
		want   honestVerdict
		text   string
	}{
		{"broken chain", func(m *protocol.Message) { m.Prev[0] ^= 1 }, honestWins, "does not chain"},
		{"bad ack hash", func(m *protocol.Message) { m.AckHash[0] ^= 1 }, rulesDecide, "ok: result"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hook := cheatOn(protocol.KindMove, 2, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
				tt.change(m)
				resign(t, m, key)
				return [][]byte{session.FrameOf(m)}
			})
			rg := playReportGame(t, goOpts, protocol.Inviter, func(c *session.Config) { session.SetTamper(c, hook) },
				[2]bot.Player{bot.NewRandom(1), bot.NewRandom(2)})
			checkReportGame(t, rg, tt.want, tt.text)
		})
	}
}
