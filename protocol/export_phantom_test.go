package protocol

import (
	"errors"

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
	case PhantomGarblingBody:
		b.bulk = change(b.bulk)
		b.Tables, b.Labels, b.Reply = referee.Sum(b.bulk[0]), referee.Sum(b.bulk[1]), referee.Sum(b.bulk[2])
		return b
	case PhantomOutputsBody:
		b.bulk = change(b.bulk)
		b.Labels = referee.Sum(b.bulk[0])
		return b
	case PhantomRequestBody:
		b.bulk = change(b.bulk)
		b.Request = referee.Sum(b.bulk[0])
		return b
	}
	return body
}

// PhantomAlterShare is an action of a cheating evaluator's program: it
// flips one bit of its share of the referee state between two tries
// (when its player is to try), so that its next request is made from a
// share no honest run gives.
type PhantomAlterShare struct{}

func (PhantomAlterShare) action() {}

func (PhantomAlterShare) cheat(p *phantomPlayer, h *phantomRules) error {
	if p.e == nil || !p.e.Ready() || p.outputs != nil && p.outputsTry == h.pub.Try {
		return errors.New("no share to alter now")
	}
	s := p.e.Share()
	s.Black[0] = !s.Black[0]
	e, err := referee.ResumeEvaluator(h.config(), p.seed(), p.base, h.rec, p.e.Tries(), s)
	if err != nil {
		return err
	}
	p.e = e
	return nil
}

// PhantomFalseAccusation is an action of a lying program: it accuses the
// other program of deviating when it did not.
type PhantomFalseAccusation struct{}

func (PhantomFalseAccusation) action() {}

func (PhantomFalseAccusation) cheat(p *phantomPlayer, h *phantomRules) error {
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
	case PhantomGarblingBody:
		b.bulk = corrupt(b.bulk)
		return b
	case PhantomOutputsBody:
		b.bulk = corrupt(b.bulk)
		return b
	case PhantomRequestBody:
		b.bulk = corrupt(b.bulk)
		return b
	}
	return body
}
