package protocol_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
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
func staleChallenge(kind protocol.Kind) func(c *protocol.Config) {
	var mu sync.Mutex
	done := false
	return func(c *protocol.Config) {
		protocol.SetRewrite(c, func(g *protocol.Game, k protocol.Kind, body any) (protocol.Kind, any, bool) {
			mu.Lock()
			defer mu.Unlock()
			if k != kind || done {
				return k, body, false
			}
			done = true
			return protocol.KindViolation, protocol.ViolationBody{Accused: g.Role().Other(), Rule: "T-11",
				Detail: "withheld (a stale acknowledgement made up by a cheating program)"}, false
		})
		protocol.SetAck(c, func(g *protocol.Game, k protocol.Kind, ack int64) int64 {
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
		{"fgo-open", fgo, protocol.Invitee, protocol.KindFGoOpen},
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
// program ends the game as abandoned by the cheater, as reported — in
// both records; the game never hangs.
func TestT11WithheldCountMarkIsAbandoned(t *testing.T) {
	t.Parallel() // waits on graces: wall time, not CPU
	grace := func(i int, c *protocol.Config) {
		c.AutoGrace = testenv.Duration(time.Second)
		c.CountGrace = testenv.Duration(2 * time.Second)
	}
	// The cheater (inviter) passes like the honest player, and the tamper
	// hook swallows whatever it would send in the count.
	swallow := func(c *protocol.Config) { protocol.SetTamper(c, swallowKinds(protocol.KindMark, protocol.KindAgree)) }
	rg := playReportGame(t, goOpts, protocol.Inviter, swallow, [2]bot.Player{passer{}, passer{}}, grace)
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
