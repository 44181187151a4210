package protocol_test

import (
	"flag"
	"os"
	"testing"
)

// protocolParallel is how many of this package's parallel tests run at
// once unless -parallel says otherwise. Most of them wait on a grace, a
// clock or a stalled peer rather than compute, so more than GOMAXPROCS of
// them at once shortens the package's run (under -race it took 396 s of
// go test's 600 s default with two at once on 2 cores).
const protocolParallel = "8"

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
