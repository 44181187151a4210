package session_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// REC-D15: two messages cross when each was sent before its sender saw
// the other. Whichever order a record holds them in, the game must be the
// same: both programs' machines and `kakure verify` on both records give
// one verdict. Each case below builds the two messages from the same
// signed record (neither acknowledges the other), appends them in both
// orders, and compares what the machine holds after them.

// crossingCase is a pair of messages that can cross.
type crossingCase struct {
	name string
	// build returns the record both messages were made on, and the two
	// messages (of different roles, neither acknowledging the other).
	build func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message)
	// want is a part of the state both orders must give (so that the
	// case shows what its rule decides, not only that the orders agree).
	want string
}

// afterMoves returns timedGoRecord under control with the moves played:
// each "role:point:thinkMS".
func afterMoves(t *testing.T, control string, moves ...string) *protocol.Transcript {
	t.Helper()
	tr := timedGoRecord(t, control)
	for _, mv := range moves {
		f := strings.Split(mv, ":")
		r := protocol.Invitee
		if f[0] == "inviter" {
			r = protocol.Inviter
		}
		ms, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		move(t, tr, r, f[1], ms, 0)
	}
	return tr
}

// crossPair makes role a's message and role b's on tr, neither seeing the
// other.
func crossPair(t *testing.T, tr *protocol.Transcript, a protocol.Role, ka protocol.Kind, ba any, b protocol.Role, kb protocol.Kind, bb any) (*protocol.Transcript, protocol.Message, protocol.Message) {
	t.Helper()
	return tr, next(t, tr, a, ka, ba), next(t, tr, b, kb, bb)
}

// crossingCases are the pairs that can cross, each with the rule that
// decides it (REC-D15). The invitee plays Black and moves first.
func crossingCases() []crossingCase {
	in, out := protocol.Invitee, protocol.Inviter
	mv := func(p string, ms int64) protocol.MoveBody { return protocol.MoveBody{Point: p, ThinkMS: ms} }
	none := struct{}{}
	return []crossingCase{
		{"resign × move", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			return crossPair(t, afterMoves(t, "10s", "invitee:D4:2000"), in, protocol.KindResign, none, out, protocol.KindMove, mv("C4", 1000))
		}, "W+R"},
		{"resign × resign (the player to move)", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			return crossPair(t, afterMoves(t, "10s", "invitee:D4:2000"), in, protocol.KindResign, none, out, protocol.KindResign, none)
		}, "B+R"},
		{"resign × the pass that ends play", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			return crossPair(t, afterMoves(t, "10s", "invitee:D4:2000", "inviter:C4:1000", "invitee:pass:1000"), in, protocol.KindResign, none,
				out, protocol.KindMove, mv("pass", 1000))
		}, "W+R"},
		{"time-out claim × the flagged move", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			return crossPair(t, afterMoves(t, "10s", "invitee:D4:2000", "inviter:C4:1000"), out, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 8500},
				in, protocol.KindMove, mv("C5", 7000))
		}, "claim waits"},
		{"time-out claim × the message that starts the flagged clock", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			// The invitee's toss opening, the setup's last message,
			// starts its clock as Black: the inviter's claim, sent before
			// it saw it, is about the clock it started (CLK-D35).
			tr := timedGoRecord(t, "10s")
			last := tr.Messages[len(tr.Messages)-1]
			return crossPair(t, cut(t, tr, len(tr.Messages)-1), out, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 10500},
				last.From, last.Kind, json.RawMessage(last.Body))
		}, "claim waits"},
		{"time-out claim × the acceptance of the claimer's undo", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			tr := afterMoves(t, "10s", "invitee:D4:2000", "inviter:C4:1000")
			add(t, tr, out, protocol.KindUndoRequest, protocol.UndoBody{Move: 2})
			// The acceptance takes the claimer's move back and stops the
			// clock the claim was about: the claim changes nothing
			// (CLK-D35); before, one order convicted the claimer.
			return crossPair(t, tr, out, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 9000},
				in, protocol.KindUndoAccept, protocol.UndoBody{Move: 2})
		}, "expected=inviter[move] clocks=[{9s 0 false 0s 0 false 1} {8s 0 false 0s 0 false 1}] adjourned=false asked=false claimed=false"},
		{"time-out claim × the acceptance of the claimer's adjournment", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			tr := afterMoves(t, "10s", "invitee:D4:2000", "inviter:C4:1000")
			add(t, tr, out, protocol.KindAdjournRequest, none)
			return crossPair(t, tr, out, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 8500},
				in, protocol.KindAdjournAccept, none)
		}, "claim waits"},
		{"time-out claim × the pass that ends play", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			return crossPair(t, afterMoves(t, "10s", "invitee:D4:2000", "inviter:pass:1000"), out, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 8500},
				in, protocol.KindMove, mv("pass", 7000))
		}, "claim waits"},
		{"time-out claim × the flagged move past its clock", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			return crossPair(t, afterMoves(t, "10s", "invitee:D4:2000", "inviter:C4:1000"), out, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 8500},
				in, protocol.KindMove, mv("C5", 8200))
		}, "W+T"},
		{"second time-out claim × the refusal of the first", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			tr := afterMoves(t, "10s", "invitee:D4:2000", "inviter:C4:1000")
			add(t, tr, out, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 8500})
			return crossPair(t, tr, out, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 9500},
				in, protocol.KindTimeoutRefuse, protocol.TimeoutRefuseBody{ThinkMS: 7000})
		}, "claimed=false"},
		{"time-out claim × resignation", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			return crossPair(t, afterMoves(t, "10s", "invitee:D4:2000", "inviter:C4:1000"), out, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 8500},
				in, protocol.KindResign, none)
		}, "W+R"},
		{"adjournment accepted × the requester's move", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			tr := afterMoves(t, "10s", "invitee:D4:2000")
			add(t, tr, out, protocol.KindAdjournRequest, none)
			return crossPair(t, tr, in, protocol.KindAdjournAccept, none, out, protocol.KindMove, mv("C4", 1000))
		}, "adjourned=false"},
		{"adjournment asked × the other's move", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			return crossPair(t, afterMoves(t, "10s", "invitee:D4:2000"), in, protocol.KindAdjournRequest, none, out, protocol.KindMove, mv("C4", 1000))
		}, "asked=false"},
		{"adjournment asked × asked", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			return crossPair(t, afterMoves(t, "10s", "invitee:D4:2000"), in, protocol.KindAdjournRequest, none, out, protocol.KindAdjournRequest, none)
		}, "adjourned=true"},
		{"report that proves nothing × move", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			return crossPair(t, afterMoves(t, "10s", "invitee:D4:2000"), in, protocol.KindViolation,
				protocol.ViolationBody{Accused: out, Rule: "T-3", Detail: "nothing"}, out, protocol.KindMove, mv("C4", 1000))
		}, "standing=1"},
		{"proven report × move", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			tr := afterMoves(t, "10s", "invitee:D4:2000", "inviter:C4:1000", "invitee:D5:1000")
			held := *tr.Find(out, uint64(tr.Count(out)-1))
			held.Body = session.MustEncodeBody(mv("A1", 1000))
			resign(t, &held, session.RecordTestKey(out))
			return crossPair(t, tr, in, protocol.KindViolation,
				protocol.ViolationBody{Accused: out, Rule: "T-3", Detail: "equivocation", Evidence: [][]byte{session.FrameOf(&held)}},
				out, protocol.KindMove, mv("C5", 1000))
		}, "B+F"},
		{"chat × move", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			return crossPair(t, afterMoves(t, "10s", "invitee:D4:2000"), in, protocol.KindChat, protocol.ChatBody{Text: "hi"}, out, protocol.KindMove, mv("C4", 1000))
		}, "phase=play"},
		{"undo asked × the other's move", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			return crossPair(t, afterMoves(t, "10s", "invitee:D4:2000"), in, protocol.KindUndoRequest, protocol.UndoBody{Move: 1},
				out, protocol.KindMove, mv("C4", 1000))
		}, "phase=play"},
		{"challenge × its answer", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			full := goRecord(t)
			tr := cut(t, full, 4) // the inviter owes its toss opening
			return crossPair(t, tr, in, protocol.KindViolation, protocol.ViolationBody{Accused: out, Rule: "T-11", Detail: "withheld"},
				out, full.Messages[4].Kind, json.RawMessage(full.Messages[4].Body))
		}, "waiting=0"},
		{"abandonment × the answer to its challenge", func(t *testing.T) (*protocol.Transcript, protocol.Message, protocol.Message) {
			full := goRecord(t)
			tr := cut(t, full, 4)
			add(t, tr, in, protocol.KindViolation, protocol.ViolationBody{Accused: out, Rule: "T-11", Detail: "withheld"})
			return crossPair(t, tr, in, protocol.KindAbandon, protocol.AbandonBody{Challenge: tr.Count(in) - 1},
				out, full.Messages[4].Kind, json.RawMessage(full.Messages[4].Body))
		}, "voided=[invitee]"},
	}
}

// stateAfter is what the machine holds after the messages of tr: the
// outcome, the phase, who is to send what, the clocks, the reports that
// stand, the abandonments voided and what the game waits for.
func stateAfter(t *testing.T, tr *protocol.Transcript) string {
	t.Helper()
	m := protocol.NewMachine(tr.Game)
	var errs []string
	for i := range tr.Messages {
		if _, err := m.Apply(&tr.Messages[i]); err != nil {
			errs = append(errs, fmt.Sprintf("message %d refused: %v", i, err))
		}
	}
	rep := protocol.Verify(tr)
	if m.Phase == protocol.PhaseDone {
		// Over: the verdict is all (a message after the end that did not
		// cross it is no part of the game, REC-D7).
		v := ""
		if o := m.Outcome; o != nil && o.Violation != nil {
			v = fmt.Sprintf(" violation=%s/%s", o.Violation.Rule, o.Violation.Accused)
		}
		return fmt.Sprintf("phase=done outcome=%s%s standing=%d voided=%v", m.Outcome.Result, v, len(rep.Standing), rep.Voided)
	}
	from, kinds := m.Expected()
	var b strings.Builder
	fmt.Fprintf(&b, "phase=%s ", m.Phase)
	if o := m.Outcome; o != nil {
		fmt.Fprintf(&b, "outcome=%s ", o.Result)
		if o.Violation != nil {
			fmt.Fprintf(&b, "violation=%s/%s ", o.Violation.Rule, o.Violation.Accused)
		}
	}
	fmt.Fprintf(&b, "expected=%s%v ", from, kinds)
	if c, ok := m.Clock(); ok {
		fmt.Fprintf(&b, "clocks=%v adjourned=%v asked=%v claimed=%v", c.Clocks, c.Adjourned, c.AdjournAsked, c.Claimed)
		switch {
		case c.ClaimOfNoClock:
			b.WriteString(" (claim of no clock pending)")
		case c.Claimed:
			b.WriteString(" (claim waits)")
		}
		b.WriteString(" ")
	}
	fmt.Fprintf(&b, "standing=%d voided=%v waiting=%d view=%v refused=%v", len(rep.Standing), rep.Voided, len(rep.Waiting), m.PublicView(protocol.Inviter), errs)
	// The view's pointers (its history) are no part of the game.
	return pointers.ReplaceAllString(b.String(), "0x…")
}

var pointers = regexp.MustCompile(`0x[0-9a-f]+`)

// TestRECD15CrossingsGiveOneVerdict (REC-D15, T-14; issue 30 case 3): for
// every pair of messages that can cross, both orders of the same signed
// messages give the same game: the same outcome, phase, turn, clocks,
// standing reports and what the game waits for.
func TestRECD15CrossingsGiveOneVerdict(t *testing.T) {
	for _, c := range crossingCases() {
		t.Run(c.name, func(t *testing.T) {
			tr, a, b := c.build(t)
			if a.Ack >= int64(b.Seq) && a.From != b.From || b.Ack >= int64(a.Seq) {
				t.Fatalf("the messages do not cross (acks %d, %d)", a.Ack, b.Ack)
			}
			orders := [2][2]protocol.Message{{a, b}, {b, a}}
			var states [2]string
			for i, order := range orders {
				c := tr.Clone()
				for _, m := range order {
					if err := c.Append(m); err != nil {
						t.Fatalf("order %d: %v", i, err)
					}
				}
				states[i] = stateAfter(t, c)
			}
			if states[0] != states[1] {
				t.Errorf("the two orders give two games:\n%s then %s: %s\n%s then %s: %s",
					a.Kind, b.Kind, states[0], b.Kind, a.Kind, states[1])
			}
			if !strings.Contains(states[0], c.want) {
				t.Errorf("the game after both: %s, want it to hold %q", states[0], c.want)
			}
			if strings.Contains(states[0], "refused:") {
				t.Errorf("a message of the pair is refused: %s", states[0])
			}
		})
	}
}

// crossingRules says, for every kind of message, why it needs no case of
// its own in crossingCases, or which cases hold its crossings. A kind
// that is not here fails TestRECD15EveryKindHasACrossingRule: a new kind
// must say how it crosses.
var crossingRules = map[protocol.Kind]string{
	protocol.KindResign:         "resign × move, resign × resign, resign × the pass that ends play, time-out claim × resignation",
	protocol.KindChat:           "chat × move (chat changes no state but the chat lines)",
	protocol.KindViolation:      "report that proves nothing × move, proven report × move, challenge × its answer",
	protocol.KindAbandon:        "abandonment × the answer to its challenge",
	protocol.KindTimeout:        "time-out claim × the flagged move, × the pass that ends play, × the message that starts the flagged clock, × the acceptance of the claimer's undo, × the acceptance of its adjournment, × resignation; second time-out claim × the refusal of the first",
	protocol.KindTimeoutRefuse:  "the answer to a claim, sent after it: second time-out claim × the refusal of the first",
	protocol.KindAdjournRequest: "adjournment asked × the other's move, adjournment asked × asked",
	protocol.KindAdjournAccept:  "adjournment accepted × the requester's move",
	protocol.KindUndoRequest:    "undo asked × the other's move",
	protocol.KindUndoAccept:     "in turn: the answer to a request, which a move of the answerer cancels (UNDO-D1)",
	protocol.KindUndoDecline:    "in turn: the answer to a request, which a move of the answerer cancels (UNDO-D1)",
	protocol.KindMove:           "the other side of most cases: a move crosses the other's anytime messages",
	protocol.KindMark:           "in turn: the count's steps alternate (GO-4); crosses only anytime messages, as a move does",
	protocol.KindAgree:          "in turn: the count's steps alternate (GO-4)",
	protocol.KindInvite:         "the first message",
	protocol.KindAccept:         "in turn: the answer to the invitation",
	protocol.KindDecline:        "in turn: the answer to the invitation",
	protocol.KindTossCommit:     "in turn: the toss steps alternate (T-4)",
	protocol.KindTossReveal:     "challenge × its answer (an automatic step)",
	protocol.KindResult:         "in turn: the inviter states first; a result crosses nothing but chat",
	fgorules.KindCommit:         "F-Go's commitments cross each other under a clock: they hide the choices and either order gives the same turn (CLK-D14, TestCLKD14FGoBothClocksRun)",
	fgorules.KindOpen:           "in turn: the openings follow both commitments (FG-N1)",
	fgorules.KindOffer:          "in turn: bargaining (FG-7), not under a clock",
	fgorules.KindAccept:         "in turn: the answer to an offer",
	fgorules.KindDecline:        "in turn: the answer to an offer",
	hmgrules.KindCards:          "in turn: the card choices alternate (HMG-2)",
	hmgrules.KindReveal:         "in turn: within the mover's turn",
	hmgrules.KindOpenCards:      "in turn: the openings at the end alternate (HMG-7)",
	gomokurules.KindOpening:     "in turn (GM-2)", gomokurules.KindSide: "in turn (GM-2)",
	gomokurules.KindCommit: "in turn", gomokurules.KindPass: "in turn", gomokurules.KindNoLegalPoint: "in turn",
	gomokurules.KindAnnounce: "in turn", gomokurules.KindResponse: "in turn", gomokurules.KindReveal: "in turn",
	gomokurules.KindDeclare: "in turn", gomokurules.KindOpenAll: "in turn: the openings at the end alternate (GM-8)",
	phantomrules.KindCommit: "in turn: the secure computation's steps follow each other (PN-D1)",
	phantomrules.KindSetup:  "in turn", phantomrules.KindBase: "in turn", phantomrules.KindTry: "in turn",
	phantomrules.KindRequest: "in turn", phantomrules.KindTryGarbling: "in turn", phantomrules.KindGarbling: "in turn",
	phantomrules.KindCommitment: "in turn", phantomrules.KindChoice: "in turn", phantomrules.KindOutputs: "in turn",
	phantomrules.KindFlips:  "in turn: after its sender's own choice, before the garbling (PN-D22)",
	phantomrules.KindReveal: "in turn: the reveals alternate (PN-D13; a resignation crossing a Phantom Go message is PN-D13's own rule, TestPN10PhantomResignationCrossingAMessage)",
	phantomrules.KindAccuse: "in turn: in place of a try message",
}

// TestRECD15EveryKindHasACrossingRule: every kind of message the package
// declares (a constant of type Kind) is in crossingRules.
func TestRECD15EveryKindHasACrossingRule(t *testing.T) {
	declared := protocol.Kinds()
	sort.Slice(declared, func(i, j int) bool { return declared[i] < declared[j] })
	if len(declared) < 40 {
		t.Fatalf("found %d kinds: the test reads the package wrong", len(declared))
	}
	for _, k := range declared {
		if crossingRules[k] == "" {
			t.Errorf("kind %q has no crossing rule: say in crossingRules (and REC-D15) how it crosses the other's messages", k)
		}
	}
}
