//go:build !race

package protocol_test

// phantomRace is true under the race detector.
const phantomRace = false
