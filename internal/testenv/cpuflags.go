package testenv

import (
	"os"
	"strings"
	"testing"
)

// CPUFlags returns the flags Linux's /proc/cpuinfo lists for the first
// processor, for the tests that hold a feature check to them (MPC-D44,
// MPC-D57). It skips the test where there is no /proc/cpuinfo or it lists
// no flags.
func CPUFlags(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip("no /proc/cpuinfo here")
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			return strings.Fields(value)
		}
	}
	t.Skip("no flags in /proc/cpuinfo")
	return nil
}
