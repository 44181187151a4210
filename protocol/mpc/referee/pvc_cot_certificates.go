package referee

// The certificates of the correlated input OTs (MPC-D28): of the
// corrections and of the reverse choices of an opened garbling, and of
// a per-garbling request the garbler refused. pvc_cot.go has the
// overview.

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// ----- certificates -----

// OTEvidence is the part of a [Certificate] about the corrections of an
// opened garbling (MPC-D28): the garbler's reverse keys K_i of the
// garbling, which its commitment pins by their hash, and the two
// messages the corrections are judged from, whose digests the record
// holds — nothing of the evaluator's secrets (its bits in an opened
// garbling are random, MPC-D18).
type OTEvidence struct {
	// Keys are the 128 keys K_i, those the bits of Δ_i select among the
	// evaluator's reverse key pairs.
	Keys []ot.Key
	// Request is the evaluator's request of the try, Reply the reply part
	// of the garbler's Commitment (the corrections).
	Request []byte
	Reply   []byte
}

// verifyCorrections judges a certificate about the corrections of an
// opened garbling: nil when they differ from what seed_i, K_i and the
// request give.
func verifyCorrections(cfg Config, rc *refereeCircuits, cm *commitment, c Certificate) error {
	if !cfg.correlated() {
		return fmt.Errorf("%w: the game has no correlated input OTs", ErrNotProven)
	}
	i := c.Opened
	if i < 0 || i >= cfg.lambda() {
		return fmt.Errorf("%w: garbling %d of %d", ErrNotProven, i, cfg.lambda())
	}
	if seedHash(cfg, cm.try, i, c.Seed) != cm.entries[i][0] {
		return fmt.Errorf("%w: the seed is not the one committed to", ErrNotProven)
	}
	if len(c.OT.Keys) != ot.Kappa || keysHash(cfg, cm.try, i, c.OT.Keys) != cm.keyHashes[i] {
		return fmt.Errorf("%w: the keys are not the ones committed to", ErrNotProven)
	}
	m := rc.layout[cm.mover].NumInputs[circuit.Evaluator]
	reqs, _, err := splitCOTRequest(cfg, cm.try, m, c.OT.Request)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	corr, _, err := splitCOTReply(cfg, cm.try, m, c.OT.Reply)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	delta, err := copyDelta(c.Seed)
	if err != nil {
		return err
	}
	bad, err := wrongCorrection(cfg, rc, cm.mover, cm.try, i, c.Seed, delta, c.OT.Keys, reqs[i], corr[i])
	if err != nil {
		// The garbler answered a request its own check refuses under the
		// keys it committed to; not judged here (the audit names the
		// party at fault).
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	if bad >= 0 {
		return nil
	}
	return fmt.Errorf("%w: the corrections of garbling %d are the ones its seed gives", ErrNotProven, i)
}

// verifyReverseChoices judges a certificate about the garbler's reverse
// choices of an opened garbling: nil when the check value x of the
// garbling's sub-batch of the reverse request c.Reverse is not the one
// of the bits of Δ_i and the pad bits seed_i gives. An honest garbler's
// x is always that one (it made the sub-batch with those choices), so
// it is never convicted; the sub-batch passed the evaluator's KOS check,
// which makes x the one of the choices its columns carry (ot's
// VerifyChoices), so a mismatch means the garbler's reverse choices were
// not Δ_i's bits.
func verifyReverseChoices(cfg Config, cm *commitment, c Certificate) error {
	if !cfg.correlated() {
		return fmt.Errorf("%w: the game has no correlated input OTs", ErrNotProven)
	}
	i := c.Opened
	if i < 0 || i >= cfg.lambda() {
		return fmt.Errorf("%w: garbling %d of %d", ErrNotProven, i, cfg.lambda())
	}
	if seedHash(cfg, cm.try, i, c.Seed) != cm.entries[i][0] {
		return fmt.Errorf("%w: the seed is not the one committed to", ErrNotProven)
	}
	subs, err := splitReverse(cfg, cm.try, c.Reverse, nil)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	delta, err := copyDelta(c.Seed)
	if err != nil {
		return err
	}
	err = ot.VerifyChoices(cfg.reverseSession(), subs[i], reverseBits(c.Seed, delta))
	switch {
	case errors.Is(err, ot.ErrChoices):
		return nil
	case err != nil:
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	return fmt.Errorf("%w: the reverse choices of garbling %d are the bits of its Δ", ErrNotProven, i)
}

// ----- a refused per-garbling request -----

// ReverseOTSeed returns the seed of the garbler's machine of the reverse
// extension (MPC-D28), and GarblingSeeds the seeds seed_i of the
// garblings of the try under way (nil before its reverse request): what
// the garbler reveals to prove that the evaluator's request of a
// garbling failed the consistency check ([VerifyCorrelatedRefusal]).
// The reverse seed opens the garbler's reverse choices, hence the Δ_i of
// every garbling of every try so far, and nothing else of its seed; the
// seeds open the try's garblings, none of which was sent (the refusal
// comes before the commitment). As [Garbler.OTSeed], they are for a game
// that ends on that refusal.
func (g *Garbler) ReverseOTSeed() prg.Seed { return g.seed.Derive(labelReverseOT) }

// GarblingSeeds returns the seeds seed_i of the garblings of the try
// under way whose reverse request was made (see [Garbler.ReverseOTSeed]),
// or nil.
func (g *Garbler) GarblingSeeds() []prg.Seed {
	if g.rev == nil {
		return nil
	}
	return append([]prg.Seed(nil), g.rev.seeds...)
}

// VerifyCorrelatedRefusal judges the garbler's claim that the
// evaluator's request of try failed the consistency check of one of the
// per-garbling extensions of a game of the correlated input OTs
// (MPC-D28), from messages a record signs — the garbler's reverse setup
// message reverseStart, the evaluator's answer reverseAnswer, the
// garbler's reverse request of the try and the evaluator's request —
// and what the garbler reveals: the seed of its reverse machine
// ([Garbler.ReverseOTSeed]) and the try's seeds seed_i
// ([Garbler.GarblingSeeds]), which give Δ_i and the pad bits of the
// reverse sub-batch i. The judge rebuilds the garbler's reverse machine
// from the seed, checks that it gives exactly reverseStart and, with the
// Δ_i's bits and those pad bits as choices, exactly the reverse request
// (so its keys K_i are those the Δ_i select among the evaluator's
// pairs), and runs the garbler's check of every garbling's request. It
// returns nil when the claim is proven, which convicts the evaluator;
// otherwise an error wrapping ErrNotProven. An honest evaluator's
// request passes the check under the keys its Δ_i selects, so it is
// never convicted. The caller checks that the messages are those of the
// record.
func VerifyCorrelatedRefusal(cfg Config, try uint64, reverseSeed prg.Seed, seeds []prg.Seed, reverseStart, reverseAnswer, reverse, request []byte) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if !cfg.correlated() {
		return fmt.Errorf("%w: the game has no correlated input OTs", ErrNotProven)
	}
	if len(seeds) != cfg.lambda() {
		return fmt.Errorf("%w: %d seeds for λ = %d", ErrNotProven, len(seeds), cfg.lambda())
	}
	subs, err := splitReverse(cfg, try, reverse, nil)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	first, _, err := ot.RequestHeader(subs[0])
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	recv := ot.NewReceiver(reverseSeed, cfg.reverseSession())
	m1, err := recv.BaseStart()
	if err != nil {
		return err
	}
	if !bytes.Equal(m1, reverseStart) {
		return fmt.Errorf("%w: the seed does not give the garbler's reverse setup message", ErrNotProven)
	}
	if err := recv.BaseFinish(reverseAnswer); err != nil {
		return fmt.Errorf("%w: the evaluator's reverse setup answer: %v", ErrNotProven, err)
	}
	for range first {
		if err := recv.Skip(); err != nil {
			return err
		}
	}
	deltas := make([]gc.Label, len(seeds))
	keys := make([][]ot.Key, len(seeds))
	for i, s := range seeds {
		if deltas[i], err = copyDelta(s); err != nil {
			return err
		}
		again, err := recv.RequestPadded(deltaBits(deltas[i]), reversePad(s))
		if err != nil {
			return err
		}
		if !bytes.Equal(again, subs[i]) {
			return fmt.Errorf("%w: the reverse request of try %d, garbling %d, is not the one the seeds give", ErrNotProven, try, i)
		}
		if keys[i], err = recv.ReceiveRandom(); err != nil {
			return err
		}
	}
	// The request's size tells the mover's input count: try both layouts.
	rc, err := circuitsFor(cfg)
	if err != nil {
		return err
	}
	for _, l := range rc.layout {
		reqs, _, err := splitCOTRequest(cfg, try, l.NumInputs[circuit.Evaluator], request)
		if err != nil {
			continue
		}
		for i, req := range reqs {
			_, err := ot.CorrelatedRows(cotSessionOf(cfg, try, i), deltas[i], keys[i], req)
			if errors.Is(err, ot.ErrConsistency) {
				return nil
			}
		}
		return fmt.Errorf("%w: every garbling's request of try %d passes the check", ErrNotProven, try)
	}
	return fmt.Errorf("%w: the request is not one of try %d", ErrNotProven, try)
}

// JudgeCorrelatedRefusal is VerifyCorrelatedRefusal against the record
// of the game: the reverse setup messages, the reverse request and the
// request of try t must be those whose digests the record holds.
func JudgeCorrelatedRefusal(rec Record, t int, reverseSeed prg.Seed, seeds []prg.Seed, reverseStart, reverseAnswer, reverse, request []byte) error {
	if t < 0 || t >= len(rec.Tries) {
		return fmt.Errorf("%w: the record has no try %d", ErrNotProven, t)
	}
	tr := rec.Tries[t]
	if rec.ReverseSent < 2 || Sum(reverseStart) != rec.Reverse[0] || Sum(reverseAnswer) != rec.Reverse[1] ||
		!tr.reversed() || Sum(reverse) != tr.Reverse || tr.Sent < 1 || Sum(request) != tr.Request {
		return fmt.Errorf("%w: the messages are not the ones the record holds for try %d", ErrNotProven, t)
	}
	pub, _, _, err := replayPublic(rec.Config, Record{Config: rec.Config, Tries: rec.Tries[:t]})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	return VerifyCorrelatedRefusal(rec.Config, pub.Try, reverseSeed, seeds, reverseStart, reverseAnswer, reverse, request)
}
