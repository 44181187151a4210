//go:build race

package main

// raceEnabled is true under the race detector, which makes the secure
// computation of Phantom Go tens of times slower.
const raceEnabled = true

// raceScheduling is raceEnabled for what changes only how the tests are
// scheduled under the race detector (how many run at once), not what any
// of them does: README's table of sizes leaves it out.
const raceScheduling = true
