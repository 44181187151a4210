package gtp

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/hmg"
)

// TestGTPHMG3RevealReasons checks the word kakure-reveal gives for each of
// the engine's reasons (HMG-3, HMG-D4), wrapped as the engine wraps them.
func TestGTPHMG3RevealReasons(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{engine.ErrOccupied, "occupied-own"},
		{hmg.ErrRevealNotLastStone, "not-last-stone"},
		{hmg.ErrRevealAfterReveal, "after-reveal"},
		{engine.ErrSuicide, "suicide"},
		{engine.ErrSuperko, "superko"},
		{hmg.ErrCardRevealed, "revealed"},
		{hmg.ErrNoSuchCard, "no-such-card"},
		{errors.New("something else"), "other"},
	} {
		err := fmt.Errorf("reveal black card index 0 at D4: %w", tt.err)
		if got := hmgRevealReason(err); got != tt.want {
			t.Errorf("hmgRevealReason(%v) = %q, want %q", err, got, tt.want)
		}
	}
}
