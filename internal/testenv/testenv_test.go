package testenv

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestScale: KAKURE_TEST_SCALE multiplies every deadline, the race
// detector and the load stretch them further, never shrink them, and a
// malformed factor is refused rather than taken for the default.
func TestScale(t *testing.T) {
	t.Setenv(ScaleVariable, "")
	base := Scale()
	if base < 1 || (Race && base < raceFactor) || base > raceFactor*maxLoadFactor {
		t.Fatalf("Scale() = %v without %s (race detector %v)", base, ScaleVariable, Race)
	}
	t.Setenv(ScaleVariable, "4")
	if s := Scale(); s < 4 {
		t.Errorf("Scale() = %v with %s=4, %v without", s, ScaleVariable, base)
	}
	if d := Duration(time.Second); d < 4*time.Second {
		t.Errorf("Duration(1s) = %v with %s=4", d, ScaleVariable)
	}
	if dl := Deadline(time.Second); time.Until(dl) < 3*time.Second {
		t.Errorf("Deadline(1s) is %v away with %s=4", time.Until(dl), ScaleVariable)
	}
	for _, bad := range []string{"0", "-1", "two", "1s"} {
		t.Setenv(ScaleVariable, bad)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s=%q taken", ScaleVariable, bad)
				}
			}()
			Scale()
		}()
	}
}

// TestMissingFailsInCI: a test missing what it needs skips outside CI
// and fails in CI (run in a child process, whose failure is the point).
func TestMissingFailsInCI(t *testing.T) {
	if os.Getenv("KAKURE_TESTENV_CHILD") == "1" {
		Missing(t, "the frobnicator is not installed")
		t.Fatal("Missing returned")
	}
	for _, ci := range []string{"", "true"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissingFailsInCI$", "-test.v")
		cmd.Env = append(os.Environ(), "KAKURE_TESTENV_CHILD=1", "CI="+ci)
		out, err := cmd.CombinedOutput()
		switch {
		case ci == "" && (err != nil || !strings.Contains(string(out), "SKIP") || !strings.Contains(string(out), "frobnicator")):
			t.Errorf("outside CI: %v, want a skip with the reason:\n%s", err, out)
		case ci != "" && (err == nil || !strings.Contains(string(out), "FAIL") || !strings.Contains(string(out), "frobnicator")):
			t.Errorf("in CI: %v, want a failure with the reason:\n%s", err, out)
		}
	}
}

// TestFull: KAKURE_TEST_FULL=1 selects the full sizes, unset or 0 the
// fast tier's, and a value that is not a boolean is refused rather than
// taken for the fast tier.
func TestFull(t *testing.T) {
	for _, c := range []struct {
		value string
		full  bool
	}{{"", false}, {"0", false}, {"1", true}, {"true", true}} {
		t.Setenv(FullVariable, c.value)
		if Full() != c.full || Size(3, 30) != map[bool]int{false: 3, true: 30}[c.full] {
			t.Errorf("%s=%q: Full() = %v, Size(3, 30) = %d", FullVariable, c.value, Full(), Size(3, 30))
		}
	}
	for _, bad := range []string{"yes", "2", "full"} {
		t.Setenv(FullVariable, bad)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s=%q taken", FullVariable, bad)
				}
			}()
			Full()
		}()
	}
}

// tier is a row of the README's table of test tiers.
type tier struct {
	name, command string
	slowest       time.Duration // its slowest package's time, from the table
}

// readmeTiers reads the table of tiers of README.md's "Running the
// tests": the rows whose second cell is a go test command in backquotes,
// with the slowest package's time (the last cell, "… s").
func readmeTiers(t *testing.T) []tier {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| *([^|]+?) *\\| *`([^`]*go test [^`]*)` *\\|.*\\| *([0-9]+) s *\\|$")
	var tiers []tier
	for _, line := range strings.Split(string(data), "\n") {
		if m := row.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			secs, _ := strconv.Atoi(m[3])
			tiers = append(tiers, tier{m[1], m[2], time.Duration(secs) * time.Second})
		}
	}
	return tiers
}

// ciTestCommands returns the go test commands .ci/run runs, each less its
// -timeout flag, and the timeout.
func ciTestCommands(t *testing.T) map[string]time.Duration {
	t.Helper()
	data, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	timeout := regexp.MustCompile(` -timeout ([0-9a-z]+)`)
	cmds := map[string]time.Duration{}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, " #"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if !strings.Contains(line, "go test ") || strings.HasPrefix(line, "echo") || strings.HasPrefix(line, "#") {
			continue
		}
		m := timeout.FindStringSubmatch(line)
		if m == nil {
			t.Errorf(".ci/run runs %q without an explicit -timeout", line)
			continue
		}
		d, err := time.ParseDuration(m[1])
		if err != nil {
			t.Errorf(".ci/run: %q: %v", line, err)
		}
		cmds[timeout.ReplaceAllString(line, "")] = d
	}
	return cmds
}

// TestCIRunsTheREADMETiers: the README's test command is plain `go test
// ./...`; CI (.ci/run) runs it, the race pass and the full tier exactly
// as the README's table of tiers gives them, each with an explicit
// -timeout at least three times the slowest package's time the table
// gives (issue 32); the full tier sets KAKURE_TEST_FULL=1 over every
// package, so that every test runs at its full size in CI.
func TestCIRunsTheREADMETiers(t *testing.T) {
	tiers := readmeTiers(t)
	if len(tiers) != 3 {
		t.Fatalf("README.md's table of tiers has %d rows, want 3 (default, race, full): %+v", len(tiers), tiers)
	}
	want := []string{"go test ./...", "go test -race ./...", FullVariable + "=1 go test ./..."}
	ci := ciTestCommands(t)
	if len(ci) != len(want) {
		t.Errorf(".ci/run runs %d go test commands, want %d: %v", len(ci), len(want), ci)
	}
	for i, tr := range tiers {
		if tr.command != want[i] {
			t.Errorf("tier %q: %q, want %q", tr.name, tr.command, want[i])
		}
		timeout, ok := ci[tr.command]
		switch {
		case !ok:
			t.Errorf(".ci/run does not run the %s tier's %q", tr.name, tr.command)
		case tr.slowest <= 0:
			t.Errorf("tier %q: no time for its slowest package", tr.name)
		case timeout < 3*tr.slowest:
			t.Errorf(".ci/run runs %q with -timeout %v: less than three times its slowest package's %v", tr.command, timeout, tr.slowest)
		}
	}
}

// sizeNames are the names by which a test learns the tier or whether the
// race detector is on, and so may run smaller.
var sizeNames = map[string]bool{"raceEnabled": true, "phantomRace": true, "testenv.Race": true,
	"testenv.Full": true, "testenv.Size": true, "testenv.SkipUnlessFull": true}

// sizedTests returns the tests (and fuzz targets, whose corpus every
// test run replays) of the Go package in dir whose size depends on the
// tier or the race detector: those whose body, or a function of the
// package they call (at any depth), names sizeNames.
func sizedTests(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]map[string]bool{} // function -> names it uses
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			uses := map[string]bool{}
			// What it names of sizeNames, and the functions it calls or
			// passes on (by name: a method by its own), not the other
			// identifiers, lest a variable or field cuts be taken for
			// the function cuts.
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					if sizeNames[n.Name] {
						uses[n.Name] = true
					}
				case *ast.SelectorExpr:
					if x, ok := n.X.(*ast.Ident); ok && x.Name == "testenv" {
						uses["testenv."+n.Sel.Name] = true
					}
				case *ast.CallExpr:
					switch fun := n.Fun.(type) {
					case *ast.Ident:
						uses[fun.Name] = true
					case *ast.SelectorExpr:
						uses[fun.Sel.Name] = true
					}
					for _, arg := range n.Args {
						if id, ok := arg.(*ast.Ident); ok {
							uses[id.Name] = true
						}
					}
				}
				return true
			})
			calls[fd.Name.Name] = uses
		}
	}
	sized := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for fn, uses := range calls {
			if sized[fn] {
				continue
			}
			for name := range uses {
				if sizeNames[name] || (sized[name] && name != fn) {
					sized[fn], changed = true, true
					break
				}
			}
		}
	}
	var tests []string
	for fn := range sized {
		if strings.HasPrefix(fn, "Test") || strings.HasPrefix(fn, "Fuzz") {
			tests = append(tests, fn)
		}
	}
	return tests
}

// sizesTable returns the README's table of sizes: the lines of its
// "Running the tests" section from the header row that starts with
// "| Test" to the end of the table.
func sizesTable(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	in := false
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "| Test "):
			in = true
		case in && !strings.HasPrefix(line, "|"):
			return strings.Join(rows, "\n")
		}
		if in {
			rows = append(rows, line)
		}
	}
	return strings.Join(rows, "\n")
}

// TestSizedTestsInTheTable: every test that runs smaller by default or
// under the race detector than in the full tier is in the README's table
// of sizes (test → default size → full size → time), and every test the
// table names exists, so that the table a newcomer reads is the one the
// code runs.
func TestSizedTestsInTheTable(t *testing.T) {
	table := sizesTable(t)
	if table == "" {
		t.Fatal(`README.md has no table of sizes (a header row starting "| Test ")`)
	}
	testName := regexp.MustCompile(`\b(?:Test|Fuzz)[A-Z0-9][A-Za-z0-9_]*`)
	named := map[string]bool{}
	for _, n := range testName.FindAllString(table, -1) {
		named[n] = true
	}
	all := map[string]bool{}
	found := 0
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			if strings.HasSuffix(path, "_test.go") {
				data, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				for _, m := range regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)\w+)\(`).FindAllStringSubmatch(string(data), -1) {
					all[m[1]] = true
				}
			}
			return nil
		}
		if name := d.Name(); path != "../.." && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		dir, _ := filepath.Rel("../..", path)
		if dir == "internal/testenv" {
			return nil // its own tests check Race and Full themselves
		}
		for _, test := range sizedTests(t, path) {
			found++
			if !named[test] {
				t.Errorf("%s in %s runs smaller by default or under -race, and README.md's table of sizes does not name it", test, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("no test runs smaller outside the full tier: the check found nothing to check")
	}
	for n := range named {
		if !all[n] {
			t.Errorf("README.md's table of sizes names %s, which is no test", n)
		}
	}
	t.Logf("%d tests run smaller outside the full tier", found)
}

// TestCheckGolden checks the golden-file helper of the golden records
// (VAR-D4): it writes with update, accepts the same text, and names the
// first line that differs otherwise.
func TestCheckGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "golden", "g.txt")
	if err := CheckGolden(path, "a\nb\n", false); err == nil {
		t.Error("a missing golden file passed")
	}
	if err := CheckGolden(path, "a\nb\n", true); err != nil {
		t.Fatalf("update: %v", err)
	}
	if err := CheckGolden(path, "a\nb\n", false); err != nil {
		t.Errorf("the same text: %v", err)
	}
	for _, got := range []string{"a\nc\n", "a\n", "a\nb\nc\n"} {
		if err := CheckGolden(path, got, false); err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("%q against %q: %v", got, "a\nb\n", err)
		}
	}
}

// TestSkipUnlessFullSaysHow: outside the full tier SkipUnlessFull skips
// with what is left out and the command that runs it (run in a child
// process, whose skip is the point); in the full tier it lets the test
// run.
func TestSkipUnlessFullSaysHow(t *testing.T) {
	if os.Getenv("KAKURE_TESTENV_CHILD") == "skip" {
		SkipUnlessFull(t, "the frobnication at full size")
		t.Log("ran in full")
		return
	}
	for _, full := range []string{"0", "1"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSkipUnlessFullSaysHow$", "-test.v")
		cmd.Env = append(os.Environ(), "KAKURE_TESTENV_CHILD=skip", FullVariable+"="+full)
		out, err := cmd.CombinedOutput()
		want := `KAKURE_TEST_FULL=1 go test -run "^TestSkipUnlessFullSaysHow$" ./internal/testenv`
		switch {
		case err != nil:
			t.Errorf("%s=%s: %v\n%s", FullVariable, full, err, out)
		case full == "0" && (!strings.Contains(string(out), "SKIP") || !strings.Contains(string(out), "frobnication") || !strings.Contains(string(out), want)):
			t.Errorf("outside the full tier: want a skip naming %q:\n%s", want, out)
		case full == "1" && !strings.Contains(string(out), "ran in full"):
			t.Errorf("in the full tier: want the test to run:\n%s", out)
		}
	}
}
