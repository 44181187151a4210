package protocol

// The clock stamp each body carries (CLK-D8, CLK-D31): a body of a timed
// kind says itself which of think_ms (its sender's think time) and
// charge_ms (its settlement of the other's claim) it carries, instead of
// type switches over the bodies in each variant's clock code. The program
// decides what to stamp (stampMove, stampChoice, stampTry); the body
// writes it.

// stampedBody is a body that carries a clock stamp.
type stampedBody interface {
	// Stamp returns the body, of a message of kind, with the think
	// time and the settlement it carries written in (milliseconds).
	Stamp(kind Kind, thinkMS, chargeMS int64) any
}

// WithStamp writes a clock stamp into body if it carries one. A player
// gives each timed kind its variant's own body (F-Go's commitment and
// opening, gomoku's pass, CLK-D15), which carries the stamp.
func WithStamp(kind Kind, body any, thinkMS, chargeMS int64) any {
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
