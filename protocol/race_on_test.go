//go:build race

package protocol_test

// raceEnabled is true under the race detector, which makes the secure
// computation of a 9×9 Phantom Go game take minutes on two cores.
const raceEnabled = true
