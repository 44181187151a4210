package protocol

import (
	"maps"
	"slices"
)

// KindAttrs is what the game's course makes of a message kind, whatever
// the variant: declared once for every kind in kindTable (CLK-D31)
// instead of in per-kind tables and switches kept in several files.
type KindAttrs struct {
	// Timed: a message of the kind may carry a clock stamp (think_ms,
	// charge_ms, CLK-D8); the clock's one rule (clockRule, CLK-D30) sees
	// it.
	Timed bool
	// Automatic: programs send it by themselves, not the player; the
	// other program has AutoGrace to send it (T-11, REC-D14).
	Automatic bool
	// Anytime: either role may send it whatever the turn.
	Anytime bool
	// ClockFree: it is outside the game's course for the clocks (chat,
	// adjournment, undo): it starts no turn, so the other's think time
	// is not measured from it (CLK-D14).
	ClockFree bool
}

// KindMove is a move of a variant played stone by stone.
const KindMove Kind = "move"

// kindTable holds the attributes of every message kind (CLK-D31); a kind
// without an entry has none of them. TestKindTableNamesEveryKind names a
// kind left out.
var kindTable = map[Kind]KindAttrs{
	// The game's frame (machine.go, clock.go, clock_adjourn.go,
	// challenge.go, scoring.go, undo.go).
	KindInvite:         {},
	KindAccept:         {},
	KindDecline:        {},
	KindTossCommit:     {Automatic: true},
	KindTossReveal:     {Automatic: true},
	KindResign:         {Anytime: true},
	KindChat:           {Anytime: true, ClockFree: true},
	KindViolation:      {Anytime: true},
	KindAbandon:        {Anytime: true},
	KindResult:         {Automatic: true},
	KindTimeout:        {},
	KindTimeoutRefuse:  {},
	KindAdjournRequest: {ClockFree: true},
	KindAdjournAccept:  {ClockFree: true},
	KindMark:           {},
	KindAgree:          {},
	KindUndoRequest:    {ClockFree: true},
	KindUndoAccept:     {ClockFree: true},
	KindUndoDecline:    {ClockFree: true},

	// Go, Bridge Go, Phantom Go in the open: the core's, since several
	// variants share it. A variant's own kinds come with its entry
	// (VariantEntry.Kinds, Register).
	KindMove: {Timed: true},
}

// attrs returns the attributes of kind k (CLK-D31).
func (k Kind) attrs() KindAttrs { return kindTable[k] }

// Kinds returns every kind of message, sorted: the keys of the table of
// kinds, which TestKindTableNamesEveryKind holds to every Kind declared.
// Tables of the layers above keyed by kind are checked against it.
func Kinds() []Kind {
	return slices.Sorted(maps.Keys(kindTable))
}

// Timed reports whether a message of kind k may carry a clock stamp, its
// sender's think time and settlement (CLK-D8).
func (k Kind) Timed() bool { return k.attrs().Timed }

// ClockFree reports whether kind k is outside the game's course for the
// clocks (chat, adjournment, undo): a message of it starts no turn, so
// the other's think time is not measured from it (CLK-D14).
func (k Kind) ClockFree() bool { return k.attrs().ClockFree }
