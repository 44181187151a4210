//go:build !linux

package session

import (
	"os"

	. "github.com/kakure/kakure/protocol"
)

// fdatasync flushes f to the disk (fsync where fdatasync is missing).
func fdatasync(f *os.File) error { return f.Sync() }
