package docs_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/kakure/kakure/internal/testenv"
)

// TestMutantsStillApply (issue 32): every entry of
// internal/mutants/mutants.sh still applies to the code as it is: the
// text it changes is in its file exactly once and each test it names is
// declared in its package. Code that moves (a check split into another
// file, a test renamed) otherwise leaves mutants that report STALE only
// when someone runs the whole script, and the fast tier's claim to kill
// them goes unchecked. The script's -s mode runs no test.
func TestMutantsStillApply(t *testing.T) {
	for _, tool := range []string{"bash", "perl", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, "%s (the mutants script runs with bash, perl and git)", tool)
		}
	}
	out, err := exec.Command("bash", filepath.Join(repoRoot, "internal", "mutants", "mutants.sh"), "-s").CombinedOutput()
	if err != nil {
		t.Errorf("internal/mutants/mutants.sh -s: %v; update the entries (the text to change, the test names):\n%s", err, out)
	}
}
