package protocol_test

import (
	"flag"
	"os"
	"testing"
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

func TestMain(m *testing.M) {
	flag.Parse()
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
