package protocol

import (
	"encoding/json"
)

// Phantom Go under a clock (docs/clocks.md, CLK-D16): each try is its
// player's time, from the moment its program knows the outcome of the
// try before to the moment the player submits the try; the secure
// computation between is the protocol's. The tries of one move add up
// and are charged as one move when the move ends (a legal try or a pass).

// TryMover returns the role whose move is under way in play.
func (h *PhantomRules) TryMover() (Role, bool) {
	if h.Stage() != PhantomStagePlay {
		return Inviter, false
	}
	return h.moverRole(), true
}

// TryID names the try under way: the public try count.
func (h *PhantomRules) TryID() uint64 { return h.Public.Try }

// clockStep returns how far the try under way has come, counted as in an
// unchecked try: 0 before the request (or the evaluator's player's try),
// 1 before the garbling, 2 before the outputs. A checked try (T-8(b),
// λ > 1) has the garbler's commitment and the evaluator's choice between
// the request and the garbling: the protocol's messages, counted as step
// 1, so that the garbler's player's clock runs on until its try goes
// with the garbling, and the settling messages stay the garbling and the
// outputs (CLK-D16).
func (h *PhantomRules) clockStep() int {
	_, sent := h.Current()
	if h.Machine.Options.Lambda <= 1 {
		return sent
	}
	switch sent {
	case 0:
		return 0
	case 1, 2, 3:
		return 1
	}
	return 2
}

// TimedTurn returns the role whose try the clock times (CLK-D16): the
// mover, until its try goes (for the garbler's player, the evaluator's
// request within); no clock runs while the secure referee computes, nor
// during the setup, the reveals and the count. Play in the open after
// the audit (PN-D7) is timed as plain Go is.
func (h *PhantomRules) TimedTurn() (Role, bool) {
	switch h.Stage() {
	case PhantomStagePlay:
		if h.resigned && !h.suspended {
			return Inviter, false
		}
		mover := h.moverRole()
		sent := h.clockStep()
		if sent == 0 || sent == 1 && mover == PhantomGarbler {
			return mover, true
		}
	case PhantomStageOpen:
		return h.Machine.RoleOf(h.Referee.ToMove()), true
	}
	return Inviter, false
}

// EndsTimedTurn reports whether a message ends its player's try (or in
// the open, its move).
func (h *PhantomRules) EndsTimedTurn(kind Kind, _ json.RawMessage) bool {
	switch h.Stage() {
	case PhantomStagePlay:
		sent := h.clockStep()
		mover := h.moverRole()
		return kind == KindPhantomTry && sent == 0 && mover == PhantomEvaluator ||
			kind == KindPhantomTryGarbling && sent == 1 && mover == PhantomGarbler
	case PhantomStageOpen:
		return kind == KindMove
	}
	return false
}

// SettlesTry reports whether a message is the settling one of the try
// under way: the garbling of the evaluator's player's try, the outputs of
// the garbler's player's.
func (h *PhantomRules) SettlesTry(r Role, kind Kind) bool {
	if h.Stage() != PhantomStagePlay {
		return false
	}
	sent := h.clockStep()
	mover := h.moverRole()
	return r != mover && (kind == KindPhantomGarbling && sent == 1 && mover == PhantomEvaluator ||
		kind == KindPhantomOutputs && sent == 2 && mover == PhantomGarbler)
}
