package session_test

import (
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
)

// crashCaseLeftOut reports whether a crash test of many cases leaves out
// its case that crashes at a message of kind, at at: under the race
// detector, which makes garbling ten times slower, all but the cases
// marked race; by default (go test ./...) those and the first case of
// each kind of message that crashes the program after its own message
// (at "saved" or "secrets"), whose attachments it must make again
// (PN-D14), so that every kind still comes up (seen holds the kinds kept
// so far); in the full tier (KAKURE_TEST_FULL=1) none. (The cases at
// "auto", after taking the other's message, which the other sends again
// from memory, run by default where marked race.)
func crashCaseLeftOut(seen map[protocol.Kind]bool, at string, kind protocol.Kind, race bool) bool {
	switch {
	case race || testenv.Full():
		return false
	case phantomRace, at == "auto", seen[kind]:
		return true
	}
	seen[kind] = true
	return false
}
