package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/varianttest"
	"github.com/kakure/kakure/protocol"
)

// missingBots names each variant of engine.Variants that has no bot and
// random player (variantBots), and each registered bot of no variant.
func missingBots() []string {
	var missing []string
	for _, v := range engine.Variants {
		vb, ok := variantBots[v]
		if !ok || vb.level == nil || vb.random == nil {
			missing = append(missing, fmt.Sprintf("variant %s has no bot (variantBots)", v))
		}
	}
	for v := range variantBots {
		if _, err := engine.LookupDescriptor(v); err != nil {
			missing = append(missing, fmt.Sprintf("bot registered for %v", err))
		}
	}
	return missing
}

// TestEveryVariantHasABot checks that every variant of engine.Variants
// has a built-in bot and a random player (variantBots, missingBots), that
// a view of no variant yet is left alone, and that a variant without a
// bot is a panic that names it rather than random moves (issue 19), which
// kakure match avoids by asking Plays first (VAR-D8).
func TestEveryVariantHasABot(t *testing.T) {
	for _, m := range missingBots() {
		t.Error(m)
	}
	for _, v := range engine.Variants {
		if _, ok := variantBots[v]; Plays(v) != ok {
			t.Errorf("Plays(%s) = %t, its bot registered %t", v, Plays(v), ok)
		}
	}
	if Plays("chess") {
		t.Error("Plays(chess)")
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

// TestVARD8SeventhVariantNamedBot: with a seventh descriptor added and no
// file of its own here, the bots' completeness check names its missing
// bot by registry and panics on nothing (VAR-D8).
func TestVARD8SeventhVariantNamedBot(t *testing.T) {
	varianttest.Add(t)
	varianttest.Expect(t, missingBots, "variant seventh-test has no bot (variantBots)")
	if Plays(varianttest.Variant) {
		t.Error("Plays(seventh) without its bot")
	}
}
