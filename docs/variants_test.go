package docs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/varianttest"
)

// missingDocs names each variant of engine.Descriptors whose rule
// sections docs/spec/rules.md lacks, or whose section docs/gtp.md or
// docs/screens.md lacks.
func missingDocs() []string {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(repoRoot, name))
		if err != nil {
			panic(err) // the repository's own documents
		}
		return string(data)
	}
	rules, gtp, screens := read("docs/spec/rules.md"), read("docs/gtp.md"), read("docs/screens.md")
	var missing []string
	for _, d := range engine.Descriptors {
		for _, id := range d.RuleSections {
			if !regexp.MustCompile(`(?m)^## ` + regexp.QuoteMeta(id) + ` — `).MatchString(rules) {
				missing = append(missing, fmt.Sprintf("variant %s: docs/spec/rules.md has no section %q", d.Variant, "## "+id+" — "))
			}
		}
		if !regexp.MustCompile("(?m)^## .*\\(`--variant " + regexp.QuoteMeta(string(d.Variant)) + "`\\)").MatchString(gtp) {
			missing = append(missing, fmt.Sprintf("variant %s: docs/gtp.md has no section \"## … (`--variant %s`)\"", d.Variant, d.Variant))
		}
		if !regexp.MustCompile(`(?m)^## .*\b` + regexp.QuoteMeta(d.Title) + `\b`).MatchString(screens) {
			missing = append(missing, fmt.Sprintf("variant %s: docs/screens.md has no section on %s", d.Variant, d.Title))
		}
	}
	return missing
}

// TestEveryVariantDocumented checks that every variant's descriptor is
// matched by the documents: its rule sections in docs/spec/rules.md (the
// in-game rules text shows them, PG-1 .. BG-5), its GTP section in
// docs/gtp.md and its screen in docs/screens.md. A variant that lacks one
// is named with what it lacks (missingDocs).
func TestEveryVariantDocumented(t *testing.T) {
	for _, m := range missingDocs() {
		t.Error(m)
	}
}

// TestVARD8SeventhVariantNamedDocs: with a seventh descriptor added and
// no section of its own, the documents' completeness check names its
// missing rules section, GTP section and screen, panicking on nothing
// (VAR-D8).
func TestVARD8SeventhVariantNamedDocs(t *testing.T) {
	varianttest.Add(t)
	varianttest.Expect(t, missingDocs, `docs/spec/rules.md has no section "## T7 — "`, "docs/gtp.md has no section", "docs/screens.md has no section on Seventh Test Go")
}
