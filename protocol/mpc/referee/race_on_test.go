//go:build race

package referee

// raceEnabled is true when the tests run under the race detector, which
// makes garbling and evaluation about ten times slower: the long random
// tests then play fewer tries.
const raceEnabled = true
