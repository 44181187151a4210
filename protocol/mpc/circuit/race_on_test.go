//go:build race

package circuit

// raceEnabled is true when the tests run under the race detector, which
// makes plaintext evaluation about ten times slower: the long random tests
// then play fewer tries.
const raceEnabled = true
