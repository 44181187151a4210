package gtp

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/varianttest"
)

// missingHandlers names each variant of engine.Variants that lacks a
// GTP handler (variantHandlers) that starts a game of its default
// options with commands of its own, or a reader of its protocol view for
// the engine player (viewReaders), and each of either registered for no
// variant.
func missingHandlers() []string {
	var missing []string
	for _, v := range engine.Variants {
		if r, ok := viewReaders[v]; !ok || r.known == nil || r.history == nil {
			missing = append(missing, fmt.Sprintf("variant %s has no reader of its view for the engine player (viewReaders)", v))
		}
		if variantHandlers[v] == nil {
			missing = append(missing, fmt.Sprintf("variant %s has no GTP handler (variantHandlers)", v))
			continue
		}
		h, err := NewHandler(engine.Options{Variant: v})
		if err != nil {
			missing = append(missing, fmt.Sprintf("variant %s: NewHandler: %v", v, err))
			continue
		}
		if len(h.Commands()) == 0 {
			missing = append(missing, fmt.Sprintf("variant %s: the GTP handler has no commands", v))
		}
	}
	for v := range variantHandlers {
		if _, err := engine.LookupDescriptor(v); err != nil {
			missing = append(missing, fmt.Sprintf("GTP handler registered for %v", err))
		}
	}
	for v := range viewReaders {
		if _, err := engine.LookupDescriptor(v); err != nil {
			missing = append(missing, fmt.Sprintf("view reader registered for %v", err))
		}
	}
	return missing
}

// TestEveryVariantHasAHandler checks that every variant of
// engine.Variants has a GTP handler (docs/gtp.md) that starts a game of
// the variant's default options and has commands of its own, and a reader
// of its protocol view for the engine player (viewReaders: GTP-D1,
// GTP-D3); a variant without one is named (missingHandlers).
func TestEveryVariantHasAHandler(t *testing.T) {
	for _, m := range missingHandlers() {
		t.Error(m)
	}
	if _, err := NewHandler(engine.Options{Variant: "chess"}); !errors.Is(err, engine.ErrBadOptions) || !strings.Contains(err.Error(), `"chess"`) {
		t.Errorf("NewHandler(chess) = %v, want an error naming chess", err)
	}
}

// TestEveryHandlerSharesTheCommands checks the commands every variant's
// handler shares (docs/gtp.md, "Commands"), and that they read the game as
// it is when they run: a genmove shows in list_stones, an undo takes it
// back, through one listing of the commands.
func TestEveryHandlerSharesTheCommands(t *testing.T) {
	for _, v := range engine.Variants {
		if variantHandlers[v] == nil {
			continue // TestEveryVariantHasAHandler names it
		}
		h, err := NewHandler(engine.Options{Variant: v})
		if err != nil {
			t.Errorf("variant %s: NewHandler: %v", v, err)
			continue
		}
		cmds := h.Commands()
		for _, name := range []string{"play", "genmove", "undo", "is_legal", "all_legal", "list_stones", "showboard"} {
			if cmds[name] == nil {
				t.Errorf("variant %s: the GTP handler has no %s", v, name)
			}
		}
		if cmds["genmove"] == nil || cmds["list_stones"] == nil || cmds["undo"] == nil {
			continue
		}
		run := func(name string, args ...string) string {
			out, err := cmds[name](args)
			if err != nil {
				t.Fatalf("variant %s: %s %v: %v", v, name, args, err)
			}
			return out
		}
		vertex := run("genmove", "b")
		stones := run("list_stones", "b")
		if v == engine.VariantFGo {
			// The choice waits for White's (GTP-FG-D1): play the turn.
			run("play", "w", "pass")
			stones = run("list_stones", "b")
		}
		if vertex != "PASS" && !strings.Contains(stones, vertex) {
			t.Errorf("variant %s: genmove b gave %s, list_stones b then gave %q", v, vertex, stones)
		}
		run("undo")
		if v == engine.VariantFGo {
			run("undo")
		}
		if got := run("list_stones", "b"); got != "" {
			t.Errorf("variant %s: list_stones b after undo = %q", v, got)
		}
	}
}

// TestVARD8SeventhVariantNamedHandler: with a seventh descriptor added and
// no file of its own here, the GTP completeness check names its missing
// handler and view reader by registry, and the test of the shared
// commands goes on past it; nothing panics (VAR-D8).
func TestVARD8SeventhVariantNamedHandler(t *testing.T) {
	varianttest.Add(t)
	varianttest.Expect(t, missingHandlers, "variant seventh-test has no reader of its view for the engine player (viewReaders)", "variant seventh-test has no GTP handler (variantHandlers)")
	TestEveryHandlerSharesTheCommands(t)
}
