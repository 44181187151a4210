package protocol_test

import (
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
)

// crashCaseLeftOut reports whether a crash test of many cases leaves out
// its case that crashes at a message of kind: under the race detector,
// which makes garbling ten times slower, all but the cases marked race;
// by default (go test ./...) those and the first case of each kind of
// message, so that every kind crashed at still comes up (seen holds the
// kinds kept so far); in the full tier (KAKURE_TEST_FULL=1) none.
func crashCaseLeftOut(seen map[protocol.Kind]bool, kind protocol.Kind, race bool) bool {
	switch {
	case race || testenv.Full():
		return false
	case phantomRace, seen[kind]:
		return true
	}
	seen[kind] = true
	return false
}
