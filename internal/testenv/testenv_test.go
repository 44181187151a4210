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

// testCommand returns the line of text that starts with "go test -race",
// less a trailing shell comment, and how many such lines there are.
func testCommand(t *testing.T, path string) (string, int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cmd string
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "go test -race") {
			continue
		}
		if i := strings.Index(line, " #"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		cmd = line
		n++
	}
	return cmd, n
}

// TestCIRunsTheREADMETestCommand: CI (.ci/run) runs exactly the test
// command README.md gives a newcomer, once, and it has its race pass and
// its pass without the race detector of what -race leaves out.
func TestCIRunsTheREADMETestCommand(t *testing.T) {
	readme, n := testCommand(t, "../../README.md")
	if n != 1 {
		t.Fatalf("README.md gives %d test commands, want 1", n)
	}
	ci, n := testCommand(t, "../../.ci/run")
	if n != 1 {
		t.Fatalf(".ci/run runs %d test commands, want 1", n)
	}
	if ci != readme {
		t.Errorf(".ci/run runs\n\t%s\nREADME.md gives\n\t%s", ci, readme)
	}
	race, plain, ok := strings.Cut(readme, " && ")
	if !ok || race != "go test -race ./..." || !strings.HasPrefix(plain, "go test -run ") || strings.Contains(plain, "-race") {
		t.Errorf("the test command %q is not a race pass then a pass without -race", readme)
	}
}

// raceNames are the names by which a test learns that the race detector
// is on.
var raceNames = map[string]bool{"raceEnabled": true, "phantomRace": true, "Race": true}

// raceReducedTests returns the tests (and fuzz targets, whose corpus
// every test run replays) of the Go package in dir that do
// less under the race detector: those whose body, or a function of the
// package they call (at any depth), names raceNames.
func raceReducedTests(t *testing.T, dir string) []string {
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
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					uses[n.Name] = true
				case *ast.SelectorExpr:
					if x, ok := n.X.(*ast.Ident); ok && x.Name == "testenv" {
						uses[n.Sel.Name] = true
					}
					// A method call counts by its name.
					uses[n.Sel.Name] = true
				}
				return true
			})
			calls[fd.Name.Name] = uses
		}
	}
	reduced := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for fn, uses := range calls {
			if reduced[fn] {
				continue
			}
			for name := range uses {
				if raceNames[name] || (reduced[name] && name != fn) {
					reduced[fn], changed = true, true
					break
				}
			}
		}
	}
	var tests []string
	for fn := range reduced {
		if strings.HasPrefix(fn, "Test") || strings.HasPrefix(fn, "Fuzz") {
			tests = append(tests, fn)
		}
	}
	return tests
}

// TestRaceReducedTestsRunWithoutRace: every test that does less under the
// race detector is selected by the README's pass without -race, in a
// package that pass runs, so that CI runs its full size.
func TestRaceReducedTestsRunWithoutRace(t *testing.T) {
	readme, _ := testCommand(t, "../../README.md")
	_, plain, _ := strings.Cut(readme, " && ")
	fields := strings.Fields(plain)
	if len(fields) < 5 || fields[2] != "-run" {
		t.Fatalf("the pass without -race %q: want go test -run 'PATTERN' PACKAGES", plain)
	}
	run, err := regexp.Compile(strings.Trim(fields[3], "'"))
	if err != nil {
		t.Fatal(err)
	}
	pkgs := fields[4:]
	covered := func(dir string) bool {
		for _, p := range pkgs {
			p = filepath.Clean(p)
			if rest, ok := strings.CutSuffix(p, "/..."); ok {
				if dir == rest || strings.HasPrefix(dir, rest+"/") {
					return true
				}
			} else if dir == p {
				return true
			}
		}
		return false
	}
	found := 0
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != "../.." && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		dir, _ := filepath.Rel("../..", path)
		if dir == "internal/testenv" {
			return nil // its own tests check Race itself
		}
		for _, test := range raceReducedTests(t, path) {
			found++
			if !run.MatchString(test) || !covered(dir) {
				t.Errorf("%s in %s does less under -race and the README's pass without -race does not run it", test, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("no test does less under -race: the check found nothing to check")
	}
	t.Logf("%d tests do less under -race", found)
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
