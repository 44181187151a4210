//go:build amd64 && !purego

package gc

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestMPCD44VAESDetected: the VAES gate routines run wherever the
// processor has VAES and AVX2, with AVX-512 or without (MPC-D44), as
// Linux's /proc/cpuinfo lists its flags; a processor without VAES never
// gets them.
func TestMPCD44VAESDetected(t *testing.T) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip("no /proc/cpuinfo here")
	}
	var flags []string
	for line := range strings.SplitSeq(string(b), "\n") {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			flags = strings.Fields(value)
			break
		}
	}
	if flags == nil {
		t.Skip("no flags in /proc/cpuinfo")
	}
	want := slices.Contains(flags, "vaes") && slices.Contains(flags, "avx2")
	if haveVAES != want {
		t.Fatalf("haveVAES is %v; /proc/cpuinfo lists vaes and avx2: %v", haveVAES, want)
	}
	t.Logf("VAES: %v", haveVAES)
}
