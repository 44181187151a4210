//go:build !unix

package main

import "os"

// redirectStderr leaves standard error alone where file descriptors cannot
// be duplicated; the logs go to the log file all the same.
func redirectStderr(*os.File) (restore func()) { return func() {} }
