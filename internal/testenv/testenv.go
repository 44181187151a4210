// Package testenv holds what the tests of every package share about the
// machine they run on: how far to stretch their deadlines (a factor from
// the environment, the race detector and the load of the machine), which
// tier runs (the fast default of `go test ./...`, or the full sizes with
// KAKURE_TEST_FULL=1), what a test does when a program it needs is
// missing (it skips, except in CI, where it fails), and how a test ends
// the processes it starts. Only tests import it.
package testenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ScaleVariable is the environment variable that multiplies every
// deadline of the tests (a positive number; 1 when unset).
const ScaleVariable = "KAKURE_TEST_SCALE"

// FullVariable is the environment variable that selects the full tier:
// KAKURE_TEST_FULL=1 runs every test at its full size (the statistical
// catch rates, T-9's 10,000 tries, the GNU Go differential's 1000 games
// per board size, the kill campaign, the whole games in tmux, the
// network-namespace labs); unset or 0, the tests run at the smaller
// sizes of `go test ./...` (README, "Running the tests").
const FullVariable = "KAKURE_TEST_FULL"

// Full reports whether the tests run at their full sizes
// (KAKURE_TEST_FULL set to a true value: 1, t, true). A value that is not
// a boolean panics, so that a typing error is not taken for the fast
// tier.
func Full() bool {
	s := os.Getenv(FullVariable)
	if s == "" {
		return false
	}
	full, err := strconv.ParseBool(s)
	if err != nil {
		panic(fmt.Sprintf("testenv: %s=%q: want 1 or 0", FullVariable, s))
	}
	return full
}

// Size returns full in the full tier (KAKURE_TEST_FULL=1), fast
// otherwise: how many games, tries or trials a test plays.
func Size(fast, full int) int {
	if Full() {
		return full
	}
	return fast
}

// SkipUnlessFull skips a test, or a part of one, that only the full tier
// runs, saying what it is and how to run it: a test that has no smaller
// stand-in because it waits on real time (a link cut for longer than
// QUIC's idle timeout, a whole game in tmux).
func SkipUnlessFull(t testing.TB, what string) {
	t.Helper()
	if !Full() {
		t.Skipf("%s: in the full tier only (%s=1 go test -run \"^%s$\" %s)", what, FullVariable, t.Name(), packagePath())
	}
}

// packagePath returns the directory of the package under test (where go
// test runs its binary) relative to the module's root, as "./dir", or
// "./..." if the root is not found.
func packagePath() string {
	wd, err := os.Getwd()
	if err != nil {
		return "./..."
	}
	for root := wd; ; root = filepath.Dir(root) {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			rel, err := filepath.Rel(root, wd)
			if err != nil {
				return "./..."
			}
			return "./" + filepath.ToSlash(rel)
		}
		if filepath.Dir(root) == root {
			return "./..."
		}
	}
}

// raceFactor stretches the deadlines under the race detector, which makes
// the code some 2 to 20 times slower (the secure computation most).
const raceFactor = 3

// maxLoadFactor bounds the factor taken from the load of the machine, so
// that a test that hangs still fails within a bounded time.
const maxLoadFactor = 6

// Scale returns the factor by which the tests stretch their deadlines:
// KAKURE_TEST_SCALE (default 1), times 3 under the race detector, times
// the load of the machine per core (the one-minute load average of
// /proc/loadavg, read at each call) when it is above 1, up to 6. A
// malformed KAKURE_TEST_SCALE panics, so that a typing error is not
// taken for the default.
func Scale() float64 {
	f := 1.0
	if s := os.Getenv(ScaleVariable); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v <= 0 {
			panic(fmt.Sprintf("testenv: %s=%q: want a positive number", ScaleVariable, s))
		}
		f = v
	}
	if Race {
		f *= raceFactor
	}
	return f * loadFactor()
}

// loadFactor is the one-minute load average per core, between 1 and
// maxLoadFactor (1 where /proc/loadavg cannot be read).
func loadFactor() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 1
	}
	fields := strings.Fields(string(data))
	if len(fields) == 0 {
		return 1
	}
	load, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return 1
	}
	return min(max(load/float64(runtime.NumCPU()), 1), maxLoadFactor)
}

// Duration returns d stretched by Scale: the deadline a test gives
// something that takes at most d on an idle machine without the race
// detector.
func Duration(d time.Duration) time.Duration {
	return time.Duration(float64(d) * Scale())
}

// Deadline returns the moment Duration(d) from now.
func Deadline(d time.Duration) time.Time {
	return time.Now().Add(Duration(d))
}

// Context returns a context that ends Duration(d) from now or when the
// test ends, whichever comes first.
func Context(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), Duration(d))
	t.Cleanup(cancel)
	return ctx
}

// InCI reports whether the tests run in CI (the variable CI is set, as
// .ci/run and the usual CI services do).
func InCI() bool {
	return os.Getenv("CI") != ""
}

// Missing is what a test calls when something it needs is not there (a
// program, a permission): it skips the test with the reason, except in
// CI, which installs everything the tests need and must run them all,
// where it fails the test with the reason.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	reason := fmt.Sprintf(format, args...)
	if InCI() {
		t.Fatalf("%s (CI must run this test: .ci/run installs what it needs)", reason)
	}
	t.Skip(reason)
}
