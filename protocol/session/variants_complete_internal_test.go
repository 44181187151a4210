package session

import (
	"testing"

	"github.com/kakure/kakure/engine"
)

// TestEveryVariantHasAPlayer checks that every variant of engine.Variants
// has, in this package, the local player and which of its kinds
// spectators see (SPEC-1); the core's TestEveryVariantHasRules checks its
// rules. A variant that lacks one is named with what it lacks.
func TestEveryVariantHasAPlayer(t *testing.T) {
	for _, v := range engine.Variants {
		if newVariantPlayer[v] == nil {
			t.Errorf("variant %s has no player (newVariantPlayer)", v)
		}
		if spectatorKinds[v] == nil {
			t.Errorf("variant %s does not say which of its kinds spectators see (spectatorKinds, SPEC-1): they see headers only", v)
		}
	}
	for v := range newVariantPlayer {
		if _, err := engine.LookupDescriptor(v); err != nil {
			t.Errorf("player registered for %v", err)
		}
	}
}
