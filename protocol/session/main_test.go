package session_test

import (
	"flag"
	"os"
	"runtime/debug"
	"testing"

	"github.com/kakure/kakure/protocol/session"
)

// protocolParallel is how many of this package's parallel tests run at
// once unless -parallel says otherwise. Most of them wait on a grace, a
// clock or a stalled peer rather than compute, so more than GOMAXPROCS of
// them at once shortens the package's run: on 2 cores it took 200 s with
// eight at once and the goroutine-counting tests alone, 104 s with those
// beside the others (trackGoroutines), 68 s with sixteen at once, 54 s
// with thirty-two; but with thirty-two at a load of 8, tests of clocks
// starved of CPU (honest claims charged as under-claims, a bot game lost
// on time).
const protocolParallel = "16"

// protocolParallelRace is protocolParallel under the race detector, which
// makes every test's CPU five to fifty times dearer: sixteen at once
// starved the clock tests and the hostile peers' victims there.
const protocolParallelRace = "6"

// parallelUnlessRace runs the test in parallel with others (t.Parallel),
// except under the race detector. For the hostile-peer tests: they flood
// a victim with streams, invitations and bytes under short timeouts, and
// under the race detector their neighbours' load turns into the victim's
// timeouts (a handshake not negotiated in time, an honest game adjourned);
// there they run alone, as they did before they counted their own
// goroutines (trackGoroutines).
func parallelUnlessRace(t *testing.T) {
	if !raceScheduling {
		t.Parallel()
	}
}

// protocolGCPercent is the garbage collector's target (GOGC) for this
// package's tests unless GOGC says otherwise: its games allocate fast
// (JSON of every message, garblings, records read again) and the
// collector took 11 % of the package's CPU at the default 100, with at
// most 1 GB resident. At 400 it runs a quarter as often, on a heap up to
// five times what is live; protocolMemoryLimit keeps the heap below 3 GiB
// whatever the target (not under the race detector, whose memory is
// another matter: there the defaults stay).
const protocolGCPercent = 400

// protocolMemoryLimit is the heap's soft limit with protocolGCPercent
// (GOMEMLIMIT overrides it).
const protocolMemoryLimit = 3 << 30

func TestMain(m *testing.M) {
	flag.Parse()
	if !raceScheduling && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(protocolGCPercent)
		if os.Getenv("GOMEMLIMIT") == "" {
			debug.SetMemoryLimit(protocolMemoryLimit)
		}
	}
	// Every Phantom Go secrets document is checked against json.Marshal
	// (PN-D19), except in benchmarks, which measure its cost.
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		session.CheckSecretsEncoding(true)
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		parallel := protocolParallel
		if raceScheduling {
			parallel = protocolParallelRace
		}
		if err := flag.Set("test.parallel", parallel); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
