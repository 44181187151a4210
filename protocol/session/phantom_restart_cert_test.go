package session_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// cheatOnce is a bot that, once armed, plays its cheat at its next try
// and then goes on as Player; cheated is set when it has.
type cheatOnce struct {
	bot.Player
	cheat   protocol.Action
	armed   *atomic.Bool
	cheated atomic.Bool
}

func (c *cheatOnce) Choose(v protocol.View) protocol.Action {
	if pv, ok := v.Variant.(phantomrules.View); ok && pv.MyTry && c.armed.Load() && !c.cheated.Load() {
		c.cheated.Store(true)
		return c.cheat
	}
	return c.Player.Choose(v)
}

// TestT8PhantomAuthCertificateAfterARestart (MPC-D29, PN-D9, issue 31's
// item left by MPC-D29/D30 "Restarts"): in a 5×5 game of the
// authenticated state, the honest garbler's program crashes when it has
// taken the evaluator's request of a try and before writing it — its
// record then ends with the try before complete — and resumes from its
// record and secrets. The evaluator's program had flipped a bit of its
// share just before that request: its share is substituted in the first
// try after the garbler's restart. The resumed garbler, whose machine no
// longer held the try before's messages, gets them back (the request
// from its secrets, the commitments and the labels message it kept there
// before sending them, the corrections made again from the seed), so its
// report carries a certificate: the evaluator loses, proven, Verify on
// both records gives the same verdict, and the garbler is never blamed.
// With cheat false the same restart leaves an honest game that ends
// normally, Verify clean on both records (in the pass without the race
// detector).
func TestT8PhantomAuthCertificateAfterARestart(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		mac64, cheat bool
	}{{true, true}, {true, false}, {false, true}} {
		name := "cheat"
		if !c.cheat {
			name = "honest"
			if phantomRace {
				continue // in the pass without the race detector
			}
		}
		t.Run(name+"-"+macOptionName(c.mac64), func(t *testing.T) {
			parallelUnlessRace(t) // each restart its own game (issue 32)
			restartThenSubstitute(t, restartOptions(c.mac64), c.cheat)
		})
	}
}

// restartOptions are the options of the restart tests: a 5×5 Hamburg
// game of the authenticated state, with MACs of 64 bits (MPC-D32, the
// default) or of 128.
func restartOptions(mac64 bool) engine.Options {
	o := authOptions(engine.RulesHamburg)
	if mac64 {
		o = authMAC64Options(engine.RulesHamburg)
	}
	o.Size = 5
	return o
}

// macOptionName names the MAC form of restartOptions in a subtest.
func macOptionName(mac64 bool) string {
	if mac64 {
		return "mac64"
	}
	return "mac128"
}

// restartThenSubstitute is TestT8PhantomAuthCertificateAfterARestart's
// game: the garbler (inviter) crashes on taking the evaluator's request
// of its try (after the evaluator cheated, or at its third try).
func restartThenSubstitute(t *testing.T, o engine.Options, cheat bool) {
	const garbler, evaluator = protocol.Inviter, protocol.Invitee
	var armed, crashArmed atomic.Bool
	var panics, tries atomic.Int32
	evalBot := &cheatOnce{Player: quickBot(12, 12), cheat: session.PhantomAlterShare{}, armed: &armed}
	p := newPair(t, func(i int, cfg *session.Config) {
		if protocol.Role(i) != garbler {
			return
		}
		session.SetPanicHook(cfg, func(g *session.Game, where string) {
			if where != "saved" || !crashArmed.Load() {
				return
			}
			tr := g.Transcript()
			last := tr.Messages[len(tr.Messages)-1]
			if last.From != garbler || last.Kind != phantomrules.KindCommitment {
				return
			}
			if cheat && !evalBot.cheated.Load() || !cheat && tries.Add(1) != 3 {
				return
			}
			crashArmed.Store(false)
			panics.Add(1)
			panic(panicValue)
		})
	})
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(2*time.Minute))
	defer cancel()
	crashArmed.Store(true)
	// The evaluator cheats at its third try (the try before's share
	// authenticated by then, so that a certificate needs its messages).
	games := inviteAccepted(t, ctx, p, o)
	var evalTries atomic.Int32
	counting := &countTries{Player: evalBot, n: &evalTries, at: 3, arm: &armed}
	if !cheat {
		counting.arm = nil
	}
	resumed, out, theirOut, theirErr := crashThenResume(t, ctx, p, games, garbler, [2]bot.Player{quickBot(11, 12), counting}, quickBot(21, 12), &panics, nil)
	if !cheat {
		expectAgreed(t, resumed, games[evaluator], out, theirOut, theirErr)
		return
	}
	if !evalBot.cheated.Load() {
		t.Fatal("the evaluator never cheated")
	}
	checkAuthEvaluatorCaught(t, resumed)
	// Verify on the cheater's record gives the same verdict, proven.
	tr, err := session.LoadTranscript(games[evaluator].RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	rep := protocol.Verify(tr)
	if rep.Violation == nil || rep.Violation.Accused != evaluator || rep.Violation.Rule != "T-8" || !rep.Proven ||
		!strings.Contains(rep.Violation.Detail, "share inputs are not its share") {
		t.Errorf("Verify on the evaluator's record: %+v (proven %v), want T-8 by the evaluator, proven", rep.Violation, rep.Proven)
	}
	if theirOut != nil && (theirOut.Violation == nil || theirOut.Violation.Accused != evaluator) {
		t.Errorf("the evaluator's program ends with %+v", theirOut)
	}
}

// inviteAccepted has the inviter's service invite the invitee's to a game
// of options o, and returns both games.
func inviteAccepted(t *testing.T, ctx context.Context, p *pair, o engine.Options) [2]*session.Game {
	t.Helper()
	return testnet.InviteAccepted(t, ctx, p.services[0], p.services[1], p.hosts[1].ID(), o)
}

// crashThenResume plays games with bots until the program of crashing
// panics once (its panic hook), closes that program's game, calls
// between (if not nil: checks, and what a crash leaves in its files),
// resumes the game and plays it to the end with after. It returns the
// resumed game, its outcome and the other program's outcome and error.
func crashThenResume(t *testing.T, ctx context.Context, p *pair, games [2]*session.Game, crashing protocol.Role, bots [2]bot.Player, after bot.Player,
	panics *atomic.Int32, between func()) (resumed *session.Game, out, theirOut *protocol.Outcome, theirErr error) {
	t.Helper()
	other := crashing.Other()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		theirOut, theirErr = bot.Run(ctx, games[other], bots[other])
	}()
	go bot.Run(ctx, games[crashing], bots[crashing])
	if err := games[crashing].Wait(ctx); err != nil {
		t.Fatalf("the %s's game did not stop: %v", crashing, err)
	}
	if panics.Load() != 1 {
		t.Fatalf("%d crashes injected, want 1 (the game ended first: %+v)", panics.Load(), games[crashing].Outcome())
	}
	games[crashing].Close()
	if between != nil {
		between()
	}
	resumed, err := p.services[crashing].Resume(ctx, games[crashing].ID())
	if err != nil {
		t.Fatalf("Resume: %v", err)
	}
	out, err = bot.Run(ctx, resumed, after)
	if err != nil || out == nil {
		t.Fatalf("the resumed game: outcome %+v, err %v", out, err)
	}
	wg.Wait()
	return resumed, out, theirOut, theirErr
}

// expectAgreed checks that a game resumed after a crash and the other
// program's game ended alike, without a violation, with agreeing
// records.
func expectAgreed(t *testing.T, resumed, other *session.Game, out, theirOut *protocol.Outcome, theirErr error) {
	t.Helper()
	if out.Violation != nil || theirErr != nil || theirOut == nil || theirOut.Violation != nil || theirOut.Result != out.Result {
		t.Fatalf("the peers disagree after a restart: %+v, %+v (%v)", out, theirOut, theirErr)
	}
	checkRecords(t, resumed, other)
}

// countTries arms arm at the Player's at-th try (counted on the views
// that ask for a try, once per try number).
type countTries struct {
	bot.Player
	n    *atomic.Int32
	at   int32
	arm  *atomic.Bool
	last uint64
	seen bool
}

func (c *countTries) Choose(v protocol.View) protocol.Action {
	if pv, ok := v.Variant.(phantomrules.View); ok && pv.MyTry && c.arm != nil {
		if !c.seen || pv.Tries != c.last {
			c.seen, c.last = true, pv.Tries
			if c.n.Add(1) == c.at {
				c.arm.Store(true)
			}
		}
	}
	return c.Player.Choose(v)
}

// TestT8PhantomAuthGarblerCertificateAfterARestart is the other side
// (MPC-D29, PN-D9): the honest evaluator's program crashes right after
// saving its choice of a try — its record then ends with the try before
// complete — and resumes. The garbler's program then sends, with the
// garbling of that try, a MAC opening that is not the one its MACs give
// (a byte of it changed, as a garbler whose share inputs are not its
// share must: the opening is checked against the colours of the labels
// sent, so a substituted share and a wrong opening fail the same check
// with the same certificate). The resumed evaluator has the try
// before's messages back (the commitments and its choice from its
// secrets, the reverse request by its digest), so its report carries a
// certificate: the garbler loses, proven, Verify on both records agrees,
// and the evaluator is never blamed; the same when it crashes right
// after saving its outputs of a try (its record then ends between two
// tries). With no cheat the restart after the choice leaves an honest
// game that ends normally, Verify clean on both records (in the pass
// without the race detector).
func TestT8PhantomAuthGarblerCertificateAfterARestart(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		at    protocol.Kind
		cheat bool
		mac64 bool
	}{{phantomrules.KindChoice, true, true}, {phantomrules.KindChoice, false, true}, {phantomrules.KindOutputs, true, true},
		{phantomrules.KindChoice, true, false}} {
		name := "cheat"
		if !c.cheat {
			name = "honest"
			if phantomRace {
				continue // in the pass without the race detector
			}
		}
		t.Run(name+"-after-"+string(c.at)+"-"+macOptionName(c.mac64), func(t *testing.T) {
			parallelUnlessRace(t) // each restart its own game (issue 32)
			restartThenWrongOpening(t, restartOptions(c.mac64), c.at, c.cheat)
		})
	}
}

// restartThenWrongOpening is TestT8PhantomAuthGarblerCertificateAfterARestart's
// game: the evaluator (invitee) crashes after saving its third message
// of kind at (its choice of a try: the try under way then has the
// garbler's commitment and the evaluator's choice; its outputs: the
// record ends between two tries); with cheat, the garbler's next
// garbling carries a wrong MAC opening.
func restartThenWrongOpening(t *testing.T, o engine.Options, at protocol.Kind, cheat bool) {
	const garbler, evaluator = protocol.Inviter, protocol.Invitee
	var crashArmed, tamperArmed atomic.Bool
	var panics, choices, tampered atomic.Int32
	p := newPair(t, func(i int, cfg *session.Config) {
		if protocol.Role(i) == garbler {
			session.SetRewrite(cfg, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
				if kind != phantomrules.KindGarbling && kind != phantomrules.KindTryGarbling || !tamperArmed.Load() {
					return kind, body, false
				}
				tamperArmed.Store(false)
				tampered.Add(1)
				return kind, session.PhantomTamper(body, 1, func(b []byte) []byte {
					b[len(b)-1] ^= 1 // the MAC opening's last byte
					return b
				}), false
			})
			return
		}
		session.SetPanicHook(cfg, func(g *session.Game, where string) {
			if where != "saved" || !crashArmed.Load() {
				return
			}
			tr := g.Transcript()
			last := tr.Messages[len(tr.Messages)-1]
			if last.From != evaluator || last.Kind != at || choices.Add(1) != 3 {
				return
			}
			crashArmed.Store(false)
			panics.Add(1)
			panic(panicValue)
		})
	})
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(2*time.Minute))
	defer cancel()
	crashArmed.Store(true)
	games := inviteAccepted(t, ctx, p, o)
	// The garbling of the try whose choice the evaluator saved is the
	// first after its restart: the garbler's program cheats in it.
	resumed, out, theirOut, theirErr := crashThenResume(t, ctx, p, games, evaluator, [2]bot.Player{quickBot(11, 12), quickBot(12, 12)}, quickBot(22, 12), &panics,
		func() { tamperArmed.Store(cheat) })
	if !cheat {
		expectAgreed(t, resumed, games[garbler], out, theirOut, theirErr)
		return
	}
	if tampered.Load() != 1 {
		t.Fatalf("%d garblings tampered with, want 1", tampered.Load())
	}
	checkPhantomCaught(t, resumed, "T-8", "share inputs are not its share")
	for _, g := range []*session.Game{resumed, games[garbler]} {
		tr, err := session.LoadTranscript(g.RecordPath())
		if err != nil {
			t.Fatal(err)
		}
		reported := false
		for _, m := range tr.Messages {
			if m.Kind == protocol.KindViolation && m.From == evaluator && strings.Contains(string(m.Body), "evidence") {
				reported = true
			}
		}
		if !reported {
			t.Errorf("the %s's record: the evaluator's report carries no certificate", g.Role())
		}
		rep := protocol.Verify(tr)
		if rep.Violation == nil || rep.Violation.Accused != garbler || rep.Violation.Rule != "T-8" || !rep.Proven {
			t.Errorf("Verify on the %s's record: %+v (proven %v), want T-8 by the garbler, proven", g.Role(), rep.Violation, rep.Proven)
		}
	}
	if theirOut != nil && (theirOut.Violation == nil || theirOut.Violation.Accused != garbler) {
		t.Errorf("the garbler's program ends with %+v", theirOut)
	}
}
