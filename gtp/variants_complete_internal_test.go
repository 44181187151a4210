package gtp

import (
	"errors"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

// TestEveryVariantHasAHandler checks that every variant of
// engine.Variants has a GTP handler (docs/gtp.md) that starts a game of
// the variant's default options and has commands of its own; a variant
// without one is named.
func TestEveryVariantHasAHandler(t *testing.T) {
	for _, v := range engine.Variants {
		if variantHandlers[v] == nil {
			t.Errorf("variant %s has no GTP handler (variantHandlers)", v)
			continue
		}
		h, err := NewHandler(engine.Options{Variant: v})
		if err != nil {
			t.Errorf("variant %s: NewHandler: %v", v, err)
			continue
		}
		if len(h.Commands()) == 0 {
			t.Errorf("variant %s: the GTP handler has no commands", v)
		}
	}
	for v := range variantHandlers {
		if _, err := engine.LookupDescriptor(v); err != nil {
			t.Errorf("GTP handler registered for %v", err)
		}
	}
	if _, err := NewHandler(engine.Options{Variant: "chess"}); !errors.Is(err, engine.ErrBadOptions) || !strings.Contains(err.Error(), `"chess"`) {
		t.Errorf("NewHandler(chess) = %v, want an error naming chess", err)
	}
}
