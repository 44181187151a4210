//go:build !race

package protocol_test

// raceEnabled is true under the race detector.
const raceEnabled = false
