//go:build amd64 && !purego

package shortsha

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestMPCD57SHANIDetected: the SHA-NI routine runs wherever the processor
// has the SHA extensions with AVX, SSE4.1 and SSSE3, as Linux's
// /proc/cpuinfo lists its flags, and nowhere else.
func TestMPCD57SHANIDetected(t *testing.T) {
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
	want := true
	for _, f := range []string{"sha_ni", "avx", "sse4_1", "ssse3"} {
		want = want && slices.Contains(flags, f)
	}
	if useSHANI != want {
		t.Fatalf("useSHANI is %v; /proc/cpuinfo lists sha_ni, avx, sse4_1 and ssse3: %v", useSHANI, want)
	}
	t.Logf("SHA-NI: %v", useSHANI)
}
