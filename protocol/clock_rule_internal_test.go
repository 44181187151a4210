package protocol

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
)

// clockPath is one of the three ways a variant's clocks run, reached in a
// real game of testdata/records: a clock is set once the record's message
// start is next (the records have none), message claim is the first
// message that ends its sender's timed turn, and message settle the
// other's first that may settle that claim.
type clockPath struct {
	name, record         string
	start, claim, settle int
}

// clockPaths are a move (Go: one clock runs, CLK-D8), a simultaneous
// choice (F-Go: both clocks run, CLK-D14) and a Phantom Go try (CLK-D16).
var clockPaths = []clockPath{
	{name: "move", record: "go", start: 6, claim: 6, settle: 7},
	// The offer of message 6 is no timed message; the inviter commits
	// (7), the invitee commits (8) and its opening (9) settles the
	// inviter's commitment.
	{name: "choice", record: "fgo", start: 7, claim: 7, settle: 9},
	// The invitee's try (12), the evaluator's player's, is settled by
	// the garbling of the inviter's program (13).
	{name: "try", record: "phantom", start: 12, claim: 12, settle: 13},
}

// clockRuleCase is one case of the one clock rule, the same for each
// clockPath.
type clockRuleCase struct {
	name    string
	control string // "" is 10s absolute; "none" no time control
	// adjourned adjourns the game before the claiming message.
	adjourned bool
	// settle stamps the settling message with chargeMS, after the claim
	// was made with claimMS; otherwise the claiming message is stamped
	// with thinkMS. again stamps a second copy of the claiming message,
	// sent after the first (claimMS) when its sender's turn is over: the
	// rules refuse it out of turn before the clock sees it, so the clock's
	// part (clockMove) is given it directly.
	settle, again     bool
	claimMS           int64
	thinkMS, chargeMS int64
	// wantRule is the rule the stamped message's sender breaks, "" for
	// none; wantLost is its loss on time by its own word (CLK-D9);
	// otherwise wantLeft is what the clock charged leaves the player the
	// stamp is about (the sender's own, or the settled claimant's).
	wantRule string
	wantLost bool
	wantLeft time.Duration
	// spent is what the settler's settlements exceeded the other's
	// claims by before (CLK-D34: its budget is 10 s at the 1 s
	// allowance).
	spent time.Duration
}

var clockRuleCases = []clockRuleCase{
	{name: "think time in time (CLK-D8)", thinkMS: 2000, wantLeft: 8 * time.Second},
	{name: "think time of all it had is in time (CLK-D4)", thinkMS: 10000, wantLeft: 0},
	{name: "think time past the clock loses on time (CLK-D9)", thinkMS: 10001, wantLost: true},
	{name: "negative think time (T-10)", thinkMS: -1, wantRule: "T-10"},
	{name: "think time beyond any clock (T-10)", thinkMS: int64(1000*clock.MaxMain/time.Millisecond) + 1, wantRule: "T-10"},
	{name: "think time past the longest clock loses on time (CLK-D9)", thinkMS: int64(1000 * clock.MaxMain / time.Millisecond), wantLost: true},
	{name: "negative settlement (T-10)", settle: true, claimMS: 2000, chargeMS: -1, wantRule: "T-10"},
	{name: "no time control, a stamp (T-10)", control: "none", thinkMS: 1, wantRule: "T-10"},
	{name: "the turn that ends an adjournment claims time (CLK-D13)", adjourned: true, thinkMS: 1, wantRule: "CLK-D13"},
	{name: "the turn that ends an adjournment is free (CLK-D13)", adjourned: true, thinkMS: 0, wantLeft: 10 * time.Second},
	{name: "stamp on a message that ends no timed turn (T-10)", again: true, claimMS: 2000, thinkMS: 1, wantRule: "T-10"},
	{name: "settlement on a message that ends no timed turn (T-10)", again: true, claimMS: 2000, chargeMS: 2001, wantRule: "T-10"},
	{name: "Fischer: the increment after the move (CLK-D5)", control: "10s+2s", thinkMS: 3000, wantLeft: 9 * time.Second},
	{name: "byo-yomi: two periods used up, one left (CLK-D5)", control: "10s+3x5s", thinkMS: 22000, wantLeft: 5 * time.Second},
	{name: "byo-yomi: the last period used up loses on time (CLK-D9)", control: "10s+3x5s", thinkMS: 25001, wantLost: true},
	{name: "byo-yomi: a move at the last period's last moment keeps it (CLK-D5)", control: "10s+3x5s", thinkMS: 25000, wantLeft: 5 * time.Second},
	{name: "settlement above the claim (CLK-D8)", settle: true, claimMS: 2000, chargeMS: 2001, wantLeft: 10*time.Second - 2001*time.Millisecond},
	{name: "settlement equal to the claim (CLK-D8)", settle: true, claimMS: 2000, chargeMS: 2000, wantRule: "CLK-D8"},
	{name: "settlement below the claim (CLK-D8)", settle: true, claimMS: 2000, chargeMS: 1999, wantRule: "CLK-D8"},
	{name: "settlement of all it had (CLK-D8)", settle: true, claimMS: 9000, chargeMS: 10000, wantLeft: 0},
	{name: "settlement at the lag allowance above the claim (CLK-D34)", settle: true, claimMS: 2000, chargeMS: 3000, wantLeft: 7 * time.Second},
	{name: "settlement 1 ms past the lag allowance above the claim (CLK-D34)", settle: true, claimMS: 2000, chargeMS: 3001, wantRule: "CLK-D34"},
	{name: "settlement that spends the last of the budget (CLK-D34)", settle: true, spent: 9 * time.Second, claimMS: 2000, chargeMS: 3000, wantLeft: 7 * time.Second},
	{name: "settlement 1 ms past the budget (CLK-D34)", settle: true, spent: 9*time.Second + time.Millisecond, claimMS: 2000, chargeMS: 3000, wantRule: "CLK-D34"},
	{name: "settlement of all it had past the lag allowance (CLK-D34)", settle: true, claimMS: 2000, chargeMS: 10000, wantRule: "CLK-D34"},
	{name: "settlement past the clock is a time-out claim (CLK-D9)", settle: true, claimMS: 2000, chargeMS: 10001, wantRule: "CLK-D9"},
	{name: "settlement of a free turn (CLK-D13)", settle: true, adjourned: true, claimMS: 0, chargeMS: 1, wantRule: "CLK-D8"},
}

// TestCLKOneRuleD4D5D8D9D13 (CLK-D30, checking CLK-D4, CLK-D5, CLK-D8,
// CLK-D9, CLK-D13, CLK-D34 and T-10): the same cases of a clock stamp (in
// time, past the clock, negative, out of range, on no timed turn, ending
// an adjournment, Fischer, byo-yomi, settlements at, below, above and past
// the claim, at and 1 ms past CLK-D34's cap and budget, and of a free
// turn) give the same verdict and the same clock
// through a move (Go), a simultaneous choice (F-Go) and a Phantom Go try,
// each in a real game of testdata/records.
func TestCLKOneRuleD4D5D8D9D13(t *testing.T) {
	t.Parallel()
	for _, path := range clockPaths {
		tr, err := readRecordFile(filepath.Join("testdata", "records", path.record+".record.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range clockRuleCases {
			t.Run(path.name+"/"+tc.name, func(t *testing.T) {
				checkClockRuleCase(t, tr, path, tc)
			})
		}
	}
}

// checkClockRuleCase replays tr to the case's stamped message and checks
// what the machine makes of it.
func checkClockRuleCase(t *testing.T, tr *Transcript, path clockPath, tc clockRuleCase) {
	t.Helper()
	m := NewMachine(tr.Game)
	apply := func(msg Message) error {
		_, err := m.Apply(&msg)
		return err
	}
	for i := range tr.Messages[:path.start] {
		if err := apply(tr.Messages[i]); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	if tc.control != "none" {
		control := "10s"
		if tc.control != "" {
			control = tc.control
		}
		m.Options.Time, m.Options.Lag = clock.MustParse(control), time.Second
		m.startClocks()
	}
	if tc.adjourned {
		m.Clocks.Adjourned = true
	}
	claim := tr.Messages[path.claim]
	if m.Clocks != nil {
		m.Clocks.excess[claim.From.Other()] = tc.spent
	}
	stamped, about := claim, claim.From
	switch {
	case tc.settle || tc.again:
		for i := path.start; i < path.settle; i++ {
			msg := tr.Messages[i]
			if i == path.claim {
				msg.Body = stampBody(msg.Body, tc.claimMS, 0)
			}
			if err := apply(msg); err != nil {
				t.Fatalf("message %d: %v", i, err)
			}
			if tc.again && i == path.claim {
				break
			}
		}
		if tc.settle {
			stamped = tr.Messages[path.settle]
		}
	}
	stamped.Body = stampBody(stamped.Body, tc.thinkMS, tc.chargeMS)
	if tc.settle && stamped.From == about {
		t.Fatalf("message %d settles its own sender's claim", path.settle)
	}
	var err error
	if tc.again {
		_, _, err = m.clockMove(&stamped)
	} else {
		err = apply(stamped)
	}
	var v *Violation
	switch {
	case tc.wantRule != "":
		if !errors.As(err, &v) || v.Rule != tc.wantRule || v.Accused != stamped.From {
			t.Fatalf("the %s's %s: %v, want %s by its sender", stamped.From, stamped.Kind, err, tc.wantRule)
		}
	case err != nil:
		t.Fatalf("the %s's %s: %v", stamped.From, stamped.Kind, err)
	case tc.wantLost:
		o := m.Outcome
		if o == nil || o.Result.By != engine.ByTime || o.Violation == nil || o.Violation.Rule != "CLK-D9" || o.Violation.Accused != stamped.From || !o.Proven {
			t.Fatalf("outcome %+v, want the %s's loss on time by its own word", o, stamped.From)
		}
	default:
		if m.Outcome != nil {
			t.Fatalf("outcome %+v, want the game going on", m.Outcome)
		}
		if m.Clocks.Adjourned {
			t.Error("the game is still adjourned")
		}
		if got := m.Clocks.Control.Left(chargedClock(m, about)); got != tc.wantLeft {
			t.Errorf("the %s's clock as charged leaves %v, want %v", about, got, tc.wantLeft)
		}
	}
}

// chargedClock is role r's clock with its move under way charged: in
// Phantom Go the tries of a move are charged to the clock when the move
// ends (CLK-D16).
func chargedClock(m *Machine, r Role) clock.State {
	if p := m.Clocks.tries; p != nil && p.role == r {
		s, err := m.Clocks.Control.Charge(p.before, p.used)
		if err != nil {
			panic(err)
		}
		return s
	}
	return m.Clocks.state[r]
}

// stampBody adds a clock stamp to a body whose last fields are the
// optional think_ms and charge_ms, as its program would write it.
func stampBody(body []byte, thinkMS, chargeMS int64) []byte {
	s := strings.TrimSuffix(string(body), "}")
	if thinkMS != 0 {
		s += fmt.Sprintf(`,"think_ms":%d`, thinkMS)
	}
	if chargeMS != 0 {
		s += fmt.Sprintf(`,"charge_ms":%d`, chargeMS)
	}
	return []byte(s + "}")
}
