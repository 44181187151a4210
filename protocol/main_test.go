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

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", protocolParallel); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
