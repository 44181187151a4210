// Package kat keeps the known-answer vectors of the secure computation's
// tests (issue 16, T-8(c)): a fixed seed must give fixed garbled tables,
// OT messages and decoding bits. Both parties share the code, so a bug they
// make the same way leaves every round-trip test green; only digests fixed
// in testdata see it. Only tests import it.
package kat

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Check compares got (name → bytes) with the SHA-256 digests kept in the
// file katFile, or rewrites the file when KAKURE_WRITE_KAT=1: after a
// deliberate change, which changes every recorded game.
func Check(t testing.TB, katFile string, got map[string][]byte) {
	t.Helper()
	sums := map[string]string{}
	for name, b := range got {
		s := sha256.Sum256(b)
		sums[name] = hex.EncodeToString(s[:])
	}
	if os.Getenv("KAKURE_WRITE_KAT") == "1" {
		names := make([]string, 0, len(sums))
		for n := range sums {
			names = append(names, n)
		}
		sort.Strings(names)
		var sb strings.Builder
		sb.WriteString("# SHA-256 of known-answer vectors; KAKURE_WRITE_KAT=1 go test -run TestKAT rewrites it.\n")
		for _, n := range names {
			fmt.Fprintf(&sb, "%s %s\n", n, sums[n])
		}
		if err := os.MkdirAll(filepath.Dir(katFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(katFile, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d vectors to %s", len(names), katFile)
		return
	}
	f, err := os.Open(katFile)
	if err != nil {
		t.Fatalf("known answers: %v", err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, sum, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("known answers: bad line %q", line)
		}
		want[name] = sum
	}
	for name, sum := range sums {
		switch w, ok := want[name]; {
		case !ok:
			t.Errorf("known answer %s missing from %s", name, katFile)
		case w != sum:
			t.Errorf("known answer %s: digest %s, want %s", name, sum, w)
		}
	}
	for name := range want {
		if _, ok := sums[name]; !ok {
			t.Errorf("known answer %s of %s not computed", name, katFile)
		}
	}
}
