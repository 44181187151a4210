package protocol

import (
	"fmt"

	"github.com/kakure/kakure/engine"
)

// VariantEntry is what the core knows of one variant: what its rules
// package gives Register from its init (ARCH-D3). The core never names a
// variant's rules, kinds or bodies; it asks the entry.
type VariantEntry struct {
	// Variant is the variant the entry is for: one of engine.Variants.
	Variant engine.Variant
	// NewRules makes the variant's rules over the machine m, which holds
	// the game's checked options, when the machine takes the invitation.
	NewRules func(m *Machine) (VariantRules, error)
	// Kinds are the variant's own message kinds with their attributes
	// (CLK-D31); kinds several variants share (KindMove) are the core's.
	Kinds map[Kind]KindAttrs
	// BroadcastMove tells which kinds of message are moves for the
	// broadcast delay (SPEC-D11).
	BroadcastMove func(Kind) bool
	// TurnCount is how the listing of live games counts the variant's
	// turns from its moves (SPEC-D14, SPEC-D40).
	TurnCount TurnCount
	// JudgeCertificate, when not nil, judges the evidence of a T-8(b)
	// report (RuleCertificate): the judge of every game (judgeReport)
	// hands such evidence to it. At most one variant gives one.
	JudgeCertificate CertificateJudge
}

// variantEntries holds the registered entries by variant.
var variantEntries = map[engine.Variant]VariantEntry{}

// certificates is the judge of T-8(b) certificates that a registered
// entry gave, nil until then.
var certificates CertificateJudge

// Register adds a variant's entry to the core. Each variant's rules
// package calls it once, from its init; it panics on a second entry for
// a variant, on a kind declared twice and on a second certificate judge,
// so that no entry can replace another.
func Register(e VariantEntry) {
	if err := checkEntry(e); err != nil {
		panic(err)
	}
	for k, a := range e.Kinds {
		kindTable[k] = a
	}
	if e.JudgeCertificate != nil {
		certificates = e.JudgeCertificate
	}
	variantEntries[e.Variant] = e
	newVariantRules[e.Variant] = e.NewRules
	broadcastMoveKinds[e.Variant] = e.BroadcastMove
	if e.TurnCount != TurnEachMove {
		turnCounts[e.Variant] = e.TurnCount
	}
}

// checkEntry says why Register refuses e, before anything of it is
// registered.
func checkEntry(e VariantEntry) error {
	if _, dup := variantEntries[e.Variant]; dup {
		return fmt.Errorf("protocol: variant %q registered twice", e.Variant)
	}
	if e.NewRules == nil || e.BroadcastMove == nil {
		return fmt.Errorf("protocol: variant %q registered without its rules or its broadcast moves", e.Variant)
	}
	for k := range e.Kinds {
		if _, dup := kindTable[k]; dup {
			return fmt.Errorf("protocol: kind %q of variant %q is declared twice", k, e.Variant)
		}
	}
	if e.JudgeCertificate != nil && certificates != nil {
		return fmt.Errorf("protocol: variant %q gives a second certificate judge", e.Variant)
	}
	return nil
}
