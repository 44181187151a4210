//go:build !race

package main

// raceEnabled is true under the race detector, which makes the secure
// computation of Phantom Go tens of times slower.
const raceEnabled = false
