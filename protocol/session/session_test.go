package session_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// playBots plays one game between two random bots on real hosts and
// returns both games.
func playBots(t *testing.T, p *pair, o engine.Options, seed uint64) (*session.Game, *session.Game) {
	t.Helper()
	return playPlayers(t, p, o, bot.NewRandom(seed), bot.NewRandom(seed+1))
}

// playPlayers plays one game between the inviter's and the invitee's
// players on real hosts and returns both games.
func playPlayers(t *testing.T, p *pair, o engine.Options, inviter, invitee bot.Player) (*session.Game, *session.Game) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()
	bots := testnet.StartBotGame(ctx, p.services[0], p.services[1], p.hosts[1].ID(), o, [2]bot.Player{inviter, invitee})
	stopWatch := watchForStall(t, bots)
	out, err := bots.Result(protocol.Inviter)
	stopWatch()
	host := bots.Game(protocol.Inviter)
	if host == nil {
		t.Fatalf("Invite: %v", err)
	}
	stalled := func() string {
		report := stallReport(host)
		if g := bots.Game(protocol.Invitee); g != nil {
			report += stallReport(g)
		}
		return report
	}
	if err != nil {
		t.Fatalf("inviter bot: %v\n%s", err, stalled())
	}
	guestOut, err := bots.Result(protocol.Invitee)
	if err != nil {
		t.Fatalf("invitee bot: %v\n%s", err, stalled())
	}
	if out == nil || guestOut == nil {
		t.Fatalf("a game ended without outcome: %v %v", out, guestOut)
	}
	if out.Result != guestOut.Result {
		t.Fatalf("the peers disagree on the result: %v vs %v", out.Result, guestOut.Result)
	}
	return host, bots.Game(protocol.Invitee)
}

// watchForStall logs, once, where both games stand and the stacks of
// the test process's goroutines in kakure's code when neither record has
// grown for a stretched 20 s while the game goes on: what each side was
// waiting for when a bot game stalls (seen under load, issue 32). It
// returns the function that stops the watch.
func watchForStall(t *testing.T, bots *testnet.BotGame) (stop func()) {
	done := make(chan struct{})
	go func() {
		count := func() int {
			n := 0
			for _, g := range []*session.Game{bots.Game(protocol.Inviter), bots.Game(protocol.Invitee)} {
				if g != nil {
					n += len(g.Transcript().Messages)
				}
			}
			return n
		}
		last, since := count(), time.Now()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			host := bots.Game(protocol.Inviter)
			if host != nil && host.Outcome() != nil {
				return
			}
			if n := count(); n != last {
				last, since = n, time.Now()
				continue
			}
			if time.Since(since) < testenv.Duration(20*time.Second) {
				continue
			}
			var report string
			for _, g := range []*session.Game{host, bots.Game(protocol.Invitee)} {
				if g != nil {
					report += stallReport(g)
				}
			}
			t.Logf("no message for %v:\n%s%s", time.Since(since).Round(time.Second), report, kakureStacks())
			return
		}
	}()
	return func() { close(done) }
}

// kakureStacks returns the stacks of this process's goroutines that run
// kakure's protocol or bot code.
func kakureStacks() string {
	buf := make([]byte, 8<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var kept []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "kakure/kakure/protocol.") || strings.Contains(g, "kakure/kakure/bot.") {
			kept = append(kept, g)
		}
	}
	// Other tests run beside this one: their goroutines are here too.
	const most = 60
	more := ""
	if len(kept) > most {
		more = fmt.Sprintf("\n\n(and %d more)", len(kept)-most)
		kept = kept[:most]
	}
	return "goroutines in kakure's code (of every test running):\n" + strings.Join(kept, "\n\n") + more
}

// stallReport describes where a game stands, for a test whose bots did
// not finish it in time: whose turn, in which phase, and the last
// messages of its record (which side waited on which).
func stallReport(g *session.Game) string {
	v := g.View()
	var b strings.Builder
	fmt.Fprintf(&b, "%s's game: phase %v, my turn %v (kinds %v), adjourned %v, outcome %v\n", g.Role(), v.Phase, v.MyTurn, v.Kinds, v.Adjourned, v.Outcome)
	msgs := g.Transcript().Messages
	for _, m := range msgs[max(len(msgs)-4, 0):] {
		fmt.Fprintf(&b, "  message %d of the %s: %s %.200s\n", m.Seq, m.From, m.Kind, m.Body)
	}
	return b.String()
}

func TestPlainGoGameOverLoopback(t *testing.T) {
	p := newPair(t)
	a, b := playBots(t, p, engine.Options{Variant: engine.VariantGo, Size: 5}, 1)
	if a.Outcome().Result.By != engine.ByScore {
		t.Errorf("result %v, want a count", a.Outcome().Result)
	}
	for _, g := range []*session.Game{a, b} {
		tr, err := session.LoadTranscript(g.RecordPath())
		if err != nil {
			t.Fatalf("saved record: %v", err)
		}
		if len(tr.Messages) < 10 {
			t.Errorf("record of %s holds %d messages", g.Role(), len(tr.Messages))
		}
	}
}
