package main

import (
	"os"
	"testing"
)

// TestMain lets the test binary stand in for the kakure binary: with
// KAKURE_BE_BINARY=1 it runs the command line given after "--" as kakure
// would, so that tests can start real kakure processes without building.
func TestMain(m *testing.M) {
	if os.Getenv("KAKURE_BE_BINARY") == "1" {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		env := &environment{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
		os.Exit(run(env, args))
	}
	os.Exit(m.Run())
}
