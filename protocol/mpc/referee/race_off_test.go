//go:build !race

package referee

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = false
