package protocol

// The clock stamp each body carries (CLK-D8, CLK-D31): a body of a timed
// kind says itself which of think_ms (its sender's think time) and
// charge_ms (its settlement of the other's claim) it carries, instead of
// type switches over the bodies in each variant's clock code. The program
// decides what to stamp (stampMove, stampChoice, stampTry); the body
// writes it.

// stampedBody is a body that carries a clock stamp.
type stampedBody interface {
	// withStamp returns the body, of a message of kind, with the think
	// time and the settlement it carries written in (milliseconds).
	Stamp(kind Kind, thinkMS, chargeMS int64) any
}

// WithStamp writes a clock stamp into body if it carries one. The empty
// body of a gomoku pass becomes a gomokuPassBody (CLK-D15).
func WithStamp(kind Kind, body any, thinkMS, chargeMS int64) any {
	if _, empty := body.(struct{}); empty && kind == KindGomokuPass {
		body = GomokuPassBody{}
	}
	if b, ok := body.(stampedBody); ok {
		return b.Stamp(kind, thinkMS, chargeMS)
	}
	return body
}

// Go, Bridge Go and Phantom Go in the open: a move carries both (CLK-D8).
func (b MoveBody) Stamp(_ Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

// Hidden Move Go: the card choice and a reveal that ends the turn carry
// both (CLK-D10).
func (b HMGCardsBody) Stamp(_ Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

func (b HMGRevealBody) Stamp(_ Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

// Gomoku: the messages that end a timed turn carry both (CLK-D15).
func (b GomokuPointBody) Stamp(_ Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

func (b GomokuSideBody) Stamp(_ Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

func (b GomokuLineBody) Stamp(_ Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

func (b GomokuOpeningsBody) Stamp(_ Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

func (b GomokuPassBody) Stamp(_ Kind, think, charge int64) any {
	b.ThinkMS, b.ChargeMS = think, charge
	return b
}

// F-Go: a commitment carries the think time, an opening the settlement
// (CLK-D14); stamped, they are the F-Go forms of the bodies.
func (b CommitBody) Stamp(kind Kind, think, charge int64) any {
	if kind != KindFGoCommit {
		return b
	}
	return FGoCommitBody{Commitment: b.Commitment}.Stamp(kind, think, charge)
}

func (b FGoCommitBody) Stamp(_ Kind, think, _ int64) any {
	b.ThinkMS = think
	return b
}

func (b OpenBody) Stamp(kind Kind, think, charge int64) any {
	if kind != KindFGoOpen {
		return b
	}
	return FGoOpenBody{Opening: b.Opening}.Stamp(kind, think, charge)
}

func (b FGoOpenBody) Stamp(_ Kind, _, charge int64) any {
	b.ChargeMS = charge
	return b
}

// Phantom Go: the try (a request, or the garbler's try-garbling) carries
// the think time; the garbling and the outputs that settle the other's
// try carry the settlement (CLK-D16).
func (b PhantomRequestBody) Stamp(kind Kind, think, _ int64) any {
	if kind == KindPhantomTry {
		b.ThinkMS = think
	}
	return b
}

func (b PhantomGarblingBody) Stamp(kind Kind, think, charge int64) any {
	switch kind {
	case KindPhantomTryGarbling:
		b.ThinkMS = think
	case KindPhantomGarbling:
		b.ChargeMS = charge
	}
	return b
}

func (b PhantomOutputsBody) Stamp(_ Kind, _, charge int64) any {
	b.ChargeMS = charge
	return b
}
