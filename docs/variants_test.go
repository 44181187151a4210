package docs_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/kakure/kakure/engine"
)

// TestEveryVariantDocumented checks that every variant's descriptor is
// matched by the documents: its rule sections in docs/spec/rules.md (the
// in-game rules text shows them, PG-1 .. BG-5), its GTP section in
// docs/gtp.md and its screen in docs/screens.md. A variant that lacks one
// is named with what it lacks.
func TestEveryVariantDocumented(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(repoRoot, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	rules, gtp, screens := read("docs/spec/rules.md"), read("docs/gtp.md"), read("docs/screens.md")
	for _, d := range engine.Descriptors {
		for _, id := range d.RuleSections {
			if !regexp.MustCompile(`(?m)^## ` + regexp.QuoteMeta(id) + ` — `).MatchString(rules) {
				t.Errorf("variant %s: docs/spec/rules.md has no section %q", d.Variant, "## "+id+" — ")
			}
		}
		if !regexp.MustCompile("(?m)^## .*\\(`--variant " + regexp.QuoteMeta(string(d.Variant)) + "`\\)").MatchString(gtp) {
			t.Errorf("variant %s: docs/gtp.md has no section \"## … (`--variant %s`)\"", d.Variant, d.Variant)
		}
		if !regexp.MustCompile(`(?m)^## .*\b` + regexp.QuoteMeta(d.Title) + `\b`).MatchString(screens) {
			t.Errorf("variant %s: docs/screens.md has no section on %s", d.Variant, d.Title)
		}
	}
}
