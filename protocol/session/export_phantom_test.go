package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/phantomrules"

	"errors"

	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/referee"
)

// PhantomTamper returns a Phantom Go message body with its attachment
// number i replaced by f's result and the digests signed in the body made
// to match: what a cheating program sends.
func PhantomTamper(body any, i int, f func([]byte) []byte) any {
	change := func(bulk [][]byte) [][]byte {
		out := make([][]byte, len(bulk))
		for k, b := range bulk {
			out[k] = append([]byte(nil), b...)
		}
		out[i] = f(out[i])
		return out
	}
	switch b := body.(type) {
	case phantomrules.GarblingBody:
		b.Bulk = change(b.Bulk)
		b.Tables, b.Labels, b.Reply = referee.Sum(b.Bulk[0]), referee.Sum(b.Bulk[1]), referee.Sum(b.Bulk[2])
		if len(b.Bulk) > 3 {
			b.Reverse = referee.Sum(b.Bulk[3])
		}
		return b
	case phantomrules.CommitBody:
		b.Bulk = change(b.Bulk)
		b.ReverseBase = referee.Sum(b.Bulk[0])
		return b
	case phantomrules.SetupBody:
		b.Bulk = change(b.Bulk)
		b.Base = referee.Sum(b.Bulk[0])
		if len(b.Bulk) > 1 {
			b.ReverseBase = referee.Sum(b.Bulk[1])
		}
		return b
	case phantomrules.BaseBody:
		b.Bulk = change(b.Bulk)
		b.Base = referee.Sum(b.Bulk[0])
		if len(b.Bulk) > 1 {
			b.Reverse = referee.Sum(b.Bulk[1])
		}
		return b
	case phantomrules.OutputsBody:
		b.Bulk = change(b.Bulk)
		b.Labels = referee.Sum(b.Bulk[0])
		return b
	case phantomrules.RequestBody:
		b.Bulk = change(b.Bulk)
		b.Request = referee.Sum(b.Bulk[0])
		return b
	case phantomrules.CommitmentBody:
		b.Bulk = change(b.Bulk)
		b.Commitments, b.Reply = referee.Sum(b.Bulk[0]), referee.Sum(b.Bulk[1])
		return b
	case phantomrules.ChoiceBody:
		b.Bulk = change(b.Bulk)
		b.Choice = referee.Sum(b.Bulk[0])
		return b
	case phantomrules.FlipsBody:
		b.Bulk = change(b.Bulk)
		b.Flips = referee.Sum(b.Bulk[0])
		return b
	}
	return body
}

// PhantomForgedCertificate returns the report of a lying evaluator's
// program against the garbler, at the checked try under way whose
// commitment it opened: a certificate of an opened garbling with its
// true seed (which re-garbles to what was committed) when trueSeed, else
// with that seed changed.
func PhantomForgedCertificate(g *Game, trueSeed bool) (protocol.ViolationBody, error) {
	p, ok := g.player.(*phantomPlayer)
	if !ok {
		return protocol.ViolationBody{}, errors.New("not a game of Phantom Go")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.e == nil {
		return protocol.ViolationBody{}, errors.New("not an evaluator of Phantom Go")
	}
	commitments, seeds, j, ok := p.e.Opened()
	if !ok {
		return protocol.ViolationBody{}, errors.New("no opened commitment")
	}
	i := (j + 1) % len(seeds)
	c := referee.Certificate{Commitment: commitments, Opened: i, Seed: seeds[i], What: "garbled tables and decoding bits"}
	if !trueSeed {
		c.Seed[0] ^= 1
	}
	v := phantomrules.CertificateViolation(p.rules(g.m).Public.Try, &c, errors.New("made up"))
	return protocol.ViolationBody{Accused: v.Accused, Rule: v.Rule, Detail: v.Detail, Evidence: v.Evidence()}, nil
}

// PhantomDropReverse returns a Phantom Go message body without its
// reverse OT digest (MPC-D28), its attachments kept.
func PhantomDropReverse(body any) any {
	switch b := body.(type) {
	case phantomrules.SetupBody:
		b.ReverseBase = referee.Digest{}
		return b
	case phantomrules.GarblingBody:
		b.Reverse = referee.Digest{}
		return b
	}
	return body
}

// PhantomAttachment returns attachment i of a Phantom Go message body
// (nil if it has none).
func PhantomAttachment(body any, i int) []byte {
	if b, ok := body.(bulkBody); ok && i < len(b.Attachments()) {
		return b.Attachments()[i]
	}
	return nil
}

// PhantomForgedOTCertificate returns the report of a lying evaluator's
// program against the garbler (MPC-D28), at the checked try under way
// whose commitment it opened: a certificate of the OT corrections of an
// opened garbling with its true seed, the try's true request and reply
// (as sent), and reverse keys that are not the garbling's (the
// evaluator's program keeps no keys of its own to forge with).
func PhantomForgedOTCertificate(g *Game, request, reply []byte) (protocol.ViolationBody, error) {
	p, ok := g.player.(*phantomPlayer)
	if !ok {
		return protocol.ViolationBody{}, errors.New("not a game of Phantom Go")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.e == nil {
		return protocol.ViolationBody{}, errors.New("not an evaluator of Phantom Go")
	}
	commitments, seeds, j, ok := p.e.Opened()
	if !ok {
		return protocol.ViolationBody{}, errors.New("no opened commitment")
	}
	i := (j + 1) % len(seeds)
	keys := make([]ot.Key, ot.Kappa)
	for k := range keys {
		keys[k][0] = byte(k)
	}
	c := referee.Certificate{Commitment: commitments, Opened: i, Seed: seeds[i], What: "OT corrections",
		OT: &referee.OTEvidence{Keys: keys, Request: request, Reply: reply}}
	v := phantomrules.CertificateViolation(p.rules(g.m).Public.Try, &c, errors.New("made up"))
	return protocol.ViolationBody{Accused: v.Accused, Rule: v.Rule, Detail: v.Detail, Evidence: v.Evidence()}, nil
}

// PhantomForgedReverseCertificate returns the report of a lying
// evaluator's program against the garbler (MPC-D28), at the checked try
// under way whose commitment it opened: a certificate of the garbler's
// reverse choices of an opened garbling, with its true seed and the
// try's true reverse request, which the honest garbler made with the
// bits of Δ_i.
func PhantomForgedReverseCertificate(g *Game) (protocol.ViolationBody, error) {
	p, ok := g.player.(*phantomPlayer)
	if !ok {
		return protocol.ViolationBody{}, errors.New("not a game of Phantom Go")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.e == nil || p.reverse == nil {
		return protocol.ViolationBody{}, errors.New("not an evaluator of Phantom Go with the correlated input OTs")
	}
	commitments, seeds, j, ok := p.e.Opened()
	if !ok {
		return protocol.ViolationBody{}, errors.New("no opened commitment")
	}
	i := (j + 1) % len(seeds)
	c := referee.Certificate{Commitment: commitments, Opened: i, Seed: seeds[i], What: "reverse OT choices", Reverse: p.reverse}
	v := phantomrules.CertificateViolation(p.rules(g.m).Public.Try, &c, errors.New("made up"))
	return protocol.ViolationBody{Accused: v.Accused, Rule: v.Rule, Detail: v.Detail, Evidence: v.Evidence()}, nil
}

// PhantomForgedDigestCertificate returns the report of a lying program
// of a game of the authenticated state (MPC-D31) against an honest one:
// an evaluator's, at the checked try under way whose commitment it
// opened, that the commitment names the MAC sub-batch of an opened
// garbling by another digest (with the true commitment and reverse
// request); a garbler's, once the evaluator's choice came, that the
// choice names its request of ĵ by another digest (with the true
// request and choice).
func PhantomForgedDigestCertificate(g *Game) (protocol.ViolationBody, error) {
	p, ok := g.player.(*phantomPlayer)
	if !ok {
		return protocol.ViolationBody{}, errors.New("not a game of Phantom Go")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	try := p.rules(g.m).Public.Try
	var v *protocol.Violation
	switch {
	case p.e != nil && p.reverse != nil:
		commitments, seeds, j, ok := p.e.Opened()
		if !ok {
			return protocol.ViolationBody{}, errors.New("no opened commitment")
		}
		c := referee.Certificate{Commitment: commitments, Opened: (j + 1) % len(seeds), What: "MAC sub-batch's digest",
			Digest: &referee.DigestEvidence{Reverse: p.reverse}}
		v = phantomrules.CertificateViolation(try, &c, errors.New("made up"))
	case p.g != nil && p.request != nil && p.choice != nil:
		c := &referee.RequestDigestCertificate{Try: try, Request: p.request, Choice: p.choice}
		v = phantomrules.RequestDigestViolation(c, errors.New("made up")).(*protocol.Violation)
	default:
		return protocol.ViolationBody{}, errors.New("neither an evaluator with a reverse request nor a garbler with a choice")
	}
	return protocol.ViolationBody{Accused: v.Accused, Rule: v.Rule, Detail: v.Detail, Evidence: v.Evidence()}, nil
}

// PhantomAlterShare is an action of a cheating evaluator's program: it
// flips one bit of its share of the referee state between two tries
// (when its player is to try), so that its next request is made from a
// share no honest run gives.
type PhantomAlterShare struct{ protocol.SessionAction }

func (PhantomAlterShare) cheat(p *phantomPlayer, h *phantomrules.Rules) error {
	if p.e == nil || !p.e.Ready() || p.outputs != nil && p.outputsTry == h.Public.Try {
		return errors.New("no share to alter now")
	}
	s := p.e.Share()
	s.Black[0] = !s.Black[0]
	if cfg := h.Config(); cfg.AuthState {
		// A game of the authenticated state (MPC-D29): the machine rebuilt
		// with its authentication state, and the share altered.
		var reverse []byte
		if last := len(h.Record.Tries) - 1; last >= 0 {
			reverse = withDigest(h.Record.Tries[last].Reverse, p.reverse, p.prevReverse)
		}
		e, err := referee.ResumeAuthenticatedEvaluator(cfg, p.seed(), p.base, p.reverseBase, reverse, h.Record, p.e.Tries(), s, p.e.EncodeAuth(), nil)
		if err != nil {
			return err
		}
		p.e = e
		return nil
	}
	e, err := referee.ResumeEvaluator(h.Config(), p.seed(), p.base, h.Record, p.e.Tries(), s)
	if err != nil {
		return err
	}
	p.e = e
	return nil
}

// PhantomFalseAccusation is an action of a lying program: it accuses the
// other program of deviating when it did not.
type PhantomFalseAccusation struct{ protocol.SessionAction }

func (PhantomFalseAccusation) cheat(p *phantomPlayer, h *phantomrules.Rules) error {
	p.caught = "a made-up deviation"
	return nil
}

// PhantomCorruptAttachment returns a Phantom Go message body whose
// attachment number i is changed while the digests signed in the body are
// not: bytes that do not match the signed message.
func PhantomCorruptAttachment(body any, i int) any {
	corrupt := func(bulk [][]byte) [][]byte {
		out := append([][]byte(nil), bulk...)
		out[i] = append([]byte(nil), out[i]...)
		out[i][len(out[i])/2] ^= 1
		return out
	}
	switch b := body.(type) {
	case phantomrules.GarblingBody:
		b.Bulk = corrupt(b.Bulk)
		return b
	case phantomrules.OutputsBody:
		b.Bulk = corrupt(b.Bulk)
		return b
	case phantomrules.RequestBody:
		b.Bulk = corrupt(b.Bulk)
		return b
	case phantomrules.CommitBody:
		b.Bulk = corrupt(b.Bulk)
		return b
	case phantomrules.SetupBody:
		b.Bulk = corrupt(b.Bulk)
		return b
	case phantomrules.BaseBody:
		b.Bulk = corrupt(b.Bulk)
		return b
	}
	return body
}

// PhantomRequestsPrepared returns, for the evaluator's program, how many
// of its machine's requests were made with their preparation (MPC-D51)
// and how many tries its player made.
func PhantomRequestsPrepared(g *Game) (prepared, tries int, err error) {
	p, ok := g.player.(*phantomPlayer)
	if !ok {
		return 0, 0, errors.New("not a game of Phantom Go")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.e == nil {
		return 0, 0, errors.New("not an evaluator of Phantom Go")
	}
	return p.e.RequestsPrepared(), len(p.e.Tries()), nil
}
