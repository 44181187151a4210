//go:build amd64 && !purego

package shortsha

import (
	"slices"
	"testing"

	"github.com/kakure/kakure/internal/testenv"
)

// TestMPCD57SHANIDetected: the SHA-NI routine runs wherever the processor
// has the SHA extensions with AVX, SSE4.1 and SSSE3, as Linux's
// /proc/cpuinfo lists its flags, and nowhere else.
func TestMPCD57SHANIDetected(t *testing.T) {
	flags := testenv.CPUFlags(t)
	want := true
	for _, f := range []string{"sha_ni", "avx", "sse4_1", "ssse3"} {
		want = want && slices.Contains(flags, f)
	}
	if useSHANI != want {
		t.Fatalf("useSHANI is %v; /proc/cpuinfo lists sha_ni, avx, sse4_1 and ssse3: %v", useSHANI, want)
	}
	t.Logf("SHA-NI: %v", useSHANI)
}
