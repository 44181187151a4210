// Package docs holds no code: its tests check that the documents under docs/
// stay the project's own specification. docs/spec/ is the source of truth
// for the rules (rules.md) and the security contract (trust.md); every rule
// id they define is named by at least one test, and no file of the
// repository points at a specification outside it.
package docs_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// repoRoot is the top of the repository, seen from this package's directory.
const repoRoot = ".."

// plannedIDs are the clauses of trust.md that an open issue has yet to
// build. Each must be marked *planned* in trust.md; the check that a test
// names it waits for the issue. Remove an id here when its issue lands.
var plannedIDs = map[string]string{}

// ruleIDPattern matches the ids of rules.md and trust.md.
var ruleIDPattern = regexp.MustCompile(`\b(GO|PG|HMG|GM|FG|BG|T|SPEC)-[0-9]+\b`)

// specIDs returns the rule ids that the documents in docs/spec define or
// cite, sorted.
func specIDs(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, name := range []string{"rules.md", "trust.md"} {
		text, err := os.ReadFile(filepath.Join("spec", name))
		if err != nil {
			t.Fatalf("reading the specification: %v", err)
		}
		for _, id := range ruleIDPattern.FindAllString(string(text), -1) {
			seen[id] = true
		}
	}
	ids := make([]string, 0, len(seen))
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// repoFiles calls visit with the path and content of every text file of the
// repository (the .git directory and binary files aside).
func repoFiles(t *testing.T, visit func(path string, text []byte)) {
	t.Helper()
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() || info.Size() > 4<<20 {
			return err
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.IndexByte(text, 0) >= 0 {
			return nil // binary
		}
		visit(path, text)
		return nil
	})
	if err != nil {
		t.Fatalf("walking the repository: %v", err)
	}
}

// testNamesID reports whether a test source names id, either as written
// ("PG-5") or in a test function's name ("TestPG5", "…_PG5").
func testNamesID(source, id string) bool {
	compact := strings.ReplaceAll(id, "-", "")
	re := regexp.MustCompile(`(?i)(` + regexp.QuoteMeta(id) + `([^0-9]|$)|Test` + compact + `([^0-9]|$)|_` + compact + `([^0-9]|$))`)
	return re.MatchString(source)
}

// TestEveryRuleIDIsTested checks that each id of docs/spec/rules.md and
// docs/spec/trust.md is named by at least one test of the repository, apart
// from the clauses marked planned.
func TestEveryRuleIDIsTested(t *testing.T) {
	var tests []string
	repoFiles(t, func(path string, text []byte) {
		if strings.HasSuffix(path, "_test.go") && filepath.Base(path) != "spec_test.go" {
			tests = append(tests, string(text))
		}
	})
	if len(tests) < 50 {
		t.Fatalf("found only %d test files; is the repository root %q right?", len(tests), repoRoot)
	}
	ids := specIDs(t)
	if len(ids) < 40 {
		t.Fatalf("found only %d rule ids in docs/spec; the pattern or the documents are wrong", len(ids))
	}
	for _, id := range ids {
		if _, planned := plannedIDs[id]; planned {
			continue
		}
		named := false
		for _, source := range tests {
			if testNamesID(source, id) {
				named = true
				break
			}
		}
		if !named {
			t.Errorf("%s is in docs/spec but no test names it", id)
		}
	}
}

// TestPlannedIDsAreMarked checks that every clause the rule-id check leaves
// out is marked planned in trust.md, so that a reader sees it is not yet
// kakure's promise.
func TestPlannedIDsAreMarked(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("spec", "trust.md"))
	if err != nil {
		t.Fatalf("reading trust.md: %v", err)
	}
	trust := string(text)
	for id, issue := range plannedIDs {
		if !strings.Contains(trust, id) {
			t.Errorf("%s is listed as planned (%s) but trust.md does not define it", id, issue)
		}
		if !strings.Contains(trust, "planned") || !strings.Contains(trust, issue) {
			t.Errorf("%s is left out of the rule-id check for %s, but trust.md does not mark it planned for that issue", id, issue)
		}
	}
}

// TestTestNamesID holds the id matcher to its cases, so that the check above
// can neither pass on a near miss nor fail on a real mention.
func TestTestNamesID(t *testing.T) {
	cases := []struct {
		source, id string
		want       bool
	}{
		{`t.Run("PG-5 snapback", f)`, "PG-5", true},
		{`func TestPG5Snapback(t *testing.T)`, "PG-5", true},
		{`func Test_PG5(t *testing.T)`, "PG-5", true},
		{`// see PG-50`, "PG-5", false},
		{`func TestPG51(t *testing.T)`, "PG-5", false},
		{`// T-1`, "T-13", false},
		{`// trust.md T-13: equivocation`, "T-13", true},
	}
	for _, c := range cases {
		if got := testNamesID(c.source, c.id); got != c.want {
			t.Errorf("testNamesID(%q, %q) = %v, want %v", c.source, c.id, got, c.want)
		}
	}
}

// TestNoFileNamesSharedSpec checks that no file of the repository points at
// the specification's old place outside the repository: docs/spec is the
// source of truth.
func TestNoFileNamesSharedSpec(t *testing.T) {
	// Built from parts so that this file does not match itself.
	forbidden := []string{"../" + "shared", "/work/" + "shared", "shared" + "/spec"}
	checked := 0
	repoFiles(t, func(path string, text []byte) {
		checked++
		for _, f := range forbidden {
			if bytes.Contains(text, []byte(f)) {
				t.Errorf("%s names %q: point it at docs/spec instead", path, f)
			}
		}
	})
	if checked < 100 {
		t.Fatalf("checked only %d files; is the repository root %q right?", checked, repoRoot)
	}
}
