//go:build !unix

package node

import "os"

// tryLockFile is a stand-in where kakure has no file lock (not unix): the
// home directory is not protected against a second program there.
func tryLockFile(*os.File) (bool, error) { return true, nil }

// unlockFile releases the lock of tryLockFile.
func unlockFile(*os.File) {}
