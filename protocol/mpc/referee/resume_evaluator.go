package referee

import (
	"bytes"
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// Resuming the evaluator after a restart (PN-D9); resume.go has the
// garbler and what the two share.

// ResumeAuthEvidence gives an evaluator rebuilt by
// [ResumeAuthenticatedEvaluator] the messages of the last complete try
// of its record (tr, try number try) that a certificate of the next try
// against the garbler carries (MPC-D29) and that the authentication
// state it kept does not hold: the garbler's commitments part of the
// commitment and the evaluator's own choice (in its secrets), and the
// garbler's reverse request of the try (the session keeps it by its
// digest), of which the MAC sub-batch of ĵ is cut and checked against
// the digest the commitment names. Without them (an older program's
// secrets) a certificate of the first try after the restart does not
// go, and the evaluator accuses as before.
func (e *Evaluator) ResumeAuthEvidence(tr TryRecord, try uint64, commitments, reverse, choice []byte) error {
	a := e.auth
	if a == nil {
		return fmt.Errorf("%w: no authentication state to complete", ErrState)
	}
	switch {
	case Sum(commitments) != tr.Commitment:
		return fmt.Errorf("%w: the commitments of try %d kept are not the ones recorded", ErrRecord, try)
	case Sum(reverse) != tr.Reverse:
		return fmt.Errorf("%w: the reverse request of try %d kept is not the one recorded", ErrRecord, try)
	case Sum(choice) != tr.Choice:
		return fmt.Errorf("%w: the choice of try %d kept is not the one recorded", ErrRecord, try)
	}
	c, err := parseAuthChoice(e.cfg, try, choice)
	if err != nil {
		return fmt.Errorf("%w: the choice of try %d: %v", ErrRecord, try, err)
	}
	cm, err := parseCommitment(e.cfg, commitments)
	if err != nil {
		return fmt.Errorf("%w: the commitments of try %d: %v", ErrRecord, try, err)
	}
	subs, err := splitMAC(e.cfg, try, reverse)
	if err != nil {
		return fmt.Errorf("%w: the reverse request of try %d: %v", ErrRecord, try, err)
	}
	if cm.try != try || c.j >= len(subs) || c.j >= len(cm.macHashes) || Sum(subs[c.j]) != cm.macHashes[c.j] {
		return fmt.Errorf("%w: the MAC sub-batch of garbling %d of try %d is not the one its commitment names", ErrRecord, c.j, try)
	}
	a.commitment, a.mac, a.choice = bytes.Clone(commitments), bytes.Clone(subs[c.j]), bytes.Clone(choice)
	return nil
}

// ResumeEvaluator rebuilds the evaluator of a game in the state its
// record leaves it in: baseRespond is the garbler's base OT answer (nil
// if the record has none yet), rec the record so far, tries its player's
// tries, share its share after the last complete try of rec. A try whose
// request the record holds (and not the garbling) is requested again and
// checked against the record.
func ResumeEvaluator(cfg Config, seed prg.Seed, baseRespond []byte, rec Record, tries []engine.Point, share circuit.RefereeState) (*Evaluator, error) {
	return ResumeCheckedEvaluator(cfg, seed, baseRespond, rec, tries, share, nil)
}

// ResumeCheckedEvaluator is ResumeEvaluator for a game whose tries may be
// checked: kept is what the evaluator kept of the garbler's commitment of
// the try under way ([Evaluator.Kept]) if the record holds it (the
// session keeps it until the garbling comes); it is opened again, and
// the choice made again is kept for [Evaluator.AgainChoice] (MPC-D16,
// MPC-D20).
func ResumeCheckedEvaluator(cfg Config, seed prg.Seed, baseRespond []byte, rec Record, tries []engine.Point, share circuit.RefereeState, kept *KeptOpening) (*Evaluator, error) {
	if err := refuseCorrelatedResume(cfg); err != nil {
		return nil, err
	}
	return resumeEvaluator(cfg, seed, baseRespond, nil, nil, rec, tries, share, nil, kept)
}

// ResumeCorrelatedEvaluator is ResumeCheckedEvaluator for a game of the
// correlated input OTs (MPC-D28): reverseStart is the garbler's reverse
// setup message if the record holds it, reverse the garbler's reverse
// request of the try under way if the record holds it and the session
// kept it (nil otherwise: the garbler sends it again,
// [Garbler.AgainReverse]; it must be kept once the request was sent).
// The evaluator's reverse setup answer is made again
// ([Evaluator.AgainReverse]); a kept opening is opened again without
// the corrections, which were checked when they came (as the OT reply
// of MPC-D20).
func ResumeCorrelatedEvaluator(cfg Config, seed prg.Seed, baseRespond, reverseStart, reverse []byte, rec Record, tries []engine.Point, share circuit.RefereeState, kept *KeptOpening) (*Evaluator, error) {
	if !cfg.correlated() {
		return nil, fmt.Errorf("%w: ResumeCorrelatedEvaluator for a game of the %v input OTs", ErrConfig, cfg.InputOT)
	}
	if cfg.authenticated() {
		return nil, fmt.Errorf("%w: a game of the authenticated state (MPC-D29) resumes with ResumeAuthenticatedEvaluator", ErrConfig)
	}
	return resumeEvaluator(cfg, seed, baseRespond, reverseStart, reverse, rec, tries, share, nil, kept)
}

// ResumeAuthenticatedEvaluator is ResumeCorrelatedEvaluator for a game
// of the authenticated state (MPC-D29): auth is what
// [Evaluator.EncodeAuth] gave after the last complete try of the record
// (the session keeps it with the share; nil before the first try).
func ResumeAuthenticatedEvaluator(cfg Config, seed prg.Seed, baseRespond, reverseStart, reverse []byte, rec Record, tries []engine.Point, share circuit.RefereeState, auth []byte, kept *KeptOpening) (*Evaluator, error) {
	if !cfg.authenticated() {
		return nil, fmt.Errorf("%w: ResumeAuthenticatedEvaluator for a game without the authenticated state", ErrConfig)
	}
	return resumeEvaluator(cfg, seed, baseRespond, reverseStart, reverse, rec, tries, share, auth, kept)
}

func resumeEvaluator(cfg Config, seed prg.Seed, baseRespond, reverseStart, reverse []byte, rec Record, tries []engine.Point, share circuit.RefereeState, auth []byte, kept *KeptOpening) (*Evaluator, error) {
	e, err := NewEvaluator(cfg, seed)
	if err != nil {
		return nil, err
	}
	// The reverse setup (MPC-D28) may have come before the base OTs: its
	// answer goes with the evaluator's BaseStart.
	if err := e.resumeReverseSetup(cfg, rec, reverseStart); err != nil {
		return nil, err
	}
	if rec.BaseSent < 1 {
		return e, nil
	}
	m1, err := e.BaseStart()
	if err != nil {
		return nil, err
	}
	if Sum(m1) != rec.Base[0] {
		return nil, fmt.Errorf("%w: the base OT message made again differs from the record", ErrRecord)
	}
	e.again.baseStart = m1
	if rec.BaseSent < 2 {
		return e, nil
	}
	if Sum(baseRespond) != rec.Base[1] {
		return nil, fmt.Errorf("%w: the garbler's base OT answer kept is not the one recorded", ErrRecord)
	}
	if err := e.BaseFinish(baseRespond); err != nil {
		return nil, err
	}
	pub, movers, made, err := replayPublic(cfg, rec)
	if err != nil {
		return nil, err
	}
	if len(tries) < made[circuit.Evaluator] {
		return nil, fmt.Errorf("%w: %d tries kept, the record has %d", ErrRecord, len(tries), made[circuit.Evaluator])
	}
	if share.Size != cfg.Size {
		return nil, fmt.Errorf("%w: a share of side %d", ErrRecord, share.Size)
	}
	if err := e.skipCompleteTries(cfg, movers); err != nil {
		return nil, err
	}
	if cfg.authenticated() && len(movers) > 0 {
		if e.auth, err = decodeAuth(cfg, auth); err != nil {
			return nil, fmt.Errorf("%w: the authentication state kept: %v", ErrRecord, err)
		}
	}
	e.pub, e.movers, e.share = pub, movers, share.Clone()
	e.tries = append([]engine.Point(nil), tries[:made[circuit.Evaluator]]...)
	if len(rec.Tries) > len(movers) {
		if err := e.resumeTryUnderWay(cfg, rec.Tries[len(movers)], pub, tries, reverse, kept); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// resumeReverseSetup answers again the garbler's reverse setup message
// kept (MPC-D28) if the record has it, checked against the record.
func (e *Evaluator) resumeReverseSetup(cfg Config, rec Record, reverseStart []byte) error {
	if cfg.correlated() && rec.ReverseSent >= 1 {
		if Sum(reverseStart) != rec.Reverse[0] {
			return fmt.Errorf("%w: the garbler's reverse setup message kept is not the one recorded", ErrRecord)
		}
		r2, err := e.ReverseRespond(reverseStart)
		if err != nil {
			return err
		}
		if rec.ReverseSent == 2 && Sum(r2) != rec.Reverse[1] {
			return fmt.Errorf("%w: the reverse setup answer made again differs from the record", ErrRecord)
		}
		e.again.reverseAnswer = r2
	}
	return nil
}

// skipCompleteTries moves the evaluator's OT extensions past the
// complete tries of movers, with their reverse and MAC batches.
func (e *Evaluator) skipCompleteTries(cfg Config, movers []circuit.Party) error {
	for range movers {
		if err := e.receiver.Skip(); err != nil {
			return err
		}
		if cfg.correlated() {
			for range cfg.lambda() {
				if err := e.revSend.Skip(); err != nil {
					return err
				}
				if cfg.authenticated() {
					if err := e.macSend.Skip(); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// resumeTryUnderWay makes again the evaluator's messages of the try
// under way tr that the record has: its reverse request taken, its
// request, and of a checked try its choice from the commitment kept.
func (e *Evaluator) resumeTryUnderWay(cfg Config, tr TryRecord, pub Public, tries []engine.Point, reverse []byte, kept *KeptOpening) error {
	mover := cfg.PartyOf(pub.ToMove)
	if tr.Sent >= cfg.MessagesOf(mover)-1 {
		return fmt.Errorf("%w: try %d was garbled and not evaluated", ErrRecord, pub.Try)
	}
	if cfg.correlated() && tr.reversed() {
		switch {
		case reverse != nil && Sum(reverse) == tr.Reverse:
			if err := e.TakeReverse(reverse); err != nil {
				return err
			}
		case tr.Sent >= 1:
			return fmt.Errorf("%w: the reverse request of try %d is not kept", ErrRecord, pub.Try)
		}
	}
	if tr.Sent < 1 {
		return nil
	}
	try := engine.NoPoint
	flipped := cfg.flipped(mover)
	if mover == circuit.Evaluator && (!flipped || tr.Sent >= 4) {
		// (A try by flips is its player's from its flips on, MPC-D52:
		// its request does not depend on it.)
		if len(tries) <= len(e.tries) {
			return fmt.Errorf("%w: the evaluator's try under way is not kept", ErrRecord)
		}
		try = tries[len(e.tries)]
	}
	req, err := e.Request(try)
	if err != nil {
		return err
	}
	if Sum(req) != tr.Request {
		return fmt.Errorf("%w: the request of try %d made again differs from the record", ErrRecord, pub.Try)
	}
	e.again.request = req
	if tr.Sent >= 2 {
		if kept == nil || Sum(kept.Commitments) != tr.Commitment || kept.Reply != nil && Sum(kept.Reply) != tr.CommitReply {
			return fmt.Errorf("%w: the commitment of checked try %d is not kept", ErrRecord, pub.Try)
		}
		choice, err := e.reopen(*kept)
		if err != nil {
			return err
		}
		if tr.Sent >= 3 && Sum(choice) != tr.Choice {
			return fmt.Errorf("%w: the choice of try %d made again differs from the record", ErrRecord, pub.Try)
		}
		e.again.choice = choice
	}
	if flipped && tr.Sent >= 4 {
		// The flips of the player's try, made again (MPC-D52).
		flips, err := e.Flips(try)
		if err != nil {
			return err
		}
		if Sum(flips) != tr.Flips {
			return fmt.Errorf("%w: the flips of try %d made again differ from the record", ErrRecord, pub.Try)
		}
		e.again.flips = flips
	}
	return nil
}
