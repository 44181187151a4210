package docs_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// architecturePath is the document whose import list the test checks,
// relative to the repository root.
const architecturePath = "docs/spec/architecture.md"

// importEdge is one import among the module's own packages, both named
// relative to the module path ("protocol/mpc/gc").
type importEdge struct{ from, to string }

func (e importEdge) String() string { return e.from + " -> " + e.to }

// drawnImports is the import list of architecture.md: the packages in the
// order the list gives them (from the edge to the core) and the arrows.
type drawnImports struct {
	packages []string
	edges    []importEdge
}

// expandBraces expands the one brace group a name of the import list may
// hold: "engine/{fgo,hmg}" is engine/fgo and engine/hmg.
func expandBraces(name string) ([]string, error) {
	open := strings.IndexByte(name, '{')
	if open < 0 {
		if strings.ContainsAny(name, "},") {
			return nil, fmt.Errorf("%q: a brace or comma outside a brace group", name)
		}
		return []string{name}, nil
	}
	closing := strings.IndexByte(name, '}')
	if closing < open {
		return nil, fmt.Errorf("%q: a brace group that does not close", name)
	}
	prefix, inner, suffix := name[:open], name[open+1:closing], name[closing+1:]
	if strings.ContainsAny(suffix, "{},") || strings.ContainsAny(prefix, "},") {
		return nil, fmt.Errorf("%q: more than one brace group", name)
	}
	var names []string
	for _, part := range strings.Split(inner, ",") {
		if part == "" {
			return nil, fmt.Errorf("%q: an empty name in a brace group", name)
		}
		names = append(names, prefix+part+suffix)
	}
	return names, nil
}

// parseImportList reads the fenced block "```imports" of an architecture
// document. Each line other than blanks and # comments is one or more
// packages (brace groups allowed), then optionally "->" and the packages
// they import. A package may head only one line.
func parseImportList(doc string) (drawnImports, error) {
	var d drawnImports
	lines := strings.Split(doc, "\n")
	start := slices.Index(lines, "```imports")
	if start < 0 {
		return d, errors.New("no fenced block \"```imports\"")
	}
	end := slices.Index(lines[start+1:], "```")
	if end < 0 {
		return d, errors.New("the block \"```imports\" does not close")
	}
	headed := map[string]int{}
	for i, line := range lines[start+1 : start+1+end] {
		lineNo := start + 2 + i
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		left, right, hasArrow := strings.Cut(line, "->")
		if strings.Contains(right, "->") {
			return d, fmt.Errorf("line %d: two arrows", lineNo)
		}
		var froms, tos []string
		for _, field := range strings.Fields(left) {
			names, err := expandBraces(field)
			if err != nil {
				return d, fmt.Errorf("line %d: %w", lineNo, err)
			}
			froms = append(froms, names...)
		}
		if len(froms) == 0 {
			return d, fmt.Errorf("line %d: no package before the arrow", lineNo)
		}
		for _, field := range strings.Fields(right) {
			names, err := expandBraces(field)
			if err != nil {
				return d, fmt.Errorf("line %d: %w", lineNo, err)
			}
			tos = append(tos, names...)
		}
		if hasArrow && len(tos) == 0 {
			return d, fmt.Errorf("line %d: an arrow to nothing (leave the arrow out for a package that imports none of the module's)", lineNo)
		}
		for _, from := range froms {
			if earlier, ok := headed[from]; ok {
				return d, fmt.Errorf("line %d: %s already has its line (%d)", lineNo, from, earlier)
			}
			headed[from] = lineNo
			d.packages = append(d.packages, from)
			for _, to := range tos {
				d.edges = append(d.edges, importEdge{from, to})
			}
		}
	}
	return d, nil
}

// listedPackage is the part of `go list -json` the test reads.
type listedPackage struct {
	ImportPath string
	Imports    []string
	Module     *struct{ Path string }
	Error      *struct{ Err string }
}

// moduleImports runs `go list` over the module and returns its packages and
// the imports among them (of the packages' code, not their tests), named
// relative to the module path. It needs no network: GOPROXY=off, and -e
// lists a package's imports even when a third-party module is not in the
// module cache.
func moduleImports(t *testing.T) ([]string, []importEdge) {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,Module,Error", "./...")
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var listed []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("reading go list's output: %v", err)
		}
		if p.Error != nil {
			t.Fatalf("go list: package %s: %s", p.ImportPath, p.Error.Err)
		}
		if p.Module == nil {
			t.Fatalf("go list: package %s has no module", p.ImportPath)
		}
		listed = append(listed, p)
	}
	if len(listed) == 0 {
		t.Fatal("go list listed no package")
	}
	module := listed[0].Module.Path
	relative := func(path string) (string, bool) {
		rest, ok := strings.CutPrefix(path, module+"/")
		return rest, ok
	}
	var packages []string
	var edges []importEdge
	for _, p := range listed {
		from, ok := relative(p.ImportPath)
		if !ok {
			t.Fatalf("go list: package %s is outside module %s", p.ImportPath, module)
		}
		packages = append(packages, from)
		for _, imp := range p.Imports {
			if to, ok := relative(imp); ok {
				edges = append(edges, importEdge{from, to})
			}
		}
	}
	return packages, edges
}

// compareImports returns what is wrong with the drawn list against the
// module as go list shows it, one line each: arrows drawn that no import
// makes, imports not drawn, packages missing from the list or listed but
// not in the module, and imports of a package drawn above its importer.
func compareImports(drawn drawnImports, packages []string, edges []importEdge) []string {
	var wrong []string
	drawnAt := map[string]int{}
	for i, p := range drawn.packages {
		drawnAt[p] = i
	}
	inModule := map[string]bool{}
	for _, p := range packages {
		inModule[p] = true
		if _, ok := drawnAt[p]; !ok {
			wrong = append(wrong, fmt.Sprintf("package %s is in the module but has no line in the list", p))
		}
	}
	for _, p := range drawn.packages {
		if !inModule[p] {
			wrong = append(wrong, fmt.Sprintf("package %s has a line in the list but is not in the module", p))
		}
	}
	imported := map[importEdge]bool{}
	for _, e := range edges {
		imported[e] = true
	}
	isDrawn := map[importEdge]bool{}
	for _, e := range drawn.edges {
		if isDrawn[e] {
			wrong = append(wrong, fmt.Sprintf("%v is drawn twice", e))
		}
		isDrawn[e] = true
		if !imported[e] {
			wrong = append(wrong, fmt.Sprintf("%v is drawn, but %s does not import %s", e, e.from, e.to))
		}
	}
	for _, e := range edges {
		if !isDrawn[e] {
			wrong = append(wrong, fmt.Sprintf("%s imports %s, but the list does not draw %v", e.from, e.to, e))
		}
		from, fromOK := drawnAt[e.from]
		to, toOK := drawnAt[e.to]
		if fromOK && toOK && to <= from {
			wrong = append(wrong, fmt.Sprintf("%s imports %s, which the list puts above it: the list runs from the edge to the core", e.from, e.to))
		}
	}
	slices.Sort(wrong)
	return wrong
}

// TestArchitectureImports checks the import list of docs/spec/architecture.md
// against `go list`: every arrow drawn is an import of the package's code,
// every import among the module's packages is drawn, every package of the
// module has its line and a row in the table of jobs, and the list runs
// from the edge to the core (a package imports only packages below it).
func TestArchitectureImports(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(repoRoot, architecturePath))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(text)
	drawn, err := parseImportList(doc)
	if err != nil {
		t.Fatalf("%s: %v", architecturePath, err)
	}
	packages, edges := moduleImports(t)
	if len(packages) < 20 || len(edges) < 50 {
		t.Fatalf("go list gave only %d packages and %d imports among them; is the repository root %q right?", len(packages), len(edges), repoRoot)
	}
	for _, w := range compareImports(drawn, packages, edges) {
		t.Errorf("%s: %s", architecturePath, w)
	}
	for _, p := range packages {
		row := regexp.MustCompile("(?m)^\\| [^|\\n]*`" + regexp.QuoteMeta(p) + "`[^|\\n]*\\|")
		if !row.MatchString(doc) {
			t.Errorf("%s: package %s has no row in the table of jobs (\"| `%s` | its one job |\")", architecturePath, p, p)
		}
	}
}

// TestImportListChecks holds the parser and the comparison to cases, so that
// TestArchitectureImports can neither pass a wrong list nor fail a right one.
func TestImportListChecks(t *testing.T) {
	expandCases := []struct {
		name string
		want []string
		ok   bool
	}{
		{"engine", []string{"engine"}, true},
		{"engine/{fgo,hmg}", []string{"engine/fgo", "engine/hmg"}, true},
		{"protocol/mpc/{internal/kat,gc}", []string{"protocol/mpc/internal/kat", "protocol/mpc/gc"}, true},
		{"engine/{fgo,}", nil, false},
		{"engine/{fgo", nil, false},
		{"engine/fgo,hmg", nil, false},
		{"a/{b,c}/{d,e}", nil, false},
	}
	for _, c := range expandCases {
		got, err := expandBraces(c.name)
		if (err == nil) != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("expandBraces(%q) = %q, %v; want %q, ok=%v", c.name, got, err, c.want, c.ok)
		}
	}

	doc := "text\n```imports\n# the top\na -> b c/{d,e}\nb -> c/d\nc/{d,e}\n```\nmore\n"
	drawn, err := parseImportList(doc)
	if err != nil {
		t.Fatal(err)
	}
	wantPackages := []string{"a", "b", "c/d", "c/e"}
	wantEdges := []importEdge{{"a", "b"}, {"a", "c/d"}, {"a", "c/e"}, {"b", "c/d"}}
	if !slices.Equal(drawn.packages, wantPackages) || !slices.Equal(drawn.edges, wantEdges) {
		t.Fatalf("parseImportList = %v %v; want %v %v", drawn.packages, drawn.edges, wantPackages, wantEdges)
	}
	for _, bad := range []string{
		"no block",
		"```imports\na -> b\n",                // not closed
		"```imports\na -> b\na -> c\n```\n",   // two lines for a
		"```imports\na ->\n```\n",             // an arrow to nothing
		"```imports\n-> b\n```\n",             // nothing before the arrow
		"```imports\na -> b -> c\n```\n",      // two arrows
		"```imports\na -> b/{c,d\n```\n",      // an open brace group
		"```imports\na b -> c\nb -> c\n```\n", // b twice, through a group
	} {
		if _, err := parseImportList(bad); err == nil {
			t.Errorf("parseImportList(%q) accepted it", bad)
		}
	}

	// The module of the drawn list above, right, then wrong in each way.
	packages := []string{"a", "b", "c/d", "c/e"}
	edges := []importEdge{{"a", "b"}, {"a", "c/d"}, {"a", "c/e"}, {"b", "c/d"}}
	if wrong := compareImports(drawn, packages, edges); len(wrong) != 0 {
		t.Errorf("the right list is found wrong: %q", wrong)
	}
	mustName := func(what string, wrong []string, want string) {
		t.Helper()
		if !slices.ContainsFunc(wrong, func(w string) bool { return strings.Contains(w, want) }) {
			t.Errorf("%s: the comparison says %q, which does not name %q", what, wrong, want)
		}
	}
	mustName("an import not drawn", compareImports(drawn, packages, append(slices.Clone(edges), importEdge{"c/e", "c/d"})), "c/e imports c/d, but the list does not draw")
	mustName("an arrow with no import", compareImports(drawn, packages, edges[1:]), "a -> b is drawn, but a does not import b")
	mustName("an import upwards", compareImports(drawn, packages, append(slices.Clone(edges), importEdge{"c/d", "a"})), "c/d imports a, which the list puts above it")
	mustName("a package with no line", compareImports(drawn, append(slices.Clone(packages), "f"), edges), "package f is in the module but has no line")
	mustName("a line for no package", compareImports(drawn, packages[:3], edges), "package c/e has a line in the list but is not in the module")
}
