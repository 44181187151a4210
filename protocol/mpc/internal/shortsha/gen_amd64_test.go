package shortsha

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/kakure/kakure/internal/testenv"
)

// TestGeneratedAssemblyUpToDate runs the generator of go generate
// (gen_amd64.go) into a temporary directory and checks that the
// checked-in shortsha_amd64.s is its output byte for byte. Regenerate
// with `go generate ./protocol/mpc/internal/shortsha`.
func TestGeneratedAssemblyUpToDate(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "the go command, to run gen_amd64.go: %v", err)
	}
	dir := t.TempDir()
	if out, err := exec.Command(goCmd, "run", "gen_amd64.go", "-dir", dir).CombinedOutput(); err != nil {
		t.Fatalf("go run gen_amd64.go -dir %s: %v\n%s", dir, err, out)
	}
	generated, err := os.ReadFile(filepath.Join(dir, "shortsha_amd64.s"))
	if err != nil {
		t.Fatal(err)
	}
	checkedIn, err := os.ReadFile("shortsha_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	if string(generated) != string(checkedIn) {
		t.Error("shortsha_amd64.s is not the generator's output (run go generate ./protocol/mpc/internal/shortsha)")
	}
}
