package protocol_test

import "github.com/kakure/kakure/internal/testenv"

// crashCaseLeftOut reports whether a crash test of many cases leaves its
// case i out: under the race detector, which makes garbling ten times
// slower, all but the cases marked race; by default (go test ./...)
// those and every step-th case are kept, so that every kind of message
// crashed at still comes up often enough; in the full tier
// (KAKURE_TEST_FULL=1) none is left out.
func crashCaseLeftOut(i, step int, race bool) bool {
	switch {
	case race || testenv.Full():
		return false
	case phantomRace:
		return true
	}
	return i%step != 0
}
