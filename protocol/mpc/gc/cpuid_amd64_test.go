//go:build amd64 && !purego

package gc

import (
	"slices"
	"testing"

	"github.com/kakure/kakure/internal/testenv"
)

// TestMPCD44VAESDetected: the VAES gate routines run wherever the
// processor has VAES and AVX2, with AVX-512 or without (MPC-D44), as
// Linux's /proc/cpuinfo lists its flags; a processor without VAES never
// gets them.
func TestMPCD44VAESDetected(t *testing.T) {
	flags := testenv.CPUFlags(t)
	want := slices.Contains(flags, "vaes") && slices.Contains(flags, "avx2")
	if haveVAES != want {
		t.Fatalf("haveVAES is %v; /proc/cpuinfo lists vaes and avx2: %v", haveVAES, want)
	}
	t.Logf("VAES: %v", haveVAES)
}
