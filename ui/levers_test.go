package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestUID47LeversAreTold (UI-D47; issue 30): the log tells the player what
// issue 30's rules did, in words: a time-out claim and its refusal (play
// goes on), a challenge and an abandonment that changed nothing, input
// dropped as no valid message, and a report that proves nothing.
func TestUID47LeversAreTold(t *testing.T) {
	m := &GameModel{View: protocol.View{Role: protocol.Invitee, Color: engine.White,
		Options: engine.Options{Variant: engine.VariantGo, Size: 9}}}
	unproven := protocol.Judgement{Verdict: protocol.VerdictUnproven, Reporter: protocol.Inviter,
		Reported: &protocol.Violation{Accused: protocol.Invitee, Rule: "T-3"}, Why: "the report has no evidence"}
	tests := []struct {
		e    protocol.Event
		want string
	}{
		{protocol.EventTimeoutClaimed{By: protocol.Inviter}, "claims your flag fell"},
		{protocol.EventTimeoutClaimed{By: protocol.Invitee}, "waits for the opponent's answer"},
		{protocol.EventTimeoutRefused{By: protocol.Inviter, Think: 1900 * time.Millisecond}, "refused your time-out claim (its clock: 1.9s)"},
		{protocol.EventTimeoutRefused{By: protocol.Invitee, Think: 2 * time.Second}, "play goes on"},
		{protocol.EventChallenged{Reporter: protocol.Inviter}, "sends it again"},
		{protocol.EventChallenged{Reporter: protocol.Invitee}, "abandoned by it if it still does not"},
		{protocol.EventAbandonVoid{By: protocol.Inviter}, "changes nothing"},
		{session.EventDropped{Reason: "protocol: a message of another game"}, "dropped: a message of another game"},
		{protocol.EventReport{Judgement: unproven}, "proves nothing (the report has no evidence): it changes nothing"},
	}
	for _, tt := range tests {
		n := len(m.Log)
		m.Apply(nil, tt.e, m.View)
		if len(m.Log) != n+1 || !strings.Contains(m.Log[n], tt.want) {
			t.Errorf("%T: log %q, want a line with %q", tt.e, m.Log[n:], tt.want)
		}
	}
	n := len(m.Log)
	m.Apply(nil, protocol.EventChallenged{Reporter: protocol.Inviter, Answered: true}, m.View)
	if len(m.Log) != n {
		t.Errorf("a challenge the record already answered is told: %q", m.Log[n:])
	}
}

// TestUID47AbandonmentTold (UI-D47, REC-D13): an abandonment's outcome
// says what happened and that it is as reported.
func TestUID47AbandonmentTold(t *testing.T) {
	o := protocol.Outcome{Result: engine.Result{Winner: engine.White, By: engine.ByForfeit}, Abandoned: true,
		Violation: &protocol.Violation{Accused: protocol.Inviter, Rule: "T-11"}}
	if s := DescribeOutcome(o, engine.White, engine.VariantGo); !strings.Contains(s, "Black abandoned the game") || !strings.Contains(s, "as reported") || !strings.Contains(s, "you win") {
		t.Errorf("abandonment told as %q", s)
	}
	o.Result.By = engine.ByTime
	if s := DescribeOutcome(o, engine.Black, engine.VariantGo); !strings.Contains(s, "never answered the claim") || !strings.Contains(s, "you lose") {
		t.Errorf("a claim never answered told as %q", s)
	}
}
