//go:build !linux

package main

import (
	"errors"
	"os"
)

// echoOff is only implemented on Linux: elsewhere the passphrase comes
// from KAKURE_PASSPHRASE.
func echoOff(*os.File) (func(), error) {
	return nil, errors.New("typing a passphrase without echo is not supported on this system")
}
