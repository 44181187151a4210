package referee

// Certificates of the digests the signed messages name (MPC-D31 in
// docs/mpc.md). In a game of the authenticated state (MPC-D29) the
// garbler's commitment names each garbling's MAC sub-batch and OT
// corrections by their digests, and the evaluator's choice names its
// request of garbling ĵ by its digest, so that the certificates of
// MPC-D29 carry those parts and not whole messages. A digest that is not
// the one of the part it names is caught at once (the evaluator at Open,
// the garbler at CheckChoice), and these certificates prove it: the two
// signed messages, a split that needs no secret, a hash. An honest
// program names the digests of the parts it sent: it is never convicted.

import (
	"bytes"
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// DigestEvidence makes a [Certificate] one about a digest the garbler's
// commitment names for garbling Opened (MPC-D29) that is not the digest
// of the part it names in the garbler's own signed message: the MAC
// sub-batch of the try's reverse request (Reverse), or the OT corrections
// of the reply part of the commitment (Reply). Exactly one is set.
type DigestEvidence struct {
	Reverse []byte
	Reply   []byte
}

// verifyNamedDigest judges a certificate whose Digest is set against the
// commitment cm: nil when the digest it names for garbling c.Opened is
// not the one of that part of the message.
func verifyNamedDigest(cfg Config, rc *refereeCircuits, cm *commitment, c Certificate) error {
	if !cfg.authenticated() {
		return fmt.Errorf("%w: the game has no authenticated state", ErrNotProven)
	}
	i, d := c.Opened, c.Digest
	if i < 0 || i >= cfg.lambda() {
		return fmt.Errorf("%w: garbling %d of %d", ErrNotProven, i, cfg.lambda())
	}
	switch {
	case d.Reverse != nil && d.Reply == nil:
		subs, err := splitMAC(cfg, cm.try, d.Reverse)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrNotProven, err)
		}
		if Sum(subs[i]) != cm.macHashes[i] {
			return nil
		}
		return fmt.Errorf("%w: the commitment names the MAC sub-batch of garbling %d by its digest", ErrNotProven, i)
	case d.Reply != nil && d.Reverse == nil:
		corr, _, err := splitCOTReply(cfg, cm.try, rc.layout[cm.mover].NumInputs[circuit.Evaluator], d.Reply)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrNotProven, err)
		}
		if Sum(correctionBytes(corr[i])) != cm.corrHashes[i] {
			return nil
		}
		return fmt.Errorf("%w: the commitment names the corrections of garbling %d by their digest", ErrNotProven, i)
	}
	return fmt.Errorf("%w: a certificate of a digest needs the reverse request or the reply, one of them", ErrNotProven)
}

// RequestDigestCertificate proves that the evaluator's choice of try Try
// names its request of garbling ĵ by a digest that is not the one of
// that part of the request it sent (MPC-D29): Request and Choice are the
// two messages, both the evaluator's by their digests in the record.
// [JudgeRequestDigest] judges it.
type RequestDigestCertificate struct {
	Try     uint64
	Request []byte
	Choice  []byte
}

// RequestDigestCertificate returns the certificate that convicts the
// evaluator when the garbler's machine failed on a choice that names
// another request of garbling ĵ than the one it sent, or nil.
func (g *Garbler) RequestDigestCertificate() *RequestDigestCertificate {
	if g.requestCert == nil {
		return nil
	}
	c := *g.requestCert
	return &c
}

// JudgeRequestDigest judges a certificate of try t against the record of
// a game of the authenticated state: the request and the choice must be
// the ones whose digests the record holds for try t (its signatures make
// them the evaluator's). It returns nil when the choice names the
// request of its garbling ĵ by a digest other than that part's, else an
// error wrapping ErrNotProven: whoever presents it accuses falsely. An
// honest evaluator names the digest of the part it sent.
func JudgeRequestDigest(rec Record, t int, c RequestDigestCertificate) error {
	cfg := rec.Config
	if err := cfg.Validate(); err != nil {
		return err
	}
	if !cfg.authenticated() {
		return fmt.Errorf("%w: the game has no authenticated state", ErrNotProven)
	}
	if t < 0 || t >= len(rec.Tries) {
		return fmt.Errorf("%w: the record has no try %d", ErrNotProven, t)
	}
	tr := rec.Tries[t]
	if tr.Sent < 3 || Sum(c.Request) != tr.Request || Sum(c.Choice) != tr.Choice {
		return fmt.Errorf("%w: the request or the choice is not the one the record holds for try %d", ErrNotProven, t)
	}
	pub, _, _, err := replayPublic(cfg, Record{Config: cfg, Tries: rec.Tries[:t]})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	if c.Try != pub.Try {
		return fmt.Errorf("%w: the certificate is of try %d, the record's try %d is try %d", ErrNotProven, c.Try, t, pub.Try)
	}
	rc, err := circuitsFor(cfg)
	if err != nil {
		return err
	}
	ch, err := parseAuthChoice(cfg, pub.Try, c.Choice)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	reqs, _, err := splitCOTRequest(cfg, pub.Try, rc.layout[cfg.PartyOf(pub.ToMove)].NumInputs[circuit.Evaluator], c.Request)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	if Sum(reqs[ch.j]) != ch.request {
		return nil
	}
	return fmt.Errorf("%w: the choice names the request of garbling %d by its digest", ErrNotProven, ch.j)
}

// requestDigestCertificate is the garbler's certificate of a choice of
// try that names its request of garbling ĵ by another digest.
func requestDigestCertificate(try uint64, request, choice []byte) *RequestDigestCertificate {
	return &RequestDigestCertificate{Try: try, Request: bytes.Clone(request), Choice: bytes.Clone(choice)}
}
