package protocol

import (
	"maps"
	"slices"
)

// kindAttrs is what the game's course makes of a message kind, whatever
// the variant: declared once for every kind in kindTable (CLK-D31)
// instead of in per-kind tables and switches kept in several files.
type kindAttrs struct {
	// timed: a message of the kind may carry a clock stamp (think_ms,
	// charge_ms, CLK-D8); the clock's one rule (clockRule, CLK-D30) sees
	// it.
	timed bool
	// automatic: programs send it by themselves, not the player; the
	// other program has AutoGrace to send it (T-11, REC-D14).
	automatic bool
	// anytime: either role may send it whatever the turn.
	anytime bool
	// clockFree: it is outside the game's course for the clocks (chat,
	// adjournment, undo): it starts no turn, so the other's think time
	// is not measured from it (CLK-D14).
	clockFree bool
}

// kindTable holds the attributes of every message kind (CLK-D31); a kind
// without an entry has none of them. TestKindTableNamesEveryKind names a
// kind left out.
var kindTable = map[Kind]kindAttrs{
	// The game's frame (machine.go, clock.go, clock_adjourn.go,
	// challenge.go, scoring.go, undo.go).
	KindInvite:         {},
	KindAccept:         {},
	KindDecline:        {},
	KindTossCommit:     {automatic: true},
	KindTossReveal:     {automatic: true},
	KindResign:         {anytime: true},
	KindChat:           {anytime: true, clockFree: true},
	KindViolation:      {anytime: true},
	KindAbandon:        {anytime: true},
	KindResult:         {automatic: true},
	KindTimeout:        {},
	KindTimeoutRefuse:  {},
	KindAdjournRequest: {clockFree: true},
	KindAdjournAccept:  {clockFree: true},
	KindMark:           {},
	KindAgree:          {},
	KindUndoRequest:    {clockFree: true},
	KindUndoAccept:     {clockFree: true},
	KindUndoDecline:    {clockFree: true},

	// Go, Bridge Go, Phantom Go in the open (variant_go.go).
	KindMove: {timed: true},

	// Hidden Move Go (variant_hmg.go).
	KindHMGCards:     {timed: true},
	KindHMGReveal:    {timed: true},
	KindHMGOpenCards: {automatic: true},

	// F-Go (variant_fgo.go).
	KindFGoCommit:  {timed: true},
	KindFGoOpen:    {timed: true, automatic: true},
	KindFGoOffer:   {},
	KindFGoAccept:  {},
	KindFGoDecline: {},

	// Hidden Move Double Gomoku (variant_gomoku.go).
	KindGomokuOpening:      {timed: true},
	KindGomokuSide:         {timed: true},
	KindGomokuCommit:       {},
	KindGomokuPass:         {timed: true},
	KindGomokuNoLegalPoint: {timed: true},
	KindGomokuAnnounce:     {timed: true},
	KindGomokuResponse:     {timed: true},
	KindGomokuReveal:       {automatic: true},
	KindGomokuDeclare:      {automatic: true},
	KindGomokuOpenAll:      {timed: true, automatic: true},

	// Phantom Go (variant_phantom_wire.go).
	KindPhantomCommit:      {automatic: true},
	KindPhantomSetup:       {automatic: true},
	KindPhantomBase:        {automatic: true},
	KindPhantomTry:         {timed: true},
	KindPhantomRequest:     {timed: true, automatic: true},
	KindPhantomTryGarbling: {timed: true},
	KindPhantomGarbling:    {timed: true, automatic: true},
	KindPhantomCommitment:  {automatic: true},
	KindPhantomChoice:      {automatic: true},
	KindPhantomOutputs:     {timed: true, automatic: true},
	KindPhantomReveal:      {automatic: true},
	KindPhantomAccuse:      {},
}

// attrs returns the attributes of kind k (CLK-D31).
func (k Kind) attrs() kindAttrs { return kindTable[k] }

// Kinds returns every kind of message, sorted: the keys of the table of
// kinds, which TestKindTableNamesEveryKind holds to every Kind declared.
// Tables of the layers above keyed by kind are checked against it.
func Kinds() []Kind {
	return slices.Sorted(maps.Keys(kindTable))
}

// Timed reports whether a message of kind k may carry a clock stamp, its
// sender's think time and settlement (CLK-D8).
func (k Kind) Timed() bool { return k.attrs().timed }

// ClockFree reports whether kind k is outside the game's course for the
// clocks (chat, adjournment, undo): a message of it starts no turn, so
// the other's think time is not measured from it (CLK-D14).
func (k Kind) ClockFree() bool { return k.attrs().clockFree }
