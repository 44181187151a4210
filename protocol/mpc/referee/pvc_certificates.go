package referee

// The certificate of a checked try (T-8(b)) and its judges:
// VerifyCertificate, which checks each kind of certificate, and
// JudgeCertificate, which first holds it to the record. pvc.go has the
// overview.

import (
	"errors"
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// Certificate proves that the garbler cheated in a checked try (T-8(b)):
// either a garbling it opened is not the one its seed gives, or the
// garbling it sent is not the one it committed to. It holds the
// garbler's signed commitments and either the opened seed or what the
// garbler sent of garbling ĵ, nothing of the evaluator's secrets.
// [VerifyCertificate] and [JudgeCertificate] judge it.
type Certificate struct {
	// Commitment is the commitments part of the garbler's Commitment
	// message of the try (Commitment.Commitments).
	Commitment []byte
	// Opened is the index of the opened garbling that differs from its
	// seed, and Seed that seed; Opened is -1 when the certificate is
	// about garbling ĵ as sent.
	Opened int
	Seed   prg.Seed
	// Choice is the evaluator's choice message of the try (it names ĵ),
	// Tables the digest of the tables the garbler sent and Labels the
	// labels message it sent, when Opened is -1. The tables themselves
	// are not needed: their digest is what the commitment holds; nor are
	// the labels when the tables differ (Labels is then empty).
	Choice []byte
	Tables Digest
	Labels []byte
	// SeedOT, in a game of the authenticated state (MPC-D30), makes the
	// certificate one about the seed transfer: the seeds the evaluator's
	// keys open are not all the ones the commitment names (Opened is the
	// first that differs). Nil for the other kinds.
	SeedOT *SeedTransferEvidence
	// OT, in a game of the correlated input OTs (MPC-D28), makes the
	// certificate one about the OT corrections of opened garbling Opened
	// (seed Seed): they differ from what its seed, the garbler's
	// committed reverse keys and the evaluator's request give. Nil for
	// the other kinds.
	OT *OTEvidence
	// Reverse, in a game of the correlated input OTs (MPC-D28), makes
	// the certificate one about the garbler's reverse choices of opened
	// garbling Opened (seed Seed): it is the garbler's reverse request of
	// the try (its digest is TryRecord.Reverse), whose sub-batch Opened
	// carries a check value x that is not the one of Δ_i's bits and the
	// pad bits seed_i gives. Nil for the other kinds.
	Reverse []byte
	// Digest, in a game of the authenticated state (MPC-D29, MPC-D31),
	// makes the certificate one about a digest the commitment names for
	// garbling Opened that is not the one of the part it names. Nil for
	// the other kinds.
	Digest *DigestEvidence
	// MAC, with Reverse, makes the certificate one about the garbler's
	// MAC choices of opened garbling Opened in a game of the
	// authenticated state (MPC-D29): the check value of its MAC
	// sub-batch in Reverse is not the one of the colours and mask bits
	// seed_i gives (and the pad bits).
	MAC bool
	// Flips, about garbling ĵ of a try that comes by flips (MPC-D52),
	// is the evaluator's flips message of the try (its digest is
	// TryRecord.Flips): the flips' labels are judged against the
	// commitment's entries of their values. Nil otherwise.
	Flips []byte
	// What says what differs, for people.
	What string
}

// ErrNotProven reports a certificate that does not convict the garbler:
// whoever made it accuses falsely.
var ErrNotProven = errors.New("referee: certificate not proven")

// VerifyCertificate judges a certificate of a checked try of a game of
// cfg against the garbler. It returns nil when the certificate proves
// that the garbler cheated; otherwise an error wrapping ErrNotProven.
// The caller checks that the messages are those of the record
// ([JudgeCertificate] does). A garbler that followed the protocol is
// never convicted, whatever the certificate holds.
func VerifyCertificate(cfg Config, c Certificate) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if !cfg.Checked() {
		return fmt.Errorf("%w: the game has no checked tries", ErrNotProven)
	}
	cm, err := parseCommitment(cfg, c.Commitment)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	rc, err := circuitsFor(cfg)
	if err != nil {
		return err
	}
	if c.OT != nil && c.Reverse != nil || c.SeedOT != nil && (c.OT != nil || c.Reverse != nil) ||
		c.Digest != nil && (c.OT != nil || c.Reverse != nil || c.SeedOT != nil) {
		return fmt.Errorf("%w: a certificate of two kinds", ErrNotProven)
	}
	if c.Digest != nil {
		return verifyNamedDigest(cfg, rc, cm, c)
	}
	if c.SeedOT != nil {
		return verifySeedTransfer(cfg, cm, c)
	}
	if c.OT != nil {
		return verifyCorrections(cfg, rc, cm, c)
	}
	if c.Reverse != nil {
		if c.MAC {
			return verifyMACChoices(cfg, cm, c)
		}
		return verifyReverseChoices(cfg, cm, c)
	}
	if c.Opened >= 0 {
		if c.Opened >= cfg.lambda() {
			return fmt.Errorf("%w: garbling %d of %d", ErrNotProven, c.Opened, cfg.lambda())
		}
		e := cm.entries[c.Opened]
		if seedHash(cfg, cm.try, c.Opened, c.Seed) != e[0] {
			return fmt.Errorf("%w: the seed is not the one committed to", ErrNotProven)
		}
		cp, err := garbleCopy(cfg, rc, cm.mover, cm.try, c.Opened, c.Seed, copyHooks{})
		if err != nil {
			return err
		}
		if cp.commit != e {
			return nil
		}
		return fmt.Errorf("%w: garbling %d is the one its seed gives", ErrNotProven, c.Opened)
	}
	// The choice of the game's form: with the authenticated state it
	// carries the sums and the next seed transfer response (MPC-D29,
	// MPC-D30) after ĵ and the proof.
	j, _, _, err := parseChoiceOf(cfg, cm.try, c.Choice)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	e := cm.entries[j]
	if c.Tables != e[1] {
		return nil
	}
	labels, _, err := splitAuthLabels(cfg, c.Labels)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	own, other, err := parseCheckedLabels(labels, rc.layout[cm.mover].NumInputs[circuit.Garbler])
	if err != nil {
		// Well-formed messages are the garbler's duty; a malformed one is
		// refused at once and is not a certificate.
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	var d []bool
	flips := cfg.flipWires(rc, cm.mover)
	if flips != nil {
		// The labels of the flips the evaluator signed (MPC-D52).
		if d, err = parseFlips(c.Flips, cm.try, len(flips)); err != nil {
			return fmt.Errorf("%w: %v", ErrNotProven, err)
		}
	}
	if openedLabelsDigest(cfg, cm.try, j, own, other, flips, d) != e[2] {
		return nil
	}
	return fmt.Errorf("%w: garbling %d is the one committed to", ErrNotProven, j)
}

// CommitmentTry returns the try number and the mover party a Commitment
// message names, for a judge to compare with the record.
func CommitmentTry(cfg Config, b []byte) (uint64, circuit.Party, error) {
	c, err := parseCommitment(cfg, b)
	if err != nil {
		return 0, 0, err
	}
	return c.try, c.mover, nil
}

// JudgeCertificate judges a certificate of try t against the record of
// the game (T-8(b)): the commitment, and for a certificate about the
// garbling sent that garbling, must be the messages of try t whose
// digests the record holds (the record's signatures make them the
// garbler's), and the commitment must name the try and the mover that
// the record gives try t. It returns nil when the certificate convicts
// the garbler, else an error wrapping ErrNotProven: whoever presents it
// accuses falsely.
func JudgeCertificate(rec Record, t int, c Certificate) error {
	cfg := rec.Config
	if err := cfg.Validate(); err != nil {
		return err
	}
	if t < 0 || t >= len(rec.Tries) {
		return fmt.Errorf("%w: the record has no try %d", ErrNotProven, t)
	}
	tr := rec.Tries[t]
	if tr.Sent < 2 || Sum(c.Commitment) != tr.Commitment {
		return fmt.Errorf("%w: the commitment is not the one the record holds for try %d", ErrNotProven, t)
	}
	if c.OT != nil && (Sum(c.OT.Request) != tr.Request || Sum(c.OT.Reply) != tr.CommitReply) {
		return fmt.Errorf("%w: the request or the corrections are not the ones the record holds for try %d", ErrNotProven, t)
	}
	if c.Reverse != nil && (!tr.reversed() || Sum(c.Reverse) != tr.Reverse) {
		return fmt.Errorf("%w: the reverse request is not the one the record holds for try %d", ErrNotProven, t)
	}
	if d := c.Digest; d != nil && (d.Reverse != nil && (!tr.reversed() || Sum(d.Reverse) != tr.Reverse) || d.Reply != nil && Sum(d.Reply) != tr.CommitReply) {
		return fmt.Errorf("%w: the reverse request or the reply is not the one the record holds for try %d", ErrNotProven, t)
	}
	if e := c.SeedOT; e != nil {
		// The transfer's first moves: the garbler's setup message, and
		// the evaluator's message that carried its response (MPC-D30).
		carrier := rec.Reverse[1]
		if t > 0 {
			carrier = rec.Tries[t-1].Choice
		}
		if rec.ReverseSent < 2 || Sum(e.Start) != rec.Reverse[0] || Sum(e.Carrier) != carrier {
			return fmt.Errorf("%w: the seed transfer's messages are not the ones the record holds for try %d", ErrNotProven, t)
		}
	}
	if c.OT == nil && c.Reverse == nil && c.SeedOT == nil && c.Digest == nil && c.Opened < 0 && (tr.Sent < 4 || Sum(c.Choice) != tr.Choice || c.Tables != tr.Tables || len(c.Labels) > 0 && Sum(c.Labels) != tr.Labels) {
		return fmt.Errorf("%w: the choice or the garbling is not the one the record holds for try %d", ErrNotProven, t)
	}
	pub, _, _, err := replayPublic(cfg, Record{Config: cfg, Tries: rec.Tries[:t]})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	try, mover, err := CommitmentTry(cfg, c.Commitment)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	if try != pub.Try || mover != cfg.PartyOf(pub.ToMove) {
		return fmt.Errorf("%w: the commitment names try %d for the %v, the record try %d for the %v", ErrNotProven, try, mover, pub.Try, cfg.PartyOf(pub.ToMove))
	}
	if c.OT == nil && c.Reverse == nil && c.SeedOT == nil && c.Digest == nil && c.Opened < 0 && cfg.flipped(mover) &&
		(tr.Sent < 5 || !tr.flipped() || Sum(c.Flips) != tr.Flips) {
		// The flips judged are those the evaluator signed (MPC-D52).
		return fmt.Errorf("%w: the flips or the garbling are not the ones the record holds for try %d", ErrNotProven, t)
	}
	return VerifyCertificate(cfg, c)
}
