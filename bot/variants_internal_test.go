package bot

import (
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// TestEveryVariantHasABot checks that every variant of engine.Variants
// has a built-in bot and a random player (variantBots), that a view of no
// variant yet is left alone, and that a variant without a bot is a panic
// that names it rather than random moves (issue 19).
func TestEveryVariantHasABot(t *testing.T) {
	for _, v := range engine.Variants {
		vb, ok := variantBots[v]
		if !ok || vb.level == nil || vb.random == nil {
			t.Errorf("variant %s has no bot (variantBots)", v)
		}
	}
	for v := range variantBots {
		if _, err := engine.LookupDescriptor(v); err != nil {
			t.Errorf("bot registered for %v", err)
		}
	}
	if a := New(Level{}, 1).Choose(protocol.View{Options: engine.Options{Variant: engine.VariantGo}}); a != nil {
		t.Errorf("a view of no variant yet gives %v, want nil", a)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), `"chess"`) {
			t.Errorf("a view of variant chess: panic %v, want one naming chess", r)
		}
	}()
	NewRandom(1).Choose(protocol.View{Options: engine.Options{Variant: "chess"}, Variant: gorules.View{}})
}
