package phantomrules

import (
	"encoding/json"

	"github.com/kakure/kakure/protocol"
)

// Phantom Go under a clock (docs/clocks.md, CLK-D16): each try is its
// player's time, from the moment its program knows the outcome of the
// try before to the moment the player submits the try; the secure
// computation between is the protocol's. The tries of one move add up
// and are charged as one move when the move ends (a legal try or a pass).

// TryMover returns the role whose move is under way in play.
func (h *Rules) TryMover() (protocol.Role, bool) {
	if h.Stage() != StagePlay {
		return protocol.Inviter, false
	}
	return h.moverRole(), true
}

// TryID names the try under way: the public try count.
func (h *Rules) TryID() uint64 { return h.Public.Try }

// clockStep returns how far the try under way has come, counted as in an
// unchecked try: 0 before the request (or the evaluator's player's try),
// 1 before the garbling, 2 before the outputs. A checked try (T-8(b),
// λ > 1) has the garbler's commitment and the evaluator's choice between
// the request and the garbling: the protocol's messages, counted as step
// 1, so that the garbler's player's clock runs on until its try goes
// with the garbling, and the settling messages stay the garbling and the
// outputs (CLK-D16).
//
// A try of the evaluator's player by flips (MPC-D52, CLK-D32) counts its
// request, the commitment and the choice as step 0: they go ahead of its
// player, within its time, and its try is the flips; the garbling and
// the outputs are steps 1 and 2.
func (h *Rules) clockStep() int {
	_, sent := h.Current()
	if h.Flipped() {
		return max(0, sent-3)
	}
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
func (h *Rules) TimedTurn() (protocol.Role, bool) {
	switch h.Stage() {
	case StagePlay:
		if h.resigned && !h.suspended {
			return protocol.Inviter, false
		}
		mover := h.moverRole()
		sent := h.clockStep()
		if sent == 0 || sent == 1 && mover == Garbler {
			return mover, true
		}
	case StageOpen:
		return h.Machine.RoleOf(h.Referee.ToMove()), true
	}
	return protocol.Inviter, false
}

// EndsTimedTurn reports whether a message ends its player's try (or in
// the open, its move).
func (h *Rules) EndsTimedTurn(kind protocol.Kind, _ json.RawMessage) bool {
	switch h.Stage() {
	case StagePlay:
		sent := h.clockStep()
		mover := h.moverRole()
		if h.Flipped() {
			_, n := h.Current()
			return kind == KindFlips && n == 3
		}
		return kind == KindTry && sent == 0 && mover == Evaluator ||
			kind == KindTryGarbling && sent == 1 && mover == Garbler
	case StageOpen:
		return kind == protocol.KindMove
	}
	return false
}

// SettlesTry reports whether a message is the settling one of the try
// under way: the garbling of the evaluator's player's try, the outputs of
// the garbler's player's.
func (h *Rules) SettlesTry(r protocol.Role, kind protocol.Kind) bool {
	if h.Stage() != StagePlay {
		return false
	}
	sent := h.clockStep()
	mover := h.moverRole()
	return r != mover && (kind == KindGarbling && sent == 1 && mover == Evaluator ||
		kind == KindOutputs && sent == 2 && mover == Garbler)
}
