package phantomrules

import (
	"fmt"

	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/mpc/referee"
)

// Phantom Go over the network, what travels and what a player sees: the
// message kinds, the stages, the bodies and their attachments, the events
// and the view. The rules that judge the messages are rules.go.

// Kinds of Phantom Go messages (docs/phantom-net.md). The inviter is the
// garbler of the secure referee, the invitee the evaluator, whatever their
// colours.
const (
	// KindCommit: the garbler's commitment to its seed (T-8); in
	// a game of the correlated input OTs (MPC-D28) also the start of the
	// reverse extension's base OTs (one attachment, none otherwise).
	KindCommit protocol.Kind = "phantom-commit"
	// KindSetup: the evaluator's commitment to its seed and the
	// start of the base OTs (one attachment); in a game of the
	// correlated input OTs also its answer to the reverse base OTs (a
	// second attachment).
	KindSetup protocol.Kind = "phantom-setup"
	// KindBase: the garbler's answer to the base OTs (one
	// attachment); in a game of the correlated input OTs also the
	// reverse request of try 0 (a second attachment).
	KindBase protocol.Kind = "phantom-base"
	// KindTry: a try of the evaluator's player, as the OT request
	// of the evaluator's inputs (one attachment).
	KindTry protocol.Kind = "phantom-try"
	// KindRequest: the evaluator's OT request of a try of the
	// garbler's player, sent by the program (one attachment).
	KindRequest protocol.Kind = "phantom-request"
	// KindTryGarbling: a try of the garbler's player, as the
	// garbling of the try (three attachments: tables, labels, OT reply;
	// in a game of the correlated input OTs a fourth, the reverse
	// request of the next try).
	KindTryGarbling protocol.Kind = "phantom-try-garbling"
	// KindGarbling: the garbling of a try of the evaluator's
	// player, sent by the program (three attachments).
	KindGarbling protocol.Kind = "phantom-garbling"
	// KindCommitment: in a game whose tries are checked
	// (Options.Lambda > 1, T-8(b)), the garbler's commitments to the λ
	// garblings of the try and the OT reply, sent by the program (two
	// attachments).
	KindCommitment protocol.Kind = "phantom-commitment"
	// KindChoice: in a checked game, the evaluator's choice of the
	// garbling it keeps, sent by the program once it has checked the
	// others (one attachment).
	KindChoice protocol.Kind = "phantom-choice"
	// KindOutputs: the evaluator's outputs of a try: the event
	// bits in the clear and the garbler's output labels (one attachment).
	KindOutputs protocol.Kind = "phantom-outputs"
	// KindFlips: in a game whose evaluator's tries come by flips
	// (Options.TryFlips, MPC-D52), a try of the evaluator's player, as
	// the flips of the random try bits its request carried (one
	// attachment), sent after its choice. Its request, the commitment
	// and the choice went before its player played.
	KindFlips protocol.Kind = "phantom-flips"
	// KindReveal: a party's seed and tries, at the end of play
	// (PG-9) or in answer to an accusation. The program sends it.
	KindReveal protocol.Kind = "phantom-reveal"
	// KindAccuse: an accusation sent in place of a try message by
	// a program that caught the other deviating (PN-D6). It opens
	// nothing: the accused reveals first, then the accuser (T-15), and
	// the audit names the cheater, or the accuser if nobody cheated.
	KindAccuse protocol.Kind = "phantom-accuse"
)

// Stage is where a game of Phantom Go stands inside PhasePlay.
type Stage string

// The stages of a Phantom Go game.
const (
	StageSetup   Stage = "setup"   // seed commitments and base OTs
	StagePlay    Stage = "play"    // tries through the secure referee
	StageReveal  Stage = "reveal"  // seeds and tries revealed for the audit
	StageScoring Stage = "scoring" // dead stones agreed on the revealed board (GO-4)
	StageOpen    Stage = "open"    // play resumed in the open (PN-D7)
	StageDone    Stage = "done"
)

// CommitBody is the body of KindCommit. ReverseBase is, in
// a game of the correlated input OTs (MPC-D28), the digest of the
// garbler's start of the reverse extension's base OTs, absent otherwise.
type CommitBody struct {
	Commitment  commit.Commitment `json:"commitment"`
	ReverseBase referee.Digest    `json:"reverse_base,omitzero"`
	Bulk        [][]byte          `json:"-"`
}

// SetupBody is the body of KindSetup. ReverseBase is, in
// a game of the correlated input OTs (MPC-D28), the digest of the
// evaluator's answer to the reverse base OTs, absent otherwise.
type SetupBody struct {
	Commitment  commit.Commitment `json:"commitment"`
	Base        referee.Digest    `json:"base"`
	ReverseBase referee.Digest    `json:"reverse_base,omitzero"`
	Bulk        [][]byte          `json:"-"`
}

// BaseBody is the body of KindBase. Reverse is, in a game
// of the correlated input OTs (MPC-D28), the digest of the garbler's
// reverse request of try 0, absent otherwise.
type BaseBody struct {
	Base    referee.Digest `json:"base"`
	Reverse referee.Digest `json:"reverse,omitzero"`
	Bulk    [][]byte       `json:"-"`
}

// RequestBody is the body of KindTry and
// KindRequest: the try number and the digest of the OT request.
type RequestBody struct {
	Try     uint64         `json:"try"`
	Request referee.Digest `json:"request"`
	// ThinkMS is the try's think time, on a try of the evaluator's
	// player in a game with a time control (CLK-D16).
	ThinkMS int64    `json:"think_ms,omitempty"`
	Bulk    [][]byte `json:"-"`
}

// GarblingBody is the body of KindTryGarbling and
// KindGarbling.
type GarblingBody struct {
	Try    uint64         `json:"try"`
	Tables referee.Digest `json:"tables"`
	Labels referee.Digest `json:"labels"`
	Reply  referee.Digest `json:"reply"`
	// Reverse is, in a game of the correlated input OTs (MPC-D28), the
	// digest of the garbler's reverse request of the next try, absent
	// otherwise. The evaluator takes it once this try's outputs are in
	// the record and the game goes on (it is the next try's, and the
	// record holds it from then).
	Reverse referee.Digest `json:"reverse,omitzero"`
	// ThinkMS is the try's think time on a try of the garbler's player,
	// ChargeMS the settlement of the evaluator's try on the garbling of
	// one, in a game with a time control (CLK-D16).
	ThinkMS  int64    `json:"think_ms,omitempty"`
	ChargeMS int64    `json:"charge_ms,omitempty"`
	Bulk     [][]byte `json:"-"`
}

// CommitmentBody is the body of KindCommitment.
type CommitmentBody struct {
	Try         uint64         `json:"try"`
	Commitments referee.Digest `json:"commitments"`
	Reply       referee.Digest `json:"reply"`
	Bulk        [][]byte       `json:"-"`
}

// ChoiceBody is the body of KindChoice.
type ChoiceBody struct {
	Try    uint64         `json:"try"`
	Choice referee.Digest `json:"choice"`
	Bulk   [][]byte       `json:"-"`
}

// FlipsBody is the body of KindFlips: the try number and the digest of
// the evaluator's flips message (referee.Evaluator.Flips).
type FlipsBody struct {
	Try   uint64         `json:"try"`
	Flips referee.Digest `json:"flips"`
	// ThinkMS is the try's think time, in a game with a time control
	// (CLK-D16, CLK-D32).
	ThinkMS int64    `json:"think_ms,omitempty"`
	Bulk    [][]byte `json:"-"`
}

// OutputsBody is the body of KindOutputs.
type OutputsBody struct {
	Try    uint64         `json:"try"`
	Pass   bool           `json:"pass"`
	Legal  bool           `json:"legal"`
	Labels referee.Digest `json:"labels"`
	// ChargeMS settles a try of the garbler's player, in a game with a
	// time control (CLK-D16).
	ChargeMS int64    `json:"charge_ms,omitempty"`
	Bulk     [][]byte `json:"-"`
}

// RevealBody is the body of KindReveal: the opening of the
// seed commitment and the player's tries in order (GTP vertices, "pass").
type RevealBody struct {
	Seed  commit.Opening `json:"seed"`
	Tries []string       `json:"tries"`
}

// AccuseBody is the body of KindAccuse: what the accuser
// caught. It holds none of the accuser's secrets (T-15).
type AccuseBody struct {
	Accuse string `json:"accuse"`
}

// Attachments returns the body's attachments (Bulk), which travel in bulk
// frames beside its message and are bound by the digests it signs.
func (b CommitBody) Attachments() [][]byte   { return b.Bulk }
func (b SetupBody) Attachments() [][]byte    { return b.Bulk }
func (b BaseBody) Attachments() [][]byte     { return b.Bulk }
func (b RequestBody) Attachments() [][]byte  { return b.Bulk }
func (b GarblingBody) Attachments() [][]byte { return b.Bulk }
func (b OutputsBody) Attachments() [][]byte  { return b.Bulk }
func (b CommitmentBody) Attachments() [][]byte {
	return b.Bulk
}
func (b ChoiceBody) Attachments() [][]byte { return b.Bulk }
func (b FlipsBody) Attachments() [][]byte  { return b.Bulk }

// EventTry: a try went through the secure referee. Event is what
// both players are told (moved, illegal, pass); each player's own
// announcement is in its view (View.Announcements).
type EventTry struct {
	Try   uint64
	Mover engine.Color
	Event phantom.Event
}

// EventStep: a message of the secure referee went through (Sent
// of the try's three messages, five in a checked game): whose turn it is
// to send may have changed.
type EventStep struct {
	Try  uint64
	Sent int
}

// EventRevealed: the audit passed; the whole board is known to
// both players.
type EventRevealed struct{ Board engine.Board }

func (EventTry) IsEvent()      {}
func (EventStep) IsEvent()     {}
func (EventRevealed) IsEvent() {}

// View is what a player of Phantom Go over the network sees:
// the public state of the game, and (filled in by its own program) its
// own view of the board and the announcements it was told.
type View struct {
	Stage Stage
	Rules engine.PhantomRules
	// ToMove is the colour whose try is next, Passes the consecutive
	// passes, Tries the number of tries so far.
	ToMove engine.Color
	Passes int
	Tries  uint64
	// Referee is the whole game once the audit passed (stages scoring,
	// open, done): the board, the player to move.
	Revealed bool
	Referee  phantom.Referee
	// The dead-stone agreement (GO-4).
	Scoring     bool
	HasProposal bool
	Proposer    protocol.Role
	Proposal    []engine.Point

	// Own is the local player's view: its stones, the opponent stones it
	// knows, its log of announcements.
	Own phantom.View
	// Announcements are the local player's announcements in the rule
	// set's words, oldest first.
	Announcements []string
	// MyTry is true when the local player may choose a try now (Play).
	MyTry bool
	// Caught is what this program caught the other program doing, when it
	// did: the audit will name who cheated.
	Caught string
}

// Progress implements [VariantView]: the moves played and the tries,
// illegal ones included: a Phantom game of 60 moves may take 200 tries,
// each a secure computation.
func (vv View) Progress() string {
	moves := 0
	for _, a := range vv.Own.Log() {
		if a.Event == phantom.Moved || a.Event == phantom.Passed {
			moves++
		}
	}
	return fmt.Sprintf("move %d, %d tries", moves, vv.Tries)
}

// OpponentJustPassed implements [VariantView]: in play, the other side's
// last announcement in this player's log was a pass.
func (vv View) OpponentJustPassed(engine.Color) bool {
	if vv.Scoring || vv.Stage != StagePlay {
		return false
	}
	log := vv.Own.Log()
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Mover != vv.Own.Me() {
			return log[i].Event == phantom.Passed
		}
	}
	return false
}

// The clock stamp of its bodies (CLK-D8, clock_stamp.go):
// the try (a request, or the garbler's try-garbling) carries
// the think time; the garbling and the outputs that settle the other's
// try carry the settlement (CLK-D16).

// Stamp writes the clock stamp RequestBody carries (CLK-D8).
func (b RequestBody) Stamp(kind protocol.Kind, think, _ int64) any {
	if kind == KindTry {
		b.ThinkMS = think
	}
	return b
}

// Stamp writes the clock stamp GarblingBody carries (CLK-D8).
func (b GarblingBody) Stamp(kind protocol.Kind, think, charge int64) any {
	switch kind {
	case KindTryGarbling:
		b.ThinkMS = think
	case KindGarbling:
		b.ChargeMS = charge
	}
	return b
}

// Stamp writes the clock stamp FlipsBody carries (CLK-D8, CLK-D32).
func (b FlipsBody) Stamp(_ protocol.Kind, think, _ int64) any {
	b.ThinkMS = think
	return b
}

// Stamp writes the clock stamp OutputsBody carries (CLK-D8).
func (b OutputsBody) Stamp(_ protocol.Kind, _, charge int64) any {
	b.ChargeMS = charge
	return b
}
