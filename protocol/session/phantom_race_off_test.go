//go:build !race

package session_test

// phantomRace is true under the race detector.
const phantomRace = false

// raceScheduling is phantomRace for what changes only how the tests are
// scheduled under the race detector (how many run at once, which run
// alone), not what any of them does: README's table of sizes leaves it
// out.
const raceScheduling = false
