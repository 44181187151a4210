package gc_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kakure/kakure/internal/testenv"
)

// TestGeneratedAssemblyUpToDate runs the generator of go generate
// (gen_gates_amd64.go with gen_threehalves_amd64.go) into a temporary
// directory and checks that the checked-in gates_amd64.s (the fused gate routines of MPC-D13) and
// threehalves_amd64.s (the pipelined three-halves hashes of MPC-D26) are
// its output byte for byte: a hand edit of either file, or a change of the
// generator whose output was not regenerated, fails here. Regenerate with
// `go generate ./protocol/mpc/gc`.
func TestGeneratedAssemblyUpToDate(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "the go command, to run gen_gates_amd64.go: %v", err)
	}
	dir := t.TempDir()
	run := exec.Command(goCmd, "run", "gen_gates_amd64.go", "gen_threehalves_amd64.go", "-dir", dir)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("go run gen_gates_amd64.go gen_threehalves_amd64.go -dir %s: %v\n%s", dir, err, out)
	}
	for _, name := range []string{"gates_amd64.s", "threehalves_amd64.s"} {
		generated, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("the generator wrote no %s: %v", name, err)
		}
		checkedIn, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if string(checkedIn) == string(generated) {
			continue
		}
		c, g := strings.Split(string(checkedIn), "\n"), strings.Split(string(generated), "\n")
		line := 0
		for line < len(c) && line < len(g) && c[line] == g[line] {
			line++
		}
		at := func(lines []string) string {
			if line < len(lines) {
				return lines[line]
			}
			return "(end of file)"
		}
		t.Errorf("%s is not the generator's output from line %d on: checked in %q, generated %q (run go generate ./protocol/mpc/gc)",
			name, line+1, at(c), at(g))
	}
}
