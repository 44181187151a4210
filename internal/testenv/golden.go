package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CheckGolden compares got with the golden file at path and says where
// they first differ; with update it writes got there first (a test's
// -update flag, after a deliberate change), making the directories it
// needs.
func CheckGolden(path, got string, update bool) error {
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("golden file: %w", err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			return fmt.Errorf("golden file: %w", err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("golden file: %w (write it with -update)", err)
	}
	if got == string(want) {
		return nil
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := 0; ; i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Errorf("%s differs at line %d (-update writes it anew after a deliberate change):\n got  %q\n want %q", path, i+1, gl, wl)
		}
	}
}
