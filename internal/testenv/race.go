//go:build race

package testenv

// Race is true when the tests are built with the race detector (-race).
const Race = true
