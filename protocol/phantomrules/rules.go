package phantomrules

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/referee"
)

// Phantom Go over the network, the rules that judge its messages: the
// public machine (phantomRules) every peer and Verify run, from the setup
// through the tries to the audit and the count. What travels (kinds,
// bodies, events, the view) is wire.go.

func init() {
	protocol.Register(protocol.VariantEntry{
		Variant: engine.VariantPhantom,
		NewRules: func(m *protocol.Machine) (protocol.VariantRules, error) {
			ref, err := phantom.NewReferee(m.Options)
			if err != nil {
				return nil, err
			}
			return &Rules{Machine: m, Public: referee.NewPublic(), Referee: ref}, nil
		},
		Kinds: map[protocol.Kind]protocol.KindAttrs{
			KindCommit:      {Automatic: true},
			KindSetup:       {Automatic: true},
			KindBase:        {Automatic: true},
			KindTry:         {Timed: true},
			KindRequest:     {Timed: true, Automatic: true},
			KindTryGarbling: {Timed: true},
			KindGarbling:    {Timed: true, Automatic: true},
			KindCommitment:  {Automatic: true},
			KindChoice:      {Automatic: true},
			KindFlips:       {Timed: true},
			KindOutputs:     {Timed: true, Automatic: true},
			KindReveal:      {Automatic: true},
			KindAccuse:      {},
		},
		BroadcastMove:    func(k protocol.Kind) bool { return k == KindOutputs },
		TurnCount:        protocol.TurnAnnounced,
		JudgeCertificate: judgePhantomCertificate,
	})
}

// The garbler and the evaluator: the inviter garbles (PN-D1).
const (
	Garbler   = protocol.Inviter
	Evaluator = protocol.Invitee
)

// PartyOf returns the referee's party that role r plays: the inviter
// garbles (Garbler), the invitee evaluates.
func PartyOf(r protocol.Role) circuit.Party {
	if r == Garbler {
		return circuit.Garbler
	}
	return circuit.Evaluator
}

func roleOf(p circuit.Party) protocol.Role {
	if p == circuit.Garbler {
		return Garbler
	}
	return Evaluator
}

// Rules is Phantom Go over the network as everyone can check it:
// the public state of the secure referee (whose turn, passes), the
// digests of every message, the reveals and the audit, then GO-4 scoring
// on the revealed board. It holds no secret.
type Rules struct {
	Machine *protocol.Machine
	commits [2]bool
	Record  referee.Record
	Public  referee.Public
	reveals [2]*referee.Reveal
	accuser *protocol.Role
	accused string
	// After the audit: the whole game, scoring, play in the open.
	audited   bool
	Replay    *referee.Replay
	Referee   phantom.Referee
	open      bool
	Score     protocol.Scoring
	violation *protocol.Violation
	// nextReverse is, in a game of the correlated input OTs (MPC-D28),
	// the digest of the reverse request of the next try that the
	// garbling of the try under way carried: the next try's record takes
	// it once this try's outputs are applied and the game goes on.
	nextReverse referee.Digest
	// resigned: a player resigned and the reveal and audit run all the
	// same (PN-D13); suspended while a message that crossed the
	// resignation is judged.
	resigned, suspended bool
}

// Config returns the referee configuration of the game.
func (h *Rules) Config() referee.Config {
	return referee.Config{Size: h.Machine.Options.Size, Rules: h.Machine.Options.Rules,
		GarblerColor: h.Machine.Colors[Garbler], Game: h.Machine.Game[:], Komi: h.Machine.Options.Komi, Lambda: h.Machine.Options.Lambda,
		Scheme: garblingScheme(h.Machine.Options.Garbling), InputOT: inputOTForm(h.Machine.Options.InputOT),
		AuthState: engine.AuthenticatedInputOT(h.Machine.Options.InputOT), MACBits: macBits(h.Machine.Options.InputOT),
		TryFlips: FlipsOn(h.Machine.Options)}
}

// FlipsOn reports whether the evaluator's tries of a game of options o
// come by flips (MPC-D52): o switches them on (engine.OptionTryFlips)
// and its tries are checked with the correlated input OTs; the switch
// changes nothing in other games.
func FlipsOn(o engine.Options) bool { return o.TryFlips() && CorrelatedInputs(o) }

// macBits returns the length of the garbler's MACs an invitation's
// Options.InputOT names (referee.Config.MACBits): 64 for
// engine.InputOTAuthenticatedMAC64 (MPC-D32), else 0 (128 bits in games
// of MPC-D29, none in the others).
func macBits(name string) int {
	if name == engine.InputOTAuthenticatedMAC64 {
		return ot.KappaMAC
	}
	return 0
}

// Correlated reports whether the game's input OTs are the correlated
// ones (MPC-D28).
func (h *Rules) Correlated() bool { return CorrelatedInputs(h.Machine.Options) }

// CorrelatedInputs reports whether a game of options o has the correlated
// input OTs (MPC-D28); Normalize allows them only with λ > 1.
func CorrelatedInputs(o engine.Options) bool {
	return (o.InputOT == engine.InputOTCorrelated || engine.AuthenticatedInputOT(o.InputOT)) && o.Lambda > 1
}

// reverseDigest checks a reverse digest of a body against the game's
// form of the input OTs: present exactly in a game of the correlated
// input OTs (MPC-D28), else T-10.
func (h *Rules) reverseDigest(from protocol.Role, seq uint64, kind protocol.Kind, d referee.Digest) error {
	zero := d == (referee.Digest{})
	switch {
	case h.Correlated() && zero:
		return protocol.NewViolation(from, seq, "T-10", "%s message without its reverse OT digest (input OTs correlated, MPC-D28)", kind)
	case !h.Correlated() && !zero:
		return protocol.NewViolation(from, seq, "T-10", "%s message with a reverse OT digest in a game without correlated input OTs", kind)
	}
	return nil
}

// inputOTForm returns the form of the input OTs an invitation's
// Options.InputOT names (MPC-D28): the game's one OT extension (MPC-D18)
// when it names none, as older invitations; an invalid form, which
// referee.Config.Validate refuses, for a name Normalize would have
// refused.
func inputOTForm(name string) referee.InputOT {
	switch name {
	case "":
		return referee.InputOTExtension
	case referee.InputOTCorrelated.String(), engine.InputOTAuthenticated, engine.InputOTAuthenticatedMAC64:
		// The authenticated state (MPC-D29, MPC-D32) runs on the
		// correlated OTs.
		return referee.InputOTCorrelated
	}
	return referee.InputOT(255)
}

// garblingScheme returns the garbling scheme an invitation's
// Options.Garbling names (MPC-D26): half-gates when it names none, as
// older invitations; an invalid scheme, which referee.Config.Validate
// refuses, for a name Normalize would have refused.
func garblingScheme(name string) gc.Scheme {
	if name == "" {
		return gc.HalfGates
	}
	s, err := gc.ParseScheme(name)
	if err != nil {
		return gc.Scheme(255)
	}
	return s
}

// Stage returns where the game stands.
func (h *Rules) Stage() Stage {
	switch {
	case h.violation != nil || h.Score.Agreed:
		return StageDone
	case h.resigned && !h.suspended && h.audited:
		return StageDone
	case h.resigned && !h.suspended:
		return StageReveal
	case h.audited && h.open:
		return StageOpen
	case h.audited:
		return StageScoring
	case h.accuser != nil || h.Public.Ended():
		return StageReveal
	case !h.suspended && (h.reveals[0] != nil || h.reveals[1] != nil):
		// A reveal after a resignation (none is in before one) does not
		// count for a message that crossed the resignation.
		return StageReveal
	case h.Record.BaseSent < 2:
		return StageSetup
	}
	return StagePlay
}

// Current returns the try under way and how many of its messages were
// sent (0 when the last try is complete).
func (h *Rules) Current() (referee.TryRecord, int) {
	if n := len(h.Record.Tries); n > 0 && h.Record.Tries[n-1].Sent < h.messages() {
		return h.Record.Tries[n-1], h.Record.Tries[n-1].Sent
	}
	return referee.TryRecord{}, 0
}

// messages returns the number of messages of the try under way when it
// is complete: referee.Config.MessagesOf its mover's party (six for a
// try of the evaluator's player by flips, MPC-D52).
func (h *Rules) messages() int {
	cfg := h.Config()
	return cfg.MessagesOf(cfg.PartyOf(h.Public.ToMove))
}

// Flipped reports whether the try under way comes by flips (MPC-D52): a
// try of the evaluator's player in a game of Options.TryFlips. Its
// request, commitment and choice go before its player plays; its
// player's try is KindFlips.
func (h *Rules) Flipped() bool {
	return FlipsOn(h.Machine.Options) && h.Stage() == StagePlay && h.moverRole() == Evaluator
}

// moverRole returns the role whose player is to try.
func (h *Rules) moverRole() protocol.Role { return h.Machine.RoleOf(h.Public.ToMove) }

func (h *Rules) Expected() (protocol.Role, []protocol.Kind, bool) {
	switch h.Stage() {
	case StageDone:
		return protocol.Inviter, nil, true
	case StageSetup:
		switch {
		case !h.commits[Garbler]:
			return Garbler, []protocol.Kind{KindCommit}, false
		case !h.commits[Evaluator]:
			return Evaluator, []protocol.Kind{KindSetup}, false
		}
		return Garbler, []protocol.Kind{KindBase, KindAccuse}, false
	case StagePlay:
		mover := h.moverRole()
		_, sent := h.Current()
		if h.Flipped() {
			// The evaluator's try by flips (MPC-D52): its request,
			// the commitment and its choice ahead of its player, then
			// its player's try (the flips), the garbling and the
			// outputs.
			kinds := [...]struct {
				from protocol.Role
				kind protocol.Kind
			}{{Evaluator, KindRequest}, {Garbler, KindCommitment}, {Evaluator, KindChoice},
				{Evaluator, KindFlips}, {Garbler, KindGarbling}, {Evaluator, KindOutputs}}
			k := kinds[min(sent, len(kinds)-1)]
			return k.from, []protocol.Kind{k.kind, KindAccuse}, false
		}
		if h.Machine.Options.Lambda > 1 {
			// A checked try (T-8(b)): commitment and choice come between
			// the request and the garbling.
			switch sent {
			case 1:
				return Garbler, []protocol.Kind{KindCommitment, KindAccuse}, false
			case 2:
				return Evaluator, []protocol.Kind{KindChoice, KindAccuse}, false
			case 3:
				sent = 1
			case 4:
				sent = 2
			}
		}
		switch sent {
		case 0:
			if mover == Evaluator {
				return Evaluator, []protocol.Kind{KindTry, KindAccuse}, false
			}
			return Evaluator, []protocol.Kind{KindRequest, KindAccuse}, false
		case 1:
			if mover == Garbler {
				return Garbler, []protocol.Kind{KindTryGarbling, KindAccuse}, false
			}
			return Garbler, []protocol.Kind{KindGarbling, KindAccuse}, false
		}
		return Evaluator, []protocol.Kind{KindOutputs, KindAccuse}, false
	case StageReveal:
		// The garbler reveals first at the end of play; after an
		// accusation the accused does, then the accuser (T-15).
		first := Garbler
		if h.accuser != nil {
			first = h.accuser.Other()
		}
		if h.reveals[first] == nil {
			return first, []protocol.Kind{KindReveal}, false
		}
		return first.Other(), []protocol.Kind{KindReveal}, false
	case StageOpen:
		return h.Machine.RoleOf(h.Referee.ToMove()), []protocol.Kind{protocol.KindMove}, false
	}
	// Scoring: only the player to move may resume play, with a move.
	toMove := h.Machine.RoleOf(h.Referee.ToMove())
	r, kinds := h.Score.Expected(toMove)
	if r != toMove {
		kinds = slices.DeleteFunc(slices.Clone(kinds), func(k protocol.Kind) bool { return k == protocol.KindMove })
	}
	return r, kinds, false
}

func (h *Rules) Apply(from protocol.Role, seq uint64, kind protocol.Kind, body json.RawMessage) ([]protocol.Event, error) {
	switch kind {
	case KindCommit, KindSetup, KindBase:
		return h.applySetup(from, seq, kind, body)
	case KindTry, KindRequest, KindTryGarbling, KindGarbling, KindCommitment, KindChoice, KindFlips:
		return h.applyTryStep(from, seq, kind, body)
	case KindOutputs:
		return h.applyOutputs(from, seq, body)
	case KindReveal, KindAccuse:
		return h.applyReveal(from, seq, kind, body)
	case protocol.KindMove:
		return h.applyMove(from, seq, body)
	}
	b := h.Referee.Board()
	return h.Score.Apply(b, from, seq, kind, body)
}

// applySetup takes the messages that set a game's secure computation up
// before its first try: the commitments to the seeds, the base OTs and,
// with the correlated input OTs, the reverse setup (MPC-D28).
func (h *Rules) applySetup(from protocol.Role, seq uint64, kind protocol.Kind, body json.RawMessage) ([]protocol.Event, error) {
	switch kind {
	case KindCommit:
		var b CommitBody
		if err := protocol.DecodeBody(body, &b); err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
		}
		if err := h.reverseDigest(from, seq, kind, b.ReverseBase); err != nil {
			return nil, err
		}
		h.Record.Config = h.Config()
		h.Record.SeedCommitments[PartyOf(from)], h.commits[from] = b.Commitment, true
		if h.Correlated() {
			h.Record.ReverseSent, h.Record.Reverse[0] = 1, b.ReverseBase
		}
		return nil, nil
	case KindSetup:
		var b SetupBody
		if err := protocol.DecodeBody(body, &b); err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
		}
		if err := h.reverseDigest(from, seq, kind, b.ReverseBase); err != nil {
			return nil, err
		}
		h.Record.SeedCommitments[PartyOf(from)], h.commits[from] = b.Commitment, true
		h.Record.BaseSent, h.Record.Base[0] = 1, b.Base
		if h.Correlated() {
			h.Record.ReverseSent, h.Record.Reverse[1] = 2, b.ReverseBase
		}
		return []protocol.Event{protocol.EventPhase{Phase: protocol.Phase(StageSetup)}}, nil
	case KindBase:
		var b BaseBody
		if err := protocol.DecodeBody(body, &b); err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
		}
		if err := h.reverseDigest(from, seq, kind, b.Reverse); err != nil {
			return nil, err
		}
		h.Record.BaseSent, h.Record.Base[1] = 2, b.Base
		if h.Correlated() {
			// Try 0's record starts with its reverse request (MPC-D28).
			h.Record.Tries = append(h.Record.Tries, referee.TryRecord{Reverse: b.Reverse})
		}
		return []protocol.Event{protocol.EventPhase{Phase: protocol.Phase(StagePlay)}}, nil
	}
	return nil, fmt.Errorf("protocol: %s is not a step of Phantom Go's setup", kind)
}

// applyTryStep takes a step of a try before its outputs: the request, the
// garbling, and in a checked try the commitment and the choice.
func (h *Rules) applyTryStep(from protocol.Role, seq uint64, kind protocol.Kind, body json.RawMessage) ([]protocol.Event, error) {
	switch kind {
	case KindTry, KindRequest:
		var b RequestBody
		if err := protocol.DecodeBody(body, &b); err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
		}
		if b.Try != h.Public.Try {
			return nil, protocol.NewViolation(from, seq, "T-10", "request of try %d, the game is at try %d", b.Try, h.Public.Try)
		}
		if h.Correlated() {
			// The try's record holds its reverse request already: the
			// base's, or the last garbling's taken with the outputs.
			n := len(h.Record.Tries)
			if n == 0 || h.Record.Tries[n-1].Sent != 0 {
				return nil, protocol.NewViolation(from, seq, "T-10", "request of try %d before its reverse request", b.Try)
			}
			h.Record.Tries[n-1].Sent, h.Record.Tries[n-1].Request = 1, b.Request
		} else {
			h.Record.Tries = append(h.Record.Tries, referee.TryRecord{Sent: 1, Request: b.Request})
		}
		return []protocol.Event{EventStep{Try: b.Try, Sent: 1}}, nil
	case KindTryGarbling, KindGarbling:
		var b GarblingBody
		if err := protocol.DecodeBody(body, &b); err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
		}
		if b.Try != h.Public.Try {
			return nil, protocol.NewViolation(from, seq, "T-10", "garbling of try %d, the game is at try %d", b.Try, h.Public.Try)
		}
		if err := h.reverseDigest(from, seq, kind, b.Reverse); err != nil {
			return nil, err
		}
		h.nextReverse = b.Reverse
		tr := &h.Record.Tries[len(h.Record.Tries)-1]
		sent := tr.Sent + 1
		tr.Sent, tr.Tables, tr.Labels, tr.Reply = sent, b.Tables, b.Labels, b.Reply
		return []protocol.Event{EventStep{Try: b.Try, Sent: sent}}, nil
	case KindCommitment:
		var b CommitmentBody
		if err := protocol.DecodeBody(body, &b); err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
		}
		if b.Try != h.Public.Try {
			return nil, protocol.NewViolation(from, seq, "T-10", "commitment of try %d, the game is at try %d", b.Try, h.Public.Try)
		}
		tr := &h.Record.Tries[len(h.Record.Tries)-1]
		tr.Sent, tr.Commitment, tr.CommitReply = 2, b.Commitments, b.Reply
		return []protocol.Event{EventStep{Try: b.Try, Sent: 2}}, nil
	case KindChoice:
		var b ChoiceBody
		if err := protocol.DecodeBody(body, &b); err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
		}
		if b.Try != h.Public.Try {
			return nil, protocol.NewViolation(from, seq, "T-10", "choice of try %d, the game is at try %d", b.Try, h.Public.Try)
		}
		tr := &h.Record.Tries[len(h.Record.Tries)-1]
		tr.Sent, tr.Choice = 3, b.Choice
		return []protocol.Event{EventStep{Try: b.Try, Sent: 3}}, nil
	case KindFlips:
		var b FlipsBody
		if err := protocol.DecodeBody(body, &b); err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
		}
		if b.Try != h.Public.Try {
			return nil, protocol.NewViolation(from, seq, "T-10", "flips of try %d, the game is at try %d", b.Try, h.Public.Try)
		}
		if b.Flips == (referee.Digest{}) {
			return nil, protocol.NewViolation(from, seq, "T-10", "flips of try %d without their digest", b.Try)
		}
		tr := &h.Record.Tries[len(h.Record.Tries)-1]
		tr.Sent, tr.Flips = 4, b.Flips
		return []protocol.Event{EventStep{Try: b.Try, Sent: 4}}, nil
	}
	return nil, fmt.Errorf("protocol: %s is not a step of a Phantom Go try", kind)
}

// applyOutputs takes the outputs of a try: the referee's announcement, and
// the try after it or the reveal.
func (h *Rules) applyOutputs(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var b OutputsBody
	if err := protocol.DecodeBody(body, &b); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	if b.Try != h.Public.Try {
		return nil, protocol.NewViolation(from, seq, "T-10", "outputs of try %d, the game is at try %d", b.Try, h.Public.Try)
	}
	if b.Pass && !b.Legal {
		return nil, protocol.NewViolation(from, seq, "PG-1", "a pass that is illegal")
	}
	tr := &h.Record.Tries[len(h.Record.Tries)-1]
	tr.Sent, tr.Pass, tr.Legal, tr.Outputs = tr.Sent+1, b.Pass, b.Legal, b.Labels
	ev := EventTry{Try: h.Public.Try, Mover: h.Public.ToMove, Event: phantom.Moved}
	switch {
	case b.Pass:
		ev.Event = phantom.Passed
	case !b.Legal:
		ev.Event = phantom.Illegal
	}
	h.Public = h.Public.After(b.Pass, b.Legal)
	events := []protocol.Event{ev}
	if h.Public.Ended() {
		events = append(events, protocol.EventPhase{Phase: protocol.Phase(StageReveal)})
	} else if h.Correlated() {
		// The next try's record starts with the reverse request the
		// garbling carried (MPC-D28): from now on the evaluator may
		// take it, and what it finds wrong in it the audit checks.
		h.Record.Tries = append(h.Record.Tries, referee.TryRecord{Reverse: h.nextReverse})
	}
	h.nextReverse = referee.Digest{}
	return events, nil
}

// applyReveal takes a party's reveal or accusation; once both reveals are
// in, the audit runs (T-8).
func (h *Rules) applyReveal(from protocol.Role, seq uint64, kind protocol.Kind, body json.RawMessage) ([]protocol.Event, error) {
	if kind == KindAccuse {
		var b AccuseBody
		if err := protocol.DecodeBody(body, &b); err != nil {
			return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
		}
		if b.Accuse == "" {
			return nil, protocol.NewViolation(from, seq, "T-10", "an accusation says what it caught")
		}
		r := from
		h.accuser, h.accused = &r, b.Accuse
		return []protocol.Event{protocol.EventPhase{Phase: protocol.Phase(StageReveal)}}, nil
	}
	var b RevealBody
	if err := protocol.DecodeBody(body, &b); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	size := h.Machine.Options.Size
	tries := make([]engine.Point, len(b.Tries))
	for i, v := range b.Tries {
		p, err := engine.ParseVertex(size, v)
		if err != nil || p.Vertex(size) != v {
			return nil, protocol.NewViolation(from, seq, "T-10", "try %d is %q, not a vertex", i, v)
		}
		tries[i] = p
	}
	reveals := h.reveals
	reveals[from] = &referee.Reveal{Seed: b.Seed, Tries: tries}
	accuser, accused := h.accuser, h.accused
	var events []protocol.Event
	if reveals[0] == nil || reveals[1] == nil {
		h.reveals = reveals
		return events, nil
	}
	rp, err := referee.Audit(h.Record, [2]referee.Reveal{*reveals[0], *reveals[1]})
	var f *referee.Fault
	switch {
	case errors.As(err, &f):
		h.violation = &protocol.Violation{Accused: roleOf(f.Party), Rule: f.Rule, Seq: -1, Detail: "audit: " + f.Error(), Err: f}
	case err != nil:
		return nil, protocol.NewViolation(from, seq, "T-10", "the audit fails: %v", err)
	case accuser != nil:
		h.violation = &protocol.Violation{Accused: *accuser, Rule: protocol.RuleFalseAccusation, Seq: -1,
			Detail: fmt.Sprintf("false accusation (%s): the audit finds every message of the other program honest", accused)}
	}
	h.reveals, h.accuser, h.accused = reveals, accuser, accused
	if h.violation != nil {
		return append(events, protocol.EventViolation{Violation: h.violation}), nil
	}
	h.audited, h.Replay, h.Referee = true, rp, rp.Referee
	if h.resigned {
		// The resignation stands: no scoring.
		return append(events, EventRevealed{Board: h.Referee.Board()}), nil
	}
	h.Score.Start()
	return append(events, EventRevealed{Board: h.Referee.Board()}, protocol.EventPhase{Phase: protocol.Phase(StageScoring)}), nil
}

// applyMove plays a move in the open after the dead stones were disputed
// (PN-D7): the board is known to both, so the plaintext referee judges
// it, and a try it refuses breaks PG-2.
func (h *Rules) applyMove(from protocol.Role, seq uint64, body json.RawMessage) ([]protocol.Event, error) {
	var mb protocol.MoveBody
	if err := protocol.DecodeBody(body, &mb); err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	size := h.Machine.Options.Size
	p, err := protocol.ParseBodyPoint(size, mb.Point)
	if err != nil {
		return nil, protocol.NewViolation(from, seq, "T-10", "%v", err)
	}
	c := h.Machine.Colors[from]
	ref := h.Referee
	resumed := h.Score.Active
	if resumed {
		if p == engine.Pass {
			return nil, protocol.NewViolation(from, seq, "GO-4", "resumes play with a pass")
		}
		if ref, err = ref.Resume(c); err != nil {
			return nil, protocol.NewViolation(from, seq, "GO-4", "%v", err)
		}
	}
	next, out, err := ref.Try(c, p)
	if err != nil {
		return nil, protocol.NewViolation(from, seq, "T-3", "move %s: %v", mb.Point, err)
	}
	if !out.Legal {
		return nil, protocol.NewViolation(from, seq, "PG-2", "illegal move %s in the open: %s", mb.Point, out.Reason)
	}
	h.Referee, h.open = next, true
	var events []protocol.Event
	if resumed {
		h.Score = protocol.Scoring{}
		events = append(events, protocol.EventResumed{By: from})
	}
	events = append(events, protocol.EventMoved{Color: c, Point: p, Captured: out.Captured})
	if h.Referee.PlayEnded() {
		h.Score.Start()
		h.open = false
		events = append(events, protocol.EventPhase{Phase: protocol.Phase(StageScoring)})
	}
	return events, nil
}

func (h *Rules) Result() engine.Result {
	if h.violation != nil {
		return protocol.Forfeit(h.Machine.Colors[h.violation.Accused.Other()])
	}
	return h.Referee.Score(h.Score.Proposal).Result()
}

// AuditViolation returns the violation the audit found (T-8), or the
// false accusation it disproved (T-14), or nil.
func (h *Rules) AuditViolation() *protocol.Violation { return h.violation }

// AuditAfterResign starts the reveal and audit after a resignation
// (PN-D13) when the secure referee ran and no reveal is in yet; a game
// resigned during its setup, after a reveal, or once the board is known
// to both ends at once.
func (h *Rules) AuditAfterResign(protocol.Role) ([]protocol.Event, bool) {
	switch st := h.Stage(); {
	case st == StagePlay, st == StageReveal && h.reveals[0] == nil && h.reveals[1] == nil:
		h.resigned = true
		return []protocol.Event{protocol.EventPhase{Phase: protocol.Phase(StageReveal)}}, true
	}
	return nil, false
}

// SuspendResign has the rules judge a message as the game stood before
// the resignation (a message that crossed it).
func (h *Rules) SuspendResign(on bool) { h.suspended = on }

func (h *Rules) View(protocol.Role) protocol.VariantView {
	v := View{Stage: h.Stage(), Rules: h.Machine.Options.Rules, ToMove: h.Public.ToMove, Passes: h.Public.Passes,
		Tries: h.Public.Try, Revealed: h.audited}
	if h.audited {
		b := h.Referee.Board()
		v.Referee, v.ToMove, v.Passes = h.Referee, h.Referee.ToMove(), h.Referee.Passes()
		v.Scoring, v.HasProposal, v.Proposer, v.Proposal = h.Score.Active, h.Score.HasProposal, h.Score.Proposer, h.Score.Proposal.Dead(b)
	}
	return v
}

// IsVariantView marks View as a [VariantView].
func (View) IsVariantView() {}
