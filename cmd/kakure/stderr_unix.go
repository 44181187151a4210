//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// redirectStderr points the process's standard error (file descriptor 2)
// at f, so that nothing a library writes there reaches the terminal while
// the console UI runs, and returns the function that points it back. A
// failure leaves standard error as it was.
func redirectStderr(f *os.File) (restore func()) {
	saved, err := unix.Dup(int(os.Stderr.Fd()))
	if err != nil {
		return func() {}
	}
	if err := unix.Dup2(int(f.Fd()), int(os.Stderr.Fd())); err != nil {
		unix.Close(saved)
		return func() {}
	}
	return func() {
		unix.Dup2(saved, int(os.Stderr.Fd()))
		unix.Close(saved)
	}
}
