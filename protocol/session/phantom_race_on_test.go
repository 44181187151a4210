//go:build race

package session_test

// phantomRace is true under the race detector, which makes garbling ten
// times slower: the 9×9 Phantom Go games are then left out.
const phantomRace = true

// raceScheduling is phantomRace for what changes only how the tests are
// scheduled under the race detector (how many run at once, which run
// alone), not what any of them does: README's table of sizes leaves it
// out.
const raceScheduling = true
