package session

import (
	"fmt"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/varianttest"
)

// missingPlayers names each variant of engine.Variants that lacks, in
// this package, its local player (newVariantPlayer) or which of its kinds
// spectators see (spectatorKinds), and each player of no variant.
func missingPlayers() []string {
	var missing []string
	for _, v := range engine.Variants {
		if newVariantPlayer[v] == nil {
			missing = append(missing, fmt.Sprintf("variant %s has no player (newVariantPlayer)", v))
		}
		if spectatorKinds[v] == nil {
			missing = append(missing, fmt.Sprintf("variant %s does not say which of its kinds spectators see (spectatorKinds, SPEC-1): they see headers only", v))
		}
	}
	for v := range newVariantPlayer {
		if _, err := engine.LookupDescriptor(v); err != nil {
			missing = append(missing, fmt.Sprintf("player registered for %v", err))
		}
	}
	return missing
}

// TestEveryVariantHasAPlayer checks that every variant of engine.Variants
// has, in this package, the local player and which of its kinds
// spectators see (SPEC-1); the core's TestEveryVariantHasRules checks its
// rules. A variant that lacks one is named with what it lacks
// (missingPlayers), and Playable says so.
func TestEveryVariantHasAPlayer(t *testing.T) {
	for _, m := range missingPlayers() {
		t.Error(m)
	}
	for _, v := range engine.Variants {
		if err := Playable(v); err != nil {
			t.Error(err)
		}
	}
}

// TestVARD8SeventhVariantNamedPlayer: with a seventh descriptor added and
// no file of its own here, the completeness check names its missing
// player and spectators' kinds by registry, panicking on nothing, and
// Playable refuses it naming both its rules and its player (VAR-D8).
func TestVARD8SeventhVariantNamedPlayer(t *testing.T) {
	varianttest.Add(t)
	varianttest.Expect(t, missingPlayers, "variant seventh-test has no player (newVariantPlayer)", "variant seventh-test does not say which of its kinds spectators see (spectatorKinds")
	want := "protocol: seventh-test cannot be played over the network yet: it has no rules (no protocol.Register entry, ARCH-D3) and no player (protocol/session's newVariantPlayer)"
	if err := Playable(varianttest.Variant); err == nil || err.Error() != want {
		t.Errorf("Playable(seventh) = %v, want %s", err, want)
	}
}
