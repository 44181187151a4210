//go:build race

package protocol_test

// phantomRace is true under the race detector, which makes garbling ten
// times slower: the 9×9 Phantom Go games are then left out.
const phantomRace = true
