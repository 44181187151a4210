//go:build !race

package circuit

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = false
