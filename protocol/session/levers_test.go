package session_test

import (
	"crypto/rand"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// Issue 30's levers, each tried by a modified program against the
// unmodified one (real hosts on loopback): none of them makes the honest
// player lose, voids the game or stalls it, and both records give one
// verdict.

// staleChallenge returns a cheater's setup that replaces its first
// message of kind by a T-11 report against the other program, and signs
// that report with a stale acknowledgement: the one before the honest
// program's newest message, which it had. In the game as the stale ack
// shows it, the honest program still owes that message.
func staleChallenge(kind protocol.Kind) func(c *session.Config) {
	var mu sync.Mutex
	done := false
	return func(c *session.Config) {
		session.SetRewrite(c, func(g *session.Game, k protocol.Kind, body any) (protocol.Kind, any, bool) {
			mu.Lock()
			defer mu.Unlock()
			if k != kind || done {
				return k, body, false
			}
			done = true
			return protocol.KindViolation, protocol.ViolationBody{Accused: g.Role().Other(), Rule: "T-11",
				Detail: "withheld (a stale acknowledgement made up by a cheating program)"}, false
		})
		session.SetAck(c, func(g *session.Game, k protocol.Kind, ack int64) int64 {
			if k == protocol.KindViolation {
				return ack - 1
			}
			return ack
		})
	}
}

// TestT11StaleAckConvictsNobody (T-11, REC-D12; issue 30 case 1): the
// cheater reports the honest program's newest automatic message as
// withheld, acknowledging only the message before it. Before REC-D12 the
// honest program judged the report on the stale view, found itself owing,
// and signed its own forfeit (at the coin toss, in the confirm phase after
// it had won by count, at F-Go's first opening). Now the report is a
// challenge the record already answers: it changes nothing, the honest
// program sends again what the cheater says it lacks, and the game goes on
// to its end by the rules, the same on both records.
func TestT11StaleAckConvictsNobody(t *testing.T) {
	t.Parallel() // games of random bots: the CPU is the other tests'
	quick := [2]bot.Player{quickBot(31, 20), quickBot(32, 20)}
	fgo := engine.Options{Variant: engine.VariantFGo, Size: 5}
	cases := []struct {
		name    string
		o       engine.Options
		cheater protocol.Role
		kind    protocol.Kind
	}{
		// The honest inviter's toss commitment hidden: the invitee's own
		// commitment replaced by the report.
		{"toss/inviter honest", goOpts, protocol.Invitee, protocol.KindTossCommit},
		// The honest invitee's toss commitment hidden from the inviter's
		// reveal.
		{"toss/invitee honest", goOpts, protocol.Inviter, protocol.KindTossReveal},
		// The honest inviter's result statement hidden: the confirm phase.
		{"confirm", goOpts, protocol.Invitee, protocol.KindResult},
		// F-Go's first opening.
		{"fgo-open", fgo, protocol.Invitee, fgorules.KindOpen},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rg := playReportGame(t, tc.o, tc.cheater, staleChallenge(tc.kind), quick)
			checkReportGame(t, rg, rulesOrFalse, "")
			challenged := false
			for _, m := range rg.honest.Transcript().Messages {
				challenged = challenged || m.Kind == protocol.KindViolation && m.From == rg.cheater.Role() && strings.Contains(string(m.Body), `"T-11"`)
			}
			if !challenged {
				t.Fatalf("the honest record holds no challenge of the cheater: the case did not run")
			}
		})
	}
}

// TestT11WithheldCountMarkIsAbandoned (T-11, REC-D14; issue 30 case 6):
// the cheater passes to end play, then withholds its marking of dead
// stones while keeping the connection alive. The count has a grace: the
// honest program challenges, the cheater does not answer, and the honest
// program ends the game as abandoned by the cheater, as reported; the
// cheater's record proves nothing against the honest player; the game
// never hangs.
func TestT11WithheldCountMarkIsAbandoned(t *testing.T) {
	t.Parallel() // waits on graces: wall time, not CPU
	grace := func(i int, c *session.Config) {
		c.AutoGrace = testenv.Duration(time.Second)
		c.CountGrace = testenv.Duration(2 * time.Second)
	}
	// The cheater (inviter) passes like the honest player, and the tamper
	// hook swallows whatever it would send in the count.
	swallow := func(c *session.Config) { session.SetTamper(c, swallowKinds(protocol.KindMark, protocol.KindAgree)) }
	rg := playReportGame(t, goOpts, protocol.Inviter, swallow, [2]bot.Player{passer{}, passer{}}, grace)
	// The cheater's record holds the markings it never delivered: there
	// the honest abandonment may be void, as crossed by them, and the
	// cheater's own challenge of the honest program's answer to them
	// unanswered (REC-D13's limit). It proves nothing against the honest
	// player; the honest record gives the verdict.
	rg.withheld = true
	checkReportGame(t, rg, honestWins, "ABANDONED")
	out := rg.honest.Outcome()
	if !out.Abandoned || out.Violation == nil || out.Violation.Accused != protocol.Inviter || out.Proven {
		t.Errorf("honest outcome %+v, want the cheater's abandonment, as reported", out)
	}
}

// passer passes at every turn of play, and marks no dead stones in the
// count (a marking of none, or agreement with one).
type passer struct{}

func (passer) Choose(v protocol.View) protocol.Action {
	if v.Phase != protocol.PhasePlay || !v.MyTurn {
		return nil
	}
	for _, k := range v.Kinds {
		if k == protocol.KindAgree {
			return protocol.AgreeScore{}
		}
	}
	for _, k := range v.Kinds {
		if k == protocol.KindMark {
			return protocol.MarkDead{}
		}
	}
	return protocol.Play{Point: engine.Pass}
}

// swallowKinds returns a tamper hook that swallows every message of
// kinds: the cheater withholds them with the connection up, while its own
// record holds them.
func swallowKinds(kinds ...protocol.Kind) func(*protocol.Message, crypto.PrivKey) [][]byte {
	return func(m *protocol.Message, _ crypto.PrivKey) [][]byte {
		for _, k := range kinds {
			if m.Kind == k {
				return [][]byte{}
			}
		}
		return nil
	}
}

// silenceCase is a phase of a variant in which one program falls silent:
// from its nth message of kind on, nothing it sends reaches the other
// (its own record holds it all), while the connection stays up.
type silenceCase struct {
	o       engine.Options
	cheater protocol.Role
	kind    protocol.Kind
	n       int
	// full: run only in the full tier.
	full bool
}

// silenceFrom returns a tamper hook that swallows the cheater's nth
// message of kind and every message of its after it, and sends again none
// of them: the cheater withholds what it owes from that point on.
func silenceFrom(kind protocol.Kind, n int) func(*protocol.Message, crypto.PrivKey) [][]byte {
	var mu sync.Mutex
	seen, from := 0, uint64(1<<63)
	return func(m *protocol.Message, _ crypto.PrivKey) [][]byte {
		mu.Lock()
		defer mu.Unlock()
		if m.Seq >= from {
			return [][]byte{}
		}
		if m.Kind == kind {
			if seen++; seen == n {
				from = m.Seq
				return [][]byte{}
			}
		}
		return nil
	}
}

// TestT11EveryPhaseEndsWhenAPeerFallsSilent (T-11, REC-D14, CLK-D17;
// issue 30 case 6): in each variant, a program falls silent in one phase
// after another — the coin toss, play, the secure referee's steps, the
// reveals, openings and audits at the end, the result statements — with
// its connection up, in a timed game. The honest program never waits for
// ever: a message on a grace is challenged and the game abandoned, a move
// is claimed on time and the claim's unanswered answer challenged. The
// honest player wins (as reported: an absence cannot be proven), never
// loses, and the game is never void. The default tier runs one phase of
// each kind; KAKURE_TEST_FULL=1 runs them all.
func TestT11EveryPhaseEndsWhenAPeerFallsSilent(t *testing.T) {
	t.Parallel() // waits on graces and clocks: wall time, not CPU
	clockText := "0+1x5s"
	timedVariant := func(o engine.Options) engine.Options {
		o.Time, o.Lag = clock.MustParse(clockText), testLag
		return o
	}
	goO := timedVariant(engine.Options{Variant: engine.VariantGo, Size: 5})
	bridgeO := timedVariant(engine.Options{Variant: engine.VariantBridge, Size: 5})
	fgoO := timedVariant(engine.Options{Variant: engine.VariantFGo, Size: 5})
	hmgO := timedVariant(engine.Options{Variant: engine.VariantHMG, Size: 5, Cards: 2, CardsSet: true})
	gomokuO := timedVariant(engine.Options{Variant: engine.VariantGomoku, Size: 9})
	phantomO := timedVariant(engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon})
	in, out := protocol.Invitee, protocol.Inviter
	cases := []silenceCase{
		{goO, out, protocol.KindTossReveal, 1, false},
		{goO, in, protocol.KindTossCommit, 1, true},
		{goO, out, protocol.KindMove, 2, false},
		{goO, in, protocol.KindResult, 1, true},
		{bridgeO, in, protocol.KindMove, 3, true},
		{fgoO, out, fgorules.KindCommit, 2, true},
		{fgoO, in, fgorules.KindOpen, 2, false},
		{hmgO, out, hmgrules.KindCards, 1, true},
		{hmgO, in, protocol.KindMove, 2, true},
		{hmgO, out, hmgrules.KindOpenCards, 1, false},
		{gomokuO, out, gomokurules.KindOpening, 1, true},
		{gomokuO, in, gomokurules.KindSide, 1, true},
		{gomokuO, out, gomokurules.KindAnnounce, 2, true},
		{gomokuO, in, gomokurules.KindResponse, 1, true},
		{gomokuO, out, gomokurules.KindReveal, 1, false},
		{gomokuO, in, gomokurules.KindOpenAll, 1, true},
		{phantomO, out, phantomrules.KindCommit, 1, true},
		{phantomO, in, phantomrules.KindSetup, 1, true},
		{phantomO, out, phantomrules.KindTryGarbling, 2, true},
		{phantomO, in, phantomrules.KindTry, 2, true},
		{phantomO, in, phantomrules.KindOutputs, 3, false},
		{phantomO, out, phantomrules.KindGarbling, 2, true},
		{phantomO, out, phantomrules.KindReveal, 1, true},
	}
	for _, tc := range cases {
		name := fmt.Sprintf("%s/%s/%s#%d", tc.o.Variant, tc.cheater, tc.kind, tc.n)
		t.Run(name, func(t *testing.T) {
			if tc.full {
				testenv.SkipUnlessFull(t, "a phase the default tier leaves out")
			}
			t.Parallel()
			grace := func(i int, c *session.Config) {
				c.AutoGrace = testenv.Duration(time.Second)
				c.CountGrace = testenv.Duration(2 * time.Second)
				if protocol.Role(i) == tc.cheater {
					// The silent program does not end the game first by
					// its own abandonment of the messages it lacks (its
					// record holds what it never delivered): once over,
					// it closes the connection, and a lost connection
					// adjourns the honest game instead (T-11).
					c.AutoGrace = testenv.Duration(time.Minute)
					c.CountGrace = testenv.Duration(time.Minute)
				}
			}
			bots := [2]bot.Player{quickBot(41, 12), quickBot(42, 12)}
			if tc.o.Variant == engine.VariantPhantom {
				bots = [2]bot.Player{shortBot(41), shortBot(42)}
			}
			setup := func(c *session.Config) { session.SetTamper(c, silenceFrom(tc.kind, tc.n)) }
			rg := playReportGame(t, tc.o, tc.cheater, setup, bots, grace)
			out := rg.honest.Outcome()
			me := rg.honest.View().Color
			if out.Result.Winner == engine.Empty && out.Result.By == engine.ByDispute {
				t.Fatalf("the game is void: %v (%v)", out.Result, out.Violation)
			}
			silenced := false
			for _, m := range rg.cheater.Transcript().Messages {
				silenced = silenced || m.From == tc.cheater && m.Kind == tc.kind
			}
			if !silenced {
				t.Skipf("the game ended (%v) before the cheater's %s #%d: the case did not run", out.Result, tc.kind, tc.n)
			}
			if me == engine.Empty {
				// Decided before the toss: the inviter counts as Black.
				me = engine.White
				if rg.honest.Role() == protocol.Inviter {
					me = engine.Black
				}
			}
			if out.Result.Winner != me {
				t.Errorf("honest outcome %v (%v), want a win for the honest %v", out.Result, out.Violation, me)
			}
			if out.Violation != nil && out.Violation.Accused == rg.honest.Role() {
				t.Errorf("the honest player is named: %v", out.Violation)
			}
			// The honest record says so. The cheater's record holds the
			// messages it never delivered, so there the honest
			// abandonment may be void (REC-D13: it cannot tell them from
			// an answer that crossed it); it must prove nothing against
			// the honest player.
			for _, g := range []*session.Game{rg.honest, rg.cheater} {
				tr, err := session.LoadTranscript(g.RecordPath())
				if err != nil {
					t.Fatal(err)
				}
				rep := protocol.Verify(tr)
				says, _ := rep.Describe(tr.Peers)
				if g == rg.honest && (!rep.Finished || rep.Outcome == nil || rep.Outcome.Result != out.Result) {
					t.Errorf("kakure verify on the honest record: %q, want %v", says, out.Result)
				}
				if v := rep.Violation; v != nil && v.Accused == rg.honest.Role() && rep.Proven {
					t.Errorf("kakure verify on the %s's record proves the honest player guilty: %q", g.Role(), says)
				}
			}
		})
	}
}

// TestT10GarbageChangesNothing (T-10; issue 30 case 4): the cheater sends,
// next to its own moves, input that is not a valid signed message of the
// game: an unparsable frame, a message of another game, a copy of its move
// with a bad signature, a hello of another game, an attachment in a game
// of plain Go. Before T-10 as written each made the honest program file
// an unproven report, and the game ended Void. Now each is dropped,
// logged and counted: no report, the game goes on to its end by the
// rules, and the honest record verifies with no violation.
func TestT10GarbageChangesNothing(t *testing.T) {
	t.Parallel()
	otherKey, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	garbage := []struct {
		name  string
		extra func(m *protocol.Message, key crypto.PrivKey) []byte
	}{
		{"unparsable", func(*protocol.Message, crypto.PrivKey) []byte { return []byte("{not json") }},
		{"another game", func(m *protocol.Message, key crypto.PrivKey) []byte {
			c := *m
			c.Game[0] ^= 1
			resign(t, &c, key)
			return session.FrameOf(&c)
		}},
		{"bad signature", func(m *protocol.Message, _ crypto.PrivKey) []byte {
			c := *m
			resign(t, &c, otherKey)
			return session.FrameOf(&c)
		}},
		{"hello of another game", func(m *protocol.Message, _ crypto.PrivKey) []byte {
			g := m.Game
			g[0] ^= 1
			return session.HelloFrame(g)
		}},
		{"attachment", func(*protocol.Message, crypto.PrivKey) []byte { return append([]byte{'B'}, make([]byte, 1000)...) }},
	}
	for _, gb := range garbage {
		t.Run(gb.name, func(t *testing.T) {
			t.Parallel()
			// The garbage goes before the cheater's second and third
			// moves, after the move itself on the fourth.
			var mu sync.Mutex
			moves := 0
			hook := func(m *protocol.Message, key crypto.PrivKey) [][]byte {
				mu.Lock()
				defer mu.Unlock()
				if m.Kind != protocol.KindMove {
					return nil
				}
				moves++
				switch moves {
				case 2, 3:
					return [][]byte{gb.extra(m, key), session.FrameOf(m)}
				case 4:
					return [][]byte{session.FrameOf(m), gb.extra(m, key)}
				}
				return nil
			}
			h := playWithCheater(t, goOpts, hook)
			checkDropped(t, h)
		})
	}
}

// latePasser passes; the pass that ends play (after the other's pass) it
// makes late, once its clock and the lag allowance have run out, and its
// program (cheatThink) signs it with a think time within the clock.
type latePasser struct{ late time.Duration }

func (p latePasser) Choose(v protocol.View) protocol.Action {
	if v.Phase != protocol.PhasePlay || !v.MyTurn {
		return nil
	}
	if gv, ok := v.Variant.(gorules.View); ok {
		if gv.Scoring {
			return passer{}.Choose(v)
		}
		if gv.Game.Passes() == 1 {
			time.Sleep(p.late)
		}
	}
	return protocol.Play{Point: engine.Pass}
}

// TestCLKD17LateLastPassIsLostOnTimeOrPlayGoesOn (CLK-D9, CLK-D17; issue
// 30 case 2): the honest player passes; the cheater answers with the pass
// that ends play, arriving past its clock and the lag allowance, signed
// with a think time just within its clock. The honest program claims the
// loss on time about that pass. Before CLK-D17 the machine found no clock
// running (the game was in the count) and ruled the honest claim false:
// the honest player lost. Now the claim stands about the pass, and the
// cheater's program refuses it by its own (false) think time: play goes
// on in the count, and the game ends by the rules; the honest player
// never loses by its claim, and both records agree.
func TestCLKD17LateLastPassIsLostOnTimeOrPlayGoesOn(t *testing.T) {
	t.Parallel() // waits on a clock: wall time, not CPU
	// The cheater (inviter) plays White, so that its pass is the second.
	o := engine.Options{Variant: engine.VariantGo, Size: 5, Time: clock.MustParse("0+1x2s"), Lag: 500 * time.Millisecond, InviterColor: engine.White}
	// Past the clock and the allowance by a little: the honest program's
	// check of the running clock (once a second) has most likely not
	// claimed yet, and claims on the pass's arrival instead (about it).
	late := 2*time.Second + 500*time.Millisecond + 60*time.Millisecond
	setup := func(c *session.Config) {
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if b, ok := body.(protocol.MoveBody); ok && kind == protocol.KindMove && b.Point == "pass" && b.ThinkMS > 1900 {
				b.ThinkMS = 1900
				return kind, b, false
			}
			return kind, body, false
		})
	}
	rg := playReportGame(t, o, protocol.Inviter, setup, [2]bot.Player{latePasser{late: late}, passer{}})
	claimed := false
	for _, m := range rg.honest.Transcript().Messages {
		claimed = claimed || m.Kind == protocol.KindTimeout && m.From == rg.honest.Role()
	}
	out := rg.honest.Outcome()
	if !claimed {
		t.Skipf("the honest program made no claim (the late pass came within the allowance on this machine); outcome %v", out.Result)
	}
	if out.Violation != nil && out.Violation.Accused == rg.honest.Role() {
		t.Fatalf("the honest claim is held against it: %v (%v)", out.Result, out.Violation)
	}
	checkReportGame(t, rg, rulesOrTime, "")
}
